//! The loop: ask the model, run every tool it calls, send the results back, until it calls
//! `final_answer` or a limit is reached.

use super::draft::{DraftWriter, DRAFT_EVERY_MS};
use super::events::SchemaSent;
use super::events::{AgentEvent, EventKind, NudgeReason};
use super::question_database::QuestionDatabase;
use super::race::Race;
use super::tools::final_answer::AcceptedAnswer;
use super::tools::query::Catalog;
use super::tools::{self, Mode, Offer, ToolOutput, Toolbox};
use super::values::round_ms;
use super::written_calls::{self, Lifted};
use super::{briefing, prompt, selection, Agent, AgentError, Answer, Failure, Session};
use crate::clock::Clock;
use crate::engine::Database;
use crate::llm::retry::RetryPolicy;
use crate::llm::{ChatRequest, LlmProvider, Message, ModelReply, RawToolCall, ToolResult, Usage};
use std::future::Future;
use std::pin::Pin;

/// Tool calls beyond this many in one reply are refused, not run.
const MAX_CALLS_PER_REPLY: usize = 10;

/// The state of one question.
struct Run<'r> {
    clock: &'r dyn Clock,
    started_ms: f64,
    usage: Usage,
    steps: u32,
    events: &'r mut dyn FnMut(AgentEvent),
    race: Race<'r>,
}

impl Run<'_> {
    fn elapsed_ms(&self) -> f64 {
        round_ms(self.clock.now_ms() - self.started_ms)
    }

    fn emit(&mut self, kind: EventKind) {
        let at_ms = self.elapsed_ms();
        (self.events)(AgentEvent { at_ms, kind });
    }

    fn fail(&mut self, error: AgentError) -> Failure {
        self.emit(EventKind::Error {
            message: error.to_string(),
            usage: self.usage,
            steps: self.steps,
        });
        Failure {
            error,
            usage: self.usage,
            steps: self.steps,
            elapsed_ms: self.elapsed_ms(),
        }
    }

    /// One model call, tried again after a wait while the policy says a retry may help.
    async fn call_model<L: LlmProvider + ?Sized>(
        &mut self,
        llm: &L,
        retry: &RetryPolicy,
        request: &ChatRequest,
    ) -> Result<ModelReply, AgentError> {
        // Retries made so far; the policy counts the first retry as 1.
        let mut attempt = 0;
        loop {
            let started = self.clock.now_ms();
            let (step, clock, events) = (self.steps, self.clock, &mut *self.events);
            let mut writer = DraftWriter::default();
            let mut first_token_ms = None;
            let mut shown_at: Option<f64> = None;
            // A piece that changes what the person sees is shown as the draft so far, at most
            // once per DRAFT_EVERY_MS (the whole reply follows).
            let mut on_delta = |delta| {
                if !writer.add(delta) {
                    return;
                }
                let at_ms = clock.now_ms();
                first_token_ms.get_or_insert(round_ms(at_ms - started));
                if shown_at.is_some_and(|shown| at_ms - shown < DRAFT_EVERY_MS) {
                    return;
                }
                shown_at = Some(at_ms);
                let draft = writer.draft().clone();
                events(AgentEvent {
                    at_ms: round_ms(at_ms - self.started_ms),
                    kind: EventKind::Writing { step, draft },
                });
            };
            let call = llm.complete_streaming(request, &mut on_delta);
            match self.race.run(call).await? {
                Ok(reply) => {
                    self.usage += reply.usage;
                    self.emit(EventKind::ModelReplied {
                        step: self.steps,
                        elapsed_ms: round_ms(self.clock.now_ms() - started),
                        first_token_ms,
                        usage: reply.usage,
                        total_usage: self.usage,
                    });
                    return Ok(reply);
                }
                Err(error) => match retry.delay_before_retry(attempt + 1, &error) {
                    Some(wait_ms) => {
                        attempt += 1;
                        self.emit(EventKind::LlmRetry {
                            step: self.steps,
                            attempt,
                            wait_ms,
                            error: error.clone(),
                        });
                        self.race.run(self.clock.sleep(wait_ms)).await?;
                    }
                    None => return Err(AgentError::Llm(error)),
                },
            }
        }
    }

    /// Ends the question with an answer (and what it cost).
    fn finish(&mut self, accepted: AcceptedAnswer) -> Answer {
        let answer = Answer {
            text: accepted.answer,
            sql: accepted.sql,
            values: accepted.values,
            notes: accepted.notes,
            verified: accepted.verified,
            usage: self.usage,
            steps: self.steps,
            elapsed_ms: self.elapsed_ms(),
        };
        self.emit(EventKind::Answer {
            answer: answer.clone(),
        });
        answer
    }
}

