//! The page's engine (`WorkerDatabase`: sql.js in a Web Worker) in a real browser.
//!
//! Needs the built page (`scripts/build-test-page.sh`) served on 127.0.0.1 with two headers, because the test
//! harness runs on its own origin (with cross-origin isolation): CORS for the worker's fetch of
//! `sql-wasm.wasm`, and a cross-origin resource policy for its `importScripts`. The end-to-end
//! tests' static server sends both; run as a program it serves a folder on a free port and
//! writes its URL into a file. The tests read that file at run time (the test runner serves the
//! crate's folder beside the test page), so a new port does not rebuild them. As
//! `scripts/test.sh` does:
//!
//! ```text
//! node tests/e2e/static-server.mjs target/test-page tests/dist-url.txt &
//! CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test web_worker
//! kill %1
//! ```
#![cfg(target_arch = "wasm32")]

use askdb::engine::in_memory::worker::WorkerDatabase;
use askdb::engine::{query, query_bound, DbError, QueryLimits, RowCount, Value};
use futures::future::{select, Either};
use gloo_timers::future::TimeoutFuture;
use js_sys::Uint8Array;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod web_support;
use web_support::{blob, bytes_of, demo_bytes, dist_url, open_demo};

/// The smallest database there is: one 512-byte page, no tables.
fn empty_database() -> Uint8Array {
    let mut page = vec![0u8; 512];
    page[..16].copy_from_slice(b"SQLite format 3\0");
    page[16..18].copy_from_slice(&512u16.to_be_bytes());
    page[18..24].copy_from_slice(&[1, 1, 0, 64, 32, 32]); // file format, payload fractions
    page[100] = 0x0d; // sqlite_schema: an empty leaf page of a table
    page[105..107].copy_from_slice(&512u16.to_be_bytes()); // its (empty) cell area
    Uint8Array::from(&page[..])
}

/// The right header, nonsense after it: only SQLite itself can tell.
fn nonsense_after_the_header() -> Uint8Array {
    let mut fake = vec![0u8; 4096];
    fake[..16].copy_from_slice(b"SQLite format 3\0");
    fake[16..18].copy_from_slice(&4096u16.to_be_bytes());
    fake[100..120].copy_from_slice(&[0xee; 20]);
    Uint8Array::from(&fake[..])
}

/// Starts an endless query and gives up on it, as the Stop button does (its future is dropped).
async fn stop_an_endless_query(db: &WorkerDatabase) {
    let patient = QueryLimits {
        max_rows: 10,
        deadline_ms: 600_000,
    };
    let endless =
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r";
    let pressed = select(
        Box::pin(query(db, endless, &patient)),
        TimeoutFuture::new(300),
    )
    .await;
    let Either::Right(((), abandoned_query)) = pressed else {
        panic!("the endless query ended by itself");
    };
    drop(abandoned_query);
}

async fn count_tables(db: &WorkerDatabase) -> Vec<Vec<Value>> {
    let sql = "SELECT count(*) FROM sqlite_schema WHERE type = 'table'";
    query(db, sql, &QueryLimits::default())
        .await
        .expect("count runs")
        .rows
}

async fn count_orders(db: &WorkerDatabase) -> Vec<Vec<Value>> {
    let result = query(db, "SELECT count(*) FROM orders", &QueryLimits::default())
        .await
        .expect("count runs");
    result.rows
}

#[wasm_bindgen_test]
async fn counts_orders_and_caps_rows() {
    let db = open_demo().await;
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);

    let limits = QueryLimits {
        max_rows: 5,
        deadline_ms: 10_000,
    };
    let result = query(&db, "SELECT * FROM orders", &limits).await.unwrap();
    assert_eq!(result.rows.len(), 5);
    assert!(result.truncated);
    assert_eq!(result.total_rows, RowCount::Exact(12));
}

#[wasm_bindgen_test]
async fn values_keep_their_types() {
    let db = open_demo().await;
    let sql = "SELECT NULL, 'NULL', '', 9007199254740993, 2.0, x'00ff'";
    let result = query(&db, sql, &QueryLimits::default()).await.unwrap();
    assert_eq!(
        result.rows,
        vec![vec![
            Value::Null,
            Value::Text("NULL".into()),
            Value::Text(String::new()),
            Value::Integer(9_007_199_254_740_993),
            Value::Real(2.0),
            Value::Blob(vec![0x00, 0xff]),
        ]]
    );
    // A query without rows still names its columns.
    let sql = "SELECT id, name FROM customers WHERE 0";
    let result = query(&db, sql, &QueryLimits::default()).await.unwrap();
    assert_eq!(result.columns, vec!["id", "name"]);
}

