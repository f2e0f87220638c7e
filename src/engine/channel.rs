//! One Web Worker that runs SQL, and the request/reply protocol both engines' workers speak
//! (`www/worker.js`: sql.js; `www/lazy-worker.js`: SQLite read on demand).
//!
//! A [`WorkerChannel`] starts its worker on demand, posts one request at a time with an `id`,
//! and waits for the reply with that `id`, the worker's death or a deadline. A worker that did
//! not answer in time, died, or never started is terminated at once (a runaway statement would
//! otherwise keep a core busy); what to reopen in a fresh one is the engine's business.
//!
//! Every reply is `{id, ok}`, `{id, error, …}`, `{id, tooLarge}`, `{id, unavailable}` or
//! `{id, crashed}`; before it, a worker may say how far the request got (`{id, progress}`,
//! 0.0–1.0: an open's reading), which goes to [`WorkerChannel::set_progress`]. The whole reply travels with [`Reply::Ok`] and [`Reply::Failed`] so that an
//! engine can read what else its worker sends (`reads`, `kind`, …).

use super::{DbError, QueryLimits, ReadOnlySql, RowCount, Value};
use crate::browser::{describe, page_address, page_origin};
use futures::channel::oneshot;
use futures::future::{select, Either};
use gloo_timers::future::TimeoutFuture;
use js_sys::{Array, Object, Reflect, Uint8Array};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, ErrorEvent, Event, MessageEvent, Url, Worker};

/// What the worker answered.
pub(super) enum Reply {
    /// `value` is the reply's `ok`; `reply` the whole message.
    Ok { value: JsValue, reply: JsValue },
    /// The request failed; the worker is fine (SQLite's message, "file is not a database", …).
    Failed { message: String, reply: JsValue },
    /// The rows to send would pass the worker's limit, in bytes; the worker is fine.
    TooLarge(u64),
    /// SQLite never started in this worker (its code or the worker script did not load).
    Unavailable(String),
    /// The worker died or its wasm aborted; it has been dropped.
    Crashed(String),
    /// No reply before the deadline; the worker has been dropped.
    TimedOut,
}

/// The request waiting for its reply: at most one at a time.
type Waiting = Rc<RefCell<Option<(u32, oneshot::Sender<Reply>)>>>;

/// Told how far the request waiting for its reply got.
type Progress = Rc<RefCell<Option<Box<dyn Fn(f64)>>>>;

/// The `id` of the worker's first message ("init"); requests count from 1.
const INIT_ID: u32 = 0;

/// One running worker. Dropping it terminates the worker.
struct Running {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// A worker script and, while it runs, its worker. The caller sends one request at a time.
pub(super) struct WorkerChannel {
    /// Absolute URL of the worker script; what it loads sits beside it.
    script_url: String,
    running: RefCell<Option<Running>>,
    waiting: Waiting,
    next_id: Cell<u32>,
    progress: Progress,
}

impl WorkerChannel {
    /// A channel to the worker script at `script_url` (absolute, or relative to the page).
    /// Nothing starts yet.
    pub fn new(script_url: &str) -> Result<WorkerChannel, DbError> {
        let script_url = Url::new_with_base(script_url, &page_address())
            .map_err(|e| DbError::Unavailable(format!("bad worker address: {}", describe(&e))))?
            .href();
        Ok(WorkerChannel::at(script_url))
    }

    /// Another channel to the same script, with no worker running.
    pub fn sibling(&self) -> WorkerChannel {
        WorkerChannel::at(self.script_url.clone())
    }

    fn at(script_url: String) -> WorkerChannel {
        WorkerChannel {
            script_url,
            running: RefCell::new(None),
            waiting: Rc::new(RefCell::new(None)),
            next_id: Cell::new(INIT_ID + 1),
            progress: Rc::new(RefCell::new(None)),
        }
    }

    /// Who is told how far the requests that follow got, when their worker says (`None`: no
    /// one).
    pub fn set_progress(&self, progress: Option<Box<dyn Fn(f64)>>) {
        *self.progress.borrow_mut() = progress;
    }

    pub fn is_running(&self) -> bool {
        self.running.borrow().is_some()
    }

    /// Terminates the worker, if one runs.
    pub fn stop(&self) {
        self.running.borrow_mut().take();
    }

    /// Starts a fresh worker (stopping the one that ran) and tells it where it was loaded from.
    pub fn start(&self) -> Result<(), DbError> {
        self.stop();
        let running = self.start_worker().map_err(DbError::Unavailable)?;
        *self.running.borrow_mut() = Some(running);
        Ok(())
    }

