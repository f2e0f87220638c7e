//! What may run: exactly one read-only statement.
//!
//! Allowed: `SELECT`, `WITH … SELECT`, `VALUES`, and `EXPLAIN [QUERY PLAN]` of those. Everything
//! else is refused here, before it reaches SQLite, with a message that names what it is. The
//! engine's read-only connection is the second wall, not the first.

use std::fmt;

/// A statement the rules accepted. Only [`check`] makes one, so a [`crate::engine::Database`]
/// cannot be handed unchecked text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOnlySql(String);

impl ReadOnlySql {
    /// The statement, trimmed, without a trailing `;`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Why a statement may not run. `Display` gives the message shown to people and models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing but whitespace and comments.
    Empty,
    /// More than one statement; `count` as far as it could tell.
    MultipleStatements { count: usize },
    /// One statement, but not a read: `kind` names it ("DELETE", "PRAGMA", "CREATE TABLE"...).
    NotReadOnly { kind: String },
    /// A read that calls something that is never allowed (e.g. `load_extension`).
    ForbiddenFunction { name: String },
    /// The text cannot be tokenized (an unterminated string, quoted name or comment).
    Malformed { reason: String },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        todo!("message per refusal, e.g. \"only a single read-only statement can run; this is a DELETE\"")
    }
}

/// Decides whether `sql` may run. Accepts surrounding whitespace, comments and one trailing `;`.
pub fn check(sql: &str) -> Result<ReadOnlySql, Refusal> {
    todo!()
}
