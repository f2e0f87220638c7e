//! Shared by the native integration tests: the crate's read-only rusqlite `Database`
//! (`askdb::engine::native`) opened on the test datasets, and paths to them.
#![allow(dead_code)] // each test binary uses its own part of this module

pub mod datasette;
pub mod fake_server;
pub mod golden;
pub mod hiding;
pub mod scripted_llm;

use askdb::engine::native::{to_value, RusqliteDb as NativeDb};
use askdb::engine::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, Value};
use std::path::{Path, PathBuf};

/// `tests/datasets/<relative>` (copies of the shared datasets, each with its licence).
pub fn dataset(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/datasets")
        .join(relative)
}

/// `tests/fixtures/<relative>`.
pub fn fixture(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(relative)
}

/// A file of a test's own in the temp directory (`askdb-<label>-<process>.db`), removed when
/// dropped, however the test ends.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(label: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("askdb-{label}-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The crate's native database (`askdb::engine::native::RusqliteDb`), opened read-only on a
/// test's file: a file that cannot be opened fails the test.
pub struct RusqliteDb(NativeDb);

impl RusqliteDb {
    pub fn open(path: &Path) -> RusqliteDb {
        RusqliteDb(NativeDb::open(path).unwrap_or_else(|e| panic!("{e}")))
    }

    /// `tests/datasets/shop/shop.db`.
    pub fn shop() -> RusqliteDb {
        RusqliteDb::open(&dataset("shop/shop.db"))
    }

    /// Runs `sql` straight on the connection, bypassing the rules: for comparing results.
    pub fn raw_rows(&self, sql: &str) -> rusqlite::Result<Vec<Vec<Value>>> {
        let mut statement = self.0.connection().prepare(sql)?;
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
}

/// `RusqliteDb::open`, for tests written against this module's free functions.
pub fn open(path: &Path) -> RusqliteDb {
    RusqliteDb::open(path)
}

/// `RusqliteDb::shop`, likewise.
pub fn shop() -> RusqliteDb {
    RusqliteDb::shop()
}

/// `db.raw_rows(sql)`, likewise.
pub fn raw_rows(db: &RusqliteDb, sql: &str) -> rusqlite::Result<Vec<Vec<Value>>> {
    db.raw_rows(sql)
}

impl Database for RusqliteDb {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        self.0.run(sql, values, limits).await
    }
}

/// The value index the page builds for a database in memory (a sample of each table), with a
/// minute to build it in (a debug build is slow), for the tests that ask with values.
pub fn value_index(
    db: &RusqliteDb,
    schema: &askdb::engine::Schema,
) -> askdb::search::values::ValueIndex {
    use askdb::agent::selection::values::{build, Bounds, IndexPlan};
    futures::executor::block_on(build(
        db,
        schema,
        &IndexPlan::Sample {
            rows_per_table: 20_000,
        },
        &Bounds {
            time_ms: 60_000.0,
            ..Bounds::default()
        },
        &askdb::clock::SystemClock::new(),
    ))
}
