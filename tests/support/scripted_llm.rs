//! A model that replays a script, and a clock whose time passes only when someone waits: the
//! agent's loop can be tested turn by turn, with no network and no real waiting.

use askdb::agent::{Agent, AgentConfig, AgentEvent, Answer, Failure, Session};
use askdb::clock::Clock;
use askdb::engine::Database;
use askdb::llm::stream::Delta;
use askdb::llm::{
    ChatRequest, LlmError, LlmProvider, Message, ModelReply, RawToolCall, ToolResult, Usage,
};
use futures::future::LocalBoxFuture;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

/// One model turn of a script.
pub enum Turn {
    Reply(ModelReply),
    Fail(LlmError),
    /// Never answers (a hung connection).
    Hang,
    /// Answers after `ms` of virtual time.
    Slow {
        ms: f64,
        reply: ModelReply,
    },
    /// Streams `deltas`, one every 100 ms of virtual time, then answers `reply` (asked
    /// without streaming, it answers `reply` at once).
    Streamed {
        deltas: Vec<Delta>,
        reply: ModelReply,
    },
    /// The same, one delta every `ms` of virtual time.
    StreamedEvery {
        ms: f64,
        deltas: Vec<Delta>,
        reply: ModelReply,
    },
}

/// Replays turns in order and records every request it receives.
pub struct ScriptedLlm {
    turns: RefCell<VecDeque<Turn>>,
    pub requests: Rc<RefCell<Vec<ChatRequest>>>,
    clock: FakeClock,
}

impl ScriptedLlm {
    pub fn new(turns: Vec<Turn>, clock: &FakeClock) -> ScriptedLlm {
        ScriptedLlm {
            turns: RefCell::new(turns.into()),
            requests: Rc::default(),
            clock: clock.clone(),
        }
    }
}

impl LlmProvider for ScriptedLlm {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError> {
        self.complete_streaming(request, &mut |_| {}).await
    }

    async fn complete_streaming(
        &self,
        request: &ChatRequest,
        on_delta: &mut dyn FnMut(Delta),
    ) -> Result<ModelReply, LlmError> {
        self.requests.borrow_mut().push(request.clone());
        let turn = self.turns.borrow_mut().pop_front();
        match turn {
            None => Err(LlmError::Malformed {
                message: "the script has no more turns".into(),
            }),
            Some(Turn::Reply(reply)) => Ok(reply),
            Some(Turn::Fail(error)) => Err(error),
            Some(Turn::Hang) => std::future::pending().await,
            Some(Turn::Slow { ms, reply }) => {
                self.clock.advance(ms);
                Ok(reply)
            }
            Some(Turn::Streamed { deltas, reply }) => {
                for delta in deltas {
                    self.clock.advance(100.0);
                    on_delta(delta);
                }
                Ok(reply)
            }
            Some(Turn::StreamedEvery { ms, deltas, reply }) => {
                for delta in deltas {
                    self.clock.advance(ms);
                    on_delta(delta);
                }
                Ok(reply)
            }
        }
    }
}

/// Virtual time: `sleep` completes at once when polled, moving time forward by its length.
#[derive(Clone, Default)]
pub struct FakeClock {
    now: Rc<Cell<f64>>,
    /// Every completed sleep, in order.
    pub sleeps: Rc<RefCell<Vec<u32>>>,
}

impl FakeClock {
    pub fn advance(&self, ms: f64) {
        self.now.set(self.now.get() + ms);
    }
}

impl Clock for FakeClock {
    fn now_ms(&self) -> f64 {
        self.now.get()
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        let (now, sleeps) = (self.now.clone(), self.sleeps.clone());
        Box::pin(async move {
            now.set(now.get() + f64::from(ms));
            sleeps.borrow_mut().push(ms);
        })
    }
}

pub const USAGE: Usage = Usage::new(100, 20);