pub(super) async fn ask<D, L>(
    agent: &Agent<'_, D, L>,
    session: &mut Session,
    question: &str,
    events: &mut dyn FnMut(AgentEvent),
    cancel: Pin<&mut dyn Future<Output = ()>>,
) -> Result<Answer, Failure>
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
{
    let config = &agent.config;
    let mut run = Run {
        clock: agent.clock,
        started_ms: agent.clock.now_ms(),
        usage: Usage::default(),
        steps: 0,
        events,
        race: Race::new(agent.clock, config.deadline_ms, cancel),
    };
    match answer(agent, session, question, &mut run).await {
        Ok(answer) => {
            session.conversation.record(question, &answer);
            Ok(answer)
        }
        Err(error) => Err(run.fail(error)),
    }
}

async fn answer<D, L>(
    agent: &Agent<'_, D, L>,
    session: &mut Session,
    question: &str,
    run: &mut Run<'_>,
) -> Result<Answer, AgentError>
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
{
    let config = &agent.config;
    let (system, messages, mut schema_sent) = first_messages(agent, session, question, run);
    if config.mode == Mode::Safe && session.catalog.is_none() {
        // Read once per database: which fields there are, their kinds and enumerations.
        let data = QuestionDatabase::new(agent.db, &session.schema, config);
        session.catalog = Some(run.race.run(Catalog::read(&data)).await?);
    }
    let no_fields = Catalog::default();
    let catalog = match config.mode {
        Mode::Safe => session.catalog.as_ref().unwrap_or(&no_fields),
        Mode::Sql => &no_fields,
    };
    let tool_specs = tools::specs(&Offer {
        mode: config.mode,
        catalog,
    });
    schema_sent.first_request_bytes = request_bytes(&system, &messages, &tool_specs);
    run.emit(EventKind::Schema(schema_sent));
    let toolbox = Toolbox::new(
        agent.db,
        &session.schema,
        &mut session.descriptions,
        &session.knowledge,
        catalog,
        config,
    );
    let turn = Turn {
        system,
        messages,
        tool_specs,
    };
    steps(agent, run, toolbox, turn).await
}

/// What a question starts with: the system prompt (the same bytes for every question on the
/// database) and the messages (the conversation so far, then the question with its knowledge,
/// the part of the schema it needs and the values it names, and the candidate's approach), and
/// what of the schema went (its first request's bytes are the caller's to fill in). The
/// knowledge that went is reported here.
fn first_messages<D, L>(
    agent: &Agent<'_, D, L>,
    session: &Session,
    question: &str,
    run: &mut Run<'_>,
) -> (String, Vec<Message>, SchemaSent)
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
{
    let config = &agent.config;
    let prompt = prompt::build(&session.schema, &session.knowledge, config);
    let mut messages = session.conversation.as_messages();
    let briefing = briefing::for_question(
        &session.knowledge,
        &session.examples,
        prompt.notes,
        question,
    );
    let mut text = match briefing {
        Some(briefing) => {
            let text = briefing.message(question);
            run.emit(EventKind::Knowledge(briefing.sent));
            text
        }
        None => question.to_string(),
    };
    // The part of the schema the question needs (when the system prompt lists names only) and
    // the values it names, after it: the system prompt stays the same bytes for the database.
    // In safe mode the query tool's description lists every field: only the values go.
    let whole = config.mode == Mode::Safe || prompt::sends_whole_schema(&session.schema);
    let picked = selection::for_question(
        &session.schema,
        &session.knowledge,
        &session.tables,
        &session.values,
        question,
        whole,
    );
    text.push_str(&picked.text);
    messages.push(Message::User { text });
    // After the question, so that every candidate's first request starts with the same bytes.
    if let Some(text) = agent.approach.instruction(&session.schema) {
        messages.push(Message::User { text });
    }
    (prompt.text, messages, picked.sent)
}

