//! The page's database: sql.js running in a Web Worker (`www/worker.js`).
//!
//! The page thread never runs SQL. Each request is posted to the worker and raced against a
//! deadline; sql.js cannot interrupt a statement, so a query that outlives its deadline is
//! stopped by terminating the worker, starting a fresh one and reopening the database from its
//! source, kept here as a `Blob` (the `File` the person chose, or the bytes downloaded): the
//! worker reads it itself, so the page never holds the file's bytes nor copies them into a
//! message. A request whose future is dropped before its reply (a Stop button) is stopped the
//! same way.

use super::file_check::{check_header, HEADER_LEN};
use super::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, RowCount, Value};
use crate::browser::{describe, now_ms, page_address, page_origin};
use futures::channel::oneshot;
use futures::future::{select, Either};
use futures::lock::Mutex;
use gloo_timers::future::TimeoutFuture;
use js_sys::{Array, Object, Reflect, Uint8Array};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, ErrorEvent, Event, MessageEvent, Url, Worker};

/// Opening copies the whole file into the worker and reads its schema once; even a very large
/// file takes seconds, not minutes.
const OPEN_DEADLINE_MS: u32 = 120_000;
/// Starting sql.js (fetching and compiling its wasm) and exporting have no query deadline.
const SERVICE_DEADLINE_MS: u32 = 120_000;

/// What the worker answered.
enum Reply {
    Ok(JsValue),
    /// The request failed; the worker is fine (SQLite's message, "file is not a database", …).
    Failed(String),
    /// The rows to send would pass the worker's limit, in bytes; the worker is fine.
    TooLarge(u64),
    /// The file could not be read; the worker is fine.
    Unreadable(String),
    /// SQLite never started in this worker (sql.js or the worker script did not load).
    Unavailable(String),
    /// The worker died or its wasm aborted; it must be replaced.
    Crashed(String),
    TimedOut,
}

/// The request waiting for its reply: at most one at a time.
type Waiting = Rc<RefCell<Option<(u32, oneshot::Sender<Reply>)>>>;

/// The `id` of the worker's first message ("init"); requests count from 1.
const INIT_ID: u32 = 0;

/// One running worker. Dropping it terminates the worker.
struct Engine {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// A read-only SQLite database in a Web Worker.
pub struct WorkerDatabase {
    /// Absolute URL of `worker.js`; `sql-wasm.js` and `sql-wasm.wasm` sit beside it.
    script_url: String,
    engine: RefCell<Option<Engine>>,
    waiting: Waiting,
    next_id: Cell<u32>,
    /// Where the open database's bytes are, as the person gave them (a `File`, or the bytes
    /// downloaded): what a fresh worker reopens.
    pristine: RefCell<Option<Blob>>,
    /// One request at a time: the others wait their turn here.
    turn: Mutex<()>,
    /// Told how far the request waiting for its reply got, when it says (an open's reading).
    progress: Progress,
}

type Progress = Rc<RefCell<Option<Box<dyn Fn(f64)>>>>;

impl WorkerDatabase {
    /// A database engine whose worker script is at `script_url` (absolute, or relative to the
    /// page). The worker starts with the first request.
    pub fn new(script_url: &str) -> Result<WorkerDatabase, DbError> {
        let script_url = Url::new_with_base(script_url, &page_address())
            .map_err(|e| DbError::Unavailable(format!("bad worker address: {}", describe(&e))))?
            .href();
        Ok(WorkerDatabase {
            script_url,
            engine: RefCell::new(None),
            waiting: Rc::new(RefCell::new(None)),
            next_id: Cell::new(INIT_ID + 1),
            pristine: RefCell::new(None),
            turn: Mutex::new(()),
            progress: Rc::new(RefCell::new(None)),
        })
    }

    /// Another engine on the same worker script, with nothing open.
    pub fn sibling(&self) -> WorkerDatabase {
        WorkerDatabase {
            script_url: self.script_url.clone(),
            engine: RefCell::new(None),
            waiting: Rc::new(RefCell::new(None)),
            next_id: Cell::new(INIT_ID + 1),
            pristine: RefCell::new(None),
            turn: Mutex::new(()),
            progress: Rc::new(RefCell::new(None)),
        }
    }

    /// Starts the worker and loads SQLite in it, so that the first request (an open) need not
    /// wait for that.
    pub async fn warm(&self) -> Result<(), DbError> {
        let _turn = self.turn.lock().await;
        self.request(simple_message("warm"), SERVICE_DEADLINE_MS, DbError::Unavailable)
            .await
            .map(|_| ())
    }

