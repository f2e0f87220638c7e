//! A structured query compiled to one SQL statement whose values are parameters `?1`, `?2`, …
//! (never written into its text): [`plan::check`](super::plan::check) resolves and checks it,
//! then the plan is written here.

use super::fields::Catalog;
use super::plan::{self, Condition, Plan, Test};
use super::StructuredQuery;
use crate::engine::Value;
use crate::sql::{ident, quote_ident};
use serde::Serialize;

/// A compiled query: the statement, and the values bound to its parameters in order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Compiled {
    pub sql: String,
    pub values: Vec<Value>,
}

/// Checks `query` against `catalog` and compiles it; a mistake comes back with what would do.
pub fn compile(catalog: &Catalog, query: &StructuredQuery) -> Result<Compiled, String> {
    Ok(write(&plan::check(catalog, query)?))
}

/// The statement for a checked plan; its values are numbered in the order they are written.
fn write(plan: &Plan) -> Compiled {
    let mut bound = Vec::new();
    let select: Vec<String> = plan
        .columns
        .iter()
        .map(|column| {
            let plain = column.expression.rsplit('.').next() == Some(ident(&column.label).as_str());
            if plain {
                column.expression.clone()
            } else {
                format!("{} AS {}", column.expression, quote_ident(&column.label))
            }
        })
        .collect();
    let mut sql = format!("SELECT {}\nFROM {}", select.join(", "), ident(&plan.base));
    for join in &plan.joins {
        let aliased = if join.alias == join.table {
            ident(&join.table)
        } else {
            format!("{} AS {}", ident(&join.table), ident(&join.alias))
        };
        sql.push_str(&format!(
            "\nLEFT JOIN {aliased} ON {}.{} = {}.{}",
            ident(&join.alias),
            ident(&join.to_column),
            ident(&plan.base),
            ident(&join.key_column)
        ));
    }
    if !plan.conditions.is_empty() {
        let conditions: Vec<String> = plan
            .conditions
            .iter()
            .map(|condition| write_condition(condition, &mut bound))
            .collect();
        sql.push_str(&format!("\nWHERE {}", conditions.join("\n  AND ")));
    }
    if !plan.groups.is_empty() {
        sql.push_str(&format!("\nGROUP BY {}", plan.groups.join(", ")));
    }
    if !plan.order.is_empty() {
        let keys: Vec<String> = plan
            .order
            .iter()
            .map(|key| {
                let direction = if key.descending { " DESC" } else { "" };
                format!("{}{direction}", key.expression)
            })
            .collect();
        sql.push_str(&format!("\nORDER BY {}", keys.join(", ")));
    }
    if let Some(limit) = plan.limit {
        sql.push_str(&format!("\nLIMIT {limit}"));
    }
    Compiled { sql, values: bound }
}

/// One condition as SQL, its values pushed onto `bound`.
fn write_condition(condition: &Condition, bound: &mut Vec<Value>) -> String {
    let mut bind = |value: &Value| {
        bound.push(value.clone());
        format!("?{}", bound.len())
    };
    let e = &condition.expression;
    match &condition.test {
        Test::IsNull => format!("{e} IS NULL"),
        Test::NotNull => format!("{e} IS NOT NULL"),
        Test::Compare { sign, value } => format!("{e} {sign} {}", bind(value)),
        Test::Like { pattern } => {
            let p = bind(&Value::Text(pattern.clone()));
            format!("{e} LIKE {p} ESCAPE '\\'")
        }
        Test::In(values) => {
            let list: Vec<String> = values.iter().map(&mut bind).collect();
            format!("{e} IN ({})", list.join(", "))
        }
        Test::Between { from, to } => {
            let (from, to) = (bind(from), bind(to));
            format!("{e} BETWEEN {from} AND {to}")
        }
        Test::Prefix { sign, value } => {
            let chars = prefix_chars(value);
            format!("substr({e}, 1, {chars}) {sign} {}", bind(value))
        }
        Test::PrefixBetween { from, to } => {
            let (from_chars, to_chars) = (prefix_chars(from), prefix_chars(to));
            let (from, to) = (bind(from), bind(to));
            format!("substr({e}, 1, {from_chars}) >= {from} AND substr({e}, 1, {to_chars}) <= {to}")
        }
    }
}

/// How many leading characters of a date a prefix compares: as many as the value has.
fn prefix_chars(value: &Value) -> usize {
    match value {
        Value::Text(text) => text.chars().count(),
        _ => 0,
    }
}
