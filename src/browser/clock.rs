//! Time in the page: `performance.now()` and `setTimeout`.

use crate::clock::Clock;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::{JsCast, JsValue};

/// Milliseconds since the page started. `performance.now()` never jumps when the system clock
/// is set; `Date.now()` stands in where there is no `performance`.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map_or_else(js_sys::Date::now, |performance| performance.now())
}

/// The date and time now, in UTC, as ISO 8601 (`2026-12-01T09:30:00.000Z`).
pub fn now_iso() -> String {
    String::from(js_sys::Date::new_0().to_iso_string())
}

/// The time of day ("14:03:21", local time) of a moment given by [`now_ms`].
pub fn time_of_day(page_ms: f64) -> String {
    let origin = web_sys::window()
        .and_then(|window| window.performance())
        .map_or(0.0, |performance| performance.time_origin());
    let date = js_sys::Date::new(&(origin + page_ms).into());
    format!(
        "{:02}:{:02}:{:02}",
        date.get_hours(),
        date.get_minutes(),
        date.get_seconds()
    )
}

/// The agent's [`Clock`] in the browser.
#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_ms(&self) -> f64 {
        now_ms()
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        // Dropping the future clears the timer, so a stopped question leaves none behind.
        TimeoutFuture::new(ms).boxed_local()
    }
}

/// Resolves at the browser's next quiet moment (`requestIdleCallback`: nothing else to do
/// before the next frame), or after `at_most_ms` if none comes; where there is no such call
/// (Safari), after a short timeout.
pub async fn quiet_moment(at_most_ms: u32) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let idle = js_sys::Reflect::get(&window, &"requestIdleCallback".into())
        .ok()
        .and_then(|call| call.dyn_into::<js_sys::Function>().ok());
    let Some(idle) = idle else {
        TimeoutFuture::new(at_most_ms.min(200)).await;
        return;
    };
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"timeout".into(), &at_most_ms.into());
        if idle.call2(&window, &resolve, &options).is_err() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