    /// Closes the open database: its worker is stopped and its bytes let go.
    pub async fn close(&self) {
        let _turn = self.turn.lock().await;
        self.engine.borrow_mut().take();
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

        let _turn = self.turn.lock().await;
        // With no worker running, a fresh one opens the new bytes straight away: reopening the
        // kept ones first would be wasted work (they are replaced at once), and could fail.
        let fresh = self.engine.borrow().is_none();
        if fresh {
            let engine = self.start_engine().map_err(DbError::Unavailable)?;
            *self.engine.borrow_mut() = Some(engine);
        }
        *self.progress.borrow_mut() = Some(Box::new(progress));
        let reply = self.exchange(open_message(source), OPEN_DEADLINE_MS).await;
        self.progress.borrow_mut().take();
        if fresh && !matches!(reply, Reply::Ok(_)) {
            // That worker has no database open, not even the kept one: dropped, so that the next
            // request starts another and reopens the kept bytes in it.
            self.engine.borrow_mut().take();
        }
        // SQLite's verdict on the bytes ("file is not a database") is about the file.
        self.answer(reply, OPEN_DEADLINE_MS, DbError::NotADatabase)
            .await?;
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
        self.in_a_worker_of_its_own(message, None)
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
        self.in_a_worker_of_its_own(message, None)
            .await?
            .as_string()
            .ok_or_else(|| DbError::Unavailable("the worker gave no digest".into()))
    }

    /// Sends `message` (moving `transfer`) to a fresh worker, and stops that worker once it
    /// answered: what the work took goes with it.
    async fn in_a_worker_of_its_own(
        &self,
        message: Object,
        transfer: Option<Array>,
    ) -> Result<JsValue, DbError> {
        let _turn = self.turn.lock().await;
        self.engine.borrow_mut().take();
        let engine = self.start_engine().map_err(DbError::Unavailable)?;
        *self.engine.borrow_mut() = Some(engine);
        let reply = self
            .exchange_moving(message, transfer, OPEN_DEADLINE_MS)
            .await;
        self.engine.borrow_mut().take();
        match reply {
            Reply::Ok(value) => Ok(value),
            Reply::Failed(why) => Err(DbError::Sqlite(why)),
            Reply::TooLarge(limit_bytes) => Err(DbError::TooLarge { limit_bytes }),
            Reply::Unreadable(why) => Err(DbError::Unreadable(why)),
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
        let reply = self.exchange(message, deadline_ms).await;
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
            Reply::Ok(value) => Ok(value),
            Reply::Failed(message) => Err(failed(message)),
            Reply::TooLarge(limit_bytes) => Err(DbError::TooLarge { limit_bytes }),
            Reply::Unreadable(why) => Err(DbError::Unreadable(why)),
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
        if self.engine.borrow().is_some() {
            return Ok(());
        }
        let engine = self.start_engine().map_err(DbError::Unavailable)?;
        *self.engine.borrow_mut() = Some(engine);
        let Some(source) = self.source() else {
            return Ok(());
        };
        // These bytes opened before: a failure now is the engine's, not the file's. They stay
        // kept, so the next request tries again.
        let why = match self
            .exchange(open_message(&source), OPEN_DEADLINE_MS)
            .await
        {
            Reply::Ok(_) => return Ok(()),
            Reply::Unavailable(why) => why,
            Reply::Failed(why) | Reply::Crashed(why) | Reply::Unreadable(why) => {
                format!("the open database could not be opened again ({why})")
            }
            Reply::TooLarge(_) | Reply::TimedOut => {
                "the open database could not be opened again in time".to_string()
            }
        };
        self.engine.borrow_mut().take();
        Err(DbError::Unavailable(why))
    }

    /// Replaces the worker: a fresh one, with the open database reopened in it. True when a
    /// database was reopened. The caller holds the turn.
    async fn restart(&self) -> Result<bool, DbError> {
        self.engine.borrow_mut().take();
        if !self.is_open() {
            // Nothing to reopen: the next request starts a worker.
            return Ok(false);
        }
        self.ensure_engine().await?;
        Ok(true)
    }

    /// Posts one request to the running engine and waits for its reply, its worker's death or
    /// the deadline. A worker that did not answer in time, died or never started is dropped
    /// (terminated at once: a runaway statement would otherwise keep a core busy).
    async fn exchange(&self, message: Object, deadline_ms: u32) -> Reply {
        self.exchange_moving(message, None, deadline_ms).await
    }

    /// [`Self::exchange`], moving `transfer` (ArrayBuffers) to the worker instead of copying.
    async fn exchange_moving(
        &self,
        message: Object,
        transfer: Option<Array>,
        deadline_ms: u32,
    ) -> Reply {
        let id = self.next_id.get();
        self.next_id.set(id.checked_add(1).unwrap_or(INIT_ID + 1));
        set(&message, "id", &JsValue::from(id));
        let (sender, receiver) = oneshot::channel();
        *self.waiting.borrow_mut() = Some((id, sender));

        let posted = match (self.engine.borrow().as_ref(), &transfer) {
            (Some(engine), Some(transfer)) => {
                engine.worker.post_message_with_transfer(&message, transfer)
            }
            (Some(engine), None) => engine.worker.post_message(&message),
            (None, _) => Err(JsValue::from_str("no worker")),
        };
        if let Err(e) = posted {
            self.waiting.borrow_mut().take();
            return Reply::Failed(format!("the request could not be sent: {}", describe(&e)));
        }

        let mut abandoned = StopIfAbandoned {
            db: self,
            answered: false,
        };
        let reply = match select(receiver, TimeoutFuture::new(deadline_ms)).await {
            Either::Left((Ok(reply), _)) => reply,
            Either::Left((Err(_cancelled), _)) => Reply::Crashed("the worker went away".into()),
            Either::Right(((), _)) => Reply::TimedOut,
        };
        abandoned.answered = true;
        self.waiting.borrow_mut().take();
        if matches!(
            reply,
            Reply::Crashed(_) | Reply::TimedOut | Reply::Unavailable(_)
        ) {
            self.engine.borrow_mut().take();
        }
        reply
    }

    fn start_engine(&self) -> Result<Engine, String> {
        let worker = new_worker(&self.script_url)?;
        // Until the worker answers "init", a failure means it never started.
        let started = Rc::new(Cell::new(false));

        let waiting = self.waiting.clone();
        let progress = self.progress.clone();
        let init_answered = started.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            let id = get(&data, "id").as_f64().map(|n| n as u32);
            if id == Some(INIT_ID) {
                init_answered.set(matches!(decode_reply(&data), Reply::Ok(_)));
                return;
            }
            let mut slot = waiting.borrow_mut();
            // A reply to an abandoned request (its deadline passed) is dropped.
            let awaited =
                matches!((slot.as_ref(), id), (Some((expected, _)), Some(id)) if *expected == id);
            if !awaited {
                return;
            }
            // How far it got: not its answer.
            if let Some(fraction) = get(&data, "progress").as_f64() {
                drop(slot);
                if let Some(tell) = progress.borrow().as_ref() {
                    tell(fraction);
                }
                return;
            }
            let (_, sender) = slot.take().expect("checked above");
            let _ = sender.send(decode_reply(&data));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));

