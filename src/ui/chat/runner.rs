//! One runner for every question in the chat, asked or replayed.
//!
//! A [`QuestionRun`] owns what every way of running a question shares: the session taken out
//! of the chat with the notes and values as they are now, the check that the database is still
//! the one asked (else the question belongs to no one), the session given back, the totals,
//! what the page says and announces at the end, and the error or the demo's limit. It drives
//! one of two things — one model (`Agent::ask`) or several candidates (`CandidateAgents`) —
//! with the models it is given: the live model, each one recorded (`ChatState::run`), or the
//! recorded turns of a saved conversation (`replay`).
//!
//! Why one model is not candidates with N = 1: they differ in six ways a person sees.
//! - Memory: one model's answer is remembered even without SQL; a candidate without SQL gives
//!   no result, so nothing would be remembered.
//! - The safe-mode catalog: one model reads it into the chat's session, kept for the next
//!   question; candidates read it once into a copy each of them starts from.
//! - The answer's SQL: the page runs one model's again after the answer; each candidate runs
//!   its own as it ends.
//! - The saved format: one model's question is saved as `askdb-conversation/1`, candidates'
//!   as `/2`.
//! - Errors: one model's failure is the chat's error; a candidate's is a line in the verdict.
//! - The demo's limit: said in one sentence, with the recording offered, only for one model.

use super::candidates::{agreed, CandidateRun};
use super::{local_offset_minutes, sentence, ChatState, Exchange};
use crate::agent::candidates::{CandidateAgents, Candidates};
use crate::agent::{Agent, AgentConfig, AgentError, AgentEvent, Answer, Failure, Session};
use crate::browser::BrowserClock;
use crate::conversation::{RecordedQuestion, RecordedTurn};
use crate::engine::page::ModelDatabase;
use crate::engine::{query_bound, QueryLimits};
use crate::llm::{LlmError, LlmProvider, Usage};
use crate::present::demo_endpoint::limit_sentence;
use crate::present::errors::for_person_marked;
use crate::present::failure::agent_error;
use crate::present::readiness::not_ready;
use crate::settings::readiness::NotReady;
use crate::ui::task::Stopped;
use leptos::prelude::*;
use std::sync::Arc;

/// One question of the chat on its way: asked of one model or of candidates, as its exchange
/// says.
pub(super) struct QuestionRun {
    chat: ChatState,
    exchange: Exchange,
    /// The database it was asked on (see [`ChatState::generation`]).
    generation: u64,
    stopped: Stopped,
}

/// What a question is asked of: one model, or the candidates of its exchange.
enum Drive<'m, L> {
    One(&'m L),
    Several(CandidateRun),
}

/// What a question gave, once over.
pub(super) enum Ran {
    One(Result<Answer, Failure>),
    Several { drawn: Candidates, elapsed_ms: f64 },
}

impl Ran {
    /// Stopped by the person (the question, and a replay, end there).
    pub fn stopped(&self) -> bool {
        match self {
            Ran::One(result) => result
                .as_ref()
                .is_err_and(|f| f.error == AgentError::Cancelled),
            Ran::Several { drawn, .. } => drawn.stopped(),
        }
    }

    /// An answer was taken: the question box may be emptied.
    pub fn answered(&self) -> bool {
        match self {
            Ran::One(result) => result.is_ok(),
            Ran::Several { drawn, .. } => agreed(drawn).is_some(),
        }
    }

    /// What is saved of it, with the turns of its model (one per candidate).
    pub fn recording(&self, question: &str, mut turns: Vec<Vec<RecordedTurn>>) -> RecordedQuestion {
        match self {
            Ran::One(result) => {
                let turns = turns.pop().unwrap_or_default();
                RecordedQuestion::new(question, turns, result)
            }
            Ran::Several { drawn, elapsed_ms } => {
                RecordedQuestion::with_candidates(question, drawn, turns, None, *elapsed_ms)
            }
        }
    }

    fn cost(&self) -> (Usage, f64) {
        match self {
            Ran::One(Ok(answer)) => (answer.usage, answer.elapsed_ms),
            Ran::One(Err(failure)) => (failure.usage, failure.elapsed_ms),
            Ran::Several { drawn, elapsed_ms } => (drawn.usage(), *elapsed_ms),
        }
    }
}

impl QuestionRun {
    pub fn new(chat: ChatState, exchange: Exchange, generation: u64, stopped: Stopped) -> Self {
        QuestionRun {
            chat,
            exchange,
            generation,
            stopped,
        }
    }

