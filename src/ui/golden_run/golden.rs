//! The open database's golden questions, from the page's knowledge (`ui/knowledge`: every
//! source merged and checked). What the model gets while they are asked is its view
//! (`ui/knowledge::model_view`), as for the chat's questions.

use super::super::state::AppState;
use crate::knowledge::GoldenQuestion;
use leptos::prelude::*;

/// The golden questions of the database that is open (none while none is), from its
/// `askdb_checks` table or a notes file.
pub fn golden_questions(app: AppState) -> Signal<Vec<GoldenQuestion>> {
    Signal::derive(move || {
        app.assistant
            .knowledge
            .with(|k| k.merged.golden_questions.clone())
    })
}
