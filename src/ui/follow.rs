//! What opening announces, and the parts of the page that follow it: opening publishes that a
//! database is opening (nothing of the one before applies any more) and, once it is shown and
//! identified, what it is ([`Settled`]); each [`Follower`] does its part then (what the model
//! may see, the notes, the values a question may name), in the order of [`FOLLOWERS`]. Opening
//! names none of them.

use super::state::AppState;
use crate::engine::Schema;
use futures::future::LocalBoxFuture;

/// The database that opened, once identified.
#[derive(Clone, Debug)]
pub struct Settled {
    /// The whole database's schema, with its row counts.
    pub schema: Schema,
    /// The key what is kept for it is kept under (its identity's), or why there is none.
    pub key: Result<String, String>,
}

/// A part of the page that follows each open.
pub struct Follower {
    /// What the status says while it settles ("Reading the notes"), and the open step it is
    /// timed as, for the benchmark ("notes (knowledge)"); `None` for a part that only starts
    /// work in the background.
    pub shown: Option<(&'static str, &'static str)>,
    /// A database is opening: forget the one before (called before it is shown).
    pub forget: fn(AppState),
    /// The database is identified: do this part for it.
    pub settle: fn(AppState, Settled) -> LocalBoxFuture<'static, ()>,
}

/// The followers, in the order they settle: what the model sees first (the notes and the
/// values are checked against it), then the notes, then the values.
pub const FOLLOWERS: &[&Follower] = &[
    &super::hiding::FOLLOWS,
    &super::knowledge::FOLLOWS,
    &super::value_index::FOLLOWS,
];
