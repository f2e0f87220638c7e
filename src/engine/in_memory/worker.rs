//! The page's database: sql.js running in a Web Worker (`www/worker.js`).
//!
//! The page thread never runs SQL. Each request is posted to the worker (`engine::channel`) and
//! raced against a deadline; sql.js cannot interrupt a statement, so a query that outlives its
//! deadline is stopped by terminating the worker, starting a fresh one and reopening the
//! database from its source, kept here as a `Blob` (the `File` the person chose, or the bytes
//! downloaded): the worker reads it itself, so the page never holds the file's bytes nor copies
//! them into a message. A request whose future is dropped before its reply (a Stop button) is
//! stopped the same way.

use crate::browser::{describe, now_ms};
use crate::engine::channel::{
    decode_rows, get, run_message, set, simple_message, Reply, WorkerChannel,
};
use crate::engine::file_check::{check_header, HEADER_LEN};
use crate::engine::schema::SCHEMA_ONLY_QUERIES;
use crate::engine::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, Value};
use futures::lock::Mutex;
use js_sys::{Array, Object, Uint8Array};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;

/// Opening copies the whole file into the worker and reads its schema once; even a very large
/// file takes seconds, not minutes.
const OPEN_DEADLINE_MS: u32 = 120_000;
/// From this size a file opens schema first: its tables are shown once the schema's pages are
/// read, while the rest is (`www/worker.js`, "The schema first"). Below it the whole read is
/// quick (16 MiB: about 20 ms) and one open is simpler to follow.
pub const SCHEMA_FIRST_FROM_BYTES: u64 = 16 * 1024 * 1024;
/// Starting sql.js (fetching and compiling its wasm) and exporting have no query deadline.
const SERVICE_DEADLINE_MS: u32 = 120_000;

/// A read-only SQLite database in a Web Worker.
pub struct WorkerDatabase {
    /// The worker (`worker.js`; `rows.js`, `sql-wasm.js` and `sql-wasm.wasm` sit beside it).
    channel: WorkerChannel,
    /// Where the open database's bytes are, as the person gave them (a `File`, or the bytes
    /// downloaded): what a fresh worker reopens.
    pristine: RefCell<Option<Blob>>,
    /// One request at a time: the others wait their turn here.
    turn: Mutex<()>,
    /// Above what size a file is read in parts, when not the worker's own (see
    /// [`WorkerDatabase::read_in_parts_above`]).
    one_read_bytes: Cell<Option<u64>>,
    /// Whether the last open answered once the schema was read, the whole file still being
    /// read then (see [`SCHEMA_FIRST_FROM_BYTES`]).
    schema_first: Cell<bool>,
    /// How long the last open waited in the worker for sql.js to load, in ms.
    sqlite_wait_ms: Cell<f64>,
}

impl WorkerDatabase {
    /// A database engine whose worker script is at `script_url` (absolute, or relative to the
    /// page). The worker starts with the first request.
    pub fn new(script_url: &str) -> Result<WorkerDatabase, DbError> {
        Ok(WorkerDatabase {
            channel: WorkerChannel::new(script_url)?,
            pristine: RefCell::new(None),
            turn: Mutex::new(()),
            one_read_bytes: Cell::new(None),
            schema_first: Cell::new(false),
            sqlite_wait_ms: Cell::new(0.0),
        })
    }

    /// Files larger than `bytes` are read in parts, telling how far they got. By default
    /// those over `ONE_READ_BYTES` in `worker.js` (512 MiB): up to it a file is read in one
    /// call, the browser's quickest way (305 MB: 0.41 s, against 0.55-0.81 s in parts), which
    /// says nothing of its progress.
    pub fn read_in_parts_above(&self, bytes: u64) {
        self.one_read_bytes.set(Some(bytes));
    }

    /// Another engine on the same worker script, with nothing open.
    pub fn sibling(&self) -> WorkerDatabase {
        WorkerDatabase {
            channel: self.channel.sibling(),
            pristine: RefCell::new(None),
            turn: Mutex::new(()),
            one_read_bytes: Cell::new(self.one_read_bytes.get()),
            schema_first: Cell::new(false),
            sqlite_wait_ms: Cell::new(0.0),
        }
    }

    /// Starts the worker's thread and loads sql.js's scripts in it, not its wasm, so that the
    /// first request need not wait for the browser to start a thread, nor for two scripts
    /// fetched one after the other. Nothing when it runs.
    pub fn start_resting(&self) -> Result<(), DbError> {
        if self.channel.is_running() {
            return Ok(());
        }
        self.channel.start()?;
        self.channel.post(simple_message("prepare"))
    }

