//! What "Check the model" says of a golden run, in the page's language: each question's outcome
//! and why, the totals, an agreement level. The reports (`report`) and `askdb-eval` say the same
//! in English ([`Outcome::label`], [`Outcome::why`], [`Report::summary`],
//! [`CalibrationRow::label`]); in English these say it word for word as they do (the tests
//! hold them to it). Numbers the reports write without a thousands separator ("row 1234")
//! are handed in as text, so that no language groups them; only the count of broken checks,
//! which chooses its plural, would be grouped from 1,000 on.

use super::calibration::CalibrationRow;
use super::run::{compact, Outcome, Report, Why, COMPARED_ROWS};
use crate::compare::{Difference, RowDetail};
use crate::engine::RowCount;
use crate::tr;

/// "pass", "fail", "no answer", "no SQL", "check broken".
pub fn label(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Pass => tr!("golden-outcome-pass"),
        Outcome::Fail { .. } => tr!("golden-outcome-fail"),
        Outcome::NoAnswer { .. } => tr!("golden-outcome-no-answer"),
        Outcome::NoSql => tr!("golden-outcome-no-sql"),
        Outcome::ExpectedFailed { .. } => tr!("golden-outcome-broken"),
    }
}

/// Why it did not pass; `None` when it did.
pub fn why(outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::Pass => None,
        Outcome::Fail { why } | Outcome::NoAnswer { why } => Some(reason(why)),
        Outcome::NoSql => Some(tr!("golden-why-no-sql")),
        Outcome::ExpectedFailed { why } => {
            Some(tr!("golden-why-expected-failed", why = reason(why)))
        }
    }
}

/// A database's error (its own words, as the model and the console get them) and the agent's
/// reason for giving no answer are said as they are written.
fn reason(why: &Why) -> String {
    match why {
        Why::Differs(difference) => differs(difference),
        Why::ReadsKnowledge(table) => tr!("golden-why-reads-knowledge", table = table),
        Why::ModelSqlFailed(error) => {
            tr!("golden-why-model-sql-failed", error = error.to_string())
        }
        Why::ModelSqlDidNotRun => tr!("golden-why-model-sql-did-not-run"),
        Why::TooManyToCompare => {
            tr!("golden-why-too-many", most = COMPARED_ROWS.to_string())
        }
        Why::NoAnswer(error) => error.to_string(),
        Why::ExpectedSqlFailed(error) => error.to_string(),
        Why::Said(words) => words.clone(),
    }
}

/// How the model's result differs from the expected one (what `Difference`'s `Display` says).
fn differs(difference: &Difference) -> String {
    match difference {
        Difference::Columns { expected, returned } => tr!(
            "golden-differs-columns",
            expected = *expected,
            returned = *returned
        ),
        Difference::RowCount { expected, returned } => tr!(
            "golden-differs-row-count",
            expected = rows(*expected),
            returned = count(*returned)
        ),
        Difference::Row {
            position,
            differing,
            single_row,
            detail,
        } => {
            let at = match (position, single_row) {
                (_, true) => "single",
                (Some(_), false) => "position",
                (None, false) if *differing == 1 => "one",
                (None, false) => "many",
            };
            tr!(
                "golden-differs-row",
                at = at,
                position = position.unwrap_or_default().to_string(),
                differing = differing.to_string(),
                detail = row_detail(detail)
            )
        }
        Difference::Order { position } => {
            tr!("golden-differs-order", position = position.to_string())
        }
        Difference::TooManyRows { rows } => tr!("golden-differs-too-many", rows = *rows),
    }
}

fn row_detail(detail: &RowDetail) -> String {
    match detail {
        RowDetail::Value {
            column,
            name,
            expected,
            returned,
        } => tr!(
            "golden-differs-value",
            column = tr!("golden-column", number = column + 1),
            name = name,
            expected = expected,
            returned = returned
        ),
        RowDetail::Whole { expected, returned } => tr!(
            "golden-differs-whole",
            expected = expected,
            returned = returned
        ),
    }
}

/// "12 rows", "more than 1,000 rows", "about 2,000 rows".
fn rows(rows: RowCount) -> String {
    let (kind, count) = kind_and_count(rows);
    tr!("golden-rows", kind = kind, count = count)
}

/// "12", "more than 1,000", "about 2,000".
fn count(rows: RowCount) -> String {
    let (kind, count) = kind_and_count(rows);
    tr!("golden-count", kind = kind, count = count)
}

fn kind_and_count(rows: RowCount) -> (&'static str, u64) {
    match rows {
        RowCount::Exact(n) => ("exact", n),
        RowCount::MoreThan(n) => ("more", n),
        RowCount::Estimated(n) => ("about", n),
    }
}

/// "9 of 10 correct, 41k tokens" (with "1 check broken", "stopped" when so).
pub fn summary(report: &Report) -> String {
    tr!(
        "golden-summary",
        passed = report.passed.to_string(),
        total = report.total.to_string(),
        tokens = compact(report.usage.input_tokens + report.usage.output_tokens),
        broken = report.broken(),
        stopped = if report.stopped { "yes" } else { "no" }
    )
}

