//! What the value index holds (`search::values::Coverage`), as a person reads it: in the
//! page's status beside the database, and in a question's transcript.

use crate::agent::selection::values::{NO_ROWS_PLANNED, NO_STATISTICS, STATISTICS_UNREADABLE};
use crate::agent::selection::ON_A_SERVER;
use crate::search::values::{Coverage, Cut, Scanned, ASSUMED_BYTES_PER_SEEK};
use crate::text::format_bytes;
use crate::tr;

/// What the value index holds and what was not read, in the sentence a person reads.
pub fn coverage(coverage: &Coverage) -> String {
    let sentence = tr!("count-values-sentence", clause = clause(coverage));
    let mut unreadable = Vec::new();
    scanned(coverage, &mut |scanned| {
        unreadable.extend(&scanned.unreadable)
    });
    if unreadable.is_empty() {
        return sentence;
    }
    let each: Vec<String> = unreadable
        .iter()
        .map(|u| {
            tr!(
                "count-values-unreadable-table",
                table = &u.table,
                why = &u.why
            )
        })
        .collect();
    tr!(
        "count-values-not-read",
        sentence = sentence,
        tables = each.join("; ")
    )
}

/// What was indexed, as a clause without its full stop (a bound that cut a build short goes on
/// from it).
fn clause(coverage: &Coverage) -> String {
    match coverage {
        Coverage::NotBuilt => tr!("count-values-not-built"),
        Coverage::Skipped(why) => tr!("count-values-skipped", why = skip_reason(why)),
        Coverage::CutShort {
            by,
            at,
            left,
            before,
        } => tr!(
            "count-values-cut-short",
            clause = clause(before),
            bound = bound(by),
            at = at,
            left = *left
        ),
        Coverage::Full(scanned) => tr!("count-values-full", counts = counts(scanned)),
        Coverage::Sampled {
            rows_per_table,
            sampled,
            scanned,
        } => tr!(
            "count-values-sampled",
            counts = counts(scanned),
            tables = names_in_short(sampled),
            rows = *rows_per_table
        ),
        Coverage::IndexedOnly {
            seeks,
            bytes_read,
            scanned,
        } => {
            let read = match bytes_read {
                Some(bytes) => tr!("count-values-bytes-read", size = format_bytes(*bytes)),
                None => tr!("count-values-reads-unreported"),
            };
            tr!(
                "count-values-indexed-only",
                counts = counts(scanned),
                seeks = *seeks,
                read = read
            )
        }
    }
}

/// The tables (or `table.column`s) a build read, in the order it read them.
fn scanned<'a>(coverage: &'a Coverage, each: &mut impl FnMut(&'a Scanned)) {
    match coverage {
        Coverage::NotBuilt | Coverage::Skipped(_) => {}
        Coverage::CutShort { before, .. } => scanned(before, each),
        Coverage::Full(scanned)
        | Coverage::Sampled { scanned, .. }
        | Coverage::IndexedOnly { scanned, .. } => each(scanned),
    }
}

/// Why a build was skipped: the reasons `agent::selection` gives, in the page's language; any
/// other as it was given.
fn skip_reason(why: &str) -> String {
    match why {
        ON_A_SERVER => tr!("count-values-skip-datasette"),
        NO_STATISTICS => tr!("count-values-skip-no-statistics"),
        NO_ROWS_PLANNED => tr!("count-values-skip-no-rows"),
        _ => match why
            .strip_prefix(STATISTICS_UNREADABLE)
            .and_then(|rest| rest.strip_prefix(" ("))
            .and_then(|rest| rest.strip_suffix(')'))
        {
            Some(error) => tr!("count-values-skip-statistics-unreadable", error = error),
            None => why.to_string(),
        },
    }
}

/// The bound that stopped a build, as a phrase.
fn bound(cut: &Cut) -> String {
    match cut {
        Cut::Time { ms } => tr!("count-values-bound-time", ms = ms.to_string()),
        Cut::IndexBytes { bytes } => {
            tr!(
                "count-values-bound-index-size",
                size = format_bytes(*bytes as u64)
            )
        }
        Cut::ReadBytes { bytes } => {
            tr!(
                "count-values-bound-read-budget",
                size = format_bytes(*bytes)
            )
        }
        Cut::Seeks { seeks } => tr!(
            "count-values-bound-seeks",
            seeks = seeks.to_string(),
            bytes = ASSUMED_BYTES_PER_SEEK.to_string()
        ),
    }
}

/// "12 values of 3 columns in 2 tables" (indexed).
fn counts(scanned: &Scanned) -> String {
    tr!(
        "count-values-counts",
        values = scanned.values,
        columns = scanned.columns,
        tables = scanned.tables
    )
}

/// "a, b, c and 4 more".
fn names_in_short(names: &[String]) -> String {
    const SHOWN: usize = 3;
    match names.len() {
        0 => tr!("count-values-no-table"),
        1 => names[0].clone(),
        n if n <= SHOWN => tr!(
            "count-values-names",
            names = names[..n - 1].join(", "),
            last = &names[n - 1]
        ),
        n => tr!(
            "count-values-names-and-more",
            names = names[..SHOWN].join(", "),
            more = (n - SHOWN).to_string()
        ),
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

    /// Each reason `agent::selection` gives for skipping a build has its message, which says
    /// in English what the agent says. Mutation: a reason's words changed in the agent (or in
    /// en.ftl) without the other.
    #[test]
    fn each_reason_a_build_is_skipped_has_its_message() {
        let unreadable = format!("{STATISTICS_UNREADABLE} (SQLite error: disk I/O error)");
        for why in [ON_A_SERVER, NO_STATISTICS, NO_ROWS_PLANNED, &unreadable] {
            assert_eq!(
                coverage(&Coverage::Skipped(why.into())),
                format!("No values indexed: {why}.")
            );
        }
    }
}