    /// Starts the worker and loads SQLite in it, so that the first request (an open) need not
    /// wait for that.
    pub async fn warm(&self) -> Result<(), DbError> {
        let _turn = self.turn.lock().await;
        self.request(
            simple_message("warm"),
            SERVICE_DEADLINE_MS,
            DbError::Unavailable,
        )
        .await
        .map(|_| ())
    }

    /// The source goes to the worker as a `Blob` (a handle: its bytes are not copied into the
    /// message); the worker reads it, in one call or in parts. `schema_first`: a large file may
    /// open once its schema is read (the statements that read only the schema run then).
    fn open_message(&self, source: &Blob, schema_first: bool) -> Object {
        let message = simple_message("open");
        set(&message, "source", source);
        if let Some(bytes) = self.one_read_bytes.get() {
            set(&message, "oneReadBytes", &JsValue::from_f64(bytes as f64));
        }
        if schema_first && source.size() as u64 >= SCHEMA_FIRST_FROM_BYTES {
            let statements: Array = SCHEMA_ONLY_QUERIES
                .iter()
                .map(|sql| JsValue::from_str(sql))
                .collect();
            set(&message, "previewSql", &statements);
        }
        message
    }

    /// Whether the last open answered once the schema was read, before the whole file was:
    /// a request other than the schema's waits for the rest then.
    pub fn opened_schema_first(&self) -> bool {
        self.schema_first.get()
    }

    /// How long the last open waited in the worker for SQLite (sql.js) to load, in ms: 0 in a
    /// worker started ahead.
    pub fn waited_for_sqlite_ms(&self) -> f64 {
        self.sqlite_wait_ms.get()
    }

    /// Closes the open database: its worker is stopped and its bytes let go.
    pub async fn close(&self) {
        let _turn = self.turn.lock().await;
        self.channel.stop();
        self.pristine.borrow_mut().take();
    }

    /// True when a database is open.
    pub fn is_open(&self) -> bool {
        self.pristine.borrow().is_some()
    }

    /// Opens the database whose bytes `source` holds: the worker reads them itself. When they
    /// are not a usable database the error names the problem and the database that was open
    /// stays open.
    pub async fn open(&self, source: &Blob) -> Result<(), DbError> {
        self.open_with_progress(source, |_| {}).await
    }

    /// The same, telling `progress` how much of the file the worker has read (0.0–1.0).
    pub async fn open_with_progress(
        &self,
        source: &Blob,
        progress: impl Fn(f64) + 'static,
    ) -> Result<(), DbError> {
        // Read only the header here: the bytes are read by the worker.
        let size = source.size() as u64;
        let head = read_head(source).await.map_err(DbError::Unreadable)?;
        check_header(&head, size).map_err(DbError::NotADatabase)?;
        self.open_unchecked(source, progress).await
    }

    /// [`WorkerDatabase::open_with_progress`] without checking the file's header first: for an
    /// engine with nothing open, whose caller has checked the header (or checks it before
    /// using the database), and cannot wait for that read before the worker starts reading.
    pub async fn open_unchecked(
        &self,
        source: &Blob,
        progress: impl Fn(f64) + 'static,
    ) -> Result<(), DbError> {
        let _turn = self.turn.lock().await;
        // With no worker running, a fresh one opens the new bytes straight away: reopening the
        // kept ones first would be wasted work (they are replaced at once), and could fail.
        let fresh = !self.channel.is_running();
        if fresh {
            self.channel.start()?;
        }
        self.channel.set_progress(Some(Box::new(progress)));
        let reply = self
            .channel
            .exchange(self.open_message(source, true), OPEN_DEADLINE_MS)
            .await;
        self.channel.set_progress(None);
        if fresh && !matches!(reply, Reply::Ok { .. }) {
            // That worker has no database open, not even the kept one: dropped, so that the next
            // request starts another and reopens the kept bytes in it.
            self.channel.stop();
        }
        // SQLite's verdict on the bytes ("file is not a database") is about the file.
        let answer = self
            .answer(reply, OPEN_DEADLINE_MS, DbError::NotADatabase)
            .await?;
        self.schema_first
            .set(get(&answer, "preview").as_bool() == Some(true));
        self.sqlite_wait_ms
            .set(get(&answer, "sqliteMs").as_f64().unwrap_or(0.0));
        *self.pristine.borrow_mut() = Some(source.clone());
        Ok(())
    }

