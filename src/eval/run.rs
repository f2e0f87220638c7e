//! Asking the golden questions: each one in a fresh session, by the same agent as the chat, then
//! the model's evidence SQL judged against the expected SQL by their results.
//!
//! The model never sees a golden question's SQL: the session's knowledge goes to it without the
//! golden questions, and without any worked example that has one's question or SQL; the knowledge
//! tables are not in the schema it is shown (`Session::new`), and evidence that reads them
//! fails.

use super::selection::SelectionRecall;
use crate::agent::candidates::{Agreement, CandidateAgents, Candidates};
use crate::agent::{
    Agent, AgentConfig, AgentError, AgentEvent, Answer, EventKind, Failure, Session,
};
use crate::clock::Clock;
use crate::compare::{same_result, Difference, Verdict};
use crate::engine::{self, Database, DbError, QueryLimits, QueryResult};
use crate::knowledge::{is_knowledge_table, GoldenQuestion, Knowledge};
use crate::llm::{LlmProvider, Usage};
use crate::sql::analysis::Query;
use futures::future::{Either, FusedFuture, FutureExt};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::future::Future;
use std::pin::{pin, Pin};

/// Rows kept of each compared result. A golden question whose expected SQL returns more is
/// too large to judge and is reported as a broken golden question.
pub const COMPARED_ROWS: usize = 10_000;

/// What the golden questions are asked of: the chat's database, model, clock and settings.
pub struct Candidate<'a, D: ?Sized, L: ?Sized> {
    /// The database the model queries (in the page, the copy without what the person hid).
    pub db: &'a D,
    /// The database the expected SQL runs on: the whole one (natively, the same as `db`). A
    /// golden question about something hidden from the model is then the model's failure, not
    /// a broken golden question.
    pub reference: &'a D,
    pub llm: &'a L,
    pub clock: &'a dyn Clock,
    pub config: AgentConfig,
}

/// How one golden question ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The model's evidence returns the expected result (or an accepted alternative's).
    Pass,
    /// It returns something else, or does not run.
    Fail { why: Why },
    /// The agent ended without an answer: a step or time limit, the model could not be called.
    NoAnswer { why: Why },
    /// The model answered in words with no SQL to check.
    NoSql,
    /// The expected SQL itself did not run: the golden question is broken, not the model. Not
    /// counted.
    ExpectedFailed { why: Why },
}

/// Why a golden question did not pass, kept in its parts: [`fmt::Display`] says it in English,
/// as the reports and `askdb-eval` do, and the page says it in its reader's language
/// (`eval::said`). A report's JSON holds the English, which reads back as [`Why::Said`].
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "String", from = "String")]
pub enum Why {
    /// The model's evidence returns another result than the golden question's SQL.
    Differs(Difference),
    /// The model's SQL reads this knowledge table, where the golden questions are kept.
    ReadsKnowledge(String),
    /// The model's SQL failed on the database.
    ModelSqlFailed(DbError),
    /// The model's SQL did not run.
    ModelSqlDidNotRun,
    /// The agent ended without an answer.
    NoAnswer(AgentError),
    /// The expected SQL returns more than [`COMPARED_ROWS`] rows.
    TooManyToCompare,
    /// The expected SQL failed on the database.
    ExpectedSqlFailed(DbError),
    /// In words only: read back from a report, or given by a test.
    Said(String),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Differs(difference) => difference.fmt(f),
            Why::ReadsKnowledge(table) => write!(
                f,
                "the model's SQL reads {table}, where the golden questions are kept"
            ),
            Why::ModelSqlFailed(error) => write!(f, "the model's SQL failed: {error}"),
            Why::ModelSqlDidNotRun => f.write_str("the model's SQL did not run"),
            Why::NoAnswer(error) => error.fmt(f),
            Why::TooManyToCompare => write!(
                f,
                "it returns more than {COMPARED_ROWS} rows: too many to compare"
            ),
            Why::ExpectedSqlFailed(error) => error.fmt(f),
            Why::Said(words) => f.write_str(words),
        }
    }
}

/// The same reason is the same words (a report read back says what it was written with).
impl PartialEq for Why {
    fn eq(&self, other: &Why) -> bool {
        self.to_string() == other.to_string()
    }
}

impl From<Why> for String {
    fn from(why: Why) -> String {
        why.to_string()
    }
}

impl From<String> for Why {
    fn from(words: String) -> Why {
        Why::Said(words)
    }
}

impl Outcome {
    /// Whether the question counts in the total (a broken golden question does not).
    pub fn counts(&self) -> bool {
        !matches!(self, Outcome::ExpectedFailed { .. })
    }

