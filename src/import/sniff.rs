//! How a data file is written, from its name and first bytes: delimited text (which delimiter,
//! which encoding), JSON (which shape) or an Excel workbook. Whether a file is a data file at all
//! is `crate::identify`'s to say; a SQLite database is not the importer's whatever its name.

use super::decode::{self, Encoding};
use crate::identify::{extension, is_sqlite, DataKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How many first bytes the sniffer wants (the caller reads up to this many).
pub const SNIFF_BYTES: usize = 64 * 1024;

/// The delimiters a delimited text file may use, in the order ties are settled.
pub const DELIMITERS: [u8; 4] = [b',', b'\t', b';', b'|'];

/// What the file is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Sniffed {
    /// CSV, TSV or delimited text.
    Delimited { delimiter: u8, encoding: Encoding },
    /// JSON: an array of objects, or one value per line.
    Json {
        shape: JsonShape,
        encoding: Encoding,
    },
    /// An Excel workbook (`.xlsx`, `.xlsm`).
    Xlsx,
    /// A SQLite database: not for the importer, open it as a database.
    SqliteDatabase,
    /// Nothing the importer reads, with why (for the person).
    Unrecognised { why: NotData },
}

/// Why a file is nothing the importer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotData {
    /// A zip archive that is not named as an Excel workbook.
    Zip,
    /// An Excel workbook of before 2007 (`.xls`).
    OldExcel,
    Binary,
    /// Named `.json`, but it starts with neither `[` nor `{`.
    NotJson,
    NoDelimiter,
}

impl fmt::Display for NotData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotData::Zip => "it is a zip archive; of those only Excel workbooks (.xlsx) are imported",
            NotData::OldExcel => {
                "it is an old Excel workbook (.xls): save it as .xlsx (Excel Workbook) and open that"
            }
            NotData::Binary => "it holds binary data, not text",
            NotData::NotJson => "it is named as JSON but does not start with [ or {",
            NotData::NoDelimiter => {
                "no delimiter (comma, tab, semicolon or |) separates its first lines into columns"
            }
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JsonShape {
    /// `[ {…}, {…} ]`
    Array,
    /// One value per line (NDJSON, JSON Lines).
    Lines,
}

/// What `name` with these `first` bytes (up to [`SNIFF_BYTES`]) is.
pub fn data_format(name: &str, first: &[u8]) -> Sniffed {
    let ext = extension(name);
    let kind = DataKind::by_name(name);
    if is_sqlite(first) {
        return Sniffed::SqliteDatabase;
    }
    if first.starts_with(b"PK\x03\x04") {
        return match kind {
            Some(DataKind::Excel) => Sniffed::Xlsx,
            _ => Sniffed::Unrecognised { why: NotData::Zip },
        };
    }
    if first.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        return Sniffed::Unrecognised {
            why: NotData::OldExcel,
        };
    }
    let encoding = Encoding::detect(first);
    let text = decode::preview(first);
    if matches!(encoding, Encoding::Utf8) && first.contains(&0) {
        return Sniffed::Unrecognised {
            why: NotData::Binary,
        };
    }
    let start = text.trim_start().chars().next();
    let json_ext = kind == Some(DataKind::Json);
    match start {
        Some('[') if json_ext || ext != "csv" => {
            return Sniffed::Json {
                shape: JsonShape::Array,
                encoding,
            }
        }
        Some('{') if json_ext || ext != "csv" => {
            return Sniffed::Json {
                shape: JsonShape::Lines,
                encoding,
            }
        }
        _ if json_ext => {
            return Sniffed::Unrecognised {
                why: NotData::NotJson,
            }
        }
        _ => {}
    }
    let wanted = match ext.as_str() {
        "tsv" | "tab" => Some(b'\t'),
        "csv" => Some(b','),
        _ => None,
    };
    match (detect_delimiter(&text, wanted), wanted) {
        (Some(delimiter), _) | (None, Some(delimiter)) => Sniffed::Delimited {
            delimiter,
            encoding,
        },
        (None, None) => Sniffed::Unrecognised {
            why: NotData::NoDelimiter,
        },
    }
}

/// The delimiter that splits the first lines most consistently into more than one field,
/// counting outside quotes; `preferred` wins a tie. None when no candidate splits them.
fn detect_delimiter(text: &str, preferred: Option<u8>) -> Option<u8> {
    let lines = complete_lines(text, 50);
    if lines.is_empty() {
        return None;
    }
    let mut best: Option<(u8, f64, usize)> = None;
    for &d in &DELIMITERS {
        let counts: Vec<usize> = lines.iter().map(|l| count_outside_quotes(l, d)).collect();
        let mode = mode(&counts);
        if mode == 0 {
            continue;
        }
        let consistency =
            counts.iter().filter(|&&c| c == mode).count() as f64 / counts.len() as f64;
        let better = match best {
            None => true,
            Some((b, bc, bm)) => {
                consistency > bc + 1e-9
                    || ((consistency - bc).abs() < 1e-9
                        && (Some(d) == preferred && Some(b) != preferred
                            || (Some(b) != preferred && mode > bm)))
            }
        };
        if better {
            best = Some((d, consistency, mode));
        }
    }
    best.map(|(d, _, _)| d)
}

