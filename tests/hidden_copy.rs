//! The copy the agent gets when something is hidden: made by the script `engine::hidden`
//! writes, applied with rusqlite to copies of the test datasets (views, triggers, indexes,
//! foreign keys, AUTOINCREMENT, names with spaces). Nothing hidden is left in its bytes, and
//! everything visible is as it was.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::engine::schema::{self, Schema};
use askdb::engine::{QueryLimits, TableKind, Value};
use askdb::sql::lexer::tokenize;
use askdb::sql::quote_ident;
use support::hiding::{
    derive, find_in_bytes, with_secrets, Derived, MARKER, SECRET_COLUMN, SECRET_OBJECTS,
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
    same_visible_schema(&load_schema(&before), &copy, &derived, &dropped, label);
    no_hidden_name_in_the_catalogue(&after, &copy, &derived, label);
    same_visible_rows(&before, &after, &copy, label);
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
