//! One SQLite value.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A value as SQLite stores it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    /// Blobs are kept whole; displays show their size only.
    Blob(Vec<u8>),
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Value::Integer(_) | Value::Real(_))
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Integer(i) => Some(*i as f64),
            Value::Real(r) => Some(*r),
            _ => None,
        }
    }

    /// The value written as an SQL literal: `'O''Brien'`, `42`, `NULL`, `X'00FF'`.
    pub fn sql_literal(&self) -> String {
        match self {
            Value::Null => "NULL".into(),
            Value::Integer(i) => i.to_string(),
            // `{:?}` keeps a decimal point (2.0, not 2), so SQLite reads a real back.
            Value::Real(r) if r.is_finite() => format!("{r:?}"),
            Value::Real(_) => "NULL".into(),
            Value::Text(t) => crate::sql::quote_literal(t),
            Value::Blob(b) => {
                let hex: String = b.iter().map(|byte| format!("{byte:02X}")).collect();
                format!("X'{hex}'")
            }
        }
    }

    /// The value as JSON for an LLM: numbers and text as themselves, blobs as a short note.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Integer(i) => (*i).into(),
            Value::Real(r) => serde_json::Number::from_f64(*r)
                .map(serde_json::Value::Number)
                .unwrap_or_else(|| r.to_string().into()),
            Value::Text(t) => t.clone().into(),
            Value::Blob(b) => format!("<blob, {} bytes>", b.len()).into(),
        }
    }
}

/// How a value reads in a table cell or a CSV field; NULL is empty here (displays mark it apart).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => Ok(()),
            Value::Integer(i) => write!(f, "{i}"),
            Value::Real(r) => write!(f, "{r}"),
            Value::Text(t) => f.write_str(t),
            Value::Blob(b) => write!(f, "<blob, {} bytes>", b.len()),
        }
    }
}
