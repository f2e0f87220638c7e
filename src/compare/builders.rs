//! Query results for the tests of the judge and of what uses it (`agent::candidates`'s
//! agreement): one builder, so that they build results the same way.

use crate::engine::{QueryResult, RowCount, Value};

/// A whole result (not cut) with these column names and rows.
pub(crate) fn result(columns: &[&str], rows: Vec<Vec<Value>>) -> QueryResult {
    QueryResult {
        columns: columns.iter().map(|c| c.to_string()).collect(),
        total_rows: RowCount::Exact(rows.len() as u64),
        rows,
        truncated: false,
        elapsed_ms: 0.0,
        reads: None,
    }
}

/// A text value.
pub(crate) fn text(value: &str) -> Value {
    Value::Text(value.into())
}
