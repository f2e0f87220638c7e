//! What opening announces, and the parts of the page that follow it: opening publishes that a
//! database is opening (nothing of the one before applies any more) and, once it is shown and
//! identified, what it is ([`Settled`]); each [`Follower`] does its part then (what the model
//! may see, the chat's session on it, the notes, the values a question may name), in the order
//! of [`FOLLOWERS`]. Opening names none of them. When the person hides or shows a table or
//! column ([`toggle_hidden`]), hiding makes what the model may see again and the followers are
//! told, the same way ([`view_changes`]); hiding names none of them.

pub mod follower;

pub use follower::{Follower, Settled, ViewChange};

use crate::ui::state::AppState;
use leptos::prelude::*;

/// The followers, in the order they settle: what the model sees first (the chat's session, the
/// notes and the values are made on it), then the chat (a new session, and a replay that waited
/// for a database starts), then the notes, then the values, then the list of recent databases.
pub const FOLLOWERS: &[&Follower] = &[
    &super::hiding::FOLLOWS,
    &super::chat::FOLLOWS,
    &super::knowledge::FOLLOWS,
    &super::value_index::FOLLOWS,
    &super::recent::FOLLOWS,
];

/// The person hid or showed `table` (or its `column`): hiding makes the model's view again, and
/// each follower is told that it is being made, then that it is (unless a later change or an
/// open came meanwhile: then that one tells them).
pub fn toggle_hidden(state: AppState, table: &str, column: Option<&str>) {
    let Some(remake) = super::hiding::toggle(state, table, column) else {
        return;
    };
    view_changes(state, ViewChange::Preparing);
    leptos::task::spawn_local(async move {
        // While a database opens, what follows it settles after hiding (`ui::opening`).
        if remake.await && state.loading.with_untracked(Option::is_none) {
            view_changes(state, ViewChange::Ready);
        }
    });
}

/// What the model sees of the open database is being made again, or is made (`change`): each
/// follower is told, in the list's order.
fn view_changes(state: AppState, change: ViewChange) {
    for follower in FOLLOWERS {
        (follower.view_changes)(state, change);
    }
}