    /// "pass", "fail", "no answer", "no SQL", "check broken".
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail { .. } => "fail",
            Outcome::NoAnswer { .. } => "no answer",
            Outcome::NoSql => "no SQL",
            Outcome::ExpectedFailed { .. } => "check broken",
        }
    }

    /// Why it did not pass, for a person.
    pub fn why(&self) -> Option<String> {
        match self {
            Outcome::Pass => None,
            Outcome::Fail { why } | Outcome::NoAnswer { why } => Some(why.to_string()),
            Outcome::NoSql => Some("answered without SQL to check".into()),
            Outcome::ExpectedFailed { why } => Some(format!("the expected SQL failed: {why}")),
        }
    }
}

/// One golden question, asked and judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoldenResult {
    pub question: String,
    pub expected_sql: String,
    /// The model's evidence SQL, with any bound values written in (safe mode).
    pub model_sql: Option<String>,
    /// The model's answer in words.
    pub answer: Option<String>,
    #[serde(flatten)]
    pub outcome: Outcome,
    pub usage: Usage,
    pub steps: u32,
    /// The whole question: the expected SQL, the agent and the comparison.
    pub elapsed_ms: f64,
    /// Asked of several candidates (`--candidates N`): how they agreed, and which were right.
    /// The question's own outcome is then the first candidate's (asked as a single answer is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<CandidatesJudged>,
    /// How much of what the expected SQL reads the model's first request showed with its
    /// columns (the first candidate's, with several), and that request's bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<SelectionRecall>,
}

/// The candidates of one golden question, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidatesJudged {
    /// Their results grouped as the page groups them.
    pub agreement: Agreement,
    /// Per candidate (in order): whether its evidence gave the expected result.
    pub right: Vec<bool>,
}

impl CandidatesJudged {
    /// Whether the agreed answer is right: the result more candidates gave than any other
    /// (none on a tie, or when none gave a result, which is not right).
    pub fn agreed_right(&self) -> bool {
        self.agreement
            .most_given()
            .is_some_and(|group| self.right.get(group[0]).copied().unwrap_or(false))
    }
}

/// Every golden question asked, with the totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The model's name, as the settings give it.
    pub model: String,
    pub results: Vec<GoldenResult>,
    pub passed: usize,
    /// The questions that count: every one asked but the broken golden questions.
    pub total: usize,
    pub usage: Usage,
    pub elapsed_ms: f64,
    /// True when the run was stopped before every question was asked.
    pub stopped: bool,
}

impl Report {
    /// Adds a question's result to the totals.
    pub fn add(&mut self, result: GoldenResult) {
        if result.outcome.counts() {
            self.total += 1;
        }
        if result.outcome == Outcome::Pass {
            self.passed += 1;
        }
        self.usage += result.usage;
        self.results.push(result);
    }

    /// Broken golden questions: asked of nobody, counted nowhere.
    pub fn broken(&self) -> usize {
        self.results.len() - self.total
    }

    /// "9 of 10 correct, 41k tokens" (with "1 check broken", "stopped" when so).
    pub fn summary(&self) -> String {
        let tokens = self.usage.input_tokens + self.usage.output_tokens;
        let mut parts = vec![
            format!("{} of {} correct", self.passed, self.total),
            format!("{} tokens", compact(tokens)),
        ];
        match self.broken() {
            0 => {}
            1 => parts.push("1 check broken".into()),
            n => parts.push(format!("{n} checks broken")),
        }
        if self.stopped {
            parts.push("stopped".into());
        }
        parts.join(", ")
    }
}

/// 950 → "950", 4_120 → "4.1k", 41_200 → "41k", 1_234_567 → "1.2M".
pub fn compact(n: u64) -> String {
    let scaled = |value: f64, unit: &str| {
        if value < 10.0 {
            format!("{:.1}{unit}", (value * 10.0).floor() / 10.0)
        } else {
            format!("{}{unit}", value.floor())
        }
    };
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => scaled(n as f64 / 1e3, "k"),
        _ => scaled(n as f64 / 1e6, "M"),
    }
}

