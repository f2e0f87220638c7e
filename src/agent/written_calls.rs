//! A reply whose tool calls the model wrote in its text ([`crate::llm::text_calls`]) becomes
//! the reply it meant: the calls as tool calls, the prose as its text. From there on they go
//! the way of every call (read into a `ToolCall`, checked, run, answered with a tool result),
//! and the next request carries them back as tool calls, which is what a chat template with
//! tools renders them as anyway.

use super::events::WrittenCall;
use crate::llm::text_calls::{self, Reading, Unreadable};
use crate::llm::{ModelReply, RawToolCall};

/// What became of one reply.
pub(super) enum Lifted {
    /// The reply as it came: tool calls of the API, or text with no call in it.
    AsSent(ModelReply),
    /// Calls written in the text, now tool calls; what the transcript says of them.
    Written {
        reply: ModelReply,
        calls: Vec<WrittenCall>,
    },
    /// A call written in the text that could not be read: the model is told why.
    Unreadable {
        reply: ModelReply,
        unreadable: Unreadable,
    },
}

/// The reply of `step`, its written calls lifted when it has no tool call of its own. Their ids
/// are made from the step and their place (`text-2-1`), so that a replay of the same turn makes
/// the same ones.
pub(super) fn lift(reply: ModelReply, step: u32, tools: &[&str]) -> Lifted {
    if !reply.tool_calls.is_empty() {
        return Lifted::AsSent(reply);
    }
    let Some(text) = reply.text.as_deref() else {
        return Lifted::AsSent(reply);
    };
    match text_calls::read(text, tools) {
        Reading::Prose => Lifted::AsSent(reply),
        Reading::Unreadable(unreadable) => Lifted::Unreadable { reply, unreadable },
        Reading::Calls { calls, rest } => {
            let mut tool_calls = Vec::new();
            let mut written = Vec::new();
            for (index, call) in calls.into_iter().enumerate() {
                let id = format!("text-{step}-{}", index + 1);
                written.push(WrittenCall {
                    call_id: id.clone(),
                    name: call.name.clone(),
                    form: call.form,
                    repairs: call.repairs,
                });
                tool_calls.push(RawToolCall {
                    id,
                    name: call.name,
                    arguments: call.arguments,
                });
            }
            Lifted::Written {
                reply: ModelReply {
                    text: rest,
                    tool_calls,
                    ..reply
                },
                calls: written,
            }
        }
    }
}

/// What the model is told when a call it wrote could not be read.
pub(super) fn correction(unreadable: &Unreadable) -> String {
    format!(
        "Nothing was run: {unreadable}\n{}",
        text_calls::HOW_TO_WRITE
    )
}
