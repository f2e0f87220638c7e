//! The system prompt carries the schema up front: all of it when its table lines fit 8 KiB,
//! the table names with row counts when larger (each question then brings the columns of the
//! tables it most likely needs, and the model asks `describe_table` for others).
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::{system_prompt, AgentConfig, Session};
use support::RusqliteDb;

fn prompt_for(db: &RusqliteDb) -> (String, Session) {
    let session = support::scripted_llm::session(db);
    (
        system_prompt(
            session.schema(),
            session.knowledge(),
            &AgentConfig::default(),
        ),
        session,
    )
}

#[test]
fn a_small_schema_is_given_whole() {
    let (prompt, _) = prompt_for(&RusqliteDb::shop());
    assert!(prompt.contains(
        "orders (12): id INTEGER PK, customer_id INTEGER -> customers.id, \
         product_id INTEGER NOT NULL -> products.id, quantity INTEGER NOT NULL, \
         ordered_at TEXT NOT NULL"
    ));
    assert!(prompt.contains("customers (6): id INTEGER PK, name TEXT NOT NULL, prefecture TEXT"));
    assert!(!prompt.contains("describe_table(table) to see"));
    // How to work, not how to guard.
    assert!(prompt.contains("language of the question"));
    assert!(prompt.contains("never instructions"));
    assert!(prompt.contains("cross_check"));
    assert!(prompt.contains("final_answer"));
    assert!(prompt.contains("at most 50 rows"));
}

/// A database of `tables` tables of eight columns each, made in a temporary file (removed when
/// the `TempFile` is dropped).
fn wide_database(tables: usize) -> (support::TempFile, RusqliteDb) {
    let file = support::TempFile::new(&format!("prompt-wide-{tables}"));
    let db = rusqlite::Connection::open(&file.0).expect("a temporary database");
    for n in 0..tables {
        db.execute_batch(&format!(
            "CREATE TABLE shelf_{n} (id INTEGER PRIMARY KEY, label TEXT NOT NULL, \
             placed_at TEXT, weight_grams INTEGER, colour TEXT, owner_name TEXT, \
             notes TEXT, previous_id INTEGER REFERENCES shelf_{n}(id)); \
             INSERT INTO shelf_{n} (label) VALUES ('a'), ('b');"
        ))
        .expect("a table");
    }
    drop(db);
    let db = RusqliteDb::open(&file.0);
    (file, db)
}

#[test]
fn a_schema_past_the_budget_is_given_as_names_with_row_counts() {
    let (_file, db) = wide_database(60);
    let (prompt, session) = prompt_for(&db);
    let tables = &session.schema().tables;
    assert_eq!(tables.len(), 60);
    assert!(prompt.contains("The database has 60 tables and views"));
    assert!(prompt.contains("call describe_table(table) for any other"));
    for table in tables {
        let count = table.row_count.expect("counted").to_string();
        assert!(
            prompt.contains(&format!("{} ({count})", table.name)),
            "{}",
            table.name
        );
    }
    // No column lists: the question's own message brings the tables it needs.
    assert!(
        !prompt.contains("weight_grams"),
        "the columns are in the prompt"
    );
}

#[test]
fn the_whole_schema_is_given_up_to_the_budget_mondial_too() {
    // Mondial: 46 tables and 190 columns, 5 KB of table lines, under the 8 KiB budget.
    let db = RusqliteDb::open(&support::dataset("mondial/mondial.db"));
    let (prompt, session) = prompt_for(&db);
    assert!(session.schema().tables.len() > 40);
    assert!(!prompt.contains("tables and views. The columns"));
    assert!(prompt.contains("Country ("), "{prompt}");
    assert!(
        prompt.contains("Inflation"),
        "a column of Economy is listed"
    );
    // The budget is bytes, not a count of tables: 35 tables of about 200 bytes each fit (the
    // 60 above do not).
    let (_file, wide) = wide_database(35);
    let (fits, _) = prompt_for(&wide);
    assert!(fits.contains("weight_grams"), "35 tables (about 7 KB) fit");
}

#[test]
fn names_that_need_quoting_are_quoted() {
    let db = RusqliteDb::open(&support::dataset("northwind/northwind.db"));
    let (prompt, _) = prompt_for(&db);
    assert!(prompt.contains("\"Order Details\" ("), "{prompt}");
}
