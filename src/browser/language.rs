//! The browser's languages, and how a language counts and writes numbers (`Intl`), for the
//! page's catalogue (`crate::i18n`, wired by `ui::language`).

use std::cell::RefCell;
use wasm_bindgen::JsValue;

/// `navigator.languages`, in the person's order.
pub fn browser_languages() -> Vec<String> {
    let Some(window) = web_sys::window() else {
        return Vec::new();
    };
    window
        .navigator()
        .languages()
        .iter()
        .filter_map(|tag| tag.as_string())
        .collect()
}

/// `<html lang>`: screen readers read the page in its language, and the browser picks fonts
/// and line breaks for it.
pub fn set_document_language(tag: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.document_element())
    {
        // Nothing to do if the browser refuses: the attribute only helps.
        let _ = root.set_attribute("lang", tag);
    }
}

/// `Intl`'s objects for the last language asked about: made once, not per number (making one
/// loads its locale data; `Number.toLocaleString` made a formatter on every call, 35 ms of the
/// first open's drawing of its tables on a cold page, issue 43).
type ForLanguage<T> = RefCell<Option<(String, T)>>;

thread_local! {
    static PLURAL_RULES: ForLanguage<js_sys::Intl::PluralRules> = const { RefCell::new(None) };
    /// `Intl.NumberFormat`'s bound `format` function.
    static NUMBER_FORMAT: ForLanguage<js_sys::Function> = const { RefCell::new(None) };
}

/// What `ask` finds in `cached`'s object for language `tag`, made by `make` first when the
/// one kept is for another language (or none is).
fn with_language<T, R>(
    cached: &'static std::thread::LocalKey<ForLanguage<T>>,
    tag: &str,
    make: impl FnOnce(&js_sys::Array) -> T,
    ask: impl FnOnce(&T) -> R,
) -> R {
    cached.with(|cached| {
        let mut cached = cached.borrow_mut();
        if cached.as_ref().is_none_or(|(for_tag, _)| for_tag != tag) {
            let locales = js_sys::Array::of1(&JsValue::from_str(tag));
            *cached = Some((tag.to_string(), make(&locales)));
        }
        let (_, made) = cached.as_ref().expect("made above");
        ask(made)
    })
}

/// The plural category of `n` in language `tag` ("one", "other", …), by `Intl.PluralRules`.
pub fn plural_category(tag: &str, n: f64) -> String {
    with_language(
        &PLURAL_RULES,
        tag,
        |locales| js_sys::Intl::PluralRules::new(locales, &js_sys::Object::new()),
        |rules| rules.select(n).into(),
    )
}

/// `n` as language `tag` writes it ("1,234"; "1.234" in German).
pub fn format_number(tag: &str, n: f64) -> String {
    with_language(
        &NUMBER_FORMAT,
        tag,
        |locales| js_sys::Intl::NumberFormat::new(locales, &js_sys::Object::new()).format(),
        |format| {
            format
                .call1(&JsValue::NULL, &JsValue::from_f64(n))
                .ok()
                .and_then(|text| text.as_string())
                .unwrap_or_else(|| n.to_string())
        },
    )
}

/// The text of the catalogue file at `url` (cached by the browser and the offline copy like
/// the page's other files).
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let response = gloo_net::http::Request::get(url)
        .send()
        .await
        .map_err(|error| error.to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    response.text().await.map_err(|error| error.to_string())
}
