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

pub mod descriptor;

pub use descriptor::{CountPolicy, HidingMechanism, KindDescriptor, NoCopy, Reads};
use serde::{Deserialize, Serialize};

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

/// How a local file of `size` bytes is opened, when files of `on_demand_from` bytes and more
/// are read on demand (`on_demand::ON_DEMAND_FROM_BYTES` in the page).
pub fn kind_for_local_file(size: u64, on_demand_from: u64) -> DatabaseKind {
    if size >= on_demand_from {
        DatabaseKind::LocalFile
    } else {
        DatabaseKind::InMemory
    }
}

/// Whether a local file of `size` bytes opens in memory (see [`kind_for_local_file`]).
pub fn opens_in_memory(size: u64, on_demand_from: u64) -> bool {
    kind_for_local_file(size, on_demand_from) == DatabaseKind::InMemory
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

    #[test]
    fn a_local_file_is_read_on_demand_from_the_threshold_on() {
        let from = crate::engine::on_demand::ON_DEMAND_FROM_BYTES;
        assert_eq!(kind_for_local_file(from - 1, from), DatabaseKind::InMemory);
        assert_eq!(kind_for_local_file(from, from), DatabaseKind::LocalFile);
        // Past what 32 bits hold, and past sql.js's 2 GB.
        assert_eq!(
            kind_for_local_file(5 * 1024 * 1024 * 1024, from),
            DatabaseKind::LocalFile
        );
        assert_eq!(kind_for_local_file(0, 0), DatabaseKind::LocalFile);
    }
}
