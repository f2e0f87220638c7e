//! A database read on demand: the official SQLite WebAssembly build in a Web Worker
//! (`www/lazy-worker.js`) reads only the pages a query needs, from a local `File` (never copied)
//! or from a web server with HTTP Range requests. For files too large to hold in memory, or that
//! live on a server; `worker::WorkerDatabase` (sql.js, the bytes in memory) stays the engine for
//! the others.
//!
//! What it adds to [`Database`]: every query's reads are counted ([`QueryResult::reads`],
//! [`LazyDatabase::last_reads`], [`LazyDatabase::total_reads`]) and may be bounded by a read
//! budget that the queries run meanwhile share, in whatever order they come
//! ([`LazyDatabase::set_read_budget`], [`DbError::ByteBudget`]); the open says what
//! identifies the database ([`LazyIdentity`]) or, for a URL, why it cannot be read in parts
//! ([`DbError::Remote`]).
//!
//! The deadline: the worker's progress handler stops a statement when its deadline passes, and
//! the worker lives on with its page cache. A read that blocks (a synchronous request to a slow
//! server) cannot be interrupted: past the deadline and a grace period the worker is terminated
//! and a fresh one opens the same file or URL on the next request. That costs the header, the
//! schema and a few sampled pages, and the page cache starts empty. The database opened again
//! must be the same one ([`LazyIdentity::same_as`]); if it is not, every query says so
//! ([`DbError::Changed`]) until another database is opened.

use super::remote::{Pins, Route, WHOLE_DOWNLOAD_LIMIT_BYTES};
use super::web_file::first_get;
use super::{LazyIdentity, RemoteProblem, RemoteValidators};
use crate::browser::now_ms;
use crate::engine::channel::{
    decode_rows, get, run_message, set, simple_message, Reply, WorkerChannel,
};
use crate::engine::file_check::check_header;
use crate::engine::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, ReadStats, Value};
use futures::lock::Mutex;
use js_sys::{Array, Uint8Array};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::File;

/// Starting SQLite (fetching and compiling its wasm) and opening: the header, the schema and a
/// few sampled pages, plus one ranged GET for a URL.
const OPEN_DEADLINE_MS: u32 = 60_000;
/// How long past a query's deadline the worker may take to answer before it is terminated: the
/// progress handler answers at once, unless a read is blocked.
const DEADLINE_GRACE_MS: u32 = 1_000;

/// Where the open database is, to open it again in a fresh worker.
#[derive(Clone)]
enum Source {
    File(File),
    /// A file at a web address, pinned by what its first answer said: every read must agree.
    Url {
        url: String,
        pins: Pins,
    },
}

/// What opening found.
#[derive(Clone, Debug, PartialEq)]
pub struct LazyOpened {
    /// What identifies this database (see [`LazyIdentity`]).
    pub identity: LazyIdentity,
    /// SQLite's page size, from the header.
    pub page_size: u32,
    pub page_count: u64,
    /// What the worker's page cache may hold, in bytes.
    pub cache_bytes: u64,
    /// What the open read: the header, the schema, the sampled pages (and, for a URL, the
    /// first 64 KiB that validated it).
    pub reads: ReadStats,
}

/// The open database, as the page asked for it.
struct Opened {
    source: Source,
    found: LazyOpened,
    /// Set when the database opened again after a restart was not the same one.
    changed: Option<String>,
}

/// A read-only SQLite database read on demand, in a Web Worker.
pub struct LazyDatabase {
    /// The worker (`lazy-worker.js`; `rows.js` and `sqlite-wasm/` sit beside it).
    channel: WorkerChannel,
    opened: RefCell<Option<Opened>>,
    /// The page cache's size to ask for; `None`: the worker's default (64 MiB).
    cache_bytes: Cell<Option<u64>>,
    budget: Cell<Option<ReadBudget>>,
    last_reads: Cell<Option<ReadStats>>,
    total_reads: Cell<ReadStats>,
    /// One request at a time: the others wait their turn here.
    turn: Mutex<()>,
}

/// A read budget: `limit` bytes from the source since the total was `start`.
#[derive(Clone, Copy, Debug)]
struct ReadBudget {
    limit: u64,
    start: ReadStats,
}

