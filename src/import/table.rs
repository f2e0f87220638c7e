//! What the three readers share once their first pass is done: the columns' names and types,
//! the table made in the sink, the report of its columns, and progress.

use super::error::ImportError;
use super::infer::{ColumnFold, SqlType};
use super::names::Namer;
use super::report::ColumnReport;
use super::sink::{Sink, TablePlan};
use crate::engine::Value;

/// How far an import is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// 0 to 1: bytes gone through, both passes of every file counted.
    pub fraction: f64,
    /// Rows read so far (both passes count the same rows once: this is the first's).
    pub rows_read: u64,
}

/// What an import is writing into and how it reports, handed to each reader.
pub struct Context<'a> {
    pub sink: &'a mut dyn Sink,
    pub tables: Namer,
    progress: &'a mut dyn FnMut(Progress),
    /// Work (bytes, twice per file) done before the pass under way, and in all.
    done: u64,
    total: u64,
    rows_read: u64,
}

/// Rows between two progress reports.
pub const ROWS_PER_TICK: u64 = 4096;

impl<'a> Context<'a> {
    pub fn new(sink: &'a mut dyn Sink, total: u64, progress: &'a mut dyn FnMut(Progress)) -> Self {
        Context {
            sink,
            tables: Namer::default(),
            progress,
            done: 0,
            total: total.max(1),
            rows_read: 0,
        }
    }

    /// Progress within the pass under way: `bytes` of it read, `rows_read` more rows when
    /// the pass is a first one.
    pub fn tick(&mut self, bytes: u64, new_rows: u64) {
        self.rows_read += new_rows;
        let fraction = ((self.done + bytes) as f64 / self.total as f64).min(1.0);
        (self.progress)(Progress {
            fraction,
            rows_read: self.rows_read,
        });
    }

    /// A pass over `bytes` ended.
    pub fn pass_done(&mut self, bytes: u64) {
        self.done += bytes;
        self.tick(0, 0);
    }
}

/// A table's columns after the first pass.
pub struct Columns {
    pub names: Vec<String>,
    pub originals: Vec<String>,
    pub folds: Vec<ColumnFold>,
    pub types: Vec<SqlType>,
}

impl Columns {
    pub fn new(names: Vec<String>, originals: Vec<String>, folds: Vec<ColumnFold>) -> Self {
        let types = folds.iter().map(ColumnFold::sql_type).collect();
        Columns {
            names,
            originals,
            folds,
            types,
        }
    }

    /// Makes the table in the sink.
    pub fn create(&self, table: &str, sink: &mut dyn Sink) -> Result<(), ImportError> {
        let plan = TablePlan {
            name: table,
            columns: self
                .names
                .iter()
                .map(String::as_str)
                .zip(self.types.iter().copied())
                .collect(),
        };
        sink.create_table(&plan.create_sql(), &plan.insert_sql())
            .map_err(|message| ImportError::Write { message })
    }

    /// The columns' part of the report, with the NULLs counted while writing.
    pub fn reports(&self, nulls: &[u64]) -> Vec<ColumnReport> {
        (0..self.names.len())
            .map(|i| ColumnReport {
                name: self.names[i].clone(),
                original: self.originals[i].clone(),
                sql_type: self.types[i],
                nulls: nulls[i],
                booleans: self.folds[i].is_boolean(),
                zero_padded_example: (self.types[i] == SqlType::Text)
                    .then(|| self.folds[i].padded_example.clone())
                    .flatten(),
            })
            .collect()
    }
}

/// Writes one row, counting its NULLs per column.
pub fn write_row(sink: &mut dyn Sink, row: &[Value], nulls: &mut [u64]) -> Result<(), ImportError> {
    for (n, v) in nulls.iter_mut().zip(row) {
        if v.is_null() {
            *n += 1;
        }
    }
    sink.insert(row)
        .map_err(|message| ImportError::Write { message })
}
