//! The copy the agent gets when something is hidden: made by the script `engine::hidden`
//! writes, applied with rusqlite to copies of the test datasets (views, triggers, indexes,
//! foreign keys, AUTOINCREMENT, names with spaces). Nothing hidden is left in its bytes, and
//! everything visible is as it was.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::engine::hidden::Hidden;
use askdb::engine::schema::{self, ForeignKey, Schema, Table};
use askdb::engine::{QueryLimits, TableKind, Value};
use askdb::sql::lexer::{tokenize, TokenKind};
use askdb::sql::quote_ident;
use support::hiding::{
    derive, find_in_bytes, with_secrets, Derived, Scratch, MARKER, SECRET_COLUMN, SECRET_OBJECTS,
    VAULT_COLUMN, VAULT_TABLE,
};
use support::{dataset, RusqliteDb};

fn load_schema(db: &RusqliteDb) -> Schema {
    futures::executor::block_on(schema::load(db, &QueryLimits::default())).expect("schema")
}

/// Adds secrets to `table` of `dataset`, hides them with `also_hidden`, and checks the copy:
/// exactly the views named in `dropped_views` (those that read something hidden) and the
/// secrets' own view are gone, every other view is there.
fn check_dataset(
    dataset_path: &str,
    table: &str,
    also_hidden: &[&str],
    dropped_views: &[&str],
    label: &str,
) {
    let original = with_secrets(&dataset(dataset_path), table, label);
    let secret = format!("{table}.{SECRET_COLUMN}");
    let mut names = vec![secret.as_str(), VAULT_TABLE];
    names.extend_from_slice(also_hidden);
    let derived = derive(&original.0, &names, &format!("{label}-derived"));

    for needle in [MARKER, SECRET_COLUMN, VAULT_TABLE, VAULT_COLUMN]
        .into_iter()
        .chain(SECRET_OBJECTS)
    {
        assert_eq!(
            find_in_bytes(&derived.copy.0, needle),
            None,
            "{label}: {needle:?} is still in the copy's bytes"
        );
    }
    let before = RusqliteDb::open(&original.0);
    let after = RusqliteDb::open(&derived.copy.0);
    let copy = load_schema(&after);
    let dropped: Vec<&str> = dropped_views
        .iter()
        .copied()
        .chain(["askdb_peek_view"])
        .collect();
    let before_schema = load_schema(&before);
    same_visible_schema(&before_schema, &copy, &derived, &dropped, label);
    no_hidden_name_in_the_catalogue(&after, &copy, &derived, label);
    same_visible_rows(&before, &after, &copy, label);
    tables_keep_what_they_do_not_lose(&before, &after, &before_schema, &copy, &derived, label);
    objects_that_name_nothing_hidden_are_kept(&before, &after, &derived.hidden, &dropped, label);
}

/// The copy has exactly the tables and columns that were not hidden, and the views that are not
/// `dropped`, in the same order.
fn same_visible_schema(
    before: &Schema,
    after: &Schema,
    derived: &Derived,
    dropped: &[&str],
    label: &str,
) {
    let hidden = &derived.hidden;
    for view in dropped {
        let was = before.table(view).map(|t| t.kind);
        assert_eq!(
            was,
            Some(TableKind::View),
            "{label}: {view} is not a view of the original"
        );
    }
    let expected: Vec<(String, Vec<String>)> = before
        .tables
        .iter()
        .filter(|t| !hidden.hides_table(&t.name))
        // Views that read something hidden are gone too; the others keep their columns.
        .filter(|t| !dropped.contains(&t.name.as_str()))
        .map(|t| {
            let columns = t
                .columns
                .iter()
                .filter(|c| !hidden.hides_column(&t.name, &c.name))
                .map(|c| c.name.clone())
                .collect();
            (t.name.clone(), columns)
        })
        .collect();
    let actual: Vec<(String, Vec<String>)> = after
        .tables
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                t.columns.iter().map(|c| c.name.clone()).collect(),
            )
        })
        .collect();
    assert_eq!(actual, expected, "{label}: the copy's tables and columns");
    let kept_tables = |schema: &Schema| {
        schema
            .tables
            .iter()
            .filter(|t| t.kind == TableKind::Table && !hidden.hides_table(&t.name))
            .count()
    };
    assert_eq!(
        kept_tables(before),
        kept_tables(after),
        "{label}: every visible table is kept\n{}",
        derived.script
    );
}

