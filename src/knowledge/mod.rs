//! What the data *means*, taught once by the people who know it and carried with the database:
//! notes on tables and columns, a glossary of the question's words, worked examples
//! (question → SQL) and golden questions (question → the SQL whose result is right).
//!
//! Knowledge comes from four sources, each read into the same [`Knowledge`]:
//! - comments inside the schema's `CREATE TABLE` texts (`amount INTEGER -- in cents`);
//! - tables inside the database file with documented names ([`KNOWLEDGE_TABLES`]);
//! - a sidecar file (JSON, `docs/knowledge-format.md`) opened next to the database or named by
//!   `?notes=`;
//! - the person, editing notes in the page (kept per database in the browser).
//!
//! Everything here is untrusted input, like the data itself: it is checked against the schema,
//! cut to size and reported ([`Problem`]), never obeyed. Knows nothing of the browser.

pub mod budget;
pub mod comments;
mod hiding;
pub mod in_database;
mod limits;
mod merge;
pub mod person;
pub mod retrieve;
pub mod sidecar;
pub mod tables;
mod validate;

pub use limits::{Limits, LIMITS};

use serde::{Deserialize, Serialize};
use std::fmt;

/// The tables a database keeps its knowledge in. They are knowledge, not data: the model is
/// never shown them as tables to query, and its copy of the database does not have them.
pub const KNOWLEDGE_TABLES: [&str; 4] = [
    "askdb_notes",
    "askdb_glossary",
    "askdb_examples",
    "askdb_checks",
];

/// True for the tables of [`KNOWLEDGE_TABLES`] (ignoring ASCII case, as SQLite does).
pub fn is_knowledge_table(name: &str) -> bool {
    KNOWLEDGE_TABLES
        .iter()
        .any(|table| table.eq_ignore_ascii_case(name))
}

/// Where a piece of knowledge came from, so the page can say so and a person's own edits win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A comment in the table's `CREATE` statement.
    Schema,
    /// One of the [`KNOWLEDGE_TABLES`] inside the file.
    Database,
    /// A sidecar file opened next to the database, or named by `?notes=`.
    Sidecar,
    /// Written by the person in the page.
    Person,
}

impl Source {
    /// As the native tools and logs say it, in English ("schema comment"); the page says it
    /// in its language (`notes-source-*` in the catalogues).
    pub fn label(self) -> &'static str {
        match self {
            Source::Schema => "schema comment",
            Source::Database => "in the database",
            Source::Sidecar => "notes file",
            Source::Person => "your note",
        }
    }
}

/// A note on a table (`column` is `None`) or on one of its columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Note {
    pub table: String,
    pub column: Option<String>,
    pub text: String,
    pub source: Source,
}

/// A word or phrase the questions use, and what it means in this data
/// ("repeat rate" → "share of buyers with two or more orders").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Term {
    pub term: String,
    pub meaning: String,
    pub source: Source,
}

/// A question with SQL that answers it: a worked example shown to the model, or a golden
/// question the model is checked against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Example {
    pub question: String,
    pub sql: String,
    pub source: Source,
}

/// A golden question: the model is asked it and checked against the result of `sql` (or of
/// one of `also_accepted`, for questions with more than one right reading). Never shown to the
/// model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoldenQuestion {
    pub question: String,
    pub sql: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_accepted: Vec<String>,
    pub source: Source,
}

/// Everything known about one database's meaning.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Knowledge {
    pub notes: Vec<Note>,
    pub glossary: Vec<Term>,
    /// Worked examples, retrieved by similarity to the question.
    pub examples: Vec<Example>,
    /// Golden questions: never shown to the model, asked of it in a golden run.
    #[serde(rename = "checks")]
    pub golden_questions: Vec<GoldenQuestion>,
}

impl Knowledge {
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty()
            && self.glossary.is_empty()
            && self.examples.is_empty()
            && self.golden_questions.is_empty()
    }

    /// The note on `table` itself, if any (ignoring ASCII case).
    pub fn table_note(&self, table: &str) -> Option<&Note> {
        self.notes
            .iter()
            .find(|note| note.column.is_none() && note.table.eq_ignore_ascii_case(table))
    }

    /// The note on `table.column`, if any (ignoring ASCII case).
    pub fn column_note(&self, table: &str, column: &str) -> Option<&Note> {
        self.notes.iter().find(|note| {
            note.table.eq_ignore_ascii_case(table)
                && note
                    .column
                    .as_deref()
                    .is_some_and(|c| c.eq_ignore_ascii_case(column))
        })
    }
}

/// Something wrong with a piece of knowledge, reported to the person; the piece is dropped or
/// cut, never trusted as it was. Its subject and message are said in the page's language
/// (English natively) when it is made; it is shown on the page and written by the native
/// tools, never told to the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    pub source: Source,
    /// What it was about: "note on orders.amont", "example \"How many …\"".
    pub subject: String,
    /// What is wrong and what was done: "no such column in orders: dropped".
    pub message: String,
}

/// For the native tools and logs; the page joins the parts in its language
/// (`notes-problem-line`).
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.subject,
            self.source.label(),
            self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knowledge_tables_are_known_in_any_case() {
        assert!(is_knowledge_table("askdb_notes"));
        assert!(is_knowledge_table("ASKDB_Checks"));
        assert!(!is_knowledge_table("askdb_note"));
        assert!(!is_knowledge_table("notes"));
    }

    #[test]
    fn notes_are_found_by_table_and_column_ignoring_case() {
        let knowledge = Knowledge {
            notes: vec![
                Note {
                    table: "orders".into(),
                    column: None,
                    text: "one row per order".into(),
                    source: Source::Schema,
                },
                Note {
                    table: "orders".into(),
                    column: Some("amount".into()),
                    text: "in cents".into(),
                    source: Source::Person,
                },
            ],
            ..Knowledge::default()
        };
        assert_eq!(
            knowledge.table_note("ORDERS").unwrap().text,
            "one row per order"
        );
        assert_eq!(
            knowledge.column_note("orders", "Amount").unwrap().text,
            "in cents"
        );
        assert!(knowledge.column_note("orders", "id").is_none());
        assert!(!knowledge.is_empty());
    }
}
