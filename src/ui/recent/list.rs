//! The list of recent databases as the page holds it (`crate::kept::RecentList`, kept in
//! `localStorage`), and what the page says about keeping: the shared state's part of
//! `ui::recent`.

use crate::browser::storage;
use crate::kept::{Recent, RecentList};
use crate::tr;
use leptos::prelude::*;

/// Where the list is kept in `localStorage`.
const LIST_KEY: &str = "askdb.recent";

/// The list, and what the page says about keeping.
#[derive(Clone, Copy)]
pub struct RecentState {
    pub list: RwSignal<RecentList>,
    /// What the last keep, reopen or forget could not do, in a sentence.
    pub note: RwSignal<Option<String>>,
    /// What this site stores and may store, in bytes, once the browser said.
    pub storage: RwSignal<Option<(u64, u64)>>,
    /// True while the open database is being copied.
    pub keeping: RwSignal<bool>,
}

impl RecentState {
    /// The list as this browser keeps it (what is not sound in it is dropped: `kept`).
    pub fn load() -> RecentState {
        let saved = storage::read(LIST_KEY).unwrap_or_default();
        RecentState {
            list: RwSignal::new(RecentList::read(&saved)),
            note: RwSignal::new(None),
            storage: RwSignal::new(None),
            keeping: RwSignal::new(false),
        }
    }

    /// Changes the list and saves it; returns the entries whose copies are to be removed.
    pub(super) fn change(
        &self,
        change: impl FnOnce(&mut RecentList) -> Vec<Recent>,
    ) -> Vec<Recent> {
        let dropped = self.list.try_update(change).unwrap_or_default();
        let saved = self
            .list
            .with_untracked(|list| storage::write(LIST_KEY, &list.to_json()));
        if saved.is_err() {
            self.note.set(Some(tr!("open-recent-list-not-saved")));
        }
        dropped
    }
}
