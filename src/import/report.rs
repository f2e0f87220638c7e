//! What an import did, as data (for the page, the worker's JSON and the tests), and
//! [`describe`], the one function that puts it in sentences for people.

use super::decode::Encoding;
use super::header::{HeaderDecision, HeaderReason, NoHeaderReason};
use super::infer::SqlType;
use super::places::Places;
use crate::count::plural;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportReport {
    pub files: Vec<FileReport>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    Delimited,
    JsonArray,
    JsonLines,
    Xlsx,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileReport {
    pub name: String,
    pub format: Format,
    /// Text files only.
    pub encoding: Option<Encoding>,
    /// Delimited files only.
    pub delimiter: Option<char>,
    pub tables: Vec<TableReport>,
    /// Workbooks: sheets left out because they hold nothing.
    pub empty_sheets: Vec<String>,
}

/// What `places` in a table's report count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlaceKind {
    Line,
    Element,
    Row,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableReport {
    pub table: String,
    /// The sheet it came from (workbooks).
    pub sheet: Option<String>,
    pub header: HeaderDecision,
    /// Data rows read (the header row not counted).
    pub rows_read: u64,
    pub rows_written: u64,
    pub columns: Vec<ColumnReport>,
    pub places: PlaceKind,
    /// Rows with another number of fields than the first row: short ones padded with NULL,
    /// long ones given extra columns (`column_N`), so nothing is dropped.
    pub ragged: Places,
    /// Lines holding bytes that are not text in the file's encoding (replaced by U+FFFD).
    pub undecodable: Places,
    /// JSON objects with a key twice (the last value kept).
    pub duplicate_keys: Places,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColumnReport {
    pub name: String,
    /// The header cell or key it was named after ("" when none).
    pub original: String,
    pub sql_type: SqlType,
    /// Values stored as NULL (empty in a numeric column, absent, JSON null).
    pub nulls: u64,
    /// Booleans stored as 1/0.
    pub booleans: bool,
    /// A value with leading zeros that kept the column TEXT.
    pub zero_padded_example: Option<String>,
}

/// The report in sentences, one per line of what a person reads: per file, how it was read;
/// per table, rows read and written, the header decision, types, and anything reported.
pub fn describe(report: &ImportReport) -> Vec<String> {
    let mut out = Vec::new();
    for file in &report.files {
        let mut how = match file.format {
            Format::Delimited => format!(
                "{} was read as delimited text ({})",
                file.name,
                delimiter_name(file.delimiter.unwrap_or(','))
            ),
            Format::JsonArray => format!("{} was read as a JSON array", file.name),
            Format::JsonLines => format!("{} was read as JSON, one value per line", file.name),
            Format::Xlsx => format!(
                "{} was read as an Excel workbook: {}",
                file.name,
                plural(file.tables.len() as u64, "sheet", "sheets")
            ),
        };
        if let Some(e) = file.encoding.filter(|e| *e != Encoding::Utf8) {
            how.push_str(&format!(", in {}", e.label()));
        }
        out.push(how + ".");
        if !file.empty_sheets.is_empty() {
            out.push(format!(
                "Empty sheets made no table: {}.",
                file.empty_sheets.join(", ")
            ));
        }
        for table in &file.tables {
            describe_table(table, &mut out);
        }
    }
    out
}

fn describe_table(t: &TableReport, out: &mut Vec<String>) {
    let from = t
        .sheet
        .as_ref()
        .map(|s| format!(" (sheet {s})"))
        .unwrap_or_default();
    let rows = if t.rows_read == t.rows_written {
        format!(
            "Table {}{from}: {} read and written.",
            t.table,
            plural(t.rows_read, "row", "rows")
        )
    } else {
        format!(
            "Table {}{from}: {} read, {} written (the import stopped before the end).",
            t.table,
            plural(t.rows_read, "row", "rows"),
            plural(t.rows_written, "row", "rows")
        )
    };
    out.push(rows);
    match &t.header {
        HeaderDecision::Taken(HeaderReason::NumbersBelow { column }) => out.push(format!(
            "The first row was taken as the header because it is text above numbers (under \"{column}\")."
        )),
        HeaderDecision::Taken(HeaderReason::DistinctText) => out.push(
            "The first row was taken as the header because its cells are all different text; every column is text, so this is a guess: if the first row is data, its values are the column names.".into(),
        ),
        HeaderDecision::Taken(HeaderReason::OnlyRow) => out.push(
            "The only row was taken as the header: the table has columns and no rows.".into(),
        ),
        HeaderDecision::NotTaken(why) => {
            let because = match why {
                NoHeaderReason::Value { column, value } => {
                    format!("it holds \"{value}\" in column {column}, which reads as data")
                }
                NoHeaderReason::Repeated { value } => format!("\"{value}\" appears in it twice"),
                NoHeaderReason::Blank => "it is empty".into(),
            };
            out.push(format!(
                "The first row was read as data, not as a header, because {because}; the columns are named column_1, column_2, …"
            ));
        }
        HeaderDecision::Keys => {}
    }
    let types: Vec<String> = t
        .columns
        .iter()
        .map(|c| format!("{} {}", c.name, c.sql_type.sql()))
        .collect();
    out.push(format!("Columns: {}.", types.join(", ")));
    for c in &t.columns {
        if let Some(example) = &c.zero_padded_example {
            out.push(format!(
                "{} stays TEXT: values such as {example} have leading zeros that a number would lose.",
                c.name
            ));
        }
        if c.booleans {
            out.push(format!("{} holds true/false, stored as 1/0.", c.name));
        }
    }
    let place = match t.places {
        PlaceKind::Line => ("line", "lines"),
        PlaceKind::Element => ("element", "elements"),
        PlaceKind::Row => ("row", "rows"),
    };
    if !t.ragged.is_empty() {
        out.push(format!(
            "{} had another number of fields than the first row ({}): short rows were filled with NULL, and fields past the header went into extra columns, so nothing was dropped.",
            plural(t.ragged.count, "row", "rows"),
            places_text(&t.ragged, place)
        ));
    }
    if !t.undecodable.is_empty() {
        out.push(format!(
            "{} held bytes that are not text in this encoding ({}); each was replaced by \u{FFFD}.",
            plural(t.undecodable.count, place.0, place.1),
            places_text(&t.undecodable, place)
        ));
    }
    if !t.duplicate_keys.is_empty() {
        out.push(format!(
            "{} had a key twice ({}); the last value was kept.",
            plural(t.duplicate_keys.count, "object", "objects"),
            places_text(&t.duplicate_keys, place)
        ));
    }
}

fn places_text(p: &Places, (one, many): (&str, &str)) -> String {
    let list: Vec<String> = p.first.iter().map(|n| n.to_string()).collect();
    let word = if p.first.len() == 1 { one } else { many };
    let more = if p.count > p.first.len() as u64 {
        format!(" and {} more", p.count - p.first.len() as u64)
    } else {
        String::new()
    };
    format!("{word} {}{more}", list.join(", "))
}

fn delimiter_name(d: char) -> &'static str {
    match d {
        ',' => "comma-separated",
        '\t' => "tab-separated",
        ';' => "semicolon-separated",
        '|' => "separated by |",
        _ => "delimited",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> TableReport {
        TableReport {
            table: "zips".into(),
            sheet: None,
            header: HeaderDecision::Taken(HeaderReason::NumbersBelow {
                column: "pop".into(),
            }),
            rows_read: 3,
            rows_written: 3,
            columns: vec![ColumnReport {
                name: "zip".into(),
                original: "zip".into(),
                sql_type: SqlType::Text,
                nulls: 0,
                booleans: false,
                zero_padded_example: Some("00501".into()),
            }],
            places: PlaceKind::Line,
            ragged: Places::default(),
            undecodable: Places::default(),
            duplicate_keys: Places::default(),
        }
    }

    fn report(t: TableReport, encoding: Encoding) -> ImportReport {
        ImportReport {
            files: vec![FileReport {
                name: "zips.csv".into(),
                format: Format::Delimited,
                encoding: Some(encoding),
                delimiter: Some(','),
                tables: vec![t],
                empty_sheets: vec![],
            }],
        }
    }

    #[test]
    fn the_sentences_say_rows_header_types_and_why_a_column_is_text() {
        let text = describe(&report(table(), Encoding::Utf8)).join("\n");
        assert!(text.contains("3 rows read and written"), "{text}");
        assert!(text.contains("taken as the header because"), "{text}");
        assert!(text.contains("zip TEXT"), "{text}");
        assert!(text.contains("00501"), "{text}");
        assert!(!text.contains("UTF"), "UTF-8 is not worth saying: {text}");
    }

    #[test]
    fn another_encoding_and_ragged_lines_are_said_with_their_places() {
        let mut t = table();
        for line in 2..30 {
            t.ragged.add(line);
        }
        let text = describe(&report(t, Encoding::Utf16Le)).join("\n");
        assert!(text.contains("UTF-16 (little-endian)"), "{text}");
        assert!(
            text.contains("28 rows had another number of fields"),
            "{text}"
        );
        assert!(text.contains("lines 2, 3,"), "{text}");
        assert!(text.contains("and 8 more"), "{text}");
    }

    #[test]
    fn rows_read_and_written_that_differ_are_explained() {
        let mut t = table();
        t.rows_written = 2;
        let text = describe(&report(t, Encoding::Utf8)).join("\n");
        assert!(
            text.contains("3 rows read, 2 rows written (the import stopped"),
            "{text}"
        );
    }

    #[test]
    fn a_place_is_counted_once() {
        let mut p = Places::default();
        p.add(4);
        p.add(4);
        assert_eq!(p.count, 1);
    }
}
