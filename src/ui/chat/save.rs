//! "Save conversation": the questions asked (or replayed) on the open database as one
//! `askdb-conversation/1` file (`/2` when a question was asked of several candidates),
//! downloaded. Never a key: the recording holds only what the
//! model said and was told, and the endpoint without its query string.

use super::ChatState;
use crate::browser::{now_iso, save_file};
use crate::conversation::{self, format_for, ConversationFile};
use crate::present::marked::data;
use crate::present::replay::unreadable;
use crate::tr;
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
            conversation::read(&text)
                .map_err(|why| tr!("chat-save-not-replayable", why = unreadable(&why)))?;
            save_file(&file.file_name(), "application/json", &text).map_err(|e| {
                tr!(
                    "chat-save-browser-refused",
                    why = data(&crate::browser::describe(&e))
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
            return Err(tr!("chat-save-nothing"));
        }
        let database = self
            .app
            .database_record()
            .ok_or_else(|| tr!("chat-save-unidentified"))?;
        let (model, settings) = match self.recorded_with.get_value() {
            Some(recorded) => recorded,
            None => return Err(tr!("chat-save-nothing")),
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
