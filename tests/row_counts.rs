//! Row counts without scans (`engine::schema::count_rows`): exact in a small file, up to a cap
//! then `sqlite_stat1`'s estimate or "more than" in a large one, statistics only (or unknown)
//! where nothing may be stepped; and the model is told which counts are exact (the prompt,
//! `list_tables`, `describe_table`).
#![cfg(not(target_arch = "wasm32"))] // rusqlite

mod support;

use askdb::agent::{system_prompt, AgentConfig, Mode, Session};
use askdb::engine::kind::CountPolicy;
use askdb::engine::{schema, QueryLimits, RowCount, Schema};
use askdb::knowledge::Knowledge;
use futures::executor::block_on;
use rusqlite::Connection;
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use support::scripted_llm::{ask, call, calls, final_answer};
use support::RusqliteDb;

/// A file of its own, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// `small` (5 rows), `plain` (250 rows, never analyzed), `analyzed` (250 rows, with
/// statistics), `stale` (250 rows, whose statistics say 40) and a view.
fn database(label: &str) -> Scratch {
    let path = std::env::temp_dir().join(format!("askdb-counts-{}-{label}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let connection = Connection::open(&path).expect("create");
    connection
        .execute_batch(
            "CREATE TABLE small(id INTEGER PRIMARY KEY, v TEXT);
             CREATE TABLE plain(id INTEGER PRIMARY KEY, v TEXT);
             CREATE TABLE analyzed(id INTEGER PRIMARY KEY, v TEXT);
             CREATE INDEX analyzed_v ON analyzed(v);
             CREATE TABLE stale(id INTEGER PRIMARY KEY, v TEXT);
             CREATE VIEW small_view AS SELECT * FROM small;
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250)
             INSERT INTO plain(v) SELECT 'x' || i FROM n;
             INSERT INTO analyzed(v) SELECT v FROM plain;
             INSERT INTO stale(v) SELECT v FROM plain;
             INSERT INTO small(v) SELECT v FROM plain LIMIT 5;
             ANALYZE analyzed;
             ANALYZE stale;
             UPDATE sqlite_stat1 SET stat = '40' WHERE tbl = 'stale';",
        )
        .expect("fill");
    Scratch(path)
}

fn counts(db: &RusqliteDb, policy: CountPolicy) -> Vec<(String, Option<RowCount>)> {
    let schema = block_on(schema::load_counting(db, policy, &QueryLimits::default())).unwrap();
    schema
        .tables
        .into_iter()
        .map(|t| (t.name, t.row_count))
        .collect()
}

fn named(list: &[(&str, Option<RowCount>)]) -> Vec<(String, Option<RowCount>)> {
    list.iter().map(|(n, c)| (n.to_string(), *c)).collect()
}

#[test]
fn a_small_file_in_memory_is_counted_exactly() {
    let file = database("exact");
    let db = RusqliteDb::open(&file.0);
    assert_eq!(
        counts(&db, CountPolicy::Exact),
        named(&[
            ("analyzed", Some(RowCount::Exact(250))),
            ("plain", Some(RowCount::Exact(250))),
            ("small", Some(RowCount::Exact(5))),
            ("small_view", None),
            ("stale", Some(RowCount::Exact(250))),
        ])
    );
}

#[test]
fn past_the_cap_a_count_is_the_statistics_estimate_or_more_than_the_cap() {
    let file = database("capped");
    let db = RusqliteDb::open(&file.0);
    assert_eq!(
        counts(&db, CountPolicy::UpTo(100)),
        named(&[
            ("analyzed", Some(RowCount::Estimated(250))),
            ("plain", Some(RowCount::MoreThan(100))),
            ("small", Some(RowCount::Exact(5))),
            ("small_view", None),
            // Statistics that say fewer rows than were just stepped are out of date.
            ("stale", Some(RowCount::MoreThan(100))),
        ])
    );
    // Exactly at the cap is still exact.
    assert_eq!(
        counts(&db, CountPolicy::UpTo(250))[1],
        ("plain".to_string(), Some(RowCount::Exact(250)))
    );
}

#[test]
fn where_no_row_may_be_stepped_only_the_statistics_count() {
    let file = database("none");
    let db = RusqliteDb::open(&file.0);
    assert_eq!(
        counts(&db, CountPolicy::UpTo(0)),
        named(&[
            ("analyzed", Some(RowCount::Estimated(250))),
            ("plain", None),
            ("small", None),
            ("small_view", None),
            ("stale", Some(RowCount::Estimated(40))),
        ])
    );
    // The count button's count is exact whatever the statistics say.
    let exact = block_on(schema::count_table(&db, "stale", &QueryLimits::default()));
    assert_eq!(exact, Ok(RowCount::Exact(250)));
}

#[test]
fn a_database_without_statistics_is_not_an_error() {
    let db = RusqliteDb::shop();
    let counted = counts(&db, CountPolicy::UpTo(0));
    assert!(
        counted.iter().all(|(_, count)| count.is_none()),
        "{counted:?}"
    );
    // The positive control: the shop's tables are there, and count when allowed.
    assert_eq!(counted.len(), 3);
    assert!(counts(&db, CountPolicy::UpTo(100))
        .iter()
        .all(|(_, count)| matches!(count, Some(RowCount::Exact(_)))));
}

fn capped_schema(db: &RusqliteDb) -> Schema {
    block_on(schema::load_counting(
        db,
        CountPolicy::UpTo(100),
        &QueryLimits::default(),
    ))
    .unwrap()
}

#[test]
fn the_prompt_says_which_counts_are_not_exact() {
    let file = database("prompt");
    let db = RusqliteDb::open(&file.0);
    let mut schema = capped_schema(&db);
    schema.tables.retain(|t| t.name != "stale");
    schema
        .tables
        .iter_mut()
        .find(|t| t.name == "small")
        .unwrap()
        .row_count = None;
    for mode in [Mode::Sql, Mode::Safe] {
        let config = AgentConfig {
            mode,
            ..AgentConfig::default()
        };
        let prompt = system_prompt(&schema, &Knowledge::default(), &config);
        assert!(
            prompt.contains("Row counts are exact unless written \"more than N\""),
            "{mode:?}: {prompt}"
        );
        if mode == Mode::Sql {
            assert!(
                prompt.contains("analyzed (about 250, estimated)"),
                "{prompt}"
            );
            assert!(prompt.contains("plain (more than 100)"), "{prompt}");
            assert!(prompt.contains("small (rows not counted)"), "{prompt}");
            assert!(prompt.contains("view small_view (view)"), "{prompt}");
        }
    }
    // Where every count is exact, the prompt is as it was: no sentence about counts.
    let exact = block_on(schema::load(&db, &QueryLimits::default())).unwrap();
    let prompt = system_prompt(&exact, &Knowledge::default(), &AgentConfig::default());
    assert!(!prompt.contains("Row counts are exact"), "{prompt}");
    assert!(prompt.contains("analyzed (250)"), "{prompt}");
}

#[test]
fn list_tables_and_describe_table_say_which_counts_are_not_exact() {
    let file = database("tools");
    let db = RusqliteDb::open(&file.0);
    let mut schema = capped_schema(&db);
    schema
        .tables
        .iter_mut()
        .find(|t| t.name == "small")
        .unwrap()
        .row_count = None;
    let mut session = Session::new(schema);
    let episode = ask(
        &db,
        &mut session,
        "?",
        vec![
            calls(vec![
                call("1", "list_tables", json!({})),
                call("2", "describe_table", json!({ "table": "analyzed" })),
                call("3", "describe_table", json!({ "table": "small" })),
            ]),
            calls(vec![final_answer("end", "done", "SELECT 1")]),
        ],
    );
    let results = episode.results_in(1);
    let json = |i: usize| -> Json { serde_json::from_str(&results[i].content).unwrap() };
    assert_eq!(
        json(0)["tables"],
        json!([
            {"name": "analyzed", "rows": "about 250, estimated", "columns": 2},
            {"name": "plain", "rows": "more than 100", "columns": 2},
            {"name": "small", "rows": "rows not counted", "columns": 2},
            {"name": "small_view", "kind": "View", "columns": 2},
            {"name": "stale", "rows": "more than 100", "columns": 2},
        ])
    );
    assert_eq!(json(1)["rows"], json!("about 250, estimated"));
    assert_eq!(json(1)["statistics_from"], json!("the first 10000 rows"));
    assert_eq!(json(2)["rows"], json!("rows not counted"));
    assert_eq!(
        json(2)["statistics_from"],
        json!("at most the first 10000 rows (its rows are not counted)")
    );
}
