//! Which table and column of the schema a column written in a query means.

use crate::engine::schema::Column;
use crate::engine::{Schema, Table};
use crate::sql::analysis::{ColumnRef, TableRef};

/// The table and column a column reference means, among the tables of its `SELECT`.
pub(super) fn resolve<'s>(
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