#[wasm_bindgen_test]
async fn bound_values_reach_sqlite_as_values_of_every_type() {
    let db = open_demo().await;
    let sql = "SELECT ?1, ?2, ?3, ?4, ?5, typeof(?2)";
    let values = vec![
        Value::Null,
        Value::Integer(9_007_199_254_740_993),
        Value::Real(2.5),
        Value::Text("'); DROP TABLE orders; --".into()),
        Value::Blob(vec![0x00, 0xff]),
    ];
    let result = query_bound(&db, sql, &values, &QueryLimits::default())
        .await
        .unwrap();
    let mut expected = values.clone();
    expected.push(Value::Text("integer".into()));
    assert_eq!(result.rows, vec![expected]);
    // A value is compared as a value: no customer is named like that, and orders stay.
    let sql = "SELECT count(*) FROM customers WHERE name = ?1 OR prefecture = ?2";
    let values = [
        Value::Text("x' OR 1=1 --".into()),
        Value::Text("Tokyo".into()),
    ];
    let result = query_bound(&db, sql, &values, &QueryLimits::default())
        .await
        .unwrap();
    assert_eq!(result.rows, vec![vec![Value::Integer(2)]]);
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);
}

#[wasm_bindgen_test]
async fn writes_are_refused_and_sqlite_errors_come_through() {
    let db = open_demo().await;
    let refused = query(&db, "DELETE FROM orders", &QueryLimits::default()).await;
    assert!(matches!(refused, Err(DbError::Refused(_))), "{refused:?}");
    let missing = query(&db, "SELECT * FROM nosuch", &QueryLimits::default()).await;
    assert_eq!(
        missing,
        Err(DbError::Sqlite("no such table: nosuch".into()))
    );
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);
}

#[wasm_bindgen_test]
async fn a_runaway_query_is_stopped_and_the_next_one_works() {
    let db = open_demo().await;
    let limits = QueryLimits {
        max_rows: 10,
        deadline_ms: 500,
    };
    let endless =
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r";
    let outcome = query(&db, endless, &limits).await;
    assert_eq!(outcome, Err(DbError::Timeout { after_ms: 500 }));
    // A fresh worker reopened the same bytes.
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);

    // Endless rows without an aggregate: the kept rows stand, the total is "more than".
    let endless_rows =
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT x FROM r";
    let result = query(&db, endless_rows, &limits).await.unwrap();
    assert_eq!(result.rows.len(), 10);
    assert!(matches!(result.total_rows, RowCount::MoreThan(n) if n >= 10));
}

#[wasm_bindgen_test]
async fn a_query_nobody_waits_for_any_more_is_stopped_at_once() {
    let db = open_demo().await;
    stop_an_endless_query(&db).await;
    // Had the worker kept counting, this would wait behind it and pass its own 10 s deadline.
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);
}

#[wasm_bindgen_test]
async fn memory_bombs_end_with_an_error() {
    let db = open_demo().await;
    for bomb in [
        "SELECT zeroblob(1500000000)",
        "SELECT printf('%.*c', 2000000000, 'x')",
        // Allowed by SQLite, but too large to hand to the page.
        "SELECT zeroblob(100000000) FROM orders",
    ] {
        let outcome = query(&db, bomb, &QueryLimits::default()).await;
        assert!(outcome.is_err(), "{bomb} returned {outcome:?}");
        assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);
    }
    // Allowed by SQLite, but too large to hand to the page: said so, with what to do.
    let wide = query(
        &db,
        "SELECT zeroblob(20000000) FROM orders",
        &QueryLimits::default(),
    )
    .await;
    assert_eq!(
        wide,
        Err(DbError::TooLarge {
            limit_bytes: 64 * 1024 * 1024
        })
    );
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);
}

#[wasm_bindgen_test]
async fn a_file_that_is_not_a_database_leaves_the_open_one_open() {
    let db = open_demo().await;
    let csv = "id,name\n1,Alice\n".repeat(20);
    let outcome = db.open(&blob(&Uint8Array::from(csv.as_bytes()))).await;
    match outcome {
        Err(DbError::NotADatabase(why)) => assert!(why.contains("text file"), "{why}"),
        other => panic!("expected NotADatabase, got {other:?}"),
    }
    // Right header, nonsense after it: SQLite itself says so.
    let outcome = db.open(&blob(&nonsense_after_the_header())).await;
    assert!(
        matches!(outcome, Err(DbError::NotADatabase(_))),
        "{outcome:?}"
    );
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);
}

