//! What a query's result does not show: traps in the SQL, checked against the schema and the
//! data. `crate::sql::analysis` finds the comparisons; this module asks the database about them.

use super::near::{nearest, table_hint, TableHint};
use super::{dates, literals, Toolbox};
use crate::agent::text::sql_name;
use crate::engine::schema::Column;
use crate::engine::{Database, DbError, QueryResult, Schema, Table, Value};
use crate::sql::analysis::{ColumnRef, Query, TableRef};
use serde::Serialize;

/// One finding about a query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub kind: DiagnosticKind,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiagnosticKind {
    /// A compared literal occurs in its column (so an empty result comes from elsewhere).
    LiteralFound,
    /// A compared literal does not occur; the message lists the values that do.
    LiteralNotFound,
    /// `NOT IN (SELECT …)` over a column that holds NULLs.
    NotInWithNulls,
    /// `= NULL` or `!= NULL`.
    NullComparison,
    /// A division SQLite computes in integers.
    IntegerDivision,
    /// A date literal written in another shape than the column's dates.
    DateShape,
    /// A date literal shorter than the column's values ('2024-03-31' against
    /// '2024-03-31 14:05:00') as an inclusive upper or exclusive lower bound: it cuts a day
    /// (or month) in the wrong place.
    DateBound,
}

impl Diagnostic {
    pub(crate) fn new(kind: DiagnosticKind, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind,
            message: message.into(),
        }
    }
}

/// Everything worth telling the model about `sql`, which produced `result`.
pub async fn inspect<D: Database + ?Sized>(
    toolbox: &Toolbox<'_, D>,
    sql: &str,
    result: &QueryResult,
) -> Vec<Diagnostic> {
    let schema = toolbox.schema();
    let query = Query::read(sql);
    let comparisons = query.literal_comparisons();
    let mut found = Vec::new();
    if found_nothing(result) {
        found.extend(literals::check_literals(toolbox, &comparisons).await);
        found.extend(not_in_with_nulls(toolbox, &query).await);
    }
    found.extend(dates::check_date_literals(toolbox, &comparisons).await);
    for written in query.null_comparisons() {
        found.push(Diagnostic::new(
            DiagnosticKind::NullComparison,
            format!(
                "`{written}` is never true in SQL (a comparison with NULL is unknown): write \
                 IS NULL or IS NOT NULL"
            ),
        ));
    }
    let is_integer = |column: &ColumnRef, scope: &[TableRef]| {
        resolve(schema, column, scope)
            .is_some_and(|(_, c)| c.decl_type.to_ascii_uppercase().contains("INT"))
    };
    for written in query.integer_divisions(&is_integer) {
        found.push(Diagnostic::new(
            DiagnosticKind::IntegerDivision,
            format!(
                "`{written}` divides integers, so SQLite drops the fraction (7 / 2 = 3): \
                 multiply by 1.0 or CAST(... AS REAL) first"
            ),
        ));
    }
    found
}

/// No rows, or the single row an aggregate makes of no rows (a count of 0, a NULL sum): either
/// way the conditions may have matched nothing.
fn found_nothing(result: &QueryResult) -> bool {
    match result.rows.as_slice() {
        [] => true,
        [row] => row
            .iter()
            .all(|value| value.is_null() || *value == Value::Integer(0)),
        _ => false,
    }
}

/// `x NOT IN (SELECT y FROM t)` returns nothing when some `y` is NULL. Only looked at when the
/// result is empty: a result with rows shows that no NULL reached the `NOT IN`.
async fn not_in_with_nulls<D: Database + ?Sized>(
    toolbox: &Toolbox<'_, D>,
    query: &Query<'_>,
) -> Vec<Diagnostic> {
    let schema = toolbox.schema();
    let mut found = Vec::new();
    let mut tables = None;
    for not_in in query.not_in_subqueries() {
        let Some(inner) = &not_in.subquery_column else {
            continue;
        };
        let Some((table, column)) = resolve(schema, inner, &not_in.subquery_tables) else {
            continue;
        };
        if never_null(column) {
            continue;
        }
        let Ok(nulls) = toolbox
            .count_where(&table.name, &column.name, "IS NULL")
            .await
        else {
            continue;
        };
        if nulls == 0 {
            continue;
        }
        let tables = tables.get_or_insert_with(|| query.tables());
        let outer = outer_column(schema, tables, &not_in.column, table);
        let (t, c) = (sql_name(&table.name), sql_name(&column.name));
        found.push(Diagnostic::new(
            DiagnosticKind::NotInWithNulls,
            format!(
                "{}.{} holds {nulls} NULL value(s), and `x NOT IN (SELECT {c} FROM {t})` is never \
                 true once the subquery returns a NULL: that is why there are no rows. Use NOT \
                 EXISTS instead: `NOT EXISTS (SELECT 1 FROM {t} AS sub WHERE sub.{c} = {outer})` \
                 (or add `WHERE {c} IS NOT NULL` to the subquery).",
                table.name, column.name
            ),
        ));
    }
    found
}

