//! The read-only guarantees on the second engine's SQLite (`@sqlite.org/sqlite-wasm`, a newer
//! SQLite than rusqlite's and sql.js's), in the browser. Needs the built page served, as
//! `tests/web_worker.rs`'s header says.
//!
//! - SQLite judges the guard again: the guard's regression cases, the write attempts and a
//!   sample of the oracle's corpus (`tests/corpus`, seeded as `tests/guard_oracle.rs`) go
//!   through `guard::check`/`check_bound`; each text accepted is prepared and stepped by this
//!   SQLite on a *writable* in-memory copy of the demo database with an authorizer, with the
//!   checks of `tests/guard_oracle.rs`: only reads (and allowed functions and pragmas), an
//!   empty tail, `sqlite3_stmt_readonly`, exactly the parameters the guard allowed, no change
//!   (`total_changes`, and the database's bytes).
//! - The second wall of `www/lazy-worker.js` on its own: every write attempt, posted to the
//!   worker straight (past the guard), is refused by its read-only connection, and of a text
//!   with two statements only the first runs.
#![cfg(target_arch = "wasm32")]

mod corpus;
mod web_support;

use askdb::sql::guard::{self, FORBIDDEN_FUNCTIONS, READ_ONLY_PRAGMAS};
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_support::{demo_bytes, dist_url};

wasm_bindgen_test_configure!(run_in_browser);

/// Texts of the corpus judged here (the native oracle runs 300,000 on rusqlite's SQLite).
const CORPUS_SAMPLE: usize = 20_000;

#[wasm_bindgen(inline_js = r#"
export async function load_judge(base, bytes, forbidden, pragmas) {
  const module = await import(new URL("sqlite-wasm/index.mjs", base).href);
  globalThis.sqlite3ApiConfig = { disable: { vfs: { opfs: true, "opfs-vfs": true, "opfs-sahpool": true, "opfs-wl": true, kvvfs: true } } };
  const sqlite3 = await module.default({ print() {}, printErr() {} });
  const { capi, wasm } = sqlite3;
  const db = new sqlite3.oo1.DB(":memory:", "c");
  // The demo's bytes become the database, again after any change.
  // (sqlite3_deserialize attaches the bytes itself: the authorizer lets that pass.)
  let loading = false;
  const load = (bytes) => {
    loading = true;
    const p = wasm.allocFromTypedArray(bytes);
    const rc = capi.sqlite3_deserialize(db.pointer, "main", p, bytes.length, bytes.length,
      capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE);
    loading = false;
    if (rc) throw new Error("deserialize: " + rc);
  };
  load(bytes);
  let rc;
  const original = capi.sqlite3_js_db_export(db.pointer);
  const problems = [];
  capi.sqlite3_set_authorizer(db.pointer, (_, action, a1, a2) => {
    if (loading) return 0;
    const name = (x) => (x || "").toLowerCase();
    if (action === capi.SQLITE_READ || action === capi.SQLITE_SELECT || action === capi.SQLITE_RECURSIVE) return 0;
    if (action === capi.SQLITE_FUNCTION) {
      if (forbidden.includes(name(a2))) problems.push(`the forbidden function ${a2}() reached SQLite`);
      return 0;
    }
    if (action === capi.SQLITE_PRAGMA && pragmas.includes(name(a1))) return 0;
    problems.push(`SQLite was asked to allow action ${action} (${a1}, ${a2})`);
    // ATTACH could create a file; everything else is allowed, so that a write the authorizer
    // did not see still shows as a change.
    return action === capi.SQLITE_ATTACH ? capi.SQLITE_DENY : 0;
  }, 0);
  let steps = 0;
  capi.sqlite3_progress_handler(db.pointer, 1000, () => (++steps > 200 ? 1 : 0), 0);
  return {
    version: sqlite3.version.libVersion,
    // [prepared, problems]: prepared is false when SQLite refused the text (nothing ran).
    judge(sql, parameters) {
      problems.length = 0;
      steps = 0;
      const before = capi.sqlite3_total_changes(db.pointer);
      const [pSql, length] = wasm.allocCString(sql, true);
      const stack = wasm.pstack.pointer;
      let prepared = false;
      try {
        const ppStmt = wasm.pstack.allocPtr();
        const ppTail = wasm.pstack.allocPtr();
        rc = capi.sqlite3_prepare_v2(db.pointer, pSql, length, ppStmt, ppTail);
        const pStmt = wasm.peekPtr(ppStmt);
        if (rc === 0 && pStmt) {
          prepared = true;
          const consumed = Number(wasm.peekPtr(ppTail)) - Number(pSql);
          const tail = new TextDecoder().decode(wasm.heap8u().slice(Number(pSql) + consumed, Number(pSql) + length));
          if (tail !== "") problems.push(`SQLite left text after the first statement: ${JSON.stringify(tail)}`);
          if (!capi.sqlite3_stmt_readonly(pStmt)) problems.push("sqlite3_stmt_readonly says it writes");
          const found = capi.sqlite3_bind_parameter_count(pStmt);
          if (found !== parameters) problems.push(`SQLite reads ${found} parameters where the guard allowed ${parameters}`);
          for (let i = 0; i < 50 && capi.sqlite3_step(pStmt) === capi.SQLITE_ROW; i++);
          capi.sqlite3_finalize(pStmt);
        } else if (pStmt) {
          capi.sqlite3_finalize(pStmt);
        }
      } finally {
        wasm.pstack.restore(stack);
        wasm.dealloc(pSql);
      }
      if (capi.sqlite3_total_changes(db.pointer) !== before) problems.push("rows changed");
      const now = capi.sqlite3_js_db_export(db.pointer);
      if (now.length !== original.length || now.some((b, i) => b !== original[i])) {
        problems.push("the database's bytes changed");
        load(original);
      }
      return [prepared, problems.join("; ")];
    },
  };
}

