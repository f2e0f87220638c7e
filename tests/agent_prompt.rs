//! The system prompt carries the schema up front: all of it when small, the table names with
//! row counts when large (the model then asks `describe_table`).
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

#[test]
fn a_large_schema_is_given_as_names_with_row_counts() {
    let db = RusqliteDb::open(&support::dataset("mondial/mondial.db"));
    let (prompt, session) = prompt_for(&db);
    let tables = &session.schema().tables;
    assert!(tables.len() > 30, "{} tables", tables.len());
    assert!(prompt.contains(&format!(
        "The database has {} tables and views",
        tables.len()
    )));
    assert!(prompt.contains("describe_table(table)"));
    for table in tables {
        let count = table.row_count.expect("counted").to_string();
        let listed = format!("{} ({count})", table.name);
        let quoted = format!("\"{}\" ({count})", table.name);
        assert!(
            prompt.contains(&listed) || prompt.contains(&quoted),
            "{listed}"
        );
    }
    // No column lists: the model asks for the tables it needs.
    let first = &tables[0];
    let typed = format!("{} {}", first.columns[0].name, first.columns[0].decl_type);
    assert!(!prompt.contains(&typed), "{typed}");
}

#[test]
fn names_that_need_quoting_are_quoted() {
    let db = RusqliteDb::open(&support::dataset("northwind/northwind.db"));
    let (prompt, _) = prompt_for(&db);
    assert!(prompt.contains("\"Order Details\" ("), "{prompt}");
}