impl LazyDatabase {
    /// A database engine whose worker script is at `script_url` (absolute, or relative to the
    /// page: `lazy-worker.js`). Nothing is loaded until the first open.
    pub fn new(script_url: &str) -> Result<LazyDatabase, DbError> {
        Ok(LazyDatabase {
            channel: WorkerChannel::new(script_url)?,
            opened: RefCell::new(None),
            cache_bytes: Cell::new(None),
            budget: Cell::new(None),
            last_reads: Cell::new(None),
            total_reads: Cell::new(ReadStats::default()),
            turn: Mutex::new(()),
        })
    }

    /// The page cache's size for the next open (the worker keeps at least four read-aheads:
    /// 16 MiB for a file, 4 MiB for a URL); `None` for the default, 64 MiB.
    pub fn set_cache_bytes(&self, bytes: Option<u64>) {
        self.cache_bytes.set(bytes);
    }

    /// Starts a read budget: the queries run from now on may read `limit` bytes from the file
    /// or server between them (pages already in the cache are free; reopening after a restart
    /// counts); `None` ends it. The query that would read past what is left stops with
    /// [`DbError::ByteBudget`], which gives the budget and what was read against it. What is
    /// left is taken when a query's turn comes, not when it is asked for, so queries that
    /// wait for each other (a question's candidates) share it whatever their order.
    pub fn set_read_budget(&self, limit: Option<u64>) {
        self.budget.set(limit.map(|limit| ReadBudget {
            limit,
            start: self.total_reads.get(),
        }));
    }

    /// The read budget, if one runs: its limit and what was read against it so far.
    pub fn read_budget(&self) -> Option<(u64, u64)> {
        self.budget.get().map(|b| (b.limit, self.read_against(b)))
    }

    fn read_against(&self, budget: ReadBudget) -> u64 {
        self.total_reads.get().since(budget.start).bytes
    }

    /// What the last query (or open) read, whether it succeeded or failed.
    pub fn last_reads(&self) -> Option<ReadStats> {
        self.last_reads.get()
    }

    /// Everything read since the database was opened, restarts included.
    pub fn total_reads(&self) -> ReadStats {
        self.total_reads.get()
    }

    /// What the open found, while a database is open.
    pub fn opened(&self) -> Option<LazyOpened> {
        self.opened.borrow().as_ref().map(|o| o.found.clone())
    }

    pub fn is_open(&self) -> bool {
        self.opened.borrow().is_some()
    }

    /// Opens a local file, reading only what SQLite asks for. The file is handed to the worker,
    /// not copied. When it is not a usable database the error says why, and the database that
    /// was open stays open.
    pub async fn open_file(&self, file: &File) -> Result<LazyOpened, DbError> {
        let _turn = self.turn.lock().await;
        self.open_source(Source::File(file.clone()), None).await
    }

    /// Opens the database at `url` (absolute), reading it with HTTP Range requests, whatever
    /// its size (the page's opening downloads small files whole instead: `engine::on_demand::remote::route`).
    /// A server that cannot serve it in parts gives [`DbError::Remote`], which says why and what
    /// to set (and, when the server ignores Range, the whole file's size).
    pub async fn open_url(&self, url: &str) -> Result<LazyOpened, DbError> {
        let first = first_get(url).await.map_err(DbError::Remote)?;
        match first.route(0, WHOLE_DOWNLOAD_LIMIT_BYTES) {
            Route::OnDemand(pins) => {
                let bytes = first.first_bytes().await.map_err(DbError::Remote)?;
                self.open_pinned(url, pins, &bytes).await
            }
            Route::Whole { size, .. } => {
                first.stop();
                Err(DbError::Remote(RemoteProblem::RangeIgnored { size }))
            }
            Route::Refused(problem) => {
                first.stop();
                Err(DbError::Remote(problem))
            }
        }
    }