        let waiting = self.waiting.clone();
        // A missing script fires a plain `Event`; an uncaught exception an `ErrorEvent`.
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            event.prevent_default();
            let message = event
                .dyn_ref::<ErrorEvent>()
                .map(|e| e.message())
                .filter(|m| !m.is_empty());
            let reply = if started.get() {
                Reply::Crashed(message.unwrap_or_else(|| "the worker failed".into()))
            } else {
                Reply::Unavailable(
                    message.unwrap_or_else(|| "the worker script did not load".into()),
                )
            };
            if let Some((_, sender)) = waiting.borrow_mut().take() {
                let _ = sender.send(reply);
            }
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));

        // Tell the worker where sql.js is: next to worker.js, even when the worker runs from
        // a blob: URL.
        let init = simple_message("init");
        set(&init, "base", &JsValue::from_str(&self.script_url));
        set(&init, "id", &JsValue::from(INIT_ID));
        worker
            .post_message(&init)
            .map_err(|e| format!("the worker did not start: {}", describe(&e)))?;

        Ok(Engine {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    }
}

/// Stops a request whose caller stopped waiting (its future was dropped: the console's Stop
/// button, a cancelled question): the worker is terminated at once, as at a deadline, so the
/// statement does not run on. The next request starts a fresh worker with the kept bytes.
struct StopIfAbandoned<'a> {
    db: &'a WorkerDatabase,
    answered: bool,
}

