//! The importer (issue 27): CSV, TSV, delimited text, JSON and Excel files made into one SQLite
//! database, a table per file (per sheet for a workbook), with a report of what was read.
//!
//! Pure and built for every target; natively tested against rusqlite. In the page it runs in
//! a worker of its own (`worker`, the `askdb-import-worker` binary), written into sql.js, and
//! the page talks to it through `client::ImportJob`.
//!
//! - [`sniff`]: how a data file is written, from its name and first bytes.
//! - [`decode`]: its text encoding (UTF-8 with or without BOM, UTF-16), as UTF-8.
//! - [`infer`]: values' kinds and columns' types; [`header`]: whether the first row is one.
//! - [`names`]: file, sheet and column names as SQL identifiers, unique.
//! - [`delimited`], [`json`], [`xlsx`]: one reader per format, each in the two passes of
//!   [`two_pass`] (types, then values), so that a file is streamed and never held twice.
//! - [`sink`]: where rows go (`native::RusqliteSink`; the worker's sql.js sink).
//! - [`places`]: where in a file something happened (lines, elements, rows), kept short.
//! - [`report`]: what was done, as data, and [`report::sentences`], as sentences' facts
//!   ([`sentence`]: a message of the catalogue and its values, said by the page).
//! - [`run`]: [`import_files`], the entry point.

pub mod decode;
pub mod delimited;
pub mod error;
pub mod header;
pub mod infer;
pub mod json;
pub mod names;
pub mod places;
pub mod report;
pub mod run;
pub mod sentence;
pub mod sink;
pub mod sniff;
pub mod source;
pub mod table;
pub mod two_pass;
pub mod xlsx;

#[cfg(target_arch = "wasm32")]
pub mod client;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
#[cfg(target_arch = "wasm32")]
pub mod worker;

pub use error::{ImportError, MAX_COLUMNS};
pub use report::{describe, sentences, ImportReport};
pub use run::{import_files, InputFile};
pub use sentence::Sentence;
pub use sink::Sink;
pub use sniff::{data_format, Sniffed};
pub use source::ByteSource;
pub use table::Progress;
