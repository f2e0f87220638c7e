//! What a Datasette server answered to a query, read into the [`QueryResult`] the engines give,
//! or into the error a person can act on.
//!
//! The shapes are Datasette 0.65's and 1.0a41's (`tests/datasette_client.rs` reads both pinned
//! servers' own answers with this): `{"ok": true, "columns": [...], "rows": [[...]],
//! "truncated": bool}`; on failure `{"ok": false, "error": "..."}`, with a `title` in 0.65 (a
//! SQL error also carries the `query` in 0.65, the `rows` in 1.0), and HTML for a refusal (403). Values come as JSON: integers and reals as numbers,
//! a blob as `{"$base64": true, "encoded": "..."}` (one whose bytes are valid UTF-8 comes as
//! text: Datasette's choice), an infinite real as `null`.

use super::transport::WebAnswer;
use super::{DatasetteAddress, DatasetteProblem};
use crate::engine::{DbError, QueryLimits, QueryResult, RowCount, Value};
use base64::Engine as _;
use serde_json::{Map, Value as Json};

/// The title Datasette 0.65 gives an answer whose query passed its time limit.
const INTERRUPTED: &str = "SQL Interrupted";

/// How both versions' message for it begins (1.0 sends no title).
const TOOK_TOO_LONG: &str = "SQL query took too long";

/// Reads `answer`, the server's reply to `sent` (the SQL text as sent) on the database at
/// `address`, kept within `limits`. More rows than `limits.max_rows` are cut and said to be; a
/// reply the server itself cut at its `max_returned_rows` is "more than N rows". An answer
/// to another query (the address of a table, whose page has rows of its own) is refused.
pub fn read_answer(
    answer: &WebAnswer,
    sent: &str,
    address: &DatasetteAddress,
    limits: &QueryLimits,
) -> Result<QueryResult, DbError> {
    let database = &address.database;
    let problem = |p: DatasetteProblem| Err(DbError::Datasette(p));
    if matches!(answer.status, 401 | 403) {
        return problem(DatasetteProblem::SqlNotAllowed {
            database: database.to_string(),
            status: answer.status,
        });
    }
    let Some(object) = json_object(&answer.body) else {
        return problem(DatasetteProblem::NotDatasette {
            status: answer.status,
            what: describe_body(answer),
        });
    };
    let echoed = object
        .get("query")
        .and_then(|q| q.get("sql"))
        .and_then(Json::as_str);
    // 0.65 echoes the query; a table's page names its table (0.65) or the next page (1.0).
    if echoed.is_some_and(|echoed| echoed != sent)
        || object.contains_key("table")
        || object.contains_key("next_url")
    {
        return problem(DatasetteProblem::NotDatasette {
            status: answer.status,
            what: "the answer to another query (is it the address of a table, not a database?)"
                .into(),
        });
    }
    let ok = object.get("ok").and_then(Json::as_bool);
    if ok == Some(true) && (200..300).contains(&answer.status) {
        return read_rows(&object, limits, answer.elapsed_ms).ok_or_else(|| {
            DbError::Datasette(DatasetteProblem::NotDatasette {
                status: answer.status,
                what: "JSON without columns and rows".into(),
            })
        });
    }
    let error = object.get("error").and_then(Json::as_str).map(text_of);
    let title = object.get("title").and_then(Json::as_str).unwrap_or("");
    match (answer.status, error) {
        (_, Some(message)) if title == INTERRUPTED || message.starts_with(TOOK_TOO_LONG) => {
            problem(DatasetteProblem::TimeLimit { message })
        }
        (404, _) => problem(DatasetteProblem::NoSuchDatabase {
            database: database.to_string(),
            server: address.server.clone(),
        }),
        // The query was prepared and failed: SQLite's own message, as from a file.
        (_, Some(message)) if object.contains_key("query") || object.contains_key("rows") => {
            Err(DbError::Sqlite(message))
        }
        (status, Some(message)) => problem(DatasetteProblem::Server {
            status,
            message: if title.is_empty() {
                message
            } else {
                format!("{title}: {message}")
            },
        }),
        (status, None) => problem(DatasetteProblem::NotDatasette {
            status,
            what: "JSON without rows or an error".into(),
        }),
    }
}

fn json_object(body: &str) -> Option<Map<String, Json>> {
    match serde_json::from_str(body) {
        Ok(Json::Object(object)) => Some(object),
        _ => None,
    }
}

