//! The values of the open database that a question may name (`agent::selection::values`),
//! read from the database the model reads once it is ready: after the open has settled (so
//! that it never slows the tables, the identity, the model view or the notes down), and again
//! when what is hidden changes (the copy the model reads is another database then). Until it
//! is built, questions go without named values; a question never waits for it. Both are told
//! through `ui::follow`.

use super::follow::follower::{Follower, ViewChange};
use super::lazy::on_first_use;
use super::state::{AppState, ValueIndexState};
use crate::agent::selection::value_plan;
use crate::agent::selection::values::{self, Bounds, IndexPlan};
use crate::browser::{now_ms, BrowserClock};
use crate::engine::page::ModelDatabase;
use crate::engine::Schema;
use crate::search::values::ValueIndex;
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

thread_local! {
    /// Counts the builds asked for: one asked after another makes the first one's index stale.
    static BUILDS: Cell<u64> = const { Cell::new(0) };
}

/// The value index follows each open (`ui::follow`): read in the background once the open has
/// settled.
pub const FOLLOWS: Follower = Follower {
    shown: None,
    forget,
    settle: |state, _| {
        refresh(state);
        Box::pin(async {})
    },
    // Read again from the new view, once it is made.
    view_changes: |state, change| {
        if change == ViewChange::Ready {
            refresh(state);
        }
    },
};

/// Forgets the index of the database that was open (a new one is opening).
pub fn forget(state: AppState) {
    BUILDS.with(|builds| builds.set(builds.get() + 1));
    state.assistant.values.set(ValueIndexState::None);
}

/// Builds the index of the database the model reads, when it is ready, in the background; it
/// replaces the one before unless another build was asked for meanwhile.
pub fn refresh(state: AppState) {
    // Untracked: called from tasks, never from a view.
    let Some(db) = state.model_view_database() else {
        return;
    };
    let Some(schema) = state
        .assistant
        .hiding
        .with_untracked(|h| h.model_view.schema().cloned())
    else {
        return;
    };
    let build = BUILDS.with(|builds| {
        builds.set(builds.get() + 1);
        builds.get()
    });
    let plan = value_plan(db.database().kind());
    let bounds = Bounds {
        query: state.limits.get_untracked(),
        ..Bounds::default()
    };
    state.assistant.values.set(ValueIndexState::Building);
    leptos::task::spawn_local(async move {
        let started = now_ms();
        // Without its chunk there is no index: questions go without named values, as before
        // it is built.
        let built = build_in_chunk(db, schema, plan, bounds).await;
        // A newer build (another database, another view) owns the state now.
        if BUILDS.with(Cell::get) != build {
            return;
        }
        state.assistant.values.set(match built {
            Ok(index) => ValueIndexState::Ready {
                index: Arc::new(index),
                ms: now_ms() - started,
            },
            Err(_) => ValueIndexState::None,
        });
    });
}

on_first_use! {
    database =>
    /// Reads the values of `db` (see [`values::build`]), downloaded once a database has
    /// opened.
    fn build_in_chunk(db: Rc<ModelDatabase>, schema: Schema, plan: IndexPlan, bounds: Bounds) -> ValueIndex {
        values::build(&*db, &schema, &plan, &bounds, &BrowserClock).await
    }
}
