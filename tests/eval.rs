//! Golden questions asked of scripted models on the shop database: one that answers right, one
//! that answers wrong, one that fails. The report's counts, outcomes, verdicts, Markdown and
//! JSON are checked, and that the model is never sent a golden question's SQL.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::{AgentConfig, Session};
use askdb::engine::Value;
use askdb::eval::report::{self, JSON_FORMAT};
use askdb::eval::run::{run_golden, Candidate, GoldenResult, Outcome, Report};
use askdb::knowledge::{Example, GoldenQuestion, Knowledge, Source};
use askdb::llm::{ChatRequest, LlmError, Usage};
use std::cell::Cell;
use std::rc::Rc;
use std::task::Poll;
use support::golden::{golden_question, MARCH, MARCH_WRONG, PER_PREFECTURE};
use support::scripted_llm::{
    calls, final_answer, run_sql, session, text, FakeClock, ScriptedLlm, Turn,
};
use support::RusqliteDb;

const MARCH_OTHER_WAY: &str = "SELECT COUNT(id) AS n FROM orders WHERE ordered_at LIKE '2024-03%'";
const PER_PREFECTURE_SWAPPED: &str =
    "SELECT count(*) AS customers, prefecture FROM customers GROUP BY 2";
const BROKEN: &str = "SELECT no_such_column FROM orders";

fn golden_questions() -> Vec<GoldenQuestion> {
    vec![
        golden_question("How many orders were placed in March 2024?", MARCH),
        golden_question("How many customers per prefecture?", PER_PREFECTURE),
        golden_question("Which column does not exist?", BROKEN),
    ]
}

/// The session the page would have: the schema, and knowledge that includes the golden
/// questions and a worked example that gives one away.
fn shop_session(db: &RusqliteDb) -> Session {
    let mut session = session(db);
    session.set_knowledge(Knowledge {
        examples: vec![
            Example {
                question: "Orders in March 2024".into(),
                sql: MARCH.into(),
                source: Source::Database,
            },
            Example {
                question: "Products per category".into(),
                sql: "SELECT category, count(*) FROM products GROUP BY category".into(),
                source: Source::Database,
            },
        ],
        golden_questions: golden_questions(),
        ..Knowledge::default()
    });
    session
}

/// When the test stops the run.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    Never,
    AtStart,
    AfterFirstResult,
}

/// What a run gave: the report, each result as it was reported, the requests the model got.
type Run = (Report, Vec<GoldenResult>, Vec<ChatRequest>);

/// Runs the shop's golden questions with a scripted model.
fn evaluate(turns: Vec<Turn>, config: AgentConfig) -> Run {
    evaluate_shop(turns, config, Stop::Never)
}

fn evaluate_shop(turns: Vec<Turn>, config: AgentConfig, stop: Stop) -> Run {
    let db = RusqliteDb::shop();
    evaluate_on(
        &db,
        shop_session(&db),
        &golden_questions(),
        turns,
        config,
        stop,
    )
}

/// Runs `golden_questions` on `db` with a scripted model, stopping when `stop` says.
fn evaluate_on(
    db: &RusqliteDb,
    session: Session,
    golden_questions: &[GoldenQuestion],
    turns: Vec<Turn>,
    config: AgentConfig,
    stop: Stop,
) -> Run {
    evaluate_candidate((db, db), session, golden_questions, turns, config, stop)
}

/// Runs `golden_questions` with a scripted model querying `model_view_db` while the expected SQL
/// runs on `reference`, stopping when `stop` says.
fn evaluate_candidate(
    (model_view_db, reference): (&RusqliteDb, &RusqliteDb),
    session: Session,
    golden_questions: &[GoldenQuestion],
    turns: Vec<Turn>,
    config: AgentConfig,
    stop: Stop,
) -> Run {
    let clock = FakeClock::default();
    let llm = ScriptedLlm::new(turns, &clock);
    let candidate = Candidate {
        db: model_view_db,
        reference,
        llm: &llm,
        clock: &clock,
        config,
    };
    let stopped = Rc::new(Cell::new(stop == Stop::AtStart));
    let cancel = {
        let stopped = stopped.clone();
        std::future::poll_fn(move |_| match stopped.get() {
            true => Poll::Ready(()),
            false => Poll::Pending,
        })
    };
    let mut seen = Vec::new();
    let report = futures::executor::block_on(run_golden(
        &candidate,
        &session,
        golden_questions,
        &mut |result| {
            seen.push(result.clone());
            stopped.set(stop == Stop::AfterFirstResult);
        },
        cancel,
    ));
    let requests = llm.requests.borrow().clone();
    (report, seen, requests)
}

