//! The page's database: sql.js running in a Web Worker (`www/worker.js`).
//!
//! The page thread never runs SQL. Each request is posted to the worker and raced against a
//! deadline; sql.js cannot interrupt a statement, so a query that outlives its deadline is
//! stopped by terminating the worker, starting a fresh one and reopening the database from the
//! pristine bytes kept here, in JavaScript memory (never copied into wasm memory). A request
//! whose future is dropped before its reply (a Stop button) is stopped the same way.

use super::channel::{decode_rows, encode_values, set, simple_message, Reply, WorkerChannel};
use super::file_check::{check_header, HEADER_LEN};
use super::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, Value};
use crate::browser::now_ms;
use futures::lock::Mutex;
use js_sys::{Object, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Opening copies the whole file into the worker and reads its schema once; even a very large
/// file takes seconds, not minutes.
const OPEN_DEADLINE_MS: u32 = 120_000;
/// Starting sql.js (fetching and compiling its wasm) and exporting have no query deadline.
const SERVICE_DEADLINE_MS: u32 = 120_000;

/// A read-only SQLite database in a Web Worker.
pub struct WorkerDatabase {
    /// The worker (`worker.js`; `rows.js`, `sql-wasm.js` and `sql-wasm.wasm` sit beside it).
    channel: WorkerChannel,
    /// The bytes of the open database, as the user gave them.
    pristine: RefCell<Option<Uint8Array>>,
    /// One request at a time: the others wait their turn here.
    turn: Mutex<()>,
}

impl WorkerDatabase {
    /// A database engine whose worker script is at `script_url` (absolute, or relative to the
    /// page). The worker starts with the first request.
    pub fn new(script_url: &str) -> Result<WorkerDatabase, DbError> {
        Ok(WorkerDatabase {
            channel: WorkerChannel::new(script_url)?,
            pristine: RefCell::new(None),
            turn: Mutex::new(()),
        })
    }

    /// Another engine on the same worker script, with nothing open.
    pub fn sibling(&self) -> WorkerDatabase {
        WorkerDatabase {
            channel: self.channel.sibling(),
            pristine: RefCell::new(None),
            turn: Mutex::new(()),
        }
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

    /// Opens `bytes` as the database. When they are not a usable database the error names the
    /// problem and the database that was open stays open.
    pub async fn open(&self, bytes: Uint8Array) -> Result<(), DbError> {
        // Read only the header here: the bytes stay in JavaScript memory.
        let head_len = bytes.length().min(HEADER_LEN as u32);
        let head = bytes.subarray(0, head_len).to_vec();
        check_header(&head, u64::from(bytes.length())).map_err(DbError::NotADatabase)?;

        let _turn = self.turn.lock().await;
        // With no worker running, a fresh one opens the new bytes straight away: reopening the
        // kept ones first would be wasted work (they are replaced at once), and could fail.
        let fresh = !self.channel.is_running();
        if fresh {
            self.channel.start()?;
        }
        let reply = self
            .channel
            .exchange(open_message(&bytes), OPEN_DEADLINE_MS)
            .await;
        if fresh && !matches!(reply, Reply::Ok { .. }) {
            // That worker has no database open, not even the kept one: dropped, so that the next
            // request starts another and reopens the kept bytes in it.
            self.channel.stop();
        }
        // SQLite's verdict on the bytes ("file is not a database") is about the file.
        self.answer(reply, OPEN_DEADLINE_MS, DbError::NotADatabase)
            .await?;
        *self.pristine.borrow_mut() = Some(bytes);
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
    pub async fn derive(&self, source: &Uint8Array, script: &str) -> Result<Uint8Array, DbError> {
        let _turn = self.turn.lock().await;
        self.channel.start()?;
        let message = simple_message("derive");
        set(&message, "bytes", source);
        set(&message, "script", &JsValue::from_str(script));
        let reply = self.channel.exchange(message, OPEN_DEADLINE_MS).await;
        self.channel.stop();
        let bytes = match reply {
            Reply::Ok { value, .. } => value,
            Reply::Failed { message, .. } => return Err(DbError::Sqlite(message)),
            Reply::TooLarge(limit_bytes) => return Err(DbError::TooLarge { limit_bytes }),
            Reply::Unavailable(why) => return Err(DbError::Unavailable(why)),
            Reply::Crashed(why) => {
                return Err(DbError::Crashed {
                    why,
                    reopened: false,
                })
            }
            Reply::TimedOut => {
                return Err(DbError::Timeout {
                    after_ms: OPEN_DEADLINE_MS,
                })
            }
        };
        bytes
            .dyn_into::<Uint8Array>()
            .map_err(|_| DbError::Sqlite("the copy was not bytes".into()))
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

    /// The pristine bytes of the open database.
    pub fn pristine_bytes(&self) -> Option<Uint8Array> {
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
            Reply::Failed { message, .. } => Err(failed(message)),
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
        let Some(bytes) = self.pristine_bytes() else {
            return Ok(());
        };
        // These bytes opened before: a failure now is the engine's, not the file's. They stay
        // kept, so the next request tries again.
        let reply = self
            .channel
            .exchange(open_message(&bytes), OPEN_DEADLINE_MS)
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
        let message = simple_message("run");
        set(&message, "sql", &JsValue::from_str(sql.as_str()));
        set(&message, "params", &encode_values(values));
        set(&message, "maxRows", &JsValue::from(limits.max_rows as f64));
        // Counting rows past the cap stops early enough to report before the deadline.
        set(
            &message,
            "countBudgetMs",
            &JsValue::from(f64::from(limits.deadline_ms) * 0.75),
        );
        let started = now_ms();
        let result = self
            .request(message, limits.deadline_ms, DbError::Sqlite)
            .await?;
        let rows = decode_rows(&result);
        Ok(QueryResult {
            columns: rows.columns,
            rows: rows.rows,
            truncated: rows.truncated,
            total_rows: rows.total_rows,
            elapsed_ms: now_ms() - started,
            reads: None,
        })
    }
}

/// The bytes are structured-cloned into the worker: the page keeps its own pristine copy.
fn open_message(bytes: &Uint8Array) -> Object {
    let message = simple_message("open");
    set(&message, "bytes", bytes);
    message
}
