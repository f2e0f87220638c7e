//! `cross_check(sql_a, sql_b)`: two ways to ask the same question, compared. Agreement is
//! evidence; agreement on nothing is not, and the report says so.

use super::args::Args;
use super::{halve, spec, text_parameter, Mode, Offer, Tool, ToolOutput, Toolbox};
use crate::agent::traps::{self, explain_error, Diagnostic};
use crate::agent::values::{round_ms, rows_json, serialize_row_count};
use crate::engine::{Database, QueryResult, RowCount, Value};
use crate::llm::ToolSpec;
use crate::sql::analysis::Query;
use serde::Serialize;
use serde_json::json;
use std::cmp::Ordering;

/// Rows of each result that take part in the comparison.
const COMPARED_ROWS: usize = 1_000;
/// Rows shown per side, and rows shown of each difference.
const SHOWN_ROWS: usize = 5;
const COMPARED_VALUE_CHARS: usize = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultsMatch {
    Same,
    /// Equal but for floating-point noise or one side rounding its numbers.
    SameUpToRounding,
    Different,
    /// Neither query returned a row: no evidence either way.
    BothEmpty,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrossCheckReport {
    pub verdict: ResultsMatch,
    /// The verdict in a sentence.
    pub message: String,
    pub a: Side,
    pub b: Side,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_in_a: Vec<Vec<serde_json::Value>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_in_b: Vec<Vec<serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One of the two queries.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Side {
    pub sql: String,
    pub columns: Vec<String>,
    #[serde(serialize_with = "serialize_row_count")]
    pub total_rows: RowCount,
    pub first_rows: Vec<Vec<serde_json::Value>>,
    pub elapsed_ms: f64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Diagnostic>,
}

impl CrossCheckReport {
    pub(crate) fn shrink(&mut self) -> bool {
        halve(&mut self.only_in_a, &mut self.note)
            | halve(&mut self.only_in_b, &mut self.note)
            | halve(&mut self.a.first_rows, &mut self.note)
            | halve(&mut self.b.first_rows, &mut self.note)
    }
}

/// `cross_check(sql_a, sql_b)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrossCheck {
    pub sql_a: String,
    pub sql_b: String,
}

impl Tool for CrossCheck {
    const NAME: &'static str = "cross_check";

    fn spec(_: &Offer) -> ToolSpec {
        spec(
            Self::NAME,
            "Runs two different queries meant to answer the same question and compares their \
             results (as multisets, in order only when both have ORDER BY). Use it when unsure \
             that a query means what the question asks.",
            json!({
                "type": "object",
                "properties": {
                    "sql_a": text_parameter("The first query."),
                    "sql_b": text_parameter("A different query for the same question."),
                },
                "required": ["sql_a", "sql_b"],
            }),
        )
    }

    fn read(args: &Args, _: Mode) -> Result<Self, String> {
        Ok(CrossCheck {
            sql_a: args.text("sql_a")?,
            sql_b: args.text("sql_b")?,
        })
    }

    async fn run<D: Database + ?Sized>(
        &self,
        toolbox: &mut Toolbox<'_, D>,
    ) -> Result<ToolOutput, String> {
        Ok(cross_check(toolbox, &self.sql_a, &self.sql_b).await)
    }
}

async fn cross_check<D: Database + ?Sized>(
    toolbox: &Toolbox<'_, D>,
    sql_a: &str,
    sql_b: &str,
) -> ToolOutput {
    let sql_a = crate::sql::tidy::tidy(sql_a);
    let sql_b = crate::sql::tidy::tidy(sql_b);
    for (side, sql) in [("sql_a", &sql_a), ("sql_b", &sql_b)] {
        if let Err(message) = super::refuse_knowledge_tables(sql) {
            return ToolOutput::error(format!("{side}: {message}"));
        }
    }
    let result_a = toolbox.data().query(&sql_a, COMPARED_ROWS).await;
    let result_b = toolbox.data().query(&sql_b, COMPARED_ROWS).await;
    let schema = toolbox.data().schema();
    let (a, b) = match (result_a, result_b) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(error), Ok(_)) => {
            return ToolOutput::error(format!("sql_a failed: {}", explain_error(schema, &error)))
        }
        (Ok(_), Err(error)) => {
            return ToolOutput::error(format!("sql_b failed: {}", explain_error(schema, &error)))
        }
        (Err(error_a), Err(error_b)) => {
            return ToolOutput::error(format!(
                "both failed. sql_a: {}. sql_b: {}",
                explain_error(schema, &error_a),
                explain_error(schema, &error_b)
            ))
        }
    };
    let (query_a, query_b) = (Query::read(&sql_a), Query::read(&sql_b));
    let ordered = query_a.has_order_by() && query_b.has_order_by();
    let comparison = compare(&a, &b, ordered);
    let warnings_a = traps::inspect(toolbox.data(), &query_a, &a).await;
    let warnings_b = traps::inspect(toolbox.data(), &query_b, &b).await;
    let cut_note = (a.truncated || b.truncated)
        .then(|| format!("only the first {COMPARED_ROWS} rows of each were compared"));
    ToolOutput::CrossCheck(CrossCheckReport {
        verdict: comparison.verdict,
        message: comparison.message,
        only_in_a: shown(&comparison.only_in_a),
        only_in_b: shown(&comparison.only_in_b),
        a: side(sql_a, &a, warnings_a),
        b: side(sql_b, &b, warnings_b),
        note: cut_note,
    })
}