/// "3 of 3 agree", "1 of 3 (no two agree)", "none gave a result".
pub fn agreement(row: &CalibrationRow) -> String {
    tr!(
        "golden-agreement",
        agreeing = row.agreeing,
        candidates = row.candidates
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::AgentError;
    use crate::engine::DbError;

    /// A golden question whose own SQL did not run: it counts nowhere.
    fn broken_check() -> crate::eval::run::GoldenResult {
        crate::eval::run::GoldenResult {
            question: String::new(),
            expected_sql: String::new(),
            model_sql: None,
            answer: None,
            outcome: Outcome::ExpectedFailed {
                why: Why::TooManyToCompare,
            },
            usage: Default::default(),
            steps: 0,
            elapsed_ms: 0.0,
            candidates: None,
            selection: None,
        }
    }

    fn value(column: usize) -> RowDetail {
        RowDetail::Value {
            column,
            name: "total".into(),
            expected: "12".into(),
            returned: "'12'".into(),
        }
    }

    /// Every way a result differs, as the judge words it.
    fn differences() -> Vec<Difference> {
        let whole = || RowDetail::Whole {
            expected: "(1, 'Tokyo')".into(),
            returned: "(1, 'Osaka')".into(),
        };
        let row = |position, differing, single_row, detail| Difference::Row {
            position,
            differing,
            single_row,
            detail,
        };
        let mut all = vec![
            Difference::Columns {
                expected: 1,
                returned: 2,
            },
            Difference::Columns {
                expected: 3,
                returned: 1_234,
            },
            Difference::Order { position: 7 },
            Difference::TooManyRows { rows: 1 },
            Difference::TooManyRows { rows: 10_000 },
            row(None, 1, true, value(0)),
            row(Some(3), 1, false, value(1)),
            row(None, 1, false, value(9)),
            row(None, 4, false, value(10)),
            row(None, 2, false, whole()),
            row(Some(2), 1, false, whole()),
            row(None, 1, true, whole()),
        ];
        let counts = [
            RowCount::Exact(1),
            RowCount::Exact(1_234),
            RowCount::MoreThan(1_000),
            RowCount::Estimated(1),
        ];
        for expected in counts {
            for returned in counts {
                all.push(Difference::RowCount { expected, returned });
            }
        }
        all
    }

    /// Breaks when a message of the golden run's reasons is worded otherwise in en.ftl than the
    /// reports word it (tried: "rows differ" made "rows are different").
    #[test]
    fn in_english_each_outcome_and_why_is_what_the_report_says() {
        let mut outcomes = vec![Outcome::Pass, Outcome::NoSql];
        outcomes.extend(differences().into_iter().map(|difference| Outcome::Fail {
            why: Why::Differs(difference),
        }));
        for why in [
            Why::ReadsKnowledge("askdb_checks".into()),
            Why::ModelSqlFailed(DbError::Sqlite("no such column: totl".into())),
            Why::ModelSqlDidNotRun,
            Why::Said("first column: 1 expected, 2 returned".into()),
        ] {
            outcomes.push(Outcome::Fail { why });
        }
        outcomes.push(Outcome::NoAnswer {
            why: Why::NoAnswer(AgentError::StepLimit { steps: 2 }),
        });
        for why in [
            Why::TooManyToCompare,
            Why::ExpectedSqlFailed(DbError::Sqlite("no such table: x".into())),
        ] {
            outcomes.push(Outcome::ExpectedFailed { why });
        }
        for outcome in &outcomes {
            assert_eq!(label(outcome), outcome.label(), "{outcome:?}");
            assert_eq!(why(outcome), outcome.why(), "{outcome:?}");
        }
    }

    /// Breaks when the totals or an agreement level are worded otherwise (tried: the `[one]`
    /// variant of checks broken removed, which says "1 checks broken").
    #[test]
    fn in_english_the_totals_and_the_agreement_are_what_the_report_says() {
        for (passed, total, tokens, broken, stopped) in [
            (0, 0, 0, 0, true),
            (1, 1, 950, 0, false),
            (9, 10, 41_200, 1, false),
            (2, 5, 1_250_000, 3, true),
        ] {
            let mut report = Report {
                passed,
                total,
                stopped,
                ..Report::default()
            };
            report.usage.input_tokens = tokens;
            let result = broken_check();
            report.results = vec![result; total + broken];
            assert_eq!(summary(&report), report.summary());
        }
        for agreeing in 0..=3 {
            let row = CalibrationRow {
                agreeing,
                candidates: 3,
                questions: 2,
                right: 1,
            };
            assert_eq!(agreement(&row), row.label());
        }
    }

    /// Breaks when a select of the Japanese catalogue loses its empty variant (tried: the
    /// `[0]` of golden-summary removed, which says "不備のあるチェック 0 件").
    #[test]
    fn in_japanese_the_totals_leave_out_what_did_not_happen() {
        let japanese =
            crate::i18n::catalogue::Catalogue::parse(include_str!("../../www/i18n/ja.ftl"))
                .unwrap();
        crate::i18n::set_language("ja", japanese);
        let report = Report {
            passed: 9,
            total: 10,
            results: vec![broken_check(); 10],
            ..Report::default()
        };
        let said = summary(&report);
        let stopped = summary(&Report {
            stopped: true,
            ..report.clone()
        });
        let differs = why(&Outcome::Fail {
            why: Why::Differs(Difference::RowCount {
                expected: RowCount::Exact(3),
                returned: RowCount::MoreThan(1_000),
            }),
        });
        crate::i18n::set_english();
        assert_eq!(said, "10 問中 9 問正解、0 トークン");
        assert_eq!(stopped, "10 問中 9 問正解、0 トークン、中断");
        assert_eq!(differs.as_deref(), Some("期待 3 行、実際 1,000 行超"));
    }
}
