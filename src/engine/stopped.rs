//! What stopping a query leaves of a database: each backend says which (`engine::page`), and
//! `present::errors::after_stop` tells the person who stopped it.

/// What stopping a query costs a database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterStop {
    /// Nothing: held in memory, its worker is restarted on the same bytes
    /// (`engine::in_memory::worker`) and ready for the next query.
    Ready,
    /// Read on demand: its worker was terminated, and the next query opens the file again with
    /// its page cache (up to `cache_bytes`) empty.
    Reopens { cache_bytes: u64 },
    /// On a server: the query is left to the server's own time limit, and nothing more is asked
    /// of it.
    LeftToServer,
}