fn config() -> AgentConfig {
    AgentConfig {
        model: "scripted-model".into(),
        ..AgentConfig::default()
    }
}

fn right_model() -> Vec<Turn> {
    vec![
        calls(vec![run_sql("a1", MARCH_OTHER_WAY)]),
        calls(vec![final_answer("a2", "7 orders.", MARCH_OTHER_WAY)]),
        calls(vec![final_answer(
            "b1",
            "See the table.",
            PER_PREFECTURE_SWAPPED,
        )]),
    ]
}

fn wrong_model() -> Vec<Turn> {
    vec![
        calls(vec![final_answer("a1", "12 orders.", MARCH_WRONG)]),
        text("Most customers live in Tokyo."),
        text("Most customers live in Tokyo, I am sure."),
    ]
}

fn count(sql: &str) -> i64 {
    match RusqliteDb::shop().raw_rows(sql).unwrap()[0][0] {
        Value::Integer(n) => n,
        ref other => panic!("not a count: {other:?}"),
    }
}

fn requests_text(requests: &[ChatRequest]) -> String {
    format!("{requests:?}")
}

#[test]
fn a_model_that_answers_right_passes_every_working_golden_question() {
    let (report, seen, requests) = evaluate(right_model(), config());
    let outcomes: Vec<&Outcome> = report.results.iter().map(|r| &r.outcome).collect();
    assert_eq!(outcomes[0], &Outcome::Pass);
    assert_eq!(
        outcomes[1],
        &Outcome::Pass,
        "columns in another order still pass"
    );
    assert!(
        matches!(outcomes[2], Outcome::ExpectedFailed { why } if why.to_string().contains("no_such_column")),
        "{outcomes:?}"
    );
    assert_eq!((report.passed, report.total, report.broken()), (2, 2, 1));
    assert!(!report.stopped);
    assert_eq!(seen, report.results, "each result is reported as it comes");
    // Three model calls for the two working golden questions; the broken one costs nothing.
    assert_eq!(requests.len(), 3);
    assert_eq!(report.usage, Usage::new(300, 60));
    assert_eq!(report.results[0].steps, 2);
    assert_eq!(report.results[0].usage, Usage::new(200, 40));
    assert_eq!(report.results[2].usage, Usage::default());
    assert_eq!(
        report.results[0].model_sql.as_deref(),
        Some(MARCH_OTHER_WAY)
    );
    assert_eq!(report.results[0].answer.as_deref(), Some("7 orders."));
    assert_eq!(
        report.summary(),
        "2 of 2 correct, 360 tokens, 1 check broken"
    );
    // Each question starts a fresh conversation: the second request holds only its question.
    let second_question = requests_text(&requests[2..]);
    assert!(!second_question.contains("March"), "{second_question}");
    // Schema selection's recall: the shop goes whole, so every table and column of the
    // expected SQL was in the first request; the broken check reached no model.
    let recall = report.results[0].selection.clone().expect("recall");
    assert!(recall.whole);
    assert_eq!((recall.tables_found, recall.tables), (1, 1));
    assert_eq!(recall.columns_found, recall.columns);
    assert!(recall.columns >= 1, "{recall:?}");
    assert!(recall.first_request_bytes > requests[0].system.len());
    assert!(report.results[2].selection.is_none());
    let markdown = report::markdown(&report);
    assert!(
        markdown.contains("Schema in the first request: 2 of 2 tables (100 %)"),
        "{markdown}"
    );
}

