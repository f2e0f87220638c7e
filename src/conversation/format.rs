//! The types of a conversation file, `askdb-conversation/1`. Field names are the format: change
//! them only with a new version (and `docs/conversation-format.md`).

use crate::agent::{AgentConfig, Answer, Failure, Mode};
use crate::engine::QueryLimits;
use crate::llm::{ModelReply, ProviderKind, ToolCall, ToolResult, Usage};
use serde::{Deserialize, Serialize};

/// The value of the `format` field this page writes and reads.
pub const FORMAT: &str = "askdb-conversation/1";

/// One saved conversation: what it ran on, with which model and settings, and every question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// When it was recorded: an ISO 8601 date and time in UTC, as the browser gives it.
    pub recorded_at: String,
    pub database: DatabaseIdentity,
    pub model: ModelInfo,
    pub settings: RunSettings,
    pub questions: Vec<RecordedQuestion>,
}

/// Which database the conversation ran on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatabaseIdentity {
    /// The name the page showed (a file name, or the last part of an address).
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// SHA-256 of its bytes, 64 lower-case hex digits.
    pub sha256: String,
}

impl DatabaseIdentity {
    /// Why `open` is not the database recorded on, in words for a person; `None` when it is.
    pub fn differs_from(&self, open: &DatabaseIdentity) -> Option<String> {
        if self.sha256.eq_ignore_ascii_case(&open.sha256) {
            return None;
        }
        Some(format!(
            "This is not the database the conversation was recorded on: it was recorded on {} \
             ({} bytes, SHA-256 {}…), and {} ({} bytes, SHA-256 {}…) is open. Results may \
             differ from the recording; each step that differs is marked.",
            self.name,
            self.size,
            short_hash(&self.sha256),
            open.name,
            open.size,
            short_hash(&open.sha256)
        ))
    }
}

fn short_hash(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// The model that answered. Never a key, a header or a query string.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub provider: ProviderKind,
    /// The provider's model name.
    pub name: String,
    /// The endpoint's scheme, host and path only: no user, password, query string or fragment
    /// (some endpoints take a key there).
    pub base_url: String,
}

impl ModelInfo {
    pub fn new(provider: ProviderKind, name: &str, base_url: &str) -> ModelInfo {
        ModelInfo {
            provider,
            name: name.to_string(),
            base_url: bare_url(base_url),
        }
    }
}

/// `url` without user and password, query string and fragment.
pub(crate) fn bare_url(url: &str) -> String {
    let url = url.split(['?', '#']).next().unwrap_or_default();
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let host = authority.rsplit('@').next().unwrap_or_default();
            format!("{scheme}://{host}{path}")
        }
        None => url.to_string(),
    }
}

/// The settings that shaped the run; a replay runs with the same ones, so that the tools give
/// the model the same results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    pub temperature: f32,
    /// Model turns allowed per question.
    pub max_steps: u32,
    pub max_tokens: u32,
    /// Time for a whole question.
    pub deadline_ms: u32,
    /// Time for one query.
    pub query_deadline_ms: u32,
    /// Rows of a result the model was shown.
    pub rows_to_model: usize,
    /// Rows of the answer's SQL the page showed (the row cap).
    pub row_cap: usize,
    /// SQL or safe mode: which tools the model was offered. Files from before safe mode have
    /// none, and were recorded in SQL mode.
    #[serde(default)]
    pub mode: Mode,
    /// Candidate answers drawn for each question; files from before candidates have none, and
    /// drew one.
    #[serde(default = "one_candidate")]
    pub candidates: usize,
}

fn one_candidate() -> usize {
    1
}

impl RunSettings {
    pub fn new(config: &AgentConfig, limits: &QueryLimits) -> RunSettings {
        RunSettings {
            temperature: config.temperature,
            max_steps: config.max_steps,
            max_tokens: config.max_tokens,
            deadline_ms: config.deadline_ms,
            query_deadline_ms: config.query_deadline_ms,
            rows_to_model: config.rows_to_model,
            row_cap: limits.max_rows,
            mode: config.mode,
            candidates: config.candidates,
        }
    }

    /// The limits the answer's SQL was re-run with.
    pub fn evidence_limits(&self) -> QueryLimits {
        QueryLimits {
            max_rows: self.row_cap,
            deadline_ms: self.query_deadline_ms,
        }
    }
}

/// One question and everything the model said and was told while answering it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedQuestion {
    pub question: String,
    /// Every model turn, in order.
    pub turns: Vec<RecordedTurn>,
    /// The answer, when the question got one.
    pub answer: Option<RecordedAnswer>,
    /// Why it got none, when it did not.
    pub error: Option<String>,
    /// The whole question, model and tools.
    pub elapsed_ms: f64,
}

impl RecordedQuestion {
    /// `question`, its `turns`, and how it ended.
    pub fn new(
        question: &str,
        turns: Vec<RecordedTurn>,
        outcome: &Result<Answer, Failure>,
    ) -> RecordedQuestion {
        let (answer, error, elapsed_ms) = match outcome {
            Ok(answer) => (Some(RecordedAnswer::from(answer)), None, answer.elapsed_ms),
            Err(failure) => (None, Some(failure.to_string()), failure.elapsed_ms),
        };
        RecordedQuestion {
            question: question.to_string(),
            turns,
            answer,
            error,
            elapsed_ms,
        }
    }
}

/// One model turn as the agent received it, and the results of its tool calls as the model
/// saw them in the next request (none after `final_answer`, which ends the question).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedTurn {
    pub text: Option<String>,
    /// Each call with its arguments as the model sent them (JSON text).
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    /// How long the model took.
    pub elapsed_ms: f64,
    /// What the tools gave back: the content string the model read.
    pub results: Vec<ToolResult>,
}

impl RecordedTurn {
    pub fn new(reply: &ModelReply, elapsed_ms: f64) -> RecordedTurn {
        RecordedTurn {
            text: reply.text.clone(),
            tool_calls: reply.tool_calls.clone(),
            usage: reply.usage,
            elapsed_ms,
            results: Vec::new(),
        }
    }

    /// The turn as the model's reply, for the agent to receive again.
    pub fn reply(&self) -> ModelReply {
        ModelReply {
            text: self.text.clone(),
            tool_calls: self.tool_calls.clone(),
            usage: self.usage,
            raw: None,
        }
    }
}

/// The answer a question ended with. Its own type rather than `agent::Answer`, so that the
/// agent may change without changing the file format (its time is the question's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedAnswer {
    pub text: String,
    pub sql: Option<String>,
    pub notes: Option<String>,
    pub verified: bool,
    pub usage: Usage,
    pub steps: u32,
}

impl From<&Answer> for RecordedAnswer {
    fn from(answer: &Answer) -> RecordedAnswer {
        RecordedAnswer {
            text: answer.text.clone(),
            sql: answer.sql.clone(),
            notes: answer.notes.clone(),
            verified: answer.verified,
            usage: answer.usage,
            steps: answer.steps,
        }
    }
}

impl ConversationFile {
    /// The file's text: pretty JSON, so that a person can read and diff it.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// A name to save it under: `askdb-<database>-<date>.json`.
    pub fn file_name(&self) -> String {
        let stem: String = self
            .database
            .name
            .rsplit_once('.')
            .map_or(self.database.name.as_str(), |(stem, _)| stem)
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(60)
            .collect();
        let date = self.recorded_at.get(..10).unwrap_or_default();
        format!("askdb-{stem}-{date}.json")
    }
}
