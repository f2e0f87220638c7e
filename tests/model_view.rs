//! What the model sees, decided in one place (`askdb::model_view`) for the page and
//! `askdb-eval`: what is left out (hidden parts, knowledge tables), how that is enforced for a
//! kind of database (nothing, a copy, a refusal), and the schema and knowledge it is given.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::Session;
use askdb::engine::hidden::{load_catalogue, Hidden};
use askdb::engine::kind::{DatabaseKind, HidingMechanism};
use askdb::engine::native::RusqliteDb as NativeDb;
use askdb::engine::{
    schema, Database, DbError, QueryLimits, QueryResult, ReadOnlySql, Schema, Value,
};
use askdb::knowledge::{comments, is_knowledge_table, tables, Knowledge};
use askdb::model_view::{plan, Enforcement, ModelView};
use futures::executor::block_on;
use std::cell::Cell;
use std::path::PathBuf;
use support::RusqliteDb;

/// The demo the page serves: three tables of data, and the four knowledge tables.
fn demo_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("www/demo/shop.db")
}

fn schema_of(db: &impl Database) -> Schema {
    block_on(schema::load(db, &QueryLimits::default())).expect("schema")
}

/// The knowledge the page reads from a file: its schema comments and knowledge tables.
fn knowledge_of(db: &impl Database) -> Knowledge {
    let catalogue = block_on(load_catalogue(db)).expect("catalogue");
    let from_comments = Knowledge {
        notes: comments::from_catalogue(&catalogue),
        ..Knowledge::default()
    };
    let (in_file, _) = block_on(tables::load(db)).expect("knowledge tables");
    Knowledge::merged([from_comments, in_file])
}

fn hidden(schema: &Schema, names: &[&str]) -> Hidden {
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let (hidden, unresolved) = Hidden::resolve(schema, &names);
    assert!(unresolved.is_empty(), "{unresolved:?}");
    hidden
}

/// A database that counts the queries it runs.
struct Counting<'d> {
    inner: &'d RusqliteDb,
    queries: Cell<usize>,
}

impl Database for Counting<'_> {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        self.queries.set(self.queries.get() + 1);
        self.inner.run(sql, values, limits).await
    }
}

#[test]
fn nothing_to_leave_out_is_the_whole_database_and_reads_nothing() {
    let db = RusqliteDb::shop();
    let schema = schema_of(&db);
    assert!(!schema.tables.iter().any(|t| is_knowledge_table(&t.name)));
    let counting = Counting {
        inner: &db,
        queries: Cell::new(0),
    };
    for mechanism in [
        HidingMechanism::Copy,
        DatabaseKind::Remote.hiding(),
        DatabaseKind::LocalFile.hiding(),
    ] {
        let planned = block_on(plan(&counting, &schema, &Hidden::default(), &mechanism)).unwrap();
        assert_eq!(planned.enforcement, Enforcement::Whole, "{mechanism:?}");
        assert!(planned.left_out.is_empty());
    }
    assert_eq!(
        counting.queries.get(),
        0,
        "nothing read when nothing is left out"
    );
    // The positive control: something hidden reads the catalogue for the copy's script.
    let something = hidden(&schema, &["customers.prefecture"]);
    let planned = block_on(plan(&counting, &schema, &something, &HidingMechanism::Copy)).unwrap();
    assert!(matches!(planned.enforcement, Enforcement::Copy { .. }));
    assert!(counting.queries.get() > 0);
}

#[test]
fn the_knowledge_tables_are_left_out_of_a_copy_without_being_the_persons_choice() {
    let db = RusqliteDb::open(&demo_path());
    let schema = schema_of(&db);
    let planned = block_on(plan(
        &db,
        &schema,
        &Hidden::default(),
        &HidingMechanism::Copy,
    ))
    .unwrap();
    let mut left_out = planned.left_out.names();
    left_out.sort();
    assert_eq!(
        left_out,
        [
            "askdb_checks",
            "askdb_examples",
            "askdb_glossary",
            "askdb_notes"
        ]
    );
    let Enforcement::Copy { script } = planned.enforcement else {
        panic!("a copy: {:?}", planned.enforcement);
    };
    assert!(script.contains("DROP TABLE \"askdb_notes\""), "{script}");

    // The copy, as askdb-eval makes it natively (the page's worker runs the same script).
    let copy = NativeDb::derived(&demo_path(), &script).expect("the copy");
    let view = ModelView::new(schema_of(&copy), knowledge_of(&db), &Hidden::default());
    let names: Vec<&str> = view.schema.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["customers", "orders", "products"]);
    // Nothing hidden: the notes on the data all go with the questions.
    assert_eq!(view.knowledge.notes.len(), knowledge_of(&db).notes.len());
    assert!(!view.knowledge.notes.is_empty());
}