// Posts raw messages to lazy-worker.js (past the guard): each text of `texts` runs on the demo
// opened read-only; answers [error or null, rows as JSON, state after] for each, where the state
// is the orders counted and the schema's names.
export async function run_raw(workerUrl, bytes, texts) {
  const blob = new Blob([`importScripts(${JSON.stringify(workerUrl)});`], { type: "text/javascript" });
  const worker = new Worker(URL.createObjectURL(blob));
  let next = 0;
  const ask = (message) => new Promise((resolve) => {
    const id = ++next;
    worker.onmessage = (event) => { if (event.data.id === id) resolve(event.data); };
    worker.postMessage({ ...message, id });
  });
  const rowsOf = (reply) => reply.ok ? JSON.stringify(reply.ok.rows, (k, v) => typeof v === "bigint" ? Number(v) : v) : "";
  const run = (sql) => ask({ type: "run", sql, params: [], maxRows: 100, countBudgetMs: 5000, deadlineMs: 5000, byteBudget: null });
  const STATE = "SELECT (SELECT count(*) FROM orders) || ' ' || (SELECT group_concat(type || ':' || name) FROM sqlite_schema)";
  try {
    const init = await ask({ type: "init", base: workerUrl });
    if (!("ok" in init)) throw new Error("init: " + JSON.stringify(init));
    const file = new File([bytes], "shop.db");
    const opened = await ask({ type: "openFile", file });
    if (!("ok" in opened)) throw new Error("open: " + opened.error);
    const answers = [];
    for (const sql of texts) {
      const reply = await run(sql);
      const state = await run(STATE);
      answers.push([reply.error ?? null, rowsOf(reply), rowsOf(state)]);
    }
    return answers;
  } finally {
    worker.terminate();
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    fn load_judge(
        base: &str,
        bytes: &Uint8Array,
        forbidden: Array,
        pragmas: Array,
    ) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch)]
    fn run_raw(
        worker_url: &str,
        bytes: &Uint8Array,
        texts: Array,
    ) -> Result<js_sys::Promise, JsValue>;
}

fn strings(items: &[&str]) -> Array {
    items.iter().map(|s| JsValue::from_str(s)).collect()
}

struct Judge(JsValue);

impl Judge {
    async fn load() -> Judge {
        let promise = load_judge(
            &dist_url().await,
            &demo_bytes().await,
            strings(FORBIDDEN_FUNCTIONS),
            strings(READ_ONLY_PRAGMAS),
        )
        .expect("load_judge");
        Judge(JsFuture::from(promise).await.expect("sqlite-wasm loads"))
    }

    fn version(&self) -> String {
        js_sys::Reflect::get(&self.0, &"version".into())
            .unwrap()
            .as_string()
            .unwrap()
    }

    /// (prepared, problems): problems is empty when SQLite only read.
    fn judge(&self, sql: &str, parameters: usize) -> (bool, String) {
        let judge: js_sys::Function = js_sys::Reflect::get(&self.0, &"judge".into())
            .unwrap()
            .into();
        let answer = Array::from(
            &judge
                .call2(&self.0, &sql.into(), &(parameters as u32).into())
                .expect("judge runs"),
        );
        (
            answer.get(0).as_bool().unwrap(),
            answer.get(1).as_string().unwrap(),
        )
    }
}

/// 1 and the largest `?n` in the text, as `tests/guard_oracle.rs` tries `check_bound`.
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
        .filter(|&n| n > 1 && n <= guard::MAX_BOUND_VALUES)
        .max();
    let mut counts = vec![1];
    counts.extend(largest);
    counts
}

#[derive(Default)]
struct Tally {
    accepted: usize,
    prepared: usize,
    findings: Vec<String>,
}

