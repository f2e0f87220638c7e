//! Literals compared with columns: does the value occur, and if not, which values do.

use super::diagnostic::{Diagnostic, DiagnosticKind};
use super::near::nearest;
use super::resolve::resolve;
use crate::agent::question_database::{
    sampled_source, QuestionDatabase, FEW_VALUES, MOST_FREQUENT, SAMPLE_ROWS, STATISTIC_VALUE_CHARS,
};
use crate::agent::values::value_phrase;
use crate::engine::schema::Column;
use crate::engine::{Database, Table, Value};
use crate::sql::analysis::{ComparisonOp, Literal, LiteralComparison};
use crate::sql::{quote_ident, quote_literal};

/// Bounds on the work done for one query: comparisons inspected, literals per comparison, near
/// values listed.
const MAX_COMPARISONS: usize = 6;
const MAX_LITERALS: usize = 10;
const NEAREST: usize = 8;

fn literal_sql(literal: &Literal) -> String {
    match literal {
        Literal::Text(text) => quote_literal(text),
        Literal::Integer(i) => i.to_string(),
        Literal::Real(r) => format!("{r:?}"),
    }
}

fn literal_value(literal: &Literal) -> Value {
    match literal {
        Literal::Text(text) => Value::Text(text.clone()),
        Literal::Integer(i) => Value::Integer(*i),
        Literal::Real(r) => Value::Real(*r),
    }
}

/// For each comparison of a column with literals (of a query that returned no rows): whether
/// each literal occurs, and when it does not, the values that do.
pub(super) async fn inspect_literals<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    comparisons: &[LiteralComparison],
) -> Vec<Diagnostic> {
    let inspected = comparisons.iter().filter(|c| {
        !c.negated
            && matches!(
                c.op,
                ComparisonOp::Equals
                    | ComparisonOp::In
                    | ComparisonOp::Like
                    | ComparisonOp::Glob
                    | ComparisonOp::Between
            )
    });
    let mut found = Vec::new();
    for comparison in inspected.take(MAX_COMPARISONS) {
        let schema = data.schema();
        let Some((table, column)) = resolve(schema, &comparison.column, &comparison.scope) else {
            continue;
        };
        found.extend(inspect_comparison(data, table, column, comparison).await);
    }
    found
}

async fn inspect_comparison<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    table: &Table,
    column: &Column,
    comparison: &LiteralComparison,
) -> Vec<Diagnostic> {
    let target = format!("{}.{}", table.name, column.name);
    // Each test: (how the condition reads, its SQL, the text to look for near values).
    let mut tests: Vec<(String, String, Option<String>)> = Vec::new();
    let literals = &comparison.literals;
    match comparison.op {
        ComparisonOp::Equals | ComparisonOp::In => {
            for literal in literals.iter().take(MAX_LITERALS) {
                let probe = match literal {
                    Literal::Text(text) => Some(text.clone()),
                    _ => None,
                };
                let phrase = value_phrase(&literal_value(literal), STATISTIC_VALUE_CHARS);
                tests.push((phrase, format!("= {}", literal_sql(literal)), probe));
            }
        }
        ComparisonOp::Like | ComparisonOp::Glob => {
            let keyword = if comparison.op == ComparisonOp::Like {
                "LIKE"
            } else {
                "GLOB"
            };
            if let Some(literal @ Literal::Text(pattern)) = literals.first() {
                let bare: String = pattern
                    .chars()
                    .filter(|c| !matches!(c, '%' | '_' | '*' | '?' | '[' | ']'))
                    .collect();
                let condition = format!("{keyword} {}", literal_sql(literal));
                tests.push((condition.clone(), condition, Some(bare)));
            }
        }
        ComparisonOp::Between => {
            if let [low, high] = literals.as_slice() {
                let (low, high) = (literal_sql(low), literal_sql(high));
                tests.push((
                    format!("between {low} and {high}"),
                    format!("BETWEEN {low} AND {high}"),
                    None,
                ));
            }
        }
        ComparisonOp::NotEquals | ComparisonOp::Ordering(_) => {}
    }

    let mut missing = Vec::new();
    let mut present = Vec::new();
    let mut probe = None;
    for (phrase, condition, near) in tests {
        match data
            .count_where(&table.name, &column.name, &condition)
            .await
        {
            Ok(0) => {
                probe = probe.or(near);
                missing.push(phrase);
            }
            Ok(n) => present.push(format!("{phrase} ({n} rows)")),
            Err(_) => {}
        }
    }
    let mut found = Vec::new();
    if !missing.is_empty() {
        let range = comparison.op == ComparisonOp::Between;
        let values = values_summary(data, table, column, probe.as_deref(), range).await;
        found.push(Diagnostic::new(
            DiagnosticKind::LiteralNotFound,
            format!("{target} has no value {}; {values}", missing.join(" or ")),
        ));
    }
    if !present.is_empty() {
        found.push(Diagnostic::new(
            DiagnosticKind::LiteralFound,
            format!(
                "{target} does have {}: the empty result comes from the other conditions or \
                 the joins",
                present.join(", ")
            ),
        ));
    }
    found
}

