//! Database values, counts and times as the model reads them (long text cut to size).

use crate::engine::{RowCount, Value};
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

/// `12` when exact, `"more than 50"` otherwise: what a reader (model or person) expects.
pub(crate) fn serialize_row_count<S: Serializer>(
    count: &RowCount,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match count {
        RowCount::Exact(n) => serializer.serialize_u64(*n),
        RowCount::MoreThan(_) => serializer.serialize_str(&count.to_string()),
    }
}

/// Milliseconds to one decimal, enough for a transcript.
pub(crate) fn round_ms(ms: f64) -> f64 {
    (ms * 10.0).round() / 10.0
}
