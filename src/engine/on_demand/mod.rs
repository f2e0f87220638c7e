//! Databases read on demand: only the pages a query needs, from a local `File` (never copied)
//! or from a web server with HTTP Range requests.
//!
//! - [`lazy`] (wasm32): the engine, the official SQLite WebAssembly build in a Web Worker;
//! - [`remote`]: the rules for a web address (which addresses are remote, how the first
//!   ranged GET's answer routes the open: on demand, whole, or refused);
//! - [`web_file`] (wasm32): that first GET, and the rest of a file downloaded whole;
//! - [`identity`]: what identifies such a database without reading it whole;
//! - [`problem`]: why a web address cannot be read in parts, with what to set on the server.

pub mod identity;
#[cfg(target_arch = "wasm32")]
pub mod lazy;
pub mod problem;
pub mod remote;
#[cfg(target_arch = "wasm32")]
pub mod web_file;

pub use identity::{LazyIdentity, RemoteValidators};
pub use problem::RemoteProblem;

use super::kind::descriptor::{CountPolicy, HidingMechanism, KindDescriptor, NoCopy, Reads};

/// In a local file read on demand, a few pages per table at most.
pub const LOCAL_ROWS_STEPPED: u64 = 10_000;

/// A local file of at least this many bytes is read on demand; a smaller one is read whole
/// into memory (sql.js). In memory, the open reads every byte (about 1 s for 300 MB, holding it
/// twice meanwhile, and sql.js stops at 2 GB) but queries that scan are several times faster
/// and hiding can copy the database; on demand, the open reads a few pages whatever the size.
/// The figures that set it are in `docs/benchmarks.md`.
pub const ON_DEMAND_FROM_BYTES: u64 = 512 * 1024 * 1024;

/// A local file read on demand.
pub const LOCAL_FILE: KindDescriptor = KindDescriptor {
    id: "local-file",
    count_policy: |_| CountPolicy::UpTo(LOCAL_ROWS_STEPPED),
    hiding: HidingMechanism::FenceKnowledge(NoCopy::ReadOnDemand {
        from_bytes: ON_DEMAND_FROM_BYTES,
    }),
    reads: Reads::FilePages,
};

/// A file on a web server read on demand: every page is a request, so no rows are stepped.
pub const REMOTE: KindDescriptor = KindDescriptor {
    id: "remote",
    count_policy: |_| CountPolicy::UpTo(0),
    hiding: HidingMechanism::FenceKnowledge(NoCopy::ReadFromServer),
    reads: Reads::RangeRequests,
};
