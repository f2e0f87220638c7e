//! Small things done to the page's document.

use wasm_bindgen::{JsCast, JsValue};

/// Moves the keyboard focus to the element with this `id`, if there is one that can take it.
pub fn focus_element(id: &str) {
    if let Some(element) = document()
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = element.focus();
    }
}

/// Saves `text` as a file called `name` through a temporary link to a blob (no server
/// involved); `mime` is its type, such as `text/csv;charset=utf-8`.
pub fn save_file(name: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let parts = js_sys::Array::of1(&text.into());
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    save_blob(name, &blob)
}

/// Saves `blob` as a file called `name` (the same temporary link).
pub fn save_blob(name: &str, blob: &web_sys::Blob) -> Result<(), JsValue> {
    let url = web_sys::Url::create_object_url_with_blob(blob)?;
    let link: web_sys::HtmlAnchorElement = document()
        .ok_or_else(|| JsValue::from_str("no document"))?
        .create_element("a")?
        .unchecked_into();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The download has started from the blob; its address is no longer needed.
    gloo_timers::callback::Timeout::new(1_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}

/// Forces light or dark colours (`"light"`, `"dark"`) through the root element's `data-theme`,
/// which the styles read; `None` follows the system's preference.
pub fn set_theme(theme: Option<&str>) {
    let Some(root) = document().and_then(|d| d.document_element()) else {
        return;
    };
    let _ = match theme {
        Some(theme) => root.set_attribute("data-theme", theme),
        None => root.remove_attribute("data-theme"),
    };
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}
