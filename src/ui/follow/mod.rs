//! What opening announces, and the parts of the page that follow it: opening publishes that a
//! database is opening (nothing of the one before applies any more) and, once it is shown and
//! identified, what it is ([`Settled`]); each [`Follower`] does its part then (what the model
//! may see, the chat's session on it, the notes, the values a question may name), in the order
//! of [`FOLLOWERS`]. Opening names none of them. Hiding announces, the same way, that what the
//! model may see is made again without an open ([`view_changes`]).

pub mod follower;

pub use follower::{Follower, Settled, ViewChange};

use crate::ui::state::AppState;

/// The followers, in the order they settle: what the model sees first (the chat's session, the
/// notes and the values are made on it), then the chat (a new session, and a replay that waited
/// for a database starts), then the notes, then the values.
pub const FOLLOWERS: &[&Follower] = &[
    &super::hiding::FOLLOWS,
    &super::chat::FOLLOWS,
    &super::knowledge::FOLLOWS,
    &super::value_index::FOLLOWS,
];

/// What the model sees of the open database is being made again, or is made (`change`): each
/// follower is told, in the list's order.
pub fn view_changes(state: AppState, change: ViewChange) {
    for follower in FOLLOWERS {
        (follower.view_changes)(state, change);
    }
}