    /// Posts one request to the running worker and waits for its reply, its worker's death or
    /// the deadline. A worker that did not answer in time, died or never started is dropped.
    /// If the caller stops waiting (the future is dropped: a Stop button), the worker is
    /// terminated at once, as at a deadline.
    pub async fn exchange(&self, message: Object, deadline_ms: u32) -> Reply {
        let id = self.number(&message);
        let (sender, receiver) = oneshot::channel();
        *self.waiting.borrow_mut() = Some((id, sender));

        let posted = match self.running.borrow().as_ref() {
            Some(running) => running.worker.post_message(&message),
            None => Err(JsValue::from_str("no worker")),
        };
        if let Err(e) = posted {
            self.waiting.borrow_mut().take();
            return Reply::Failed {
                message: format!("the request could not be sent: {}", describe(&e)),
                reply: JsValue::UNDEFINED,
            };
        }

        let mut abandoned = StopIfAbandoned {
            channel: self,
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
            self.stop();
        }
        reply
    }

    /// Posts `message` to the running worker with no reply awaited (one it sends is dropped):
    /// work it does ahead, which the next request waits for in the worker's own order.
    pub fn post(&self, message: Object) -> Result<(), DbError> {
        self.number(&message);
        match self.running.borrow().as_ref() {
            Some(running) => running.worker.post_message(&message).map_err(|e| {
                DbError::Unavailable(format!("the request could not be sent: {}", describe(&e)))
            }),
            None => Err(DbError::Unavailable("no worker".into())),
        }
    }

    /// Gives `message` the next request's `id`, and returns it.
    fn number(&self, message: &Object) -> u32 {
        let id = self.next_id.get();
        self.next_id.set(id.checked_add(1).unwrap_or(INIT_ID + 1));
        set(message, "id", &JsValue::from(id));
        id
    }

    fn start_worker(&self) -> Result<Running, String> {
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
                init_answered.set(matches!(decode_reply(data), Reply::Ok { .. }));
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
            let _ = sender.send(decode_reply(data));
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

        // Tell the worker where it was loaded from (what it needs sits beside it), even when it
        // runs from a blob: URL.
        let init = simple_message("init");
        set(&init, "base", &JsValue::from_str(&self.script_url));
        set(&init, "id", &JsValue::from(INIT_ID));
        worker
            .post_message(&init)
            .map_err(|e| format!("the worker did not start: {}", describe(&e)))?;

        Ok(Running {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    }
}

/// Stops a request whose caller stopped waiting (its future was dropped: the console's Stop
/// button, a cancelled question): the worker is terminated at once, as at a deadline, so the
/// statement does not run on.
struct StopIfAbandoned<'a> {
    channel: &'a WorkerChannel,
    answered: bool,
}

impl Drop for StopIfAbandoned<'_> {
    fn drop(&mut self) {
        if !self.answered {
            self.channel.waiting.borrow_mut().take();
            self.channel.stop();
        }
    }
}

/// Starts a worker script. A script on another origin (the test harness serves it from a
/// second server) cannot be a worker directly, so a same-origin blob that imports it stands in.
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

pub(super) fn simple_message(kind: &str) -> Object {
    let message = Object::new();
    set(&message, "type", &JsValue::from_str(kind));
    message
}

fn decode_reply(data: JsValue) -> Reply {
    if let Some(why) = get(&data, "crashed").as_string() {
        return Reply::Crashed(why);
    }
    if let Some(why) = get(&data, "unavailable").as_string() {
        return Reply::Unavailable(why);
    }
    if let Some(limit_bytes) = get(&data, "tooLarge").as_f64() {
        return Reply::TooLarge(limit_bytes as u64);
    }
    if let Some(message) = get(&data, "error").as_string() {
        return Reply::Failed {
            message,
            reply: data,
        };
    }
    Reply::Ok {
        value: get(&data, "ok"),
        reply: data,
    }
}

/// A `run` request as both workers read it: the statement, its bound values, the row cap, and
/// how long counting rows past the cap may take.
pub(super) fn run_message(sql: &ReadOnlySql, values: &[Value], limits: &QueryLimits) -> Object {
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
    message
}

/// The rows of a `run` reply, as both workers send them: `{columns, rows, truncated, total,
/// totalExact}`, integers as BigInt.
pub(super) struct DecodedRows {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
    pub truncated: bool,
    pub total_rows: RowCount,
}

pub(super) fn decode_rows(result: &JsValue) -> DecodedRows {
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
    DecodedRows {
        columns,
        rows,
        truncated: get(result, "truncated").as_bool().unwrap_or(false),
        total_rows,
    }
}

/// The values to bind, as both workers bind them: integers as BigInt (exact), reals as
/// numbers, blobs as bytes.
pub(super) fn encode_values(values: &[Value]) -> Array {
    values.iter().map(encode_value).collect()
}

fn encode_value(value: &Value) -> JsValue {
    match value {
        Value::Null => JsValue::NULL,
        Value::Integer(i) => JsValue::from(*i),
        Value::Real(r) => JsValue::from(*r),
        Value::Text(t) => JsValue::from_str(t),
        Value::Blob(b) => Uint8Array::from(b.as_slice()).into(),
    }
}

/// The workers send integers as BigInt (exact; told apart from reals), reals as numbers.
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

pub(super) fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

pub(super) fn set(target: &Object, key: &str, value: &JsValue) {
    // Setting a plain property on a fresh plain object cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}