/// No statement left in `sqlite_schema` names a hidden table, or a hidden column whose name no
/// visible table has (`Customer.Email` hidden, `Employee.Email` is still there by right).
fn no_hidden_name_in_the_catalogue(
    after: &RusqliteDb,
    copy: &Schema,
    derived: &Derived,
    label: &str,
) {
    let visible_elsewhere = |name: &str| copy.tables.iter().any(|t| t.column(name).is_some());
    let hidden_names: Vec<&String> = derived
        .hidden
        .tables
        .iter()
        .chain(
            derived
                .hidden
                .columns
                .iter()
                .map(|(_, c)| c)
                .filter(|c| !visible_elsewhere(c)),
        )
        .collect();
    for row in after
        .raw_rows("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL")
        .expect("catalogue")
    {
        let Value::Text(sql) = &row[0] else { continue };
        for token in tokenize(sql).expect("SQLite's own text tokenizes") {
            if let Some(name) = token.name() {
                assert!(
                    !hidden_names.iter().any(|h| h.eq_ignore_ascii_case(&name)),
                    "{label}: {name} is still named in {sql}"
                );
            }
        }
    }
}

/// Every table and view of the copy gives the same rows as the original over its columns.
fn same_visible_rows(before: &RusqliteDb, after: &RusqliteDb, copy: &Schema, label: &str) {
    for table in &copy.tables {
        let columns: Vec<String> = table.columns.iter().map(|c| quote_ident(&c.name)).collect();
        let order = match table.kind {
            TableKind::Table => "rowid".to_string(),
            TableKind::View => (1..=columns.len())
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        };
        let sql = format!(
            "SELECT {} FROM {} ORDER BY {order}",
            columns.join(", "),
            quote_ident(&table.name)
        );
        let expected = before.raw_rows(&sql).expect("the original reads");
        let actual = after.raw_rows(&sql).expect("the copy reads");
        assert_eq!(
            expected.len(),
            actual.len(),
            "{label}: rows of {}",
            table.name
        );
        assert!(
            expected == actual,
            "{label}: the rows of {} differ",
            table.name
        );
    }
}

/// True when the foreign key `key` of `table` names nothing hidden.
fn key_is_visible(hidden: &Hidden, table: &Table, key: &ForeignKey) -> bool {
    !hidden.hides_table(&key.to_table)
        && !key
            .from_columns
            .iter()
            .any(|c| hidden.hides_column(&table.name, c))
        && !key
            .to_columns
            .iter()
            .any(|c| hidden.hides_column(&key.to_table, c))
}

/// A table that loses nothing (no hidden column, no foreign key to something hidden) is not
/// rebuilt: it keeps its own statement, with the defaults, `CHECK`s, collations and
/// `AUTOINCREMENT` a rebuilt table does not have (chinook, northwind and sakila have such
/// tables; shop loses something in each). Every table keeps exactly its foreign keys to
/// visible things, columns and all.
fn tables_keep_what_they_do_not_lose(
    before: &RusqliteDb,
    after: &RusqliteDb,
    before_schema: &Schema,
    copy: &Schema,
    derived: &Derived,
    label: &str,
) {
    let hidden = &derived.hidden;
    let statement = |db: &RusqliteDb, table: &str| {
        db.raw_rows(&format!(
            "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = '{}'",
            table.replace('\'', "''")
        ))
        .expect("catalogue")
    };
    for table in before_schema
        .tables
        .iter()
        .filter(|t| t.kind == TableKind::Table && !hidden.hides_table(&t.name))
    {
        let kept_keys: Vec<&ForeignKey> = table
            .foreign_keys
            .iter()
            .filter(|key| key_is_visible(hidden, table, key))
            .collect();
        let in_copy = copy.table(&table.name).expect("a visible table is kept");
        // In any order: a rebuilt table declares them in the order SQLite lists them, which is
        // the reverse of the statement's.
        let sorted = |keys: Vec<&ForeignKey>| {
            let mut keys: Vec<String> = keys.iter().map(|key| format!("{key:?}")).collect();
            keys.sort();
            keys
        };
        assert_eq!(
            sorted(in_copy.foreign_keys.iter().collect()),
            sorted(kept_keys.clone()),
            "{label}: the foreign keys of {}",
            table.name
        );
        let loses_something = kept_keys.len() < table.foreign_keys.len()
            || table
                .columns
                .iter()
                .any(|c| hidden.hides_column(&table.name, &c.name));
        if !loses_something {
            assert_eq!(
                statement(after, &table.name),
                statement(before, &table.name),
                "{label}: {} lost nothing and was rebuilt\n{}",
                table.name,
                derived.script
            );
        }
    }
}

