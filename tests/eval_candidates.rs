//! Golden questions asked of three candidates each (`askdb-eval --candidates 3`, "Check the
//! model" with Candidates 3), with one scripted model on the shop database: the first
//! candidate's accuracy, the agreed answer's, and the calibration table (per agreement level:
//! questions, right) with exact counts, in the report's Markdown and JSON.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::AgentConfig;
use askdb::eval::calibration::{agreed_passed, calibration, CalibrationRow};
use askdb::eval::report;
use askdb::eval::run::{run_golden, Candidate, Outcome, Report};
use askdb::knowledge::GoldenQuestion;
use support::golden::{golden_question, MARCH, MARCH_WRONG, PER_PREFECTURE};
use support::scripted_llm::{calls, final_answer, session, text, FakeClock, ScriptedLlm, Turn};
use support::RusqliteDb;

const ORDERS: &str = "SELECT count(*) FROM orders";
const CUSTOMERS: &str = "SELECT count(*) FROM customers";
const PRODUCTS: &str = "SELECT count(*) FROM products";

fn golden_questions() -> Vec<GoldenQuestion> {
    vec![
        golden_question("How many orders?", ORDERS),
        golden_question("How many customers?", CUSTOMERS),
        golden_question("How many products?", PRODUCTS),
        golden_question("How many orders in March 2024?", MARCH),
        golden_question("How many customers per prefecture?", PER_PREFECTURE),
    ]
}

fn answer(sql: &str) -> Turn {
    calls(vec![final_answer("f", "The count.", sql)])
}

/// Three candidates per question, one turn each, in order: candidate 1, 2, 3.
fn script() -> Vec<Turn> {
    vec![
        // 3 of 3 agree, right; the first candidate right.
        answer(ORDERS),
        answer(ORDERS),
        answer("SELECT count(id) FROM orders"),
        // 2 of 3 agree, right; the first candidate wrong.
        answer("SELECT count(*) FROM customers WHERE id > 1"),
        answer(CUSTOMERS),
        answer("SELECT count(id) FROM customers"),
        // 2 of 3 agree, wrong; the lone one, the first, right.
        answer(PRODUCTS),
        answer(ORDERS),
        answer("SELECT count(id) FROM orders"),
        // No two agree: no agreed answer, though the first candidate is right.
        answer(MARCH),
        answer(MARCH_WRONG),
        answer("SELECT 0"),
        // None gives a result: words without SQL (the script then runs out: no answer).
        text("Most live in Tokyo."),
        text("Most live in Tokyo."),
        text("Most live in Tokyo."),
    ]
}

fn evaluate(turns: Vec<Turn>, candidates: usize) -> Report {
    let db = RusqliteDb::shop();
    let clock = FakeClock::default();
    let llm = ScriptedLlm::new(turns, &clock);
    let candidate = Candidate {
        db: &db,
        reference: &db,
        llm: &llm,
        clock: &clock,
        config: AgentConfig {
            model: "scripted-model".into(),
            candidates,
            ..AgentConfig::default()
        },
    };
    let report = futures::executor::block_on(run_golden(
        &candidate,
        &session(&db),
        &golden_questions(),
        &mut |_| {},
        std::future::pending(),
    ));
    report
}

fn row(agreeing: usize, questions: usize, right: usize) -> CalibrationRow {
    CalibrationRow {
        agreeing,
        candidates: 3,
        questions,
        right,
    }
}

#[test]
fn the_agreed_answers_accuracy_and_the_calibration_table_count_exactly() {
    let report = evaluate(script(), 3);
    // The question's own outcome is the first candidate's.
    let outcomes: Vec<&str> = report.results.iter().map(|r| r.outcome.label()).collect();
    assert_eq!(outcomes, ["pass", "fail", "pass", "pass", "no SQL"]);
    assert_eq!((report.passed, report.total), (3, 5));
    let right: Vec<Vec<bool>> = report
        .results
        .iter()
        .map(|r| r.candidates.as_ref().unwrap().right.clone())
        .collect();
    assert_eq!(
        right,
        [
            [true, true, true],
            [false, true, true],
            [true, false, false],
            [true, false, false],
            [false, false, false],
        ]
    );
    assert_eq!(agreed_passed(&report.results), Some((2, 5)));
    assert_eq!(
        calibration(&report.results),
        [row(3, 1, 1), row(2, 2, 1), row(1, 1, 0), row(0, 1, 0)]
    );
}

#[test]
fn the_markdown_and_json_reports_carry_the_agreed_accuracy_and_the_table() {
    let report = evaluate(script(), 3);
    let markdown = report::markdown(&report);
    assert!(markdown.contains("**3 of 5 correct"), "{markdown}");
    assert!(
        markdown.contains("The agreed answer (the result more candidates gave than any other): **2 of 5 correct**"),
        "{markdown}"
    );
    for line in [
        "| 3 of 3 agree | 1 | 1 | 100 % |",
        "| 2 of 3 agree | 2 | 1 | 50 % |",
        "| 1 of 3 (no two agree) | 1 | 0 | 0 % |",
        "| none gave a result | 1 | 0 | 0 % |",
    ] {
        assert!(markdown.contains(line), "{line} in:\n{markdown}");
    }
    let json: serde_json::Value = serde_json::from_str(&report::json(&report)).unwrap();
    assert_eq!(json["passed"], 3);
    assert_eq!(json["agreed_passed"], 2);
    assert_eq!(json["agreed_total"], 5);
    let table: Vec<(u64, u64, u64)> = json["calibration"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let n = |k: &str| r[k].as_u64().unwrap();
            (n("agreeing"), n("questions"), n("right"))
        })
        .collect();
    assert_eq!(table, [(3, 1, 1), (2, 2, 1), (1, 1, 0), (0, 1, 0)]);
    assert_eq!(
        json["results"][1]["candidates"]["agreement"]["groups"],
        serde_json::json!([[1, 2], [0]])
    );
}

#[test]
fn without_candidates_the_report_has_no_table() {
    let single: Vec<Turn> = [ORDERS, CUSTOMERS, ORDERS, MARCH, PER_PREFECTURE]
        .into_iter()
        .map(answer)
        .collect();
    let report = evaluate(single, 1);
    assert_eq!((report.passed, report.total), (4, 5));
    assert!(report.results.iter().all(|r| r.candidates.is_none()));
    assert_eq!(agreed_passed(&report.results), None);
    assert!(calibration(&report.results).is_empty());
    assert!(!report::markdown(&report).contains("agreed answer"));
    let json: serde_json::Value = serde_json::from_str(&report::json(&report)).unwrap();
    assert!(json.get("calibration").is_none() && json.get("agreed_passed").is_none());
    assert_eq!(
        report.results[2].outcome,
        Outcome::Fail {
            why: report.results[2].outcome.why().unwrap().into()
        }
    );
}
