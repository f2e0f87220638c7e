//! When to try a failed call again, and after how long. Pure: the caller waits.

use super::LlmError;

/// Retries for busy servers: rate limits and 5xx/overloaded answers, nothing else (a bad key
/// or a wrong model name stays wrong). No jitter: one page makes one call at a time, so there
/// is no herd of clients to spread out, and fixed delays keep the policy testable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first call; 3 means at most 4 calls.
    pub max_retries: u32,
    /// The wait before the first retry; it doubles with each further one.
    pub base_delay_ms: u32,
    /// No wait is longer, also when the server asks for more.
    pub max_delay_ms: u32,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            base_delay_ms: 1_000,
            max_delay_ms: 30_000,
        }
    }
}

impl RetryPolicy {
    /// How long to wait before retry number `attempt` (1 for the retry after the first
    /// failure) of a call that failed with `error`; `None` when it should not be retried.
    pub fn delay_before_retry(&self, attempt: u32, error: &LlmError) -> Option<u32> {
        if let LlmError::ThroughDemoEndpoint(error) = error {
            return self.delay_before_retry(attempt, error);
        }
        if attempt == 0 || attempt > self.max_retries || !error.is_retryable() {
            return None;
        }
        let delay = match error {
            LlmError::RateLimited {
                retry_after_ms: Some(ms),
                ..
            } => *ms,
            // A demo's endpoint says when the reader's burst comes back: sooner is refused
            // again, so a wait longer than the policy allows is not waited at all.
            LlmError::Proxy(refusal) if refusal.retry_after_s.is_some() => {
                let ms = refusal
                    .retry_after_s
                    .unwrap_or_default()
                    .saturating_mul(1000);
                return u32::try_from(ms).ok().filter(|ms| *ms <= self.max_delay_ms);
            }
            _ => self.backoff_ms(attempt),
        };
        Some(delay.min(self.max_delay_ms))
    }

    /// `base_delay_ms`, doubled for each retry after the first.
    fn backoff_ms(&self, attempt: u32) -> u32 {
        let factor = 1u32.checked_shl(attempt - 1).unwrap_or(u32::MAX);
        self.base_delay_ms.saturating_mul(factor)
    }
}
