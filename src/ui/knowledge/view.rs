//! What the page knows of the open database's meaning, as its state holds it: plain data,
//! apart from the work of reading and keeping it (`super`).

use crate::knowledge::{Knowledge, Note, Problem};
use crate::tr;

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
    /// "4 notes, 2 glossary terms, 3 worked examples, 5 golden questions", leaving out what is
    /// none: each in the page's language.
    pub fn counts(&self) -> Vec<String> {
        let k = &self.merged;
        [
            (
                k.notes.len(),
                tr!("notes-count-notes", count = k.notes.len()),
            ),
            (
                k.glossary.len(),
                tr!("notes-count-terms", count = k.glossary.len()),
            ),
            (
                k.examples.len(),
                tr!("notes-count-examples", count = k.examples.len()),
            ),
            (
                k.golden_questions.len(),
                tr!("notes-count-golden", count = k.golden_questions.len()),
            ),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(_, said)| said)
        .collect()
    }
}
