//! Reopening an entry of "Recent databases": an address or a Datasette server opened from
//! there, a kept copy opened as a file, a file by its kept handle once the browser lets the page
//! read it. Each is handed to `ui::intake` as any open is; what cannot be done is said in the
//! list's note. (Apart from the list's follower, which `ui::intake` reaches through opening.)

use super::{store_error, AppState};
use crate::browser::file_handles::{self, file_of, may_read};
use crate::browser::opfs::{Kept, StoreError};
use crate::kept::{Recent, Reopen};
use crate::present::marked::data as mark;
use crate::tr;
use crate::ui::intake::{start_open, Source};
use crate::ui::lazy::on_first_use;
use leptos::prelude::*;

/// Opens `recent` again, the way it was kept.
pub fn reopen(state: AppState, recent: Recent) {
    state.recent.note.set(None);
    match recent.reopen.clone() {
        Reopen::Address { url } => start_open(state, Source::database_address(&url)),
        Reopen::Datasette { address } => start_open(state, state.datasette_source(&address)),
        Reopen::Handle { .. } => reopen_by_handle(state, recent),
        Reopen::Copy { .. } => leptos::task::spawn_local(async move {
            if let Err(not_loaded) = open_kept_copy(state, recent).await {
                state.recent.note.set(Some(not_loaded.to_string()));
            }
        }),
    }
}

/// Reopens `recent`, kept by its handle.
pub fn reopen_by_handle(state: AppState, recent: Recent) {
    leptos::task::spawn_local(async move {
        if let Err(not_loaded) = open_by_handle(state, recent).await {
            state.recent.note.set(Some(not_loaded.to_string()));
        }
    });
}

on_first_use! {
    database =>
    /// Opens the kept copy of `recent` as a file named as the list names it; a copy that is
    /// gone is said, and its entry forgotten.
    fn open_kept_copy(state: AppState, recent: Recent) -> () {
        match kept_file(&recent).await {
            Ok(file) => start_open(state, Source::File(file)),
            Err(why) => {
                if why == StoreError::Missing {
                    state.recent.change(|list| list.forget(&recent.reopen).into_iter().collect());
                }
                let why = store_error(&why);
                state.recent.note.set(Some(tr!("open-recent-reopen-failed", name = mark(&recent.name), why = why)));
            }
        }
    }
}

async fn kept_file(recent: &Recent) -> Result<web_sys::File, StoreError> {
    let name = recent.copy().ok_or(StoreError::Missing)?;
    let file = Kept::open().await?.file(&name).await?;
    // The copy's own name is its SHA-256's; the page shows the name it was kept by.
    web_sys::File::new_with_blob_sequence(&js_sys::Array::of1(&file), &recent.name)
        .map_err(|e| StoreError::Failed(crate::browser::describe(&e)))
}

on_first_use! {
    database =>
    /// Opens the file `recent` names through its kept handle, once the browser lets the page
    /// read it; each way it cannot is said.
    fn open_by_handle(state: AppState, recent: Recent) -> () {
        let Reopen::Handle { id, .. } = &recent.reopen else {
            return Ok(());
        };
        let name = recent.name.clone();
        let handle = match file_handles::kept(id).await {
            Ok(Some(handle)) => handle,
            _ => {
                state.recent.change(|list| list.forget(&recent.reopen).into_iter().collect());
                state.recent.note.set(Some(tr!("open-recent-handle-gone", name = mark(&name))));
                return Ok(());
            }
        };
        if !may_read(&handle).await {
            state.recent.note.set(Some(tr!("open-recent-not-allowed", name = mark(&name))));
            return Ok(());
        }
        match file_of(&handle).await {
            Ok(file) => start_open(state, Source::Picked { file, handle }),
            Err(why) => state.recent.note.set(Some(tr!("open-recent-file-moved", name = mark(&name), why = why))),
        }
    }
}
