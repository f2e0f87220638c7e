//! `x NOT IN (SELECT y …)` that returned nothing because some `y` is NULL.

use super::diagnostic::{Diagnostic, DiagnosticKind};
use super::resolve::resolve;
use crate::agent::question_database::QuestionDatabase;
use crate::engine::schema::Column;
use crate::engine::{Database, Schema, Table};
use crate::sql::analysis::{ColumnRef, Query, TableRef};
use crate::sql::ident;

/// `x NOT IN (SELECT y FROM t)` returns nothing when some `y` is NULL. Only looked at when the
/// result is empty: a result with rows shows that no NULL reached the `NOT IN`.
pub(super) async fn not_in_with_nulls<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    query: &Query<'_>,
) -> Vec<Diagnostic> {
    let schema = data.schema();
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
        let Ok(nulls) = data.count_where(&table.name, &column.name, "IS NULL").await else {
            continue;
        };
        if nulls == 0 {
            continue;
        }
        let tables = tables.get_or_insert_with(|| query.tables());
        let outer = outer_column(schema, tables, &not_in.column, table);
        let (t, c) = (ident(&table.name), ident(&column.name));
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
        return format!("{}.{}", ident(qualifier), ident(&column.name));
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
            ident(t.alias.as_deref().unwrap_or(&t.name)),
            ident(&column.name)
        ),
        None => ident(&column.name),
    }
}
