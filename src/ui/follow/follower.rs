//! What a part of the page that follows each open is ([`Follower`]), and what it is told
//! ([`Settled`], [`ViewChange`]); the list of them is `ui::follow`'s.

use crate::engine::Schema;
use crate::ui::state::AppState;
use futures::future::LocalBoxFuture;

/// The database that opened, once identified.
#[derive(Clone, Debug)]
pub struct Settled {
    /// The whole database's schema, with its row counts.
    pub schema: Schema,
    /// The key what is kept for it is kept under (its identity's), or why there is none.
    pub key: Result<String, String>,
}

/// A status line, read when it is shown (so in the page's language then).
pub type StatusLine = fn() -> String;

/// A part of the page that follows each open.
pub struct Follower {
    /// What the status says while it settles ("Reading the notes", in the page's language),
    /// and the open step it is timed as, for the benchmark ("notes (knowledge)"); `None` for a
    /// part that only starts work in the background.
    pub shown: Option<(StatusLine, &'static str)>,
    /// A database is opening: forget the one before (called before it is shown).
    pub forget: fn(AppState),
    /// The database is identified: do this part for it.
    pub settle: fn(AppState, Settled) -> LocalBoxFuture<'static, ()>,
    /// What the model reads is made again without an open (the person hid or showed a table
    /// or column): do this part again, if it depends on it.
    pub view_changes: fn(AppState, ViewChange),
}

/// How far the model's view of the open database, made again without an open, has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewChange {
    /// It is being made: the model may not be asked until it is ready.
    Preparing,
    /// It is settled (the model may be asked, or why not is known).
    Ready,
}
