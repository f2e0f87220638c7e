//! Why an import failed, in words a person can act on.

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
        why: String,
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
