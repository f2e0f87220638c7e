//! A database the page has open: the one type the page holds, whatever kind of database it is
//! ([`DatabaseKind`]). Everything the page asks of an open database goes through it:
//!
//! - running SQL: [`Database::run`] (the guard, the deadline and the row cap as everywhere);
//!   cancelling is dropping a query's future: every kind stops its query then;
//! - what it is: [`PageDatabase::kind`], [`PageDatabase::size`], and
//!   [`PageDatabase::identity`] ("the same database", `engine::identity`), which may take a
//!   while and is asked for after the tables are shown;
//! - how its rows are counted as it opens: [`PageDatabase::count_policy`];
//! - how the model is kept from what it must not see: [`PageDatabase::hiding`], and for a
//!   copy, [`PageDatabase::model_copy`].
//!
//! Today's one kind keeps the whole file in a worker's memory ([`InMemory`]). A kind that reads
//! pages on demand becomes another variant: the compiler then names every place that must
//! learn it.

use super::identity::Identity;
use super::kind::{CountPolicy, DatabaseKind, HidingMechanism};
use super::worker::WorkerDatabase;
use super::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, Value};
use futures::future::{AbortHandle, Abortable, FutureExt, LocalBoxFuture, Shared};
use js_sys::{Array, Uint8Array};
use web_sys::Blob;

/// An open database, of one of the kinds the page can open.
pub enum PageDatabase {
    InMemory(InMemory),
}

/// The whole file in the memory of a worker running sql.js.
pub struct InMemory {
    engine: WorkerDatabase,
    size: u64,
    /// The SHA-256 of the file, being taken (or taken) in a worker of its own.
    digest: Digest,
    /// Stops that worker (a database closed before its digest was done).
    stop_digest: AbortHandle,
}

/// A digest that runs by itself once started, and that several may wait for.
type Digest = Shared<LocalBoxFuture<'static, Result<String, String>>>;

/// Starts reading and hashing `source` in a worker of its own (started from `engine`'s script),
/// at once: it runs beside what follows, on another core when there is one. The handle stops
/// it (its worker is terminated).
fn start_digest(engine: &WorkerDatabase, source: &Blob) -> (Digest, AbortHandle) {
    let hasher = engine.sibling();
    let source = source.clone();
    let (stop, stopped) = AbortHandle::new_pair();
    let digest = Abortable::new(
        async move {
            hasher.digest(&source).await.map_err(|e| match e {
                DbError::Sqlite(why) | DbError::Unavailable(why) => why,
                other => other.to_string(),
            })
        },
        stopped,
    )
    .map(|outcome| outcome.unwrap_or_else(|_| Err("the database was closed".into())))
    .boxed_local()
    .shared();
    wasm_bindgen_futures::spawn_local(digest.clone().map(|_| ()));
    (digest, stop)
}

impl PageDatabase {
    /// Opens the file `source` holds (a `File`, or downloaded bytes) whole in `engine` (a
    /// worker with nothing open; warmed or not), telling `progress` how much of it was read.
    /// When it is not a usable database the error says why, and `engine` is dropped.
    pub async fn open_in_memory(
        engine: WorkerDatabase,
        source: &Blob,
        progress: impl Fn(f64) + 'static,
    ) -> Result<PageDatabase, DbError> {
        engine.open_with_progress(source, progress).await?;
        // Read and hashed while the schema is read: the identity is ready soon after the
        // tables are shown. Not during the open, whose reading it would slow down.
        let (digest, stop_digest) = start_digest(&engine, source);
        Ok(PageDatabase::InMemory(InMemory {
            engine,
            size: source.size() as u64,
            digest,
            stop_digest,
        }))
    }

    /// Where its bytes are.
    pub fn kind(&self) -> DatabaseKind {
        match self {
            PageDatabase::InMemory(_) => DatabaseKind::InMemory,
        }
    }

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        match self {
            PageDatabase::InMemory(db) => db.size,
        }
    }

    /// How its tables' rows are counted as it opens.
    pub fn count_policy(&self) -> CountPolicy {
        self.kind().count_policy(self.size())
    }

    /// How the model is kept from what it must not see.
    pub fn hiding(&self) -> HidingMechanism {
        self.kind().hiding()
    }

    /// What tells it from another database: for bytes in memory the SHA-256 of every byte,
    /// read and taken in a worker of its own, started once it opened (seconds for hundreds of
    /// MB, during which the page and the database answer as usual). Computed once; the reason
    /// when it cannot be (a browser without Web Crypto here: it needs https or this computer).
    pub async fn identity(&self) -> Result<Identity, String> {
        match self {
            PageDatabase::InMemory(db) => db.digest.clone().await.map(|sha256| Identity::Bytes {
                size: db.size,
                sha256,
            }),
        }
    }

    /// The copy the model reads when `script` (from `model_view::plan`) leaves things out: a
    /// database of its own, in its own worker. Only for a kind whose [`Self::hiding`] is
    /// [`HidingMechanism::Copy`].
    pub async fn model_copy(&self, script: &str) -> Result<PageDatabase, DbError> {
        match self {
            PageDatabase::InMemory(db) => {
                let source = db.engine.source().ok_or(DbError::NotOpen)?;
                let copy = db.engine.sibling();
                let derived = copy.derive(&source, script).await?;
                let bytes = Blob::new_with_u8_array_sequence(&Array::of1(&derived))
                    .map_err(|e| DbError::Unavailable(crate::browser::describe(&e)))?;
                copy.open(&bytes).await?;
                Ok(PageDatabase::InMemory(InMemory {
                    size: bytes.size() as u64,
                    // Never asked for: a copy is not a database the person opened.
                    digest: futures::future::ready(Err(
                        "a copy made for the model is not identified".to_string(),
                    ))
                    .boxed_local()
                    .shared(),
                    stop_digest: AbortHandle::new_pair().0,
                    engine: copy,
                }))
            }
        }
    }

    /// Closes it: its worker is stopped and its memory let go (after a query that runs).
    pub async fn close(&self) {
        match self {
            PageDatabase::InMemory(db) => {
                db.stop_digest.abort();
                db.engine.close().await
            }
        }
    }

    /// The bytes it was opened from (for the tests' hooks: they compare them with the file).
    pub async fn source_bytes(&self) -> Result<Uint8Array, DbError> {
        match self {
            PageDatabase::InMemory(db) => {
                let source = db.engine.source().ok_or(DbError::NotOpen)?;
                let buffer = wasm_bindgen_futures::JsFuture::from(source.array_buffer())
                    .await
                    .map_err(|e| DbError::Unreadable(crate::browser::describe(&e)))?;
                Ok(Uint8Array::new(&buffer))
            }
        }
    }

    /// The database as its engine writes it out (for the tests' hooks: nothing typed into the
    /// page may change it).
    pub async fn export(&self) -> Result<Uint8Array, DbError> {
        match self {
            PageDatabase::InMemory(db) => db.engine.export().await,
        }
    }
}

impl Database for PageDatabase {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        match self {
            PageDatabase::InMemory(db) => db.engine.run(sql, values, limits).await,
        }
    }
}
