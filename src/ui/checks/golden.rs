//! The open database's golden questions, and the knowledge the model gets while they are asked.
//!
//! Stand-in until the page's knowledge loading (`ui/knowledge`, which merges every source) is
//! on this branch: the knowledge is read from the file's own `askdb_*` tables
//! ([`crate::knowledge::tables::load`]) and checked against the schema when a database opens.

use super::super::state::AppState;
use crate::knowledge::{tables, Check, Knowledge};
use leptos::prelude::*;

/// The knowledge of the database that is open (empty while none is), read again when another
/// one opens.
fn file_knowledge(app: AppState) -> Signal<Knowledge> {
    let read = LocalResource::new(move || {
        let schema = app
            .open
            .with(|open| open.as_ref().map(|o| o.schema.clone()));
        async move {
            let schema = schema?;
            let db = app.database();
            let (knowledge, _problems) = tables::load(&*db).await.ok()?;
            Some(knowledge.checked(&schema).0)
        }
    });
    Signal::derive(move || read.get().flatten().unwrap_or_default())
}

/// The golden questions of the open database, and the knowledge that goes with them to the
/// model (the runner takes the golden questions out of it).
pub fn golden_knowledge(app: AppState) -> (Signal<Vec<Check>>, Signal<Knowledge>) {
    let knowledge = file_knowledge(app);
    let checks = Signal::derive(move || knowledge.with(|k| k.checks.clone()));
    (checks, knowledge)
}