pub fn call(id: &str, name: &str, arguments: serde_json::Value) -> RawToolCall {
    RawToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.to_string(),
    }
}

pub fn run_sql(id: &str, sql: &str) -> RawToolCall {
    call(id, "run_sql", serde_json::json!({ "sql": sql }))
}

pub fn final_answer(id: &str, answer: &str, sql: &str) -> RawToolCall {
    call(
        id,
        "final_answer",
        serde_json::json!({ "answer": answer, "sql": sql }),
    )
}

/// A turn that calls tools.
pub fn calls(calls: Vec<RawToolCall>) -> Turn {
    Turn::Reply(ModelReply {
        text: None,
        tool_calls: calls,
        usage: USAGE,
        raw: None,
    })
}

/// The turns of a three-step question: list the tables and describe `table`, run `sql`, then
/// answer `answer` with `sql` as evidence.
pub fn three_steps(table: &str, sql: &str, answer: &str) -> Vec<Turn> {
    vec![
        calls(vec![
            call("c1", "list_tables", serde_json::json!({})),
            call(
                "c2",
                "describe_table",
                serde_json::json!({ "table": table }),
            ),
        ]),
        calls(vec![run_sql("c3", sql)]),
        calls(vec![final_answer("c4", answer, sql)]),
    ]
}

/// A turn of plain text.
pub fn text(text: &str) -> Turn {
    Turn::Reply(ModelReply {
        text: Some(text.into()),
        tool_calls: Vec::new(),
        usage: USAGE,
        raw: None,
    })
}

/// Everything one question produced.
pub struct Episode {
    pub outcome: Result<Answer, Failure>,
    pub events: Vec<AgentEvent>,
    pub requests: Vec<ChatRequest>,
    pub clock: FakeClock,
}

impl Episode {
    /// The tool results sent back with request `index` (0 is the first request).
    pub fn results_in(&self, index: usize) -> Vec<ToolResult> {
        match self.requests.get(index).and_then(|r| r.messages.last()) {
            Some(Message::ToolResults { results }) => results.clone(),
            other => panic!("request {index} does not end with tool results: {other:?}"),
        }
    }

    /// The content of the only tool result sent back with request `index`.
    pub fn result_in(&self, index: usize) -> ToolResult {
        let results = self.results_in(index);
        assert_eq!(results.len(), 1, "{results:?}");
        results.into_iter().next().unwrap()
    }

    pub fn answer(&self) -> &Answer {
        match &self.outcome {
            Ok(answer) => answer,
            Err(failure) => panic!("no answer: {failure}"),
        }
    }

    pub fn failure(&self) -> &Failure {
        match &self.outcome {
            Ok(answer) => panic!("an answer instead of a failure: {answer:?}"),
            Err(failure) => failure,
        }
    }
}

/// Asks `question` on `db` with a scripted model, in `session`.
pub fn ask<D: Database>(
    db: &D,
    session: &mut Session,
    question: &str,
    turns: Vec<Turn>,
) -> Episode {
    ask_with(
        db,
        session,
        question,
        turns,
        AgentConfig::default(),
        std::future::pending(),
    )
}

pub fn ask_with<D: Database>(
    db: &D,
    session: &mut Session,
    question: &str,
    turns: Vec<Turn>,
    config: AgentConfig,
    cancel: impl std::future::Future<Output = ()>,
) -> Episode {
    let clock = FakeClock::default();
    let llm = ScriptedLlm::new(turns, &clock);
    let agent = Agent::new(db, &llm, &clock, config);
    let mut events = Vec::new();
    let outcome = futures::executor::block_on(agent.ask(
        session,
        question,
        &mut |event| events.push(event),
        cancel,
    ));
    let requests = llm.requests.borrow().clone();
    Episode {
        outcome,
        events,
        requests,
        clock,
    }
}

/// A session on `db`.
pub fn session<D: Database>(db: &D) -> Session {
    futures::executor::block_on(Session::load(db)).expect("schema")
}
