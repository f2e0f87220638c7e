//! The knowledge tables inside a database file (`askdb_notes`, `askdb_glossary`,
//! `askdb_examples`, `askdb_checks`), read through the engine as the page reads them.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::knowledge::{tables, Knowledge, Problem, Source};
use futures::executor::block_on;
use rusqlite::Connection;
use support::hiding::Scratch;
use support::RusqliteDb;

/// A scratch database made by `script`, opened read-only as the page opens one.
fn database(label: &str, script: &str) -> (Scratch, RusqliteDb) {
    let scratch = Scratch::new(&format!("knowledge-{label}"));
    Connection::open(&scratch.0)
        .and_then(|c| c.execute_batch(script))
        .unwrap_or_else(|e| panic!("make the scratch database: {e}"));
    let db = RusqliteDb::open(&scratch.0);
    (scratch, db)
}

fn load(label: &str, script: &str) -> (Knowledge, Vec<String>) {
    let (_scratch, db) = database(label, script);
    let (knowledge, problems) = block_on(tables::load(&db)).expect("the engine answers");
    (knowledge, problems.iter().map(Problem::to_string).collect())
}

#[test]
fn all_four_tables_are_read_in_their_documented_shape() {
    let (knowledge, problems) = load(
        "all",
        "CREATE TABLE orders (id INTEGER PRIMARY KEY, amount INTEGER);
         CREATE TABLE askdb_notes (table_name TEXT, column_name TEXT, note TEXT);
         INSERT INTO askdb_notes VALUES ('orders', NULL, 'one row per order'),
                                        ('orders', '', 'also the table'),
                                        ('orders', 'amount', 'in cents');
         CREATE TABLE ASKDB_Glossary (term TEXT, meaning TEXT, added_by TEXT);
         INSERT INTO askdb_glossary VALUES ('revenue', 'sum of amount', 'me'), (2024, 'a year', NULL);
         CREATE TABLE askdb_examples (question TEXT, sql TEXT);
         INSERT INTO askdb_examples VALUES ('注文は何件？', 'SELECT count(*) FROM orders');
         CREATE TABLE askdb_checks (question TEXT, sql TEXT, also_accepted TEXT);
         INSERT INTO askdb_checks VALUES
             ('How many orders?', 'SELECT count(*) FROM orders', NULL),
             ('Total?', 'SELECT sum(amount) FROM orders', '[\"SELECT total(amount) FROM orders\"]'),
             ('Largest?', 'SELECT max(amount) FROM orders', 'SELECT amount FROM orders ORDER BY 1 DESC LIMIT 1');",
    );
    assert!(problems.is_empty(), "{problems:?}");
    let notes: Vec<_> = knowledge
        .notes
        .iter()
        .map(|n| (n.table.as_str(), n.column.as_deref(), n.text.as_str()))
        .collect();
    assert_eq!(
        notes,
        [
            ("orders", None, "one row per order"),
            ("orders", None, "also the table"),
            ("orders", Some("amount"), "in cents"),
        ]
    );
    let terms: Vec<_> = knowledge.glossary.iter().map(|t| t.term.as_str()).collect();
    assert_eq!(terms, ["revenue", "2024"]);
    assert_eq!(knowledge.examples[0].question, "注文は何件？");
    assert_eq!(knowledge.golden_questions.len(), 3);
    assert!(knowledge.golden_questions[0].also_accepted.is_empty());
    assert_eq!(
        knowledge.golden_questions[1].also_accepted,
        ["SELECT total(amount) FROM orders"]
    );
    assert_eq!(
        knowledge.golden_questions[2].also_accepted,
        ["SELECT amount FROM orders ORDER BY 1 DESC LIMIT 1"]
    );
    assert!(knowledge.notes.iter().all(|n| n.source == Source::Database));
    assert!(knowledge
        .golden_questions
        .iter()
        .all(|c| c.source == Source::Database));
}

#[test]
fn a_database_without_knowledge_tables_has_no_knowledge_and_no_problem() {
    let (_scratch, db) = database("none", "CREATE TABLE t (x);");
    let (knowledge, problems) = block_on(tables::load(&db)).unwrap();
    assert!(knowledge.is_empty());
    assert!(problems.is_empty());
    let (knowledge, problems) = block_on(tables::load(&RusqliteDb::shop())).unwrap();
    assert!(knowledge.is_empty() && problems.is_empty());
}

