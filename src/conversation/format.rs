//! The types of a conversation file, `askdb-conversation/1` and `/2`. Field names are the
//! format: change them only with a new version (and `docs/conversation-format.md`).
//!
//! Version 2 is version 1 with one more field, a question's `candidates` (each candidate's
//! turns, its evidence as it ran, and how they agreed). A file is written as version 1 unless a
//! question has candidates, so that a conversation without them still opens in a page that
//! reads only version 1; this page reads both.

use crate::agent::candidates::{Agreement, Approach, Candidates};
use crate::agent::{AgentConfig, Answer, Failure, Mode};
use crate::engine::datasette::DatasetteIdentity;
use crate::engine::identity::{from_hex, hex, same_database, Identity, Sameness};
use crate::engine::on_demand::{LazyIdentity, RemoteValidators};
use crate::engine::{QueryLimits, QueryResult};
use crate::llm::{ModelReply, ProviderKind, RawToolCall, ToolResult, Usage};
use serde::{Deserialize, Serialize};

/// The value of the `format` field of a file without candidates (this page reads it).
pub const FORMAT: &str = "askdb-conversation/1";
/// The value of the `format` field of a file with a question asked of several candidates.
pub const FORMAT_CANDIDATES: &str = "askdb-conversation/2";

/// The version a file holding `questions` is written as: the first that can hold them.
pub fn format_for(questions: &[RecordedQuestion]) -> &'static str {
    match questions.iter().any(|q| q.candidates.is_some()) {
        true => FORMAT_CANDIDATES,
        false => FORMAT,
    }
}

/// One saved conversation: what it ran on, with which model and settings, and every question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationFile {
    /// [`FORMAT`], or [`FORMAT_CANDIDATES`] (see [`format_for`]).
    pub format: String,
    /// When it was recorded: an ISO 8601 date and time in UTC, as the browser gives it.
    pub recorded_at: String,
    pub database: DatabaseIdentity,
    pub model: ModelInfo,
    pub settings: RunSettings,
    pub questions: Vec<RecordedQuestion>,
}

/// Which database the conversation ran on. How it is told from another depends on how it was
/// opened (`engine::identity`): a file read whole by the SHA-256 of its bytes (every file
/// written before the other kinds existed has it), a file read on demand by what its engine
/// found at open (`on_demand`), a database on a Datasette server by its address and what the
/// server reported of its file (`datasette`). Exactly one of the three is given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatabaseIdentity {
    /// The name the page showed (a file name, or the last part of an address).
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// SHA-256 of its bytes, 64 lower-case hex digits: a file read whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// A local file or one on a web server, read on demand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_demand: Option<OnDemandRecord>,
    /// A database on a Datasette server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datasette: Option<DatasetteRecord>,
}

/// A database on a Datasette server, as a conversation file records it
/// (`engine::datasette::DatasetteIdentity`; its size is the record's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetteRecord {
    /// The database's address, `server/route` (never a token).
    pub address: String,
    /// SHA-256 of its file as the server reported it (a file it serves immutable), 64 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// A database read on demand, as a conversation file records it (`engine::on_demand::LazyIdentity`;
/// its size is the record's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnDemandRecord {
    /// The file's first 100 bytes (the SQLite header), in hex.
    pub header: String,
    /// The pages (from 1) whose bytes `sample_sha256` hashes, in that order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sampled_pages: Vec<u64>,
    /// SHA-256 of the sampled pages, 64 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample_sha256: Option<String>,
    /// Where it was read from and what the server said of it: a file on a web server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<RemoteRecord>,
}

