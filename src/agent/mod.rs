//! The agent: given a question, an LLM and a read-only database, an answer with the SQL that
//! proves it. Knows nothing of the browser: the database is a [`crate::engine::Database`], the
//! model an [`crate::llm::LlmProvider`], time a [`crate::clock::Clock`].
//!
//! A [`Session`] belongs to one open database (its schema, cached table descriptions and the
//! conversation so far); an [`Agent`] joins it with a model and a clock to answer one question:
//!
//! ```ignore
//! let mut session = Session::load(&db).await?;
//! let agent = Agent::new(&db, &llm, &clock, AgentConfig::default());
//! let answer = agent.ask(&mut session, "How many orders in March 2024?", &mut show, cancel).await;
//! ```

mod briefing;
pub mod candidates;
pub mod draft;
mod events;
mod memory;
mod prompt;
mod question_database;
mod race;
mod run;
pub mod selection;
pub mod tools;
pub mod traps;
mod values;
mod written_calls;

pub use events::{
    AgentEvent, EventKind, KnowledgeSent, NudgeReason, PickedTable, SchemaSent, SentExample,
    WrittenCall,
};
pub use memory::{Conversation, Turn};
pub use prompt::system_prompt;
pub use values::TableRows;

use crate::search::values::ValueIndex;

use crate::clock::Clock;
use crate::engine::{schema, Database, DbError, QueryLimits, Schema, Value};
use crate::knowledge::Knowledge;
use crate::llm::retry::RetryPolicy;
use crate::llm::{LlmError, LlmProvider, Usage};
use briefing::Examples;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use tools::describe_table::TableDescription;
use tools::query::Catalog;
pub use tools::Mode;

/// What a person may tune. Missing fields take their defaults, so saved settings stay readable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentConfig {
    /// The provider's model name; the page fills it from the provider settings.
    pub model: String,
    pub temperature: f32,
    /// The most tokens one reply of the model may use.
    pub max_tokens: u32,
    /// Model turns per question.
    pub max_steps: u32,
    /// Time for the whole question, model calls and queries included.
    pub deadline_ms: u32,
    /// Time for one query.
    pub query_deadline_ms: u32,
    /// Rows of a `run_sql` or `query` result shown to the model.
    pub rows_to_model: usize,
    /// Whether the model writes SQL or only asks structured queries.
    pub mode: Mode,
    /// Independent candidate answers drawn for each question (1 to
    /// [`candidates::MAX_CANDIDATES`]; 1 is a single answer, as without candidates).
    pub candidates: usize,
}

impl AgentConfig {
    /// These settings with the page's query limits: each query the agent runs gets the same
    /// deadline as one run in the console.
    pub fn with_query_limits(self, limits: &QueryLimits) -> AgentConfig {
        AgentConfig {
            query_deadline_ms: limits.deadline_ms,
            ..self
        }
    }
}

impl Default for AgentConfig {
    fn default() -> Self {
        AgentConfig {
            model: String::new(),
            temperature: 0.2,
            max_tokens: 4_096,
            max_steps: 10,
            deadline_ms: 120_000,
            query_deadline_ms: 10_000,
            rows_to_model: 50,
            mode: Mode::Sql,
            candidates: 1,
        }
    }
}

/// What a question ended with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// For the person, in the language of the question.
    pub text: String,
    /// The query that proves the answer; the page re-runs it.
    pub sql: Option<String>,
    /// The values bound to its parameters `?1`, `?2`, … (a structured query's, in safe mode).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
    /// Interpretations and caveats.
    pub notes: Option<String>,
    /// True when the answer came through `final_answer` with SQL that ran; false when the
    /// model answered in plain text or without evidence.
    pub verified: bool,
    /// Tokens used by every model call for this question.
    pub usage: Usage,
    pub steps: u32,
    pub elapsed_ms: f64,
}

/// Why a question got no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentError {
    /// The model used every allowed turn without calling `final_answer`.
    StepLimit { steps: u32 },
    /// The time for the whole question ran out.
    Deadline { after_ms: u32 },
    /// The person stopped it.
    Cancelled,
    /// The model could not be called (after retries where retrying made sense).
    Llm(LlmError),
    /// The model replied with neither text nor a tool call, even when asked again.
    EmptyReply,
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::StepLimit { steps } => write!(
                f,
                "no answer after {steps} steps: ask a narrower question, or allow more steps in the settings"
            ),
            AgentError::Deadline { after_ms } => write!(
                f,
                "no answer within {}: ask a simpler question, or allow more time in the settings",
                crate::text::format_seconds(*after_ms)
            ),
            AgentError::Cancelled => write!(f, "stopped: the question was cancelled"),
            AgentError::Llm(error) => write!(f, "the model could not answer: {error}"),
            AgentError::EmptyReply => write!(
                f,
                "the model sent empty replies: ask again, or choose another model"
            ),
        }
    }
}

impl std::error::Error for AgentError {}

/// A question that ended without an answer, with what it cost all the same.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub error: AgentError,
    pub usage: Usage,
    pub steps: u32,
    pub elapsed_ms: f64,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for Failure {}

