//! What opening announces, and the parts of the page that follow it: opening publishes that a
//! database is opening (nothing of the one before applies any more) and, once it is shown and
//! identified, what it is ([`Settled`]); each [`Follower`] does its part then (what the model
//! may see, the notes, the values a question may name), in the order of [`FOLLOWERS`]. Opening
//! names none of them.

pub mod follower;

pub use follower::{Follower, Settled};

/// The followers, in the order they settle: what the model sees first (the notes and the
/// values are checked against it), then the notes, then the values.
pub const FOLLOWERS: &[&Follower] = &[
    &super::hiding::FOLLOWS,
    &super::knowledge::FOLLOWS,
    &super::value_index::FOLLOWS,
];
