//! The open database's golden questions, and the knowledge the model gets while they are asked:
//! both from the page's knowledge (`ui/knowledge`: every source merged and checked).

use super::super::knowledge::for_model;
use super::super::state::AppState;
use crate::knowledge::{Check, Knowledge};
use leptos::prelude::*;

/// The golden questions of the database that is open (none while none is), from its
/// `askdb_checks` table or a notes file.
pub fn golden_questions(app: AppState) -> Signal<Vec<Check>> {
    Signal::derive(move || app.knowledge.with(|k| k.merged.checks.clone()))
}

/// What the model knows of the data while the golden questions are asked (the runner takes the
/// golden questions out of it).
pub fn knowledge(app: AppState) -> Knowledge {
    for_model(app)
}
