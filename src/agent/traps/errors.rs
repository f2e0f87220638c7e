//! Errors from SQLite as the model should read them: with the names it may have meant.

use super::near::{nearest, table_hint, TableHint};
use crate::engine::{DbError, Schema};

/// A database error as the model should read it, with the names it may have meant when SQLite
/// did not know a table or column.
pub(crate) fn explain_error(schema: &Schema, error: &DbError) -> String {
    let message = error.to_string();
    let DbError::Sqlite(sqlite) = error else {
        return message;
    };
    let unknown = |prefix: &str| {
        let start = sqlite.find(prefix)? + prefix.len();
        let name = sqlite[start..].split_whitespace().next()?;
        Some(name.rsplit('.').next().unwrap_or(name).to_string())
    };
    if let Some(table) = unknown("no such table: ") {
        return match table_hint(schema, &table) {
            TableHint::Near(close) => format!("{message}. Did you mean: {}?", close.join(", ")),
            TableHint::Tables(all) => format!("{message}. The tables are: {}", all.join(", ")),
        };
    }
    if let Some(column) = unknown("no such column: ") {
        let qualified: Vec<String> = schema
            .tables
            .iter()
            .flat_map(|t| t.columns.iter().map(move |c| (t, c)))
            .filter(|(_, c)| !nearest(&column, [c.name.as_str()], 1).is_empty())
            .take(8)
            .map(|(t, c)| format!("{}.{}", t.name, c.name))
            .collect();
        if !qualified.is_empty() {
            return format!(
                "{message}. Columns with similar names: {}",
                qualified.join(", ")
            );
        }
    }
    message
}
