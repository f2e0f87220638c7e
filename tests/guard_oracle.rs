//! SQLite judges the guard. Every text of a generated corpus (`tests/corpus`) goes through
//! `guard::check`; every text it accepts is prepared and run by SQLite itself, the way sql.js
//! runs it in the page (the first statement only), on a *read-write* scratch copy of the demo
//! database with no `query_only`, so that the guard is the only wall. The test fails when SQLite
//! does anything but read:
//!
//! - an action other than a read, a select, a function call or a recursive CTE (and, behind
//!   the pragma functions that read the schema, their own `PRAGMA <name>`), seen by an
//!   authorizer;
//! - `sqlite3_stmt_readonly` false;
//! - text left after the first statement (SQLite ended it earlier than the guard did);
//! - a function that acts outside the query reaching SQLite, or a pragma function that does
//!   more than read the schema. The judge has its own lists of these ([`judge_lists`]), written
//!   from SQLite's documentation and never taken from the guard, so that a name dropped from
//!   the guard's lists makes this test fail instead of moving the judge along with it. The
//!   functions this SQLite lacks (the shell's `readfile`, …) are registered on the scratch
//!   connection as stubs that do nothing, so that a text calling one prepares and is seen;
//! - any change to the scratch database (rows changed, or the file's bytes);
//! - a parameter in a text `guard::check` accepted, or, for a text `guard::check_bound`
//!   accepted with n values, anything but exactly n parameters (`sqlite3_bind_parameter_count`);
//! - a panic in the guard or in `tidy`.
//!
//! Each accepted statement runs for up to [`MAX_VM_STEPS`] of SQLite's VM steps, counted afresh
//! for each statement, and the test counts how many returned rows and how many ran through
//! (to their end or to [`MAX_ROWS`] rows): a statement cut off early shows nothing of what it
//! would have done, so a corpus that mostly gets cut off proves little, and fails.
//!
//! CI runs the default corpus (about a minute in all). A longer run, with another seed:
//!
//! ```text
//! ASKDB_ORACLE_CASES=2000000 ASKDB_ORACLE_SEED=7 cargo test --release --test guard_oracle -- --nocapture
//! ```
//!
//! Every text it ever found goes into `tests/fixtures/guard_regressions.jsonl`, which runs
//! first, every time. A failing run writes its findings, one a line in that file's format, to
//! `target/guard_oracle_findings.jsonl`.
#![cfg(not(target_arch = "wasm32"))]

mod corpus;
mod judge;

use askdb::sql::guard;
use askdb::sql::tidy::tidy;
use corpus::{Corpus, Source};
use judge::Findings;
use rusqlite::ffi;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::Connection;
use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

const DEFAULT_CASES: usize = 300_000;
/// Rows stepped per statement, and SQLite VM steps (for each statement) before it is
/// interrupted.
const MAX_ROWS: usize = 50;
const MAX_VM_STEPS: u32 = 200_000;
/// How often (in VM steps) the progress handler is called.
const STEPS_PER_CALL: u32 = 1_000;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name}={v} is not a number"))
        })
        .unwrap_or(default)
}

/// A scratch copy of the demo database, opened read-write, with an authorizer that records
/// every action SQLite asks about, and a step counter that cuts off runaway statements.
struct Scratch {
    connection: Connection,
    path: PathBuf,
    original: Vec<u8>,
    findings: Findings,
    /// Calls of the progress handler since the statement being run was prepared.
    progress_calls: Arc<AtomicU32>,
}

