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
//!   copy, [`PageDatabase::model_view_copy`].
//!
//! What differs between the backends that can stand behind it is each one's [`Backend`]
//! (no `match` on kinds here); what a kind affords is its descriptor's ([`DatabaseKind`]'s
//! `count_policy`, `hiding`, `reads`). Two engines stand behind it: sql.js with the whole file
//! in a worker's memory ([`InMemory`]), and the engine that reads a local `File` or a URL on
//! demand ([`OnDemand`], `engine::on_demand::lazy`), whose identity is what that engine found
//! at open and which cannot be copied for the model (its [`DatabaseKind::hiding`] refuses);
//! and a Datasette
//! server's JSON API ([`Served`], `engine::datasette`), identified by what the server reports of
//! its file, from which nothing can be taken away either. Which kind a file opens as is the
//! opening's business (`ui/opening.rs`, by `engine::kind::kind_for_local_file`), and nothing
//! else changes with it.

use super::datasette::fetch::FetchTransport;
use super::datasette::{DatasetteAddress, DatasetteDatabase, DatasetteIdentity, DatasetteProblem};
use super::fenced::Fenced;
use super::identity::Identity;
use super::in_memory::worker::WorkerDatabase;
use super::kind::{CountPolicy, DatabaseKind, HidingMechanism};
use super::on_demand::lazy::{LazyDatabase, LazyOpened};
use super::on_demand::remote::Pins;
use super::stopped::AfterStop;
use super::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, ReadStats, Value};
use futures::future::{AbortHandle, Abortable, FutureExt, LocalBoxFuture, Shared};
use js_sys::{Array, Uint8Array};
use std::rc::Rc;
use web_sys::{Blob, File};

/// An open database, of one of the kinds the page can open: its backend ([`Backend`]) says
/// what differs between them, its kind's descriptor what each kind affords.
pub struct PageDatabase(Box<dyn Backend>);

/// What each backend the page holds does its own way. Futures are boxed so that the page holds
/// any of them alike (they are not `Send`: they wait on a Web Worker or a `fetch`).
trait Backend {
    /// Where its bytes are.
    fn kind(&self) -> DatabaseKind;
    /// The file's size in bytes.
    fn size(&self) -> u64;
    /// See [`PageDatabase::identity`].
    fn identity(&self) -> LocalBoxFuture<'_, Result<Identity, String>>;
    /// See [`PageDatabase::start_identifying`]; nothing where the identity costs nothing.
    fn start_identifying(&self) {}
    /// Runs one statement (`Database::run`).
    fn run<'q>(
        &'q self,
        sql: &'q ReadOnlySql,
        values: &'q [Value],
        limits: &'q QueryLimits,
    ) -> LocalBoxFuture<'q, Result<QueryResult, DbError>>;
    /// See [`PageDatabase::after_stop`].
    fn after_stop(&self) -> AfterStop;
    /// Stops its worker and lets its memory go; nothing when it holds nothing open.
    fn close(&self) -> LocalBoxFuture<'_, ()>;
    /// Everything read from the file or server since it opened; `None` where reading costs
    /// nothing.
    fn total_reads(&self) -> Option<ReadStats> {
        None
    }
    /// Bounds what its queries read from now on (`None`: no bound); only a backend that reads
    /// over the network has reads to bound.
    fn set_read_budget(&self, _limit: Option<u64>) {}
    /// A copy without what `script` leaves out, for a kind whose hiding is
    /// [`HidingMechanism::Copy`].
    fn copy_for_model<'c>(
        &'c self,
        _script: &'c str,
    ) -> LocalBoxFuture<'c, Result<PageDatabase, DbError>> {
        Box::pin(futures::future::ready(Err(DbError::Unavailable(
            "a database read on demand or on a server cannot be copied".into(),
        ))))
    }
    /// The bytes it was opened from, where they are in memory.
    fn source_bytes(&self) -> LocalBoxFuture<'_, Result<Uint8Array, DbError>> {
        Box::pin(futures::future::ready(Err(not_in_memory())))
    }
    /// The database as its engine writes it out, where it is in memory.
    fn export(&self) -> LocalBoxFuture<'_, Result<Uint8Array, DbError>> {
        Box::pin(futures::future::ready(Err(not_in_memory())))
    }
}

/// The database the model reads: the open one or a copy of it, behind a fence of names
/// (`engine::fenced`; empty but where only the knowledge tables must be kept from a database
/// that cannot be copied: `model_view::knowledge_fence`).
pub type ModelDatabase = Fenced<Rc<PageDatabase>>;

