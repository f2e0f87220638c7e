//! Candidate answers (`agent::candidates`) with scripted models on the shop database: who
//! agrees, what a split shows, how a failed candidate counts, Stop, and what each candidate
//! sends (the same start as a single answer, its way of working after the question, and only
//! once the first candidate's first reply is in).
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::candidates::{Approach, CandidateAgents, Candidates};
use askdb::agent::{AgentConfig, AgentError, AgentEvent, EventKind, Session};
use askdb::clock::Clock;
use askdb::engine::{QueryLimits, RowCount};
use askdb::llm::{ChatRequest, LlmError, LlmProvider, Message, ModelReply};
use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use std::cell::RefCell;
use support::scripted_llm::{
    calls, final_answer, run_sql, session, three_steps, FakeClock, ScriptedLlm, Turn,
};
use support::RusqliteDb;

const QUESTION: &str = "How many orders are there?";

const EVIDENCE_LIMITS: QueryLimits = QueryLimits {
    max_rows: 1_000,
    deadline_ms: 10_000,
};

/// A scripted model that also writes when each request went out and each reply came back into a
/// log shared by all candidates.
struct Logged<'a> {
    inner: ScriptedLlm,
    name: usize,
    log: &'a RefCell<Vec<String>>,
}

impl LlmProvider for Logged<'_> {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError> {
        self.log.borrow_mut().push(format!("{} asks", self.name));
        // A reply takes a while, as over the network: the other candidates may run meanwhile.
        yield_once().await;
        let reply = self.inner.complete(request).await;
        self.log.borrow_mut().push(format!("{} replied", self.name));
        reply
    }
}

/// Gives the other candidates one turn: pending once, and wakes itself to be polled again.
async fn yield_once() {
    let mut yielded = false;
    std::future::poll_fn(|context| {
        if yielded {
            return std::task::Poll::Ready(());
        }
        yielded = true;
        context.waker().wake_by_ref();
        std::task::Poll::Pending
    })
    .await
}

/// Time that stands still: no deadline passes while a reply is on its way (the scripted
/// replies above take one poll, as over the network).
struct StillClock;

impl Clock for StillClock {
    fn now_ms(&self) -> f64 {
        0.0
    }

    fn sleep(&self, _ms: u32) -> LocalBoxFuture<'static, ()> {
        Box::pin(std::future::pending())
    }
}

/// What drawing the candidates gave, and what each scripted model was sent.
struct Drawn {
    candidates: Candidates,
    events: Vec<(usize, AgentEvent)>,
    requests: Vec<Vec<ChatRequest>>,
    log: Vec<String>,
}

fn draw(db: &RusqliteDb, scripts: Vec<Vec<Turn>>, config: AgentConfig) -> Drawn {
    draw_until(db, scripts, config, |_, _| false)
}

/// Draws one candidate per script; Stop is pressed when `stop_at` says so of an event.
fn draw_until(
    db: &RusqliteDb,
    scripts: Vec<Vec<Turn>>,
    config: AgentConfig,
    mut stop_at: impl FnMut(usize, &AgentEvent) -> bool,
) -> Drawn {
    let session: Session = session(db);
    let clock = FakeClock::default();
    let still = StillClock;
    let log = RefCell::new(Vec::new());
    let llms: Vec<Logged> = scripts
        .into_iter()
        .enumerate()
        .map(|(name, turns)| Logged {
            inner: ScriptedLlm::new(turns, &clock),
            name,
            log: &log,
        })
        .collect();
    let agents = CandidateAgents {
        db,
        llms: llms.iter().collect(),
        clock: &still,
        config,
        evidence_limits: EVIDENCE_LIMITS,
    };
    let (stop, stopped) = oneshot::channel::<()>();
    let mut stop = Some(stop);
    let mut events = Vec::new();
    let candidates = futures::executor::block_on(agents.ask(
        &session,
        QUESTION,
        &mut |index, event| {
            if stop_at(index, &event) {
                if let Some(stop) = stop.take() {
                    let _ = stop.send(());
                }
            }
            events.push((index, event));
        },
        async {
            let _ = stopped.await;
        },
    ));
    let requests = llms
        .iter()
        .map(|llm| llm.inner.requests.borrow().clone())
        .collect();
    Drawn {
        candidates,
        events,
        requests,
        log: log.into_inner(),
    }
}

fn answer_with(sql: &str) -> Vec<Turn> {
    three_steps("orders", sql, "There are 12 orders.")
}