impl Scratch {
    fn new(dir: &Path) -> Scratch {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/demo/shop.db");
        let original = std::fs::read(&source).expect("the demo database");
        let path = dir.join("scratch.db");
        std::fs::write(&path, &original).expect("a scratch copy");
        let connection = Connection::open(&path).expect("open the scratch copy read-write");
        let findings: Findings = Arc::new(Mutex::new(Vec::new()));
        judge::register_stubs(&connection, &findings);
        let seen = findings.clone();
        connection.authorizer(Some(move |context: AuthContext<'_>| {
            let verdict = judge(&context.action);
            if let Err(what) = verdict {
                seen.lock().unwrap().push(what);
            }
            // ATTACH could create a file; everything else is allowed, so that a write the
            // authorizer did not see still shows as a change in the file.
            match context.action {
                AuthAction::Attach { .. } => Authorization::Deny,
                _ => Authorization::Allow,
            }
        }));
        // Stop runaway statements (recursive CTEs, cross joins) after a fixed amount of work:
        // each statement's own, so the counter starts again at every `run`.
        let progress_calls = Arc::new(AtomicU32::new(0));
        let calls = progress_calls.clone();
        connection.progress_handler(
            STEPS_PER_CALL as c_int,
            Some(move || calls.fetch_add(1, Ordering::Relaxed) + 1 > MAX_VM_STEPS / STEPS_PER_CALL),
        );
        Scratch {
            connection,
            path,
            original,
            findings,
            progress_calls,
        }
    }

    /// Prepares and runs `sql` as sql.js does (its parameters unbound, so NULL); `Err` says
    /// what SQLite did beyond reading, or that it has another number of parameters than
    /// `parameters`.
    fn run(&mut self, sql: &str, parameters: usize) -> Result<Outcome, String> {
        self.findings.lock().unwrap().clear();
        self.progress_calls.store(0, Ordering::Relaxed);
        let before = self.connection.total_changes();
        let outcome = unsafe { prepare_and_step(self.connection.handle(), sql) };
        let mut problems: Vec<String> = std::mem::take(&mut *self.findings.lock().unwrap());
        match &outcome {
            Outcome::Prepared {
                tail,
                read_only,
                parameters: found,
                ..
            } => {
                if *found != parameters {
                    problems.push(format!(
                        "SQLite reads {found} parameters where the guard allowed {parameters}"
                    ));
                }
                if !tail.is_empty() {
                    problems.push(format!(
                        "SQLite left text after the first statement: {tail:?}"
                    ));
                }
                if !read_only {
                    problems.push("sqlite3_stmt_readonly says it writes".into());
                }
            }
            Outcome::Refused => {}
        }
        if self.connection.total_changes() != before {
            problems.push("rows changed".into());
        }
        let now = std::fs::read(&self.path).expect("the scratch file");
        if now != self.original {
            problems.push("the database file changed".into());
            std::fs::write(&self.path, &self.original).expect("restore the scratch copy");
        }
        if problems.is_empty() {
            Ok(outcome)
        } else {
            Err(problems.join("; "))
        }
    }
}

enum Outcome {
    /// SQLite refused to prepare it: nothing ran.
    Refused,
    /// It prepared; `tail` is what SQLite left after the first statement.
    Prepared {
        tail: String,
        read_only: bool,
        /// `sqlite3_bind_parameter_count`: the largest parameter number.
        parameters: usize,
        /// Rows stepped (at most [`MAX_ROWS`]).
        rows: usize,
        ending: Ending,
    },
}

/// How stepping a prepared statement ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// `SQLITE_DONE`: it ran to its end.
    Done,
    /// [`MAX_ROWS`] rows were stepped; it was left there.
    RowCap,
    /// Cut off by the progress handler after [`MAX_VM_STEPS`].
    Interrupted,
    /// Another error while running (`load_extension` not enabled, an integer overflow, …).
    Failed,
}

/// `Err` naming the action unless it is a plain read, by the judge's own lists.
fn judge(action: &AuthAction<'_>) -> Result<(), String> {
    match action {
        AuthAction::Read { .. } | AuthAction::Select | AuthAction::Recursive => Ok(()),
        AuthAction::Function { function_name } => {
            match judge::function_outside_the_query(function_name) {
                Some(what) => Err(format!(
                    "the function {function_name}() reached SQLite ({what})"
                )),
                None => Ok(()),
            }
        }
        // A pragma function runs its PRAGMA inside SQLite, through the authorizer.
        AuthAction::Pragma { pragma_name, .. } if judge::pragma_reads_the_schema(pragma_name) => {
            Ok(())
        }
        other => Err(format!("SQLite was asked to allow {other:?}")),
    }
}

