//! Racing each piece of work (a model call, a tool call, a wait) against the person's cancel
//! and the question's deadline, so that neither a hung provider nor a slow query can keep the
//! question open.

use super::AgentError;
use crate::clock::Clock;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::Poll;

pub(crate) struct Race<'a> {
    clock: &'a dyn Clock,
    /// The time allowed for the whole question, for the error message.
    deadline_ms: u32,
    deadline_at_ms: f64,
    cancel: Pin<&'a mut dyn Future<Output = ()>>,
    /// A completed future must not be polled again; remember that it did complete.
    cancelled: bool,
}

impl<'a> Race<'a> {
    pub(crate) fn new(
        clock: &'a dyn Clock,
        deadline_ms: u32,
        cancel: Pin<&'a mut dyn Future<Output = ()>>,
    ) -> Self {
        Race {
            clock,
            deadline_ms,
            deadline_at_ms: clock.now_ms() + f64::from(deadline_ms),
            cancel,
            cancelled: false,
        }
    }

    /// Milliseconds left before the deadline (0 when past it).
    pub(crate) fn remaining_ms(&self) -> u32 {
        let left = (self.deadline_at_ms - self.clock.now_ms()).ceil();
        if left <= 0.0 {
            0
        } else {
            left.min(f64::from(u32::MAX)) as u32
        }
    }

    /// Runs `work` unless cancel or the deadline comes first. Cancel is looked at first, then the
    /// work, then the timer: work that is already done is not thrown away for a timer that is
    /// only now being polled (a virtual clock in tests advances exactly then).
    pub(crate) async fn run<T>(&mut self, work: impl Future<Output = T>) -> Result<T, AgentError> {
        let deadline = AgentError::Deadline {
            after_ms: self.deadline_ms,
        };
        if self.cancelled {
            return Err(AgentError::Cancelled);
        }
        let remaining = self.remaining_ms();
        if remaining == 0 {
            return Err(deadline);
        }
        let mut timer = self.clock.sleep(remaining);
        let mut work = std::pin::pin!(work);
        let cancel = &mut self.cancel;
        let outcome = poll_fn(|cx| {
            if cancel.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Err(AgentError::Cancelled));
            }
            if let Poll::Ready(value) = work.as_mut().poll(cx) {
                return Poll::Ready(Ok(value));
            }
            if timer.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Err(deadline.clone()));
            }
            Poll::Pending
        })
        .await;
        if let Err(AgentError::Cancelled) = outcome {
            self.cancelled = true;
        }
        outcome
    }
}
