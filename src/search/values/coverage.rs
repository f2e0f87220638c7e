//! What a build of the value index read and what it did not ([`Coverage`]); the sentence a
//! person reads about it is `present::value_index::coverage`'s.

use serde::Serialize;

/// What one seek is taken to read when the database does not report its reads (rusqlite, a
/// file in memory): one page of the default size. The read budget of an `IndexedOnly` plan
/// (`agent::selection::values::IndexPlan`) is then a number of seeks, `byte_budget /
/// ASSUMED_BYTES_PER_SEEK`, and [`Cut::Seeks`] says so.
pub const ASSUMED_BYTES_PER_SEEK: u64 = 4_096;

/// What was indexed and what was not.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub enum Coverage {
    /// Not built yet (an index made with `Default`).
    #[default]
    NotBuilt,
    /// Every text column of every table read in full: no table had as many rows as the sample.
    Full(Scanned),
    /// Only the first `rows_per_table` rows of the tables in `sampled` were read (they had that
    /// many, and may have more); the other tables in full.
    Sampled {
        rows_per_table: u64,
        sampled: Vec<String>,
        scanned: Scanned,
    },
    /// Only the columns that lead an index and that `sqlite_stat1` says hold few values, read
    /// by `seeks` seeks of their index; `bytes_read` as the database reported it (`None`: it
    /// reports no reads, and the budget was counted in seeks).
    IndexedOnly {
        seeks: u64,
        bytes_read: Option<u64>,
        scanned: Scanned,
    },
    /// Nothing indexed, and why.
    Skipped(String),
    /// A bound stopped the build `at` a table (or a `table.column`), with `left` tables
    /// (sampling) or columns (seeking) not read, that one included; `before` is what had been
    /// read.
    CutShort {
        by: Cut,
        at: String,
        left: usize,
        before: Box<Coverage>,
    },
}

/// What a build read.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Scanned {
    /// Tables read (queried without error).
    pub tables: usize,
    /// Columns with at least one value in the index.
    pub columns: usize,
    /// Values in the index (a value in two columns counts twice).
    pub values: usize,
    /// Tables (or `table.column`s) whose query failed, and why; the build went on without them.
    pub unreadable: Vec<Unreadable>,
}

/// A table (or `table.column`) whose query failed, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Unreadable {
    pub table: String,
    pub why: String,
}

/// The bound that cut a build short.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Cut {
    /// The build's time bound (`agent::selection::values::Bounds::time_ms`).
    Time { ms: f64 },
    /// The index's size bound (`Bounds::bytes`): the next column would have made the index larger.
    IndexBytes { bytes: usize },
    /// The `byte_budget` of an `IndexedOnly` plan, as the database reported its reads.
    ReadBytes { bytes: u64 },
    /// The same budget counted in seeks, for a database that reports no reads.
    Seeks { seeks: u64 },
}