/// A database on a Datasette server, asked through its JSON API (`engine::datasette`).
pub struct Served {
    engine: DatasetteDatabase<FetchTransport>,
    /// What the server reported of it when it was opened.
    identity: DatasetteIdentity,
}

/// A local file or a file on a web server, read on demand by `engine::on_demand::lazy`.
pub struct OnDemand {
    engine: LazyDatabase,
    /// What the open found: the identity, among others.
    opened: LazyOpened,
}

/// Ends a question's read budget when dropped (the question answered, failed or stopped).
pub struct QuestionBudgetGuard(Rc<PageDatabase>);

impl QuestionBudgetGuard {
    /// Starts the budget again, for the next question of a run ("Check the model").
    pub fn restart(&self, limit: Option<u64>) {
        self.0.set_question_budget(limit);
    }
}

impl Drop for QuestionBudgetGuard {
    fn drop(&mut self) {
        self.0.set_question_budget(None);
    }
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

/// Reads and hashes `source` in a worker of its own (started from `engine`'s script): at once
/// when `at_once` (it runs beside what follows, on another core when there is one), else when
/// first awaited. The handle stops it (its worker is terminated).
fn start_digest(engine: &WorkerDatabase, source: &Blob, at_once: bool) -> (Digest, AbortHandle) {
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
    if at_once {
        wasm_bindgen_futures::spawn_local(digest.clone().map(|_| ()));
    }
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
        Ok(PageDatabase::opened_in_memory(engine, source))
    }

    /// The database `engine` has opened from `source` (`WorkerDatabase::open_with_progress`).
    pub fn opened_in_memory(engine: WorkerDatabase, source: &Blob) -> PageDatabase {
        // Read and hashed while the schema is read: the identity is ready soon after the
        // tables are shown. Not during the open, whose reading it would slow down: after an
        // open that answered schema first, once the tables are shown
        // (`PageDatabase::start_identifying`), beside the whole read the row counts wait for.
        let at_once = !engine.opened_schema_first();
        let (digest, stop_digest) = start_digest(&engine, source, at_once);
        PageDatabase(Box::new(InMemory {
            engine,
            size: source.size() as u64,
            digest,
            stop_digest,
        }))
    }

    /// Opens the local `file` on demand in `engine` (a `LazyDatabase` with nothing open): no
    /// copy, pages read as SQLite asks for them.
    pub async fn open_local_on_demand(
        engine: LazyDatabase,
        file: &File,
    ) -> Result<PageDatabase, DbError> {
        let opened = engine.open_file(file).await?;
        Ok(PageDatabase(Box::new(OnDemand { engine, opened })))
    }

    /// Opens the database at `url` on demand in `engine`, with HTTP Range requests (the error
    /// says why when the server does not allow them: `DbError::Remote`).
    pub async fn open_remote(engine: LazyDatabase, url: &str) -> Result<PageDatabase, DbError> {
        let opened = engine.open_url(url).await?;
        Ok(PageDatabase(Box::new(OnDemand { engine, opened })))
    }

    /// Opens the database at `url` on demand in `engine`, pinned by what its first ranged GET
    /// found, which brought its `first` bytes (`engine::on_demand::web_file::first_get`; the page's
    /// opening has decided by then that it is read on demand: `engine::on_demand::remote::route`).
    pub async fn open_remote_pinned(
        engine: LazyDatabase,
        url: &str,
        pins: Pins,
        first: &Uint8Array,
    ) -> Result<PageDatabase, DbError> {
        let opened = engine.open_pinned(url, pins, first).await?;
        Ok(PageDatabase(Box::new(OnDemand { engine, opened })))
    }

    /// Opens the database at the Datasette address `address` (`https://host/dbname`), with
    /// `token` sent to that server only: what the server reports of it is read, and a first
    /// query tells at once whether the page may run SQL there (CORS, `allow_sql`, a token).
    pub async fn open_datasette(
        address: &str,
        token: Option<String>,
    ) -> Result<PageDatabase, DbError> {
        let address = DatasetteAddress::parse(address).map_err(DbError::Datasette)?;
        let engine = DatasetteDatabase::new(address, token, FetchTransport);
        let identity = engine.identify().await?;
        match super::query(&engine, "SELECT 1", &QueryLimits::default()).await {
            Ok(_) => {}
            // Its list of databases was just read, so it runs and lets the page read its
            // answers; but Datasette sends its refusal (403: SQL off, or a token needed)
            // without CORS headers, which the browser reports as no answer at all.
            Err(DbError::Datasette(DatasetteProblem::Unreachable { .. })) => {
                return Err(DbError::Datasette(DatasetteProblem::SqlNotAllowed {
                    database: engine.address().database.clone(),
                    status: 403,
                }))
            }
            Err(other) => return Err(other),
        }
        Ok(PageDatabase(Box::new(Served { engine, identity })))
    }