    /// Opens the database at `url` on demand, pinned by `pins` (what its first ranged GET
    /// found, `engine::on_demand::web_file::first_get`), whose first bytes that GET brought are `first`
    /// (they start the page cache: the open reads none of them again).
    pub async fn open_pinned(
        &self,
        url: &str,
        pins: Pins,
        first: &Uint8Array,
    ) -> Result<LazyOpened, DbError> {
        let _turn = self.turn.lock().await;
        let source = Source::Url {
            url: url.to_string(),
            pins,
        };
        self.open_source(source, Some(first)).await
    }

    /// Closes the open database: its worker is stopped, its cache let go.
    pub async fn close(&self) {
        let _turn = self.turn.lock().await;
        self.channel.stop();
        self.opened.borrow_mut().take();
    }

    /// Makes the worker fail the way an abort inside SQLite does, and recovers as from a real
    /// one: a fresh worker, with the open database opened again. For tests.
    #[doc(hidden)]
    pub async fn simulate_crash(&self) -> Result<(), DbError> {
        let _turn = self.turn.lock().await;
        self.ensure_worker().await?;
        let reply = self
            .channel
            .exchange(simple_message("crash"), OPEN_DEADLINE_MS)
            .await;
        self.answer(reply, OPEN_DEADLINE_MS).await.map(|_| ())
    }

    /// Opens `source` in the running worker (a fresh one when none runs); for a URL, with the
    /// `first` bytes its first ranged GET brought. The caller holds the turn.
    async fn open_source(
        &self,
        source: Source,
        first: Option<&Uint8Array>,
    ) -> Result<LazyOpened, DbError> {
        let fresh = !self.channel.is_running();
        if fresh {
            self.channel.start()?;
        }
        let outcome = self.exchange_open(&source, first).await;
        if fresh && outcome.is_err() {
            // That worker has nothing open, not even the database that was: the next request
            // starts another and opens that one again.
            self.channel.stop();
        }
        let found = outcome?;
        self.total_reads.set(found.reads);
        *self.opened.borrow_mut() = Some(Opened {
            source,
            found: found.clone(),
            changed: None,
        });
        Ok(found)
    }

