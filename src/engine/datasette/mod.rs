//! A database served by Datasette, asked through its JSON API: the same read-only queries as a
//! file, with the same guard before any request leaves.
//!
//! - [`address`]: what a person types (`https://host/dbname`) read into the server and the
//!   database's route, or why it is not one;
//! - [`request`]: the `GET /<db>.json?sql=…` a [`ReadOnlySql`](super::ReadOnlySql) becomes: its
//!   parameters `?1`…`?n` as Datasette's named parameters, the deadline as `_timelimit`;
//! - [`answer`]: what the server said, read into the [`QueryResult`](super::QueryResult) the
//!   engines give, or a [`DatasetteProblem`] that says what to do (its row cap becomes "more
//!   than N rows", never a silent cut);
//! - [`identity`]: what tells one Datasette database from another (`/-/databases.json`);
//! - [`client`]: [`DatasetteDatabase`], the [`Database`](super::Database) that puts these
//!   together over a [`Transport`] (ureq natively, `fetch` in the page).
//!
//! Pure but for the transports, and tested natively against the pinned Datasette itself
//! (`tests/datasette_client.rs`).

pub mod address;
pub mod answer;
pub mod client;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
pub mod identity;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod request;
pub mod transport;

pub use address::DatasetteAddress;
pub use client::DatasetteDatabase;
pub use identity::DatasetteIdentity;
pub use transport::{Transport, TransportFailure, WebAnswer};

use super::kind::descriptor::{CountPolicy, HidingMechanism, KindDescriptor, NoCopy, Reads};
use std::fmt;

/// A database on a Datasette server: every query is a request, so no rows are stepped as it
/// opens, and nothing can be taken away from a server (its knowledge tables are fenced).
pub const KIND: KindDescriptor = KindDescriptor {
    id: "datasette",
    count_policy: |_| CountPolicy::UpTo(0),
    hiding: HidingMechanism::FenceKnowledge(NoCopy::OnServer),
    reads: Reads::ServerQueries,
};

/// Why a Datasette server did not answer a query with rows. Each message says what to do.
/// (A SQL error is not one of these: it is `DbError::Sqlite`, as from a file.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatasetteProblem {
    /// The text typed is not the address of a database on a Datasette server.
    BadAddress { why: address::NotAnAddress },
    /// No HTTP answer. `cors` when the page could tell that the server answered but does not
    /// let other pages read its answers (no `--cors`).
    Unreachable {
        server: String,
        why: String,
        cors: bool,
    },
    /// The server stopped the query at its time limit (`sql_time_limit_ms`, or the deadline
    /// sent as `_timelimit`); its own message.
    TimeLimit { message: String },
    /// The server does not run arbitrary SQL on this database for this page (`allow_sql` off,
    /// or a private instance without a token).
    SqlNotAllowed { database: String, status: u16 },
    /// The server has no database by that name.
    NoSuchDatabase { database: String, server: String },
    /// The address answered, but not as Datasette's JSON API does.
    NotDatasette { status: u16, what: String },
    /// A redirect the page does not follow (to another server, or one too many).
    Redirect { to: String },
    /// The server refused the query or failed, with its message.
    Server { status: u16, message: String },
    /// A value the server cannot be sent as a parameter (Datasette takes text only).
    Parameter { why: String },
}

impl fmt::Display for DatasetteProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetteProblem::BadAddress { why } => write!(
                f,
                "not the address of a database on a Datasette server ({why}): give it as \
                 https://host/dbname, the address of the database's page"
            ),
            DatasetteProblem::Unreachable {
                server, cors: true, ..
            } => write!(
                f,
                "the Datasette server at {server} answered, but does not let other pages read \
                 its answers: start it with --cors"
            ),
            DatasetteProblem::Unreachable { server, why, .. } => write!(
                f,
                "the Datasette server at {server} could not be reached ({why}): check the \
                 address and that the server runs; a browser reads only a server started with \
                 --cors"
            ),
            DatasetteProblem::TimeLimit { message } => write!(
                f,
                "the Datasette server stopped the query at its time limit: {message} A query \
                 that reads less (an indexed filter, fewer joins) finishes sooner"
            ),
            DatasetteProblem::SqlNotAllowed { database, status } => write!(
                f,
                "the Datasette server does not run SQL on {database} for this page ({status}): \
                 its allow_sql setting is off for this database, or it needs an API token. Ask \
                 its owner to allow SQL, or enter a token that may execute SQL"
            ),
            DatasetteProblem::NoSuchDatabase { database, server } => write!(
                f,
                "the Datasette server at {server} has no database {database}: check the last \
                 part of the address (its list is at {server}/)"
            ),
            DatasetteProblem::NotDatasette { status, what } => write!(
                f,
                "the address answered {status} with {what}, not Datasette's JSON: give the \
                 address of a database on a Datasette server (https://host/dbname)"
            ),
            DatasetteProblem::Redirect { to } => write!(
                f,
                "the Datasette server sent the query elsewhere ({to}), which this page does not \
                 follow: give the address of the database on the server that answers"
            ),
            DatasetteProblem::Server { status, message } => {
                write!(f, "the Datasette server answered {status}: {message}")
            }
            DatasetteProblem::Parameter { why } => write!(f, "{why}"),
        }
    }
}
