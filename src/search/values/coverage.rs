//! What a build of the value index read and what it did not ([`Coverage`]), and the sentence
//! a person reads about it.

use crate::text::format_bytes;
use std::fmt;

/// What one seek is taken to read when the database does not report its reads (rusqlite, a
/// file in memory): one page of the default size. The read budget of an `IndexedOnly` plan
/// (`agent::selection::values::IndexPlan`) is then a number of seeks, `byte_budget /
/// ASSUMED_BYTES_PER_SEEK`, and [`Cut::Seeks`] says so.
pub const ASSUMED_BYTES_PER_SEEK: u64 = 4_096;

/// What was indexed and what was not.
#[derive(Clone, Debug, Default, PartialEq)]
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
#[derive(Clone, Debug, Default, PartialEq)]
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

#[derive(Clone, Debug, PartialEq)]
pub struct Unreadable {
    pub table: String,
    pub why: String,
}

/// The bound that cut a build short.
#[derive(Clone, Copy, Debug, PartialEq)]
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

impl Coverage {
    /// The sentence a person reads.
    pub fn sentence(&self) -> String {
        match self {
            Coverage::NotBuilt => "No values indexed yet.".to_string(),
            Coverage::Skipped(why) => format!("No values indexed: {why}."),
            Coverage::CutShort {
                by,
                at,
                left,
                before,
            } => {
                let before = before.sentence();
                let (read, unreadable) = before
                    .split_once(". Not read: ")
                    .map_or((before.trim_end_matches('.'), None), |(read, rest)| {
                        (read, Some(rest))
                    });
                let mut sentence = format!(
                    "{read}; then {} stopped it at {at} ({} not read).",
                    by.phrase(),
                    plural(*left, "more")
                );
                if let Some(unreadable) = unreadable {
                    sentence.push_str(" Not read: ");
                    sentence.push_str(unreadable);
                }
                sentence
            }
            Coverage::Full(scanned) => {
                format!(
                    "{}, every row read.{}",
                    scanned.counts(),
                    scanned.failures()
                )
            }
            Coverage::Sampled {
                rows_per_table,
                sampled,
                scanned,
            } => format!(
                "{}; of {} only the first {} rows were read.{}",
                scanned.counts(),
                names_in_short(sampled),
                crate::text::grouped(*rows_per_table),
                scanned.failures()
            ),
            Coverage::IndexedOnly {
                seeks,
                bytes_read,
                scanned,
            } => {
                let read = match bytes_read {
                    Some(bytes) => format!("{} read", format_bytes(*bytes)),
                    None => "the database does not report its reads".to_string(),
                };
                format!(
                    "{} from the columns that lead an index and that SQLite's statistics \
                     (sqlite_stat1) say hold few values, by {} of their index ({read}).{}",
                    scanned.counts(),
                    plural(*seeks as usize, "seek"),
                    scanned.failures()
                )
            }
        }
    }
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sentence())
    }
}

impl Cut {
    fn phrase(&self) -> String {
        match self {
            Cut::Time { ms } => format!("the time bound of {ms} ms"),
            Cut::IndexBytes { bytes } => {
                format!("the index's size bound of {}", format_bytes(*bytes as u64))
            }
            Cut::ReadBytes { bytes } => format!("the read budget of {}", format_bytes(*bytes)),
            Cut::Seeks { seeks } => format!(
                "the read budget, counted as {seeks} seeks of {ASSUMED_BYTES_PER_SEEK} bytes \
                 each (the database does not report its reads),"
            ),
        }
    }
}

impl Scanned {
    fn counts(&self) -> String {
        format!(
            "{} of {} in {} indexed",
            plural(self.values, "value"),
            plural(self.columns, "column"),
            plural(self.tables, "table")
        )
    }

    fn failures(&self) -> String {
        if self.unreadable.is_empty() {
            return String::new();
        }
        let each: Vec<String> = self
            .unreadable
            .iter()
            .map(|u| format!("{} ({})", u.table, u.why))
            .collect();
        format!(" Not read: {}.", each.join("; "))
    }
}

fn plural(n: usize, word: &str) -> String {
    let n = crate::text::grouped(n as u64);
    match (n.as_str(), word) {
        ("1", _) | (_, "more") => format!("{n} {word}"),
        _ => format!("{n} {word}s"),
    }
}

/// "a, b, c and 4 more".
fn names_in_short(names: &[String]) -> String {
    const SHOWN: usize = 3;
    match names.len() {
        0 => "no table".to_string(),
        1 => names[0].clone(),
        n if n <= SHOWN => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
        n => format!("{} and {} more", names[..SHOWN].join(", "), n - SHOWN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_reads_as_a_sentence() {
        let scanned = Scanned {
            tables: 2,
            columns: 3,
            values: 40,
            unreadable: vec![Unreadable {
                table: "gone".into(),
                why: "SQLite error: no such table: gone".into(),
            }],
        };
        let sampled = Coverage::Sampled {
            rows_per_table: 1_000,
            sampled: vec!["a".into(), "b".into(), "c".into(), "d".into()],
            scanned: scanned.clone(),
        };
        assert_eq!(
            sampled.sentence(),
            "40 values of 3 columns in 2 tables indexed; of a, b, c and 1 more only the first \
             1,000 rows were read. Not read: gone (SQLite error: no such table: gone)."
        );
        let cut = Coverage::CutShort {
            by: Cut::Time { ms: 500.0 },
            at: "rental".into(),
            left: 4,
            before: Box::new(sampled),
        };
        assert_eq!(
            cut.to_string(),
            "40 values of 3 columns in 2 tables indexed; of a, b, c and 1 more only the first \
             1,000 rows were read; then the time bound of 500 ms stopped it at rental (4 more \
             not read). Not read: gone (SQLite error: no such table: gone)."
        );
        assert_eq!(
            Coverage::IndexedOnly {
                seeks: 1,
                bytes_read: Some(12_000),
                scanned: Scanned::default()
            }
            .sentence(),
            "0 values of 0 columns in 0 tables indexed from the columns that lead an index and \
             that SQLite's statistics (sqlite_stat1) say hold few values, by 1 seek of their \
             index (12 KB read)."
        );
    }
}
