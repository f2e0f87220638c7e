//! The page inside an iframe: telling the host page how tall the content is, and hearing from
//! it which colours to wear.

use js_sys::{Object, Reflect};
use std::cell::Cell;
use wasm_bindgen::prelude::*;

/// The message the host page listens for: `{type: "askdb:height", height}` (CSS pixels).
const HEIGHT_MESSAGE: &str = "askdb:height";
/// The message the host page may send: `{type: "askdb:theme", theme: "light" | "dark"}`.
const THEME_MESSAGE: &str = "askdb:theme";

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

/// Calls `apply` with the theme in each `askdb:theme` message the page that frames this one
/// sends (`askdb-embed.js` sends one when the host page changes its colours). Only the parent
/// window is heard, whatever its origin: any site may frame askdb, and a theme is all it can
/// set this way. Does nothing outside an iframe.
pub fn follow_host_theme(apply: impl Fn(&str) + 'static) {
    let Some(window) = web_sys::window().filter(|_| in_a_frame()) else {
        return;
    };
    let Some(parent) = window.parent().ok().flatten() else {
        return;
    };
    let parent = JsValue::from(parent);
    let listener =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            if event.source().map(JsValue::from) != Some(parent.clone()) {
                return;
            }
            let data = event.data();
            let field = |name: &str| Reflect::get(&data, &name.into()).ok()?.as_string();
            if field("type").as_deref() == Some(THEME_MESSAGE) {
                if let Some(theme) = field("theme") {
                    apply(&theme);
                }
            }
        });
    let _ = window.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
    // Listens as long as the page lives.
    listener.forget();
}
