//! Seeking, for a database read on demand: only the columns that lead an index and that
//! `sqlite_stat1` says hold few values, read one value at a time by seeking their index, within
//! a read budget.

use super::{cut_short, first, text_like, Build, Failed, MAX_DISTINCT, MAX_VALUE_CHARS};
use crate::engine::{Database, QueryResult, Schema, TableKind, Value};
use crate::search::values::{Coverage, Cut, ASSUMED_BYTES_PER_SEEK};
use crate::sql::ident;
use std::collections::HashSet;

impl Build<'_> {
    pub(super) async fn seek_indexed_columns<D: Database + ?Sized>(
        &mut self,
        db: &D,
        schema: &Schema,
        byte_budget: u64,
    ) -> Coverage {
        let leading = match self.leading_columns(db).await {
            Ok(Some(result)) => result,
            Ok(None) => return Coverage::Skipped(NO_STATISTICS.into()),
            Err(Failed::Unreadable(error)) => {
                return Coverage::Skipped(format!("{STATISTICS_UNREADABLE} ({error})"))
            }
            Err(Failed::Stopped(cut)) => {
                return cut_short(cut, "sqlite_stat1".into(), 1, self.indexed_coverage())
            }
        };
        let columns = seekable_columns(schema, &leading);
        let mut tables_read = HashSet::new();
        for (done, column) in columns.iter().enumerate() {
            let left = columns.len() - done;
            let at = format!("{}.{}", column.table, column.column);
            let values = match self.seek_values(db, column, byte_budget).await {
                Ok(values) => values,
                Err(Failed::Unreadable(error)) => {
                    self.unreadable(at, error);
                    continue;
                }
                Err(Failed::Stopped(cut)) => {
                    return cut_short(cut, at, left, self.indexed_coverage());
                }
            };
            if tables_read.insert(column.table.to_ascii_lowercase()) {
                self.scanned.tables += 1;
            }
            if let Some(values) = values {
                if let Err(cut) = self.add_column(&column.table, &column.column, &values) {
                    return cut_short(cut, at, left, self.indexed_coverage());
                }
            }
        }
        self.indexed_coverage()
    }

    /// Each index's leading column, with its collation and `sqlite_stat1`'s figures; `None`
    /// when the database has no `sqlite_stat1`.
    async fn leading_columns<D: Database + ?Sized>(
        &mut self,
        db: &D,
    ) -> Result<Option<QueryResult>, Failed> {
        let present = self.run(db, STAT1_PRESENT_SQL, &[]).await?;
        if present.rows.is_empty() {
            return Ok(None);
        }
        self.run(db, LEADING_COLUMNS_SQL, &[]).await.map(Some)
    }

    /// The column's text values, seeking its index one value at a time; `None` when it holds
    /// more than [`MAX_DISTINCT`] of them or a longer one than [`MAX_VALUE_CHARS`].
    async fn seek_values<D: Database + ?Sized>(
        &mut self,
        db: &D,
        column: &Seekable,
        byte_budget: u64,
    ) -> Result<Option<Vec<String>>, Failed> {
        let sql = seek_sql(column);
        let mut values = Vec::new();
        let mut after = String::new();
        loop {
            if let Some(cut) = self.over_read_budget(byte_budget) {
                return Err(Failed::Stopped(cut));
            }
            self.seeks += 1;
            let result = self.run(db, &sql, &[Value::Text(after)]).await?;
            // After the last text value come blobs, or nothing.
            let Some(Value::Text(next)) = result.rows.into_iter().next().and_then(first) else {
                return Ok(Some(values));
            };
            if values.len() == MAX_DISTINCT || next.trim().chars().count() > MAX_VALUE_CHARS {
                return Ok(None);
            }
            values.push(next.clone());
            after = next;
        }
    }

    fn over_read_budget(&self, byte_budget: u64) -> Option<Cut> {
        match self.bytes_read {
            Some(bytes) if bytes >= byte_budget => Some(Cut::ReadBytes { bytes: byte_budget }),
            Some(_) => None,
            None => {
                let seeks = byte_budget / ASSUMED_BYTES_PER_SEEK;
                (self.seeks >= seeks).then_some(Cut::Seeks { seeks })
            }
        }
    }

    fn indexed_coverage(&self) -> Coverage {
        Coverage::IndexedOnly {
            seeks: self.seeks,
            bytes_read: self.bytes_read,
            scanned: self.scanned.clone(),
        }
    }
}

