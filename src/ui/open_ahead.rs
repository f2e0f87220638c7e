//! A database file's open, started the moment the file is chosen or dropped, before the code
//! that shows it has arrived (issue 43).
//!
//! With nothing before the choice (no pointer over the database panel, no drag over the page,
//! no focus on its controls) the opening code's chunk is still to be downloaded and compiled
//! then, and SQLite's worker to be started: one after the other, they doubled the time to the
//! tables (105 MB: 0.46 s against 0.19 s). Here the page's first code posts the file to a
//! worker at once, so the worker loads SQLite and reads the file while the chunk arrives; the
//! open in that chunk ([`super::opening`]) then takes this one ([`take`]) instead of starting
//! its own. No warm-up runs in that worker: it would hold the cores the chunk compiles on.
//!
//! Only a file opened in memory starts ahead (one read on demand reads little to open); only
//! the open of that same file takes it, after `ui::intake` has checked its header (the worker
//! does not wait for that check: `WorkerDatabase::open_unchecked`); one nobody takes (a data
//! file, a conversation) is stopped, its worker with it, when the open that started it ends.

use super::state::{AppState, Loading};
use crate::browser::now_ms;
use crate::engine::in_memory::worker::WorkerDatabase;
use crate::engine::kind::opens_in_memory;
use crate::engine::DbError;
use crate::tr;
use futures::future::RemoteHandle;
use futures::FutureExt;
use leptos::prelude::*;
use std::cell::RefCell;
use web_sys::{Blob, File};

/// An open under way: the file it reads, and its outcome to come. Dropping it stops the open
/// and its worker.
struct OpenAhead {
    source: Blob,
    opened: RemoteHandle<Opened>,
}

thread_local! {
    /// The page's open started ahead: one at a time, as opens are (`ui::intake`).
    static AHEAD: RefCell<Option<OpenAhead>> = const { RefCell::new(None) };
}

/// How an open started ahead ended.
pub struct Opened {
    /// The worker it ran in: the database is open there when `outcome` is `Ok`.
    pub engine: WorkerDatabase,
    pub outcome: Result<(), DbError>,
    /// From the choice until the worker had read the file and opened it.
    pub ms: f64,
}

/// Starts opening `file` in a worker now, when it will be opened in memory. A worker that
/// cannot start starts nothing: the open itself then tries, and says why.
pub fn start(state: AppState, file: &File) {
    if !opens_in_memory(file.size() as u64, state.on_demand_from.get_value()) {
        return;
    }
    let Ok(engine) = state.engine() else {
        return;
    };
    let source: Blob = file.clone().into();
    let name = file.name();
    let reading = move |fraction: f64| {
        state.loading.set(Some(Loading {
            label: tr!("open-reading", name = &name),
            fraction: Some(fraction),
        }))
    };
    let started = now_ms();
    let opening = {
        let source = source.clone();
        async move {
            // The header is checked by the open that takes this one (`ui::intake`), before it
            // does: the worker need not wait for that read.
            let outcome = engine.open_unchecked(&source, reading).await;
            Opened {
                engine,
                outcome,
                ms: now_ms() - started,
            }
        }
    };
    let (run, opened) = opening.remote_handle();
    leptos::task::spawn_local(run);
    AHEAD.set(Some(OpenAhead { source, opened }));
}

/// The open started ahead for `source`, if one was: it is the caller's to wait for. One
/// started for another file is stopped.
pub fn take(source: &Blob) -> Option<RemoteHandle<Opened>> {
    let ahead = AHEAD.take()?;
    (ahead.source == *source).then_some(ahead.opened)
}

/// Stops an open started ahead that nobody took (the file was not a database after all, or
/// the code that opens it could not be downloaded).
pub fn forget() {
    AHEAD.set(None);
}
