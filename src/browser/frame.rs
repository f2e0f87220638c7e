//! The page inside an iframe: telling the host page how tall the content is.

use js_sys::{Object, Reflect};
use std::cell::Cell;
use wasm_bindgen::prelude::*;

/// The message the host page listens for: `{type: "askdb:height", height}` (CSS pixels).
const HEIGHT_MESSAGE: &str = "askdb:height";

/// Whether the page is shown inside another page (an iframe), rather than on its own.
pub fn in_a_frame() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    match window.parent() {
        Ok(Some(parent)) => JsValue::from(parent) != JsValue::from(window),
        _ => false,
    }
}

/// Posts `element`'s height to the parent page now and whenever it changes, so that the host
/// can size the iframe to the content without a scrollbar. Does nothing outside an iframe.
///
/// The height is not private (it is the host's own layout), so any host may read it: the
/// message goes to every origin.
pub fn report_height(element: web_sys::Element) {
    let Some(parent) = web_sys::window()
        .filter(|_| in_a_frame())
        .and_then(|window| window.parent().ok().flatten())
    else {
        return;
    };
    let last_sent = Cell::new(None::<f64>);
    let measured = element.clone();
    let send = Closure::<dyn Fn()>::new(move || {
        let height = measured.get_bounding_client_rect().height().ceil();
        if last_sent.replace(Some(height)) == Some(height) {
            return;
        }
        let message = Object::new();
        let _ = Reflect::set(&message, &"type".into(), &HEIGHT_MESSAGE.into());
        let _ = Reflect::set(&message, &"height".into(), &height.into());
        let _ = parent.post_message(&message, "*");
    });
    // A ResizeObserver calls back once at the start, then on every change of size.
    if let Ok(observer) = web_sys::ResizeObserver::new(send.as_ref().unchecked_ref()) {
        observer.observe(&element);
        // Both live as long as the page.
        std::mem::forget(observer);
    }
    send.forget();
}
