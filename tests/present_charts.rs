//! Charts offered for real query results on the shop dataset, run through `engine::query`.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::engine::{query, QueryLimits, QueryResult};
use askdb::present::chart::{layout, plan, ChartKind};
use futures::executor::block_on;
use support::RusqliteDb;

fn run(sql: &str) -> QueryResult {
    block_on(query(&RusqliteDb::shop(), sql, &QueryLimits::default())).expect("query runs")
}

#[test]
fn sales_per_category_is_a_bar_chart() {
    let result = run("SELECT p.category, SUM(p.price * o.quantity) AS sales
         FROM orders o JOIN products p ON p.id = o.product_id
         GROUP BY p.category ORDER BY sales DESC");
    let plan = plan(&result.columns, &result.rows).expect("a chart");
    assert_eq!(plan.kind, ChartKind::Bar);
    assert_eq!(plan.labels.len(), result.rows.len());
    let chart = layout(&plan, 640.0, 320.0);
    assert_eq!(chart.bars.len(), result.rows.len());
    let heights: Vec<f64> = chart.bars.iter().map(|b| b.rect.height).collect();
    assert!(
        heights.windows(2).all(|h| h[0] >= h[1]),
        "ORDER BY sales DESC is kept"
    );
}

#[test]
fn orders_per_month_is_a_line_in_date_order() {
    let result = run(
        "SELECT strftime('%Y-%m', ordered_at) AS month, COUNT(*) AS orders
         FROM orders GROUP BY month ORDER BY orders DESC",
    );
    let plan = plan(&result.columns, &result.rows).expect("a chart");
    assert_eq!(plan.kind, ChartKind::Line);
    assert!(
        plan.labels.windows(2).all(|m| m[0] < m[1]),
        "{:?}",
        plan.labels
    );
    let chart = layout(&plan, 640.0, 320.0);
    assert_eq!(chart.lines[0].points.len(), result.rows.len());
}

#[test]
fn customer_rows_are_no_chart() {
    let result = run("SELECT name, prefecture, joined_at FROM customers");
    assert_eq!(plan(&result.columns, &result.rows), None);
}