    /// Opens `source` in the worker; `first`: a URL's first bytes, which only its first open has
    /// (a fresh worker reads the header again, and the server's answer must agree with the
    /// pins).
    async fn exchange_open(
        &self,
        source: &Source,
        first: Option<&Uint8Array>,
    ) -> Result<LazyOpened, DbError> {
        let message = match source {
            Source::File(file) => {
                let message = simple_message("openFile");
                set(&message, "file", file);
                message
            }
            Source::Url { url, pins } => {
                let message = simple_message("openUrl");
                set(&message, "url", &JsValue::from_str(url));
                set(&message, "size", &JsValue::from(pins.size as f64));
                let text = |value: &Option<String>| {
                    value.as_deref().map_or(JsValue::NULL, JsValue::from_str)
                };
                set(&message, "etag", &text(&pins.etag));
                set(&message, "lastModified", &text(&pins.last_modified));
                let none = Uint8Array::new_with_length(0);
                set(&message, "first", first.unwrap_or(&none));
                message
            }
        };
        if let Some(bytes) = self.cache_bytes.get() {
            set(&message, "cacheBytes", &JsValue::from(bytes as f64));
        }
        let reply = self.channel.exchange(message, OPEN_DEADLINE_MS).await;
        let (value, reply) = match reply {
            Reply::Ok { value, reply } => (value, reply),
            Reply::Failed { message, reply } => {
                self.note_reads(&reply);
                return Err(failure(&message, &reply, OPEN_DEADLINE_MS));
            }
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
        let reads = self.note_reads(&reply).unwrap_or_default();
        let found = decode_opened(&value, source, reads);
        check_header(&found.identity.header, found.identity.size).map_err(DbError::NotADatabase)?;
        Ok(found)
    }

    /// Starts a worker when none runs, and opens the database in it again; it must be the same
    /// one. The caller holds the turn.
    async fn ensure_worker(&self) -> Result<(), DbError> {
        if let Some(why) = self.changed() {
            return Err(DbError::Changed(why));
        }
        if self.channel.is_running() {
            return Ok(());
        }
        self.channel.start()?;
        let Some((source, before)) = self
            .opened
            .borrow()
            .as_ref()
            .map(|o| (o.source.clone(), o.found.identity.clone()))
        else {
            return Ok(());
        };
        let outcome = self.exchange_open(&source, None).await;
        let found = match outcome {
            Ok(found) => found,
            Err(DbError::Changed(why)) => {
                // The file is not what it was: say so from now on.
                self.channel.stop();
                return Err(self.mark_changed(why));
            }
            Err(error @ (DbError::Remote(_) | DbError::NotADatabase(_))) => {
                self.channel.stop();
                return Err(self.mark_changed(error.to_string()));
            }
            Err(DbError::Unavailable(why)) => {
                self.channel.stop();
                return Err(DbError::Unavailable(why));
            }
            Err(other) => {
                self.channel.stop();
                return Err(DbError::Unavailable(format!(
                    "the open database could not be opened again ({other})"
                )));
            }
        };
        if !found.identity.same_as(&before) {
            self.channel.stop();
            return Err(self.mark_changed(
                "it is not the file that was opened any more (its size, header or sampled \
                 pages differ, or the server's ETag or Last-Modified): open it again to read it \
                 as it is now"
                    .into(),
            ));
        }
        Ok(())
    }

    fn changed(&self) -> Option<String> {
        self.opened
            .borrow()
            .as_ref()
            .and_then(|o| o.changed.clone())
    }

    fn mark_changed(&self, why: String) -> DbError {
        if let Some(opened) = self.opened.borrow_mut().as_mut() {
            opened.changed = Some(why.clone());
        }
        DbError::Changed(why)
    }

    /// Turns a reply into a value or an error. A worker that died or ran out of time has been
    /// dropped; the next request starts a fresh one. The caller holds the turn.
    async fn answer(&self, reply: Reply, deadline_ms: u32) -> Result<JsValue, DbError> {
        match reply {
            Reply::Ok { value, reply } => {
                self.note_reads(&reply);
                Ok(value)
            }
            Reply::Failed { message, reply } => {
                self.note_reads(&reply);
                let error = failure(&message, &reply, deadline_ms);
                if let DbError::Changed(why) = error {
                    return Err(self.mark_changed(why));
                }
                Err(error)
            }
            Reply::TooLarge(limit_bytes) => Err(DbError::TooLarge { limit_bytes }),
            Reply::Unavailable(why) => Err(DbError::Unavailable(why)),
            Reply::Crashed(why) => {
                let reopened = self.is_open() && self.ensure_worker().await.is_ok();
                Err(DbError::Crashed { why, reopened })
            }
            Reply::TimedOut => {
                // The worker was terminated; a fresh one opens the database with the next
                // request (not now: the person may not ask another).
                Err(DbError::Timeout {
                    after_ms: deadline_ms,
                })
            }
        }
    }

    /// Keeps the reads a reply reports as the last ones, and adds them to the total.
    fn note_reads(&self, reply: &JsValue) -> Option<ReadStats> {
        let reads = decode_reads(&get(reply, "reads"))?;
        self.last_reads.set(Some(reads));
        self.total_reads.set(self.total_reads.get() + reads);
        Some(reads)
    }
}

impl Database for LazyDatabase {
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
        // Starting a worker (and opening the database in it) is not the query's time.
        self.ensure_worker().await?;
        self.last_reads.set(None);
        let message = run_message(sql, values, limits);
        set(
            &message,
            "deadlineMs",
            &JsValue::from(f64::from(limits.deadline_ms)),
        );
        // What is left now, in this query's turn: the queries before it have read their part.
        let budget = self.budget.get();
        let left = budget.map(|b| b.limit.saturating_sub(self.read_against(b)));
        let left_js = left.map_or(JsValue::NULL, |bytes| JsValue::from(bytes as f64));
        set(&message, "byteBudget", &left_js);
        let started = now_ms();
        let wait_ms = limits.deadline_ms.saturating_add(DEADLINE_GRACE_MS);
        let reply = self.channel.exchange(message, wait_ms).await;
        let result = match (self.answer(reply, limits.deadline_ms).await, budget) {
            // The worker knows what was left; the person and the model are told the budget.
            (Err(DbError::ByteBudget { .. }), Some(budget)) => {
                return Err(DbError::ByteBudget {
                    limit_bytes: budget.limit,
                    read_bytes: self.read_against(budget),
                })
            }
            (outcome, _) => outcome?,
        };
        let rows = decode_rows(&result);
        Ok(QueryResult {
            columns: rows.columns,
            rows: rows.rows,
            truncated: rows.truncated,
            total_rows: rows.total_rows,
            elapsed_ms: now_ms() - started,
            reads: Some(self.last_reads.get().unwrap_or_default()),
        })
    }
}

