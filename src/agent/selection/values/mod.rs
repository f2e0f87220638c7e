//! How the value index (`search::values`) is read from a database: through [`Database`] only,
//! so it runs wherever the database is (sql.js in the page's worker, rusqlite natively), within
//! the caller's [`Bounds`] (time, the index's own bytes, each query's limits). How much it reads
//! is the caller's [`IndexPlan`], chosen for the kind of database (`selection::value_plan`): a
//! sample of each table for a database in memory (`sample`), the indexed columns only
//! (seeking, never scanning: `seek`) for one read on demand, or nothing. The index's
//! [`Coverage`] says what was read and what was not.

mod sample;
mod seek;
#[cfg(test)]
mod tests;

pub use seek::{NO_STATISTICS, STATISTICS_UNREADABLE};

/// Why nothing is indexed with a plan that reads no rows.
pub const NO_ROWS_PLANNED: &str = "the plan reads no rows of any table";

use crate::clock::Clock;
use crate::engine::{query, query_bound, Database, DbError, QueryLimits};
use crate::engine::{QueryResult, Schema, Table, TableKind, Value};
use crate::search::values::{Added, Coverage, Cut, Scanned, Unreadable, ValueIndex};

/// A column is indexed only when what was read of it holds at most this many distinct non-null
/// values. Categories, statuses, codes and countries stay under it (ISO 3166 lists 249
/// countries); a column with more holds names of people, products or places, or free text, of
/// which a sample holds a part that the value a question names is likely to miss. It also
/// bounds the seeks of one indexed column ([`IndexPlan::IndexedOnly`]).
pub const MAX_DISTINCT: usize = 250;

/// A column is indexed only when each of its text values is at most this many characters,
/// trimmed: names of categories, companies and countries fit ('Democratic Republic of the
/// Congo' is 32); a column with a longer value holds descriptions or addresses, which a question
/// does not quote whole.
pub const MAX_VALUE_CHARS: usize = 60;

/// How to build the index, chosen by the caller for the kind of database.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexPlan {
    /// In memory: each table's text columns read from its first `rows_per_table` rows.
    Sample { rows_per_table: u64 },
    /// Read on demand (a big local file or a remote one): only columns that lead an index and
    /// that `sqlite_stat1` says hold few distinct values, read by seeking the index value by
    /// value (`SELECT c FROM t WHERE c > ?1 ORDER BY c LIMIT 1`), until the database reports
    /// `byte_budget` bytes read ([`crate::engine::QueryResult::reads`]; a database that reports
    /// none is allowed `byte_budget / 4096` seeks instead); skipped, with the reason, when the
    /// file has no `sqlite_stat1`.
    IndexedOnly { byte_budget: u64 },
    /// Not built, for this reason (said in [`Coverage::Skipped`]).
    Skip(String),
}

/// What building the index may cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// No query starts after this many milliseconds (checked with the clock between queries;
    /// the query running then may take up to its own deadline, `query.deadline_ms`).
    pub time_ms: f64,
    /// The index's own size ([`ValueIndex::bytes`]) never passes this.
    pub bytes: usize,
    /// Each query's deadline and row cap.
    pub query: QueryLimits,
}

impl Default for Bounds {
    /// The goals for the page: at most 1 s and 20 MB.
    fn default() -> Self {
        Bounds {
            time_ms: 1_000.0,
            bytes: 20_000_000,
            query: QueryLimits::default(),
        }
    }
}

/// The value index of `db`: the values `plan` allows read from the tables of `schema` (views
/// are skipped: reading one runs its query), within `bounds`. Never fails: what could not be
/// read is in [`ValueIndex::coverage`].
pub async fn build<D: Database + ?Sized>(
    db: &D,
    schema: &Schema,
    plan: &IndexPlan,
    bounds: &Bounds,
    clock: &dyn Clock,
) -> ValueIndex {
    let mut build = Build {
        index: ValueIndex::default(),
        bounds,
        clock,
        started_ms: clock.now_ms(),
        scanned: Scanned::default(),
        seeks: 0,
        bytes_read: None,
    };
    let coverage = match plan {
        IndexPlan::Skip(why) => Coverage::Skipped(why.clone()),
        IndexPlan::Sample { rows_per_table: 0 } => Coverage::Skipped(NO_ROWS_PLANNED.into()),
        IndexPlan::Sample { rows_per_table } => {
            build.sample_tables(db, schema, *rows_per_table).await
        }
        IndexPlan::IndexedOnly { byte_budget } => {
            build.seek_indexed_columns(db, schema, *byte_budget).await
        }
    };
    build.index.covering(coverage)
}

/// `index` restricted to the tables and columns of `schema` (what the model may see).
pub fn within(index: &ValueIndex, schema: &Schema) -> ValueIndex {
    index.within(|table, column| {
        schema
            .table(table)
            .is_some_and(|t| t.column(column).is_some())
    })
}