/// Prepares `sql` with `sqlite3_prepare_v2` (as sql.js does: the first statement, the rest
/// left as the tail), then steps up to [`MAX_ROWS`] rows.
///
/// # Safety
/// `db` is an open connection's handle.
unsafe fn prepare_and_step(db: *mut ffi::sqlite3, sql: &str) -> Outcome {
    let mut statement: *mut ffi::sqlite3_stmt = std::ptr::null_mut();
    let mut tail: *const std::ffi::c_char = std::ptr::null();
    let rc = ffi::sqlite3_prepare_v2(
        db,
        sql.as_ptr().cast(),
        sql.len() as c_int,
        &mut statement,
        &mut tail,
    );
    if rc != ffi::SQLITE_OK || statement.is_null() {
        ffi::sqlite3_finalize(statement);
        return Outcome::Refused;
    }
    let consumed = (tail as usize).saturating_sub(sql.as_ptr() as usize);
    let tail = String::from_utf8_lossy(&sql.as_bytes()[consumed.min(sql.len())..]).into_owned();
    let read_only = ffi::sqlite3_stmt_readonly(statement) != 0;
    let parameters = ffi::sqlite3_bind_parameter_count(statement).max(0) as usize;
    let mut rows = 0;
    let ending = loop {
        if rows == MAX_ROWS {
            break Ending::RowCap;
        }
        match ffi::sqlite3_step(statement) {
            ffi::SQLITE_ROW => rows += 1,
            ffi::SQLITE_DONE => break Ending::Done,
            ffi::SQLITE_INTERRUPT => break Ending::Interrupted,
            _ => break Ending::Failed,
        }
    };
    ffi::sqlite3_finalize(statement);
    Outcome::Prepared {
        tail,
        read_only,
        parameters,
        rows,
        ending,
    }
}

/// The value counts worth trying `guard::check_bound` with on `text`: 1, and the largest
/// number written after a `?` (so that texts with `?1` … `?n` can be accepted).
fn bound_counts(text: &str) -> Vec<usize> {
    if !text.contains('?') {
        return Vec::new();
    }
    let largest = text
        .split('?')
        .skip(1)
        .filter_map(|after| {
            let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<usize>().ok()
        })
        .filter(|&n| n <= guard::MAX_BOUND_VALUES)
        .max();
    let mut counts = vec![1];
    counts.extend(largest.filter(|&n| n > 1));
    counts
}

#[derive(Default)]
struct Tally {
    texts: usize,
    accepted: usize,
    /// Accepted by `check_bound` (with parameters).
    bound: usize,
    prepared: usize,
    /// Prepared, and gave at least one row.
    returned_rows: usize,
    /// Prepared, and ran to its end or to [`MAX_ROWS`] rows.
    ran_through: usize,
    /// Prepared, and cut off after [`MAX_VM_STEPS`].
    interrupted: usize,
    findings: Vec<(String, String)>,
}

impl Tally {
    /// Runs one text through the guard (and tidy) and, when it is accepted, through SQLite.
    fn judge(&mut self, scratch: &mut Scratch, text: &str) {
        self.texts += 1;
        let checked = catch_unwind(|| (tidy(text), guard::check(text)));
        let (tidied, verdict) = match checked {
            Ok(both) => both,
            Err(_) => {
                self.findings
                    .push((text.to_string(), "the guard or tidy panicked".into()));
                return;
            }
        };
        let mut accepted = Vec::new();
        if let Ok(sql) = verdict {
            accepted.push(sql);
        }
        if tidied != text {
            match catch_unwind(AssertUnwindSafe(|| guard::check(&tidied))) {
                Ok(Ok(sql)) => accepted.push(sql),
                Ok(Err(_)) => {}
                Err(_) => {
                    self.findings.push((tidied, "the guard panicked".into()));
                    return;
                }
            }
        }
        // The path for compiled statements: numbered parameters and nothing else.
        for values in bound_counts(text) {
            match catch_unwind(|| guard::check_bound(text, values)) {
                Ok(Ok(sql)) => {
                    self.bound += usize::from(values > 0);
                    accepted.push(sql)
                }
                Ok(Err(_)) => {}
                Err(_) => {
                    let problem = "the guard's bound path panicked".into();
                    self.findings.push((text.to_string(), problem));
                    return;
                }
            }
        }
        for sql in accepted {
            self.accepted += 1;
            match scratch.run(sql.as_str(), sql.parameters()) {
                Ok(Outcome::Prepared { rows, ending, .. }) => {
                    self.prepared += 1;
                    self.returned_rows += usize::from(rows > 0);
                    self.ran_through +=
                        usize::from(matches!(ending, Ending::Done | Ending::RowCap));
                    self.interrupted += usize::from(ending == Ending::Interrupted);
                }
                Ok(Outcome::Refused) => {}
                Err(problem) => self.findings.push((sql.as_str().to_string(), problem)),
            }
        }
    }