/// The rows of a successful answer, or `None` when it has none to read.
fn read_rows(
    object: &Map<String, Json>,
    limits: &QueryLimits,
    elapsed_ms: f64,
) -> Option<QueryResult> {
    let rows = object.get("rows")?.as_array()?;
    let columns: Vec<String> = match object.get("columns").and_then(Json::as_array) {
        Some(columns) => columns
            .iter()
            .map(|c| c.as_str().map(str::to_string))
            .collect::<Option<_>>()?,
        // Rows as objects without the column list: the first row's keys, in order.
        None => match rows.first() {
            Some(Json::Object(first)) => first.keys().cloned().collect(),
            _ => Vec::new(),
        },
    };
    let mut read = Vec::with_capacity(rows.len().min(limits.max_rows));
    for row in rows.iter().take(limits.max_rows) {
        let values: Vec<Value> = match row {
            Json::Array(cells) => cells.iter().map(value_of).collect(),
            Json::Object(cells) => columns
                .iter()
                .map(|c| cells.get(c).map_or(Value::Null, value_of))
                .collect(),
            _ => return None,
        };
        if values.len() != columns.len() {
            return None;
        }
        read.push(values);
    }
    let returned = rows.len() as u64;
    let server_cut = object.get("truncated").and_then(Json::as_bool) == Some(true);
    let total_rows = if server_cut {
        RowCount::MoreThan(returned)
    } else {
        RowCount::Exact(returned)
    };
    Some(QueryResult {
        columns,
        truncated: server_cut || rows.len() > read.len(),
        rows: read,
        total_rows,
        elapsed_ms,
        reads: None,
    })
}

/// One JSON value as SQLite's.
fn value_of(json: &Json) -> Value {
    match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Integer(i64::from(*b)),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Real(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::Text(s.clone()),
        Json::Object(o) if o.get("$base64") == Some(&Json::Bool(true)) => {
            match o
                .get("encoded")
                .and_then(Json::as_str)
                .map(|encoded| base64::engine::general_purpose::STANDARD.decode(encoded))
            {
                Some(Ok(bytes)) => Value::Blob(bytes),
                _ => Value::Text(json.to_string()),
            }
        }
        other => Value::Text(other.to_string()),
    }
}

/// What an answer that is not JSON looks like, for a message: "an HTML page", "no content".
fn describe_body(answer: &WebAnswer) -> String {
    let html = answer
        .content_type
        .as_deref()
        .is_some_and(|t| t.to_ascii_lowercase().contains("html"))
        || answer.body.trim_start().starts_with('<');
    if answer.body.trim().is_empty() {
        "no content".into()
    } else if html {
        "an HTML page".into()
    } else {
        format!("{} bytes that are not JSON", answer.body.len())
    }
}

/// The text a person reads of an error Datasette wrote as HTML: tags dropped, and what its
/// `<textarea>` (the query again) and `<script>` hold; spaces collapsed.
pub fn text_of(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        let tag = &rest[open..];
        let skip_to = ["textarea", "script", "style"].iter().find_map(|name| {
            // `get`: a multi-byte character may follow the `<` (the text is the server's).
            let starts = tag
                .get(1..=name.len())
                .is_some_and(|word| word.eq_ignore_ascii_case(name))
                && tag
                    .get(name.len() + 1..)
                    .is_some_and(|after| !after.starts_with(|c: char| c.is_ascii_alphanumeric()));
            starts.then(|| format!("</{name}"))
        });
        rest = match skip_to {
            Some(close) => match tag.to_ascii_lowercase().find(&close) {
                Some(at) => &tag[at..],
                None => "",
            },
            None => tag,
        };
        match rest.find('>') {
            Some(end) => {
                text.push(' ');
                rest = &rest[end + 1..];
            }
            None => rest = "",
        }
    }
    text.push_str(rest);
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_errors_read_as_their_text_without_the_query_or_the_script() {
        let html = "<p>SQL query took too long. The time limit is controlled by the\n<a \
                    href=\"x\">sql_time_limit_ms</a>\nconfiguration option.</p>\n<textarea \
                    style=\"w\">select 1 &lt; 2</textarea>\n<script>\nlet ta = 1;\n</script>";
        assert_eq!(
            text_of(html),
            "SQL query took too long. The time limit is controlled by the sql_time_limit_ms \
             configuration option."
        );
        assert_eq!(text_of("a &lt;b&gt; &amp; c"), "a <b> & c");
        assert_eq!(text_of("unclosed <textarea>select"), "unclosed");
        assert_eq!(text_of("<é> <textareé> x"), "x");
    }
}