/// A file on a web server, as a conversation file records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteRecord {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl DatabaseIdentity {
    /// The record of a database called `name`, identified by `identity`.
    pub fn new(name: &str, identity: &Identity) -> DatabaseIdentity {
        let mut record = DatabaseIdentity {
            name: name.to_string(),
            size: identity.size(),
            sha256: None,
            on_demand: None,
            datasette: None,
        };
        match identity {
            Identity::Bytes { sha256, .. } => record.sha256 = Some(sha256.clone()),
            Identity::OnDemand(lazy) => {
                record.on_demand = Some(OnDemandRecord {
                    header: hex(&lazy.header),
                    sampled_pages: lazy.sampled_pages.clone(),
                    sample_sha256: lazy.sample_sha256.clone(),
                    remote: lazy.remote.as_ref().map(|remote| RemoteRecord {
                        url: remote.url.clone(),
                        etag: remote.etag.clone(),
                        last_modified: remote.last_modified.clone(),
                    }),
                })
            }
            Identity::Datasette(served) => {
                record.datasette = Some(DatasetteRecord {
                    address: served.address.clone(),
                    sha256: served.sha256.clone(),
                })
            }
        }
        record
    }

    /// The identity recorded: `None` unless exactly one kind of identity is given, with a
    /// header in hex (`conversation::read` refuses such a file).
    pub fn identity(&self) -> Option<Identity> {
        let size = self.size;
        match (&self.sha256, &self.on_demand, &self.datasette) {
            (Some(sha256), None, None) => Some(Identity::Bytes {
                size,
                sha256: sha256.clone(),
            }),
            (None, Some(record), None) => Some(Identity::OnDemand(LazyIdentity {
                size,
                header: from_hex(&record.header)?,
                sampled_pages: record.sampled_pages.clone(),
                // As the engine writes it: lower case.
                sample_sha256: record
                    .sample_sha256
                    .as_ref()
                    .map(|h| h.to_ascii_lowercase()),
                remote: record.remote.as_ref().map(|remote| RemoteValidators {
                    url: remote.url.clone(),
                    etag: remote.etag.clone(),
                    last_modified: remote.last_modified.clone(),
                }),
            })),
            (None, None, Some(record)) => Some(Identity::Datasette(DatasetteIdentity {
                address: record.address.clone(),
                size,
                sha256: record.sha256.as_ref().map(|h| h.to_ascii_lowercase()),
            })),
            _ => None,
        }
    }

    /// Why `open` is not the database recorded on, or cannot be told from it, in words for a
    /// person; `None` when it is the same ([`same_database`]).
    pub fn differs_from(&self, open: &DatabaseIdentity) -> Option<String> {
        let (Some(recorded), Some(now)) = (self.identity(), open.identity()) else {
            return Some(format!(
                "The open database cannot be compared with the one the conversation was \
                 recorded on ({}). Results may differ from the recording; each step that \
                 differs is marked.",
                self.name
            ));
        };
        let both = format!(
            "it was recorded on {} ({} bytes, {recorded}), and {} ({} bytes, {now}) is open",
            self.name, self.size, open.name, open.size
        );
        match same_database(&recorded, &now) {
            Sameness::Same => None,
            Sameness::Different => Some(format!(
                "This is not the database the conversation was recorded on: {both}. Results may \
                 differ from the recording; each step that differs is marked."
            )),
            Sameness::CannotTell => Some(format!(
                "The open database cannot be compared with the one the conversation was \
                 recorded on, one was read whole and the other on demand: {both}. Results may \
                 differ from the recording; each step that differs is marked."
            )),
        }
    }
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
    /// Asked of several candidates (version 2 only): each one's turns and evidence, and how they
    /// agreed. Then `turns` is empty, `answer` is the agreed or chosen one, and `error` says
    /// why there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<RecordedCandidates>,
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
            candidates: None,
        }
    }

    /// `question` asked of several candidates: what they gave (`drawn`), the turns each one's
    /// model took (one list per candidate, in order), the answer the person chose on a split
    /// (`chosen`), and the whole time.
    pub fn with_candidates(
        question: &str,
        drawn: &Candidates,
        turns: Vec<Vec<RecordedTurn>>,
        chosen: Option<usize>,
        elapsed_ms: f64,
    ) -> RecordedQuestion {
        let taken = drawn.agreement.agreed().or(chosen);
        let answer = taken
            .and_then(|index| drawn.answers.get(index)?.answer())
            .map(RecordedAnswer::from);
        let error = answer.is_none().then(|| drawn.agreement.summary());
        let candidates = drawn
            .answers
            .iter()
            .zip(turns.into_iter().chain(std::iter::repeat_with(Vec::new)))
            .map(|(candidate, turns)| {
                let (answer, error) = match &candidate.outcome {
                    Ok(answer) => (Some(RecordedAnswer::from(answer)), None),
                    Err(failure) => (None, Some(failure.to_string())),
                };
                let evidence = candidate.evidence.as_ref().map(|run| RecordedEvidence {
                    sql: candidate.evidence_sql().unwrap_or_default(),
                    result: run.as_ref().ok().cloned(),
                    error: run.as_ref().err().map(ToString::to_string),
                });
                RecordedCandidate {
                    approach: candidate.approach,
                    turns,
                    answer,
                    error,
                    elapsed_ms: candidate.elapsed_ms(),
                    evidence,
                }
            })
            .collect();
        RecordedQuestion {
            question: question.to_string(),
            turns: Vec::new(),
            answer,
            error,
            elapsed_ms,
            candidates: Some(RecordedCandidates {
                drawn: candidates,
                agreement: drawn.agreement.clone(),
                chosen: chosen.filter(|_| drawn.agreement.is_split()),
            }),
        }
    }
}

impl RecordedQuestion {
    /// The person chose candidate `index`'s answer on a split: it becomes the question's.
    pub fn choose(&mut self, index: usize) {
        let Some(candidates) = &mut self.candidates else {
            return;
        };
        let Some(answer) = candidates.drawn.get(index).and_then(|c| c.answer.clone()) else {
            return;
        };
        candidates.chosen = Some(index);
        self.answer = Some(answer);
        self.error = None;
    }
}

/// The candidates of one question (version 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedCandidates {
    /// One per candidate, in order (candidate 1 first).
    pub drawn: Vec<RecordedCandidate>,
    /// How their results were grouped when recorded (`agent::candidates::Agreement`: indices
    /// from 0). A replay groups the results it gets now, and says so when that differs.
    pub agreement: Agreement,
    /// On a split, the candidate (from 0) whose answer the person chose, if they chose one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<usize>,
}

/// One candidate as recorded: the way it was asked, its model turns, how it ended, and its
/// evidence as it ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedCandidate {
    /// Candidate N is always asked the N-th way (`Approach::of_candidate`); kept to be read.
    pub approach: Approach,
    pub turns: Vec<RecordedTurn>,
    pub answer: Option<RecordedAnswer>,
    pub error: Option<String>,
    pub elapsed_ms: f64,
    /// Its answer's SQL run on the database; none when it has no SQL or was stopped first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<RecordedEvidence>,
}

/// A candidate's evidence SQL (with any bound values written in) and what it gave: a result,
/// or the error. Shown and compared, never run: a replay runs the SQL its replayed answer has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedEvidence {
    pub sql: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<QueryResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One model turn as the agent received it, and the results of its tool calls as the model
/// saw them in the next request (none after `final_answer`, which ends the question).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedTurn {
    pub text: Option<String>,
    /// Each call with its arguments as the model sent them (JSON text).
    pub tool_calls: Vec<RawToolCall>,
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
