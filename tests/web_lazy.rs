//! The engine for databases read on demand (`LazyDatabase`: SQLite in `www/lazy-worker.js`,
//! reading a `File` or a URL in parts) in a real browser.
//!
//! Needs, as `scripts/test.sh` starts them: the built page served on 127.0.0.1 (see
//! `web_worker.rs`'s header), and `tests/e2e/range-server.mjs` serving `tests/datasets` with its
//! URL in `tests/range-url.txt`:
//!
//! ```text
//! node tests/e2e/static-server.mjs target/test-page tests/dist-url.txt &
//! node tests/e2e/range-server.mjs tests/datasets tests/range-url.txt &
//! CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test web_lazy
//! ```
//!
//! The range server counts the bytes it sends; the engine counts what it fetched: both must
//! agree. Tests that use the server's counts run one at a time (wasm-bindgen-test runs a binary's
//! tests one after another).
#![cfg(target_arch = "wasm32")]

use askdb::engine::fenced::Fenced;
use askdb::engine::on_demand::lazy::LazyDatabase;
use askdb::engine::on_demand::RemoteProblem;
use askdb::engine::{query, query_bound, DbError, QueryLimits, ReadStats, Value};
use askdb::sql::fence::NameFence;
use js_sys::{Array, Uint8Array};
use wasm_bindgen_test::*;
use web_sys::File;

wasm_bindgen_test_configure!(run_in_browser);

mod web_support;
use web_support::{demo_bytes, dist_url};

/// Sakila: 4.9 MB, 16 tables; `rental` (16,044 rows) has an integer primary key.
const SAKILA: &str = "sakila/sakila.db";
const SAKILA_SIZE: u64 = 4_915_200;

async fn range_url() -> String {
    let response = gloo_net::http::Request::get("/tests/range-url.txt")
        .send()
        .await
        .expect("tests/range-url.txt could not be read");
    assert!(
        response.ok(),
        "tests/range-url.txt answered {}: start the range server first (see this file's header)",
        response.status()
    );
    let url = response.text().await.expect("the address as text");
    format!("{}/", url.trim().trim_end_matches('/'))
}

/// What the range server sent since the last reset.
async fn served() -> ReadStats {
    let url = format!("{}stats", range_url().await);
    let stats: serde_json::Value = gloo_net::http::Request::get(&url)
        .send()
        .await
        .expect("stats")
        .json()
        .await
        .expect("stats as JSON");
    ReadStats {
        bytes: stats["bytes"].as_u64().expect("bytes"),
        requests: stats["requests"].as_u64().expect("requests"),
        waited_ms: None,
    }
}

async fn control(what: &str) {
    let url = format!("{}{what}", range_url().await);
    let response = gloo_net::http::Request::get(&url)
        .send()
        .await
        .expect("control");
    assert!(response.ok(), "{url} answered {}", response.status());
}

async fn engine() -> LazyDatabase {
    LazyDatabase::new(&format!("{}lazy-worker.js", dist_url().await)).expect("worker address")
}

fn file_of(bytes: &Uint8Array, name: &str) -> File {
    File::new_with_u8_array_sequence(&Array::of1(bytes), name).expect("a File")
}

async fn demo_file() -> File {
    file_of(&demo_bytes().await, "shop.db")
}

fn limits() -> QueryLimits {
    QueryLimits::default()
}

async fn one_value(db: &LazyDatabase, sql: &str) -> Value {
    let result = query(db, sql, &limits()).await.expect("the query runs");
    result.rows[0][0].clone()
}

