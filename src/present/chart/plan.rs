//! Deciding whether a result is a chart, and which one.

use super::dates::{self, Precision};
use super::{ChartKind, ChartPlan, Series};
use crate::engine::Value;
use std::collections::HashSet;

/// More bars than this would be slivers; the table shows such results better.
pub const MAX_BAR_ROWS: usize = 200;
/// A line stays readable with many more points than bars.
pub const MAX_LINE_ROWS: usize = 2_000;
// `plan` turns away results longer than a line takes: bars must not take more.
const _: () = assert!(MAX_BAR_ROWS <= MAX_LINE_ROWS);
/// More number columns than this is a table, not a chart (and runs out of distinct colours).
pub const MAX_SERIES: usize = 8;

/// Numbers beyond this are refused, so that scale arithmetic can never overflow.
const MAX_MAGNITUDE: f64 = 1e100;

/// What a column holds, judged from its non-NULL values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ColumnKind {
    Text,
    Number,
    /// Only NULLs: nothing to draw, nothing to label with.
    Empty,
    /// Blobs, text mixed with numbers, or numbers too large to draw.
    Other,
}

/// The chart a result supports, if any: exactly one label column (text, or integer years in
/// a column named like a year) and one or more number columns, at least two rows.
///
/// Dates in one format (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, with or without a time) make a line,
/// sorted by date; anything else makes bars, in the result's order. Number columns named like
/// keys (`id`, `customer_id`, `CustomerId`) are not drawn; all-NULL columns are skipped.
pub fn plan(columns: &[String], rows: &[Vec<Value>]) -> Option<ChartPlan> {
    // Longer results are no chart of either kind: they are turned away before being read.
    if rows.len() < 2 || rows.len() > MAX_LINE_ROWS {
        return None;
    }
    if rows.iter().any(|row| row.len() != columns.len()) {
        return None;
    }
    let kinds: Vec<ColumnKind> = (0..columns.len())
        .map(|c| column_kind(rows.iter().map(|row| &row[c])))
        .collect();
    if kinds.contains(&ColumnKind::Other) {
        return None;
    }
    let label = label_column(columns, rows, &kinds)?;
    let series: Vec<usize> = (0..columns.len())
        .filter(|&c| c != label && kinds[c] == ColumnKind::Number && !is_key(&columns[c]))
        .collect();
    if series.is_empty() || series.len() > MAX_SERIES {
        return None;
    }
    let labels: Vec<String> = rows.iter().map(|row| label_text(&row[label])).collect();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let (kind, positions) = match date_positions(&labels) {
        Some(times) => {
            order.sort_by(|&a, &b| times[a].total_cmp(&times[b]));
            (ChartKind::Line, order.iter().map(|&r| times[r]).collect())
        }
        None if rows.len() <= MAX_BAR_ROWS => {
            (ChartKind::Bar, (0..rows.len()).map(|i| i as f64).collect())
        }
        _ => return None,
    };
    Some(ChartPlan {
        kind,
        label_column: columns[label].clone(),
        labels: order.iter().map(|&r| labels[r].clone()).collect(),
        positions,
        series: series
            .iter()
            .map(|&c| Series {
                name: columns[c].clone(),
                values: order.iter().map(|&r| rows[r][c].as_f64()).collect(),
            })
            .collect(),
        rows: order,
    })
}

fn column_kind<'a>(values: impl Iterator<Item = &'a Value>) -> ColumnKind {
    let mut kind = ColumnKind::Empty;
    for value in values {
        let this = match value {
            Value::Null => continue,
            Value::Text(_) => ColumnKind::Text,
            Value::Integer(_) | Value::Real(_) => match value.as_f64() {
                Some(n) if n.is_finite() && n.abs() <= MAX_MAGNITUDE => ColumnKind::Number,
                _ => ColumnKind::Other,
            },
            Value::Blob(_) => ColumnKind::Other,
        };
        kind = match kind {
            ColumnKind::Empty => this,
            same if same == this => same,
            _ => ColumnKind::Other,
        };
    }
    kind
}

/// The one column that names the rows: a text column, or integer years in a column named like
/// a year. Two such columns (say a year and a category) are two dimensions: not one chart.
fn label_column(columns: &[String], rows: &[Vec<Value>], kinds: &[ColumnKind]) -> Option<usize> {
    let mut labels = (0..columns.len()).filter(|&c| {
        kinds[c] == ColumnKind::Text || (is_year_name(&columns[c]) && holds_years(rows, c))
    });
    match (labels.next(), labels.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

fn holds_years(rows: &[Vec<Value>], column: usize) -> bool {
    rows.iter()
        .all(|row| matches!(row[column], Value::Integer(year) if (1000..=2999).contains(&year)))
}

/// "year", "order_year", "Jahr", "année", "año", "anno", "年", "연도"/"년".
fn is_year_name(name: &str) -> bool {
    let name = name.to_lowercase();
    [
        "year", "jahr", "année", "annee", "año", "anno", "年", "년", "연도",
    ]
    .iter()
    .any(|word| name.contains(word))
        || name == "yr"
}

/// `id`, `…_id`, or camel case `…Id` / `…ID` (but not `paid` or `PAID`).
fn is_key(name: &str) -> bool {
    let lower = name.to_lowercase();
    if lower == "id" || lower.ends_with("_id") {
        return true;
    }
    let before = name.strip_suffix("Id").or_else(|| name.strip_suffix("ID"));
    before
        .and_then(|rest| rest.chars().last())
        .is_some_and(char::is_lowercase)
}

fn label_text(value: &Value) -> String {
    match value {
        Value::Null => "NULL".to_string(),
        other => other.to_string(),
    }
}

/// Each label's time, when every label is a date of the same precision and no two are equal
/// (repeated dates mean several rows per date: a line through them would zigzag).
fn date_positions(labels: &[String]) -> Option<Vec<f64>> {
    let mut precision: Option<Precision> = None;
    let mut seen = HashSet::new();
    let mut times = Vec::with_capacity(labels.len());
    for label in labels {
        let (this, time) = dates::position(label)?;
        if *precision.get_or_insert(this) != this || !seen.insert(time.to_bits()) {
            return None;
        }
        times.push(time);
    }
    Some(times)
}
