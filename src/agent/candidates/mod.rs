//! Several independent candidate answers to one question, and whether they agree.
//!
//! A model asked twice can answer differently, and an answer that runs is not a right answer.
//! So the question is asked N times, each candidate in a fresh copy of the session (the same
//! schema, knowledge and earlier turns) and asked to work another way ([`Approach`]); each
//! candidate's evidence SQL is run here, and the results are grouped by the evaluation's judge
//! ([`Agreement`]). No model is asked to choose between them: on a split, the person chooses.
//!
//! **When they run.** The first candidate starts alone; the others start together as soon as
//! its first reply has come back. By then the provider has the shared start of their first
//! requests (tools, system prompt, earlier turns, the question) in its prompt cache, so
//! candidates 2..N read it from there instead of paying for it again; after that the model's
//! latency, which dominates, is paid once rather than N times. Their queries share the one
//! database: each waits its turn (the engines run one request at a time), and a query's deadline
//! starts when its turn comes, so one candidate's slow query neither eats another's time nor
//! takes its result away (a worker terminated at a deadline is replaced before the next turn).

mod agreement;
mod approach;

pub use agreement::{Agreement, Evidence};
pub use approach::Approach;

use super::question_database::QuestionDatabase;
use super::tools::query::Catalog;
use super::{
    Agent, AgentConfig, AgentError, AgentEvent, Answer, EventKind, Failure, Mode, Session,
};
use crate::clock::Clock;
use crate::engine::{self, Database, DbError, QueryLimits, QueryResult};
use crate::llm::{LlmProvider, Usage};
use futures::channel::oneshot;
use futures::future::{join_all, select, Either, FutureExt, LocalBoxFuture};
use std::cell::RefCell;
use std::future::Future;
use std::pin::pin;

/// The most candidates a question may have.
pub const MAX_CANDIDATES: usize = Approach::ALL.len();

/// One candidate: how it was asked, how it ended, and its evidence as run here.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateAnswer {
    pub approach: Approach,
    pub outcome: Result<Answer, Failure>,
    /// The answer's SQL run on the database; `None` when there is no answer, no SQL, or the
    /// question was stopped before it ran.
    pub evidence: Option<Result<QueryResult, DbError>>,
}

impl CandidateAnswer {
    pub fn answer(&self) -> Option<&Answer> {
        self.outcome.as_ref().ok()
    }

    /// The result its evidence gave, if it ran.
    pub fn result(&self) -> Option<&QueryResult> {
        self.evidence.as_ref()?.as_ref().ok()
    }

    /// Its evidence SQL with any bound values written in.
    pub fn evidence_sql(&self) -> Option<String> {
        let answer = self.answer()?;
        let sql = answer.sql.as_deref()?;
        Some(engine::with_values_written_in(sql, &answer.values))
    }

    /// Why it has no result to compare, for a person; `None` when it has one.
    pub fn no_result(&self) -> Option<String> {
        let answer = match &self.outcome {
            Err(failure) => return Some(format!("no answer: {failure}")),
            Ok(answer) => answer,
        };
        if answer.sql.is_none() {
            return Some("answered without SQL to check".into());
        }
        match &self.evidence {
            None => Some("stopped before its SQL ran".into()),
            Some(Err(error)) => Some(format!("its SQL failed: {error}")),
            Some(Ok(_)) => None,
        }
    }

    /// Whether it ended because the person stopped it.
    pub fn stopped(&self) -> bool {
        matches!(&self.outcome, Err(failure) if failure.error == AgentError::Cancelled)
            || (self.answer().is_some_and(|a| a.sql.is_some()) && self.evidence.is_none())
    }

    pub fn usage(&self) -> Usage {
        match &self.outcome {
            Ok(answer) => answer.usage,
            Err(failure) => failure.usage,
        }
    }

    pub fn steps(&self) -> u32 {
        match &self.outcome {
            Ok(answer) => answer.steps,
            Err(failure) => failure.steps,
        }
    }

    pub fn elapsed_ms(&self) -> f64 {
        match &self.outcome {
            Ok(answer) => answer.elapsed_ms,
            Err(failure) => failure.elapsed_ms,
        }
    }
}

/// The candidates of one question, and how they agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidates {
    pub answers: Vec<CandidateAnswer>,
    pub agreement: Agreement,
}

impl Candidates {
    /// Groups `answers` by their results.
    pub fn new(answers: Vec<CandidateAnswer>) -> Candidates {
        let sqls: Vec<Option<String>> = answers.iter().map(|a| a.evidence_sql()).collect();
        let evidence: Vec<Option<Evidence<'_>>> = answers
            .iter()
            .zip(&sqls)
            .map(|(answer, sql)| {
                Some(Evidence {
                    result: answer.result()?,
                    sql: sql.as_deref()?,
                })
            })
            .collect();
        let agreement = Agreement::group(&evidence);
        Candidates { answers, agreement }
    }

