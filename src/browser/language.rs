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

thread_local! {
    /// `Intl.PluralRules` for the last language asked about: made once, not per number.
    static PLURAL_RULES: RefCell<Option<(String, js_sys::Intl::PluralRules)>> =
        const { RefCell::new(None) };
}

/// The plural category of `n` in language `tag` ("one", "other", …), by `Intl.PluralRules`.
pub fn plural_category(tag: &str, n: f64) -> String {
    PLURAL_RULES.with(|cached| {
        let mut cached = cached.borrow_mut();
        if cached.as_ref().is_none_or(|(for_tag, _)| for_tag != tag) {
            let locales = js_sys::Array::of1(&JsValue::from_str(tag));
            let rules = js_sys::Intl::PluralRules::new(&locales, &js_sys::Object::new());
            *cached = Some((tag.to_string(), rules));
        }
        let (_, rules) = cached.as_ref().expect("made above");
        rules.select(n).into()
    })
}

thread_local! {
    /// `Intl.NumberFormat`'s format function for the last language asked about: made once.
    /// `Number.toLocaleString` makes a formatter on every call, 35 ms of the first open's
    /// drawing of its tables on a cold page (issue 43).
    static NUMBER_FORMAT: RefCell<Option<(String, js_sys::Function)>> =
        const { RefCell::new(None) };
}

/// `n` as language `tag` writes it ("1,234"; "1.234" in German).
pub fn format_number(tag: &str, n: f64) -> String {
    NUMBER_FORMAT.with(|cached| {
        let mut cached = cached.borrow_mut();
        if cached.as_ref().is_none_or(|(for_tag, _)| for_tag != tag) {
            let locales = js_sys::Array::of1(&JsValue::from_str(tag));
            let format = js_sys::Intl::NumberFormat::new(&locales, &js_sys::Object::new());
            *cached = Some((tag.to_string(), format.format()));
        }
        let (_, format) = cached.as_ref().expect("made above");
        format
            .call1(&JsValue::NULL, &JsValue::from_f64(n))
            .ok()
            .and_then(|text| text.as_string())
            .unwrap_or_else(|| n.to_string())
    })
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