#[wasm_bindgen_test]
async fn a_local_file_opens_without_a_copy_and_answers_like_the_page_engine() {
    let db = engine().await;
    let bytes = demo_bytes().await;
    let opened = db
        .open_file(&file_of(&bytes, "shop.db"))
        .await
        .expect("the demo opens");
    // Positive control: the identity is the file's.
    assert_eq!(opened.identity.size, u64::from(bytes.length()));
    assert_eq!(opened.identity.header, bytes.subarray(0, 100).to_vec());
    assert_eq!(opened.page_size, 4096);
    assert!(opened.identity.sample_sha256.is_some());
    assert!(opened.identity.remote.is_none());
    assert_eq!(opened.identity.sampled_pages[0], 1);
    assert!(opened.reads.bytes > 0 && opened.reads.requests > 0);

    assert_eq!(
        one_value(&db, "SELECT count(*) FROM orders").await,
        Value::Integer(12)
    );
    // Integers exact (BigInt), reals apart from integers, NULL apart from 'NULL'.
    let sql = "SELECT NULL, 'NULL', '', 9007199254740993, 2.0, x'00ff', '東京'";
    let result = query(&db, sql, &limits()).await.unwrap();
    assert_eq!(
        result.rows,
        vec![vec![
            Value::Null,
            Value::Text("NULL".into()),
            Value::Text(String::new()),
            Value::Integer(9_007_199_254_740_993),
            Value::Real(2.0),
            Value::Blob(vec![0x00, 0xff]),
            Value::Text("東京".into()),
        ]]
    );
    assert!(result.reads.is_some(), "a lazy result says what it read");
    // Bound values of every type reach SQLite as values.
    let values = vec![
        Value::Null,
        Value::Integer(9_007_199_254_740_993),
        Value::Real(2.0),
        Value::Text("'); DROP TABLE orders; --".into()),
        Value::Blob(vec![0x00, 0xff]),
    ];
    let sql = "SELECT ?1, ?2, ?3, ?4, ?5, typeof(?3)";
    let result = query_bound(&db, sql, &values, &limits()).await.unwrap();
    let mut expected = values.clone();
    expected.push(Value::Text("real".into()));
    assert_eq!(result.rows, vec![expected]);
}