/// What each step's request is made of: it grows by the model's replies and the tool results.
struct Turn {
    system: String,
    messages: Vec<Message>,
    tool_specs: Vec<crate::llm::ToolSpec>,
}

impl Turn {
    /// The request for the next step: everything so far.
    fn request(&self, config: &super::AgentConfig) -> ChatRequest {
        ChatRequest {
            model: config.model.clone(),
            system: self.system.clone(),
            messages: self.messages.clone(),
            tools: self.tool_specs.clone(),
            temperature: config.temperature,
            max_tokens: config.max_tokens,
        }
    }
}

/// What the steps of one question carry from one to the next.
struct Steps<'t, D: Database + ?Sized> {
    toolbox: Toolbox<'t, D>,
    turn: Turn,
    /// Whether the model was asked, once, for `final_answer` after a reply in plain text.
    nudged: bool,
    /// Whether the model called any tool in this question, through the API or in its text.
    called_tools: bool,
}

/// The steps of a question: ask the model, run the tools it calls, send the results back, until
/// `final_answer` accepts an answer or the steps run out.
async fn steps<D, L>(
    agent: &Agent<'_, D, L>,
    run: &mut Run<'_>,
    toolbox: Toolbox<'_, D>,
    turn: Turn,
) -> Result<Answer, AgentError>
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
{
    let max_steps = agent.config.max_steps;
    let mut state = Steps {
        toolbox,
        turn,
        nudged: false,
        called_tools: false,
    };
    while run.steps < max_steps {
        run.steps += 1;
        if let Some(answer) = step(agent, run, &mut state).await? {
            return Ok(answer);
        }
    }
    if !state.called_tools {
        run.emit(EventKind::ToolsNeverCalled { steps: max_steps });
    }
    Err(AgentError::StepLimit { steps: max_steps })
}

/// One step (`run.steps`): one model turn and the tool calls it makes. An answer ends the
/// question; `None` goes on to the next step with the request grown by this one.
async fn step<D, L>(
    agent: &Agent<'_, D, L>,
    run: &mut Run<'_>,
    state: &mut Steps<'_, D>,
) -> Result<Option<Answer>, AgentError>
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
{
    let config = &agent.config;
    let step = run.steps;
    run.emit(EventKind::StepStarted {
        step,
        max_steps: config.max_steps,
    });
    let request = state.turn.request(config);
    let reply = run.call_model(agent.llm, &agent.retry, &request).await?;
    let offered: Vec<&str> = state
        .turn
        .tool_specs
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    let (reply, written, unreadable) = match written_calls::lift(reply, step, &offered) {
        Lifted::AsSent(reply) => (reply, None, None),
        Lifted::Written { reply, calls } => (reply, Some(calls), None),
        Lifted::Unreadable { reply, unreadable } => (reply, None, Some(unreadable)),
    };
    state.turn.messages.push(reply.to_message());
    let text = reply
        .text
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty());
    if let Some(text) = text {
        run.emit(EventKind::ModelText {
            step,
            text: text.to_string(),
        });
    }
    if let Some(calls) = written {
        run.emit(EventKind::CallsInText { step, calls });
    }
    if let Some(unreadable) = unreadable {
        // Not the once-only nudge: the model tried to call a tool, and may well manage when
        // told how (the step limit bounds it).
        run.emit(EventKind::Nudged {
            step,
            reason: NudgeReason::UnreadableCall {
                problem: unreadable.problem.clone(),
            },
        });
        state.turn.messages.push(Message::User {
            text: written_calls::correction(&unreadable),
        });
        return Ok(None);
    }
    if reply.tool_calls.is_empty() {
        return plain_text(run, state, config.mode, text);
    }
    state.called_tools = true;
    let calls = &reply.tool_calls;
    match run_calls(run, &mut state.toolbox, config.mode, step, calls).await? {
        Calls::Answered(accepted) => Ok(Some(run.finish(accepted))),
        Calls::Results(results) => {
            state.turn.messages.push(Message::ToolResults { results });
            Ok(None)
        }
    }
}