/// The values a column does hold: all with counts when few, else those near `probe` and the
/// most frequent (or the range, for numbers and when `range` is asked for).
async fn values_summary<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    table: &Table,
    column: &Column,
    probe: Option<&str>,
    range: bool,
) -> String {
    let (source, sampled) = sampled_source(table);
    let sample_note = if sampled {
        format!(" (in the first {} rows)", SAMPLE_ROWS)
    } else {
        String::new()
    };
    let Ok(groups) = data
        .value_counts(&source, &column.name, FEW_VALUES + 1, false)
        .await
    else {
        return "its values could not be read".to_string();
    };
    if groups.len() <= FEW_VALUES {
        return format!("its values are {}{sample_note}", counted(&groups));
    }

    let mut parts = Vec::new();
    if let Some(probe) = probe.filter(|p| !p.trim().is_empty()) {
        let near = near_values(data, table, column, probe).await;
        if near.is_empty() {
            parts.push("no value is close to it".to_string());
        } else {
            parts.push(format!("the nearest values are {}", counted(&near)));
        }
    }
    let numeric = groups
        .iter()
        .all(|row| row[0].is_number() || row[0].is_null());
    if numeric || range {
        let c = quote_ident(&column.name);
        let range_sql = format!("SELECT min({c}), max({c}) FROM {source}");
        if let Ok(range) = data.query(&range_sql, 1).await {
            if let Some(row) = range.rows.first() {
                parts.push(format!(
                    "its values run from {} to {}{sample_note}",
                    value_phrase(&row[0], STATISTIC_VALUE_CHARS),
                    value_phrase(&row[1], STATISTIC_VALUE_CHARS)
                ));
            }
        }
    } else {
        let top: Vec<Vec<Value>> = groups
            .iter()
            .filter(|row| !row[0].is_null())
            .take(MOST_FREQUENT)
            .cloned()
            .collect();
        parts.push(format!(
            "its most frequent values are {}{sample_note}",
            counted(&top)
        ));
    }
    parts.join("; ")
}

/// Values of the column near `probe`: the same but for case and spaces, or one inside the other
/// (searched in the whole table), or a few typing mistakes away (among the most frequent).
async fn near_values<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    table: &Table,
    column: &Column,
    probe: &str,
) -> Vec<Vec<Value>> {
    let c = quote_ident(&column.name);
    let p = quote_literal(probe.trim());
    let similar_sql = format!(
        "SELECT {c}, count(*) FROM {t} WHERE {c} IS NOT NULL AND ( \
         lower(trim({c})) = lower({p}) OR instr(lower({c}), lower({p})) > 0 \
         OR (length(trim({c})) >= 2 AND instr(lower({p}), lower(trim({c}))) > 0)) \
         GROUP BY {c} ORDER BY count(*) DESC LIMIT {NEAREST}",
        t = quote_ident(&table.name)
    );
    let mut near: Vec<Vec<Value>> = match data.query(&similar_sql, NEAREST).await {
        Ok(result) => result.rows,
        Err(_) => Vec::new(),
    };
    let (source, _) = sampled_source(table);
    // Not `value_counts`, which orders equal counts by value: here they stay in SQLite's order,
    // so that the 200 candidates, and the order of equally near ones, are what they always were.
    let frequent_sql = format!(
        "SELECT {c}, count(*) FROM {source} WHERE {c} IS NOT NULL \
         GROUP BY {c} ORDER BY count(*) DESC LIMIT 200"
    );
    if let Ok(frequent) = data.query(&frequent_sql, 200).await {
        let texts: Vec<String> = frequent.rows.iter().map(|r| r[0].to_string()).collect();
        for close in nearest(probe, texts.iter().map(String::as_str), NEAREST) {
            let row = frequent.rows.iter().find(|r| r[0].to_string() == close);
            if let Some(row) = row {
                if !near.contains(row) {
                    near.push(row.clone());
                }
            }
        }
    }
    near.truncate(NEAREST);
    near
}

/// `'Tokyo' (2), 'Osaka' (1), NULL (1)` from rows of (value, count).
fn counted(rows: &[Vec<Value>]) -> String {
    rows.iter()
        .map(|row| {
            let count = row.get(1).map(|v| v.to_string()).unwrap_or_default();
            format!("{} ({count})", value_phrase(&row[0], STATISTIC_VALUE_CHARS))
        })
        .collect::<Vec<_>>()
        .join(", ")
}
