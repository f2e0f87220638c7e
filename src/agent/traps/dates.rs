//! Dates stored as text and compared with literals: a literal in another shape than the
//! column's values matches nothing or the wrong rows, and a shorter literal used as a bound
//! cuts its day or month in the wrong place. SQLite compares text character by character, so
//! the model cannot see either from a result that merely "ran".

use super::diagnostic::{Diagnostic, DiagnosticKind};
use super::resolve::resolve;
use crate::agent::question_database::QuestionDatabase;
use crate::engine::schema::Column;
use crate::engine::{Database, Table, Value};
use crate::sql::analysis::{date_shape, ComparisonOp, Literal, LiteralComparison, Order};
use crate::sql::ident;
use crate::sql::{quote_ident, quote_literal};
use std::collections::HashMap;

/// Comparisons inspected for one query, at most.
const MAX_COMPARISONS: usize = 6;
/// How many of a column's values are looked at to learn its date shape.
const SAMPLE: usize = 20;

/// Findings about the date literals among `comparisons`.
pub(super) async fn inspect_date_literals<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    comparisons: &[LiteralComparison],
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut seen: Vec<(String, String)> = Vec::new();
    // Each column's shape is read once, however many literals it is compared with.
    let mut shapes: HashMap<(&str, &str), Option<(String, String)>> = HashMap::new();
    let dated = comparisons
        .iter()
        .filter(|c| !matches!(c.op, ComparisonOp::Like | ComparisonOp::Glob));
    for comparison in dated.take(MAX_COMPARISONS) {
        let schema = data.schema();
        let Some((table, column)) = resolve(schema, &comparison.column, &comparison.scope) else {
            continue;
        };
        let target = format!("{}.{}", table.name, column.name);
        for (index, literal) in comparison.literals.iter().enumerate() {
            let Literal::Text(text) = literal else {
                continue;
            };
            let Some(literal_shape) = date_shape(text) else {
                continue;
            };
            let key = (target.clone(), text.clone());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let column_key = (table.name.as_str(), column.name.as_str());
            let shape = match shapes.get(&column_key) {
                Some(shape) => shape.clone(),
                None => {
                    let shape = column_date_shape(data, table, column).await;
                    shapes.insert(column_key, shape.clone());
                    shape
                }
            };
            let Some((column_shape, example)) = shape else {
                continue;
            };
            if column_shape == literal_shape {
                continue;
            }
            let shorter = column_shape.starts_with(&literal_shape);
            let finding = match (bound_of(comparison.op, index), shorter) {
                // '2024-03' <= '2024-03-02': a shorter lower bound, or a shorter exclusive
                // upper bound, orders correctly.
                (Some(Bound::Safe), true) => None,
                (Some(Bound::CutsItsPeriod(order)), true) => {
                    Some(cut_period(&target, &column.name, text, &example, order))
                }
                _ => Some(other_shape(
                    &target,
                    &column_shape,
                    &example,
                    text,
                    &literal_shape,
                )),
            };
            found.extend(finding);
        }
    }
    found
}

/// What a literal does as a bound when it is shorter than the column's values.
enum Bound {
    /// `>=` or `<` (and BETWEEN's lower value): every longer value falls on the right side.
    Safe,
    /// `<=` or `>` (and BETWEEN's upper value): the longer values that start with the literal
    /// sort after it, so `<=` leaves them out and `>` takes them in.
    CutsItsPeriod(Order),
}

/// The bound the `index`-th literal of `op` is, or `None` when `op` is not a range.
fn bound_of(op: ComparisonOp, index: usize) -> Option<Bound> {
    match op {
        ComparisonOp::Ordering(order @ (Order::LessOrEqual | Order::Greater)) => {
            Some(Bound::CutsItsPeriod(order))
        }
        ComparisonOp::Ordering(_) => Some(Bound::Safe),
        ComparisonOp::Between if index == 0 => Some(Bound::Safe),
        ComparisonOp::Between => Some(Bound::CutsItsPeriod(Order::LessOrEqual)),
        _ => None,
    }
}

fn other_shape(
    target: &str,
    column_shape: &str,
    example: &str,
    literal: &str,
    literal_shape: &str,
) -> Diagnostic {
    Diagnostic::new(
        DiagnosticKind::DateShape,
        format!(
            "{target} holds dates shaped {column_shape} (e.g. {}), but {} is {literal_shape}; \
             text is compared character by character, so write the literal as {column_shape}",
            quote_literal(example),
            quote_literal(literal)
        ),
    )
}

fn cut_period(
    target: &str,
    column: &str,
    literal: &str,
    example: &str,
    order: Order,
) -> Diagnostic {
    // A value of the column's shape that starts with the literal: '2024-03-31 14:05:00'.
    let longer = match example.get(literal.len()..) {
        Some(rest) if example.is_char_boundary(literal.len()) => format!("{literal}{rest}"),
        _ => example.to_string(),
    };
    let (operator, effect) = match order {
        Order::Greater => (">", "takes them in"),
        _ => ("<=", "leaves them out"),
    };
    let quoted = quote_literal(literal);
    let width = literal.chars().count();
    Diagnostic::new(
        DiagnosticKind::DateBound,
        format!(
            "{target} holds values longer than {quoted}, such as {}, which sort after it: \
             {operator} {quoted} {effect}. Compare the first {width} characters instead \
             (substr({}, 1, {width}) {operator} {quoted}), or bound the range with < the next \
             day or month",
            quote_literal(&longer),
            ident(column),
        ),
    )
}

/// The shape most of a column's first values have, with one example; `None` when they are not
/// dates written as text.
async fn column_date_shape<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    table: &Table,
    column: &Column,
) -> Option<(String, String)> {
    let sql = format!(
        "SELECT {c} FROM {t} WHERE {c} IS NOT NULL LIMIT {SAMPLE}",
        c = quote_ident(&column.name),
        t = quote_ident(&table.name)
    );
    let sample = data.query(&sql, SAMPLE).await.ok()?;
    let texts: Vec<&str> = sample
        .rows
        .iter()
        .filter_map(|row| match &row[0] {
            Value::Text(text) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let shapes: Vec<(String, &str)> = texts
        .iter()
        .filter_map(|text| date_shape(text).map(|shape| (shape, *text)))
        .collect();
    let (shape, example) = shapes.first()?.clone();
    let agreeing = shapes.iter().filter(|(s, _)| *s == shape).count();
    (agreeing * 2 > sample.rows.len()).then(|| (shape, example.to_string()))
}
