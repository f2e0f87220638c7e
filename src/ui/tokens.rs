//! The Datasette servers' API tokens the person typed, kept as the model's keys are: in this
//! tab's memory, each bound to the server (origin) it was entered for
//! (`settings::server_tokens`), and in `localStorage` only when the person ticks "remember".
//! A leaf of the page's state: the form (`datasette_form`) and the opening read and write it.

use crate::browser::storage;
use crate::settings::server_tokens::{ServerTokens, SERVER_TOKENS_STORAGE_KEY};
use leptos::prelude::*;

/// The tokens typed in this tab, and those kept on this device.
#[derive(Clone, Copy)]
pub struct TokenStore {
    /// Gone when the tab closes.
    memory: StoredValue<ServerTokens>,
    /// What `localStorage` holds.
    saved: RwSignal<ServerTokens>,
}

impl TokenStore {
    /// The tokens remembered on this device (and, at first, in memory too).
    pub fn load() -> TokenStore {
        let saved = storage::read(SERVER_TOKENS_STORAGE_KEY)
            .map(|json| ServerTokens::from_json(&json))
            .unwrap_or_default();
        TokenStore {
            memory: StoredValue::new(saved.clone()),
            saved: RwSignal::new(saved),
        }
    }

    /// The token for the server at `origin`, if one was entered or remembered.
    pub fn get(&self, origin: &str) -> Option<String> {
        self.memory
            .with_value(|tokens| tokens.get(origin).map(str::to_string))
    }

    /// Keeps `token` for `origin` in memory, and on this device when `remember`; an empty token
    /// keeps the one held. Unticked, the server's saved token is forgotten.
    pub fn keep(&self, origin: &str, token: &str, remember: bool) -> Result<(), String> {
        if !token.trim().is_empty() {
            self.memory.update_value(|tokens| tokens.set(origin, token));
        }
        let held = self.get(origin).unwrap_or_default();
        let before = self.saved.get_untracked();
        self.saved.update(|saved| {
            if remember {
                saved.set(origin, &held)
            } else {
                saved.remove(origin)
            }
        });
        if self.saved.get_untracked() == before {
            return Ok(());
        }
        let saved = self.saved.get_untracked();
        let written = if saved.is_empty() {
            storage::remove(SERVER_TOKENS_STORAGE_KEY)
        } else {
            storage::write(SERVER_TOKENS_STORAGE_KEY, &saved.to_json())
        };
        written.map_err(|refused| refused.to_string())
    }

    /// Whether any token is remembered on this device (tracked: a view that reads it is drawn
    /// again when that changes).
    pub fn any_remembered(&self) -> bool {
        self.saved.with(|saved| !saved.is_empty())
    }

    /// Forgets every token, here and on this device.
    pub fn forget_all(&self) -> Result<(), String> {
        self.memory.set_value(ServerTokens::default());
        self.saved.set(ServerTokens::default());
        storage::remove(SERVER_TOKENS_STORAGE_KEY).map_err(|refused| refused.to_string())
    }
}
