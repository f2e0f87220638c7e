//! "Recent databases": the databases opened in this browser, to reopen with a click (issue 40).
//!
//! A database the person named by its address (a web address, a Datasette server) is listed
//! when it opens; one whose bytes are here (a file chosen, the database an import made) only
//! when the person keeps it ("Keep this database in this browser"): its bytes are then copied
//! into the origin's private file system (`browser::opfs`) under its SHA-256, and reopening it
//! opens that copy as a file. The list itself is `crate::kept`, kept in `localStorage`;
//! nothing of it leaves the browser. Reopening opens the database the usual way
//! (`ui::intake`), so its notes, hidden choices and replay come back as they are kept today.
//!
//! What touches the private file system is downloaded with the database chunk (`ui::lazy`):
//! a first visit with nothing kept reads only the list. The parts: `list` (the state the page
//! shares), this file (the follower, keeping, forgetting), `handles` (files listed by the
//! browser's handle), `reopen` (an entry opened again, through `ui::intake`: apart, since
//! opening reaches the follower), `view`.

mod handles;
pub mod list;
mod reopen;
pub mod view;

pub use reopen::reopen;

use super::chat::kept::{forget_conversations_of, forget_every_conversation};
use super::follow::follower::Follower;
use super::lazy::on_first_use;
use super::state::{AppState, Identification, Reopening};
use crate::browser::idb::IdbError;
use crate::browser::opfs::{usage_and_quota, Kept, StoreError};
use crate::engine::identity::Identity;
use crate::kept::{copy_name, Recent, RecentList, Reopen, COPY_LIMIT_BYTES};
use crate::tr;
use leptos::prelude::*;

/// The list follows each open (`ui::follow`): a database named by its address is listed, a
/// kept one moved to the top.
pub const FOLLOWS: Follower = Follower {
    shown: None,
    forget: |state| state.recent.note.set(None),
    settle: |state, _| {
        note_opened(state);
        Box::pin(async {})
    },
    view_changes: |_, _| {},
};

/// The database that settled, as the list holds it, when it is listed (opened from an address,
/// or kept before).
fn note_opened(state: AppState) {
    let Some(open) = state.open.get_untracked() else {
        return;
    };
    // A page embedded in documentation keeps nothing on its reader's behalf.
    if state
        .address
        .with_value(|address| address.presentation.embed)
    {
        return;
    }
    let reopen = match open.reopening.clone() {
        Reopening::At(reopen) => reopen,
        Reopening::Handle {
            handle,
            modified_ms,
        } => {
            let kept = handles::HandleOpened {
                name: open.name.clone(),
                size: open.size,
                tables: open.data_tables(),
                modified_ms,
            };
            return handles::list_by_handle(state, kept, handle);
        }
        Reopening::Bytes(_) => match kept_sha256(state).map(|sha256| Reopen::Copy { sha256 }) {
            Some(copy)
                if state
                    .recent
                    .list
                    .with_untracked(|l| l.find(&copy).is_some()) =>
            {
                copy
            }
            // Not kept: listed only when the person keeps it.
            _ => return,
        },
        // A file chosen with its handle is `Bytes` or `Handle` once open (`ui::opening`).
        Reopening::Picked { .. } | Reopening::Not => return,
    };
    let recent = Recent {
        tables: open.data_tables(),
        name: open.name,
        size: (open.size > 0).then_some(open.size),
        opened_at_ms: js_sys::Date::now(),
        reopen,
    };
    let dropped = state.recent.change(|list| list.opened(recent));
    let_go(state, dropped);
}

/// The SHA-256 the open database would be kept under: its bytes are here, it was read whole
/// (its identity is their SHA-256) and it is small enough to open in memory again.
pub fn kept_sha256(state: AppState) -> Option<String> {
    let small = state.open.with_untracked(|open| {
        open.as_ref().is_some_and(|open| {
            matches!(open.reopening, Reopening::Bytes(_)) && open.size <= COPY_LIMIT_BYTES
        })
    });
    match state.identity.get_untracked() {
        Identification::Known(Identity::Bytes { sha256, .. }) if small => Some(sha256),
        _ => None,
    }
}

/// Copies the open database into this browser's storage and lists it ("Keep this database in
/// this browser").
pub fn keep(state: AppState) {
    if state.recent.keeping.get_untracked() {
        return;
    }
    state.recent.keeping.set(true);
    state.recent.note.set(None);
    leptos::task::spawn_local(async move {
        if let Err(not_loaded) = keep_open_database(state).await {
            state.recent.note.set(Some(not_loaded.to_string()));
        }
        state.recent.keeping.set(false);
    });
}