#[test]
fn three_candidates_that_give_the_same_count_agree() {
    let db = RusqliteDb::shop();
    let drawn = draw(
        &db,
        vec![
            answer_with("SELECT count(*) FROM orders"),
            answer_with("SELECT COUNT(id) AS n FROM orders"),
            answer_with("SELECT count(*) + 0.0 FROM orders WHERE 1"),
        ],
        AgentConfig::default(),
    );
    let candidates = &drawn.candidates;
    for answer in &candidates.answers {
        let result = answer.result().expect("each evidence ran");
        assert_eq!(result.total_rows, RowCount::Exact(1), "{answer:?}");
    }
    assert_eq!(candidates.agreement.groups, vec![vec![0, 1, 2]]);
    assert_eq!(candidates.agreement.summary(), "3 of 3 candidates agree");
    assert_eq!(
        candidates.agreed().and_then(|a| a.answer()?.sql.clone()),
        Some("SELECT count(*) FROM orders".into())
    );
    let approaches: Vec<Approach> = candidates.answers.iter().map(|a| a.approach).collect();
    assert_eq!(
        approaches,
        [Approach::AsAsked, Approach::InParts, Approach::ValuesFirst]
    );
    // Each candidate's tokens are its own; the total is theirs together.
    assert_eq!(candidates.usage().input_tokens, 3 * 3 * 100);
    // Every candidate's steps reach the page with its number.
    for index in 0..3 {
        let answered = drawn
            .events
            .iter()
            .filter(|(i, e)| *i == index && matches!(e.kind, EventKind::Answer { .. }))
            .count();
        assert_eq!(answered, 1, "candidate {index}");
    }
}

#[test]
fn a_two_one_split_keeps_both_results_and_chooses_neither() {
    let db = RusqliteDb::shop();
    let drawn = draw(
        &db,
        vec![
            answer_with("SELECT count(*) FROM orders"),
            answer_with("SELECT count(*) FROM customers"),
            answer_with("SELECT count(id) FROM orders"),
        ],
        AgentConfig::default(),
    );
    let agreement = &drawn.candidates.agreement;
    assert_eq!(agreement.groups, vec![vec![0, 2], vec![1]]);
    assert!(agreement.is_split());
    assert_eq!(agreement.agreed(), None, "nothing is chosen for the person");
    assert!(drawn.candidates.agreed().is_none());
    assert_eq!(
        agreement.summary(),
        "The candidates disagree: 3 candidates gave 2 different results"
    );
    // Both results are there to be shown, each with its SQL.
    let orders = drawn.candidates.answers[0].result().unwrap();
    let customers = drawn.candidates.answers[1].result().unwrap();
    assert_ne!(orders.rows, customers.rows);
    assert_eq!(
        drawn.candidates.answers[1].evidence_sql().as_deref(),
        Some("SELECT count(*) FROM customers")
    );
}

#[test]
fn candidates_that_fail_are_counted_as_failed_with_why() {
    let db = RusqliteDb::shop();
    let refused = || calls(vec![final_answer("f", "Deleted.", "DELETE FROM orders")]);
    let drawn = draw(
        &db,
        vec![
            answer_with("SELECT count(*) FROM orders"),
            // The model cannot be called.
            vec![Turn::Fail(LlmError::Unauthorized {
                status: 401,
                message: "bad key".into(),
            })],
            // Runs queries until the step limit.
            (0..3)
                .map(|i| calls(vec![run_sql(&format!("r{i}"), "SELECT 1")]))
                .collect(),
            // Its evidence is refused every time: the answer comes without SQL.
            vec![refused(), refused(), refused()],
        ],
        AgentConfig {
            max_steps: 3,
            ..AgentConfig::default()
        },
    );
    let answers = &drawn.candidates.answers;
    let why: Vec<Option<String>> = answers.iter().map(|a| a.no_result()).collect();
    assert_eq!(why[0], None);
    assert!(
        why[1]
            .as_deref()
            .unwrap()
            .starts_with("no answer: the model could not answer"),
        "{why:?}"
    );
    assert!(
        why[2]
            .as_deref()
            .unwrap()
            .starts_with("no answer: no answer after 3 steps"),
        "{why:?}"
    );
    assert_eq!(why[3].as_deref(), Some("answered without SQL to check"));
    let agreement = &drawn.candidates.agreement;
    assert_eq!(agreement.groups, vec![vec![0]]);
    assert_eq!(agreement.without_result, vec![1, 2, 3]);
    assert_eq!(
        agreement.summary(),
        "Only 1 of 4 candidates gave a result; 3 gave no result"
    );
    assert!(!drawn.candidates.stopped());
}

#[test]
fn stop_in_the_middle_stops_every_candidate() {
    let db = RusqliteDb::shop();
    let drawn = draw_until(
        &db,
        vec![
            vec![calls(vec![final_answer(
                "f",
                "12 orders.",
                "SELECT count(*) FROM orders",
            )])],
            vec![calls(vec![run_sql("r", "SELECT 1")]), Turn::Hang],
            answer_with("SELECT count(*) FROM orders"),
        ],
        AgentConfig::default(),
        // Stop while the second candidate waits for its second reply.
        |index, event| index == 1 && matches!(event.kind, EventKind::StepStarted { step: 2, .. }),
    );
    let answers = &drawn.candidates.answers;
    assert!(answers[0].result().is_some(), "{:?}", answers[0]);
    for stopped in &answers[1..] {
        let failure = stopped.outcome.as_ref().expect_err("stopped");
        assert_eq!(failure.error, AgentError::Cancelled);
    }
    assert_eq!(answers[1].steps(), 2, "it was stopped at its second step");
    assert!(drawn.candidates.stopped());
    // Nothing was sent after Stop: not the second candidate's second call, not the third's.
    assert_eq!(drawn.requests[1].len(), 1, "{:?}", drawn.log);
    assert!(drawn.requests[2].len() <= 1, "{:?}", drawn.log);
    let after_stop = drawn.log.iter().skip_while(|e| *e != "1 replied").skip(1);
    assert!(
        after_stop.clone().all(|e| !e.starts_with('1')),
        "{:?}",
        drawn.log
    );
}

