//! Cutting text and values to size, never inside a UTF-8 character.

use crate::engine::{RowCount, Value};
use serde::Serializer;

/// At most `max` characters of `text`, ending in `…` when cut.
pub(crate) fn cut_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// At most `max` bytes of `text` (cut at a character boundary), followed by a note that says
/// how much there was.
pub(crate) fn cap_bytes(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{} …[cut: {} of {} bytes shown]",
        &text[..end],
        end,
        text.len()
    )
}

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

/// A name as it must be written in SQL: plain when it can be, quoted otherwise (odd characters,
/// keywords such as `order`).
pub(crate) fn sql_name(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !crate::sql::lexer::is_keyword(name);
    if plain {
        name.to_string()
    } else {
        crate::sql::quote_ident(name)
    }
}

/// Milliseconds to one decimal, enough for a transcript.
pub(crate) fn round_ms(ms: f64) -> f64 {
    (ms * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_never_split_a_character() {
        assert_eq!(cut_chars("東京都庁", 2), "東京…");
        assert_eq!(cut_chars("Tokyo", 5), "Tokyo");
        let capped = cap_bytes("東京都", 4);
        assert!(
            capped.starts_with("東 …[cut: 3 of 9 bytes shown]"),
            "{capped}"
        );
        assert_eq!(cap_bytes("short", 10), "short");
    }
}
