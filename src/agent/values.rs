//! Database values, counts and times as the model reads them (long text cut to size).

use crate::engine::{RowCount, TableKind, Value};
use crate::text::cut_chars;
use serde::Serializer;

/// A database value as JSON, long text cut to `max_chars`.
pub(crate) fn value_json(value: &Value, max_chars: usize) -> serde_json::Value {
    match value {
        Value::Text(text) => cut_chars(text, max_chars).into(),
        other => other.to_json(),
    }
}

/// Rows of database values as JSON, long text cut to `max_chars`.
pub(crate) fn rows_json<R: AsRef<[Value]>>(
    rows: impl IntoIterator<Item = R>,
    max_chars: usize,
) -> Vec<Vec<serde_json::Value>> {
    rows.into_iter()
        .map(|row| {
            row.as_ref()
                .iter()
                .map(|v| value_json(v, max_chars))
                .collect()
        })
        .collect()
}

/// How a value reads inside a sentence: text quoted, NULL as NULL.
pub(crate) fn value_phrase(value: &Value, max_chars: usize) -> String {
    match value {
        Value::Null => "NULL".to_string(),
        Value::Text(text) => crate::sql::quote_literal(&cut_chars(text, max_chars)),
        other => other.to_string(),
    }
}

/// `12` when exact, `"more than 50"` or `"about 2000000, estimated"` otherwise: what a reader
/// (model or person) expects.
pub(crate) fn serialize_row_count<S: Serializer>(
    count: &RowCount,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match count {
        RowCount::Exact(n) => serializer.serialize_u64(*n),
        RowCount::MoreThan(_) | RowCount::Estimated(_) => {
            serializer.serialize_str(&row_count_text(*count))
        }
    }
}

/// A count as the model reads it in text: `12`, `more than 100000`, `about 2000000, estimated`.
pub(crate) fn row_count_text(count: RowCount) -> String {
    match count {
        RowCount::Estimated(n) => format!("about {n}, estimated"),
        exact_or_more => exact_or_more.to_string(),
    }
}

/// A table's size as the model reads it: its count (see [`row_count_text`]), `rows not
/// counted` for a table that was not, `view` for a view (views are never counted).
pub(crate) fn table_size_text(kind: TableKind, count: Option<RowCount>) -> String {
    match (kind, count) {
        (_, Some(count)) => row_count_text(count),
        (TableKind::View, None) => "view".to_string(),
        (TableKind::Table, None) => NOT_COUNTED.to_string(),
    }
}

/// What the model reads for a table whose rows were not counted.
pub(crate) const NOT_COUNTED: &str = "rows not counted";

/// A table's `rows` in `list_tables` and `describe_table`: the count (a number when exact,
/// else what it is: see [`row_count_text`]), `"rows not counted"` for a table that was not;
/// nothing for a view (views are never counted).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TableRows {
    Counted(RowCount),
    NotCounted,
    View,
}

impl TableRows {
    pub fn of(kind: TableKind, count: Option<RowCount>) -> TableRows {
        match (kind, count) {
            (_, Some(count)) => TableRows::Counted(count),
            (TableKind::View, None) => TableRows::View,
            (TableKind::Table, None) => TableRows::NotCounted,
        }
    }

    /// The count, when there is one.
    pub fn count(self) -> Option<RowCount> {
        match self {
            TableRows::Counted(count) => Some(count),
            TableRows::NotCounted | TableRows::View => None,
        }
    }

    pub fn is_view(&self) -> bool {
        *self == TableRows::View
    }
}

impl serde::Serialize for TableRows {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            TableRows::Counted(count) => serialize_row_count(count, serializer),
            TableRows::NotCounted => serializer.serialize_str(NOT_COUNTED),
            TableRows::View => serializer.serialize_none(),
        }
    }
}

/// The sentence the prompt adds when a table's count is not exact, so that the model reads
/// "more than" and "about" for what they are.
pub(crate) const COUNTS_NOTE: &str = "Row counts are exact unless written \"more than N\" \
(counting stopped there), \"about N, estimated\" (from SQLite's statistics, sqlite_stat1, which \
may be out of date) or \"rows not counted\"; count with run_sql when the exact number matters.";

/// Whether any table of `tables` has a count that is not exact.
pub(crate) fn has_inexact_counts<'t>(
    tables: impl IntoIterator<Item = &'t crate::engine::Table>,
) -> bool {
    tables.into_iter().any(|table| {
        table.kind == TableKind::Table && !matches!(table.row_count, Some(RowCount::Exact(_)))
    })
}

/// Milliseconds to one decimal, enough for a transcript.
pub(crate) fn round_ms(ms: f64) -> f64 {
    (ms * 10.0).round() / 10.0
}
