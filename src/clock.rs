//! Time, as the host provides it.
//!
//! The agent and the LLM retry logic need "now" and "wait", but must not know whether they run
//! in a browser (timers from `setTimeout`) or in a native test (a real or a fake clock).

use futures::future::LocalBoxFuture;

/// A source of time and of waiting.
pub trait Clock {
    /// Milliseconds since some fixed point (only differences matter).
    fn now_ms(&self) -> f64;
    /// A future that completes after `ms` milliseconds.
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()>;
}

/// Wall-clock time on native hosts (the `askdb-eval` runner). A sleep wakes its future from a
/// timer thread, so a deadline can race a query or a model call on a one-thread executor.
#[cfg(not(target_arch = "wasm32"))]
pub struct SystemClock {
    started: std::time::Instant,
}

#[cfg(not(target_arch = "wasm32"))]
impl SystemClock {
    pub fn new() -> SystemClock {
        SystemClock {
            started: std::time::Instant::now(),
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1_000.0
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        Box::pin(futures_timer::Delay::new(std::time::Duration::from_millis(
            u64::from(ms),
        )))
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use futures::future::{select, Either};

    #[test]
    fn a_short_sleep_wins_a_race_against_a_long_one() {
        let clock = SystemClock::new();
        let before = clock.now_ms();
        let raced = futures::executor::block_on(select(clock.sleep(20), clock.sleep(60_000)));
        assert!(matches!(raced, Either::Left(_)));
        assert!(clock.now_ms() - before >= 20.0);
    }
}
