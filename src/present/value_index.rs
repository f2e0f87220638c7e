//! What the value index holds (`search::values::Coverage`), as a person reads it: in the
//! page's status beside the database, and in a question's transcript.

use crate::search::values::{Coverage, Cut, Scanned, ASSUMED_BYTES_PER_SEEK};
use crate::text::format_bytes;

/// What the value index holds and what was not read, in the sentence a person reads.
pub fn coverage(coverage: &Coverage) -> String {
    match coverage {
        Coverage::NotBuilt => "No values indexed yet.".to_string(),
        Coverage::Skipped(why) => format!("No values indexed: {why}."),
        Coverage::CutShort {
            by,
            at,
            left,
            before,
        } => {
            let before = self::coverage(before);
            let (read, unreadable) = before
                .split_once(". Not read: ")
                .map_or((before.trim_end_matches('.'), None), |(read, rest)| {
                    (read, Some(rest))
                });
            let mut sentence = format!(
                "{read}; then {} stopped it at {at} ({} not read).",
                phrase(by),
                plural(*left, "more")
            );
            if let Some(unreadable) = unreadable {
                sentence.push_str(" Not read: ");
                sentence.push_str(unreadable);
            }
            sentence
        }
        Coverage::Full(scanned) => {
            format!("{}, every row read.{}", counts(scanned), failures(scanned))
        }
        Coverage::Sampled {
            rows_per_table,
            sampled,
            scanned,
        } => format!(
            "{}; of {} only the first {} rows were read.{}",
            counts(scanned),
            names_in_short(sampled),
            crate::text::grouped(*rows_per_table),
            failures(scanned)
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
                counts(scanned),
                plural(*seeks as usize, "seek"),
                failures(scanned)
            )
        }
    }
}

/// The bound that stopped a build, as a phrase.
fn phrase(cut: &Cut) -> String {
    match cut {
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

/// "12 values of 3 columns in 2 tables indexed".
fn counts(scanned: &Scanned) -> String {
    format!(
        "{} of {} in {} indexed",
        plural(scanned.values, "value"),
        plural(scanned.columns, "column"),
        plural(scanned.tables, "table")
    )
}

/// " Not read: gone (why)." or nothing.
fn failures(scanned: &Scanned) -> String {
    if scanned.unreadable.is_empty() {
        return String::new();
    }
    let each: Vec<String> = scanned
        .unreadable
        .iter()
        .map(|u| format!("{} ({})", u.table, u.why))
        .collect();
    format!(" Not read: {}.", each.join("; "))
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
    use crate::search::values::Unreadable;

    /// Mutation: a skipped build's reason left out ("No values indexed." alone).
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
            coverage(&sampled),
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
            coverage(&cut),
            "40 values of 3 columns in 2 tables indexed; of a, b, c and 1 more only the first \
             1,000 rows were read; then the time bound of 500 ms stopped it at rental (4 more \
             not read). Not read: gone (SQLite error: no such table: gone)."
        );
        let indexed = |bytes_read| Coverage::IndexedOnly {
            seeks: 1,
            bytes_read,
            scanned: Scanned::default(),
        };
        assert_eq!(
            coverage(&indexed(Some(12_000))),
            "0 values of 0 columns in 0 tables indexed from the columns that lead an index and \
             that SQLite's statistics (sqlite_stat1) say hold few values, by 1 seek of their \
             index (12 KB read)."
        );
        assert!(coverage(&indexed(None)).ends_with("(the database does not report its reads)."));
        assert_eq!(
            coverage(&Coverage::Full(scanned)),
            "40 values of 3 columns in 2 tables indexed, every row read. Not read: gone (SQLite \
             error: no such table: gone)."
        );
        assert_eq!(
            coverage(&Coverage::Skipped("a Datasette server".into())),
            "No values indexed: a Datasette server."
        );
        assert_eq!(coverage(&Coverage::NotBuilt), "No values indexed yet.");
    }
}
