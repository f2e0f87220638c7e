//! The kinds of database the page can have open, and what each kind may afford: how its
//! tables' rows are counted when it opens, and how it keeps from the model what the model must
//! not see (`crate::model_view` plans the view with it).

use serde::{Deserialize, Serialize};

/// Where an open database's bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DatabaseKind {
    /// The whole file, read into the engine's memory (sql.js in a worker).
    InMemory,
    /// A local file whose pages are read when SQLite asks for them.
    LocalFile,
    /// A file on a web server whose pages are read with HTTP range requests.
    Remote,
    /// A database on a Datasette server, asked through its JSON API (`engine::datasette`).
    Datasette,
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

/// In memory, every table is counted exactly up to this size of file: `count(*)` walks a
/// table's pages in memory at several hundred MB per second, so this costs well under 100 ms.
pub const EXACT_COUNTS_UP_TO_BYTES: u64 = 64 * 1024 * 1024;

/// In a larger file in memory, each table's rows are stepped up to this many (a few ms each).
pub const IN_MEMORY_ROWS_STEPPED: u64 = 100_000;

/// In a local file read on demand, a few pages per table at most.
pub const LOCAL_ROWS_STEPPED: u64 = 10_000;

impl DatabaseKind {
    /// How the rows of a database of this kind and `size` bytes are counted as it opens: what
    /// it costs grows with what is shown, never with the file's size. Remote files step no
    /// rows at all (every page is a request), nor do Datasette servers (every query is one).
    pub fn count_policy(self, size: u64) -> CountPolicy {
        match self {
            DatabaseKind::InMemory if size <= EXACT_COUNTS_UP_TO_BYTES => CountPolicy::Exact,
            DatabaseKind::InMemory => CountPolicy::UpTo(IN_MEMORY_ROWS_STEPPED),
            DatabaseKind::LocalFile => CountPolicy::UpTo(LOCAL_ROWS_STEPPED),
            DatabaseKind::Remote | DatabaseKind::Datasette => CountPolicy::UpTo(0),
        }
    }
}

/// A local file of at least this many bytes is read on demand (`engine::lazy`); a smaller one
/// is read whole into memory (sql.js). In memory, the open reads every byte (about 1 s for
/// 300 MB, holding it twice meanwhile, and sql.js stops at 2 GB) but queries that scan are
/// several times faster and hiding can copy the database; on demand, the open reads a few
/// pages whatever the size. The figures that set it are in `docs/benchmarks.md`.
pub const ON_DEMAND_FROM_BYTES: u64 = 512 * 1024 * 1024;

/// How a local file of `size` bytes is opened, when files of `on_demand_from` bytes and more
/// are read on demand.
pub fn kind_for_local_file(size: u64, on_demand_from: u64) -> DatabaseKind {
    if size >= on_demand_from {
        DatabaseKind::LocalFile
    } else {
        DatabaseKind::InMemory
    }
}

/// How a database keeps things from the model: a copy without them, or, where none can be
/// made, a fence of names around askdb's own knowledge tables (their names are sure signs) and
/// a refusal, with why, of anything a person hides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HidingMechanism {
    /// A copy without them: tables rebuilt, views and indexes that name them dropped, then
    /// `VACUUM` (`engine::hidden`). Needs the whole database in memory, and as much again.
    Copy,
    /// The model reads the whole database, but none of askdb's knowledge tables: a query of its
    /// that names one, or something that reads one (a view over it), is refused by name before
    /// it leaves the page (`crate::model_view::knowledge_fence`, `crate::sql::fence`). Their
    /// names are askdb's own and the catalogue says what reads them, so a name is a sure sign;
    /// a person's choice is not, and is refused, for this reason.
    FenceKnowledge(String),
}

impl DatabaseKind {
    /// How a database of this kind keeps things from the model. One read on demand cannot be
    /// copied (it may be far larger than memory), and a server answers the model's queries on
    /// the whole database: for both, what a person hides is refused (with why), and askdb's
    /// knowledge tables are fenced off by name.
    pub fn hiding(self) -> HidingMechanism {
        match self {
            DatabaseKind::InMemory => HidingMechanism::Copy,
            DatabaseKind::LocalFile => HidingMechanism::FenceKnowledge(format!(
                "this file is read on demand (files of {} MiB and more are), not copied into \
                 memory, and hiding works by a copy without what is hidden",
                ON_DEMAND_FROM_BYTES / (1024 * 1024)
            )),
            DatabaseKind::Remote => HidingMechanism::FenceKnowledge(
                "this database is read on demand from its server, not copied into memory, and \
                 hiding works by a copy without what is hidden"
                    .into(),
            ),
            DatabaseKind::Datasette => HidingMechanism::FenceKnowledge(
                "the model's queries run on the Datasette server, on the whole database, and \
                 this page cannot take tables or columns away from a server: serve a copy \
                 without them (drop them from a copy of the file with sqlite-utils or the \
                 sqlite3 shell) and open that instead"
                    .into(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_files_in_memory_are_counted_exactly_and_nothing_else_is_scanned_whole() {
        let mb = 1024 * 1024;
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
    fn a_local_file_is_read_on_demand_from_the_threshold_on() {
        let from = ON_DEMAND_FROM_BYTES;
        assert_eq!(kind_for_local_file(from - 1, from), DatabaseKind::InMemory);
        assert_eq!(kind_for_local_file(from, from), DatabaseKind::LocalFile);
        // Past what 32 bits hold, and past sql.js's 2 GB.
        assert_eq!(
            kind_for_local_file(5 * 1024 * 1024 * 1024, from),
            DatabaseKind::LocalFile
        );
        assert_eq!(kind_for_local_file(0, 0), DatabaseKind::LocalFile);
    }

    #[test]
    fn only_a_database_in_memory_can_be_copied_for_the_model() {
        assert_eq!(DatabaseKind::InMemory.hiding(), HidingMechanism::Copy);
        for kind in [DatabaseKind::LocalFile, DatabaseKind::Remote] {
            assert!(
                matches!(kind.hiding(), HidingMechanism::FenceKnowledge(why) if why.contains("on demand"))
            );
        }
        let HidingMechanism::FenceKnowledge(why) = DatabaseKind::Datasette.hiding() else {
            panic!("a server's database cannot be copied, only fenced");
        };
        assert!(why.contains("serve a copy without them"), "{why}");
    }
}
