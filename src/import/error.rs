//! Why an import failed, in words a person can act on.

use super::sentence::Sentence;
use super::sniff::NotData;
use std::fmt;

/// The most columns a table may have: SQLite's own limit (`SQLITE_MAX_COLUMN`, 2,000 in the
/// builds of sql.js and rusqlite that askdb uses), so a wider file is refused here with a
/// message instead of failing inside SQLite.
pub const MAX_COLUMNS: usize = 2000;

#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    /// A SQLite database: open it as a database, not through the importer.
    NotForImporter {
        file: String,
    },
    Unrecognised {
        file: String,
        why: NotData,
    },
    /// No bytes, or only a byte order mark and white space.
    Empty {
        file: String,
    },
    TooManyColumns {
        file: String,
        columns: usize,
    },
    /// JSON that does not parse; `line` where serde_json stopped.
    Json {
        file: String,
        line: u64,
        message: String,
    },
    Workbook {
        file: String,
        message: String,
    },
    /// The file could not be read (gone, changed, not allowed).
    Read {
        file: String,
        message: String,
    },
    /// The file's content differed between the two passes.
    Changed {
        file: String,
    },
    /// The database refused a write.
    Write {
        message: String,
    },
    NoFiles,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::NotForImporter { file } => write!(
                f,
                "{file} is a SQLite database: open it on its own, as a database, not with other files to import"
            ),
            ImportError::Unrecognised { file, why } => write!(
                f,
                "{file} cannot be imported: {why}. askdb imports CSV, TSV, delimited .txt, JSON (an array of objects or one object per line) and .xlsx files"
            ),
            ImportError::Empty { file } => {
                write!(f, "{file} is empty: there is nothing to import")
            }
            ImportError::TooManyColumns { file, columns } => write!(
                f,
                "{file} has {columns} columns; SQLite tables hold at most {MAX_COLUMNS}. Split the file into narrower ones, or check that its delimiter is the one meant"
            ),
            ImportError::Json { file, line, message } => write!(
                f,
                "{file} is not valid JSON at line {line}: {message}. A JSON file must hold an array of objects, or one object per line"
            ),
            ImportError::Workbook { file, message } => write!(
                f,
                "{file} could not be read as an Excel workbook ({message}); save it again from Excel as .xlsx"
            ),
            ImportError::Read { file, message } => write!(
                f,
                "{file} could not be read ({message}); it may have changed or moved since it was chosen: choose it again"
            ),
            ImportError::Changed { file } => write!(
                f,
                "{file} changed while it was being imported: choose it again once it is saved"
            ),
            ImportError::Write { message } => write!(
                f,
                "the database being made refused a write ({message}); the tab may be short of memory"
            ),
            ImportError::NoFiles => write!(f, "no file was given to import"),
        }
    }
}

impl std::error::Error for ImportError {}

impl ImportError {
    /// The error as the page says it: the same words as `Display` in English, in the page's
    /// language there (the import worker sends these facts; it has no catalogue).
    pub fn sentence(&self) -> Sentence {
        match self {
            ImportError::NotForImporter { file } => {
                Sentence::new("open-import-error-sqlite").data("file", file)
            }
            ImportError::Unrecognised { file, why } => {
                Sentence::new("open-import-error-unrecognised")
                    .data("file", file)
                    .said("why", not_data(*why))
                    .data("txt", ".txt")
            }
            ImportError::Empty { file } => {
                Sentence::new("open-import-error-empty").data("file", file)
            }
            ImportError::TooManyColumns { file, columns } => {
                Sentence::new("open-import-error-too-many-columns")
                    .data("file", file)
                    .key("columns", columns.to_string())
                    .key("most", MAX_COLUMNS.to_string())
            }
            ImportError::Json {
                file,
                line,
                message,
            } => Sentence::new("open-import-error-json")
                .data("file", file)
                .key("line", line.to_string())
                .data("message", message),
            ImportError::Workbook { file, message } => Sentence::new("open-import-error-workbook")
                .data("file", file)
                .data("message", message),
            ImportError::Read { file, message } => Sentence::new("open-import-error-read")
                .data("file", file)
                .data("message", message),
            ImportError::Changed { file } => {
                Sentence::new("open-import-error-changed").data("file", file)
            }
            ImportError::Write { message } => {
                Sentence::new("open-import-error-write").data("message", message)
            }
            ImportError::NoFiles => Sentence::new("open-import-error-no-files"),
        }
    }
}

/// Why a file is not a data file, as a clause of [`ImportError::sentence`]'s.
fn not_data(why: NotData) -> Sentence {
    match why {
        NotData::Zip => Sentence::new("open-import-not-data-zip").data("zip", "zip"),
        NotData::OldExcel => Sentence::new("open-import-not-data-xls").data("xls", ".xls"),
        NotData::Binary => Sentence::new("open-import-not-data-binary"),
        NotData::NotJson => Sentence::new("open-import-not-data-json"),
        NotData::NoDelimiter => Sentence::new("open-import-not-data-delimiter"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mutation: a word changed in one of the catalogue's import errors, or two of them
    /// swapped: the page's English is `Display`'s, byte for byte.
    #[test]
    fn each_error_reads_as_its_display() {
        let file = || "orders.csv".to_string();
        let message = || "expected value".to_string();
        let mut errors = vec![
            ImportError::NotForImporter { file: file() },
            ImportError::Empty { file: file() },
            ImportError::TooManyColumns {
                file: file(),
                columns: 2_500,
            },
            ImportError::Json {
                file: file(),
                line: 1_234,
                message: message(),
            },
            ImportError::Workbook {
                file: file(),
                message: message(),
            },
            ImportError::Read {
                file: file(),
                message: message(),
            },
            ImportError::Changed { file: file() },
            ImportError::Write { message: message() },
            ImportError::NoFiles,
        ];
        for why in [
            NotData::Zip,
            NotData::OldExcel,
            NotData::Binary,
            NotData::NotJson,
            NotData::NoDelimiter,
        ] {
            errors.push(ImportError::Unrecognised { file: file(), why });
        }
        for error in errors {
            assert_eq!(error.sentence().say(), error.to_string());
        }
    }
}