/// Every view, trigger and index whose statement names nothing hidden (a hidden table or
/// column, or a dropped view; in a name, a string or a comment) is in the copy, as it was.
fn objects_that_name_nothing_hidden_are_kept(
    before: &RusqliteDb,
    after: &RusqliteDb,
    hidden: &Hidden,
    dropped_views: &[&str],
    label: &str,
) {
    let forbidden: Vec<String> = hidden
        .tables
        .iter()
        .chain(hidden.columns.iter().map(|(_, column)| column))
        .cloned()
        .chain(dropped_views.iter().map(|v| v.to_string()))
        .map(|name| name.to_lowercase())
        .collect();
    let names_something_hidden = |sql: &str| {
        tokenize(sql)
            .expect("SQLite's own text tokenizes")
            .iter()
            .any(|token| match token.kind {
                TokenKind::String | TokenKind::Comment => {
                    let text = token.text.to_lowercase();
                    forbidden.iter().any(|f| text.contains(f.as_str()))
                }
                _ => token
                    .name()
                    .is_some_and(|name| forbidden.contains(&name.to_lowercase())),
            })
    };
    let objects = |db: &RusqliteDb| -> Vec<Vec<Value>> {
        db.raw_rows(
            "SELECT type, name, sql FROM sqlite_schema \
             WHERE type IN ('view', 'trigger', 'index') AND sql IS NOT NULL ORDER BY type, name",
        )
        .expect("catalogue")
    };
    let original = objects(before);
    let expected: Vec<&Vec<Value>> = original
        .iter()
        .filter(|row| !names_something_hidden(&row[2].to_string()))
        .collect();
    assert!(
        expected.len() < original.len(),
        "{label}: nothing named a hidden thing"
    );
    let actual = objects(after);
    assert_eq!(
        actual.iter().collect::<Vec<_>>(),
        expected,
        "{label}: the views, triggers and indexes kept"
    );
}

/// Northwind's views that read "Order Details", directly or through another view.
const NORTHWIND_DROPPED: &[&str] = &[
    "Invoices",
    "Order Subtotals",
    "Product Sales for 1997",
    "Order Details Extended",
    // Through the views above.
    "Sales Totals by Amount",
    "Summary of Sales by Quarter",
    "Summary of Sales by Year",
    "Category Sales for 1997",
    "Sales by Category",
];
/// Sakila's views that read payment (customer_list names no email).
const SAKILA_DROPPED: &[&str] = &["sales_by_store", "sales_by_film_category"];

#[test]
fn shop_without_a_column_and_a_table_another_one_refers_to() {
    check_dataset(
        "shop/shop.db",
        "customers",
        &["customers.prefecture", "products"],
        &[],
        "shop",
    );
}

#[test]
fn chinook_without_an_email_column_and_invoices() {
    check_dataset(
        "chinook/Chinook_Sqlite.sqlite",
        "Customer",
        &["Customer.Email", "Invoice"],
        &[],
        "chinook",
    );
}

#[test]
fn northwind_without_a_table_whose_name_has_a_space_and_the_views_on_it() {
    check_dataset(
        "northwind/northwind.db",
        "Employees",
        &["Order Details", "Employees.HomePhone"],
        NORTHWIND_DROPPED,
        "northwind",
    );
}

#[test]
fn only_the_views_that_read_something_hidden_are_dropped() {
    let derived = derive(
        &dataset("northwind/northwind.db"),
        &["Order Details"],
        "northwind-views",
    );
    let after = load_schema(&RusqliteDb::open(&derived.copy.0));
    // They share column names (OrderID, ProductID) with the hidden table, not the table.
    for kept in [
        "Orders Qry",
        "Alphabetical list of products",
        "Quarterly Orders",
    ] {
        assert!(after.table(kept).is_some(), "{kept} was dropped");
    }
    // "Sales Totals by Amount" reads "Order Subtotals", which reads the hidden table.
    for dropped in ["Invoices", "Order Subtotals", "Sales Totals by Amount"] {
        assert!(after.table(dropped).is_none(), "{dropped} was kept");
    }
}

#[test]
fn sakila_without_payments_and_emails_its_triggers_and_views_follow() {
    check_dataset(
        "sakila/sakila.db",
        "customer",
        &["payment", "customer.email"],
        SAKILA_DROPPED,
        "sakila",
    );
}

