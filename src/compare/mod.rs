//! Whether two query results are the same answer: the rule golden questions are judged by
//! (`eval`), and the one candidates' results are grouped by (`agent::candidates`).
//!
//! - Rows are compared as multisets (a duplicate row counts), or in order when `ordered`
//!   (the caller passes whether the expected SQL's outer query has `ORDER BY`). Ties under an
//!   `ORDER BY` are not known here, so an ordered comparison is strict.
//! - Numbers are equal within a relative 1e-6 or an absolute 1e-9, whatever their storage
//!   class: `2` equals `2.0`, `0.1 + 0.2` equals `0.3`. Text is compared exactly (`'2'` is not
//!   `2`), blobs byte for byte, and NULL equals NULL.
//! - Column names are ignored. Columns in another order still match: when the column counts are
//!   equal and at most [`MAX_PERMUTED_COLUMNS`], the column orders whose columns hold the same
//!   values are tried (`SELECT name, city` answers a question whose expected SQL says
//!   `SELECT city, name`). Spider's execution accuracy does the same.
//! - A result cut at its row limit is compared by its row count only; equal cut results cannot be
//!   told apart and are reported as too large.

use crate::count::{grouped, plural, rows};
use crate::engine::{QueryResult, RowCount, Value};
use crate::text::cut_chars;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// Column orders are searched only for results this narrow.
pub const MAX_PERMUTED_COLUMNS: usize = 8;
/// Values are cut to this many characters in a verdict.
const SHOWN_VALUE_CHARS: usize = 60;
/// Rows left unmatched after the sorted pass are paired one by one only up to this many on
/// each side (float noise that reorders rows); past it the results simply differ.
const MAX_LEFTOVER_PAIRING: usize = 1_000;

/// The judgement of one comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    Same,
    /// The same rows once the returned columns are put in this order (`order[i]` is the
    /// returned column that matches expected column `i`).
    SameInColumnOrder {
        order: Vec<usize>,
    },
    Different {
        difference: Difference,
    },
}

impl Verdict {
    pub fn is_same(&self) -> bool {
        !matches!(self, Verdict::Different { .. })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Same => f.write_str("the same result"),
            Verdict::SameInColumnOrder { .. } => {
                f.write_str("the same result, with the columns in another order")
            }
            Verdict::Different { difference } => difference.fmt(f),
        }
    }
}

/// Why two results are not the same answer. Values are already cut for a reader.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Difference {
    Columns {
        expected: usize,
        returned: usize,
    },
    RowCount {
        expected: RowCount,
        returned: RowCount,
    },
    /// Rows that do not match. `position` (1-based) when compared in order; `differing` is how
    /// many rows of the expected result found no partner (for an unordered comparison).
    Row {
        position: Option<usize>,
        differing: usize,
        single_row: bool,
        detail: RowDetail,
    },
    /// The same rows, in another order, where the expected SQL orders them.
    Order {
        position: usize,
    },
    /// Both results were cut at the row limit with the same count: too many rows to judge.
    TooManyRows {
        rows: u64,
    },
}

/// One expected row beside the returned row it is closest to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RowDetail {
    /// Exactly one value differs.
    Value {
        /// 0-based.
        column: usize,
        name: String,
        expected: String,
        returned: String,
    },
    Whole {
        expected: String,
        returned: String,
    },
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::Columns { expected, returned } => write!(
                f,
                "{} expected, {} returned",
                plural(*expected as u64, "column", "columns"),
                grouped(*returned as u64)
            ),
            Difference::RowCount { expected, returned } => {
                let returned = match returned {
                    RowCount::Exact(n) => grouped(*n),
                    RowCount::MoreThan(n) => format!("more than {}", grouped(*n)),
                    RowCount::Estimated(n) => format!("about {}", grouped(*n)),
                };
                write!(f, "{} expected, {returned} returned", rows(*expected))
            }
            Difference::Row {
                position,
                differing,
                single_row,
                detail,
            } => {
                match (position, single_row) {
                    (_, true) => {}
                    (Some(position), false) => write!(f, "row {position} differs: ")?,
                    (None, false) if *differing == 1 => f.write_str("one row differs: ")?,
                    (None, false) => write!(f, "{differing} rows differ, for example: ")?,
                }
                match detail {
                    RowDetail::Value {
                        column,
                        name,
                        expected,
                        returned,
                    } => write!(
                        f,
                        "{} ({name}): {expected} expected, {returned} returned",
                        ordinal_column(*column)
                    ),
                    RowDetail::Whole { expected, returned } => {
                        write!(f, "{expected} expected, {returned} returned")
                    }
                }
            }
            Difference::Order { position } => write!(
                f,
                "the same rows in another order (from row {position}), where the expected SQL \
                 orders them"
            ),
            Difference::TooManyRows { rows: count } => write!(
                f,
                "both return more than {}: too many to compare",
                rows(RowCount::Exact(*count))
            ),
        }
    }
}