#[wasm_bindgen_test]
async fn with_no_worker_running_a_new_file_opens_and_a_bad_one_leaves_it_open() {
    let db = open_demo().await;
    // Three tables of data and the four knowledge tables (askdb_notes, …).
    assert_eq!(count_tables(&db).await, vec![vec![Value::Integer(7)]]);
    // A Stop drops the worker; the next file opens in a fresh one.
    stop_an_endless_query(&db).await;
    db.open(&blob(&empty_database()))
        .await
        .expect("an empty database opens");
    assert_eq!(count_tables(&db).await, vec![vec![Value::Integer(0)]]);

    // Again without a worker: SQLite refuses this file, and the empty database stays open.
    stop_an_endless_query(&db).await;
    let outcome = db.open(&blob(&nonsense_after_the_header())).await;
    assert!(
        matches!(outcome, Err(DbError::NotADatabase(_))),
        "{outcome:?}"
    );
    assert_eq!(count_tables(&db).await, vec![vec![Value::Integer(0)]]);
}

#[wasm_bindgen_test]
async fn export_has_the_pages_it_was_opened_with() {
    let db = open_demo().await;
    let _ = query(&db, "DELETE FROM orders", &QueryLimits::default()).await;
    let exported = db.export().await.expect("export").to_vec();
    let pristine = demo_bytes().await.to_vec();
    assert_eq!(exported.len(), pristine.len());
    // SQLite's backup rewrites these header fields (format bytes, change counter, schema
    // cookie, version-valid-for and the library version); everything else is the same.
    let rewritten = |i: usize| matches!(i, 18..=19 | 24..=27 | 40..=43 | 92..=99);
    let differing: Vec<usize> = (0..pristine.len())
        .filter(|&i| exported[i] != pristine[i] && !rewritten(i))
        .collect();
    assert!(differing.is_empty(), "bytes differ at {differing:?}");
}

#[wasm_bindgen_test]
async fn an_engine_that_cannot_start_says_so() {
    // No worker script at this address: SQLite never starts, and nothing claims a restart.
    let db =
        WorkerDatabase::new(&format!("{}nosuch/worker.js", dist_url().await)).expect("address");
    let outcome = db.open(&blob(&demo_bytes().await)).await;
    match &outcome {
        Err(error @ DbError::Unavailable(_)) => assert!(
            error
                .to_string()
                .starts_with("the SQLite engine could not start: "),
            "{error}"
        ),
        other => panic!("expected Unavailable, got {other:?}"),
    }
    assert!(!db.is_open());
}

#[wasm_bindgen_test]
async fn after_a_crash_the_next_query_runs_on_the_same_data() {
    let db = open_demo().await;
    match db.simulate_crash().await {
        Err(DbError::Crashed {
            why,
            reopened: true,
        }) => assert!(why.contains("Aborted"), "{why}"),
        other => panic!("expected a crash with the data reopened, got {other:?}"),
    }
    // The crashed worker is gone; a fresh one has the demo open again.
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);

    // With nothing open, a crash does not claim that data came back.
    let empty = WorkerDatabase::new(&format!("{}worker.js", dist_url().await)).expect("address");
    let outcome = empty.simulate_crash().await;
    assert!(
        matches!(
            outcome,
            Err(DbError::Crashed {
                reopened: false,
                ..
            })
        ),
        "{outcome:?}"
    );
}

#[wasm_bindgen_test]
async fn derive_applies_a_script_to_a_copy_and_leaves_the_source_and_the_open_database() {
    use askdb::engine::hidden::{derive_script, load_catalogue, Hidden};
    use askdb::engine::schema;

    let db = open_demo().await;
    let whole = schema::load(&db, &QueryLimits::default()).await.unwrap();
    let catalogue = load_catalogue(&db).await.unwrap();
    // As the page does, the knowledge tables go too: their notes name the hidden column.
    let names: Vec<String> = std::iter::once("customers.prefecture")
        .chain(askdb::knowledge::KNOWLEDGE_TABLES)
        .map(String::from)
        .collect();
    let (hidden, _) = Hidden::resolve(&whole, &names);
    let source = blob(&demo_bytes().await);
    let before = bytes_of(&source).await;

    let copy = db
        .derive(&source, &derive_script(&whole, &catalogue, &hidden))
        .await
        .expect("derive");
    assert_eq!(
        bytes_of(&source).await,
        before,
        "the source bytes are untouched"
    );
    let text = String::from_utf8_lossy(&copy.to_vec()).to_lowercase();
    assert!(!text.contains("prefecture") && !text.contains("hokkaido"));

    // The open database is still the whole one, and still read-only.
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);
    let columns = query(
        &db,
        "SELECT prefecture FROM customers",
        &QueryLimits::default(),
    )
    .await;
    assert!(columns.is_ok(), "{columns:?}");

    // The copy opens in an engine of its own, without the column.
    let model = db.sibling();
    model.open(&blob(&copy)).await.expect("the copy opens");
    let seen = schema::load(&model, &QueryLimits::default()).await.unwrap();
    let customers = seen.table("customers").unwrap();
    assert!(customers.column("prefecture").is_none());
    assert_eq!(customers.columns.len(), 3);

    // A script SQLite refuses is an error, and the engine goes on.
    let refused = db.derive(&source, "DROP TABLE nosuch;").await;
    assert!(
        matches!(&refused, Err(DbError::Sqlite(m)) if m.contains("no such table")),
        "{refused:?}"
    );
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);
}

