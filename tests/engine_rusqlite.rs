//! The rusqlite test backend and the schema reader, on the reference shop database.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::engine::{query, schema, DbError, QueryLimits, RowCount, TableKind, Value};
use futures::executor::block_on;
use support::RusqliteDb;

#[test]
fn counts_orders_and_caps_rows() {
    let db = RusqliteDb::shop();
    let limits = QueryLimits {
        max_rows: 5,
        deadline_ms: 5_000,
    };
    let result = block_on(query(&db, "SELECT count(*) FROM orders", &limits)).unwrap();
    assert_eq!(result.rows, vec![vec![Value::Integer(12)]]);
    let result = block_on(query(&db, "SELECT * FROM orders", &limits)).unwrap();
    assert_eq!(result.rows.len(), 5);
    assert!(result.truncated);
    assert_eq!(result.total_rows, RowCount::Exact(12));
}

#[test]
fn zero_rows_still_name_their_columns() {
    let db = RusqliteDb::shop();
    let sql = "SELECT id, name FROM customers WHERE prefecture = '東京都'";
    let result = block_on(query(&db, sql, &QueryLimits::default())).unwrap();
    assert_eq!(result.columns, vec!["id", "name"]);
    assert!(result.rows.is_empty());
}

#[test]
fn runaway_query_stops_at_its_deadline() {
    let db = RusqliteDb::shop();
    let limits = QueryLimits {
        max_rows: 10,
        deadline_ms: 300,
    };
    let sql =
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r";
    let outcome = block_on(query(&db, sql, &limits));
    assert_eq!(outcome, Err(DbError::Timeout { after_ms: 300 }));
    // Endless rows without an aggregate: the kept rows stand, the total is "more than".
    let sql = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT x FROM r";
    let result = block_on(query(&db, sql, &limits)).unwrap();
    assert_eq!(result.rows.len(), 10);
    assert!(matches!(result.total_rows, RowCount::MoreThan(n) if n >= 10));
}

#[test]
fn schema_has_tables_keys_and_counts() {
    let db = RusqliteDb::shop();
    let schema = block_on(schema::load(&db, &QueryLimits::default())).unwrap();
    let names: Vec<_> = schema.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, vec!["customers", "orders", "products"]);
    let orders = schema.table("ORDERS").unwrap();
    assert_eq!(orders.kind, TableKind::Table);
    assert_eq!(orders.row_count, Some(RowCount::Exact(12)));
    assert_eq!(orders.columns.len(), 5);
    assert_eq!(orders.column("id").unwrap().primary_key, 1);
    assert!(!orders.column("customer_id").unwrap().not_null);
    let targets: Vec<_> = orders
        .foreign_keys
        .iter()
        .map(|k| k.to_table.as_str())
        .collect();
    assert_eq!(targets, vec!["products", "customers"]);
}

#[test]
fn schema_of_northwind_has_views_and_odd_names() {
    let db = RusqliteDb::open(&support::dataset("northwind/northwind.db"));
    let schema = block_on(schema::load(&db, &QueryLimits::default())).unwrap();
    let details = schema
        .table("Order Details")
        .expect("table with a space in its name");
    assert!(matches!(details.row_count, Some(RowCount::Exact(n)) if n > 0));
    assert!(schema
        .tables
        .iter()
        .any(|t| t.kind == TableKind::View && t.row_count.is_none()));
}

#[test]
fn each_tables_first_rows_query_runs_whatever_its_name() {
    // Northwind has a table with a space in its name; a quote is added to prove the quoting.
    let db = RusqliteDb::open(&support::dataset("northwind/northwind.db"));
    let schema = block_on(schema::load_tables(&db)).unwrap();
    for table in &schema.tables {
        let result = block_on(query(&db, &table.first_rows_sql(), &QueryLimits::default()))
            .unwrap_or_else(|e| panic!("{}: {e}", table.name));
        assert!(result.rows.len() <= 100, "{}", table.name);
    }
    let mut odd = schema.tables[0].clone();
    odd.name = "we\"ird".into();
    assert_eq!(
        odd.first_rows_sql(),
        "SELECT * FROM \"we\"\"ird\" LIMIT 100;"
    );
}
