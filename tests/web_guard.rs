//! The guard in the page's own setting: WebAssembly with its small stack, and sql.js in the
//! worker. Run as `scripts/test.sh` runs the wasm tests (see `tests/web_worker.rs`'s header for
//! the served `dist/` these tests need).
//!
//! - Texts nested 100,000 levels deep, of every shape, are refused with a message by tidy and the
//!   guard, and the analysis reads them without overflowing the stack ("Maximum call stack size
//!   exceeded" would leave the page's Rust state corrupt until reload).
//! - sql.js's own SQLite judges the guard, as rusqlite's does in `tests/guard_oracle.rs`: the
//!   page runs sql.js, not rusqlite, so the two SQLites' readings of a text must both agree
//!   with the guard. A sample of the oracle's corpus (`tests/corpus`, the same seed) goes through
//!   `guard::check`, and every text it accepts runs on a *writable* sql.js database of the demo
//!   (no `query_only`: the guard is the only wall), in a worker of the test's own
//!   (`web_support/writable_sqljs.js`; the page's worker has no writable open). It fails when
//!   SQLite leaves text after the first statement, counts a changed row, attaches a database,
//!   makes a temp object, or exports other bytes than before. sql.js has no authorizer and no
//!   `sqlite3_stmt_readonly`; the native oracle checks those.
#![cfg(target_arch = "wasm32")]

mod corpus;
mod web_support;

use askdb::sql::{guard, tidy::tidy};
use futures::future::{select, Either};
use gloo_timers::future::TimeoutFuture;
use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_support::{demo_bytes, dist_url};
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn deep_nesting_is_refused_without_exhausting_the_stack() {
    for text in corpus::deep_texts(100_000) {
        let tidied = tidy(&text);
        let refusal = guard::check(&tidied).expect_err("refused");
        assert!(!refusal.to_string().is_empty());
        // The analysis is only ever given accepted SQL, but must not fall over on any text.
        corpus::analyse(&text);
    }
}

/// Rows stepped per statement, as in the native oracle.
const MAX_ROWS: u32 = 50;
/// A statement still running after this is given up on (its worker terminated, a fresh one
/// opened): sql.js has no interrupt.
const STATEMENT_DEADLINE_MS: u32 = 3_000;

/// The test's worker: importScripts of the built page's sql-wasm.js, then this.
const WRITABLE_SQLJS: &str = include_str!("web_support/writable_sqljs.js");

/// A writable sql.js database of the demo in a worker of the test's own.
struct WritableSqlJs {
    worker: Worker,
    /// The built page's address, where sql-wasm.js and sql-wasm.wasm are.
    base: String,
    /// The demo's bytes, to open afresh after a change or a runaway statement.
    demo: Uint8Array,
}

/// What SQLite did with one text.
struct Verdict {
    prepared: bool,
    /// What SQLite left after the first statement.
    tail: String,
    rows: u32,
    /// "refused", "done", "rowCap" or "failed".
    ending: String,
    /// [total_changes(), attached databases, temp objects], before and after.
    before: Vec<f64>,
    after: Vec<f64>,
    bytes: Vec<u8>,
}

impl WritableSqlJs {
    async fn open() -> (WritableSqlJs, Vec<u8>) {
        let base = dist_url().await;
        let mut db = WritableSqlJs {
            worker: start_worker(&base),
            base,
            demo: demo_bytes().await,
        };
        let exported = db.reopen().await;
        (db, exported)
    }

    /// Opens the demo's bytes again, in a fresh worker; the bytes sql.js exports right after.
    async fn reopen(&mut self) -> Vec<u8> {
        self.worker.terminate();
        self.worker = start_worker(&self.base);
        let message = Object::new();
        set(&message, "type", &"open".into());
        set(&message, "base", &self.base.as_str().into());
        set(&message, "bytes", &self.demo);
        let exported = self
            .request(&message, 60_000)
            .await
            .expect("the writable sql.js database opens in time")
            .unwrap_or_else(|e| panic!("the writable sql.js database did not open: {e}"));
        Uint8Array::new(&exported).to_vec()
    }

