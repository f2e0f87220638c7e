//! What the open database's data means, in the page: read from the four sources when a
//! database opens (its schema comments and `askdb_*` tables, a notes file, the person's own
//! notes), merged, checked against the schema, shown in the schema panel, and given to the
//! model with each question ([`model_view_knowledge`]).
//!
//! The person's notes are kept per database, under its identity's key (`engine::identity`:
//! for a file read whole, the SHA-256 of its bytes), in `localStorage`; "Export notes file" writes everything as a notes file that `?notes=` or
//! "Open notes file" reads back. A notes file goes with the database open when it is read
//! (or with the next one, when none is open); opening another database leaves it behind.
//! Reading the knowledge never stops a database from opening: what fails is said in the panel.

mod editor;
mod panel;
mod sources;
pub mod view;

pub use editor::NoteView;
pub use panel::KnowledgeSection;

use super::follow::follower::Follower;
use super::lazy::on_first_use;
use super::state::{AppState, Identification};
use crate::browser::{save_file, storage};
use crate::engine::identity::Identity;
use crate::engine::page::PageDatabase;
use crate::engine::Schema;
use crate::knowledge::sidecar::SidecarError;
use crate::knowledge::{is_knowledge_table, person, Knowledge, Problem, LIMITS};
use crate::model_view::ModelView;
use crate::tr;
use js_sys::Uint8Array;
use leptos::prelude::*;
use std::rc::Rc;
use view::{KnowledgeState, SidecarFile};

fn storage_key(key: &str) -> String {
    format!("askdb.notes.{key}")
}

/// The notes follow each open (`ui::follow`): they are read for it.
pub const FOLLOWS: Follower = Follower {
    shown: Some((|| tr!("notes-reading-status"), "notes (knowledge)")),
    forget: start_opening,
    settle: |state, settled| {
        Box::pin(async move { load_for_open(state, &settled.schema, settled.key).await })
    },
    // The notes are the whole database's: what is hidden does not change them.
    view_changes: |_, _| {},
};

/// Called as a database opens, before the page shows it: nothing known of the database open
/// before is shown with it.
pub fn start_opening(state: AppState) {
    state.assistant.knowledge.update(|k| {
        *k = KnowledgeState {
            reading: true,
            // A notes file read before this database goes with it.
            sidecar: k.sidecar.clone().filter(|sidecar| sidecar.waiting),
            ..KnowledgeState::default()
        }
    });
}

/// Called once a database is open and its identity settled (`key`: the key the person's
/// notes are kept under, or why there is none): the person's kept notes and a notes file read
/// while nothing was open at once, then the file's own knowledge (schema comments, `askdb_*`
/// tables), read from the whole database.
pub async fn load_for_open(state: AppState, schema: &Schema, key: Result<String, String>) {
    let person = key
        .as_ref()
        .ok()
        .and_then(|key| storage::read(&storage_key(key)))
        .map(|json| person::from_json(&json))
        .unwrap_or_default();
    // A notes file read before this database (the person dropped it first) goes with it; one
    // read for the database open before does not.
    let sidecar = state
        .assistant
        .knowledge
        .with_untracked(|k| k.sidecar.clone())
        .filter(|sidecar| sidecar.waiting)
        .map(|sidecar| SidecarFile {
            waiting: false,
            ..sidecar
        });
    let stored_tables = schema
        .tables
        .iter()
        .filter(|table| is_knowledge_table(&table.name))
        .map(|table| (table.name.clone(), table.row_count))
        .collect();
    state.assistant.knowledge.set(KnowledgeState {
        reading: true,
        stored_tables,
        sidecar,
        person,
        not_kept: key
            .as_ref()
            .err()
            .map(|why| tr!("notes-not-kept", why = why)),
        key: key.ok(),
        ..KnowledgeState::default()
    });
    refresh(state);
    let read = match state.database() {
        Some(db) => read_in_chunk(db)
            .await
            .unwrap_or_else(|not_loaded| Err(not_loaded.to_string())),
        None => Err(crate::present::errors::for_person(
            &crate::engine::DbError::NotOpen,
        )),
    };
    state.assistant.knowledge.update(|k| {
        k.reading = false;
        match read {
            Ok((knowledge, problems)) => {
                k.from_file = knowledge;
                k.file_problems = problems;
            }
            Err(why) => k.error = Some(tr!("notes-read-failed", why = why)),
        }
    });
    refresh(state);
}

on_first_use! {
    database =>
    /// The database's own knowledge (see [`sources::from_file`]): its readers are downloaded
    /// with the first database opened.
    fn read_in_chunk(db: Rc<PageDatabase>) -> Result<(Knowledge, Vec<Problem>), String> {
        sources::from_file(&*db).await
    }
}

