//! Sampling, for a database in memory: each table's first rows read for the distinct short
//! text values of its columns, one query for a group of columns.

use super::{cut_short, tables_to_read, Build, Failed, MAX_DISTINCT, MAX_VALUE_CHARS};
use crate::engine::{Database, QueryResult, Schema, Table, Value};
use crate::search::values::{Coverage, Scanned};
use crate::sql::ident;

impl Build<'_> {
    pub(super) async fn sample_tables<D: Database + ?Sized>(
        &mut self,
        db: &D,
        schema: &Schema,
        rows_per_table: u64,
    ) -> Coverage {
        let tables = tables_to_read(schema);
        let mut sampled = Vec::new();
        for (done, (table, columns)) in tables.iter().enumerate() {
            let left = tables.len() - done;
            let sample = match self.sample_table(db, table, columns, rows_per_table).await {
                Ok(sample) => sample,
                Err(Failed::Unreadable(error)) => {
                    self.unreadable(table.name.clone(), error);
                    continue;
                }
                Err(Failed::Stopped(cut)) => {
                    let before = sampled_coverage(rows_per_table, &sampled, &self.scanned);
                    return cut_short(cut, table.name.clone(), left, before);
                }
            };
            self.scanned.tables += 1;
            if sample.rows >= rows_per_table {
                sampled.push(table.name.clone());
            }
            for (column, values) in &sample.columns {
                if let Err(cut) = self.add_column(&table.name, column, values) {
                    let before = sampled_coverage(rows_per_table, &sampled, &self.scanned);
                    return cut_short(cut, format!("{}.{column}", table.name), left, before);
                }
            }
        }
        sampled_coverage(rows_per_table, &sampled, &self.scanned)
    }

    /// The distinct text values of those of `columns` that qualify, in the first `rows` rows
    /// of `table`: one query for as many columns as the row cap allows (see [`sample_sql`]).
    async fn sample_table<'c, D: Database + ?Sized>(
        &mut self,
        db: &D,
        table: &Table,
        columns: &[&'c str],
        rows: u64,
    ) -> Result<TableSample<'c>, Failed> {
        let mut sample = TableSample {
            rows: 0,
            columns: Vec::new(),
        };
        for group in columns.chunks(columns_per_query(self.bounds.query.max_rows)) {
            let result = self
                .run(db, &sample_sql(&table.name, group, rows), &[])
                .await?;
            let read = read_sample(&result, group);
            sample.rows = sample.rows.max(read.rows);
            sample.columns.extend(read.columns);
        }
        Ok(sample)
    }
}

fn sampled_coverage(rows_per_table: u64, sampled: &[String], scanned: &Scanned) -> Coverage {
    if sampled.is_empty() {
        Coverage::Full(scanned.clone())
    } else {
        Coverage::Sampled {
            rows_per_table,
            sampled: sampled.to_vec(),
            scanned: scanned.clone(),
        }
    }
}

/// What was read of one table: how many rows, and each qualifying column's distinct values.
struct TableSample<'c> {
    rows: u64,
    columns: Vec<(&'c str, Vec<String>)>,
}

/// A text value longer than this is never sent, however short it is trimmed: the padding of a
/// `CHAR(n)` column (n is at most 255 in practice) fits, a page of spaces does not.
const MAX_STORED_CHARS: usize = 1_000;

/// How many columns one sampling query may read: each sends at most [`MAX_DISTINCT`] + 1 rows
/// (one more tells that there are too many), besides the one row that counts.
fn columns_per_query(max_rows: usize) -> usize {
    const MOST: usize = 50;
    (max_rows.saturating_sub(1) / (MAX_DISTINCT + 1)).clamp(1, MOST)
}

