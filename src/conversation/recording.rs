//! Recording a live question at the LLM boundary.

use super::format::RecordedTurn;
use crate::clock::Clock;
use crate::llm::stream::Delta;
use crate::llm::{ChatRequest, LlmError, LlmProvider, Message, ModelReply};
use std::cell::RefCell;

/// Wraps the provider a question is asked with and keeps what crossed the boundary: each reply
/// the agent received, and the tool results the next request carried back to the model.
/// Failed calls are not kept (a replay never fails the way the network did).
pub struct Recorder<'a, L: ?Sized> {
    inner: &'a L,
    clock: &'a dyn Clock,
    turns: RefCell<Vec<RecordedTurn>>,
}

impl<'a, L: LlmProvider + ?Sized> Recorder<'a, L> {
    pub fn new(inner: &'a L, clock: &'a dyn Clock) -> Self {
        Recorder {
            inner,
            clock,
            turns: RefCell::new(Vec::new()),
        }
    }

    /// The turns recorded so far, oldest first.
    pub fn turns(&self) -> Vec<RecordedTurn> {
        self.turns.borrow().clone()
    }

    /// The tool results that `request` sends back are the results of the last turn's calls
    /// (of the API, or written in its text: the turn is kept as the model sent it, and the
    /// agent reads those calls from it again when it replays). A retried request carries the
    /// same results again: kept once.
    fn keep_results(&self, request: &ChatRequest) {
        let Some(Message::ToolResults { results }) = request.messages.last() else {
            return;
        };
        if let Some(last) = self.turns.borrow_mut().last_mut() {
            if last.results.is_empty() {
                last.results = results.clone();
            }
        }
    }
}

impl<L: LlmProvider + ?Sized> LlmProvider for Recorder<'_, L> {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError> {
        self.complete_streaming(request, &mut |_| {}).await
    }

    /// A streamed reply is recorded as it ends, whole: a saved conversation is the same
    /// whether the replies were streamed or not.
    async fn complete_streaming(
        &self,
        request: &ChatRequest,
        on_delta: &mut dyn FnMut(Delta),
    ) -> Result<ModelReply, LlmError> {
        self.keep_results(request);
        let started = self.clock.now_ms();
        let reply = self.inner.complete_streaming(request, on_delta).await?;
        let elapsed_ms = (self.clock.now_ms() - started).max(0.0).round();
        self.turns
            .borrow_mut()
            .push(RecordedTurn::new(&reply, elapsed_ms));
        Ok(reply)
    }
}
