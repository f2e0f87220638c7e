//! The model, watched for failures that no other question would escape: a refused key, a model
//! or URL that does not exist, an endpoint never reached. The first one stops the run (the
//! question in progress ends, the report says "stopped") instead of failing every question.

use askdb::llm::{ChatRequest, LlmError, LlmProvider, ModelReply};
use std::cell::{Cell, RefCell};
use std::future::{poll_fn, Future};
use std::task::{Poll, Waker};

pub struct WatchedModel<L> {
    inner: L,
    /// Whether any call has been answered: a network error after that is one slow or lost
    /// request, not an endpoint that cannot be reached.
    answered_once: Cell<bool>,
    failure: RefCell<Option<LlmError>>,
    /// Who waits on [`WatchedModel::stopped`].
    waiting: RefCell<Vec<Waker>>,
}

impl<L: LlmProvider> WatchedModel<L> {
    pub fn new(inner: L) -> Self {
        WatchedModel {
            inner,
            answered_once: Cell::new(false),
            failure: RefCell::new(None),
            waiting: RefCell::new(Vec::new()),
        }
    }

    /// The failure that stopped the run, if one did.
    pub fn failure(&self) -> Option<LlmError> {
        self.failure.borrow().clone()
    }

    /// Completes once a failure stops the run.
    pub fn stopped(&self) -> impl Future<Output = ()> + '_ {
        poll_fn(|cx| {
            if self.failure.borrow().is_some() {
                Poll::Ready(())
            } else {
                self.waiting.borrow_mut().push(cx.waker().clone());
                Poll::Pending
            }
        })
    }

    fn stops_the_run(&self, error: &LlmError) -> bool {
        match error {
            LlmError::Unauthorized { .. } | LlmError::NotFound { .. } => true,
            LlmError::Network { .. } => !self.answered_once.get(),
            _ => false,
        }
    }
}

impl<L: LlmProvider> LlmProvider for WatchedModel<L> {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError> {
        let outcome = self.inner.complete(request).await;
        match &outcome {
            Ok(_) => self.answered_once.set(true),
            Err(error) if self.stops_the_run(error) => {
                self.failure
                    .borrow_mut()
                    .get_or_insert_with(|| error.clone());
                for waker in self.waiting.borrow_mut().drain(..) {
                    waker.wake();
                }
            }
            Err(_) => {}
        }
        outcome
    }
}