#[test]
fn a_wrong_shape_is_a_problem_and_the_other_tables_are_still_read() {
    let (knowledge, problems) = load(
        "shape",
        "CREATE TABLE askdb_notes (tbl TEXT, note TEXT);
         INSERT INTO askdb_notes VALUES ('orders', 'lost');
         CREATE TABLE askdb_glossary (term TEXT, meaning BLOB);
         INSERT INTO askdb_glossary VALUES ('ok', 'fine'), ('bad', X'00FF'), (NULL, 'no term'),
                                           ('blank', '   ');
         CREATE VIEW askdb_examples AS SELECT question, sql FROM gone;
         CREATE TABLE askdb_checks (question TEXT, sql TEXT, also_accepted TEXT);
         INSERT INTO askdb_checks VALUES ('q', 'SELECT 1', '[SELECT 2');",
    );
    assert_eq!(knowledge.glossary.len(), 1);
    assert_eq!(knowledge.glossary[0].term, "ok");
    assert!(knowledge.notes.is_empty());
    assert!(knowledge.examples.is_empty());
    assert_eq!(
        knowledge.golden_questions.len(),
        1,
        "the golden question stays, without alternatives"
    );
    assert!(knowledge.golden_questions[0].also_accepted.is_empty());
    assert_eq!(problems.len(), 6, "{problems:#?}");
    assert_eq!(
        problems[0],
        "table askdb_notes (in the database): has no column table_name (it needs table_name, \
         note): skipped"
    );
    assert_eq!(
        problems[1],
        "row 2 of askdb_glossary (in the database): meaning is a blob, not text: skipped"
    );
    assert_eq!(
        problems[2],
        "row 3 of askdb_glossary (in the database): a required value is NULL or empty: skipped"
    );
    assert_eq!(
        problems[3],
        "row 4 of askdb_glossary (in the database): a required value is NULL or empty: skipped"
    );
    assert!(
        problems[4]
            .starts_with("table askdb_examples (in the database): cannot be read (SQLite error:"),
        "{}",
        problems[4]
    );
    assert_eq!(
        problems[5],
        "row 1 of askdb_checks (in the database): also_accepted starts with [ but is not a JSON \
         list of SQL texts: ignored"
    );
}

#[test]
fn huge_values_and_too_many_rows_are_cut_in_sql() {
    let (knowledge, problems) = load(
        "huge",
        "CREATE TABLE askdb_notes (table_name, column_name, note);
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
         INSERT INTO askdb_notes SELECT 't' || i, NULL, 'note ' || i FROM n;
         UPDATE askdb_notes SET note = printf('%.*c', 1000000, 'x') WHERE table_name = 't1';",
    );
    assert_eq!(knowledge.notes.len(), 500);
    // One character more than a note keeps, so that validation cuts it and says so.
    assert_eq!(knowledge.notes[0].text.chars().count(), 2_001);
    assert_eq!(
        problems,
        ["table askdb_notes (in the database): has 600 rows; the first 500 are read"]
    );
}

#[test]
fn the_documented_tables_are_read_without_a_problem() {
    let doc = include_str!("../docs/knowledge-format.md");
    let script = doc
        .split("```sql\n")
        .map(|block| block.split("```").next().unwrap_or_default())
        .find(|block| block.starts_with("CREATE TABLE askdb_notes"))
        .expect("docs/knowledge-format.md shows the knowledge tables");
    let (knowledge, problems) = load(
        "documented",
        &format!(
            "{script}
             INSERT INTO askdb_notes VALUES ('t', NULL, 'n');
             INSERT INTO askdb_glossary VALUES ('term', 'meaning');
             INSERT INTO askdb_examples VALUES ('q', 'SELECT 1');
             INSERT INTO askdb_checks VALUES ('q', 'SELECT 1', '[\"SELECT 1.0\"]');"
        ),
    );
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        (
            knowledge.notes.len(),
            knowledge.glossary.len(),
            knowledge.examples.len()
        ),
        (1, 1, 1)
    );
    assert_eq!(knowledge.golden_questions[0].also_accepted, ["SELECT 1.0"]);
}
