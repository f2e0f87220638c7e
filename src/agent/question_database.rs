//! The open database as the tools and the trap inspection read it during one question: its
//! schema, and small queries within the question's time.

use super::AgentConfig;
use crate::engine::{
    query, query_bound, Database, DbError, QueryLimits, QueryResult, RowCount, Schema, Value,
};
use crate::sql::quote_ident;

/// Statistics over a bigger table are taken from its first this-many rows.
pub(crate) const SAMPLE_ROWS: u64 = 10_000;
/// A column with at most this many distinct values has all of them listed.
pub(crate) const FEW_VALUES: usize = 25;
/// Otherwise this many of its most frequent values are.
pub(crate) const MOST_FREQUENT: usize = 10;
/// Values in statistics and in sentences about the data are cut to this many characters.
pub(crate) const STATISTIC_VALUE_CHARS: usize = 60;

/// The database, its schema and the time the question has left.
pub(crate) struct QuestionDatabase<'a, D: ?Sized> {
    db: &'a D,
    schema: &'a Schema,
    config: &'a AgentConfig,
    /// What is left of the question's time: no query may run longer.
    time_left_ms: u32,
}

impl<'a, D: Database + ?Sized> QuestionDatabase<'a, D> {
    pub(crate) fn new(db: &'a D, schema: &'a Schema, config: &'a AgentConfig) -> Self {
        QuestionDatabase {
            db,
            schema,
            config,
            time_left_ms: config.query_deadline_ms,
        }
    }

    pub(crate) fn set_time_left(&mut self, ms: u32) {
        self.time_left_ms = ms;
    }

    pub(crate) fn schema(&self) -> &'a Schema {
        self.schema
    }

    pub(crate) fn config(&self) -> &AgentConfig {
        self.config
    }

    /// Runs `sql` through the guard, with at most `max_rows` rows and the query deadline (or
    /// what is left of the question's time, when that is less).
    pub(crate) async fn query(&self, sql: &str, max_rows: usize) -> Result<QueryResult, DbError> {
        query(self.db, sql, &self.limits(max_rows)).await
    }

    /// The same for a statement the app compiled, with `values` bound to its parameters.
    pub(crate) async fn query_bound(
        &self,
        sql: &str,
        values: &[Value],
        max_rows: usize,
    ) -> Result<QueryResult, DbError> {
        let limits = self.limits(max_rows);
        query_bound(self.db, sql, values, &limits).await
    }

    fn limits(&self, max_rows: usize) -> QueryLimits {
        QueryLimits {
            max_rows: max_rows.max(1),
            deadline_ms: self.config.query_deadline_ms.min(self.time_left_ms.max(1)),
        }
    }

    /// The first number of the first row of `sql`, for counts.
    pub(crate) async fn count(&self, sql: &str) -> Result<u64, DbError> {
        let result = self.query(sql, 1).await?;
        let value = result.rows.first().and_then(|row| row.first());
        Ok(value.and_then(|v| v.as_f64()).unwrap_or(0.0) as u64)
    }

    /// How many rows of `table` have `column` `condition` (`IS NULL`, `= 'Tokyo'`).
    pub(crate) async fn count_where(
        &self,
        table: &str,
        column: &str,
        condition: &str,
    ) -> Result<u64, DbError> {
        let sql = format!(
            "SELECT count(*) FROM {} WHERE {} {condition}",
            quote_ident(table),
            quote_ident(column)
        );
        self.count(&sql).await
    }

    /// Rows of (value, count) of `column` in `source`, at most `limit`: the most frequent first,
    /// equal counts in value order, NULL (unless `skip_null`) after the values as frequent.
    pub(crate) async fn value_counts(
        &self,
        source: &str,
        column: &str,
        limit: usize,
        skip_null: bool,
    ) -> Result<Vec<Vec<Value>>, DbError> {
        let c = quote_ident(column);
        let filter = if skip_null {
            format!("WHERE {c} IS NOT NULL ")
        } else {
            String::new()
        };
        let sql = format!(
            "SELECT {c}, count(*) FROM {source} {filter}GROUP BY {c} \
             ORDER BY count(*) DESC, {c} IS NULL, {c} LIMIT {limit}"
        );
        Ok(self.query(&sql, limit).await?.rows)
    }
}

/// What statistics over `table` read: the table itself when small, else its first
/// [`SAMPLE_ROWS`] rows. The flag says whether it is a sample.
pub(crate) fn sampled_source(table: &crate::engine::Table) -> (String, bool) {
    let name = quote_ident(&table.name);
    match table.row_count {
        Some(RowCount::Exact(n)) if n <= SAMPLE_ROWS => (name, false),
        _ => (format!("(SELECT * FROM {name} LIMIT {SAMPLE_ROWS})"), true),
    }
}
