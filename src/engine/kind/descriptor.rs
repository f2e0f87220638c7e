//! What a kind of database is and may afford, as its backend declares it ([`KindDescriptor`]);
//! the list of kinds is `engine::kind`'s.

use serde::{Deserialize, Serialize};

/// What a kind of database is and may afford.
#[derive(Debug)]
pub struct KindDescriptor {
    /// Its name in logs and tests ("in-memory", "remote").
    pub id: &'static str,
    /// How the rows of a database of this kind and of a given size are counted as it opens.
    pub count_policy: fn(size: u64) -> CountPolicy,
    /// How it keeps things from the model.
    pub hiding: HidingMechanism,
    /// What one of its reads is.
    pub reads: Reads,
}

/// How the rows of each table are counted when a database opens (`engine::schema::count_rows`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountPolicy {
    /// `count(*)` of every table: the file is in memory and small enough that walking all of
    /// it costs little.
    Exact,
    /// At most this many rows of each table are stepped; a table with more is given the
    /// estimate `sqlite_stat1` holds, if any, or "more than" this many. With 0 no table is
    /// stepped at all: `sqlite_stat1` or unknown.
    UpTo(u64),
}

/// What one read of a database is: what its queries cost besides their time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reads {
    /// Nothing: the bytes are in memory.
    InMemory,
    /// A read of a local file's pages.
    FilePages,
    /// An HTTP range request to a web server: the one kind with a read budget per question.
    RangeRequests,
    /// A request to a server that runs the query and sends its rows.
    ServerQueries,
}

impl Reads {
    /// Whether a question's reads are bounded by its budget: only transfers from a web server
    /// are (elsewhere a read costs no transfer, or the server bounds its own work).
    pub fn has_budget(self) -> bool {
        self == Reads::RangeRequests
    }
}

/// How a database keeps things from the model: a copy without them, or, where none can be
/// made, a fence of names around askdb's own knowledge tables (their names are sure signs) and
/// a refusal, with why, of anything a person hides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HidingMechanism {
    /// A copy without them: tables rebuilt, views and indexes that name them dropped, then
    /// `VACUUM` (`engine::hidden`). Needs the whole database in memory, and as much again.
    Copy,
    /// The model reads the whole database, but none of askdb's knowledge tables: a query of its
    /// that names one, or something that reads one (a view over it), is refused by name before
    /// it leaves the page (`crate::model_view::knowledge_fence`, `engine::fenced`). Their names
    /// are askdb's own and the catalogue says what reads them, so a name is a sure sign; a
    /// person's choice is not, and is refused, for this reason.
    FenceKnowledge(NoCopy),
}

/// Why a database cannot be copied for the model (`present::hiding` says it for people).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoCopy {
    /// A local file read on demand (files of this many bytes and more are): it may be far
    /// larger than memory.
    ReadOnDemand { from_bytes: u64 },
    /// A file read on demand from its web server.
    ReadFromServer,
    /// The model's queries run on a server, on the whole database.
    OnServer,
}