#[test]
fn a_hidden_column_is_absent_from_the_copy_and_from_the_knowledge() {
    let db = RusqliteDb::open(&demo_path());
    let schema = schema_of(&db);
    let chosen = hidden(&schema, &["customers.prefecture"]);
    let planned = block_on(plan(&db, &schema, &chosen, &HidingMechanism::Copy)).unwrap();
    assert!(planned.left_out.hides_column("customers", "prefecture"));
    assert!(planned.left_out.hides_table("askdb_glossary"));
    let Enforcement::Copy { script } = planned.enforcement else {
        panic!("a copy");
    };
    let copy = NativeDb::derived(&demo_path(), &script).expect("the copy");
    let view = ModelView::new(schema_of(&copy), knowledge_of(&db), &chosen);
    let customers = view.schema.table("customers").expect("customers");
    assert!(customers.column("prefecture").is_none());
    // The glossary says `customers.prefecture = 'Tokyo'` for 東京都: not sent, and said why.
    // (Golden questions are never shown to the model: "Check the model" asks them, and one
    // that reads a hidden column fails there.)
    let shown = (
        &view.knowledge.notes,
        &view.knowledge.glossary,
        &view.knowledge.examples,
    );
    let sent = serde_json::to_string(&shown).unwrap().to_lowercase();
    assert!(!sent.contains("prefecture"), "{sent}");
    assert!(
        view.left_out
            .iter()
            .any(|p| p.message.contains("prefecture") && p.message.contains("hidden")),
        "{:?}",
        view.left_out
    );
    // The positive control: without the choice, that term goes.
    let open = ModelView::new(schema_of(&copy), knowledge_of(&db), &Hidden::default());
    assert!(open.knowledge.glossary.iter().any(|t| t.term == "東京都"));
}

#[test]
fn a_database_that_cannot_be_copied_refuses_what_is_hidden_and_fences_the_knowledge_tables() {
    let db = RusqliteDb::open(&demo_path());
    let schema = schema_of(&db);
    let chosen = hidden(&schema, &["customers.prefecture"]);
    let mechanism = DatabaseKind::LocalFile.hiding();
    let planned = block_on(plan(&db, &schema, &chosen, &mechanism)).unwrap();
    match planned.enforcement {
        Enforcement::Refused(refusal) => {
            let why = askdb::present::hiding::refusal(&refusal);
            assert!(why.contains("read on demand"), "{why}");
            assert!(why.contains("customers.prefecture must be hidden"), "{why}");
        }
        other => panic!("refused, not {other:?}"),
    }
    // Only the knowledge tables to leave out: fenced off by name (never the whole database in
    // silence), the fence naming them.
    let planned = block_on(plan(&db, &schema, &Hidden::default(), &mechanism)).unwrap();
    match planned.enforcement {
        Enforcement::Fenced { fence } => assert!(fence.holds("askdb_notes"), "{fence:?}"),
        other => panic!("fenced, not {other:?}"),
    }
}

#[test]
fn the_model_is_never_shown_the_knowledge_tables_whatever_schema_it_is_given() {
    let db = RusqliteDb::open(&demo_path());
    let whole = schema_of(&db);
    assert!(whole.tables.iter().any(|t| is_knowledge_table(&t.name)));
    let view = ModelView::new(whole.clone(), knowledge_of(&db), &Hidden::default());
    assert!(!view
        .schema
        .tables
        .iter()
        .any(|t| is_knowledge_table(&t.name)));
    // A session made from the view, or from the whole schema, shows the same.
    assert_eq!(Session::for_view(view.clone()).schema(), &view.schema);
    assert_eq!(Session::new(whole).schema(), &view.schema);
    assert_eq!(Session::for_view(view.clone()).knowledge(), &view.knowledge);
}

/// A catalogue entry of `kind` named `name`, made by `sql`.
fn entry(
    kind: askdb::engine::hidden::ObjectKind,
    name: &str,
    sql: &str,
) -> askdb::engine::hidden::CatalogueEntry {
    askdb::engine::hidden::CatalogueEntry {
        kind,
        name: name.into(),
        table: name.into(),
        sql: Some(sql.into()),
    }
}

