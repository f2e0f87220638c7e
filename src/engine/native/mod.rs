//! Native hosts (the tests, `askdb-eval`, `mdbook-askdb`): a read-only rusqlite connection behind
//! [`Database`](super::Database) ([`rusqlite_db`]), and a file's digest as the page records it
//! ([`file_digest`]).

pub mod file_digest;
pub mod rusqlite_db;

pub use rusqlite_db::{to_value, OpenError, RusqliteDb};