fn side(sql: String, result: &QueryResult, warnings: Vec<Diagnostic>) -> Side {
    Side {
        sql,
        columns: result.columns.clone(),
        total_rows: result.total_rows,
        first_rows: shown(&result.rows),
        elapsed_ms: round_ms(result.elapsed_ms),
        warnings,
    }
}

fn shown<R: AsRef<[Value]>>(rows: &[R]) -> Vec<Vec<serde_json::Value>> {
    rows_json(rows.iter().take(SHOWN_ROWS), COMPARED_VALUE_CHARS)
}

struct Comparison<'r> {
    verdict: ResultsMatch,
    message: String,
    only_in_a: Vec<&'r Vec<Value>>,
    only_in_b: Vec<&'r Vec<Value>>,
}

fn compare<'r>(a: &'r QueryResult, b: &'r QueryResult, ordered: bool) -> Comparison<'r> {
    let verdict = |verdict, message: String| Comparison {
        verdict,
        message,
        only_in_a: Vec::new(),
        only_in_b: Vec::new(),
    };
    if a.rows.is_empty() && b.rows.is_empty() {
        return verdict(
            ResultsMatch::BothEmpty,
            "Both queries return no rows. Agreement on an empty result proves nothing: check \
             the literals (see the warnings) and the joins."
                .to_string(),
        );
    }
    if a.columns.len() != b.columns.len() {
        return verdict(
            ResultsMatch::Different,
            format!(
                "sql_a returns {} columns and sql_b {}: compare queries that select the same \
                 columns.",
                a.columns.len(),
                b.columns.len()
            ),
        );
    }
    let (mut only_in_a, mut only_in_b) = multiset_difference(&a.rows, &b.rows);
    let counts = format!("{} and {} rows", a.total_rows, b.total_rows);
    if only_in_a.is_empty() && only_in_b.is_empty() {
        if a.total_rows != b.total_rows {
            return verdict(
                ResultsMatch::Different,
                format!("The first rows match, but the totals differ: {counts}."),
            );
        }
        if ordered && !same_sequence(&a.rows, &b.rows) {
            return verdict(
                ResultsMatch::Different,
                "Both return the same rows, but in a different order.".to_string(),
            );
        }
        return verdict(ResultsMatch::Same, format!("The results match ({counts})."));
    }
    pair_up_to_rounding(&mut only_in_a, &mut only_in_b);
    if only_in_a.is_empty() && only_in_b.is_empty() {
        return verdict(
            ResultsMatch::SameUpToRounding,
            format!("The results match except for the rounding of numbers ({counts})."),
        );
    }
    Comparison {
        verdict: ResultsMatch::Different,
        message: format!(
            "The results differ ({counts}): {} row(s) only in sql_a, {} only in sql_b (the \
             first are shown).",
            only_in_a.len(),
            only_in_b.len()
        ),
        only_in_a,
        only_in_b,
    }
}

