//! The agent's [`Clock`] in the browser: `performance.now()` and `setTimeout`.

use crate::clock::Clock;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use gloo_timers::future::TimeoutFuture;

/// Time as the page sees it. `performance.now()` never jumps when the system clock is set.
#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_ms(&self) -> f64 {
        web_sys::window()
            .and_then(|window| window.performance())
            .map_or_else(js_sys::Date::now, |performance| performance.now())
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        // Dropping the future clears the timer, so a stopped question leaves none behind.
        TimeoutFuture::new(ms).boxed_local()
    }
}
