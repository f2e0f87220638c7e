//! What the page knows of the open database's meaning, as its state holds it: plain data,
//! apart from the work of reading and keeping it (`super`).

use crate::knowledge::{Knowledge, Note, Problem};

/// A notes file (sidecar) read into the page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SidecarFile {
    /// Its file name, or the address it came from.
    pub name: String,
    pub knowledge: Knowledge,
    pub problems: Vec<Problem>,
    /// Read while no database was open (or while one was opening): it goes with the next one.
    pub waiting: bool,
}

/// The four sources, and what they make together.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KnowledgeState {
    /// True while the open database's own knowledge is being read.
    pub reading: bool,
    /// From the database file: schema comments and the `askdb_*` tables.
    pub from_file: Knowledge,
    pub file_problems: Vec<Problem>,
    /// The knowledge tables the file has, with their row counts when known.
    pub stored_tables: Vec<(String, Option<crate::engine::RowCount>)>,
    pub sidecar: Option<SidecarFile>,
    /// The person's own notes for this database.
    pub person: Vec<Note>,
    /// Everything merged (the person's note wins, then the notes file's, the database's, the
    /// schema's) and checked against the schema: what the page shows and the model gets.
    pub merged: Knowledge,
    /// What was dropped or cut, from every source.
    pub problems: Vec<Problem>,
    /// Why something could not be read or kept (the database itself is open all the same).
    pub error: Option<String>,
    /// Why the person's notes last only until the tab closes, if they do.
    pub not_kept: Option<String>,
    /// The key the person's notes on the open database are kept under (`engine::identity`).
    pub(super) key: Option<String>,
}

impl KnowledgeState {
    /// "4 notes, 2 glossary terms, 3 examples, 5 golden questions", leaving out what is none.
    pub fn counts(&self) -> Vec<String> {
        use crate::count::plural;
        let k = &self.merged;
        [
            (k.notes.len(), "note", "notes"),
            (k.glossary.len(), "glossary term", "glossary terms"),
            (k.examples.len(), "worked example", "worked examples"),
            (
                k.golden_questions.len(),
                "golden question",
                "golden questions",
            ),
        ]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| plural(n as u64, one, many))
        .collect()
    }
}
