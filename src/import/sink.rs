//! Where imported rows go: a small trait with one implementation per database, so the same
//! readers write into rusqlite natively (`native::RusqliteSink`, the tests and the benchmark)
//! and into sql.js in the import worker (`worker`). All tables are written in one transaction,
//! which the sink opens at its first table and [`Sink::commit`] ends.

use super::infer::SqlType;
use crate::engine::Value;
use crate::sql::quote_ident;

/// A database an import writes into.
pub trait Sink {
    /// Makes a table (`create_sql`), and readies `insert_sql` (one `?` per column) for the
    /// rows that follow, until the next table.
    fn create_table(&mut self, create_sql: &str, insert_sql: &str) -> Result<(), String>;
    /// One row of the last table made, a value per column.
    fn insert(&mut self, row: &[Value]) -> Result<(), String>;
    /// Ends the transaction: the tables and their rows are kept.
    fn commit(&mut self) -> Result<(), String>;
}

/// A table to be made: its name and typed columns.
pub struct TablePlan<'a> {
    pub name: &'a str,
    pub columns: Vec<(&'a str, SqlType)>,
}

impl TablePlan<'_> {
    pub fn create_sql(&self) -> String {
        let columns: Vec<String> = self
            .columns
            .iter()
            .map(|(name, ty)| format!("{} {}", quote_ident(name), ty.sql()))
            .collect();
        format!(
            "CREATE TABLE {} ({})",
            quote_ident(self.name),
            columns.join(", ")
        )
    }

    pub fn insert_sql(&self) -> String {
        let marks = vec!["?"; self.columns.len()].join(", ");
        format!("INSERT INTO {} VALUES ({marks})", quote_ident(self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_in_the_statements() {
        let plan = TablePlan {
            name: "a\"b",
            columns: vec![("x", SqlType::Integer), ("y z", SqlType::Text)],
        };
        assert_eq!(
            plan.create_sql(),
            "CREATE TABLE \"a\"\"b\" (\"x\" INTEGER, \"y z\" TEXT)"
        );
        assert_eq!(plan.insert_sql(), "INSERT INTO \"a\"\"b\" VALUES (?, ?)");
    }
}
