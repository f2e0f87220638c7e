//! A query result as CSV text (RFC 4180): comma-separated fields, CRLF line ends, a header row
//! of column names; a field is quoted when it holds a comma, a quote, a CR or an LF (quotes
//! inside are doubled) or when it begins or ends with a space (some readers trim them).
//!
//! Values: NULL is an empty field, numbers as SQLite prints them, text as itself, a blob as
//! lowercase hex (the bytes stay recoverable).

use crate::engine::Value;
use std::fmt::Write;

/// The whole CSV document: one header row, then one row per result row.
pub fn to_csv(columns: &[String], rows: &[Vec<Value>]) -> String {
    let mut out = String::new();
    write_record(&mut out, columns.iter().cloned());
    for row in rows {
        write_record(&mut out, row.iter().map(field_text));
    }
    out
}

fn write_record(out: &mut String, fields: impl Iterator<Item = String>) {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&quote_if_needed(&field));
    }
    out.push_str("\r\n");
}

fn field_text(value: &Value) -> String {
    match value {
        Value::Blob(bytes) => bytes.iter().fold(String::new(), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        }),
        // NULL as an empty field, numbers and text as `Value`'s Display writes them.
        other => other.to_string(),
    }
}

fn quote_if_needed(field: &str) -> String {
    let needs_quotes =
        field.contains([',', '"', '\r', '\n']) || field.starts_with(' ') || field.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Value {
        Value::Text(s.into())
    }

    #[test]
    fn header_then_rows_with_crlf() {
        let csv = to_csv(
            &["id".into(), "name".into()],
            &[
                vec![Value::Integer(1), text("Aoki")],
                vec![Value::Integer(2), text("Brown")],
            ],
        );
        assert_eq!(csv, "id,name\r\n1,Aoki\r\n2,Brown\r\n");
    }

    #[test]
    fn quotes_commas_quotes_and_line_breaks() {
        let csv = to_csv(
            &["note".into()],
            &[
                vec![text("a,b")],
                vec![text("say \"hi\"")],
                vec![text("two\nlines")],
                vec![text("cr\rhere")],
                vec![text(" padded ")],
            ],
        );
        assert_eq!(
            csv,
            "note\r\n\"a,b\"\r\n\"say \"\"hi\"\"\"\r\n\"two\nlines\"\r\n\"cr\rhere\"\r\n\" padded \"\r\n"
        );
    }

    #[test]
    fn null_is_empty_and_text_null_is_kept() {
        let csv = to_csv(
            &["a".into(), "b".into(), "c".into()],
            &[vec![Value::Null, text("NULL"), text("")]],
        );
        assert_eq!(csv, "a,b,c\r\n,NULL,\r\n");
    }

    #[test]
    fn numbers_unicode_and_blobs() {
        let csv = to_csv(
            &["n".into(), "x".into(), "都道府県".into(), "b".into()],
            &[vec![
                Value::Integer(-42),
                Value::Real(2.5),
                text("東京都"),
                Value::Blob(vec![0x00, 0xff, 0x10]),
            ]],
        );
        assert_eq!(csv, "n,x,都道府県,b\r\n-42,2.5,東京都,00ff10\r\n");
    }

    #[test]
    fn column_names_are_quoted_too() {
        let csv = to_csv(&["a,b".into(), "c\"d".into()], &[]);
        assert_eq!(csv, "\"a,b\",\"c\"\"d\"\r\n");
    }
}
