//! Shared by the native integration tests: a read-only rusqlite connection behind the same
//! `Database` trait the page's sql.js worker implements, and paths to the test datasets.
#![allow(dead_code)] // each test binary uses its own part of this module

pub mod hiding;
pub mod scripted_llm;

use askdb::engine::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, RowCount, Value};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `tests/datasets/<relative>` (copies of the shared datasets, each with its licence).
pub fn dataset(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/datasets")
        .join(relative)
}

/// A database opened read-only, with `query_only` on as in the page.
pub struct RusqliteDb {
    connection: Connection,
}

impl RusqliteDb {
    pub fn open(path: &Path) -> RusqliteDb {
        let connection = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
        connection
            .execute_batch("PRAGMA query_only=1")
            .expect("query_only");
        RusqliteDb { connection }
    }

    pub fn shop() -> RusqliteDb {
        RusqliteDb::open(&dataset("shop/shop.db"))
    }

    /// Runs `sql` straight on the connection, bypassing the rules: for comparing results.
    pub fn raw_rows(&self, sql: &str) -> rusqlite::Result<Vec<Vec<Value>>> {
        let mut statement = self.connection.prepare(sql)?;
        let width = statement.column_count();
        let mut rows = statement.query([])?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            out.push(
                (0..width)
                    .map(|i| to_value(row.get_ref_unwrap(i)))
                    .collect(),
            );
        }
        Ok(out)
    }

    fn run_blocking(
        &self,
        sql: &str,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        let started = Instant::now();
        let deadline = started + Duration::from_millis(u64::from(limits.deadline_ms));
        // Interrupt the statement when the deadline passes, as the page terminates its worker.
        self.connection
            .progress_handler(1_000, Some(move || Instant::now() > deadline));
        let outcome = self.step_rows(sql, values, limits.max_rows, deadline);
        self.connection.progress_handler(0, None::<fn() -> bool>);
        let (columns, rows, truncated, total_rows) = outcome.map_err(|e| {
            if Instant::now() > deadline {
                DbError::Timeout {
                    after_ms: limits.deadline_ms,
                }
            } else {
                DbError::Sqlite(e.to_string())
            }
        })?;
        Ok(QueryResult {
            columns,
            rows,
            truncated,
            total_rows,
            elapsed_ms: started.elapsed().as_secs_f64() * 1_000.0,
        })
    }

    #[allow(clippy::type_complexity)]
    fn step_rows(
        &self,
        sql: &str,
        values: &[Value],
        max_rows: usize,
        deadline: Instant,
    ) -> rusqlite::Result<(Vec<String>, Vec<Vec<Value>>, bool, RowCount)> {
        let mut statement = self.connection.prepare(sql)?;
        let columns: Vec<String> = statement
            .column_names()
            .iter()
            .map(|c| c.to_string())
            .collect();
        let width = columns.len();
        let bound = values.iter().map(to_sql);
        let mut rows = statement.query(rusqlite::params_from_iter(bound))?;
        let mut kept = Vec::new();
        let mut counted: u64 = 0;
        loop {
            // Past the kept rows, count on while time remains; then report "more than".
            if kept.len() >= max_rows && Instant::now() > deadline {
                return Ok((columns, kept, true, RowCount::MoreThan(counted)));
            }
            match rows.next() {
                Ok(Some(row)) => {
                    counted += 1;
                    if kept.len() < max_rows {
                        kept.push(
                            (0..width)
                                .map(|i| to_value(row.get_ref_unwrap(i)))
                                .collect(),
                        );
                    }
                }
                Ok(None) => break,
                // Interrupted while counting past the kept rows: what was kept stands.
                Err(_) if kept.len() >= max_rows => {
                    return Ok((columns, kept, true, RowCount::MoreThan(counted)))
                }
                Err(e) => return Err(e),
            }
        }
        let truncated = counted > kept.len() as u64;
        Ok((columns, kept, truncated, RowCount::Exact(counted)))
    }
}

fn to_value(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

/// A value to bind, as SQLite stores it (as sql.js binds it in the page).
fn to_sql(value: &Value) -> ToSqlOutput<'_> {
    ToSqlOutput::Borrowed(match value {
        Value::Null => ValueRef::Null,
        Value::Integer(i) => ValueRef::Integer(*i),
        Value::Real(r) => ValueRef::Real(*r),
        Value::Text(t) => ValueRef::Text(t.as_bytes()),
        Value::Blob(b) => ValueRef::Blob(b),
    })
}

impl Database for RusqliteDb {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        self.run_blocking(sql.as_str(), values, limits)
    }
}
