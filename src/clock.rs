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