    /// Runs the question on `db` with `models` (one, or one per candidate) until it ends or is
    /// stopped, its steps shown as they come; the session goes back to the chat. `None` when
    /// another database was opened meanwhile: the question belongs to the old one.
    pub async fn ask<L: LlmProvider>(
        &self,
        db: &ModelDatabase,
        models: &[L],
        config: AgentConfig,
        limits: QueryLimits,
    ) -> Option<Ran> {
        let drive = match self.exchange.candidates {
            Some(run) => Drive::Several(run),
            None => Drive::One(models.first()?),
        };
        let mut session = self.take_session()?;
        let question = self.exchange.question.get_value();
        let clock = BrowserClock;
        let ran = match drive {
            Drive::One(llm) => {
                let agent = Agent::new(db, llm, &clock, config);
                Ran::One(self.ask_one(&agent, &mut session, &question).await)
            }
            Drive::Several(run) => {
                let agents = CandidateAgents {
                    db,
                    llms: models.iter().collect(),
                    clock: &clock,
                    config,
                    evidence_limits: limits,
                };
                let (drawn, elapsed_ms) = self.draw(run, &agents, &session, &question).await;
                Ran::Several { drawn, elapsed_ms }
            }
        };
        if self.chat.generation.get_value() != self.generation {
            return None;
        }
        if let Ran::Several { drawn, .. } = &ran {
            // The agreed answer is what follow-ups build on.
            if let Some(answer) = agreed(drawn).and_then(|i| drawn.answers[i].answer()) {
                session.remember(&question, answer);
            }
        }
        self.chat.session.set_value(Some(session));
        let (usage, elapsed_ms) = ran.cost();
        self.chat.totals.update(|t| t.add(usage, elapsed_ms));
        match &ran {
            Ran::One(result) => self.show_outcome(result),
            Ran::Several { drawn, elapsed_ms } => {
                self.chat.show_drawn(self.exchange, drawn, *elapsed_ms)
            }
        }
        Some(ran)
    }

    /// The session, out of the chat while the question runs, with the notes and values as they
    /// are now (one saved since the last question counts). `None` when another database was
    /// opened meanwhile, or none is (then said).
    fn take_session(&self) -> Option<Session> {
        if self.chat.generation.get_value() != self.generation {
            return None;
        }
        let Some(mut session) = self.chat.session.try_update_value(Option::take).flatten() else {
            self.chat.error.set(Some(not_ready(&NotReady::NoDatabase)));
            return None;
        };
        let app = self.chat.app;
        session.set_knowledge(crate::ui::knowledge::model_view_knowledge(app));
        if let Some(values) = app.assistant.values.with_untracked(|v| v.index()) {
            session.set_values(values);
        }
        Some(session)
    }

    async fn ask_one<L: LlmProvider>(
        &self,
        agent: &Agent<'_, ModelDatabase, L>,
        session: &mut Session,
        question: &str,
    ) -> Result<Answer, Failure> {
        let owner = self.chat.owner.get_value();
        let transcript = self.exchange.transcript;
        let mut show = |event: AgentEvent| owner.with(|| transcript.record(event));
        let stopped = self.stopped.clone();
        agent.ask(session, question, &mut show, stopped).await
    }

    /// The candidates drawn, each one's steps in its own transcript; how long they took.
    async fn draw<L: LlmProvider>(
        &self,
        run: CandidateRun,
        agents: &CandidateAgents<'_, ModelDatabase, L>,
        session: &Session,
        question: &str,
    ) -> (Candidates, f64) {
        let owner = self.chat.owner.get_value();
        let started = crate::browser::now_ms();
        let mut show = |index: usize, event: AgentEvent| {
            if let Some(transcript) = run.transcript(index) {
                owner.with(|| transcript.record(event));
            }
        };
        let drawn = agents
            .ask(session, question, &mut show, self.stopped.clone())
            .await;
        (drawn, crate::browser::now_ms() - started)
    }

    /// One model's answer or failure, shown and announced; a stop marks the transcript, the
    /// demo's limit is said in its own sentence.
    fn show_outcome(&self, result: &Result<Answer, Failure>) {
        let chat = self.chat;
        match result {
            Ok(answer) => chat.announce_answer(answer),
            Err(failure) => match &failure.error {
                AgentError::Cancelled => self.exchange.transcript.stopped(),
                AgentError::Llm(LlmError::Proxy(refusal)) if refusal.is_limit() => {
                    let said = limit_sentence(refusal, js_sys::Date::now(), local_offset_minutes);
                    chat.announce(said.clone());
                    chat.limit_reached.set(Some(said));
                }
                _ => chat.error.set(Some(sentence(&agent_error(&failure.error)))),
            },
        }
        self.exchange.outcome.set(Some(result.clone()));
    }

    /// Re-runs one model's answer's SQL on `db`, the database the agent asked (the copy, when
    /// something is hidden), to show its rows as this page gets them. Candidates ran theirs.
    pub async fn show_evidence(&self, ran: &Ran, db: &ModelDatabase, limits: &QueryLimits) {
        let Ran::One(Ok(answer)) = ran else {
            return;
        };
        let Some(sql) = &answer.sql else {
            return;
        };
        // With its values bound, as it ran for the agent (none unless in safe mode).
        let rerun = query_bound(db, sql, &answer.values, limits).await;
        self.exchange
            .evidence
            .set(Some(rerun.map(Arc::new).map_err(|e| for_person_marked(&e))));
    }
}