/// A value as compared: an integral real equals the integer (SUM over reals gives 3.0).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Cell<'v> {
    Null,
    Integer(i64),
    Real(u64),
    Text(&'v str),
    Blob(&'v [u8]),
}

fn cell(value: &Value) -> Cell<'_> {
    match value {
        Value::Null => Cell::Null,
        Value::Integer(i) => Cell::Integer(*i),
        Value::Real(r) if r.fract() == 0.0 && r.abs() < 9.0e15 => Cell::Integer(*r as i64),
        Value::Real(r) => Cell::Real(r.to_bits()),
        Value::Text(t) => Cell::Text(t),
        Value::Blob(b) => Cell::Blob(b),
    }
}

fn key(row: &[Value]) -> Vec<Cell<'_>> {
    row.iter().map(cell).collect()
}

/// The rows of each side that the other lacks, counting duplicates.
fn multiset_difference<'r>(
    a: &'r [Vec<Value>],
    b: &'r [Vec<Value>],
) -> (Vec<&'r Vec<Value>>, Vec<&'r Vec<Value>>) {
    let mut a_sorted: Vec<&Vec<Value>> = a.iter().collect();
    let mut b_sorted: Vec<&Vec<Value>> = b.iter().collect();
    a_sorted.sort_by(|x, y| key(x).cmp(&key(y)));
    b_sorted.sort_by(|x, y| key(x).cmp(&key(y)));
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < a_sorted.len() && j < b_sorted.len() {
        match key(a_sorted[i]).cmp(&key(b_sorted[j])) {
            Ordering::Less => {
                only_a.push(a_sorted[i]);
                i += 1;
            }
            Ordering::Greater => {
                only_b.push(b_sorted[j]);
                j += 1;
            }
            Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    only_a.extend(&a_sorted[i..]);
    only_b.extend(&b_sorted[j..]);
    // Back in the order the queries returned them, for display.
    let position = |rows: &[Vec<Value>], row: &Vec<Value>| {
        rows.iter().position(|r| std::ptr::eq(r, row)).unwrap_or(0)
    };
    only_a.sort_by_key(|row| position(a, row));
    only_b.sort_by_key(|row| position(b, row));
    (only_a, only_b)
}

fn same_sequence(a: &[Vec<Value>], b: &[Vec<Value>]) -> bool {
    a.iter().zip(b).all(|(x, y)| key(x) == key(y))
}

/// Removes the pairs of rows that are equal once numbers are allowed to differ by rounding.
fn pair_up_to_rounding(only_a: &mut Vec<&Vec<Value>>, only_b: &mut Vec<&Vec<Value>>) {
    let mut i = 0;
    while i < only_a.len() {
        let partner = only_b.iter().position(|row| {
            row.len() == only_a[i].len() && row.iter().zip(only_a[i]).all(|(x, y)| near(x, y))
        });
        match partner {
            Some(j) => {
                only_a.remove(i);
                only_b.remove(j);
            }
            None => i += 1,
        }
    }
}

/// Equal values, or numbers equal but for float noise, or reals equal after rounding one to the
/// other's decimals (`33.333333` and `33.33`). An integer is not a rounded real: `7 / 2 = 3`
/// is the integer-division trap, not rounding.
fn near(x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Real(p), Value::Real(q)) => {
            let places = decimals(*p).min(decimals(*q));
            noise(*p, *q) || (places <= 6 && round_to(*p, places) == round_to(*q, places))
        }
        _ => match (x.as_f64(), y.as_f64()) {
            (Some(p), Some(q)) => noise(p, q),
            _ => cell(x) == cell(y),
        },
    }
}

fn noise(p: f64, q: f64) -> bool {
    (p - q).abs() <= 1e-9 * p.abs().max(q.abs()).max(1.0)
}

fn decimals(x: f64) -> i32 {
    let text = format!("{x}");
    text.split_once('.')
        .map_or(0, |(_, fraction)| fraction.len() as i32)
}

fn round_to(x: f64, places: i32) -> f64 {
    let factor = 10f64.powi(places);
    (x * factor).round() / factor
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_told_apart_from_difference() {
        assert!(near(&Value::Real(33.333333), &Value::Real(33.33)));
        assert!(near(&Value::Real(0.1 + 0.2), &Value::Real(0.3)));
        assert!(near(&Value::Integer(3), &Value::Real(3.0)));
        assert!(!near(&Value::Real(33.4), &Value::Real(33.3)));
        assert!(!near(&Value::Integer(3), &Value::Integer(4)));
        assert!(!near(&Value::Integer(3), &Value::Real(3.4)));
    }
}