    fn report(&self, what: &str) {
        eprintln!(
            "{what}: {} texts, {} accepted by the guard ({} with bound parameters); of those, \
             SQLite prepared {}, {} returned rows, {} ran through, {} were cut off; {} findings",
            self.texts,
            self.accepted,
            self.bound,
            self.prepared,
            self.returned_rows,
            self.ran_through,
            self.interrupted,
            self.findings.len()
        );
    }

    fn fail_on_findings(&self) {
        if self.findings.is_empty() {
            return;
        }
        let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/guard_oracle_findings.jsonl");
        let lines: Vec<String> = self
            .findings
            .iter()
            .map(|(t, _)| corpus::to_line(t))
            .collect();
        let _ = std::fs::create_dir_all(out.parent().unwrap());
        let _ = std::fs::write(&out, lines.join("\n") + "\n");
        let shown: Vec<String> = self
            .findings
            .iter()
            .take(20)
            .map(|(text, problem)| format!("  {}\n    {problem}", corpus::to_line(text)))
            .collect();
        panic!(
            "the guard accepted {} texts that SQLite reads as more than one read (all written to {}):\n{}",
            self.findings.len(),
            out.display(),
            shown.join("\n")
        );
    }
}

/// A folder of its own for each test (they run in parallel, each with its scratch file),
/// removed when dropped, however the test ends.
struct ScratchDir(PathBuf);

impl std::ops::Deref for ScratchDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch_dir(test: &str) -> ScratchDir {
    let dir = std::env::temp_dir().join(format!("askdb-oracle-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    ScratchDir(dir)
}

/// Real queries to mutate, beside the corpus's own: Spider's Chinook gold queries.
fn gold_seeds() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/datasets/chinook/questions_spider_chinook_1.json");
    let items: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).expect("chinook questions"))
            .expect("a JSON list");
    items
        .iter()
        .filter_map(|i| i["gold_sql"].as_str().map(String::from))
        .collect()
}

#[test]
fn every_regression_case_is_refused_or_is_exactly_what_sqlite_runs() {
    let dir = scratch_dir("regressions");
    let mut scratch = Scratch::new(&dir);
    let mut tally = Tally::default();
    let cases = corpus::from_lines(include_str!("fixtures/guard_regressions.jsonl"));
    assert!(cases.len() >= 10, "the regression file lost its cases");
    for text in &cases {
        tally.judge(&mut scratch, text);
    }
    tally.report("regressions");
    tally.fail_on_findings();
}

#[test]
fn sqlite_agrees_with_the_guard_on_a_generated_corpus() {
    let cases = env_number("ASKDB_ORACLE_CASES", DEFAULT_CASES as u64) as usize;
    let seed = env_number("ASKDB_ORACLE_SEED", corpus::DEFAULT_SEED);
    let dir = scratch_dir("corpus");
    let mut scratch = Scratch::new(&dir);
    let mut tally = Tally::default();
    let mut corpus = Corpus::new(seed, &gold_seeds());
    let mut by_source = [0usize; 3];
    for _ in 0..cases {
        let (source, text) = corpus.next_text();
        let accepted_before = tally.accepted;
        tally.judge(&mut scratch, &text);
        if tally.accepted > accepted_before {
            by_source[source as usize] += 1;
        }
    }
    tally.report(&format!("corpus (seed {seed})"));
    eprintln!(
        "accepted by source: tricks {}, mutations {}, grammar {}",
        by_source[Source::Trick as usize],
        by_source[Source::Mutation as usize],
        by_source[Source::Grammar as usize]
    );
    tally.fail_on_findings();
    assert!(
        tally.bound > 0,
        "no text with parameters was accepted by check_bound: its path went untested"
    );
    // The corpus must reach SQLite's execution in numbers, or it proves little: prepared,
    // and run (most give rows; nearly all end or reach the row cap).
    assert!(
        tally.prepared * 10 >= tally.texts,
        "only {} of {} texts were accepted and prepared: the corpus has drifted",
        tally.prepared,
        tally.texts
    );
    assert!(
        tally.returned_rows * 2 >= tally.prepared && tally.ran_through * 10 >= tally.prepared * 9,
        "of {} prepared statements only {} returned rows and {} ran through",
        tally.prepared,
        tally.returned_rows,
        tally.ran_through
    );
    // Each statement has its own step budget, which hardly any needs on the demo database (a
    // counter that went on across statements cut off one in sixty, 1,468 of 87,033).
    assert!(
        tally.interrupted * 1_000 <= tally.prepared,
        "{} of {} prepared statements were cut off after {MAX_VM_STEPS} steps",
        tally.interrupted,
        tally.prepared
    );
}