    /// The answer all candidates with a result agree on (see [`Agreement::agreed`]).
    pub fn agreed(&self) -> Option<&CandidateAnswer> {
        self.agreement.agreed().map(|index| &self.answers[index])
    }

    /// Tokens of every candidate.
    pub fn usage(&self) -> Usage {
        let mut total = Usage::default();
        for answer in &self.answers {
            total += answer.usage();
        }
        total
    }

    /// Whether the person stopped them.
    pub fn stopped(&self) -> bool {
        self.answers.iter().any(CandidateAnswer::stopped)
    }
}

/// The agents that draw the candidates of a question: one model each, one database, one clock.
pub struct CandidateAgents<'a, D: ?Sized, L: ?Sized> {
    pub db: &'a D,
    /// One per candidate (the same provider behind each, recorded apart; or a replay each):
    /// how many there are is how many candidates are drawn.
    pub llms: Vec<&'a L>,
    pub clock: &'a dyn Clock,
    pub config: AgentConfig,
    /// The limits each candidate's evidence runs under (the row cap decides how many rows are
    /// compared).
    pub evidence_limits: QueryLimits,
}

impl<D: Database + ?Sized, L: LlmProvider + ?Sized> CandidateAgents<'_, D, L> {
    /// Asks `question` of every candidate, each in its own copy of `session` (which is left as
    /// it was: the caller records the answer the person keeps), reporting each candidate's
    /// steps with its index. Stops them all when `cancel` completes.
    pub async fn ask(
        &self,
        session: &Session,
        question: &str,
        events: &mut dyn FnMut(usize, AgentEvent),
        cancel: impl Future<Output = ()>,
    ) -> Candidates {
        let cancel = cancel.shared();
        let events = RefCell::new(events);
        let mut template = session.clone();
        if self.config.mode == Mode::Safe && template.catalog.is_none() {
            // Read once for all of them (a candidate reads it itself if this was stopped).
            template.catalog = self.read_catalog(&template, cancel.clone()).await;
        }
        // Sent (or dropped) once the first candidate's first reply is in: the others start.
        let (first_replied, first_reply) = oneshot::channel::<()>();
        let first_replied = RefCell::new(Some(first_replied));
        let first_reply = first_reply.shared();
        let runs: Vec<LocalBoxFuture<'_, CandidateAnswer>> = self
            .llms
            .iter()
            .enumerate()
            .map(|(index, llm)| {
                let (cancel, first_reply) = (cancel.clone(), first_reply.clone());
                let (events, first_replied) = (&events, &first_replied);
                let mut session = template.clone();
                async move {
                    if index > 0 {
                        select(first_reply, cancel.clone()).await;
                    }
                    let approach = Approach::of_candidate(index);
                    let agent = Agent::new(self.db, *llm, self.clock, self.config.clone())
                        .with_approach(approach);
                    let mut show = |event: AgentEvent| {
                        if index == 0 && matches!(event.kind, EventKind::ModelReplied { .. }) {
                            if let Some(sender) = first_replied.borrow_mut().take() {
                                let _ = sender.send(());
                            }
                        }
                        (events.borrow_mut())(index, event);
                    };
                    let outcome = agent
                        .ask(&mut session, question, &mut show, cancel.clone())
                        .await;
                    first_replied.borrow_mut().take();
                    let evidence = match &outcome {
                        Ok(answer) => self.evidence(answer, cancel).await,
                        Err(_) => None,
                    };
                    CandidateAnswer {
                        approach,
                        outcome,
                        evidence,
                    }
                }
                .boxed_local()
            })
            .collect();
        Candidates::new(join_all(runs).await)
    }

    /// The fields safe mode's `query` tool offers, read once for all candidates; `None` when
    /// stopped first.
    async fn read_catalog(
        &self,
        session: &Session,
        cancel: impl Future<Output = ()>,
    ) -> Option<Catalog> {
        let data = QuestionDatabase::new(self.db, &session.schema, &self.config);
        let catalog = match select(pin!(Catalog::read(&data)), pin!(cancel)).await {
            Either::Left((catalog, _)) => Some(catalog),
            Either::Right(_) => None,
        };
        catalog
    }

    /// Runs an answer's SQL as the chat re-runs it (with its bound values in safe mode);
    /// `None` when there is none, or when stopped first.
    async fn evidence(
        &self,
        answer: &Answer,
        cancel: impl Future<Output = ()>,
    ) -> Option<Result<QueryResult, DbError>> {
        let sql = answer.sql.as_deref()?;
        let limits = &self.evidence_limits;
        let run = async {
            match answer.values.is_empty() {
                true => engine::query(self.db, sql, limits).await,
                false => engine::query_bound(self.db, sql, &answer.values, limits).await,
            }
        };
        let result = match select(pin!(cancel), pin!(run)).await {
            Either::Left(_) => None,
            Either::Right((result, _)) => Some(result),
        };
        result
    }
}