impl Drop for StopIfAbandoned<'_> {
    fn drop(&mut self) {
        if !self.answered {
            self.db.waiting.borrow_mut().take();
            self.db.engine.borrow_mut().take();
        }
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
        let params: Array = values.iter().map(encode_value).collect();
        set(&message, "params", &params);
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
        let received = now_ms();
        let decoded = decode_result(&result, received - started);
        LAST_QUERY.set(QueryTimings {
            total_ms: received - started,
            sql_ms: get(&result, "sqlMs").as_f64().unwrap_or(f64::NAN),
            decode_ms: now_ms() - received,
        });
        decoded
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

/// Starts `worker.js`. A script on another origin (the test harness serves it from a second
/// server) cannot be a worker directly, so a same-origin blob that imports it stands in.
fn new_worker(script_url: &str) -> Result<Worker, String> {
    let failed = |e: JsValue| format!("the database worker did not start: {}", describe(&e));
    let script_origin = Url::new(script_url).map(|u| u.origin()).unwrap_or_default();
    if script_origin == page_origin() {
        return Worker::new(script_url).map_err(failed);
    }
    let source = format!(
        "importScripts({});",
        serde_json::to_string(script_url).map_err(|e| e.to_string())?
    );
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let parts = Array::of1(&JsValue::from_str(&source));
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(failed)?;
    let blob_url = Url::create_object_url_with_blob(&blob).map_err(failed)?;
    let worker = Worker::new(&blob_url).map_err(failed);
    let _ = Url::revoke_object_url(&blob_url);
    worker
}

fn simple_message(kind: &str) -> Object {
    let message = Object::new();
    set(&message, "type", &JsValue::from_str(kind));
    message
}

/// The source goes to the worker as a `Blob` (a handle: its bytes are not copied into the
/// message); the worker reads it.
fn open_message(source: &Blob) -> Object {
    let message = simple_message("open");
    set(&message, "source", source);
    message
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

fn decode_reply(data: &JsValue) -> Reply {
    if let Some(why) = get(data, "crashed").as_string() {
        return Reply::Crashed(why);
    }
    if let Some(why) = get(data, "unavailable").as_string() {
        return Reply::Unavailable(why);
    }
    if let Some(limit_bytes) = get(data, "tooLarge").as_f64() {
        return Reply::TooLarge(limit_bytes as u64);
    }
    if let Some(why) = get(data, "unreadable").as_string() {
        return Reply::Unreadable(why);
    }
    if let Some(message) = get(data, "error").as_string() {
        return Reply::Failed(message);
    }
    Reply::Ok(get(data, "ok"))
}

fn decode_result(result: &JsValue, elapsed_ms: f64) -> Result<QueryResult, DbError> {
    let columns: Vec<String> = Array::from(&get(result, "columns"))
        .iter()
        .map(|c| c.as_string().unwrap_or_default())
        .collect();
    let rows: Vec<Vec<Value>> = Array::from(&get(result, "rows"))
        .iter()
        .map(|row| Array::from(&row).iter().map(decode_value).collect())
        .collect();
    let total = get(result, "total").as_f64().unwrap_or(0.0) as u64;
    let total_rows = if get(result, "totalExact").as_bool().unwrap_or(false) {
        RowCount::Exact(total)
    } else {
        RowCount::MoreThan(total)
    };
    Ok(QueryResult {
        columns,
        rows,
        truncated: get(result, "truncated").as_bool().unwrap_or(false),
        total_rows,
        elapsed_ms,
    })
}

/// A value to bind, as sql.js binds it: integers as BigInt (exact), blobs as bytes.
fn encode_value(value: &Value) -> JsValue {
    match value {
        Value::Null => JsValue::NULL,
        Value::Integer(i) => JsValue::from(*i),
        Value::Real(r) => JsValue::from(*r),
        Value::Text(t) => JsValue::from_str(t),
        Value::Blob(b) => Uint8Array::from(b.as_slice()).into(),
    }
}

/// The worker sends integers as BigInt (exact; told apart from reals), reals as numbers.
fn decode_value(value: JsValue) -> Value {
    if value.is_null() || value.is_undefined() {
        Value::Null
    } else if value.is_bigint() {
        match i64::try_from(value.clone()) {
            Ok(i) => Value::Integer(i),
            Err(_) => Value::Text(describe(&value)),
        }
    } else if let Some(n) = value.as_f64() {
        Value::Real(n)
    } else if let Some(text) = value.as_string() {
        Value::Text(text)
    } else if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
        Value::Blob(bytes.to_vec())
    } else {
        Value::Text(describe(&value))
    }
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &Object, key: &str, value: &JsValue) {
    // Setting a plain property on a fresh plain object cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}
