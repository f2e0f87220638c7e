//! A finding about a query, as the model and the page read it.

use serde::Serialize;

/// One finding about a query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub kind: DiagnosticKind,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiagnosticKind {
    /// A compared literal occurs in its column (so an empty result comes from elsewhere).
    LiteralFound,
    /// A compared literal does not occur; the message lists the values that do.
    LiteralNotFound,
    /// `NOT IN (SELECT …)` over a column that holds NULLs.
    NotInWithNulls,
    /// `= NULL` or `!= NULL`.
    NullComparison,
    /// A division SQLite computes in integers.
    IntegerDivision,
    /// A date literal written in another shape than the column's dates.
    DateShape,
    /// A date literal shorter than the column's values ('2024-03-31' against
    /// '2024-03-31 14:05:00') as an inclusive upper or exclusive lower bound: it cuts a day
    /// (or month) in the wrong place.
    DateBound,
}

impl Diagnostic {
    pub(crate) fn new(kind: DiagnosticKind, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind,
            message: message.into(),
        }
    }
}