#[wasm_bindgen_test]
async fn an_open_tells_how_much_of_the_file_was_read() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let db =
        WorkerDatabase::new(&format!("{}worker.js", dist_url().await)).expect("worker address");
    // Read in parts (by default only files over 512 MiB are), in several: the demo, then 8 MB
    // that SQLite never reads
    // (the header's page count, valid, says where the database ends), in parts of 64 KiB.
    let parts = js_sys::Array::of1(&demo_bytes().await.into());
    for _ in 0..128 {
        parts.push(&Uint8Array::new_with_length(65_536));
    }
    let file = web_sys::Blob::new_with_u8_array_sequence(&parts).expect("a blob");
    db.read_in_parts_above(1024 * 1024);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let heard = seen.clone();
    db.open_with_progress(&file, move |f| heard.borrow_mut().push(f))
        .await
        .expect("it opens");
    let seen = seen.borrow().clone();
    assert!(seen.len() >= 2, "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    assert!(seen.iter().all(|f| *f > 0.0 && *f <= 1.0), "{seen:?}");
    assert_eq!(count_orders(&db).await, vec![vec![Value::Integer(12)]]);
}

#[wasm_bindgen_test]
async fn the_digest_is_sha256() {
    let db =
        WorkerDatabase::new(&format!("{}worker.js", dist_url().await)).expect("worker address");
    // FIPS 180-2's example: SHA-256("abc").
    let abc = blob(&Uint8Array::from(&b"abc"[..]));
    assert_eq!(
        db.digest(&abc).await.expect("digest"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

/// A source the worker cannot read (here: something that only claims a size, as a `File` whose
/// disk copy went away reads) is the file's problem, said as such: not SQLite's, not the engine's.
#[wasm_bindgen_test]
async fn a_source_that_cannot_be_read_is_said_unreadable() {
    use wasm_bindgen::JsCast;
    let db =
        WorkerDatabase::new(&format!("{}worker.js", dist_url().await)).expect("worker address");
    let claims = js_sys::Object::new();
    js_sys::Reflect::set(&claims, &"size".into(), &10.into()).unwrap();
    let unreadable: web_sys::Blob = claims.unchecked_into();
    match db.digest(&unreadable).await {
        Err(DbError::Unreadable(why)) => {
            assert!(why.contains("changed or went away"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    // Positive control: a real one is read by the same worker code.
    let abc = blob(&Uint8Array::from(&b"abc"[..]));
    assert!(db.digest(&abc).await.is_ok());
}

#[wasm_bindgen_test]
async fn the_page_database_is_identified_by_the_sha256_of_its_bytes() {
    use askdb::engine::identity::Identity;
    use askdb::engine::kind::{CountPolicy, DatabaseKind, HidingMechanism};
    use askdb::engine::page::PageDatabase;

    let demo = demo_bytes().await;
    let worker = format!("{}worker.js", dist_url().await);
    let db =
        PageDatabase::open_in_memory(WorkerDatabase::new(&worker).unwrap(), &blob(&demo), |_| {})
            .await
            .expect("the demo opens");
    assert_eq!(db.kind(), DatabaseKind::InMemory);
    assert_eq!(db.size(), u64::from(demo.length()));
    assert_eq!(db.count_policy(), CountPolicy::Exact);
    assert_eq!(db.hiding(), HidingMechanism::Copy);
    assert_eq!(count_page_orders(&db).await, 12);

    let expected = WorkerDatabase::new(&worker)
        .unwrap()
        .digest(&blob(&demo))
        .await
        .unwrap();
    let identity = db.identity().await.expect("identified");
    assert_eq!(
        identity,
        Identity::Bytes {
            size: u64::from(demo.length()),
            sha256: expected
        }
    );
    // Asked again, the same (computed once: its bytes were let go).
    assert_eq!(db.identity().await, Ok(identity));
    assert_eq!(db.source_bytes().await.unwrap().to_vec(), demo.to_vec());
}

async fn count_page_orders(db: &askdb::engine::page::PageDatabase) -> i64 {
    let result = query(db, "SELECT count(*) FROM orders", &QueryLimits::default())
        .await
        .expect("count runs");
    match result.rows[0][0] {
        Value::Integer(n) => n,
        ref other => panic!("{other:?}"),
    }
}