#[test]
fn a_rebuilt_table_keeps_its_key_its_rowids_and_its_indexes() {
    let original = with_secrets(&dataset("chinook/Chinook_Sqlite.sqlite"), "Track", "keys");
    let derived = derive(
        &original.0,
        &[&format!("Track.{SECRET_COLUMN}")],
        "keys-derived",
    );
    let after = RusqliteDb::open(&derived.copy.0);
    let track = load_schema(&after).table("Track").cloned().expect("Track");
    assert_eq!(track.column("TrackId").unwrap().primary_key, 1);
    assert_eq!(track.foreign_keys.len(), 3, "{:?}", track.foreign_keys);
    // The rowid alias survives: the key is the rowid.
    let same = after
        .raw_rows("SELECT count(*) FROM Track WHERE TrackId <> rowid")
        .unwrap();
    assert_eq!(same, vec![vec![Value::Integer(0)]]);
    let indexes = after
        .raw_rows("SELECT name FROM pragma_index_list('Track') ORDER BY name")
        .unwrap();
    let names: Vec<String> = indexes.iter().map(|r| r[0].to_string()).collect();
    assert!(
        names.iter().any(|n| n.starts_with("IFK_Track")),
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n == "askdb_secret_idx"), "{names:?}");
}

#[test]
fn the_original_file_is_not_touched() {
    let original = with_secrets(&dataset("shop/shop.db"), "customers", "untouched");
    let bytes = std::fs::read(&original.0).unwrap();
    let _derived = derive(&original.0, &[VAULT_TABLE], "untouched-derived");
    assert!(std::fs::read(&original.0).unwrap() == bytes);
}

/// A database made by `sql`, in a file of its own.
fn database(sql: &str, label: &str) -> Scratch {
    let file = Scratch::new(label);
    rusqlite::Connection::open(&file.0)
        .expect("create the database")
        .execute_batch(sql)
        .expect("fill the database");
    file
}

