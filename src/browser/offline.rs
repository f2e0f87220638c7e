//! The page offline: registers the service worker (`www/sw.js`), which keeps this build of the
//! page, its chunks and SQLite in the browser so that the page opens, and opens local files,
//! with no network.
//!
//! Registered only once a database has opened (`ui::opening`): the service worker downloads
//! every file of the page at once, which a first visit must not (tests/e2e/first-visit.test.mjs),
//! and a person who opened a database is about to need them anyway. Never on a host's behalf:
//! an embedded page (`?embed=1`, or any page inside an iframe) registers nothing.
//!
//! Its calls are made by name through `js_sys::Reflect`, like `opfs`: web-sys's service worker
//! types are features this one call does not need.

use super::in_a_frame;
use js_sys::{Function, Object, Promise, Reflect};
use std::cell::Cell;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

thread_local! {
    /// Whether this page has registered already: once a page is enough.
    static REGISTERED: Cell<bool> = const { Cell::new(false) };
}

/// Registers `sw.js` for the page's folder. Does nothing when the page is `embedded` (as its
/// address says: `?embed=`, read by `settings::address`) or inside an iframe, when the browser
/// has no service workers (an old one, an insecure address, some private windows), or the
/// second time; never fails: a page without its service worker works as it did before, online.
pub fn register(embedded: bool) {
    if embedded || in_a_frame() || REGISTERED.with(|done| done.replace(true)) {
        return;
    }
    let Some(container) = service_worker_container() else {
        return;
    };
    let options = Object::new();
    let _ = Reflect::set(&options, &"scope".into(), &"./".into());
    // The service worker reads its list of files from offline-files.js (importScripts), which
    // changes with every build: "none" has the browser look at it past its HTTP cache, so that
    // a new build is found on the next visit.
    let _ = Reflect::set(&options, &"updateViaCache".into(), &"none".into());
    let Ok(method) = Reflect::get(&container, &"register".into()) else {
        return;
    };
    let Ok(method) = method.dyn_into::<Function>() else {
        return;
    };
    let Ok(returned) = method.call2(&container, &"sw.js".into(), &options) else {
        return;
    };
    // A refusal (no sw.js on this server, a browser that says no) is left unsaid: the page
    // does not depend on it.
    if let Ok(promise) = returned.dyn_into::<Promise>() {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = JsFuture::from(promise).await;
        });
    }
}

/// `navigator.serviceWorker`, or `None` where the browser has none.
fn service_worker_container() -> Option<JsValue> {
    let window = JsValue::from(web_sys::window()?);
    let navigator = Reflect::get(&window, &"navigator".into()).ok()?;
    Reflect::get(&navigator, &"serviceWorker".into())
        .ok()
        .filter(|container| container.is_object())
}