/// Forgets the entry that reopens as `reopen`, and removes its copy and, for a copy, the
/// conversations kept on it (an address's database is known by its key only once open).
pub fn forget(state: AppState, reopen: &Reopen) {
    let forgotten = state
        .recent
        .change(|list| list.forget(reopen).into_iter().collect());
    if let Reopen::Copy { sha256 } = reopen {
        let key = sha256.to_ascii_lowercase();
        leptos::task::spawn_local(async move {
            if let Err(why) = forget_conversations_of(&key).await {
                let why = idb_error(&why);
                state
                    .recent
                    .note
                    .set(Some(tr!("open-recent-conversations-kept", why = why)));
            }
        });
    }
    let_go(state, forgotten);
}

/// Forgets every entry, and removes every copy (those no entry names too) and every kept
/// conversation.
pub fn forget_all(state: AppState) {
    state.recent.change(RecentList::forget_all);
    state.recent.note.set(None);
    leptos::task::spawn_local(async move {
        if let Err(why) = forget_every_conversation().await {
            let why = idb_error(&why);
            state
                .recent
                .note
                .set(Some(tr!("open-recent-all-conversations-kept", why = why)));
        }
        let _ = remove_copies(state, None).await;
        let _ = crate::browser::file_handles::forget_all().await;
    });
}

/// Asks the browser what this site stores now, for the list's last line.
pub fn refresh_storage(state: AppState) {
    leptos::task::spawn_local(async move {
        let _ = read_storage(state).await;
    });
}

/// Lets go of what the entries `dropped` kept: their copies, their handles.
fn let_go(state: AppState, dropped: Vec<Recent>) {
    for recent in &dropped {
        if let Reopen::Handle { id, .. } = &recent.reopen {
            let id = id.clone();
            leptos::task::spawn_local(async move {
                let _ = crate::browser::file_handles::forget(&id).await;
            });
        }
    }
    let names: Vec<String> = dropped.iter().filter_map(Recent::copy).collect();
    if names.is_empty() {
        return;
    }
    leptos::task::spawn_local(async move {
        let _ = remove_copies(state, Some(names)).await;
    });
}

on_first_use! {
    database =>
    /// The open database's bytes copied under its SHA-256, then listed.
    fn keep_open_database(state: AppState) -> () {
        let outcome = copy_open_database(state).await;
        if let Err(why) = outcome {
            state.recent.note.set(Some(tr!("open-recent-not-kept", why = store_error(&why))));
        }
        read_storage_now(state).await
    }
}

async fn copy_open_database(state: AppState) -> Result<(), StoreError> {
    let Some(sha256) = kept_sha256(state) else {
        return Err(StoreError::Failed(tr!("open-recent-not-whole")));
    };
    let Some(open) = state.open.get_untracked() else {
        return Err(StoreError::Failed(tr!("open-recent-none-open")));
    };
    let Reopening::Bytes(blob) = &open.reopening else {
        return Err(StoreError::Failed(tr!("open-recent-bytes-gone")));
    };
    let kept = Kept::open().await?;
    kept.keep(&copy_name(&sha256), blob).await?;
    let recent = Recent {
        name: open.name.clone(),
        size: Some(open.size),
        tables: open.data_tables(),
        opened_at_ms: js_sys::Date::now(),
        reopen: Reopen::Copy { sha256 },
    };
    let dropped = state.recent.change(|list| list.opened(recent));
    let_go(state, dropped);
    Ok(())
}

on_first_use! {
    database =>
    /// Removes the copies `names`, or every file in the folder of copies when `None` ("Forget
    /// all"); what cannot be removed is said.
    fn remove_copies(state: AppState, names: Option<Vec<String>>) -> () {
        if let Ok(kept) = Kept::open().await {
            let names = match names {
                Some(names) => names,
                None => kept.names().await.unwrap_or_default(),
            };
            for name in names {
                if let Err(why) = kept.remove(&name).await {
                    let why = store_error(&why);
                    state.recent.note.set(Some(tr!("open-recent-not-removed", why = why)));
                }
            }
        }
        read_storage_now(state).await
    }
}

on_first_use! {
    database =>
    /// What this site stores and may store, as the browser estimates it.
    fn read_storage(state: AppState) -> () {
        read_storage_now(state).await
    }
}

/// Why the private file system did not keep (or give back, or remove) a copy, as the person
/// reads it.
pub(crate) fn store_error(error: &StoreError) -> String {
    match error {
        StoreError::NotAvailable => tr!("open-store-not-available"),
        StoreError::Full => tr!("open-store-full"),
        StoreError::Missing => tr!("open-store-missing"),
        StoreError::Failed(why) => tr!("open-store-failed", why = why),
    }
}

/// Why IndexedDB did not keep (or forget) something, as the person reads it.
pub(crate) fn idb_error(error: &IdbError) -> String {
    match error {
        IdbError::NotAvailable => tr!("open-idb-not-available"),
        IdbError::Full => tr!("open-idb-full"),
        IdbError::Failed(why) => tr!("open-store-failed", why = why),
    }
}

async fn read_storage_now(state: AppState) {
    state.recent.storage.set(usage_and_quota().await);
}