/// Asks each of `golden_questions` in a fresh copy of `session` (its schema and knowledge, no
/// earlier conversation), reporting each result as it comes. Stops when `cancel` completes: the
/// question in progress is dropped, and the report says it was stopped.
pub async fn run_golden<D, L>(
    candidate: &Candidate<'_, D, L>,
    session: &Session,
    golden_questions: &[GoldenQuestion],
    on_result: &mut dyn FnMut(&GoldenResult),
    cancel: impl Future<Output = ()>,
) -> Report
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
{
    let started = candidate.clock.now_ms();
    let mut cancel = pin!(cancel.fuse());
    let mut report = Report {
        model: candidate.config.model.clone(),
        ..Report::default()
    };
    for golden in golden_questions {
        let result = if cancel.is_terminated() {
            None
        } else {
            ask_one(candidate, session, golden, cancel.as_mut()).await
        };
        let Some(result) = result else {
            report.stopped = true;
            break;
        };
        on_result(&result);
        report.add(result);
    }
    report.elapsed_ms = candidate.clock.now_ms() - started;
    report
}

/// One golden question; `None` when it was cancelled.
async fn ask_one<D, L, C>(
    candidate: &Candidate<'_, D, L>,
    template: &Session,
    golden: &GoldenQuestion,
    mut cancel: Pin<&mut C>,
) -> Option<GoldenResult>
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
    C: Future<Output = ()> + ?Sized,
{
    let started = candidate.clock.now_ms();
    let limits = QueryLimits {
        max_rows: COMPARED_ROWS,
        deadline_ms: candidate.config.query_deadline_ms,
    };
    let mut result = GoldenResult {
        question: golden.question.clone(),
        expected_sql: golden.sql.clone(),
        model_sql: None,
        answer: None,
        outcome: Outcome::Pass,
        usage: Usage::default(),
        steps: 0,
        elapsed_ms: 0.0,
        candidates: None,
        selection: None,
    };
    let finish = |mut result: GoldenResult, outcome| {
        result.outcome = outcome;
        result.elapsed_ms = candidate.clock.now_ms() - started;
        Some(result)
    };

    // The expected results first: a broken golden question costs no tokens.
    let expected =
        match expected_results(candidate.reference, golden, &limits, cancel.as_mut()).await? {
            Ok(expected) => expected,
            Err(why) => return finish(result, Outcome::ExpectedFailed { why }),
        };

    // A new session leaves the knowledge tables out of the schema the model is shown.
    let mut session = Session::with_knowledge(
        template.schema().clone(),
        shown_to_model(template.knowledge(), golden),
    );
    if let Some(values) = template.values() {
        session.set_values(values);
    }
    let outcome = if candidate.config.candidates > 1 {
        judge_candidates(
            candidate,
            &session,
            golden,
            &expected,
            &limits,
            cancel,
            &mut result,
        )
        .await?
    } else {
        judge_answer(
            candidate,
            &mut session,
            golden,
            &expected,
            &limits,
            cancel,
            &mut result,
        )
        .await?
    };
    finish(result, outcome)
}

/// Asks `golden` of the model once in `session` and judges its evidence against `expected`,
/// filling in what it cost, said and read; `None` when cancelled.
async fn judge_answer<D, L, C>(
    candidate: &Candidate<'_, D, L>,
    session: &mut Session,
    golden: &GoldenQuestion,
    expected: &[Expected],
    limits: &QueryLimits,
    mut cancel: Pin<&mut C>,
    result: &mut GoldenResult,
) -> Option<Outcome>
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
    C: Future<Output = ()> + ?Sized,
{
    let agent = Agent::new(
        candidate.db,
        candidate.llm,
        candidate.clock,
        candidate.config.clone(),
    );
    let mut first_schema = None;
    let mut note_schema = |event: AgentEvent| {
        if let EventKind::Schema(sent) = event.kind {
            first_schema.get_or_insert(sent);
        }
    };
    let asked = agent
        .ask(session, &golden.question, &mut note_schema, cancel.as_mut())
        .await;
    result.selection = first_schema
        .as_ref()
        .map(|sent| SelectionRecall::of(&golden.sql, session.schema(), sent));
    let answer = match asked {
        Ok(answer) => answer,
        Err(Failure {
            error: AgentError::Cancelled,
            ..
        }) => return None,
        Err(failure) => {
            result.usage = failure.usage;
            result.steps = failure.steps;
            return Some(outcome_of(expected, &Err(failure), None));
        }
    };
    result.usage = answer.usage;
    result.steps = answer.steps;
    result.answer = Some(answer.text.clone());
    let ran = match answer.sql.as_deref() {
        Some(sql) if reads_knowledge(sql).is_none() => {
            let run = evidence(candidate.db, &answer, sql, limits);
            Some(until_cancelled(run, cancel).await?)
        }
        _ => None,
    };
    result.model_sql = answer
        .sql
        .as_deref()
        .map(|sql| engine::with_values_written_in(sql, &answer.values));
    Some(outcome_of(expected, &Ok(answer), ran))
}

