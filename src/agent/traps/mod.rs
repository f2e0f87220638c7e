//! What a query's result does not show: traps in the SQL, checked against the schema and the
//! data. `crate::sql::analysis` finds the comparisons; the functions here ask the database
//! about them.
//! [`inspect`] is the one entry point for a query that ran, [`explain_error`] for one that did
//! not.

mod dates;
mod diagnostic;
mod errors;
mod literals;
pub(crate) mod near;
mod not_in;
mod resolve;

pub use diagnostic::{Diagnostic, DiagnosticKind};
pub(crate) use errors::explain_error;

use crate::agent::question_database::QuestionDatabase;
use crate::engine::{Database, QueryResult, Value};
use crate::sql::analysis::{ColumnRef, Query, TableRef};
use resolve::resolve;

/// Everything worth telling the model about `query`, which produced `result`.
pub(crate) async fn inspect<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    query: &Query<'_>,
    result: &QueryResult,
) -> Vec<Diagnostic> {
    let schema = data.schema();
    let comparisons = query.literal_comparisons();
    let mut found = Vec::new();
    if found_nothing(result) {
        found.extend(literals::inspect_literals(data, &comparisons).await);
        found.extend(not_in::not_in_with_nulls(data, query).await);
    }
    found.extend(dates::inspect_date_literals(data, &comparisons).await);
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
