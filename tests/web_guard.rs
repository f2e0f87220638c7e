//! The guard in the page's own setting: WebAssembly with its small stack, and sql.js in the
//! worker. Run as `scripts/test.sh` runs the wasm tests (see `tests/web_worker.rs`'s header for
//! the served `dist/` these tests need).
//!
//! - Texts nested 100,000 levels deep, of every shape, are refused with a message by tidy and the
//!   guard, and the analysis reads them without overflowing the stack ("Maximum call stack size
//!   exceeded" would leave the page's Rust state corrupt until reload).
//! - A sample of the oracle's corpus (`tests/corpus`, the same seed as `tests/guard_oracle.rs`)
//!   that the guard accepts runs through the page's engine, and the database exported after is
//!   byte for byte the one before.
#![cfg(target_arch = "wasm32")]

mod corpus;
mod web_support;

use askdb::engine::{query, QueryLimits};
use askdb::sql::{guard, tidy::tidy};
use wasm_bindgen_test::*;
use web_support::open_demo;

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

#[wasm_bindgen_test]
async fn what_the_guard_accepts_leaves_the_database_as_it_was() {
    const SAMPLE: usize = 300;
    let db = open_demo().await;
    let before = db.export().await.expect("export").to_vec();
    let limits = QueryLimits {
        max_rows: 50,
        deadline_ms: 5_000,
    };
    let mut corpus = corpus::Corpus::new(corpus::DEFAULT_SEED, &[]);
    let (mut accepted, mut ran) = (0, 0);
    while accepted < SAMPLE {
        let (_, text) = corpus.next_text();
        if guard::check(&text).is_err() {
            continue;
        }
        accepted += 1;
        if query(&db, &text, &limits).await.is_ok() {
            ran += 1;
        }
    }
    let after = db.export().await.expect("export").to_vec();
    assert!(before == after, "the database changed");
    // The sample must reach SQLite's execution, or it proves little.
    assert!(
        ran * 4 >= SAMPLE,
        "only {ran} of {SAMPLE} accepted texts ran"
    );
}
