//! "Save conversation": the questions asked (or replayed) on the open database as one
//! `askdb-conversation/1` file (`/2` when a question was asked of several candidates),
//! downloaded. Never a key: the recording holds only what the
//! model said and was told, and the endpoint without its query string.

use super::ChatState;
use crate::browser::{now_iso, save_file};
use crate::conversation::{self, format_for, ConversationFile};
use leptos::prelude::*;

impl ChatState {
    /// Whether there is anything to save.
    pub(super) fn can_save(&self) -> bool {
        self.exchanges
            .with(|list| list.iter().any(|e| e.recording.with_value(Option::is_some)))
    }

    /// Downloads the conversation, or says why it cannot.
    pub(super) fn save(&self) {
        let saved = self.conversation_file().and_then(|file| {
            let text = file.to_json();
            // What is saved must replay: the same checks as a file opened later.
            conversation::read(&text).map_err(|why| {
                format!("This conversation cannot be saved as a replayable file: {why}.")
            })?;
            save_file(&file.file_name(), "application/json", &text).map_err(|e| {
                format!(
                    "The browser did not save the file ({}).",
                    crate::browser::describe(&e)
                )
            })
        });
        self.error.set(saved.err());
    }

    pub(super) fn conversation_file(&self) -> Result<ConversationFile, String> {
        let questions: Vec<_> = self.exchanges.with_untracked(|list| {
            list.iter()
                .filter_map(|e| e.recording.get_value())
                .collect()
        });
        if questions.is_empty() {
            return Err("Ask a question first: there is nothing to save yet.".into());
        }
        let database = self.app.database_record().ok_or(
            "The database could not be identified here (its SHA-256 could not be computed), so \
             a saved conversation could not name it.",
        )?;
        let (model, settings) = match self.recorded_with.get_value() {
            Some(recorded) => recorded,
            None => return Err("Ask a question first: there is nothing to save yet.".into()),
        };
        Ok(ConversationFile {
            format: format_for(&questions).into(),
            recorded_at: now_iso(),
            database,
            model,
            settings,
            questions,
        })
    }
}