/// Takes in a notes file's bytes (opened, dropped, or from `?notes=`): for the open database,
/// or for the next one when none is open. The reason, when it cannot be read.
pub fn take_sidecar(state: AppState, name: &str, bytes: &Uint8Array) -> Result<(), String> {
    // Measured before the bytes are copied out of JavaScript's memory.
    let size = bytes.length() as usize;
    if size > LIMITS.sidecar_bytes {
        return Err(SidecarError::TooLarge { bytes: size }.for_person());
    }
    let text = String::from_utf8(bytes.to_vec()).map_err(|_| tr!("notes-file-not-utf8"))?;
    let (knowledge, problems) = sources::read_sidecar(&text)?;
    let waiting = state.open.with_untracked(Option::is_none);
    state.assistant.knowledge.update(|k| {
        k.sidecar = Some(SidecarFile {
            name: name.to_string(),
            knowledge,
            problems,
            waiting,
        })
    });
    refresh(state);
    Ok(())
}

/// Saves the person's note on `table` (or its `column`); a blank `text` says "no note here",
/// hiding a note from another source. The next question uses it.
pub fn save_note(state: AppState, table: &str, column: Option<&str>, text: &str) {
    state
        .assistant
        .knowledge
        .update(|k| person::set_note(&mut k.person, table, column, text));
    keep(state);
}

/// Deletes the person's note on `table` (or its `column`): a note from another source there
/// shows again.
pub fn delete_note(state: AppState, table: &str, column: Option<&str>) {
    state
        .assistant
        .knowledge
        .update(|k| person::remove_note(&mut k.person, table, column));
    keep(state);
}

/// Keeps the person's notes under the database's digest (or says why they cannot be), and
/// merges again.
fn keep(state: AppState) {
    let (key, notes) = state
        .assistant
        .knowledge
        .with_untracked(|k| (k.key.clone(), k.person.clone()));
    if let Some(key) = key {
        let key = storage_key(&key);
        let kept = if notes.is_empty() {
            storage::remove(&key)
        } else {
            storage::write(&key, &person::to_json(&notes))
        };
        if kept.is_err() {
            state
                .assistant
                .knowledge
                .update(|k| k.not_kept = Some(tr!("notes-not-saved")));
        }
    }
    refresh(state);
}

/// Whether the person wrote the note shown on `table` (or its `column`).
pub fn is_persons(state: &KnowledgeState, table: &str, column: Option<&str>) -> bool {
    state
        .person
        .iter()
        .any(|note| person::is_on(note, table, column))
}

/// Merges the sources again (the person's note wins) and validates them against the open
/// database's schema.
fn refresh(state: AppState) {
    let schema = state
        .open
        .with_untracked(|open| open.as_ref().map(|o| o.schema.clone()))
        .unwrap_or_default();
    state.assistant.knowledge.update(|k| {
        let mut parts = vec![k.from_file.clone()];
        let mut problems = k.file_problems.clone();
        if let Some(sidecar) = k.sidecar.as_ref().filter(|s| !s.waiting) {
            parts.push(sidecar.knowledge.clone());
            problems.extend(sidecar.problems.iter().cloned());
        }
        parts.push(person::as_knowledge(&k.person));
        let (merged, validation_problems) = sources::combine(parts, &schema);
        problems.extend(validation_problems);
        k.merged = merged;
        k.problems = problems;
    });
}

/// What the model is given with a question ([`ModelView`]): the schema of what it reads and
/// what the page knows, less anything about what it cannot see (hidden tables and columns,
/// the knowledge tables). `None` while the model may not be asked.
pub fn model_view(state: AppState) -> Option<ModelView> {
    let merged = state
        .assistant
        .knowledge
        .with_untracked(|k| k.merged.clone());
    let (schema, hidden) = state
        .assistant
        .hiding
        .with_untracked(|h| (h.model_view.schema().cloned(), h.hidden.clone()));
    Some(ModelView::new(schema?, merged, &hidden))
}

/// The knowledge the model gets with a question (see [`model_view`]).
pub fn model_view_knowledge(state: AppState) -> Knowledge {
    model_view(state)
        .map(|view| view.knowledge)
        .unwrap_or_default()
}

/// Downloads everything known as a notes file, named after the database.
pub fn export(state: AppState) -> Result<(), String> {
    let name = state
        .open
        .with_untracked(|open| open.as_ref().map(|o| o.name.clone()))
        .unwrap_or_else(|| "database".into());
    let sha256 = match state.identity.get_untracked() {
        Identification::Known(Identity::Bytes { sha256, .. }) => Some(sha256),
        _ => None,
    };
    // "shop.db (demo)" → "shop".
    let name = name.split(" (").next().unwrap_or(&name);
    let stem = name.strip_suffix(".db").unwrap_or(name);
    let text = state
        .assistant
        .knowledge
        .with_untracked(|k| sources::write_sidecar(&k.merged, name, sha256.as_deref()));
    save_file(
        &format!("{stem}.askdb-notes.json"),
        "application/json",
        &text,
    )
    .map_err(|e| crate::browser::describe(&e))
}