/// Why nothing is indexed on a database without `sqlite_stat1` (the page says it in its language:
/// `present::value_index`).
pub const NO_STATISTICS: &str =
    "the database has no statistics (sqlite_stat1, written by ANALYZE) \
     to tell which columns hold few values, and finding out would mean reading its tables";

/// Why nothing is indexed when reading `sqlite_stat1` failed, before the error in parentheses.
pub const STATISTICS_UNREADABLE: &str = "SQLite's statistics (sqlite_stat1) could not be read";

const STAT1_PRESENT_SQL: &str =
    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'";

/// Each complete (not partial) index's leading column, its collation, and `sqlite_stat1`'s
/// figures for the index ("rows rows-per-value …").
pub(super) const LEADING_COLUMNS_SQL: &str = "SELECT s.tbl, x.name, x.coll, s.stat \
     FROM sqlite_stat1 AS s \
     JOIN pragma_index_list(s.tbl) AS l ON l.name = s.idx \
     JOIN pragma_index_xinfo(s.idx) AS x ON x.seqno = 0 \
     WHERE l.partial = 0 AND x.name IS NOT NULL \
     ORDER BY s.tbl, x.name";

/// A column to read by seeking its index.
#[derive(Debug, PartialEq)]
pub(super) struct Seekable {
    pub(super) table: String,
    pub(super) column: String,
    /// The index's collation, which the seek must compare with for SQLite to use the index.
    pub(super) collation: &'static str,
}

/// The columns of `schema`'s tables that lead an index, are text-like, and hold at most
/// [`MAX_DISTINCT`] values by `sqlite_stat1`'s figures, each once, fewest values first; names
/// as the schema writes them.
pub(super) fn seekable_columns(schema: &Schema, leading: &QueryResult) -> Vec<Seekable> {
    let mut found: Vec<(u64, Seekable)> = Vec::new();
    for row in &leading.rows {
        let [Value::Text(table), Value::Text(column), Value::Text(coll), Value::Text(stat)] =
            row.as_slice()
        else {
            continue;
        };
        let Some(table) = schema.table(table).filter(|t| t.kind == TableKind::Table) else {
            continue;
        };
        let Some(column) = table.column(column).filter(|c| text_like(&c.decl_type)) else {
            continue;
        };
        let (Some(collation), Some(distinct)) = (builtin_collation(coll), distinct_in(stat)) else {
            continue;
        };
        let seekable = Seekable {
            table: table.name.clone(),
            column: column.name.clone(),
            collation,
        };
        let known = found.iter().any(|(_, s)| {
            s.table == seekable.table && s.column.eq_ignore_ascii_case(&seekable.column)
        });
        if distinct <= MAX_DISTINCT as u64 && !known {
            found.push((distinct, seekable));
        }
    }
    found.sort_by_key(|(distinct, _)| *distinct);
    found.into_iter().map(|(_, s)| s).collect()
}

/// SQLite's own collations, written from this list (never from the database's text).
fn builtin_collation(name: &str) -> Option<&'static str> {
    ["BINARY", "NOCASE", "RTRIM"]
        .into_iter()
        .find(|builtin| builtin.eq_ignore_ascii_case(name))
}

/// The distinct values of an index's leading column by its `sqlite_stat1` figures: its rows
/// over the rows per value. `None` for an empty index or figures that do not read.
fn distinct_in(stat: &str) -> Option<u64> {
    let mut figures = stat.split_whitespace().map(|f| f.parse::<u64>().ok());
    let rows = figures.next()??;
    let per_value = figures.next()??;
    (rows > 0 && per_value > 0).then(|| rows.div_ceil(per_value))
}

/// The next text value after `?1` in the index's order: text sorts after numbers, so starting
/// from `''` skips them. The comparison and the order use the index's collation, so that SQLite
/// seeks the index (a column declared `COLLATE NOCASE` has a `NOCASE` index); with another
/// collation it would scan the index whole. SQLite plans `min(c) … WHERE c > ?1` as the same
/// one-row seek; `ORDER BY … LIMIT 1` says outright that one row is wanted.
pub(super) fn seek_sql(column: &Seekable) -> String {
    let c = ident(&column.column);
    let coll = column.collation;
    format!(
        "SELECT {c} FROM {} WHERE {c} COLLATE {coll} > ?1 ORDER BY {c} COLLATE {coll} LIMIT 1",
        ident(&column.table)
    )
}