/// Whether a declared type holds text, by SQLite's affinity rules (the first that applies):
/// `INT` is an integer; `CHAR`, `CLOB`, `TEXT` text (`VARCHAR(20)`, `NVARCHAR`, `VARCHAR2`,
/// `BLOB SUB_TYPE TEXT`); `BLOB` a blob; none at all may hold anything (the values read decide);
/// `REAL`, `FLOA`, `DOUB` a number. The rest has numeric affinity: numbers, dates and booleans
/// (`NUMERIC`, `DECIMAL`, `DATE`, `BOOLEAN`) are not text, other names (`STRING`, `ENUM`) are
/// text that SQLite only turns into a number when it reads as one.
fn text_like(decl_type: &str) -> bool {
    let t = decl_type.to_ascii_uppercase();
    let has = |part: &str| t.contains(part);
    if has("INT") {
        return false;
    }
    if has("CHAR") || has("CLOB") || has("TEXT") {
        return true;
    }
    if has("BLOB") || has("REAL") || has("FLOA") || has("DOUB") {
        return false;
    }
    const NUMERIC: [&str; 6] = ["NUM", "DEC", "BOOL", "DATE", "TIME", "YEAR"];
    !NUMERIC.iter().any(|part| has(part))
}

/// The tables to read and their text-like columns, smallest first (lookup tables hold most of
/// the categories and cost least, so a build cut short by time has read them); tables whose
/// size is unknown last.
fn tables_to_read(schema: &Schema) -> Vec<(&Table, Vec<&str>)> {
    let mut tables: Vec<(&Table, Vec<&str>)> = schema
        .tables
        .iter()
        .filter(|t| t.kind == TableKind::Table)
        .map(|t| {
            let columns = t
                .columns
                .iter()
                .filter(|c| text_like(&c.decl_type))
                .map(|c| c.name.as_str())
                .collect();
            (t, columns)
        })
        .filter(|(_, columns): &(_, Vec<&str>)| !columns.is_empty())
        .collect();
    tables.sort_by_key(|(t, _)| t.row_count.map_or(u64::MAX, row_count_number));
    tables
}

fn row_count_number(count: crate::engine::RowCount) -> u64 {
    use crate::engine::RowCount;
    match count {
        RowCount::Exact(n) | RowCount::MoreThan(n) | RowCount::Estimated(n) => n,
    }
}

/// Why a query of the build gave no rows.
enum Failed {
    /// A bound stopped the build.
    Stopped(Cut),
    /// The query failed; the build goes on without what it would have read.
    Unreadable(DbError),
}

/// A build in progress.
struct Build<'a> {
    index: ValueIndex,
    bounds: &'a Bounds,
    clock: &'a dyn Clock,
    started_ms: f64,
    scanned: Scanned,
    seeks: u64,
    /// What the database reported reading, when it reports it.
    bytes_read: Option<u64>,
}

impl Build<'_> {
    /// Runs one query of the build, unless the time is up.
    async fn run<D: Database + ?Sized>(
        &mut self,
        db: &D,
        sql: &str,
        values: &[Value],
    ) -> Result<QueryResult, Failed> {
        if self.clock.now_ms() - self.started_ms >= self.bounds.time_ms {
            return Err(Failed::Stopped(Cut::Time {
                ms: self.bounds.time_ms,
            }));
        }
        let result = if values.is_empty() {
            query(db, sql, &self.bounds.query).await
        } else {
            query_bound(db, sql, values, &self.bounds.query).await
        };
        let result = result.map_err(Failed::Unreadable)?;
        if let Some(reads) = result.reads {
            self.bytes_read = Some(self.bytes_read.unwrap_or(0).saturating_add(reads.bytes));
        }
        Ok(result)
    }

    /// Adds a column's values, unless they would make the index larger than its bound.
    fn add_column(&mut self, table: &str, column: &str, stored: &[String]) -> Result<(), Cut> {
        match self
            .index
            .add_column(table, column, stored, self.bounds.bytes)
        {
            Added::Column => {
                self.scanned.columns += 1;
                self.scanned.values = self.index.len();
                Ok(())
            }
            Added::Nothing => Ok(()),
            Added::OverBound => Err(Cut::IndexBytes {
                bytes: self.bounds.bytes,
            }),
        }
    }

    fn unreadable(&mut self, table: String, error: DbError) {
        self.scanned.unreadable.push(Unreadable {
            table,
            why: error.to_string(),
        });
    }
}

fn first(row: Vec<Value>) -> Option<Value> {
    row.into_iter().next()
}

fn cut_short(by: Cut, at: String, left: usize, before: Coverage) -> Coverage {
    Coverage::CutShort {
        by,
        at,
        left,
        before: Box::new(before),
    }
}
