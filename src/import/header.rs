//! Whether a table's first row names its columns. Decided from the first row's kinds against
//! the rows below, and said with the reason (see `report::describe`).

use super::infer::{ColumnFold, Kind, SqlType};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HeaderDecision {
    /// The first row names the columns.
    Taken(HeaderReason),
    /// The first row is data; the columns are named `column_1`…
    NotTaken(NoHeaderReason),
    /// JSON: the objects' keys name the columns.
    Keys,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HeaderReason {
    /// Column `column` (its header's text) holds numbers below a text first row.
    NumbersBelow { column: String },
    /// Every cell is distinct text, like the rows below: a guess, said so.
    DistinctText,
    /// The file has this one row only, all distinct text: a header-only file.
    OnlyRow,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum NoHeaderReason {
    /// The first row holds a value that reads as data (a number, a boolean, a code).
    Value { column: usize, value: String },
    /// Two cells of the first row are the same.
    Repeated { value: String },
    /// The first row has no text at all.
    Blank,
}

/// `first`: the first row's cells with their kinds; `below`: the folds of the other rows.
pub fn decide(first: &[(Kind, &str)], below: &[ColumnFold], rows_below: u64) -> HeaderDecision {
    for (i, (kind, value)) in first.iter().enumerate() {
        if !matches!(kind, Kind::Text | Kind::Empty) {
            return HeaderDecision::NotTaken(NoHeaderReason::Value {
                column: i + 1,
                value: value.chars().take(40).collect(),
            });
        }
    }
    if first.iter().all(|(k, _)| *k == Kind::Empty) {
        return HeaderDecision::NotTaken(NoHeaderReason::Blank);
    }
    // Text above numbers is the strongest sign, even with a name twice (they get _2).
    for ((kind, value), fold) in first.iter().zip(below) {
        if *kind == Kind::Text && fold.sql_type() != SqlType::Text {
            return HeaderDecision::Taken(HeaderReason::NumbersBelow {
                column: value.chars().take(40).collect(),
            });
        }
    }
    // Without it, a guess: all distinct text is a header, a value twice is data.
    let mut seen = HashSet::new();
    for (kind, value) in first {
        if *kind != Kind::Empty && !seen.insert(value.to_ascii_lowercase()) {
            return HeaderDecision::NotTaken(NoHeaderReason::Repeated {
                value: value.chars().take(40).collect(),
            });
        }
    }
    if rows_below == 0 {
        HeaderDecision::Taken(HeaderReason::OnlyRow)
    } else {
        HeaderDecision::Taken(HeaderReason::DistinctText)
    }
}

impl HeaderDecision {
    pub fn taken(&self) -> bool {
        !matches!(self, HeaderDecision::NotTaken(_))
    }
}

#[cfg(test)]
mod tests {
    use super::super::infer::classify;
    use super::*;

    fn decide_rows(rows: &[&[&str]]) -> HeaderDecision {
        let first: Vec<(Kind, &str)> = rows[0].iter().map(|v| (classify(v), *v)).collect();
        let mut folds = vec![ColumnFold::default(); first.len()];
        for row in &rows[1..] {
            for (fold, v) in folds.iter_mut().zip(row.iter()) {
                fold.add(classify(v), v);
            }
        }
        decide(&first, &folds, rows.len() as u64 - 1)
    }

    #[test]
    fn text_above_numbers_is_a_header() {
        assert_eq!(
            decide_rows(&[&["name", "age"], &["Ann", "31"]]),
            HeaderDecision::Taken(HeaderReason::NumbersBelow {
                column: "age".into()
            })
        );
    }

    #[test]
    fn a_first_row_of_numbers_is_data() {
        assert!(matches!(
            decide_rows(&[&["1", "2"], &["3", "4"]]),
            HeaderDecision::NotTaken(NoHeaderReason::Value { column: 1, .. })
        ));
    }

    #[test]
    fn repeated_cells_are_data_and_distinct_text_is_a_guessed_header() {
        assert!(matches!(
            decide_rows(&[&["x", "x"], &["a", "b"]]),
            HeaderDecision::NotTaken(NoHeaderReason::Repeated { .. })
        ));
        assert_eq!(
            decide_rows(&[&["city", "country"], &["Paris", "France"]]),
            HeaderDecision::Taken(HeaderReason::DistinctText)
        );
    }

    #[test]
    fn a_header_only_file_is_a_header() {
        assert_eq!(
            decide_rows(&[&["a", "b"]]),
            HeaderDecision::Taken(HeaderReason::OnlyRow)
        );
    }

    #[test]
    fn an_empty_first_cell_as_pandas_writes_it_still_allows_a_header() {
        assert!(decide_rows(&[&["", "a"], &["0", "5"]]).taken());
    }
}