#[test]
fn the_knowledge_fence_holds_every_object_that_reads_a_knowledge_table_however_deep() {
    use askdb::engine::hidden::ObjectKind::{Index, Table, Trigger, View};
    use askdb::model_view::knowledge_fence;
    let catalogue = [
        entry(
            Table,
            "askdb_checks",
            "CREATE TABLE askdb_checks (question TEXT, sql TEXT)",
        ),
        entry(
            Table,
            "orders",
            "CREATE TABLE orders (id INTEGER PRIMARY KEY)",
        ),
        // Made in this order, a view over a view over a view is only found by going round.
        entry(View, "c", "CREATE VIEW c AS SELECT * FROM \"B\""),
        entry(View, "b", "CREATE VIEW b AS SELECT * FROM [a]"),
        entry(
            View,
            "a",
            "CREATE VIEW a AS SELECT * FROM main.ASKDB_CHECKS",
        ),
        entry(View, "plain", "CREATE VIEW plain AS SELECT * FROM orders"),
        // A full-text index on it, and its shadow tables, which hold its text.
        entry(
            Table,
            "fts",
            "CREATE VIRTUAL TABLE fts USING fts5(question, content='askdb_checks')",
        ),
        entry(
            Table,
            "fts_content",
            "CREATE TABLE 'fts_content'(id INTEGER PRIMARY KEY, c0)",
        ),
        entry(
            Table,
            "askdb_checks_fts_data",
            "CREATE TABLE 'askdb_checks_fts_data'(id, block)",
        ),
        // Not read by a SELECT: an index and a trigger.
        entry(
            Index,
            "by_question",
            "CREATE INDEX by_question ON askdb_checks(question)",
        ),
        entry(
            Trigger,
            "t",
            "CREATE TRIGGER t AFTER INSERT ON orders BEGIN DELETE FROM askdb_checks; END",
        ),
        // A view whose text cannot be read counts as reading one.
        entry(View, "odd", "CREATE VIEW odd AS SELECT 'never closed"),
        // An ordinary table whose text names one holds its own rows, not the notes': only views
        // and virtual tables read what their text names.
        entry(
            Table,
            "audit",
            "CREATE TABLE audit (what TEXT CHECK (what <> 'askdb_notes'))",
        ),
    ];
    let fence = knowledge_fence(&catalogue);
    for name in [
        "askdb_checks",
        "askdb_notes",
        "a",
        "b",
        "c",
        "fts",
        "fts_content",
        "askdb_checks_fts_data",
        "odd",
        "sqlite_stat4",
    ] {
        assert!(fence.holds(name), "{name} is not fenced");
    }
    for name in ["orders", "plain", "by_question", "t", "audit"] {
        assert!(!fence.holds(name), "{name} is fenced");
    }

    // The schema the model is shown leaves out what the fence holds, and only that.
    use askdb::engine::schema::TableKind;
    let table = |name: &str, kind| askdb::engine::schema::Table {
        name: name.into(),
        kind,
        columns: Vec::new(),
        foreign_keys: Vec::new(),
        row_count: None,
    };
    let schema = Schema {
        tables: vec![
            table("a", TableKind::View),
            table("audit", TableKind::Table),
            table("orders", TableKind::Table),
            table("plain", TableKind::View),
        ],
    };
    let shown = askdb::model_view::without_fenced(schema, &fence);
    let names: Vec<&str> = shown.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["audit", "orders", "plain"]);
}

/// A server that answers at most `cap` rows a query (Datasette's `max_returned_rows`), and
/// says that it cut them.
struct Capped<'d> {
    inner: &'d NativeDb,
    cap: usize,
}

impl Database for Capped<'_> {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        let mut result = self.inner.run(sql, values, limits).await?;
        if result.rows.len() > self.cap {
            result.rows.truncate(self.cap);
            result.truncated = true;
        }
        Ok(result)
    }
}

#[test]
fn a_catalogue_longer_than_a_servers_row_cap_is_read_whole_part_by_part() {
    let db = NativeDb::open(&demo_path()).unwrap();
    let whole = block_on(load_catalogue(&db)).unwrap();
    assert!(whole.len() > 4, "{}", whole.len());
    let capped = Capped { inner: &db, cap: 2 };
    assert_eq!(block_on(load_catalogue(&capped)).unwrap(), whole);
}