    /// Where its bytes are.
    pub fn kind(&self) -> DatabaseKind {
        self.0.kind()
    }

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.0.size()
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
    /// Read on demand: what the open found (size, header, sampled pages, the server's
    /// validators), at once.
    pub async fn identity(&self) -> Result<Identity, String> {
        self.0.identity().await
    }

    /// Starts taking the identity now, if it is not under way: after an open that answered
    /// once the schema was read, it waits until this (or [`Self::identity`]) is called, so
    /// that the tables are shown first.
    pub fn start_identifying(&self) {
        self.0.start_identifying();
    }

    /// The copy the model reads when `script` (from `model_view::plan`) leaves things out: a
    /// database of its own, in its own worker. Only for a kind whose [`Self::hiding`] is
    /// [`HidingMechanism::Copy`].
    pub async fn model_view_copy(&self, script: &str) -> Result<PageDatabase, DbError> {
        self.0.copy_for_model(script).await
    }

    /// Everything read from the file or server since it opened (`None` in memory, where
    /// reading costs nothing).
    pub fn total_reads(&self) -> Option<ReadStats> {
        self.0.total_reads()
    }

    /// Starts a question's read budget: from now on the queries run here (the agent's, its
    /// trap inspections, the answer's re-run, every candidate's: everything a question runs
    /// goes through this database) may read `limit` bytes from the server between them, in
    /// whatever order they run, and the query that would read past what is left stops with
    /// [`DbError::ByteBudget`]. `None` ends the budget. Only a kind whose reads have a budget
    /// ([`DatabaseKind::reads`]) has one: elsewhere reading costs no transfer.
    pub fn set_question_budget(&self, limit: Option<u64>) {
        let budgeted = self.kind().reads().has_budget();
        self.0.set_read_budget(limit.filter(|_| budgeted));
    }

    /// [`Self::set_question_budget`] for as long as the returned guard lives.
    pub fn question_budget(self: &Rc<Self>, limit: Option<u64>) -> QuestionBudgetGuard {
        self.set_question_budget(limit);
        QuestionBudgetGuard(self.clone())
    }

    /// What stopping a query costs this database, for the person who stopped it: nothing in
    /// memory (its worker is restarted on the same bytes, `engine::in_memory::worker`); read on
    /// demand, the worker is terminated and the next query opens the file again, with an empty
    /// page cache; on a server, the query is left to it.
    pub fn after_stop(&self) -> AfterStop {
        self.0.after_stop()
    }

    /// Closes it: its worker is stopped and its memory let go (after a query that runs).
    pub async fn close(&self) {
        self.0.close().await
    }

    /// The bytes it was opened from (for the tests' hooks: they compare them with the file).
    pub async fn source_bytes(&self) -> Result<Uint8Array, DbError> {
        self.0.source_bytes().await
    }

    /// The database as its engine writes it out (for the tests' hooks: nothing typed into the
    /// page may change it).
    pub async fn export(&self) -> Result<Uint8Array, DbError> {
        self.0.export().await
    }
}

/// The tests' hooks compare bytes in memory; a database read on demand or on a server has none
/// there.
fn not_in_memory() -> DbError {
    DbError::Unavailable(
        "this database is read on demand or on a server: its bytes are not in memory".into(),
    )
}

impl Database for PageDatabase {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        self.0.run(sql, values, limits).await
    }
}

impl Backend for InMemory {
    fn kind(&self) -> DatabaseKind {
        DatabaseKind::InMemory
    }

    fn size(&self) -> u64 {
        self.size
    }