/// Asks `golden` of the configured number of candidates and judges each one's evidence; the
/// question's outcome is the first candidate's. `None` when cancelled.
async fn judge_candidates<D, L, C>(
    candidate: &Candidate<'_, D, L>,
    session: &Session,
    golden: &GoldenQuestion,
    expected: &[Expected],
    limits: &QueryLimits,
    cancel: Pin<&mut C>,
    result: &mut GoldenResult,
) -> Option<Outcome>
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
    C: Future<Output = ()> + ?Sized,
{
    let (drawn, recall) = ask_candidates(candidate, session, golden, limits, cancel).await?;
    result.selection = recall;
    let first = &drawn.answers[0];
    result.usage = drawn.usage();
    result.steps = drawn.answers.iter().map(|a| a.steps()).sum();
    result.answer = first.answer().map(|a| a.text.clone());
    result.model_sql = first.evidence_sql();
    let outcomes: Vec<Outcome> = drawn
        .answers
        .iter()
        .map(|answer| outcome_of(expected, &answer.outcome, answer.evidence.clone()))
        .collect();
    result.candidates = Some(CandidatesJudged {
        agreement: drawn.agreement.clone(),
        right: outcomes.iter().map(|o| *o == Outcome::Pass).collect(),
    });
    outcomes.into_iter().next()
}

/// The candidates of one golden question, each in its own copy of `session`, their evidence
/// run under `limits`; `None` when cancelled.
async fn ask_candidates<D, L, C>(
    candidate: &Candidate<'_, D, L>,
    session: &Session,
    golden: &GoldenQuestion,
    limits: &QueryLimits,
    cancel: Pin<&mut C>,
) -> Option<(Candidates, Option<SelectionRecall>)>
where
    D: Database + ?Sized,
    L: LlmProvider + ?Sized,
    C: Future<Output = ()> + ?Sized,
{
    let agents = CandidateAgents {
        db: candidate.db,
        llms: vec![candidate.llm; candidate.config.candidates],
        clock: candidate.clock,
        config: candidate.config.clone(),
        evidence_limits: *limits,
    };
    let mut first_schema = None;
    let mut note_schema = |index: usize, event: AgentEvent| {
        if let (0, EventKind::Schema(sent)) = (index, event.kind) {
            first_schema.get_or_insert(sent);
        }
    };
    let drawn = agents
        .ask(session, &golden.question, &mut note_schema, cancel)
        .await;
    let recall = first_schema
        .as_ref()
        .map(|sent| SelectionRecall::of(&golden.sql, session.schema(), sent));
    (!drawn.stopped()).then_some((drawn, recall))
}

/// How an answer (or the failure instead of one) fares against the expected results, given
/// its evidence as it ran (`None`: not run, because it has no SQL or reads the knowledge).
fn outcome_of(
    expected: &[Expected],
    outcome: &Result<Answer, Failure>,
    evidence: Option<Result<QueryResult, engine::DbError>>,
) -> Outcome {
    let answer = match outcome {
        Ok(answer) => answer,
        Err(failure) => {
            return Outcome::NoAnswer {
                why: Why::NoAnswer(failure.error.clone()),
            }
        }
    };
    let Some(sql) = answer.sql.as_deref() else {
        return Outcome::NoSql;
    };
    if let Some(table) = reads_knowledge(sql) {
        return Outcome::Fail {
            why: Why::ReadsKnowledge(table),
        };
    }
    match evidence {
        Some(Ok(actual)) => judge(expected, &actual),
        Some(Err(error)) => Outcome::Fail {
            why: Why::ModelSqlFailed(error),
        },
        None => Outcome::Fail {
            why: Why::ModelSqlDidNotRun,
        },
    }
}

/// A result the model's evidence may match, and whether its rows are in a required order.
struct Expected {
    ordered: bool,
    result: QueryResult,
}

/// The results of the golden question's SQL and of each accepted alternative, or why one did
/// not run; `None` when cancelled.
async fn expected_results<D, C>(
    db: &D,
    golden: &GoldenQuestion,
    limits: &QueryLimits,
    mut cancel: Pin<&mut C>,
) -> Option<Result<Vec<Expected>, Why>>
where
    D: Database + ?Sized,
    C: Future<Output = ()> + ?Sized,
{
    let mut expected = Vec::new();
    for sql in std::iter::once(&golden.sql).chain(&golden.also_accepted) {
        match until_cancelled(engine::query(db, sql, limits), cancel.as_mut()).await? {
            Ok(result) if result.truncated => return Some(Err(Why::TooManyToCompare)),
            Ok(result) => expected.push(Expected {
                ordered: Query::read(sql).has_order_by(),
                result,
            }),
            Err(error) => return Some(Err(Why::ExpectedSqlFailed(error))),
        }
    }
    Some(Ok(expected))
}

