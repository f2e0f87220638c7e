//! Files too large to copy, listed by the browser's handle to them (`browser::file_handles`):
//! kept in IndexedDB when such a file opens, one entry per file (a handle to the same file
//! found again takes the same id), and reopened through the handle once the browser has asked
//! the person. A file that is not as it was when last opened here (its size, its time) is
//! said, and opened as it is now.

use super::{idb_error, let_go, AppState};
use crate::browser::file_handles::{self, every_kept, same_file};
use crate::kept::{Recent, Reopen};
use crate::present::kept::changed_since;
use crate::present::marked::data as mark;
use crate::tr;
use crate::ui::lazy::on_first_use;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// A file that opened on demand through its handle, as the list will hold it.
pub struct HandleOpened {
    pub name: String,
    pub size: u64,
    pub tables: usize,
    pub modified_ms: u64,
}

/// Lists the open file by its handle (in the background: the browser is asked which kept
/// handle names the same file).
pub fn list_by_handle(state: AppState, opened: HandleOpened, handle: JsValue) {
    leptos::task::spawn_local(async move {
        if let Err(not_loaded) = keep_handle(state, opened, handle).await {
            state.recent.note.set(Some(not_loaded.to_string()));
        }
    });
}

on_first_use! {
    database =>
    /// Keeps `handle` (under the id of a kept handle to the same file, else a new one) and
    /// lists the file; says so when it changed since it was last opened here.
    fn keep_handle(state: AppState, opened: HandleOpened, handle: JsValue) -> () {
        let mut id = None;
        for (kept_id, kept) in every_kept().await.unwrap_or_default() {
            if same_file(&kept, &handle).await {
                id = Some(kept_id);
                break;
            }
        }
        let id = id.unwrap_or_else(|| crate::browser::storage::new_id("h"));
        if let Err(why) = file_handles::keep(&id, &handle).await {
            let why = idb_error(&why);
            state.recent.note.set(Some(tr!("open-recent-not-listed", name = mark(&opened.name), why = why)));
            return Ok(());
        }
        let reopen = Reopen::Handle { id, size: opened.size, modified_ms: opened.modified_ms };
        let before = state.recent.list.with_untracked(|list| list.find(&reopen).cloned());
        if let Some(Reopen::Handle { size, modified_ms, .. }) = before.map(|r| r.reopen) {
            let now = (opened.size, opened.modified_ms);
            state.recent.note.set(changed_since(&mark(&opened.name), (size, modified_ms), now));
        }
        let recent = Recent {
            name: opened.name,
            size: Some(opened.size),
            tables: opened.tables,
            opened_at_ms: js_sys::Date::now(),
            reopen,
        };
        let dropped = state.recent.change(|list| list.opened(recent));
        let_go(state, dropped);
    }
}