    fn identity(&self) -> LocalBoxFuture<'_, Result<Identity, String>> {
        let size = self.size;
        let digest = self.digest.clone();
        Box::pin(async move { digest.await.map(|sha256| Identity::Bytes { size, sha256 }) })
    }

    fn start_identifying(&self) {
        // A shared future runs once, however many poll it.
        wasm_bindgen_futures::spawn_local(self.digest.clone().map(|_| ()));
    }

    fn run<'q>(
        &'q self,
        sql: &'q ReadOnlySql,
        values: &'q [Value],
        limits: &'q QueryLimits,
    ) -> LocalBoxFuture<'q, Result<QueryResult, DbError>> {
        Box::pin(self.engine.run(sql, values, limits))
    }

    fn after_stop(&self) -> AfterStop {
        AfterStop::Ready
    }

    fn close(&self) -> LocalBoxFuture<'_, ()> {
        self.stop_digest.abort();
        Box::pin(self.engine.close())
    }

    fn copy_for_model<'c>(
        &'c self,
        script: &'c str,
    ) -> LocalBoxFuture<'c, Result<PageDatabase, DbError>> {
        Box::pin(async move {
            let source = self.engine.source().ok_or(DbError::NotOpen)?;
            let copy = self.engine.sibling();
            let derived = copy.derive(&source, script).await?;
            let bytes = Blob::new_with_u8_array_sequence(&Array::of1(&derived))
                .map_err(|e| DbError::Unavailable(crate::browser::describe(&e)))?;
            copy.open(&bytes).await?;
            Ok(PageDatabase(Box::new(InMemory {
                size: bytes.size() as u64,
                // Never asked for: a copy is not a database the person opened.
                digest: futures::future::ready(Err(
                    "a copy made for the model is not identified".to_string()
                ))
                .boxed_local()
                .shared(),
                stop_digest: AbortHandle::new_pair().0,
                engine: copy,
            })))
        })
    }

    fn source_bytes(&self) -> LocalBoxFuture<'_, Result<Uint8Array, DbError>> {
        Box::pin(async move {
            let source = self.engine.source().ok_or(DbError::NotOpen)?;
            let buffer = wasm_bindgen_futures::JsFuture::from(source.array_buffer())
                .await
                .map_err(|e| DbError::Unreadable(crate::browser::describe(&e)))?;
            Ok(Uint8Array::new(&buffer))
        })
    }

    fn export(&self) -> LocalBoxFuture<'_, Result<Uint8Array, DbError>> {
        Box::pin(self.engine.export())
    }
}

impl Backend for OnDemand {
    /// A local file, or one on a web server (what the open found says which).
    fn kind(&self) -> DatabaseKind {
        if self.opened.identity.remote.is_some() {
            DatabaseKind::Remote
        } else {
            DatabaseKind::LocalFile
        }
    }

    fn size(&self) -> u64 {
        self.opened.identity.size
    }

    fn identity(&self) -> LocalBoxFuture<'_, Result<Identity, String>> {
        let identity = Identity::OnDemand(self.opened.identity.clone());
        Box::pin(futures::future::ready(Ok(identity)))
    }

    fn run<'q>(
        &'q self,
        sql: &'q ReadOnlySql,
        values: &'q [Value],
        limits: &'q QueryLimits,
    ) -> LocalBoxFuture<'q, Result<QueryResult, DbError>> {
        Box::pin(self.engine.run(sql, values, limits))
    }

    fn after_stop(&self) -> AfterStop {
        AfterStop::Reopens {
            cache_bytes: self.opened.cache_bytes,
        }
    }

    fn close(&self) -> LocalBoxFuture<'_, ()> {
        Box::pin(self.engine.close())
    }

    fn total_reads(&self) -> Option<ReadStats> {
        Some(self.engine.total_reads())
    }

    fn set_read_budget(&self, limit: Option<u64>) {
        self.engine.set_read_budget(limit);
    }
}

impl Backend for Served {
    fn kind(&self) -> DatabaseKind {
        DatabaseKind::Datasette
    }

    fn size(&self) -> u64 {
        self.identity.size
    }

    fn identity(&self) -> LocalBoxFuture<'_, Result<Identity, String>> {
        let identity = Identity::Datasette(self.identity.clone());
        Box::pin(futures::future::ready(Ok(identity)))
    }

    fn run<'q>(
        &'q self,
        sql: &'q ReadOnlySql,
        values: &'q [Value],
        limits: &'q QueryLimits,
    ) -> LocalBoxFuture<'q, Result<QueryResult, DbError>> {
        Box::pin(self.engine.run(sql, values, limits))
    }

    fn after_stop(&self) -> AfterStop {
        AfterStop::LeftToServer
    }

    /// Nothing held open: each query is a request of its own.
    fn close(&self) -> LocalBoxFuture<'_, ()> {
        Box::pin(futures::future::ready(()))
    }

    fn total_reads(&self) -> Option<ReadStats> {
        Some(self.engine.total_requests())
    }
}