/// The rows `sql` gives on the file at `path`.
fn rows(path: &std::path::Path, sql: &str) -> Vec<Vec<Value>> {
    RusqliteDb::open(path)
        .raw_rows(sql)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

#[test]
fn a_rebuilt_table_without_a_key_keeps_its_rows_in_order() {
    // No key: the rowids are SQLite's own, with gaps where rows went (the `VACUUM` that ends
    // the script renumbers them, in order). The index holds every visible column, so that
    // SQLite reads the rows in its order unless the copy asks for their rowids. A column
    // called rowid is data.
    let original = database(
        "CREATE TABLE notes (body TEXT, secret TEXT);
         CREATE INDEX notes_body ON notes (body);
         INSERT INTO notes VALUES ('e', 's'), ('d', 's'), ('c', 's'), ('b', 's'), ('a', 's');
         DELETE FROM notes WHERE body IN ('b', 'd');
         CREATE TABLE odd (\"rowid\" TEXT, body TEXT, secret TEXT);
         INSERT INTO odd VALUES ('r1', 'x', 's'), ('r2', 'y', 's');",
        "rowids",
    );
    let derived = derive(
        &original.0,
        &["notes.secret", "odd.secret"],
        "rowids-derived",
    );
    let notes = "SELECT body FROM notes ORDER BY rowid";
    assert_eq!(rows(&derived.copy.0, notes), rows(&original.0, notes));
    assert_eq!(
        rows(&original.0, notes),
        [["e"], ["c"], ["a"]].map(|[body]| vec![Value::Text(body.into())])
    );
    let odd = "SELECT \"rowid\", body FROM odd ORDER BY body";
    assert_eq!(rows(&derived.copy.0, odd), rows(&original.0, odd));
    // The positive control: both were rebuilt.
    for table in ["notes", "odd"] {
        assert!(
            derived.script.contains(&format!("DROP TABLE \"{table}\"")),
            "{}",
            derived.script
        );
    }
}

#[test]
fn a_without_rowid_table_stays_so_unless_its_key_is_hidden() {
    // `plain` comes first in the catalogue, so that the statement read for `keyed` must be
    // its own; `word` has a column called `without` at its end; `lost` loses its key, and
    // a table without a key cannot be WITHOUT ROWID.
    let original = database(
        "CREATE TABLE plain (id INTEGER PRIMARY KEY, body TEXT, secret TEXT);
         CREATE TABLE keyed (code TEXT PRIMARY KEY, body TEXT, secret TEXT) WITHOUT ROWID;
         CREATE TABLE word (id INTEGER PRIMARY KEY, secret TEXT, without);
         CREATE TABLE lost (code TEXT PRIMARY KEY, body TEXT) WITHOUT ROWID;
         INSERT INTO plain VALUES (7, 'p', 's'), (9, 'q', 's');
         INSERT INTO keyed VALUES ('k1', 'a', 's'), ('k2', 'b', 's');
         INSERT INTO word VALUES (4, 's', 'w');
         INSERT INTO lost VALUES ('l1', 'c'), ('l2', 'd');",
        "without-rowid",
    );
    let derived = derive(
        &original.0,
        &["plain.secret", "keyed.secret", "word.secret", "lost.code"],
        "without-rowid-derived",
    );
    let copy = RusqliteDb::open(&derived.copy.0);
    let has_rowid = |table: &str| copy.raw_rows(&format!("SELECT rowid FROM {table}")).is_ok();
    assert!(!has_rowid("keyed"), "{}", derived.script);
    assert!(has_rowid("plain") && has_rowid("word") && has_rowid("lost"));
    // `id` is the rowid still, in both.
    for table in ["plain", "word"] {
        let same = format!("SELECT count(*) FROM {table} WHERE rowid IS NOT id");
        assert_eq!(rows(&derived.copy.0, &same), [vec![Value::Integer(0)]]);
        let ids = format!("SELECT id FROM {table} ORDER BY id");
        assert_eq!(rows(&derived.copy.0, &ids), rows(&original.0, &ids));
    }
    let keyed = "SELECT code, body FROM keyed ORDER BY code";
    assert_eq!(rows(&derived.copy.0, keyed), rows(&original.0, keyed));
    assert_eq!(
        rows(
            &derived.copy.0,
            "SELECT name, pk FROM pragma_table_info('keyed')"
        ),
        [
            vec![Value::Text("code".into()), Value::Integer(1)],
            vec![Value::Text("body".into()), Value::Integer(0)],
        ]
    );
    assert_eq!(
        rows(&derived.copy.0, "SELECT body FROM lost ORDER BY body"),
        [vec![Value::Text("c".into())], vec![Value::Text("d".into())]]
    );
}

#[test]
fn a_rebuilt_table_keeps_its_composite_key_and_its_keys_to_visible_tables() {
    // A key of two INTEGER columns is not a rowid, and one that loses a column is no key at
    // all (what is left need not be unique); a foreign key may name the other table's
    // columns, or leave them to its primary key.
    let original = database(
        "CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
         CREATE TABLE other (id INTEGER PRIMARY KEY, name TEXT);
         CREATE TABLE pairs (
             a INTEGER, b INTEGER, secret TEXT,
             parent_id REFERENCES parent,
             other_id INTEGER REFERENCES other (id),
             PRIMARY KEY (a, b)
         );
         CREATE TABLE halves (a INTEGER, b INTEGER, body TEXT, PRIMARY KEY (a, b));
         INSERT INTO parent VALUES (1, 'p');
         INSERT INTO other VALUES (2, 'o');
         INSERT INTO pairs VALUES (1, 1, 's', 1, 2), (1, 2, 's', 1, 2), (2, 1, 's', NULL, 2);
         INSERT INTO halves VALUES (1, 1, 'x'), (1, 2, 'y'), (2, 1, 'z');",
        "pairs",
    );
    let derived = derive(&original.0, &["pairs.secret", "halves.b"], "pairs-derived");
    let key = |table: &str| {
        format!("SELECT name, pk FROM pragma_table_info('{table}') WHERE pk > 0 ORDER BY pk")
    };
    assert_eq!(
        rows(&derived.copy.0, &key("pairs")),
        rows(&original.0, &key("pairs"))
    );
    assert_eq!(rows(&derived.copy.0, &key("pairs")).len(), 2);
    assert_eq!(
        rows(&derived.copy.0, &key("halves")),
        Vec::<Vec<Value>>::new()
    );
    let foreign = "SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('pairs') \
                   ORDER BY \"table\"";
    let kept = rows(&derived.copy.0, foreign);
    assert_eq!(kept, rows(&original.0, foreign));
    // The positive control: one key names its columns, the other leaves them to the key.
    assert_eq!(kept.len(), 2);
    assert!(kept.iter().any(|row| row[2] == Value::Null));
    assert!(kept.iter().any(|row| row[2] == Value::Text("id".into())));
    let pairs = "SELECT a, b, parent_id, other_id FROM pairs ORDER BY a, b";
    assert_eq!(rows(&derived.copy.0, pairs), rows(&original.0, pairs));
    let halves = "SELECT a, body FROM halves ORDER BY body";
    assert_eq!(rows(&derived.copy.0, halves), rows(&original.0, halves));
}
