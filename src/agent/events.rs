//! What the agent reports while it works, so the page can show a live transcript.

use super::draft::Draft;
use super::selection::rank::Reason;
use super::tools::{ToolCall, ToolOutput};
use super::Answer;
use crate::llm::text_calls::{Form, Repair};
use crate::llm::{LlmError, Usage};
use crate::search::values::Coverage;
use serde::Serialize;

/// One thing that happened, and when.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentEvent {
    /// Milliseconds since the question was asked.
    pub at_ms: f64,
    #[serde(flatten)]
    pub kind: EventKind,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// What the agent knows of the data's meaning went with the question (before step 1; only
    /// when there is knowledge).
    Knowledge(KnowledgeSent),
    /// What of the schema went with the question (before step 1): the tables picked for it
    /// when the whole schema is not in the system prompt, the values it names.
    Schema(SchemaSent),
    /// A model turn begins (`step` counts from 1).
    StepStarted { step: u32, max_steps: u32 },
    /// A model call failed in a way that may pass; the agent waits, then tries again.
    LlmRetry {
        step: u32,
        /// 1 for the first retry.
        attempt: u32,
        wait_ms: u32,
        /// Why: the page says it in its reader's language (`present::failure`).
        #[serde(rename = "reason", serialize_with = "as_text")]
        error: LlmError,
    },
    /// The model's reply as written so far, while it streams (only when it does). The events
    /// of the whole reply follow once it ends; a retry starts the draft again.
    Writing { step: u32, draft: Draft },
    /// The model replied; what the call cost and the running total for the question.
    ModelReplied {
        step: u32,
        elapsed_ms: f64,
        /// From sending the request to the first piece of the reply the person could see,
        /// when the reply was streamed.
        #[serde(skip_serializing_if = "Option::is_none")]
        first_token_ms: Option<f64>,
        usage: Usage,
        total_usage: Usage,
    },
    /// Text the model wrote besides (or instead of) tool calls.
    ModelText { step: u32, text: String },
    /// The model answered in plain text or not at all; it was asked to use `final_answer`
    /// (or, for a call it wrote as text that could not be read, told what was wrong with it).
    Nudged { step: u32, reason: NudgeReason },
    /// The model wrote its tool calls as text instead of calling the tools; askdb read them and
    /// runs them as the calls that follow (`ToolCall` with these ids).
    CallsInText { step: u32, calls: Vec<WrittenCall> },
    /// The question ended without the model calling any tool, even when asked to: a model (or
    /// chat template) without tool calling. Before the answer or error it ended with.
    ToolsNeverCalled { steps: u32 },
    /// The model called a tool: `name` as it sent it, and the call as read from its arguments
    /// (`None` when it could not be read; the result says why).
    ToolCall {
        step: u32,
        call_id: String,
        name: String,
        call: Option<ToolCall>,
    },
    /// What the tool gave back, as data the page can render.
    ToolResult {
        step: u32,
        call_id: String,
        name: String,
        is_error: bool,
        elapsed_ms: f64,
        output: Box<ToolOutput>,
    },
    /// The question is answered.
    Answer { answer: Answer },
    /// The question ended without an answer.
    Error {
        message: String,
        usage: Usage,
        steps: u32,
    },
}

/// Why the model was nudged: the page says it in its reader's language.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NudgeReason {
    /// It answered in plain text, without `final_answer`.
    AnsweredWithoutFinalAnswer,
    /// It replied with neither text nor a tool call.
    EmptyReply,
    /// It wrote a tool call as text that could not be read: what is wrong with it (English,
    /// as the model is told).
    UnreadableCall { problem: String },
}

/// An error as its `Display` writes it.
fn as_text<S: serde::Serializer>(error: &LlmError, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(error)
}

/// A tool call the model wrote as text, as askdb read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WrittenCall {
    pub call_id: String,
    pub name: String,
    pub form: Form,
    /// What was repaired before it could be read (empty: it was JSON as written).
    pub repairs: Vec<Repair>,
}

/// The knowledge that went with a question, and what it weighed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KnowledgeSent {
    /// Notes on tables and columns in the system prompt.
    pub notes: usize,
    /// The glossary terms the question uses, sent with it.
    pub terms: Vec<String>,
    /// The worked examples sent with it, best first.
    pub examples: Vec<SentExample>,
    /// Bytes of knowledge in the request: the notes in the system prompt and the question's
    /// part.
    pub bytes: usize,
    /// The most knowledge a request may carry, in bytes.
    pub budget: usize,
    /// Notes, terms and examples left out because they did not fit.
    pub left_out: usize,
}

/// What of the schema went with a question, and what its first request weighed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SchemaSent {
    /// Whether the whole schema is in the system prompt (then no tables are picked).
    pub whole: bool,
    /// The tables whose columns went with the question, best first, each with why.
    pub tables: Vec<PickedTable>,
    /// The values of the data the question names, beside their columns:
    /// `category.name has 'Horror'`.
    pub values: Vec<String>,
    /// What the value index holds, for the person (`present::value_index` says it: "407
    /// values of 27 columns in 10 tables indexed, every row read."); `None` where no index was
    /// asked.
    pub values_coverage: Option<Coverage>,
    /// Bytes of the question's message spent on them.
    pub bytes: usize,
    /// The whole first request: the system prompt, the messages and the tools' descriptions.
    pub first_request_bytes: usize,
}

/// A table picked for a question, and why ("the word 'film'", "on the join path from rental
/// to film", as `present::transcript` says them), each text in it cut to a readable length.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PickedTable {
    pub name: String,
    pub why: Vec<Reason>,
}

/// A worked example sent with a question, and how well it matched it (0 to 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SentExample {
    pub question: String,
    pub score: f32,
}