/// A column that cannot hold NULL: declared NOT NULL, or SQLite's integer primary key (the rowid).
fn never_null(column: &Column) -> bool {
    column.not_null || (column.primary_key > 0 && column.decl_type.eq_ignore_ascii_case("INTEGER"))
}

/// The outer column of a `NOT IN`, qualified so that it cannot be taken for a column of the
/// subquery's table inside `NOT EXISTS`.
fn outer_column(
    schema: &Schema,
    tables: &[TableRef],
    column: &ColumnRef,
    inner_table: &Table,
) -> String {
    if let Some(qualifier) = &column.qualifier {
        return format!("{}.{}", sql_name(qualifier), sql_name(&column.name));
    }
    let owner = tables.iter().find(|t| {
        !t.name.eq_ignore_ascii_case(&inner_table.name)
            && schema
                .table(&t.name)
                .is_some_and(|table| table.column(&column.name).is_some())
    });
    match owner {
        Some(t) => format!(
            "{}.{}",
            sql_name(t.alias.as_deref().unwrap_or(&t.name)),
            sql_name(&column.name)
        ),
        None => sql_name(&column.name),
    }
}

/// The table and column a column reference means, among the tables of its `SELECT`.
pub(crate) fn resolve<'s>(
    schema: &'s Schema,
    column: &ColumnRef,
    scope: &[TableRef],
) -> Option<(&'s Table, &'s Column)> {
    let named = |t: &&TableRef| match &column.qualifier {
        None => true,
        Some(q) => {
            t.alias
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case(q))
                || t.name.eq_ignore_ascii_case(q)
        }
    };
    let in_scope = scope
        .iter()
        .filter(named)
        .filter_map(|t| schema.table(&t.name))
        .find_map(|table| table.column(&column.name).map(|c| (table, c)));
    // A qualifier that names a table directly, when the scope was not understood.
    in_scope.or_else(|| {
        let table = schema.table(column.qualifier.as_deref()?)?;
        table.column(&column.name).map(|c| (table, c))
    })
}

/// A database error as the model should read it, with the names it may have meant when SQLite
/// did not know a table or column.
pub(crate) fn explain_error(schema: &Schema, error: &DbError) -> String {
    let message = error.to_string();
    let DbError::Sqlite(sqlite) = error else {
        return message;
    };
    let unknown = |prefix: &str| {
        let start = sqlite.find(prefix)? + prefix.len();
        let name = sqlite[start..].split_whitespace().next()?;
        Some(name.rsplit('.').next().unwrap_or(name).to_string())
    };
    if let Some(table) = unknown("no such table: ") {
        return match table_hint(schema, &table) {
            TableHint::Near(close) => format!("{message}. Did you mean: {}?", close.join(", ")),
            TableHint::Tables(all) => format!("{message}. The tables are: {}", all.join(", ")),
        };
    }
    if let Some(column) = unknown("no such column: ") {
        let qualified: Vec<String> = schema
            .tables
            .iter()
            .flat_map(|t| t.columns.iter().map(move |c| (t, c)))
            .filter(|(_, c)| !nearest(&column, [c.name.as_str()], 1).is_empty())
            .take(8)
            .map(|(t, c)| format!("{}.{}", t.name, c.name))
            .collect();
        if !qualified.is_empty() {
            return format!(
                "{message}. Columns with similar names: {}",
                qualified.join(", ")
            );
        }
    }
    message
}
