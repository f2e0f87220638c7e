//! Schema comments read as notes on real schemas: every table of the German Spider databases
//! and Northwind (quoted names, spaces, umlauts) written again with a comment on each column in
//! the three styles the rules know, made by SQLite, read back from `sqlite_schema`.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::engine::hidden::load_catalogue;
use askdb::engine::{schema, QueryLimits, Schema};
use askdb::knowledge::comments::from_catalogue;
use askdb::sql::{ident, quote_ident};
use futures::executor::block_on;
use rusqlite::Connection;
use support::hiding::Scratch;
use support::{dataset, RusqliteDb};

fn schema_of(db: &RusqliteDb) -> Schema {
    block_on(schema::load(db, &QueryLimits::default())).expect("schema")
}

/// Each table of `schema` as a `CREATE TABLE` with a comment on every column: same line after
/// the comma, same line before it, or on its own line above the column.
fn commented_script(schema: &Schema) -> String {
    let mut script = String::new();
    for table in schema
        .tables
        .iter()
        .filter(|t| t.kind == askdb::engine::TableKind::Table)
    {
        script.push_str(&format!(
            "CREATE TABLE {} ( -- table {}\n",
            quote_ident(&table.name),
            table.name
        ));
        let last = table.columns.len() - 1;
        for (n, column) in table.columns.iter().enumerate() {
            let comma = if n == last { "" } else { "," };
            let definition = format!("{} {}", ident(&column.name), column.decl_type);
            let about = format!("about {}", column.name);
            let line = match n % 3 {
                0 => format!("  {definition}{comma} -- {about}\n"),
                1 => format!("  {definition} /* {about} */{comma}\n"),
                _ => format!("  -- {about}\n  {definition}{comma}\n"),
            };
            script.push_str(&line);
        }
        script.push_str(");\n");
    }
    script
}

fn check_dataset(relative: &str, label: &str) -> usize {
    let original = RusqliteDb::open(&dataset(relative));
    let schema = schema_of(&original);
    let scratch = Scratch::new(&format!("comments-{label}"));
    Connection::open(&scratch.0)
        .and_then(|c| c.execute_batch(&commented_script(&schema)))
        .unwrap_or_else(|e| panic!("{relative}: {e}"));
    let copy = RusqliteDb::open(&scratch.0);
    let catalogue = block_on(load_catalogue(&copy)).expect("catalogue");
    let notes = from_catalogue(&catalogue);
    let mut expected = 0;
    for table in schema
        .tables
        .iter()
        .filter(|t| t.kind == askdb::engine::TableKind::Table)
    {
        let table_note = notes
            .iter()
            .find(|n| n.table == table.name && n.column.is_none())
            .unwrap_or_else(|| panic!("{relative}: no note on {}", table.name));
        assert_eq!(table_note.text, format!("table {}", table.name));
        for column in &table.columns {
            let found: Vec<&str> = notes
                .iter()
                .filter(|n| n.table == table.name && n.column.as_deref() == Some(&column.name))
                .map(|n| n.text.as_str())
                .collect();
            assert_eq!(
                found,
                [format!("about {}", column.name)],
                "{relative}: {}.{}",
                table.name,
                column.name
            );
            expected += 1;
        }
        expected += 1;
    }
    assert_eq!(
        notes.len(),
        expected,
        "{relative}: no note for a name that does not exist"
    );
    expected
}

#[test]
fn every_column_of_the_german_spider_databases_gets_its_own_comment() {
    let root = dataset("spider_de/database");
    let mut databases: Vec<_> = std::fs::read_dir(&root)
        .expect("spider_de databases")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .into_string()
                .expect("name")
        })
        .collect();
    databases.sort();
    let mut notes = 0;
    for name in &databases {
        notes += check_dataset(&format!("spider_de/database/{name}/{name}.sqlite"), name);
    }
    assert!(
        databases.len() >= 10 && notes > 100,
        "{} databases, {notes} notes",
        databases.len()
    );
}

#[test]
fn northwind_with_order_details_gets_its_comments() {
    check_dataset("northwind/northwind.db", "northwind");
}

#[test]
fn the_datasets_as_shipped_have_no_comment_notes_on_names_they_lack() {
    for relative in [
        "northwind/northwind.db",
        "chinook/Chinook_Sqlite.sqlite",
        "shop/shop.db",
    ] {
        let db = RusqliteDb::open(&dataset(relative));
        let schema = schema_of(&db);
        for note in from_catalogue(&block_on(load_catalogue(&db)).unwrap()) {
            let table = schema.table(&note.table).expect("a table it has");
            if let Some(column) = &note.column {
                assert!(table.column(column).is_some(), "{relative}: {column}");
            }
        }
    }
}