/// Pass when `actual` matches any expected result; otherwise fail with how it differs from the
/// golden question's own SQL (the first).
fn judge(expected: &[Expected], actual: &QueryResult) -> Outcome {
    let mut first_difference = None;
    for e in expected {
        match same_result(&e.result, actual, e.ordered) {
            Verdict::Different { difference } => {
                first_difference.get_or_insert(difference);
            }
            Verdict::Same | Verdict::SameInColumnOrder { .. } => return Outcome::Pass,
        }
    }
    match first_difference {
        Some(difference) => Outcome::Fail {
            why: Why::Differs(difference),
        },
        // Nothing expected (never: the golden question's own SQL is always there).
        None => Outcome::Pass,
    }
}

/// Runs the answer's evidence as the chat re-runs it: with its bound values in safe mode.
async fn evidence<D: Database + ?Sized>(
    db: &D,
    answer: &Answer,
    sql: &str,
    limits: &QueryLimits,
) -> Result<QueryResult, engine::DbError> {
    if answer.values.is_empty() {
        engine::query(db, sql, limits).await
    } else {
        engine::query_bound(db, sql, &answer.values, limits).await
    }
}

/// The knowledge the model gets for `golden`: no golden questions, and no worked example that
/// would hand it this question's answer.
fn shown_to_model(knowledge: &Knowledge, golden: &GoldenQuestion) -> Knowledge {
    let same_text = |a: &str, b: &str| {
        a.split_whitespace()
            .map(str::to_lowercase)
            .eq(b.split_whitespace().map(str::to_lowercase))
    };
    let mut shown = knowledge.clone();
    shown.golden_questions.clear();
    shown.examples.retain(|example| {
        !same_text(&example.question, &golden.question)
            && std::iter::once(&golden.sql)
                .chain(&golden.also_accepted)
                .all(|sql| !same_text(&example.sql, sql))
    });
    shown
}

/// The first knowledge table `sql` reads, if any (an answer copied from the golden
/// questions is no answer).
fn reads_knowledge(sql: &str) -> Option<String> {
    Query::read(sql)
        .tables()
        .into_iter()
        .map(|table| table.name)
        .find(|name| is_knowledge_table(name))
}

/// `work`, unless `cancel` completes first (`None`).
async fn until_cancelled<T, C>(work: impl Future<Output = T>, cancel: Pin<&mut C>) -> Option<T>
where
    C: Future<Output = ()> + ?Sized,
{
    match futures::future::select(cancel, pin!(work)).await {
        Either::Left(_) => None,
        Either::Right((value, _)) => Some(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::{Example, Source};

    #[test]
    fn evidence_that_reads_the_knowledge_tables_is_caught() {
        assert_eq!(
            reads_knowledge("SELECT sql FROM main.ASKDB_CHECKS").as_deref(),
            Some("ASKDB_CHECKS")
        );
        assert_eq!(
            reads_knowledge("SELECT 1 FROM orders JOIN (SELECT * FROM askdb_examples)").as_deref(),
            Some("askdb_examples")
        );
        assert_eq!(reads_knowledge("SELECT 'askdb_checks' FROM orders"), None);
    }

    #[test]
    fn token_counts_are_compact() {
        assert_eq!(compact(950), "950");
        assert_eq!(compact(4_190), "4.1k");
        assert_eq!(compact(41_200), "41k");
        assert_eq!(compact(999_999), "999k");
        assert_eq!(compact(1_250_000), "1.2M");
    }

    #[test]
    fn the_model_never_gets_the_golden_questions_or_an_example_that_answers_one() {
        let golden = GoldenQuestion {
            question: "How many orders?".into(),
            sql: "SELECT count(*) FROM orders".into(),
            also_accepted: vec!["SELECT count(id) FROM orders".into()],
            source: Source::Database,
        };
        let example = |question: &str, sql: &str| Example {
            question: question.into(),
            sql: sql.into(),
            source: Source::Database,
        };
        let knowledge = Knowledge {
            examples: vec![
                example("how many  orders?", "SELECT 1"),
                example("Orders per city", "select COUNT(id)\n FROM orders"),
                example("Customers per city", "SELECT city, count(*) FROM customers"),
            ],
            golden_questions: vec![golden.clone()],
            ..Knowledge::default()
        };
        let shown = shown_to_model(&knowledge, &golden);
        assert!(shown.golden_questions.is_empty());
        assert_eq!(shown.examples.len(), 1);
        assert_eq!(shown.examples[0].question, "Customers per city");
    }
}