/// One query for a group of a table's columns, measured against per-column queries and against
/// two queries a table (counts first, then only the values of the columns that qualify): as
/// fast as the first in fewer queries, and twice as fast as the second (see the module's
/// tests). Its rows are `(-1, NULL, rows read)`, then for each column `i` and each distinct
/// non-null value among the first `rows` rows, at most [`MAX_DISTINCT`] + 1 of them,
/// `(i, the value if it is short text else NULL, whether it is text too long)`:
///
/// ```sql
/// SELECT -1, NULL, count(*) FROM (SELECT a, b FROM t LIMIT 10000)
/// UNION ALL SELECT * FROM (SELECT 0, CASE WHEN <a is short text> THEN a END, <a is long text>
///     FROM (SELECT a FROM t LIMIT 10000) WHERE a IS NOT NULL GROUP BY a LIMIT 251)
/// UNION ALL …
/// ```
fn sample_sql(table: &str, columns: &[&str], rows: u64) -> String {
    let mut parts = vec![format!(
        "SELECT -1, NULL, count(*) FROM ({})",
        first_rows_sql(table, columns, rows)
    )];
    for (i, column) in columns.iter().enumerate() {
        let c = ident(column);
        let is_text = format!("typeof({c}) = 'text'");
        let fits =
            format!("length({c}) <= {MAX_STORED_CHARS} AND length(trim({c})) <= {MAX_VALUE_CHARS}");
        parts.push(format!(
            "SELECT * FROM (SELECT {i}, CASE WHEN {is_text} AND {fits} THEN {c} END, \
             {is_text} AND NOT ({fits}) FROM ({}) WHERE {c} IS NOT NULL GROUP BY {c} LIMIT {})",
            first_rows_sql(table, &[column], rows),
            MAX_DISTINCT + 1
        ));
    }
    parts.join(" UNION ALL ")
}

fn first_rows_sql(table: &str, columns: &[&str], rows: u64) -> String {
    let names: Vec<String> = columns.iter().map(|c| ident(c)).collect();
    format!(
        "SELECT {} FROM {} LIMIT {rows}",
        names.join(", "),
        ident(table)
    )
}

/// What one column's rows of a [`sample_sql`] answer hold.
#[derive(Default)]
struct ColumnRead {
    distinct: usize,
    too_long: bool,
    texts: Vec<String>,
}

impl ColumnRead {
    /// Some text, few distinct values, none too long.
    fn qualifies(&self) -> bool {
        !self.texts.is_empty() && self.distinct <= MAX_DISTINCT && !self.too_long
    }
}

/// The rows read and the qualifying columns' text values from a [`sample_sql`] answer. An
/// answer cut by a row cap holds only part of some column: then no column of it is kept.
fn read_sample<'c>(result: &QueryResult, columns: &[&'c str]) -> TableSample<'c> {
    let mut rows = 0;
    let mut read: Vec<ColumnRead> = columns.iter().map(|_| ColumnRead::default()).collect();
    for row in &result.rows {
        let (Some(Value::Integer(i)), Some(value), Some(flag)) =
            (row.first(), row.get(1), row.get(2))
        else {
            continue;
        };
        if *i == -1 {
            rows = number(Some(flag));
            continue;
        }
        let Some(column) = usize::try_from(*i).ok().and_then(|i| read.get_mut(i)) else {
            continue;
        };
        column.distinct += 1;
        column.too_long |= number(Some(flag)) != 0;
        match value {
            Value::Text(text) if text.trim().chars().count() <= MAX_VALUE_CHARS => {
                column.texts.push(text.clone());
            }
            Value::Text(_) => column.too_long = true,
            _ => {}
        }
    }
    let columns = if result.truncated {
        Vec::new()
    } else {
        columns
            .iter()
            .zip(read)
            .filter(|(_, read)| read.qualifies())
            .map(|(name, read)| (*name, read.texts))
            .collect()
    };
    TableSample { rows, columns }
}

/// A non-negative integer from the database, 0 for anything else.
fn number(value: Option<&Value>) -> u64 {
    match value {
        Some(Value::Integer(n)) => u64::try_from(*n).unwrap_or(0),
        _ => 0,
    }
}
