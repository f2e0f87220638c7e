//! What an import did, as data (for the page, the worker's JSON and the tests), and
//! [`sentences`], the one function that puts it in sentences for people (as facts, which
//! the page says in its language; [`describe`] says them).

use super::decode::Encoding;
use super::header::{HeaderDecision, HeaderReason, NoHeaderReason};
use super::infer::SqlType;
use super::places::Places;
pub use super::sentence::{Sentence, Value};
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

/// The report in sentences, one per line of what a person reads, in the page's language (in
/// English natively): see [`sentences`].
pub fn describe(report: &ImportReport) -> Vec<String> {
    sentences(report).iter().map(Sentence::say).collect()
}

/// The report as sentences' facts: per file, how it was read; per table, rows read and written,
/// the header decision, types, and anything reported.
pub fn sentences(report: &ImportReport) -> Vec<Sentence> {
    let mut out = Vec::new();
    for file in &report.files {
        let encoding = encoding_key(file.encoding.unwrap_or(Encoding::Utf8));
        let how = match file.format {
            Format::Delimited => Sentence::new("open-import-read-delimited")
                .data("file", &file.name)
                .key("delimiter", delimiter_key(file.delimiter.unwrap_or(',')))
                .key("encoding", encoding),
            Format::JsonArray => Sentence::new("open-import-read-json-array")
                .data("file", &file.name)
                .key("encoding", encoding),
            Format::JsonLines => Sentence::new("open-import-read-json-lines")
                .data("file", &file.name)
                .key("encoding", encoding),
            Format::Xlsx => Sentence::new("open-import-read-xlsx")
                .data("file", &file.name)
                .number("sheets", file.tables.len() as u64),
        };
        out.push(how);
        if !file.empty_sheets.is_empty() {
            out.push(
                Sentence::new("open-import-empty-sheets")
                    .data("sheets", file.empty_sheets.join(", ")),
            );
        }
        for table in &file.tables {
            describe_table(table, &mut out);
        }
    }
    out
}

fn describe_table(t: &TableReport, out: &mut Vec<Sentence>) {
    let rows = match (&t.sheet, t.rows_read == t.rows_written) {
        (None, true) => Sentence::new("open-import-table-rows"),
        (None, false) => Sentence::new("open-import-table-rows-stopped"),
        (Some(_), true) => Sentence::new("open-import-sheet-rows"),
        (Some(_), false) => Sentence::new("open-import-sheet-rows-stopped"),
    };
    let rows = rows
        .data("table", &t.table)
        .number("read", t.rows_read)
        .number("written", t.rows_written);
    out.push(match &t.sheet {
        Some(sheet) => rows.data("sheet", sheet),
        None => rows,
    });
    if let Some(header) = header_sentence(&t.header) {
        out.push(header);
    }
    let types: Vec<String> = t
        .columns
        .iter()
        .map(|c| format!("{} {}", c.name, c.sql_type.sql()))
        .collect();
    out.push(Sentence::new("open-import-columns").data("columns", types.join(", ")));
    for c in &t.columns {
        if let Some(example) = &c.zero_padded_example {
            out.push(
                Sentence::new("open-import-leading-zeros")
                    .data("column", &c.name)
                    .data("type", SqlType::Text.sql())
                    .data("example", example),
            );
        }
        if c.booleans {
            out.push(
                Sentence::new("open-import-booleans")
                    .data("column", &c.name)
                    .data("booleans", "true/false")
                    .data("stored", "1/0"),
            );
        }
    }
    let kind = match t.places {
        PlaceKind::Line => "line",
        PlaceKind::Element => "element",
        PlaceKind::Row => "row",
    };
    let found = [
        ("open-import-ragged", &t.ragged),
        ("open-import-undecodable", &t.undecodable),
        ("open-import-duplicate-keys", &t.duplicate_keys),
    ];
    for (id, places) in found {
        if !places.is_empty() {
            out.push(
                Sentence::new(id)
                    .number("count", places.count)
                    .key("kind", kind)
                    .said("places", places_sentence(places, kind)),
            );
        }
    }
}

/// Why the first row is, or is not, the header (nothing for JSON, whose keys name the columns).
fn header_sentence(header: &HeaderDecision) -> Option<Sentence> {
    Some(match header {
        HeaderDecision::Taken(HeaderReason::NumbersBelow { column }) => {
            Sentence::new("open-import-header-numbers-below").data("column", column)
        }
        HeaderDecision::Taken(HeaderReason::DistinctText) => {
            Sentence::new("open-import-header-distinct-text")
        }
        HeaderDecision::Taken(HeaderReason::OnlyRow) => {
            Sentence::new("open-import-header-only-row")
        }
        HeaderDecision::NotTaken(NoHeaderReason::Value { column, value }) => {
            Sentence::new("open-import-no-header-value")
                .data("value", value)
                .key("column", column.to_string())
                .data("names", COLUMN_NAMES)
        }
        HeaderDecision::NotTaken(NoHeaderReason::Repeated { value }) => {
            Sentence::new("open-import-no-header-repeated")
                .data("value", value)
                .data("names", COLUMN_NAMES)
        }
        HeaderDecision::NotTaken(NoHeaderReason::Blank) => {
            Sentence::new("open-import-no-header-blank").data("names", COLUMN_NAMES)
        }
        HeaderDecision::Keys => return None,
    })
}

/// What the columns of a table without a header are named.
const COLUMN_NAMES: &str = "column_1, column_2, …";

/// "lines 2, 3, 4 and 8 more": the first places listed, and how many more.
fn places_sentence(p: &Places, kind: &str) -> Sentence {
    let list: Vec<String> = p.first.iter().map(|n| n.to_string()).collect();
    let more = match p.count.saturating_sub(p.first.len() as u64) {
        0 => "none".to_string(),
        more => more.to_string(),
    };
    Sentence::new("open-import-places")
        .key("kind", kind)
        .number("listed", p.first.len() as u64)
        .key("list", list.join(", "))
        .key("more", more)
}

/// The word the catalogue names a delimiter by.
fn delimiter_key(d: char) -> &'static str {
    match d {
        ',' => "comma",
        '\t' => "tab",
        ';' => "semicolon",
        '|' => "pipe",
        _ => "other",
    }
}

/// The word the catalogue names an encoding by.
fn encoding_key(e: Encoding) -> &'static str {
    match e {
        Encoding::Utf8 => "utf8",
        Encoding::Utf8Bom => "utf8-bom",
        Encoding::Utf16Le => "utf16le",
        Encoding::Utf16Be => "utf16be",
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
