//! The demo database teaches askdb its data: schema comments and the four knowledge tables,
//! all of which pass validation against its schema, and golden questions whose SQL is right on
//! its rows. Its data stays the reference shop's (`tests/datasets/shop`), row for row.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::engine::hidden::load_catalogue;
use askdb::engine::{query, schema, QueryLimits, Value};
use askdb::knowledge::{comments, tables, Knowledge, Source};
use futures::executor::block_on;
use std::path::Path;
use support::RusqliteDb;

fn demo() -> RusqliteDb {
    RusqliteDb::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("www/demo/shop.db"))
}

fn demo_knowledge(db: &RusqliteDb) -> Knowledge {
    let catalogue = block_on(load_catalogue(db)).unwrap();
    let from_schema = Knowledge {
        notes: comments::from_catalogue(&catalogue),
        ..Knowledge::default()
    };
    let (from_tables, problems) = block_on(tables::load(db)).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let schema = block_on(schema::load(db, &QueryLimits::default())).unwrap();
    let (knowledge, problems) = Knowledge::merged([from_schema, from_tables]).validated(&schema);
    assert!(problems.is_empty(), "{problems:?}");
    knowledge
}

#[test]
fn the_demo_knowledge_comes_from_comments_and_tables_and_passes_validation() {
    let knowledge = demo_knowledge(&demo());
    let note = |table: &str, column: Option<&str>| {
        let found = match column {
            Some(column) => knowledge.column_note(table, column),
            None => knowledge.table_note(table),
        };
        found.unwrap_or_else(|| panic!("a note on {table} {column:?}"))
    };
    assert_eq!(note("orders", None).source, Source::Schema);
    assert!(note("customers", Some("prefecture"))
        .text
        .contains("'Tokyo' (東京都)"));
    assert_eq!(
        note("customers", Some("joined_at")).source,
        Source::Database
    );
    assert_eq!(note("products", None).source, Source::Database);
    assert!(note("orders", Some("customer_id"))
        .text
        .starts_with("the buyer"));
    assert!(knowledge.glossary.iter().any(|t| t.term == "東京都"));
    assert!((3..=5).contains(&knowledge.examples.len()));
    assert!(knowledge.examples.iter().any(|e| !e.question.is_ascii()));
    assert!((5..=8).contains(&knowledge.golden_questions.len()));
}

#[test]
fn every_golden_question_and_example_of_the_demo_answers_on_its_rows() {
    let db = demo();
    let knowledge = demo_knowledge(&db);
    let rows = |sql: &str| {
        block_on(query(&db, sql, &QueryLimits::default()))
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
            .rows
    };
    let answers: Vec<Vec<Vec<Value>>> = knowledge
        .golden_questions
        .iter()
        .map(|c| rows(&c.sql))
        .collect();
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(answers[0], [[Value::Integer(6)]]);
    assert_eq!(answers[1], [[Value::Integer(4)]]);
    assert_eq!(answers[2], [[Value::Integer(406_000)]]);
    assert_eq!(
        answers[3],
        [
            [text("Alice")],
            [text("Bob")],
            [text("Carol")],
            [text("Frank")]
        ]
    );
    assert_eq!(answers[4], [[text("Alice")], [text("Evan")]]);
    assert_eq!(answers[5], [[text("Bottle")]]);
    assert_eq!(answers[6], [[Value::Integer(1)]]);
    assert_eq!(answers[7].len(), 5);
    for golden in &knowledge.golden_questions {
        for other in &golden.also_accepted {
            assert_eq!(rows(other).len(), rows(&golden.sql).len(), "{other}");
        }
    }
    for example in &knowledge.examples {
        assert!(!rows(&example.sql).is_empty(), "{}", example.question);
    }
}

#[test]
fn the_demo_keeps_the_reference_shop_data_row_for_row() {
    let demo = demo();
    let reference = RusqliteDb::shop();
    for table in ["customers", "products", "orders"] {
        let sql = format!("SELECT * FROM {table} ORDER BY rowid");
        assert_eq!(
            demo.raw_rows(&sql).unwrap(),
            reference.raw_rows(&sql).unwrap(),
            "{table}"
        );
    }
}

#[test]
fn the_chinook_notes_file_reads_and_passes_validation_on_chinook() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/examples/chinook");
    let text = std::fs::read_to_string(root.join("chinook.knowledge.json")).unwrap();
    let (knowledge, problems) = askdb::knowledge::sidecar::read(&text).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let db = RusqliteDb::open(&root.join("Chinook_Sqlite.sqlite"));
    let schema = block_on(schema::load(&db, &QueryLimits::default())).unwrap();
    let (validated, problems) = knowledge.clone().validated(&schema);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(validated.notes.len(), knowledge.notes.len());
    assert_eq!(validated.golden_questions.len(), 5);
    for sql in validated.examples.iter().map(|e| &e.sql).chain(
        validated
            .golden_questions
            .iter()
            .flat_map(|c| std::iter::once(&c.sql).chain(&c.also_accepted)),
    ) {
        let result = block_on(query(&db, sql, &QueryLimits::default())).unwrap();
        assert!(!result.rows.is_empty(), "{sql}");
    }
}