/// The error a worker's `{error, kind, …}` reply stands for.
fn failure(message: &str, reply: &JsValue, deadline_ms: u32) -> DbError {
    let number = |key: &str| get(reply, key).as_f64().unwrap_or(0.0) as u64;
    match get(reply, "kind").as_string().as_deref() {
        Some("notADatabase") => DbError::NotADatabase(message.to_string()),
        Some("interrupted") => DbError::Timeout {
            after_ms: deadline_ms,
        },
        Some("budget") => DbError::ByteBudget {
            limit_bytes: number("limitBytes"),
            read_bytes: number("readBytes"),
        },
        Some("changed") => DbError::Changed(message.to_string()),
        Some("readFailed") => DbError::ReadFailed(message.to_string()),
        Some("remote") => DbError::Remote(decode_problem(&get(reply, "problem"))),
        _ => DbError::Sqlite(message.to_string()),
    }
}

fn decode_problem(problem: &JsValue) -> RemoteProblem {
    let text = |key: &str| get(problem, key).as_string().unwrap_or_default();
    match get(problem, "kind").as_string().as_deref() {
        Some("rangeIgnored") => RemoteProblem::RangeIgnored {
            size: get(problem, "size").as_f64().map(|n| n as u64),
        },
        Some("status") => RemoteProblem::Status {
            status: get(problem, "status").as_f64().unwrap_or(0.0) as u16,
        },
        Some("headerHidden") => RemoteProblem::HeaderHidden {
            header: text("header"),
        },
        Some("headerMissing") => RemoteProblem::HeaderMissing {
            header: text("header"),
        },
        Some("badContentRange") => RemoteProblem::BadContentRange {
            value: text("value"),
        },
        Some("noLength") => RemoteProblem::NoLength,
        Some("noValidator") => RemoteProblem::NoValidator {
            size: get(problem, "size").as_f64().unwrap_or(0.0) as u64,
        },
        _ => RemoteProblem::Unreachable { why: text("why") },
    }
}

fn decode_reads(reads: &JsValue) -> Option<ReadStats> {
    if reads.is_null() || reads.is_undefined() {
        return None;
    }
    let number = |key: &str| get(reads, key).as_f64().unwrap_or(0.0) as u64;
    Some(ReadStats {
        bytes: number("bytes"),
        requests: number("requests"),
        waited_ms: None,
    })
}

fn decode_opened(value: &JsValue, source: &Source, reads: ReadStats) -> LazyOpened {
    let number = |key: &str| get(value, key).as_f64().unwrap_or(0.0) as u64;
    let text = |key: &str| get(value, key).as_string();
    let header = get(value, "header")
        .dyn_into::<Uint8Array>()
        .map(|h| h.to_vec())
        .unwrap_or_default();
    let sampled_pages = Array::from(&get(value, "sampledPages"))
        .iter()
        .filter_map(|p| p.as_f64())
        .map(|p| p as u64)
        .collect();
    let remote = match source {
        Source::File(_) => None,
        Source::Url { url, pins } => Some(RemoteValidators {
            url: url.clone(),
            etag: pins.etag.clone(),
            last_modified: pins.last_modified.clone(),
        }),
    };
    LazyOpened {
        identity: LazyIdentity {
            size: number("size"),
            header,
            sampled_pages,
            sample_sha256: text("sampleSha256"),
            remote,
        },
        page_size: number("pageSize") as u32,
        page_count: number("pageCount"),
        cache_bytes: number("cacheBytes"),
        reads,
    }
}