/// Everything the agent keeps about one open database. A new database gets a new session.
#[derive(Clone, Debug, Default)]
pub struct Session {
    schema: Schema,
    conversation: Conversation,
    /// `describe_table` results by lower-cased table name: the data does not change.
    descriptions: HashMap<String, TableDescription>,
    /// The fields the structured `query` tool offers, read from the data at the first question
    /// in safe mode.
    catalog: Option<Catalog>,
    /// What the data means: notes, glossary and worked examples, for the prompt and the tools.
    knowledge: Knowledge,
    /// The worked examples the model may be shown, ready to be searched.
    examples: Examples,
    /// The tables of `schema`, ready to be ranked for a question (with the knowledge's words).
    tables: selection::rank::TableIndex,
    /// The short text values of the data, for the values a question names (within `schema`).
    values: Arc<ValueIndex>,
    /// The index `set_values` was given, so that the same one is not kept within the schema
    /// again at every question.
    values_from: Option<Arc<ValueIndex>>,
}

impl Session {
    /// A session on `schema`, as the model is shown it ([`crate::model_view::schema_for_model`]:
    /// without askdb's own tables, [`crate::knowledge::KNOWLEDGE_TABLES`], which hold notes
    /// about the data, not data).
    pub fn new(schema: Schema) -> Session {
        Session::with_knowledge(schema, Knowledge::default())
    }

    /// A session on `schema` (as [`Session::new`] takes it) with `knowledge` from the start:
    /// its tables and examples indexed once, with it.
    pub fn with_knowledge(schema: Schema, knowledge: Knowledge) -> Session {
        let schema = crate::model_view::schema_for_model(schema);
        Session {
            tables: selection::rank::TableIndex::new(&schema, &knowledge),
            examples: Examples::new(&knowledge, &schema),
            knowledge,
            schema,
            ..Session::default()
        }
    }

    /// A session on what [`crate::model_view::ModelView`] gives the model: its schema and the
    /// knowledge that goes with its questions.
    pub fn for_view(view: crate::model_view::ModelView) -> Session {
        Session::with_knowledge(view.schema, view.knowledge)
    }

    /// Reads the schema of `db` (row counts get a few seconds each).
    pub async fn load<D: Database + ?Sized>(db: &D) -> Result<Session, DbError> {
        let count_limits = QueryLimits {
            max_rows: 1,
            deadline_ms: 3_000,
        };
        Ok(Session::new(schema::load(db, &count_limits).await?))
    }

    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    pub fn conversation(&self) -> &Conversation {
        &self.conversation
    }

    pub fn knowledge(&self) -> &Knowledge {
        &self.knowledge
    }

    /// Replaces what the agent knows of the data's meaning (the page calls this when notes
    /// are loaded or edited); the next question uses it.
    pub fn set_knowledge(&mut self, knowledge: Knowledge) {
        // The page hands the knowledge over before every question; the examples' index is
        // built again only when it changed.
        if knowledge == self.knowledge {
            return;
        }
        self.examples = Examples::new(&knowledge, &self.schema);
        self.tables = selection::rank::TableIndex::new(&self.schema, &knowledge);
        self.knowledge = knowledge;
    }

    /// The values of the data, for the values a question names (the page builds the index
    /// once the database the model reads is ready; `askdb-eval` when it opens one). Kept
    /// within this session's schema: a value of a table or column the model cannot see is
    /// never named to it.
    pub fn set_values(&mut self, values: Arc<ValueIndex>) {
        if self
            .values_from
            .as_ref()
            .is_some_and(|from| Arc::ptr_eq(from, &values))
        {
            return;
        }
        self.values = Arc::new(selection::values::within(&values, &self.schema));
        self.values_from = Some(values);
    }

    /// The value index as it was handed over (before it was kept within this schema).
    pub fn values(&self) -> Option<Arc<ValueIndex>> {
        self.values_from.clone()
    }

    /// Keeps `answer` as the answer to `question`, for the questions that follow: the one the
    /// candidates agreed on, or the one the person chose among them.
    pub fn remember(&mut self, question: &str, answer: &Answer) {
        self.conversation.record(question, answer);
    }

    /// Starts a new thread of questions on the same database (cached descriptions stay).
    pub fn forget_conversation(&mut self) {
        self.conversation = Conversation::default();
    }
}

/// A model, a database and a clock, ready to answer questions.
pub struct Agent<'a, D: ?Sized, L: ?Sized> {
    db: &'a D,
    llm: &'a L,
    clock: &'a dyn Clock,
    config: AgentConfig,
    retry: RetryPolicy,
    /// How the question is put to the model (a candidate's own way; as asked otherwise).
    approach: candidates::Approach,
}

impl<'a, D: Database + ?Sized, L: LlmProvider + ?Sized> Agent<'a, D, L> {
    pub fn new(db: &'a D, llm: &'a L, clock: &'a dyn Clock, config: AgentConfig) -> Self {
        Agent {
            db,
            llm,
            clock,
            config,
            retry: RetryPolicy::default(),
            approach: candidates::Approach::AsAsked,
        }
    }

    /// This agent, asking the question the way `approach` says (one candidate of several).
    pub fn with_approach(self, approach: candidates::Approach) -> Self {
        Agent { approach, ..self }
    }

    /// Answers `question`, reporting each step to `events` as it happens. Stops early when
    /// `cancel` completes (pass `std::future::pending()` for never).
    pub async fn ask(
        &self,
        session: &mut Session,
        question: &str,
        events: &mut dyn FnMut(AgentEvent),
        cancel: impl Future<Output = ()>,
    ) -> Result<Answer, Failure> {
        let cancel = std::pin::pin!(cancel);
        run::ask(self, session, question, events, cancel).await
    }
}
