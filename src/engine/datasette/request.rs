//! The request a query becomes: `GET <server>/<db>.json?sql=…&_shape=arrays&_timelimit=…`.
//!
//! Datasette binds named parameters only (`:name`), each sent as text in the query string. The
//! guard's statements number theirs (`?1`…`?n`), so each becomes a named one here, token by
//! token (never inside a string or a comment), and keeps its type the only way text can: an
//! integer or a real is cast back from the text of its exact value. The values are bound by the
//! server's SQLite, never written into the SQL.

use super::{DatasetteAddress, DatasetteProblem};
use crate::engine::{QueryLimits, ReadOnlySql, Value};
use crate::sql::lexer::{significant_tokens, TokenKind};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// Rows as arrays beside the column names: duplicate column names survive (as objects they
/// would not), as they do from a file. (`_extra=columns` asks Datasette 1.0 for the names,
/// which 0.65 sends anyway.)
pub const SHAPE: &str = "arrays";

/// Everything but the unreserved characters of RFC 3986 is escaped in a query-string value.
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// The name a statement's parameter `?n` is sent under.
pub fn parameter_name(n: usize) -> String {
    format!("askdb_p{n}")
}

/// The address that runs `sql` with `values` within `limits` on the database at `address`, and
/// the SQL text it sends (parameters named).
pub fn query_url(
    address: &DatasetteAddress,
    sql: &ReadOnlySql,
    values: &[Value],
    limits: &QueryLimits,
) -> Result<(String, String), DatasetteProblem> {
    let (text, parameters) = with_named_parameters(sql.as_str(), values)?;
    let mut url = format!(
        "{}.json?sql={}&_shape={SHAPE}&_extra=columns&_timelimit={}",
        address.database_url(),
        encode(&text),
        // Datasette takes the smaller of this and its own sql_time_limit_ms.
        limits.deadline_ms.max(1)
    );
    for (name, value) in parameters {
        url.push('&');
        url.push_str(&name);
        url.push('=');
        url.push_str(&encode(&value));
    }
    Ok((url, text))
}

/// `sql` with each `?n` replaced by a named parameter (cast back to its type), and the text each
/// named parameter is sent as. A NULL is written as `NULL` (it carries no data); a blob cannot
/// be sent (Datasette reads parameters as text), and says so.
pub fn with_named_parameters(
    sql: &str,
    values: &[Value],
) -> Result<(String, Vec<(String, String)>), DatasetteProblem> {
    if values.is_empty() {
        return Ok((sql.to_string(), Vec::new()));
    }
    let tokens = significant_tokens(sql).map_err(|e| DatasetteProblem::Parameter {
        why: format!("the statement could not be read: {e}"),
    })?;
    let mut text = String::with_capacity(sql.len() + values.len() * 32);
    let mut parameters = Vec::new();
    let mut copied = 0;
    for token in tokens.iter().filter(|t| t.kind == TokenKind::Parameter) {
        let n = token
            .text
            .strip_prefix('?')
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| (1..=values.len()).contains(n))
            .ok_or_else(|| DatasetteProblem::Parameter {
                why: format!(
                    "the statement's parameter {} has no value (only ?1 to ?{} do)",
                    token.text,
                    values.len()
                ),
            })?;
        let name = parameter_name(n);
        let (written, sent) = match &values[n - 1] {
            Value::Null => ("NULL".to_string(), None),
            Value::Integer(i) => (format!("CAST(:{name} AS INTEGER)"), Some(i.to_string())),
            Value::Real(r) if r.is_finite() => {
                // `{:?}` is the shortest text that reads back as the same f64.
                (format!("CAST(:{name} AS REAL)"), Some(format!("{r:?}")))
            }
            Value::Real(_) => ("NULL".to_string(), None),
            Value::Text(t) => (format!(":{name}"), Some(t.clone())),
            Value::Blob(_) => {
                return Err(DatasetteProblem::Parameter {
                    why: "a Datasette server takes a query's parameters as text: a blob value \
                          cannot be sent to it"
                        .into(),
                })
            }
        };
        text.push_str(&sql[copied..token.start]);
        text.push_str(&written);
        copied = token.end();
        if let Some(sent) = sent {
            if !parameters.iter().any(|(known, _)| *known == name) {
                parameters.push((name, sent));
            }
        }
    }
    text.push_str(&sql[copied..]);
    Ok((text, parameters))
}

/// `value` escaped for a query string.
pub fn encode(value: &str) -> String {
    utf8_percent_encode(value, QUERY_VALUE).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::guard::{check, check_bound};

    fn address() -> DatasetteAddress {
        DatasetteAddress::parse("http://127.0.0.1:8001/shop").unwrap()
    }

    #[test]
    fn a_query_is_a_get_of_the_database_json_with_the_deadline_as_timelimit() {
        let sql = check("SELECT name FROM customers WHERE name = 'O''Brien & co?'").unwrap();
        let limits = QueryLimits {
            max_rows: 10,
            deadline_ms: 2_500,
        };
        let (url, _) = query_url(&address(), &sql, &[], &limits).unwrap();
        assert_eq!(
            url,
            "http://127.0.0.1:8001/shop.json?sql=SELECT%20name%20FROM%20customers%20WHERE%20\
             name%20%3D%20%27O%27%27Brien%20%26%20co%3F%27&_shape=arrays&_extra=columns&_timelimit=2500"
        );
    }

    #[test]
    fn numbered_parameters_become_named_ones_that_keep_their_type() {
        let sql = "SELECT ?1, ?2, ?3, ?4, '?1' FROM t WHERE a = ?1 -- ?2";
        let values = [
            Value::Integer(-9_007_199_254_740_993),
            Value::Real(0.1),
            Value::Text("'; DROP TABLE t; --".into()),
            Value::Null,
        ];
        let (text, parameters) = with_named_parameters(sql, &values).unwrap();
        assert_eq!(
            text,
            "SELECT CAST(:askdb_p1 AS INTEGER), CAST(:askdb_p2 AS REAL), :askdb_p3, NULL, '?1' \
             FROM t WHERE a = CAST(:askdb_p1 AS INTEGER) -- ?2"
        );
        assert_eq!(
            parameters,
            vec![
                ("askdb_p1".to_string(), "-9007199254740993".to_string()),
                ("askdb_p2".to_string(), "0.1".to_string()),
                ("askdb_p3".to_string(), "'; DROP TABLE t; --".to_string()),
            ]
        );
        let statement = check_bound("SELECT a FROM t WHERE a = ?1 AND b = ?2", 2).unwrap();
        let (url, _) = query_url(
            &address(),
            &statement,
            &[Value::Text("a&b=c".into()), Value::Integer(3)],
            &QueryLimits::default(),
        )
        .unwrap();
        assert!(
            url.ends_with("&_timelimit=10000&askdb_p1=a%26b%3Dc&askdb_p2=3"),
            "{url}"
        );
    }

    #[test]
    fn a_blob_or_a_parameter_without_a_value_is_refused_before_any_request() {
        let blob = with_named_parameters("SELECT ?1", &[Value::Blob(vec![0, 1])]).unwrap_err();
        assert!(
            blob.to_string().contains("blob value cannot be sent"),
            "{blob}"
        );
        let missing = with_named_parameters("SELECT ?2", &[Value::Integer(1)]).unwrap_err();
        assert!(missing.to_string().contains("?2 has no value"), "{missing}");
    }
}