#[test]
fn results_in_another_column_or_row_order_agree() {
    let db = RusqliteDb::shop();
    let list = |sql: &str| {
        vec![
            calls(vec![run_sql("r", sql)]),
            calls(vec![final_answer("f", "The customers.", sql)]),
        ]
    };
    let drawn = draw(
        &db,
        vec![
            list("SELECT name, prefecture FROM customers"),
            list("SELECT prefecture, name FROM customers ORDER BY name DESC"),
            list("SELECT name, prefecture FROM customers ORDER BY id DESC"),
        ],
        AgentConfig::default(),
    );
    let first = drawn.candidates.answers[0].result().unwrap();
    assert!(first.rows.len() > 2, "enough rows for the order to differ");
    assert_ne!(
        first.rows,
        drawn.candidates.answers[2].result().unwrap().rows,
        "the rows really come in another order"
    );
    assert_eq!(drawn.candidates.agreement.groups, vec![vec![0, 1, 2]]);
}

#[test]
fn every_candidate_starts_with_the_single_answers_request_and_adds_its_way_after_it() {
    let db = RusqliteDb::shop();
    let drawn = draw(
        &db,
        (0..5)
            .map(|_| answer_with("SELECT count(*) FROM orders"))
            .collect(),
        AgentConfig::default(),
    );
    // One candidate alone sends what a question without candidates sends.
    let single = support::scripted_llm::ask(
        &db,
        &mut session(&db),
        QUESTION,
        answer_with("SELECT count(*) FROM orders"),
    );
    let first_requests: Vec<&ChatRequest> = drawn.requests.iter().map(|r| &r[0]).collect();
    assert_eq!(first_requests[0], &single.requests[0]);
    for (index, request) in first_requests.iter().enumerate().skip(1) {
        assert_eq!(request.system, single.requests[0].system);
        assert_eq!(request.tools, single.requests[0].tools);
        let (way, question) = request.messages.split_last().unwrap();
        assert_eq!(
            question,
            &single.requests[0].messages[..],
            "candidate {index}"
        );
        let Message::User { text } = way else {
            panic!("candidate {index} ends with {way:?}")
        };
        assert!(text.starts_with("How to work on this answer"), "{text}");
    }
    let ways: std::collections::HashSet<String> = first_requests[1..]
        .iter()
        .map(|r| format!("{:?}", r.messages.last()))
        .collect();
    assert_eq!(ways.len(), 4, "each candidate is asked its own way");
    // The join paths are the schema's own foreign keys.
    let Some(Message::User { text }) = first_requests[3].messages.last() else {
        unreachable!()
    };
    assert!(
        text.contains("orders.customer_id = customers.id")
            && text.contains("orders.product_id = products.id"),
        "{text}"
    );
}

#[test]
fn the_others_start_once_the_first_candidates_first_reply_is_in() {
    let db = RusqliteDb::shop();
    let drawn = draw(
        &db,
        (0..3)
            .map(|_| answer_with("SELECT count(*) FROM orders"))
            .collect(),
        AgentConfig::default(),
    );
    let at = |entry: &str| drawn.log.iter().position(|e| e == entry).unwrap();
    assert!(at("0 replied") < at("1 asks"), "{:?}", drawn.log);
    assert!(at("0 replied") < at("2 asks"), "{:?}", drawn.log);
    // Positive control: the log holds every candidate's requests.
    assert_eq!(drawn.log.iter().filter(|e| e.ends_with("asks")).count(), 9);
}

#[test]
fn the_first_candidate_failing_at_once_still_lets_the_others_run() {
    let db = RusqliteDb::shop();
    let drawn = draw(
        &db,
        vec![
            vec![Turn::Fail(LlmError::Unauthorized {
                status: 401,
                message: "bad key".into(),
            })],
            answer_with("SELECT count(*) FROM orders"),
        ],
        AgentConfig::default(),
    );
    assert!(drawn.candidates.answers[1].result().is_some());
    assert_eq!(drawn.candidates.agreement.agreed(), Some(1));
}

#[test]
fn the_agreed_answer_is_what_a_follow_up_remembers() {
    let db = RusqliteDb::shop();
    let drawn = draw(
        &db,
        vec![
            answer_with("SELECT count(*) FROM orders"),
            answer_with("SELECT count(id) FROM orders"),
        ],
        AgentConfig::default(),
    );
    let mut session = session(&db);
    let agreed = drawn.candidates.agreed().unwrap().answer().unwrap().clone();
    session.remember(QUESTION, &agreed);
    let turns = session.conversation().turns();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].sql.as_deref(), Some("SELECT count(*) FROM orders"));
}