#[wasm_bindgen_test]
async fn rows_are_capped_and_counted_as_in_the_page_engine() {
    let db = engine().await;
    db.open_file(&demo_file().await).await.expect("opens");
    let capped = QueryLimits {
        max_rows: 5,
        deadline_ms: 10_000,
    };
    let result = query(&db, "SELECT * FROM orders", &capped).await.unwrap();
    assert_eq!(result.rows.len(), 5);
    assert!(result.truncated);
    assert_eq!(result.total_rows, askdb::engine::RowCount::Exact(12));
    // The result-size cap is the page engine's (64 MB), in the same words.
    let huge = "SELECT zeroblob(40000000) UNION ALL SELECT zeroblob(40000001)";
    match query(&db, huge, &limits()).await {
        Err(DbError::TooLarge { limit_bytes }) => assert_eq!(limit_bytes, 64 * 1024 * 1024),
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert_eq!(
        one_value(&db, "SELECT count(*) FROM customers").await,
        Value::Integer(6)
    );
}

#[wasm_bindgen_test]
async fn what_is_not_a_database_is_refused_and_the_open_one_stays() {
    let db = engine().await;
    db.open_file(&demo_file().await).await.expect("opens");
    let text = Uint8Array::from(&b"just some text, certainly not SQLite"[..]);
    match db.open_file(&file_of(&text, "notes.txt")).await {
        Err(DbError::NotADatabase(why)) => assert!(!why.is_empty()),
        other => panic!("expected NotADatabase, got {other:?}"),
    }
    let mut fake = vec![0u8; 4096];
    fake[..16].copy_from_slice(b"SQLite format 3\0");
    fake[16..18].copy_from_slice(&4096u16.to_be_bytes());
    fake[100..120].copy_from_slice(&[0xee; 20]);
    let fake = Uint8Array::from(&fake[..]);
    match db.open_file(&file_of(&fake, "fake.db")).await {
        Err(DbError::NotADatabase(why)) => assert!(why.contains("not a database"), "{why}"),
        other => panic!("expected NotADatabase from SQLite, got {other:?}"),
    }
    assert_eq!(
        one_value(&db, "SELECT count(*) FROM orders").await,
        Value::Integer(12)
    );
}

#[wasm_bindgen_test]
async fn a_remote_lookup_reads_a_few_pages_and_the_server_counts_the_same() {
    let db = engine().await;
    control("reset").await;
    let url = format!("{}range/{SAKILA}", range_url().await);
    let opened = db.open_url(&url).await.expect("sakila opens over HTTP");
    assert_eq!(opened.identity.size, SAKILA_SIZE);
    let remote = opened.identity.remote.clone().expect("remote validators");
    assert!(remote.etag.is_some() && remote.last_modified.is_some());
    // What the open read, by both counts.
    assert_eq!(served().await, opened.reads);
    assert!(opened.reads.bytes < 200_000, "{:?}", opened.reads);

    control("reset").await;
    let sql = "SELECT rental_id, inventory_id, customer_id FROM rental WHERE rental_id = 12345";
    let result = query(&db, sql, &limits()).await.expect("lookup");
    assert_eq!(result.rows.len(), 1);
    assert_eq!(result.rows[0][0], Value::Integer(12345));
    let reads = result.reads.expect("reads");
    assert_eq!(served().await, reads, "the engine and the server disagree");
    assert!(
        reads.bytes > 0,
        "the lookup needed pages the open had not read"
    );
    assert!(reads.bytes <= 64 * 1024, "an indexed lookup read {reads:?}");
    assert_eq!(db.last_reads(), Some(reads));
    assert_eq!(db.total_reads(), opened.reads + reads);

    // The same lookup again: from the cache, nothing read.
    control("reset").await;
    let again = query(&db, sql, &limits()).await.expect("lookup");
    assert_eq!(again.reads, Some(ReadStats::default()));
    assert_eq!(served().await, ReadStats::default());
}

#[wasm_bindgen_test]
async fn the_byte_budget_stops_a_full_scan_with_its_message() {
    let db = engine().await;
    let url = format!("{}range/{SAKILA}", range_url().await);
    db.open_url(&url).await.expect("opens");
    let scan = "SELECT count(*), sum(length(last_update)) FROM rental";
    db.set_read_budget(Some(100_000));
    control("reset").await;
    let error = query(&db, scan, &limits())
        .await
        .expect_err("stopped by the budget");
    let DbError::ByteBudget {
        limit_bytes,
        read_bytes,
    } = error.clone()
    else {
        panic!("expected ByteBudget, got {error:?}");
    };
    assert_eq!(limit_bytes, 100_000);
    assert!(read_bytes <= 100_000, "{read_bytes}");
    let sent = served().await;
    assert!(sent.bytes <= 100_000, "the server sent {sent:?}");
    assert_eq!(db.last_reads().map(|r| r.bytes), Some(sent.bytes));
    let message = error.to_string();
    assert!(message.contains("budget of 100 KB"), "{message}");
    assert!(message.contains("an index"), "{message}");

    // Positive control: without the budget the same scan runs, and reads more than it.
    db.set_read_budget(None);
    let result = query(&db, scan, &limits()).await.expect("the scan runs");
    assert_eq!(result.rows[0][0], Value::Integer(16_044));
    let total = result.reads.unwrap().bytes + read_bytes;
    assert!(total > 100_000, "the whole scan read only {total}");
}

/// Every order of three items (the six permutations of 0, 1, 2).
const EVERY_ORDER: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Three scans asked at once, as three candidates ask them, queue on the one engine: in every
/// order they can be asked in, together they read at most the question's budget from the
/// server, and each stop names that budget. Mutations: a finished query clearing the budget
/// (`self.budget.set(None)` after its reply: 2.4 MB read with a budget of 150 KB), or each
/// query given the whole limit instead of what is left in its turn (`on_demand/lazy.rs`
/// `left`: 442 KB in the first order), fail it.
#[wasm_bindgen_test]
async fn a_questions_budget_holds_for_queries_that_wait_for_each_other_in_any_order() {
    use askdb::engine::page::PageDatabase;
    use std::rc::Rc;

    let url = format!("{}range/{SAKILA}", range_url().await);
    let scans = [
        "SELECT count(*), sum(length(last_update)) FROM rental",
        "SELECT count(*), sum(amount) FROM payment",
        "SELECT count(*), sum(length(description)) FROM film",
    ];
    const LIMIT: u64 = 150_000;
    for order in EVERY_ORDER {
        // Opened anew for each order: pages in a page cache are free, and would spare the budget.
        let db = Rc::new(
            PageDatabase::open_remote(engine().await, &url)
                .await
                .expect("sakila opens over HTTP"),
        );
        let asked: Vec<&str> = order.iter().map(|&i| scans[i]).collect();
        control("reset").await;
        let outcomes = {
            let _budget = db.question_budget(Some(LIMIT));
            let limits = limits();
            futures::future::join_all(asked.iter().map(|sql| query(&*db, sql, &limits))).await
        };
        let sent = served().await;
        // Positive control: the scans did reach the server.
        assert!(sent.bytes > 0 && sent.requests > 0, "{order:?}: {sent:?}");
        assert!(
            sent.bytes <= LIMIT,
            "in the order {order:?} the question read {} bytes from the server with a budget of {LIMIT}",
            sent.bytes
        );
        let stopped: Vec<_> = outcomes
            .iter()
            .filter_map(|outcome| match outcome {
                Err(DbError::ByteBudget {
                    limit_bytes,
                    read_bytes,
                }) => Some((*limit_bytes, *read_bytes)),
                Err(other) => panic!("{order:?}: a scan failed otherwise: {other}"),
                Ok(_) => None,
            })
            .collect();
        assert!(
            !stopped.is_empty(),
            "{order:?}: no scan was stopped: {outcomes:?}"
        );
        for (limit, read) in stopped {
            // Each stop names the question's budget and what the question read, not a query's part.
            assert_eq!(limit, LIMIT, "{order:?}");
            assert!(read <= LIMIT, "{order:?}: {read}");
        }
        // The budget ended with the guard: the same scans run whole now, and together want
        // more than the budget (the control).
        control("reset").await;
        for sql in asked {
            query(&*db, sql, &limits())
                .await
                .expect("runs without a budget");
        }
        assert!(served().await.bytes + sent.bytes > LIMIT, "{order:?}");
        db.close().await;
    }
}

#[wasm_bindgen_test]
async fn a_server_that_ignores_range_is_named_with_the_file_size() {
    let db = engine().await;
    let url = format!("{}ignore-range/{SAKILA}", range_url().await);
    match db.open_url(&url).await {
        Err(DbError::Remote(problem)) => {
            assert_eq!(
                problem,
                RemoteProblem::RangeIgnored {
                    size: Some(SAKILA_SIZE)
                }
            );
            assert!(problem.to_string().contains("it ignores the Range header"));
            assert_eq!(problem.whole_download_size(), Some(SAKILA_SIZE));
        }
        other => panic!("expected RangeIgnored, got {other:?}"),
    }
    assert!(!db.is_open());
}

#[wasm_bindgen_test]
async fn a_server_whose_cors_hides_content_range_is_named() {
    let db = engine().await;
    let url = format!("{}hidden/{SAKILA}", range_url().await);
    match db.open_url(&url).await {
        Err(DbError::Remote(problem)) => {
            assert_eq!(
                problem,
                RemoteProblem::HeaderHidden {
                    header: "Content-Range".into()
                }
            );
            assert!(problem
                .what_to_set()
                .is_some_and(|set| set.contains("Access-Control-Expose-Headers: Content-Range")));
        }
        other => panic!("expected HeaderHidden, got {other:?}"),
    }
    // A missing file is a status, not a range problem.
    let url = format!("{}range/no-such.db", range_url().await);
    match db.open_url(&url).await {
        Err(DbError::Remote(RemoteProblem::Status { status: 404 })) => {}
        other => panic!("expected a 404, got {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn a_server_without_validators_is_not_read_in_parts_and_one_pinned_by_last_modified_is() {
    let db = engine().await;
    control("reset").await;
    let url = format!("{}no-validators/{SAKILA}", range_url().await);
    match db.open_url(&url).await {
        Err(DbError::Remote(RemoteProblem::NoValidator { size })) => assert_eq!(size, SAKILA_SIZE),
        other => panic!("expected NoValidator, got {other:?}"),
    }
    assert!(!db.is_open());
    // Refused on the first answer: nothing more was asked of the server.
    assert_eq!(served().await.requests, 1);
    // Positive control: the same file pinned by Last-Modified alone opens and answers.
    let url = format!("{}lm-only/{SAKILA}", range_url().await);
    let opened = db.open_url(&url).await.expect("opens");
    let remote = opened.identity.remote.expect("remote");
    assert!(remote.etag.is_none() && remote.last_modified.is_some());
    assert_eq!(
        one_value(&db, "SELECT count(*) FROM rental WHERE rental_id = 7").await,
        Value::Integer(1)
    );
}

#[wasm_bindgen_test]
async fn a_file_changed_on_the_server_mid_session_stops_with_its_message() {
    let db = engine().await;
    let url = format!("{}range/{SAKILA}", range_url().await);
    db.open_url(&url).await.expect("opens");
    assert_eq!(
        one_value(&db, "SELECT count(*) FROM actor").await,
        Value::Integer(200)
    );
    control(&format!("touch/{SAKILA}")).await;
    // A query that needs pages not read yet meets the new ETag.
    let error = query(&db, "SELECT count(*), sum(amount) FROM payment", &limits())
        .await
        .expect_err("the file changed");
    let DbError::Changed(why) = &error else {
        panic!("expected Changed, got {error:?}");
    };
    assert!(why.contains("ETag"), "{why}");
    // From now on every query says so, even one the cache could answer.
    match query(&db, "SELECT count(*) FROM actor", &limits()).await {
        Err(DbError::Changed(_)) => {}
        other => panic!("expected Changed again, got {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn the_deadline_stops_a_runaway_query_and_the_next_one_runs() {
    let db = engine().await;
    let url = format!("{}range/{SAKILA}", range_url().await);
    db.open_url(&url).await.expect("opens");
    let short = QueryLimits {
        max_rows: 10,
        deadline_ms: 500,
    };
    let endless =
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r";
    let started = askdb::browser::now_ms();
    match query(&db, endless, &short).await {
        Err(DbError::Timeout { after_ms: 500 }) => {}
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert!(askdb::browser::now_ms() - started < 20_000.0);
    // SQLite's progress handler stopped it: the worker lives on, with its cache, so the next
    // query opens nothing again (a terminated worker would read the header and schema anew).
    let before = db.total_reads();
    assert_eq!(
        one_value(&db, "SELECT count(*) FROM actor").await,
        Value::Integer(200)
    );
    let again = one_value(&db, "SELECT count(*) FROM actor").await;
    assert_eq!(again, Value::Integer(200));
    assert_eq!(db.last_reads(), Some(ReadStats::default()));
    let after = db.total_reads();
    assert!(
        after.requests - before.requests <= 2,
        "the database was opened again: {before:?} -> {after:?}"
    );
}

#[wasm_bindgen_test]
async fn a_read_blocked_past_the_deadline_ends_the_worker_and_the_database_reopens() {
    let db = engine().await;
    let url = format!("{}range/{SAKILA}", range_url().await);
    db.open_url(&url).await.expect("opens");
    // Every read now waits 30 s at the server: the progress handler cannot run meanwhile.
    control("delay?ms=30000").await;
    let short = QueryLimits {
        max_rows: 10,
        deadline_ms: 500,
    };
    let started = askdb::browser::now_ms();
    let outcome = query(&db, "SELECT count(*) FROM payment", &short).await;
    control("delay?ms=0").await;
    match outcome {
        Err(DbError::Timeout { after_ms: 500 }) => {}
        other => panic!("expected a timeout, got {other:?}"),
    }
    let waited = askdb::browser::now_ms() - started;
    assert!(waited < 20_000.0, "waited {waited} ms");
    // A fresh worker opens the same file again: the next query works.
    control("reset").await;
    assert_eq!(
        one_value(&db, "SELECT count(*) FROM actor").await,
        Value::Integer(200)
    );
    // It read the file again, from an empty cache.
    assert!(served().await.requests >= 1);
}

#[wasm_bindgen_test]
async fn a_crash_restarts_the_worker_on_the_same_file() {
    let db = engine().await;
    db.open_file(&demo_file().await).await.expect("opens");
    match db.simulate_crash().await {
        Err(DbError::Crashed { reopened: true, .. }) => {}
        other => panic!("expected a crash, reopened, got {other:?}"),
    }
    assert_eq!(
        one_value(&db, "SELECT count(*) FROM orders").await,
        Value::Integer(12)
    );
}

#[wasm_bindgen_test]
async fn a_file_changed_while_no_worker_ran_is_caught_when_it_is_opened_again() {
    let db = engine().await;
    let url = format!("{}range/{SAKILA}", range_url().await);
    db.open_url(&url).await.expect("opens");
    // A read blocked past the deadline ends the worker (as in the test above) …
    control("delay?ms=30000").await;
    let short = QueryLimits {
        max_rows: 10,
        deadline_ms: 500,
    };
    let outcome = query(&db, "SELECT count(*) FROM payment", &short).await;
    control("delay?ms=0").await;
    assert!(
        matches!(outcome, Err(DbError::Timeout { .. })),
        "{outcome:?}"
    );
    // … and while none runs, the file on the server changes.
    control(&format!("touch/{SAKILA}")).await;
    // The fresh worker opens it again, its first read meets another ETag, and the query says
    // so (and every query after it).
    match query(&db, "SELECT count(*) FROM actor", &limits()).await {
        Err(DbError::Changed(why)) => {
            assert!(
                why.contains("changed since it was opened (its ETag was"),
                "{why}"
            )
        }
        other => panic!("expected Changed, got {other:?}"),
    }
}

/// The page's one type for an open database (`engine::page::PageDatabase`) holds a database
/// read on demand as it holds one in memory: the same queries, its kind, the identity its engine
/// found (compared by the one `same_database` rule), and no copy for the model.
#[wasm_bindgen_test]
async fn the_page_database_holds_a_file_read_on_demand() {
    use askdb::engine::identity::{same_database, Identity, Sameness};
    use askdb::engine::kind::{CountPolicy, DatabaseKind, HidingMechanism};
    use askdb::engine::page::PageDatabase;

    let bytes = demo_bytes().await;
    let db = PageDatabase::open_local_on_demand(engine().await, &file_of(&bytes, "shop.db"))
        .await
        .expect("the demo opens on demand");
    assert_eq!(db.kind(), DatabaseKind::LocalFile);
    assert_eq!(db.size(), u64::from(bytes.length()));
    assert_eq!(db.count_policy(), CountPolicy::UpTo(10_000));
    assert!(matches!(db.hiding(), HidingMechanism::FenceKnowledge(_)));
    let orders = query(&db, "SELECT count(*) FROM orders", &limits())
        .await
        .expect("runs");
    assert!(
        matches!(orders.rows[0][0], Value::Integer(n) if n > 0),
        "{orders:?}"
    );
    let copy = db
        .model_view_copy("SELECT 1;")
        .await
        .err()
        .expect("no copy");
    assert!(copy.to_string().contains("on demand"), "{copy}");

    // What cannot be copied is fenced: the model's twin refuses a fenced name in any spelling
    // before the engine sees it, and runs the rest on the same engine, its reads the file's.
    let db = std::rc::Rc::new(db);
    let fenced = Fenced::new(db.clone(), NameFence::new(["askdb_notes"]));
    for sql in [
        "SELECT * FROM askdb_notes",
        "SELECT note FROM main.\"ASKDB_Notes\"",
    ] {
        let refused = query(&fenced, sql, &limits()).await;
        assert!(
            matches!(refused, Err(DbError::Fenced(_))),
            "{sql}: {refused:?}"
        );
    }
    let control = query(&fenced, "SELECT count(*) FROM orders", &limits())
        .await
        .expect("what is not fenced runs");
    assert!(control.reads.is_some(), "read on demand: {control:?}");
    // The whole database still reads what the model may not (the console's).
    query(&*db, "SELECT count(*) FROM askdb_notes", &limits())
        .await
        .expect("the whole database reads its notes");

    // The same file again is the same database; one whose change counter moved is not.
    let identity = db.identity().await.expect("known at once");
    assert!(matches!(&identity, Identity::OnDemand(lazy) if lazy.remote.is_none()));
    let again = PageDatabase::open_local_on_demand(engine().await, &file_of(&bytes, "shop.db"))
        .await
        .expect("opens again");
    let again = again.identity().await.expect("identity");
    assert_eq!(same_database(&identity, &again), Sameness::Same);
    assert_eq!(identity.storage_key(), again.storage_key());
    let changed = bytes.slice(0, bytes.length());
    changed.set_index(27, changed.get_index(27).wrapping_add(1)); // the change counter's last byte
    let changed = PageDatabase::open_local_on_demand(engine().await, &file_of(&changed, "shop.db"))
        .await
        .expect("a changed copy opens");
    let changed = changed.identity().await.expect("identity");
    assert_eq!(same_database(&identity, &changed), Sameness::Different);
    assert_ne!(identity.storage_key(), changed.storage_key());
    db.close().await;
    assert!(matches!(
        query(&*db, "SELECT 1", &limits()).await,
        Err(DbError::NotOpen)
    ));
}

#[wasm_bindgen_test]
async fn the_page_database_holds_a_remote_file_read_on_demand() {
    use askdb::engine::identity::Identity;
    use askdb::engine::kind::{CountPolicy, DatabaseKind};
    use askdb::engine::page::PageDatabase;

    let url = format!("{}range/{SAKILA}", range_url().await);
    let db = PageDatabase::open_remote(engine().await, &url)
        .await
        .expect("sakila opens over HTTP");
    assert_eq!(db.kind(), DatabaseKind::Remote);
    assert_eq!(db.size(), SAKILA_SIZE);
    assert_eq!(db.count_policy(), CountPolicy::UpTo(0));
    match db.identity().await.expect("known at once") {
        Identity::OnDemand(lazy) => {
            assert_eq!(lazy.remote.expect("remote").url, url);
        }
        other => panic!("{other:?}"),
    }
    let rentals = query(
        &db,
        "SELECT count(*) FROM rental WHERE rental_id = 1",
        &limits(),
    )
    .await
    .expect("runs");
    assert_eq!(rentals.rows[0][0], Value::Integer(1));
}
