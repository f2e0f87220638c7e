//! [`Database`] on native hosts: a read-only rusqlite connection (the native tests, and the
//! `askdb-eval` runner). The page uses sql.js in a worker instead (`worker`).
//!
//! The same two walls as in the page: only a [`ReadOnlySql`] reaches SQLite, and the connection
//! itself is opened read-only with `query_only` on. A query's deadline interrupts SQLite through
//! its progress handler, as the page terminates its worker.

use crate::engine::file_check::{check_header, HEADER_LEN};
use crate::engine::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, RowCount, Value};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// SQLite's virtual machine steps between two looks at the clock.
const STEPS_BETWEEN_DEADLINE_CHECKS: i32 = 1_000;

/// A database file opened read-only, with `query_only` on as in the page.
pub struct RusqliteDb {
    connection: Connection,
}

/// Why a database file could not be opened, naming the file.
#[derive(Debug)]
pub struct OpenError {
    pub path: PathBuf,
    pub why: String,
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot open {}: {}", self.path.display(), self.why)
    }
}

impl std::error::Error for OpenError {}

impl RusqliteDb {
    /// Opens `path` read-only, after a look at its header so that a missing file, a CSV or a
    /// truncated copy is named as such (SQLite would only complain at the first query).
    pub fn open(path: &Path) -> Result<RusqliteDb, OpenError> {
        let fail = |why: String| OpenError {
            path: path.to_path_buf(),
            why,
        };
        let (head, file_len) = read_head(path).map_err(|e| fail(describe_io(&e)))?;
        check_header(&head, file_len)
            .map_err(|why| fail(format!("not a SQLite database: {why}")))?;
        let connection = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| fail(e.to_string()))?;
        connection
            .execute_batch("PRAGMA query_only=1")
            .map_err(|e| fail(e.to_string()))?;
        Ok(RusqliteDb { connection })
    }

    /// A copy of the database at `path` in memory, changed by `script` (from
    /// `engine::hidden::derive_script`: without what is hidden), then read-only like any other.
    /// The file itself is only read.
    pub fn derived(path: &Path, script: &str) -> Result<RusqliteDb, OpenError> {
        let original = RusqliteDb::open(path)?;
        let fail = |why: String| OpenError {
            path: path.to_path_buf(),
            why,
        };
        let mut copy = Connection::open_in_memory().map_err(|e| fail(e.to_string()))?;
        {
            let backup = rusqlite::backup::Backup::new(&original.connection, &mut copy)
                .map_err(|e| fail(e.to_string()))?;
            backup
                .run_to_completion(1_000, Duration::ZERO, None)
                .map_err(|e| fail(format!("cannot copy it into memory: {e}")))?;
        }
        copy.execute_batch(script)
            .map_err(|e| fail(format!("cannot make the copy without hidden tables: {e}")))?;
        copy.execute_batch("PRAGMA query_only=1")
            .map_err(|e| fail(e.to_string()))?;
        Ok(RusqliteDb { connection: copy })
    }

    /// The read-only connection itself, for callers that compare against SQLite directly (the
    /// tests' oracles). Everything the app runs goes through [`Database::run`].
    pub fn connection(&self) -> &Connection {
        &self.connection
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
        self.connection.progress_handler(
            STEPS_BETWEEN_DEADLINE_CHECKS,
            Some(move || Instant::now() > deadline),
        );
        let outcome = self.step_rows(sql, values, limits.max_rows, deadline);
        self.connection.progress_handler(0, None::<fn() -> bool>);
        let stepped = outcome.map_err(|e| {
            if Instant::now() > deadline {
                DbError::Timeout {
                    after_ms: limits.deadline_ms,
                }
            } else {
                DbError::Sqlite(e.to_string())
            }
        })?;
        Ok(QueryResult {
            columns: stepped.columns,
            truncated: stepped.total_rows != RowCount::Exact(stepped.rows.len() as u64),
            rows: stepped.rows,
            total_rows: stepped.total_rows,
            elapsed_ms: started.elapsed().as_secs_f64() * 1_000.0,
            reads: None,
        })
    }

    fn step_rows(
        &self,
        sql: &str,
        values: &[Value],
        max_rows: usize,
        deadline: Instant,
    ) -> rusqlite::Result<Stepped> {
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
        let more_than = |columns, rows, counted| Stepped {
            columns,
            rows,
            total_rows: RowCount::MoreThan(counted),
        };
        loop {
            // Past the kept rows, count on while time remains; then report "more than".
            if kept.len() >= max_rows && Instant::now() > deadline {
                return Ok(more_than(columns, kept, counted));
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
                Err(_) if kept.len() >= max_rows => return Ok(more_than(columns, kept, counted)),
                Err(e) => return Err(e),
            }
        }
        Ok(Stepped {
            columns,
            rows: kept,
            total_rows: RowCount::Exact(counted),
        })
    }
}

/// The rows a statement produced, at most `max_rows` of them kept.
struct Stepped {
    columns: Vec<String>,
    rows: Vec<Vec<Value>>,
    total_rows: RowCount,
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

/// The file's first bytes (up to the header's length) and its length.
fn read_head(path: &Path) -> std::io::Result<(Vec<u8>, u64)> {
    let file = std::fs::File::open(path)?;
    let file_len = file.metadata()?.len();
    let mut head = Vec::with_capacity(HEADER_LEN);
    file.take(HEADER_LEN as u64).read_to_end(&mut head)?;
    Ok((head, file_len))
}

fn describe_io(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "it is a folder, not a file".into(),
        _ => error.to_string(),
    }
}

/// A value read from SQLite, as the app holds it.
pub fn to_value(value: ValueRef<'_>) -> Value {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_named_as_missing() {
        let error = RusqliteDb::open(Path::new("no/such/shop.db"))
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            "cannot open no/such/shop.db: no such file"
        );
    }

    #[test]
    fn a_text_file_is_refused_before_sqlite_sees_it() {
        let path = std::env::temp_dir().join(format!("askdb-native-{}.csv", std::process::id()));
        std::fs::write(&path, "id,name\n".repeat(20)).unwrap();
        let error = RusqliteDb::open(&path).err().unwrap().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(error.contains("not a SQLite database"), "{error}");
        assert!(error.contains("looks like a text file"), "{error}");
    }

    #[test]
    fn a_folder_is_not_a_database() {
        let error = RusqliteDb::open(&std::env::temp_dir()).err().unwrap();
        assert!(
            error.to_string().ends_with("it is a folder, not a file"),
            "{error}"
        );
    }
}