    /// `None` when the statement was still running at the deadline.
    async fn judge(&self, sql: &str) -> Option<Verdict> {
        let message = Object::new();
        set(&message, "type", &"judge".into());
        set(&message, "sql", &sql.into());
        set(&message, "maxRows", &MAX_ROWS.into());
        let verdict = self
            .request(&message, STATEMENT_DEADLINE_MS)
            .await?
            .unwrap_or_else(|e| panic!("the test's worker failed on {sql:?}: {e}"));
        let numbers = |key: &str| -> Vec<f64> {
            Array::from(&get(&verdict, key))
                .iter()
                .filter_map(|v| v.as_f64())
                .collect()
        };
        Some(Verdict {
            prepared: get(&verdict, "prepared").is_truthy(),
            tail: get(&verdict, "tail").as_string().unwrap_or_default(),
            rows: get(&verdict, "rows").as_f64().unwrap_or_default() as u32,
            ending: get(&verdict, "ending").as_string().unwrap_or_default(),
            before: numbers("before"),
            after: numbers("after"),
            bytes: Uint8Array::new(&get(&verdict, "bytes")).to_vec(),
        })
    }

    /// Posts `message` and waits for the answer; `None` past `deadline_ms`.
    async fn request(&self, message: &Object, deadline_ms: u32) -> Option<Result<JsValue, String>> {
        let worker = self.worker.clone();
        let answered = Promise::new(&mut |resolve, _| {
            let on_message = Closure::once_into_js(move |event: MessageEvent| {
                let _ = resolve.call1(&JsValue::NULL, &event.data());
            });
            worker.set_onmessage(Some(on_message.unchecked_ref()));
        });
        self.worker
            .post_message(message)
            .expect("a message to the test's worker");
        match select(JsFuture::from(answered), TimeoutFuture::new(deadline_ms)).await {
            Either::Left((Ok(data), _)) => Some(match get(&data, "error").as_string() {
                Some(error) => Err(error),
                None => Ok(get(&data, "ok")),
            }),
            Either::Left((Err(e), _)) => Some(Err(format!("{e:?}"))),
            Either::Right(_) => None,
        }
    }
}

impl Drop for WritableSqlJs {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// A blob: worker (the built page is on another origin) that imports sql.js, then runs the
/// test's script.
fn start_worker(base: &str) -> Worker {
    let import = format!(
        "importScripts({});\n",
        serde_json::to_string(&format!("{base}sql-wasm.js")).expect("a JSON string")
    );
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let parts = Array::of2(&import.into(), &WRITABLE_SQLJS.into());
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).expect("a blob");
    let url = Url::create_object_url_with_blob(&blob).expect("a blob: address");
    let worker = Worker::new(&url).expect("the test's worker starts");
    let _ = Url::revoke_object_url(&url);
    worker
}

fn set(object: &Object, key: &str, value: &JsValue) {
    Reflect::set(object, &key.into(), value).expect("a property");
}

