//! What a demo's endpoint (`askdb-proxy pin`, issue 38) pins for a database: the first request
//! the askdb page would send for a question on it, in each mode. askdb's system prompt and tool
//! list are the same bytes at every step of every question on a database
//! (`tests/prompt_prefix.rs`), so the first request's `llm::wire::prefix::parts` are those of
//! every request the page will send about it (`docs/live-demos.md`, "What is pinned").
//!
//! The request is not rebuilt here: the database is opened as the page opens it
//! ([`crate::opened`]) and the real agent asks a question of a model that keeps the request it
//! is sent and answers none.

use crate::agent::{Agent, Mode, Session};
use crate::clock::SystemClock;
use crate::engine::hidden::Unresolved;
use crate::engine::QueryLimits;
use crate::knowledge::Knowledge;
use crate::llm::{
    wire, ChatRequest, EndpointConfig, LlmError, LlmProvider, ModelReply, ProviderKind,
};
use crate::opened::{self, Opened, OpeningError};
use crate::settings::ModelSettings;
use futures::executor::block_on;
use serde_json::Value;
use std::cell::RefCell;
use std::fmt;
use std::path::Path;

/// The modes a person can choose in the page, each with its own tools and system prompt.
const MODES: [Mode; 2] = [Mode::Sql, Mode::Safe];

/// The model named in the requests: a demo's endpoint checks the model on its own, so any
/// name does here.
const MODEL: &str = "pinned";

/// The question asked. The system prompt and the tools do not depend on it (the question goes
/// in the messages after them).
const QUESTION: &str = "What does this database hold?";

/// The JSON body of the first request the askdb page would send for a question on the SQLite
/// file `db`, in the format of `provider`, in SQL mode and in safe mode (in that order), with
/// the page's default settings. `notes` is a notes file as the page's `?notes=` gives it;
/// `hide` names tables and columns to keep from the model as the page's `?hide=` does (each
/// may list several, separated by commas).
pub fn first_requests(
    db: &Path,
    notes: Option<&Path>,
    hide: &[String],
    provider: ProviderKind,
) -> Result<Vec<(Mode, Value)>, PinError> {
    let notes = match notes {
        Some(path) => opened::read_notes(path)?,
        None => Knowledge::default(),
    };
    let opened = Opened::open(db, &notes, &opened::hidden_names(hide))?;
    // The page opens the database anyway and says which names it could not hide; a pin taken
    // with a name mistyped would pin a prompt the author did not mean.
    if let Some(unresolved) = opened.unresolved.first() {
        return Err(PinError::Hide(unresolved.clone()));
    }
    let endpoint = EndpointConfig::new(provider, "", "");
    MODES
        .into_iter()
        .map(|mode| {
            let request = first_request(&opened, mode)?;
            let http = wire::build_request(&endpoint, &request);
            let body = serde_json::from_str(&http.body).expect("the wire formats write JSON");
            Ok((mode, body))
        })
        .collect()
}

/// The first request the agent sends for a question on `opened` in `mode`, from a session of
/// its own (as a page just opened has).
fn first_request(opened: &Opened, mode: Mode) -> Result<ChatRequest, PinError> {
    let settings = ModelSettings {
        model: MODEL.into(),
        mode,
        ..ModelSettings::default()
    };
    // As the page builds it: the settings, then the console's query limits (the defaults).
    let config = settings
        .agent_config()
        .with_query_limits(&QueryLimits::default());
    let model = KeepsFirstRequest::default();
    let clock = SystemClock::new();
    let agent = Agent::new(&opened.model_view, &model, &clock, config);
    let mut session: Session = opened.session.clone();
    let outcome = block_on(agent.ask(&mut session, QUESTION, &mut |_| {}, std::future::pending()));
    if let Some(request) = model.first.into_inner() {
        return Ok(request);
    }
    let why = match outcome {
        Err(failure) => failure.to_string(),
        Ok(_) => "it answered without asking the model".into(),
    };
    Err(PinError::NoRequest { mode, why })
}

/// A model that keeps the first request it is sent and answers it with an error that is not
/// tried again, so that the question ends there.
#[derive(Default)]
struct KeepsFirstRequest {
    first: RefCell<Option<ChatRequest>>,
}

impl LlmProvider for KeepsFirstRequest {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError> {
        self.first
            .borrow_mut()
            .get_or_insert_with(|| request.clone());
        Err(LlmError::Malformed {
            message: "no model is asked when pinning: the first request is all it needs".into(),
        })
    }
}

/// Why the first requests could not be made.
#[derive(Debug)]
pub enum PinError {
    /// The database or the notes file cannot be opened as the page opens them.
    Opening(OpeningError),
    /// A name to hide that the database does not have, or that cannot be hidden.
    Hide(Unresolved),
    /// The question stopped before the model was asked (the database could not be read).
    NoRequest { mode: Mode, why: String },
}

impl fmt::Display for PinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PinError::Opening(error) => write!(f, "{error}"),
            PinError::Hide(unresolved) => write!(f, "cannot hide {unresolved}"),
            PinError::NoRequest { mode, why } => write!(
                f,
                "a question in {} mode stopped before the model was asked: {why}",
                mode_name(*mode)
            ),
        }
    }
}

/// A mode as the page's settings name it.
fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Sql => "SQL",
        Mode::Safe => "safe",
    }
}

impl std::error::Error for PinError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PinError::Opening(error) => Some(error),
            _ => None,
        }
    }
}

impl From<OpeningError> for PinError {
    fn from(error: OpeningError) -> PinError {
        PinError::Opening(error)
    }
}