/// Whether `actual` is the same answer as `expected` (see the module's rules).
pub fn same_result(expected: &QueryResult, actual: &QueryResult, ordered: bool) -> Verdict {
    let different = |difference| Verdict::Different { difference };
    if expected.columns.len() != actual.columns.len() {
        return different(Difference::Columns {
            expected: expected.columns.len(),
            returned: actual.columns.len(),
        });
    }
    if expected.total_rows != actual.total_rows || expected.rows.len() != actual.rows.len() {
        return different(Difference::RowCount {
            expected: expected.total_rows,
            returned: actual.total_rows,
        });
    }
    if expected.truncated || actual.truncated {
        return different(Difference::TooManyRows {
            rows: expected.rows.len() as u64,
        });
    }
    let as_is: Vec<usize> = (0..actual.columns.len()).collect();
    let first_try = compare_rows(expected, actual, &as_is, ordered);
    if first_try.is_none() {
        return Verdict::Same;
    }
    if let Some(order) = matching_column_order(expected, actual, ordered) {
        return Verdict::SameInColumnOrder { order };
    }
    different(first_try.expect("checked above"))
}

/// Compares the rows, reading `actual`'s columns in `order`; `None` when they match.
fn compare_rows(
    expected: &QueryResult,
    actual: &QueryResult,
    order: &[usize],
    ordered: bool,
) -> Option<Difference> {
    let actual_rows: Vec<Vec<&Value>> = actual
        .rows
        .iter()
        .map(|row| order.iter().map(|&i| &row[i]).collect())
        .collect();
    let expected_rows: Vec<Vec<&Value>> =
        expected.rows.iter().map(|r| r.iter().collect()).collect();
    let single_row = expected_rows.len() == 1;
    if ordered {
        let position = expected_rows
            .iter()
            .zip(&actual_rows)
            .position(|(e, a)| !rows_equal(e, a))?;
        // The same rows in another order say so rather than show one row.
        if unmatched(&expected_rows, &actual_rows).0.is_empty() {
            return Some(Difference::Order {
                position: position + 1,
            });
        }
        return Some(Difference::Row {
            position: Some(position + 1),
            differing: 1,
            single_row,
            detail: detail(
                &expected.columns,
                &expected_rows[position],
                &actual_rows[position],
            ),
        });
    }
    let (only_expected, only_actual) = unmatched(&expected_rows, &actual_rows);
    let (first_expected, first_actual) = (only_expected.first()?, only_actual.first()?);
    Some(Difference::Row {
        position: None,
        differing: only_expected.len(),
        single_row,
        detail: detail(&expected.columns, first_expected, first_actual),
    })
}

/// The rows of each side that find no equal partner on the other, counting duplicates.
fn unmatched<'r, 'v>(
    expected: &'r [Vec<&'v Value>],
    actual: &'r [Vec<&'v Value>],
) -> (Vec<&'r [&'v Value]>, Vec<&'r [&'v Value]>) {
    let mut left: Vec<&[&Value]> = expected.iter().map(Vec::as_slice).collect();
    let mut right: Vec<&[&Value]> = actual.iter().map(Vec::as_slice).collect();
    left.sort_by(|a, b| row_order(a, b));
    right.sort_by(|a, b| row_order(a, b));
    // Sorted with numbers by value, equal rows meet in one pass.
    let (mut only_left, mut only_right) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        if rows_equal(left[i], right[j]) {
            i += 1;
            j += 1;
        } else if row_order(left[i], right[j]) == Ordering::Less {
            only_left.push(left[i]);
            i += 1;
        } else {
            only_right.push(right[j]);
            j += 1;
        }
    }
    only_left.extend(&left[i..]);
    only_right.extend(&right[j..]);
    // Numbers within the tolerance can sort apart when a later column decides the order:
    // pair what is left one by one.
    if only_left.len() <= MAX_LEFTOVER_PAIRING && only_right.len() <= MAX_LEFTOVER_PAIRING {
        only_left.retain(
            |row| match only_right.iter().position(|other| rows_equal(row, other)) {
                Some(partner) => {
                    only_right.remove(partner);
                    false
                }
                None => true,
            },
        );
    }
    (only_left, only_right)
}