    /// The open database as SQLite writes it out (its backup API: the same pages; SQLite
    /// rewrites a few header fields: bytes 18–19, 24–27, 40–43 and 92–99).
    pub async fn export(&self) -> Result<Uint8Array, DbError> {
        let _turn = self.turn.lock().await;
        if !self.is_open() {
            return Err(DbError::NotOpen);
        }
        let bytes = self
            .request(
                simple_message("export"),
                SERVICE_DEADLINE_MS,
                DbError::Sqlite,
            )
            .await?;
        bytes
            .dyn_into::<Uint8Array>()
            .map_err(|_| DbError::Sqlite("the export was not bytes".into()))
    }

    /// Applies `script` to a writable copy of `source` (not the open database) in a worker of
    /// its own, and returns the copy's bytes; `source` is left as it was. That worker is
    /// stopped afterwards, so the memory the work took (the whole file, and more while
    /// `VACUUM` runs) goes with it; the next request starts a fresh one.
    pub async fn derive(&self, source: &Blob, script: &str) -> Result<Uint8Array, DbError> {
        let message = simple_message("derive");
        set(&message, "source", source);
        set(&message, "script", &JsValue::from_str(script));
        self.in_a_worker_of_its_own(message)
            .await?
            .dyn_into::<Uint8Array>()
            .map_err(|_| DbError::Sqlite("the copy was not bytes".into()))
    }

    /// The SHA-256 of the bytes `source` holds (64 lower-case hex digits), read and taken in a
    /// worker of its own: the browser's digest holds the thread it runs on for as long as it
    /// takes (seconds for hundreds of MB), so neither the page nor the open database's worker
    /// waits for it.
    pub async fn digest(&self, source: &Blob) -> Result<String, DbError> {
        let message = simple_message("digest");
        set(&message, "source", source);
        self.in_a_worker_of_its_own(message)
            .await?
            .as_string()
            .ok_or_else(|| DbError::Unavailable("the worker gave no digest".into()))
    }

    /// Sends `message` to a fresh worker, and stops that worker once it answered: what the
    /// work took goes with it.
    async fn in_a_worker_of_its_own(&self, message: Object) -> Result<JsValue, DbError> {
        let _turn = self.turn.lock().await;
        self.channel.start()?;
        let reply = self.channel.exchange(message, OPEN_DEADLINE_MS).await;
        self.channel.stop();
        match reply {
            Reply::Ok { value, .. } => Ok(value),
            Reply::Failed { message, reply } => Err(failure(message, &reply, DbError::Sqlite)),
            Reply::TooLarge(limit_bytes) => Err(DbError::TooLarge { limit_bytes }),
            Reply::Unavailable(why) => Err(DbError::Unavailable(why)),
            Reply::Crashed(why) => Err(DbError::Crashed {
                why,
                reopened: false,
            }),
            Reply::TimedOut => Err(DbError::Timeout {
                after_ms: OPEN_DEADLINE_MS,
            }),
        }
    }

    /// Makes the worker fail the way an abort inside sql.js does, and recovers as from a real
    /// one: a fresh worker, with the open database reopened. A real abort cannot be provoked on
    /// purpose, so this lets tests prove that path; nothing in the page calls it.
    #[doc(hidden)]
    pub async fn simulate_crash(&self) -> Result<(), DbError> {
        let _turn = self.turn.lock().await;
        self.request(
            simple_message("crash"),
            SERVICE_DEADLINE_MS,
            DbError::Sqlite,
        )
        .await
        .map(|_| ())
    }

    /// Where the open database's bytes are (what it was opened from).
    pub fn source(&self) -> Option<Blob> {
        self.pristine.borrow().clone()
    }

    /// Sends one request to a running engine (started first if need be) and turns its reply
    /// into a value or an error (see `answer`). The caller holds the turn.
    async fn request(
        &self,
        message: Object,
        deadline_ms: u32,
        failed: fn(String) -> DbError,
    ) -> Result<JsValue, DbError> {
        self.ensure_engine().await?;
        let reply = self.channel.exchange(message, deadline_ms).await;
        self.answer(reply, deadline_ms, failed).await
    }

