//! Time in the page: `performance.now()` and `setTimeout`.

use crate::clock::Clock;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use gloo_timers::future::TimeoutFuture;

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