/// A column order for `actual` under which the rows match, trying only orders that pair each
/// expected column with a returned column holding the same values.
fn matching_column_order(
    expected: &QueryResult,
    actual: &QueryResult,
    ordered: bool,
) -> Option<Vec<usize>> {
    let width = expected.columns.len();
    if !(2..=MAX_PERMUTED_COLUMNS).contains(&width) {
        return None;
    }
    fn column(result: &QueryResult, i: usize) -> Vec<Vec<&Value>> {
        result.rows.iter().map(|row| vec![&row[i]]).collect()
    }
    let actual_columns: Vec<_> = (0..width).map(|a| column(actual, a)).collect();
    let candidates: Vec<Vec<usize>> = (0..width)
        .map(|e| {
            let expected_column = column(expected, e);
            (0..width)
                .filter(|&a| {
                    let (left, right) = unmatched(&expected_column, &actual_columns[a]);
                    left.is_empty() && right.is_empty()
                })
                .collect()
        })
        .collect();
    let mut order = Vec::with_capacity(width);
    search_orders(&candidates, &mut order, &mut |order| {
        order.iter().enumerate().any(|(i, &j)| i != j)
            && compare_rows(expected, actual, order, ordered).is_none()
    })
    .then_some(order)
}

/// Depth-first over the column orders the candidates allow; true (with `order` filled) at the
/// first order `accept` takes.
fn search_orders(
    candidates: &[Vec<usize>],
    order: &mut Vec<usize>,
    accept: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    let Some(choices) = candidates.get(order.len()) else {
        return accept(order);
    };
    for &choice in choices {
        if order.contains(&choice) {
            continue;
        }
        order.push(choice);
        if search_orders(candidates, order, accept) {
            return true;
        }
        order.pop();
    }
    false
}

fn rows_equal(a: &[&Value], b: &[&Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| values_equal(x, y))
}

/// Equal by the module's rules: numbers within the tolerance, everything else exactly.
pub fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x == y,
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => numbers_equal(x, y),
            _ => a == b,
        },
    }
}

fn numbers_equal(x: f64, y: f64) -> bool {
    if x == y {
        return true; // also equal infinities
    }
    let gap = (x - y).abs();
    gap <= 1e-9 || gap <= 1e-6 * x.abs().max(y.abs())
}

/// A total order in which numbers sort by value (integers among reals), so that rows equal
/// within the tolerance are almost always neighbours.
fn row_order(a: &[&Value], b: &[&Value]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| value_order(x, y))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| a.len().cmp(&b.len()))
}

fn value_order(a: &Value, b: &Value) -> Ordering {
    fn class(value: &Value) -> u8 {
        match value {
            Value::Null => 0,
            Value::Integer(_) | Value::Real(_) => 1,
            Value::Text(_) => 2,
            Value::Blob(_) => 3,
        }
    }
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::Text(x), Value::Text(y)) => x.cmp(y),
        (Value::Blob(x), Value::Blob(y)) => x.cmp(y),
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            _ => class(a).cmp(&class(b)),
        },
    }
}

fn detail(names: &[String], expected: &[&Value], actual: &[&Value]) -> RowDetail {
    let differing: Vec<usize> = (0..expected.len())
        .filter(|&i| !values_equal(expected[i], actual[i]))
        .collect();
    match differing.as_slice() {
        [column] => RowDetail::Value {
            column: *column,
            name: cut_chars(&names[*column], SHOWN_VALUE_CHARS),
            expected: shown(expected[*column]),
            returned: shown(actual[*column]),
        },
        _ => RowDetail::Whole {
            expected: shown_row(expected),
            returned: shown_row(actual),
        },
    }
}

/// A value as a verdict shows it: text quoted and cut, NULL as NULL.
fn shown(value: &Value) -> String {
    match value {
        Value::Null => "NULL".into(),
        Value::Text(text) => format!("'{}'", cut_chars(text, SHOWN_VALUE_CHARS)),
        other => other.to_string(),
    }
}

fn shown_row(row: &[&Value]) -> String {
    let values: Vec<String> = row.iter().map(|v| shown(v)).collect();
    format!("({})", values.join(", "))
}

fn ordinal_column(index: usize) -> String {
    const ORDINALS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    match ORDINALS.get(index) {
        Some(ordinal) => format!("{ordinal} column"),
        None => format!("column {}", index + 1),
    }
}

#[cfg(test)]
pub(crate) mod builders;
#[cfg(test)]
mod tests;