    /// Turns a reply into a value or an error. A worker that died or ran out of time is
    /// replaced, with the open database reopened in the new one. `failed` names a refusal the
    /// worker survived. The caller holds the turn.
    async fn answer(
        &self,
        reply: Reply,
        deadline_ms: u32,
        failed: fn(String) -> DbError,
    ) -> Result<JsValue, DbError> {
        match reply {
            Reply::Ok { value, .. } => Ok(value),
            Reply::Failed { message, reply } => Err(failure(message, &reply, failed)),
            Reply::TooLarge(limit_bytes) => Err(DbError::TooLarge { limit_bytes }),
            Reply::Unavailable(why) => Err(DbError::Unavailable(why)),
            Reply::Crashed(why) => {
                let reopened = self.restart().await?;
                Err(DbError::Crashed { why, reopened })
            }
            Reply::TimedOut => {
                self.restart().await?;
                Err(DbError::Timeout {
                    after_ms: deadline_ms,
                })
            }
        }
    }

    /// Starts a worker when none runs, and opens the kept database in it. The caller holds
    /// the turn.
    async fn ensure_engine(&self) -> Result<(), DbError> {
        if self.channel.is_running() {
            return Ok(());
        }
        self.channel.start()?;
        let Some(source) = self.source() else {
            return Ok(());
        };
        // These bytes opened before: a failure now is the engine's, not the file's. They stay
        // kept, so the next request tries again.
        let reply = self
            .channel
            .exchange(self.open_message(&source, false), OPEN_DEADLINE_MS)
            .await;
        let why = match reply {
            Reply::Ok { .. } => return Ok(()),
            Reply::Unavailable(why) => why,
            Reply::Failed { message: why, .. } | Reply::Crashed(why) => {
                format!("the open database could not be opened again ({why})")
            }
            Reply::TooLarge(_) | Reply::TimedOut => {
                "the open database could not be opened again in time".to_string()
            }
        };
        self.channel.stop();
        Err(DbError::Unavailable(why))
    }

    /// Replaces the worker: a fresh one, with the open database reopened in it. True when a
    /// database was reopened. The caller holds the turn.
    async fn restart(&self) -> Result<bool, DbError> {
        self.channel.stop();
        if !self.is_open() {
            // Nothing to reopen: the next request starts a worker.
            return Ok(false);
        }
        self.ensure_engine().await?;
        Ok(true)
    }
}

/// A request the worker refused: the file could not be read (`kind: "unreadable"`), or what
/// `failed` names.
fn failure(message: String, reply: &JsValue, failed: fn(String) -> DbError) -> DbError {
    if get(reply, "kind").as_string().as_deref() == Some("unreadable") {
        DbError::Unreadable(message)
    } else {
        failed(message)
    }
}

impl Database for WorkerDatabase {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        let _turn = self.turn.lock().await;
        if !self.is_open() {
            return Err(DbError::NotOpen);
        }
        // Starting a worker (and reopening the database in it) is not the query's time.
        self.ensure_engine().await?;
        let message = run_message(sql, values, limits);
        let started = now_ms();
        let result = self
            .request(message, limits.deadline_ms, DbError::Sqlite)
            .await?;
        let received = now_ms();
        let rows = decode_rows(&result);
        LAST_QUERY.set(QueryTimings {
            total_ms: received - started,
            sql_ms: get(&result, "sqlMs").as_f64().unwrap_or(f64::NAN),
            decode_ms: now_ms() - received,
        });
        Ok(QueryResult {
            columns: rows.columns,
            rows: rows.rows,
            truncated: rows.truncated,
            total_rows: rows.total_rows,
            elapsed_ms: received - started,
            reads: None,
        })
    }
}

/// Where the last query's time went, as the page measured it (for the benchmark, through a
/// test hook; nothing in the page reads it).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct QueryTimings {
    /// From posting the statement to its reply: the `elapsed_ms` a result shows.
    pub total_ms: f64,
    /// SQLite's own time in the worker: preparing, stepping and keeping the rows.
    pub sql_ms: f64,
    /// Turning the reply into a `QueryResult` on the page's thread.
    pub decode_ms: f64,
}

thread_local! {
    static LAST_QUERY: Cell<QueryTimings> = Cell::new(QueryTimings::default());
}

/// Where the last query's time went (see [`QueryTimings`]).
pub fn last_query_timings() -> QueryTimings {
    LAST_QUERY.get()
}

/// The first bytes of `source`, enough for [`check_header`].
async fn read_head(source: &Blob) -> Result<Vec<u8>, String> {
    let size = source.size().min(HEADER_LEN as f64);
    let head = source
        .slice_with_f64_and_f64(0.0, size)
        .map_err(|e| describe(&e))?;
    let buffer = JsFuture::from(head.array_buffer()).await.map_err(|e| {
        format!(
            "it changed or went away since it was chosen, or the browser may not read it ({})",
            describe(&e)
        )
    })?;
    Ok(Uint8Array::new(&buffer).to_vec())
}
