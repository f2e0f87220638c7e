//! The whole file in memory: sql.js in a Web Worker ([`worker`], wasm32). The fastest to query
//! and the one kind that can be copied for the model (`engine::hidden`); the open reads every
//! byte, and sql.js stops at 2 GB.

#[cfg(target_arch = "wasm32")]
pub mod worker;

use super::kind::descriptor::{CountPolicy, HidingMechanism, KindDescriptor, Reads};

/// In memory, every table is counted exactly up to this size of file: `count(*)` walks a
/// table's pages in memory at several hundred MB per second, so this costs well under 100 ms.
pub const EXACT_COUNTS_UP_TO_BYTES: u64 = 64 * 1024 * 1024;

/// In a larger file in memory, each table's rows are stepped up to this many (a few ms each).
pub const IN_MEMORY_ROWS_STEPPED: u64 = 100_000;

/// A database in memory.
pub const KIND: KindDescriptor = KindDescriptor {
    id: "in-memory",
    count_policy: |size| {
        if size <= EXACT_COUNTS_UP_TO_BYTES {
            CountPolicy::Exact
        } else {
            CountPolicy::UpTo(IN_MEMORY_ROWS_STEPPED)
        }
    },
    hiding: HidingMechanism::Copy,
    reads: Reads::InMemory,
};