/// Up to `max` lines that end before the sniffed bytes do (a quoted line break joins lines).
fn complete_lines(text: &str, max: usize) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut in_quotes = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '"' => in_quotes = !in_quotes,
            '\n' if !in_quotes => {
                let line = text[start..i].trim_end_matches('\r');
                if !line.is_empty() {
                    lines.push(line);
                }
                start = i + 1;
                if lines.len() == max {
                    return lines;
                }
            }
            _ => {}
        }
    }
    // A text shorter than the sniffed bytes ends where the file does: its last line is whole.
    if lines.is_empty() && !text[start..].trim().is_empty() {
        lines.push(&text[start..]);
    }
    lines
}

fn count_outside_quotes(line: &str, delimiter: u8) -> usize {
    let mut in_quotes = false;
    let mut n = 0;
    for b in line.bytes() {
        if b == b'"' {
            in_quotes = !in_quotes;
        } else if b == delimiter && !in_quotes {
            n += 1;
        }
    }
    n
}

fn mode(counts: &[usize]) -> usize {
    let mut sorted = counts.to_vec();
    sorted.sort_unstable();
    let (mut best, mut best_run, mut run) = (0, 0, 0);
    for (i, &c) in sorted.iter().enumerate() {
        run = if i > 0 && sorted[i - 1] == c {
            run + 1
        } else {
            1
        };
        if run > best_run || (run == best_run && c > best) {
            best = c;
            best_run = run;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delimiter_of(name: &str, text: &str) -> Option<u8> {
        match data_format(name, text.as_bytes()) {
            Sniffed::Delimited { delimiter, .. } => Some(delimiter),
            _ => None,
        }
    }

    #[test]
    fn a_sqlite_database_is_not_for_the_importer_whatever_its_name() {
        let mut bytes = b"SQLite format 3\0".to_vec();
        bytes.resize(100, 0);
        assert_eq!(data_format("data.csv", &bytes), Sniffed::SqliteDatabase);
    }

    #[test]
    fn a_zip_is_a_workbook_only_when_named_so() {
        assert_eq!(data_format("Book1.XLSX", b"PK\x03\x04rest"), Sniffed::Xlsx);
        assert!(matches!(
            data_format("x.zip", b"PK\x03\x04rest"),
            Sniffed::Unrecognised { .. }
        ));
    }

    #[test]
    fn json_array_and_lines_are_told_apart() {
        let shape = |t: &str| match data_format("d.json", t.as_bytes()) {
            Sniffed::Json { shape, .. } => Some(shape),
            _ => None,
        };
        assert_eq!(shape("  [{\"a\":1}]"), Some(JsonShape::Array));
        assert_eq!(shape("{\"a\":1}\n{\"a\":2}\n"), Some(JsonShape::Lines));
        assert_eq!(shape("a,b\n"), None);
    }

    #[test]
    fn semicolons_win_over_decimal_commas() {
        assert_eq!(
            delimiter_of("prices.csv", "name;price\nbread;1,5\nmilk;0,99\n"),
            Some(b';')
        );
    }

    #[test]
    fn a_delimiter_inside_quotes_is_not_counted() {
        assert_eq!(
            delimiter_of("x.txt", "a|b\n\"1,2,3\"|4\n\"5,6\"|7\n"),
            Some(b'|')
        );
    }

    #[test]
    fn tsv_and_txt_with_tabs() {
        assert_eq!(delimiter_of("x.tsv", "a\tb\n1,5\t2\n"), Some(b'\t'));
        assert_eq!(delimiter_of("x.txt", "a\tb\n1\t2\n"), Some(b'\t'));
    }

    #[test]
    fn a_one_column_csv_is_still_csv_but_plain_text_is_refused() {
        assert_eq!(delimiter_of("ids.csv", "id\n1\n2\n"), Some(b','));
        assert!(matches!(
            data_format("notes.txt", b"just some words\nand more\n"),
            Sniffed::Unrecognised { .. }
        ));
    }

    #[test]
    fn utf16_text_is_sniffed_through_its_encoding() {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend("a;b\n1;2\n".encode_utf16().flat_map(|u| u.to_le_bytes()));
        assert_eq!(
            data_format("x.csv", &bytes),
            Sniffed::Delimited {
                delimiter: b';',
                encoding: Encoding::Utf16Le
            }
        );
    }

    #[test]
    fn binary_bytes_are_refused() {
        assert!(matches!(
            data_format("x.bin", b"\x00\x01\x02abc"),
            Sniffed::Unrecognised { .. }
        ));
    }
}