fn get(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// What in `verdict` is more than one read that leaves the database as `pristine`.
fn problems(verdict: &Verdict, pristine: &[u8]) -> Vec<String> {
    let mut problems = Vec::new();
    if !verdict.tail.is_empty() {
        let tail = &verdict.tail;
        problems.push(format!(
            "SQLite left text after the first statement: {tail:?}"
        ));
    }
    let what = ["rows changed", "a database attached", "a temp object made"];
    for (i, what) in what.iter().enumerate() {
        if verdict.before.get(i) != verdict.after.get(i) {
            problems.push(what.to_string());
        }
    }
    if verdict.before.len() != what.len() || verdict.after.len() != what.len() {
        problems.push("the state before and after was not read".into());
    }
    if verdict.bytes != pristine {
        problems.push("the exported bytes changed".into());
    }
    problems
}

/// The judge without the guard in front: it is writable (a write changes rows and bytes), and
/// it sees a second statement. Positive controls for the test below, which would pass on a
/// read-only connection or a judge that looks at nothing.
#[wasm_bindgen_test]
async fn the_writable_sql_js_judge_sees_writes_and_tails() {
    let (mut db, pristine) = WritableSqlJs::open().await;
    let deleted = db
        .judge("DELETE FROM orders WHERE id = 1")
        .await
        .expect("in time");
    assert_eq!(
        problems(&deleted, &pristine),
        ["rows changed", "the exported bytes changed"]
    );
    db.reopen().await;
    // ANALYZE behind the pragma function writes sqlite_stat1.
    let optimize = db
        .judge("SELECT * FROM pragma_optimize(0x10002)")
        .await
        .expect("in time");
    assert!(problems(&optimize, &pristine).contains(&"the exported bytes changed".to_string()));
    db.reopen().await;
    let attached = db.judge("ATTACH ':memory:' AS m").await.expect("in time");
    assert_eq!(problems(&attached, &pristine), ["a database attached"]);
    db.reopen().await;
    let temp = db.judge("CREATE TEMP TABLE t(x)").await.expect("in time");
    assert_eq!(problems(&temp, &pristine), ["a temp object made"]);
    let two = db.judge("SELECT 1; SELECT 2").await.expect("in time");
    assert_eq!(
        problems(&two, &pristine),
        ["SQLite left text after the first statement: \" SELECT 2\""]
    );
    let read = db
        .judge("SELECT a.id FROM orders a, orders b")
        .await
        .expect("in time");
    assert!(problems(&read, &pristine).is_empty());
    assert_eq!(
        (read.prepared, read.rows, read.ending.as_str()),
        (true, MAX_ROWS, "rowCap")
    );
}

#[wasm_bindgen_test]
async fn sql_js_agrees_with_the_guard_on_a_sample_of_the_corpus() {
    /// Texts the guard accepts, from the start of the corpus (its tricks, then mutations and
    /// generated statements).
    const SAMPLE: usize = 2_000;
    let (mut db, pristine) = WritableSqlJs::open().await;
    let mut corpus = corpus::Corpus::new(corpus::DEFAULT_SEED, &[]);
    let (mut accepted, mut prepared, mut returned_rows, mut ran_through, mut timed_out) =
        (0, 0, 0, 0, 0);
    let mut findings = Vec::new();
    while accepted < SAMPLE {
        let (_, text) = corpus.next_text();
        let Ok(sql) = guard::check(&text) else {
            continue;
        };
        accepted += 1;
        let Some(verdict) = db.judge(sql.as_str()).await else {
            timed_out += 1;
            db.reopen().await;
            continue;
        };
        let found = problems(&verdict, &pristine);
        if !found.is_empty() {
            findings.push(format!(
                "{}\n    {}",
                corpus::to_line(&text),
                found.join("; ")
            ));
            db.reopen().await;
        }
        prepared += usize::from(verdict.prepared);
        returned_rows += usize::from(verdict.rows > 0);
        ran_through += usize::from(verdict.ending == "done" || verdict.ending == "rowCap");
    }
    web_sys::console::log_1(
        &format!(
            "{accepted} accepted texts: SQLite prepared {prepared}, {returned_rows} returned \
             rows, {ran_through} ran through, {timed_out} timed out; {} findings",
            findings.len()
        )
        .into(),
    );
    assert!(
        findings.is_empty(),
        "the guard accepted {} texts that sql.js's SQLite reads as more than one read:\n  {}",
        findings.len(),
        findings.join("\n  ")
    );
    // The sample must reach SQLite's execution, or it proves little.
    assert!(
        prepared * 3 >= SAMPLE && returned_rows * 4 >= SAMPLE && ran_through * 3 >= SAMPLE,
        "of {SAMPLE} accepted texts SQLite prepared {prepared}, {returned_rows} returned rows, \
         {ran_through} ran through"
    );
}