impl Tally {
    fn judge(&mut self, judge: &Judge, text: &str) {
        let mut accepted = Vec::new();
        if let Ok(sql) = guard::check(text) {
            accepted.push(sql);
        }
        for values in bound_counts(text) {
            if let Ok(sql) = guard::check_bound(text, values) {
                accepted.push(sql);
            }
        }
        for sql in accepted {
            self.accepted += 1;
            let (prepared, problems) = judge.judge(sql.as_str(), sql.parameters());
            self.prepared += usize::from(prepared);
            if !problems.is_empty() {
                self.findings
                    .push(format!("{}\n    {problems}", corpus::to_line(sql.as_str())));
            }
        }
    }

    fn assert_no_findings(&self, what: &str) {
        assert!(
            self.findings.is_empty(),
            "{what}: SQLite did more than read {} accepted texts:\n{}",
            self.findings.len(),
            self.findings
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

fn write_attempts() -> Vec<String> {
    include_str!("fixtures/write_attempts.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.replace("\\n", "\n"))
        .collect()
}

#[wasm_bindgen_test]
async fn this_sqlite_judges_the_guard_on_regressions_write_attempts_and_a_corpus_sample() {
    let judge = Judge::load().await;
    assert!(judge.version().starts_with("3."), "{}", judge.version());

    // Positive control: the judge sees a write when one reaches it.
    let (prepared, problems) = judge.judge("DELETE FROM orders", 0);
    assert!(prepared && problems.contains("stmt_readonly"), "{problems}");
    assert!(problems.contains("bytes changed"), "{problems}");
    let (_, problems) = judge.judge("SELECT 1; DELETE FROM orders", 0);
    assert!(
        problems.contains("text after the first statement"),
        "{problems}"
    );

    let mut regressions = Tally::default();
    for text in corpus::from_lines(include_str!("fixtures/guard_regressions.jsonl")) {
        regressions.judge(&judge, &text);
    }
    regressions.assert_no_findings("regressions");

    let mut writes = Tally::default();
    for text in write_attempts() {
        writes.judge(&judge, &text);
    }
    writes.assert_no_findings("write attempts");
    assert_eq!(writes.accepted, 0, "the guard accepted a write attempt");

    let gold: Vec<serde_json::Value> = serde_json::from_str(include_str!(
        "datasets/chinook/questions_spider_chinook_1.json"
    ))
    .expect("chinook questions");
    let gold: Vec<String> = gold
        .iter()
        .filter_map(|q| q["gold_sql"].as_str().map(String::from))
        .collect();
    let mut sample = Tally::default();
    let mut corpus = corpus::Corpus::new(corpus::DEFAULT_SEED, &gold);
    for _ in 0..CORPUS_SAMPLE {
        let (_, text) = corpus.next_text();
        sample.judge(&judge, &text);
    }
    sample.assert_no_findings("corpus sample");
    // The sample must reach SQLite's execution in numbers, or it proves little.
    assert!(
        sample.prepared * 10 >= CORPUS_SAMPLE,
        "only {} of {CORPUS_SAMPLE} texts were accepted and prepared",
        sample.prepared
    );
}

#[wasm_bindgen_test]
async fn the_lazy_worker_refuses_every_write_on_its_own_and_runs_only_the_first_statement() {
    let worker_url = format!("{}lazy-worker.js", dist_url().await);
    let mut texts = vec!["SELECT 1".to_string()];
    texts.extend(write_attempts());
    texts.push("SELECT count(*) FROM orders; DELETE FROM orders".into());
    let answers = JsFuture::from(
        run_raw(
            &worker_url,
            &demo_bytes().await,
            texts.iter().map(|t| JsValue::from_str(t)).collect(),
        )
        .expect("run_raw"),
    )
    .await
    .expect("the worker answers");
    let answers: Vec<(Option<String>, String, String)> = Array::from(&answers)
        .iter()
        .map(|a| {
            let a = Array::from(&a);
            let text = |i| a.get(i).as_string().unwrap_or_default();
            (a.get(0).as_string(), text(1), text(2))
        })
        .collect();
    // Positive control: what the worker runs shows, and the state is read.
    let (error, rows, before) = &answers[0];
    assert_eq!((error, rows.as_str()), (&None, "[[1]]"));
    assert!(before.starts_with("[[\"12 table:customers"), "{before}");
    let mut refused = 0;
    for (text, (error, rows, state)) in texts.iter().zip(&answers).skip(1) {
        assert_eq!(
            state, before,
            "the database changed after {text:?} ({error:?}, {rows})"
        );
        refused += usize::from(error.is_some());
    }
    // Most attempts are writes that SQLite itself refuses on this connection; the others
    // (a SELECT before a write, BEGIN, EXPLAIN, PRAGMA reads) change nothing, as checked above.
    assert!(
        refused >= 25,
        "only {refused} attempts were refused by SQLite"
    );
    // Of two statements only the first ran (and the second would have failed anyway: the
    // count before it is the count after it).
    assert_eq!(answers.last().unwrap().1, "[[12]]");
}