/// The judge itself, without the guard in front: what acts outside the query, a pragma
/// function that sets something, a write and a second statement are each a finding, and a
/// schema read is not. Every function on the judge's list is called by a trick of the corpus,
/// which the guard must refuse: a name dropped from the guard's list reaches this judge.
#[test]
fn the_judge_sees_what_acts_outside_the_query_or_writes() {
    let dir = scratch_dir("judge");
    let mut scratch = Scratch::new(&dir);
    let finding = |scratch: &mut Scratch, sql: &str| match scratch.run(sql, 0) {
        Err(problem) => problem,
        Ok(_) => panic!("the judge let through {sql}"),
    };
    for (name, _) in judge::FUNCTIONS_OUTSIDE_THE_QUERY {
        let problem = finding(&mut scratch, &format!("SELECT {name}('x')"));
        assert!(problem.contains(&format!("{name}()")), "{name}: {problem}");
    }
    for (name, _) in judge::TABLES_OUTSIDE_THE_QUERY {
        let problem = finding(&mut scratch, &format!("SELECT count(*) FROM {name}('.')"));
        assert!(problem.contains(&format!("{name}()")), "{name}: {problem}");
    }
    for (name, _) in judge::FUNCTIONS_OUTSIDE_THE_QUERY
        .iter()
        .chain(judge::TABLES_OUTSIDE_THE_QUERY)
    {
        let call = format!("{name}(");
        let tricks: Vec<&str> = corpus::TRICKS
            .iter()
            .copied()
            .filter(|t| t.contains(&call))
            .collect();
        assert!(!tricks.is_empty(), "no trick of the corpus calls {name}()");
        for trick in tricks {
            assert!(guard::check(trick).is_err(), "the guard accepts {trick}");
        }
    }
    let problem = finding(&mut scratch, "SELECT * FROM pragma_optimize");
    assert!(problem.contains("\"optimize\""), "{problem}");
    let problem = finding(&mut scratch, "DELETE FROM orders WHERE id = 1");
    assert!(problem.contains("rows changed"), "{problem}");
    assert!(problem.contains("the database file changed"), "{problem}");
    let problem = finding(&mut scratch, "SELECT 1; SELECT 2");
    assert!(problem.contains("left text"), "{problem}");
    // Positive controls: a schema read and a plain query pass, with their rows.
    for sql in [
        "SELECT name FROM pragma_table_info('orders')",
        "SELECT * FROM orders",
    ] {
        match scratch.run(sql, 0) {
            Ok(Outcome::Prepared { rows, ending, .. }) => {
                assert!(
                    rows > 0 && ending != Ending::Interrupted,
                    "{sql}: {rows} rows, {ending:?}"
                )
            }
            Ok(Outcome::Refused) => panic!("SQLite refused {sql}"),
            Err(problem) => panic!("{sql}: {problem}"),
        }
    }
}

/// The step budget is each statement's own: a statement that needs a tenth of it runs to its
/// end however many statements ran before it, and a runaway one is cut off.
#[test]
fn every_statement_gets_its_own_step_budget() {
    let dir = scratch_dir("budget");
    let mut scratch = Scratch::new(&dir);
    let counted = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) \
                   SELECT count(*) FROM n";
    for run in 0..200 {
        match scratch.run(counted, 0) {
            Ok(Outcome::Prepared { ending, .. }) => {
                assert_eq!(ending, Ending::Done, "run {run} of the same statement")
            }
            _ => panic!("{counted} did not run"),
        }
    }
    let runaway = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) \
                   SELECT count(*) FROM n";
    match scratch.run(runaway, 0) {
        Ok(Outcome::Prepared { ending, .. }) => assert_eq!(ending, Ending::Interrupted),
        _ => panic!("{runaway} did not run"),
    }
}

/// The guard's checks are loops: deep or long texts are refused with a message, never a stack
/// overflow, on a 1 MiB stack (the page's wasm has about that much). The analysis behind the
/// lints reads them without falling over too.
#[test]
fn deep_nesting_is_refused_on_a_small_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            for text in corpus::deep_texts(100_000) {
                let tidied = tidy(&text);
                let refusal = guard::check(&tidied).expect_err("refused");
                assert!(!refusal.to_string().is_empty());
                corpus::analyse(&text);
            }
        })
        .expect("a thread");
    worker.join().expect("no stack overflow, no panic");
}
