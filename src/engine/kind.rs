//! The kinds of database the page can have open, each described once, in the folder of its
//! backend (`in_memory`, `on_demand`, `datasette`), and listed here ([`kinds!`]): what it may
//! afford (how its tables' rows are counted when it opens, how it keeps from the model what the
//! model must not see) and what one read of it is (nothing, a page of a file, an HTTP range
//! request, a request to a server that runs the query), which sets its question's read
//! budget, its value index, and what the ledger and the status say of it (`present`).
//!
//! Adding a kind: a [`KindDescriptor`] in its backend's folder, and one line in [`kinds!`].
//! What identifies a database is its engine's business (`engine::identity`). Every backend
//! speaks SQLite's dialect: the guard, the fence and the model's prompt assume it.

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

macro_rules! kinds {
    ($($(#[$attr:meta])* $variant:ident => $descriptor:path),+ $(,)?) => {
        /// Where an open database's bytes are.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum DatabaseKind {
            $($(#[$attr])* $variant),+
        }

        impl DatabaseKind {
            /// Every kind.
            pub const ALL: &'static [DatabaseKind] = &[$(DatabaseKind::$variant),+];

            /// What its backend declares.
            pub fn descriptor(self) -> &'static KindDescriptor {
                match self {
                    $(DatabaseKind::$variant => &$descriptor),+
                }
            }
        }
    };
}

// The kinds. Adding one: its backend's descriptor, and one line here.
kinds! {
    /// The whole file, read into the engine's memory (sql.js in a worker).
    InMemory => super::in_memory::KIND,
    /// A local file whose pages are read when SQLite asks for them.
    LocalFile => super::on_demand::LOCAL_FILE,
    /// A file on a web server whose pages are read with HTTP range requests.
    Remote => super::on_demand::REMOTE,
    /// A database on a Datasette server, asked through its JSON API (`engine::datasette`).
    Datasette => super::datasette::KIND,
}

impl DatabaseKind {
    /// See [`KindDescriptor::count_policy`]: what counting costs grows with what is shown,
    /// never with the file's size.
    pub fn count_policy(self, size: u64) -> CountPolicy {
        (self.descriptor().count_policy)(size)
    }

    /// See [`KindDescriptor::hiding`].
    pub fn hiding(self) -> HidingMechanism {
        self.descriptor().hiding
    }

    /// See [`KindDescriptor::reads`].
    pub fn reads(self) -> Reads {
        self.descriptor().reads
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::in_memory::{EXACT_COUNTS_UP_TO_BYTES, IN_MEMORY_ROWS_STEPPED};
    use crate::engine::on_demand::LOCAL_ROWS_STEPPED;

    #[test]
    fn small_files_in_memory_are_counted_exactly_and_nothing_else_is_scanned_whole() {
        let mb = 1024 * 1024;
        assert_eq!(EXACT_COUNTS_UP_TO_BYTES, 64 * mb);
        assert_eq!(
            DatabaseKind::InMemory.count_policy(64 * mb),
            CountPolicy::Exact
        );
        assert_eq!(
            DatabaseKind::InMemory.count_policy(64 * mb + 1),
            CountPolicy::UpTo(IN_MEMORY_ROWS_STEPPED)
        );
        for size in [1, 64 * mb, 5 * 1024 * mb] {
            assert_eq!(
                DatabaseKind::LocalFile.count_policy(size),
                CountPolicy::UpTo(LOCAL_ROWS_STEPPED)
            );
            assert_eq!(
                DatabaseKind::Remote.count_policy(size),
                CountPolicy::UpTo(0)
            );
            assert_eq!(
                DatabaseKind::Datasette.count_policy(size),
                CountPolicy::UpTo(0)
            );
        }
    }

    #[test]
    fn only_a_database_in_memory_can_be_copied_for_the_model() {
        assert_eq!(DatabaseKind::InMemory.hiding(), HidingMechanism::Copy);
        for kind in [
            DatabaseKind::LocalFile,
            DatabaseKind::Remote,
            DatabaseKind::Datasette,
        ] {
            assert!(
                matches!(kind.hiding(), HidingMechanism::FenceKnowledge(_)),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn only_a_file_on_a_web_server_has_a_read_budget_and_each_kind_has_its_own_id() {
        let budgeted: Vec<_> = DatabaseKind::ALL
            .iter()
            .filter(|kind| kind.reads().has_budget())
            .collect();
        assert_eq!(budgeted, [&DatabaseKind::Remote]);
        let mut ids: Vec<&str> = DatabaseKind::ALL
            .iter()
            .map(|kind| kind.descriptor().id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), DatabaseKind::ALL.len());
    }
}