#[test]
fn a_model_that_answers_wrong_fails_with_the_verdict() {
    let (report, _, _) = evaluate(wrong_model(), config());
    let wrong = count(MARCH_WRONG);
    assert_eq!(
        report.results[0].outcome,
        Outcome::Fail {
            why: format!(
                "first column (count(*)): {} expected, {wrong} returned",
                count(MARCH)
            )
            .into()
        }
    );
    assert_eq!(report.results[1].outcome, Outcome::NoSql);
    assert_eq!(
        report.results[1].answer.as_deref(),
        Some("Most customers live in Tokyo, I am sure.")
    );
    assert_eq!((report.passed, report.total), (0, 2));
    assert!(report.summary().starts_with("0 of 2 correct"));

    let markdown = report::markdown(&report);
    assert!(
        markdown.starts_with("# Golden questions asked of scripted\\-model\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("**0 of 2 correct\\, 360 tokens\\, 1 check broken**"),
        "{markdown}"
    );
    assert!(
        markdown
            .contains("| 1 | How many orders were placed in March 2024\\? | fail: first column"),
        "{markdown}"
    );
    assert!(
        markdown.contains(&format!("```sql\n{MARCH}\n```")),
        "{markdown}"
    );
    assert!(
        markdown.contains(&format!("```sql\n{MARCH_WRONG}\n```")),
        "{markdown}"
    );
    assert!(markdown.contains("The model gave no SQL."), "{markdown}");
    assert!(
        markdown.contains("check broken: the expected SQL failed"),
        "{markdown}"
    );

    let json: serde_json::Value = serde_json::from_str(&report::json(&report)).unwrap();
    assert_eq!(json["format"], JSON_FORMAT);
    assert_eq!(
        json["summary"],
        "0 of 2 correct, 360 tokens, 1 check broken"
    );
    assert_eq!(json["model"], "scripted-model");
    assert_eq!(json["passed"], 0);
    assert_eq!(json["total"], 2);
    assert_eq!(json["results"][0]["outcome"], "fail");
    assert_eq!(json["results"][0]["expected_sql"], MARCH);
    assert_eq!(json["results"][0]["model_sql"], MARCH_WRONG);
    assert!(json["results"][0]["why"]
        .as_str()
        .unwrap()
        .contains("expected"));
    assert_eq!(json["results"][1]["outcome"], "no_sql");
    assert_eq!(json["results"][2]["outcome"], "expected_failed");
    assert_eq!(json["results"][0]["usage"]["input_tokens"], 100);
    // The JSON reads back into the same report.
    let back: Report = serde_json::from_value(json).unwrap();
    assert_eq!(back, report);
}

#[test]
fn a_model_that_fails_gets_no_answer_and_the_reason() {
    let unauthorized = LlmError::Unauthorized {
        status: 401,
        message: "bad key".into(),
    };
    let turns = vec![
        Turn::Fail(unauthorized),
        calls(vec![run_sql("b1", PER_PREFECTURE)]),
        calls(vec![run_sql("b2", PER_PREFECTURE)]),
    ];
    let config = AgentConfig {
        max_steps: 2,
        ..config()
    };
    let (report, _, _) = evaluate(turns, config);
    let why = |i: usize| report.results[i].outcome.why().unwrap();
    assert_eq!(report.results[0].outcome.label(), "no answer");
    assert!(why(0).contains("the API key was refused"), "{}", why(0));
    assert_eq!(report.results[1].outcome.label(), "no answer");
    assert!(why(1).starts_with("no answer after 2 steps"), "{}", why(1));
    assert_eq!(report.results[1].steps, 2);
    assert_eq!(report.results[1].model_sql, None);
    assert_eq!((report.passed, report.total), (0, 2));
}

#[test]
fn the_model_is_never_sent_a_golden_questions_sql() {
    for turns in [right_model(), wrong_model()] {
        let (_, _, requests) = evaluate(turns, config());
        let sent = requests_text(&requests);
        assert!(!requests.is_empty());
        for golden_question in golden_questions() {
            assert!(
                !sent.contains(&golden_question.sql),
                "{} was sent",
                golden_question.sql
            );
        }
    }
}

/// The expected SQL kept in the file carries this alias, which no SQL of the model has.
const GOLDEN_ALIAS: &str = "golden_answer_7f3q";
/// Kept in lower case in an ordinary table; only a query's result has it in upper case.
const MEMO: &str = "memo-marker-5k";

/// A model that tries to read the golden questions by the table's name and through a view
/// over it, reads an ordinary table (the positive control), then answers with `MARCH`.
fn catalogue_reader() -> Vec<Turn> {
    vec![
        calls(vec![run_sql("r1", "SELECT * FROM askdb_checks")]),
        calls(vec![run_sql("r2", "SELECT * FROM v")]),
        calls(vec![run_sql("r3", "SELECT upper(note) FROM memo")]),
        calls(vec![final_answer("a1", "7 orders.", MARCH)]),
    ]
}

/// On the copy the page and `askdb-eval` give the model (the file without its knowledge tables,
/// and so without the views over them), the model cannot read a golden question's SQL: not by
/// the table's name (the agent refuses it) and not through a view, which the name check does not
/// see. Its query results do reach it: an ordinary table's value comes back.
#[test]
fn on_the_models_copy_no_route_reads_the_golden_questions() {
    let file = support::hiding::Scratch::new("eval-golden-view");
    std::fs::copy(support::dataset("shop/shop.db"), &file.0).unwrap();
    let golden = MARCH.replace("count(*)", &format!("count(*) AS {GOLDEN_ALIAS}"));
    let connection = rusqlite::Connection::open(&file.0).unwrap();
    connection
        .execute_batch(&format!(
            "CREATE TABLE askdb_checks (question TEXT, sql TEXT);
             INSERT INTO askdb_checks VALUES ('How many orders in March 2024?', \"{golden}\");
             CREATE VIEW v AS SELECT * FROM askdb_checks;
             CREATE TABLE memo (note TEXT);
             INSERT INTO memo VALUES ('{MEMO}');"
        ))
        .unwrap();
    drop(connection);
    let derived = support::hiding::derive(&file.0, &["askdb_checks"], "eval-golden-view-copy");
    let whole = RusqliteDb::open(&file.0);
    let model_view_copy = RusqliteDb::open(&derived.copy.0);

    let golden = [golden_question("How many orders in March 2024?", &golden)];
    let (report, _, requests) = evaluate_candidate(
        (&model_view_copy, &whole),
        session(&model_view_copy),
        &golden,
        catalogue_reader(),
        config(),
        Stop::Never,
    );
    assert_eq!(report.results[0].outcome, Outcome::Pass);
    assert_eq!(requests.len(), 4, "the model's four steps");
    // The positive control: what the model's query read reached its next request.
    let read = MEMO.to_uppercase();
    assert!(!requests_text(&requests[..3]).contains(&read));
    assert!(requests_text(&requests[3..]).contains(&read));
    let sent = requests_text(&requests);
    assert!(!sent.contains(GOLDEN_ALIAS), "{sent}");
}

#[test]
fn stop_ends_the_run_after_the_question_in_progress_is_dropped() {
    let (report, seen, requests) = evaluate_shop(right_model(), config(), Stop::AfterFirstResult);
    assert_eq!(seen.len(), 1);
    assert_eq!(report.results.len(), 1);
    assert!(report.stopped);
    assert_eq!(requests.len(), 2, "the second question was never asked");
    assert_eq!(report.summary(), "1 of 1 correct, 240 tokens, stopped");
}

#[test]
fn a_stop_before_the_start_asks_nothing() {
    let (report, seen, requests) = evaluate_shop(right_model(), config(), Stop::AtStart);
    assert!(report.stopped);
    assert!(report.results.is_empty() && seen.is_empty());
    assert!(requests.is_empty());
}

/// An also-accepted reading passes when the main one does not match.
#[test]
fn an_also_accepted_sql_counts_as_right() {
    let db = RusqliteDb::shop();
    let lenient = GoldenQuestion {
        also_accepted: vec![MARCH_WRONG.replace("count(*)", "count(id)")],
        ..golden_question("How many orders since March 2024?", MARCH)
    };
    let turns = vec![calls(vec![final_answer("a1", "All of them.", MARCH_WRONG)])];
    let (report, _, _) = evaluate_on(&db, session(&db), &[lenient], turns, config(), Stop::Never);
    assert_eq!(report.results[0].outcome, Outcome::Pass);
}

/// On a file that keeps its golden questions in `askdb_checks`, the model is not shown that
/// table, and an answer that reads it does not pass (the agent refuses it; were it let through,
/// the runner would fail it: `eval::run`'s unit tests).
#[test]
fn the_golden_questions_table_is_neither_shown_nor_accepted_as_evidence() {
    let copy = support::hiding::Scratch::new("eval-checks-table");
    std::fs::copy(support::dataset("shop/shop.db"), &copy.0).unwrap();
    let connection = rusqlite::Connection::open(&copy.0).unwrap();
    connection
        .execute_batch(&format!(
            "CREATE TABLE askdb_checks (question TEXT, sql TEXT);
             INSERT INTO askdb_checks VALUES ('How many orders in March 2024?', \"{MARCH}\");"
        ))
        .unwrap();
    drop(connection);
    let db = RusqliteDb::open(&copy.0);
    let cheat = "SELECT count(*) FROM (SELECT sql FROM askdb_checks) JOIN orders ON 0";
    let turns = vec![
        calls(vec![final_answer("a1", "Copied.", cheat)]),
        calls(vec![final_answer("a2", "Copied again.", cheat)]),
    ];
    let golden = [golden_question("How many orders in March 2024?", MARCH)];
    let (report, _, requests) =
        evaluate_on(&db, session(&db), &golden, turns, config(), Stop::Never);
    assert_ne!(report.results[0].outcome, Outcome::Pass);
    assert_eq!(report.passed, 0);
    let first = requests_text(&requests[..1]);
    assert!(!first.contains("askdb_checks"), "{first}");
}