/// A reply in plain text (or an empty one) is an answer without evidence: ask once for
/// `final_answer`, then take it.
fn plain_text<D: Database + ?Sized>(
    run: &mut Run<'_>,
    state: &mut Steps<'_, D>,
    mode: Mode,
    text: Option<&str>,
) -> Result<Option<Answer>, AgentError> {
    let step = run.steps;
    if !state.nudged {
        state.nudged = true;
        state
            .turn
            .messages
            .push(nudge(run, mode, step, text.is_some()));
        return Ok(None);
    }
    if !state.called_tools {
        run.emit(EventKind::ToolsNeverCalled { steps: step });
    }
    match text {
        Some(text) => Ok(Some(run.finish(AcceptedAnswer {
            answer: text.to_string(),
            sql: None,
            values: Vec::new(),
            notes: None,
            verified: false,
        }))),
        None => Err(AgentError::EmptyReply),
    }
}

/// The message that asks, once, for `final_answer` after a reply in plain text (or an empty
/// one), reported as a nudge.
fn nudge(run: &mut Run<'_>, mode: Mode, step: u32, had_text: bool) -> Message {
    let (reason, nudge) = if had_text {
        (
            NudgeReason::AnsweredWithoutFinalAnswer,
            prompt::nudge_text(mode),
        )
    } else {
        (NudgeReason::EmptyReply, prompt::NUDGE_EMPTY)
    };
    run.emit(EventKind::Nudged { step, reason });
    Message::User {
        text: nudge.to_string(),
    }
}

/// How the tool calls of one reply ended.
enum Calls {
    /// `final_answer` accepted an answer; later calls were not run.
    Answered(AcceptedAnswer),
    /// Every call's result, to send back to the model.
    Results(Vec<ToolResult>),
}

/// Runs the tool calls of one reply, in order.
async fn run_calls<D: Database + ?Sized>(
    run: &mut Run<'_>,
    toolbox: &mut Toolbox<'_, D>,
    mode: Mode,
    step: u32,
    calls: &[RawToolCall],
) -> Result<Calls, AgentError> {
    let mut results = Vec::new();
    for (index, call) in calls.iter().enumerate() {
        let read = tools::ToolCall::read(&call.name, &call.arguments, mode);
        run.emit(EventKind::ToolCall {
            step,
            call_id: call.id.clone(),
            name: call.name.clone(),
            call: read.as_ref().ok().cloned(),
        });
        let started = run.clock.now_ms();
        let output = match read {
            _ if index >= MAX_CALLS_PER_REPLY => ToolOutput::error(format!(
                "not run: at most {MAX_CALLS_PER_REPLY} tool calls are run per reply"
            )),
            Ok(tool_call) => {
                toolbox.set_time_left(run.race.remaining_ms());
                run.race.run(toolbox.run(&tool_call)).await?
            }
            Err(message) => ToolOutput::error(message),
        };
        run.emit(EventKind::ToolResult {
            step,
            call_id: call.id.clone(),
            name: call.name.clone(),
            is_error: output.is_error(),
            elapsed_ms: round_ms(run.clock.now_ms() - started),
            output: Box::new(output.clone()),
        });
        if let ToolOutput::Answer(accepted) = output {
            return Ok(Calls::Answered(accepted));
        }
        results.push(ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: output.model_text(),
            is_error: output.is_error(),
        });
    }
    Ok(Calls::Results(results))
}

/// What a request carries for the model, in bytes: the system prompt, the messages' text and
/// the tools' descriptions (as JSON). Not what goes on the wire, which each provider wraps its
/// own way, but the same for all of them.
fn request_bytes(system: &str, messages: &[Message], tools: &[crate::llm::ToolSpec]) -> usize {
    let messages: usize = messages
        .iter()
        .map(|message| match message {
            Message::User { text } => text.len(),
            Message::Assistant {
                text, tool_calls, ..
            } => {
                let calls: usize = tool_calls
                    .iter()
                    .map(|call| call.name.len() + call.arguments.len())
                    .sum();
                text.as_deref().map_or(0, str::len) + calls
            }
            Message::ToolResults { results } => results.iter().map(|r| r.content.len()).sum(),
        })
        .sum();
    let tools: usize = tools
        .iter()
        .map(|tool| tool.name.len() + tool.description.len() + tool.parameters.to_string().len())
        .sum();
    system.len() + messages + tools
}
