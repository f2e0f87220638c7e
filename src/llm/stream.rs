//! Replies read as they are written.
//!
//! A streamed reply comes as server-sent events ([`super::sse`]); each provider's wire file has
//! a [`StreamAssembler`] that reads its own events into what the person may see at once
//! ([`Delta`]: text as it is written, a tool call as soon as its name is known) and, at the end,
//! into the JSON body the same reply would have had unstreamed. That body then goes through
//! the provider's usual `parse_response`: a streamed reply and a whole one are read by the same
//! code, and the ledger, which keeps the stream's bytes, reads them back into the same reply.

use super::sse::{SseEvent, SseReader};
use super::LlmError;

/// What a piece of a reply adds for the person to see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delta {
    /// More of the reply's text.
    Text(String),
    /// The model began tool call `index` (0 for its first in this reply), named `name`; its
    /// arguments are still being written.
    ToolCall { index: usize, name: String },
    /// More of tool call `index`'s arguments (JSON text, cut anywhere).
    ToolArguments { index: usize, piece: String },
}

/// One provider's reading of its reply's events.
pub trait StreamAssembler {
    /// Reads one event; what it adds for the person to see, or the error the provider sent in
    /// the stream.
    fn event(&mut self, event: &SseEvent) -> Result<Vec<Delta>, LlmError>;

    /// The stream is over: the JSON body the reply would have had unstreamed, or why there is
    /// none (the stream ended before the provider's closing event).
    fn whole_body(self: Box<Self>) -> Result<serde_json::Value, LlmError>;
}

/// A reply being streamed: bytes in, deltas out, the whole body at the end.
pub struct ReplyStream {
    sse: SseReader,
    assembler: Box<dyn StreamAssembler>,
    /// The first error in the stream; nothing after it is read.
    failed: Option<LlmError>,
}

impl ReplyStream {
    pub fn new(assembler: Box<dyn StreamAssembler>) -> ReplyStream {
        ReplyStream {
            sse: SseReader::new(),
            assembler,
            failed: None,
        }
    }

    /// Reads the next piece of the stream; what it adds for the person to see.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Delta> {
        let mut deltas = Vec::new();
        if self.failed.is_some() {
            return deltas;
        }
        for event in self.sse.feed(bytes) {
            match self.assembler.event(&event) {
                Ok(more) => deltas.extend(more),
                Err(error) => {
                    self.failed = Some(error);
                    break;
                }
            }
        }
        deltas
    }

    /// The stream ended: the reply's whole JSON body, or the error it carried or its end.
    pub fn finish(self) -> Result<serde_json::Value, LlmError> {
        match self.failed {
            Some(error) => Err(error),
            None => self.assembler.whole_body(),
        }
    }
}

/// The stream ended before the provider's closing event: said the same way for every provider.
pub fn cut_short() -> LlmError {
    LlmError::Malformed {
        message: "the streamed reply ended before it was complete (the connection may have \
                  dropped); ask again, or turn off \"Stream replies\" in Settings"
            .to_string(),
    }
}

/// An event whose data is not the JSON the provider documents.
pub fn not_json(error: &serde_json::Error, data: &str) -> LlmError {
    let mut shown: String = data.chars().take(120).collect();
    if shown.len() < data.len() {
        shown.push('…');
    }
    LlmError::Malformed {
        message: format!("a streamed event is not the expected JSON ({error}): {shown}"),
    }
}
