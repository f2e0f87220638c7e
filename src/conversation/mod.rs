//! Conversations kept as files: recorded from a live run, read back (untrusted) and replayed
//! with the SQL running live. Pure: no browser, so native tests cover every rule.
//!
//! - [`format`]: the file's types (`askdb-conversation/1`, and `/2` with candidates; see
//!   `docs/conversation-format.md`).
//! - [`read`]: a file's text → a [`ConversationFile`], or a [`ReadError`] a person can act on;
//!   every limit a hostile file could push against is checked here, before anything runs.
//! - [`Recorder`]: an [`crate::llm::LlmProvider`] around the real one that keeps each model turn
//!   and the tool results the model saw. Recording at the LLM boundary means the agent needs no
//!   change: what the model received and sent is exactly what crosses that boundary.
//! - [`ReplayLlm`]: an [`crate::llm::LlmProvider`] that answers from a recording, at a pace a
//!   person can follow, and reports where the live tool results differ from the recorded ones.
//! - [`kept`]: a conversation kept in this browser (its text, and what its list shows).
//! - [`check_replay`]: a whole recording replayed at once on a database, and what no longer
//!   matches (`askdb-eval replay-check`, which a documentation build runs).

mod candidates;
mod check;
pub mod format;
pub mod kept;
mod read;
mod recording;
pub mod replay;

pub use candidates::{other_agreement, CandidateReplay};
pub use check::{check_replay, QuestionCheck, ReplayCheck};
pub use format::{
    format_for, ConversationFile, DatabaseIdentity, ModelInfo, OnDemandRecord, RecordedAnswer,
    RecordedCandidate, RecordedCandidates, RecordedEvidence, RecordedQuestion, RecordedTurn,
    RemoteRecord, RunSettings, FORMAT, FORMAT_CANDIDATES,
};
pub use read::{read, ReadError, LIMITS};
pub use recording::Recorder;
pub use replay::{Difference, Pace, ReplayLlm};

#[cfg(test)]
mod tests;
