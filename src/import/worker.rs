//! The import worker's side (wasm32 only; the `askdb-import-worker` binary, built by Trunk as a
//! worker and started by `client::ImportJob`): files read with `FileReaderSync` in slices
//! ([`BlobSource`]), parsed here in Rust, written into a new in-memory sql.js database in one
//! transaction, in batches of rows ([`SqlJsSink`]), then exported.
//!
//! Messages in:  `{type: "start", base, files: [File, …]}`, base: the address of the folder
//!               holding sql-wasm.js and sql-wasm.wasm (the page's).
//! Messages out: `{ready: true}` once it listens (the client sends "start" after it);
//!               `{progress: fraction, rowsRead}` now and then;
//!               `{done: true, bytes: Uint8Array (its buffer transferred), report: JSON text of
//!               an ImportReport, sentences: [sentence…]}` at the end, or `{said: sentence}`
//!               (an import error's facts) or `{error: message}` (the browser's own words).
//!               A sentence is `{id, values: [[name, kind, value]…]}`, kind `n` (a number),
//!               `k` (a key), `d` (data) or `s` (a sentence): the page says it in its language
//!               (`import::sentence`), since this worker has no catalogue.
//! Stop is the client terminating this worker: nothing here waits for a signal.

use super::report::sentences;
use super::sentence::{self, Sentence};
use super::sink::Sink;
use super::source::ByteSource;
use super::{import_files, InputFile, Progress};
use crate::engine::Value;
use js_sys::{Array, Object, Reflect, Uint8Array};
use std::io::{self, Read};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, DedicatedWorkerGlobalScope, File, FileReaderSync, MessageEvent};

#[wasm_bindgen]
extern "C" {
    /// sql.js's `Database`.
    type SqlDatabase;
    #[wasm_bindgen(method, catch)]
    fn exec(this: &SqlDatabase, sql: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn prepare(this: &SqlDatabase, sql: &str) -> Result<SqlStatement, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn export(this: &SqlDatabase) -> Result<Uint8Array, JsValue>;
    #[wasm_bindgen(method)]
    fn close(this: &SqlDatabase);

    /// sql.js's `Statement`.
    type SqlStatement;
    /// Binds the values, steps once and resets.
    #[wasm_bindgen(method, catch)]
    fn run(this: &SqlStatement, values: &Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method)]
    fn free(this: &SqlStatement) -> bool;
}

/// Slices read from a `File` at a time.
const SLICE_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// Starts listening; the binary's `main`.
pub fn run() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        wasm_bindgen_futures::spawn_local(async move {
            let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
            match start(&event.data()).await {
                Ok(()) => {}
                Err(failure) => {
                    let out = Object::new();
                    let _ = match failure {
                        Failure::Said(said) => {
                            Reflect::set(&out, &"said".into(), &sentence_js(&said))
                        }
                        Failure::Other(message) => {
                            Reflect::set(&out, &"error".into(), &message.into())
                        }
                    };
                    let _ = scope.post_message(&out);
                }
            }
        });
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let ready = Object::new();
    let _ = Reflect::set(&ready, &"ready".into(), &JsValue::TRUE);
    let _ = scope.post_message(&ready);
}

/// Why an import failed: facts the page says in its language, or the browser's (or sql.js's)
/// own words.
enum Failure {
    Said(Sentence),
    Other(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Other(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::Other(message.to_string())
    }
}

/// A sentence as the page reads it back (`client`).
fn sentence_js(said: &Sentence) -> JsValue {
    let values: Array = said
        .values
        .iter()
        .map(|(name, value)| {
            let (kind, value) = match value {
                sentence::Value::Number(n) => ("n", JsValue::from(*n)),
                sentence::Value::Key(key) => ("k", JsValue::from(key)),
                sentence::Value::Data(data) => ("d", JsValue::from(data)),
                sentence::Value::Said(inner) => ("s", sentence_js(inner)),
            };
            JsValue::from(Array::of3(&name.into(), &kind.into(), &value))
        })
        .collect();
    let out = Object::new();
    let _ = Reflect::set(&out, &"id".into(), &said.id.as_str().into());
    let _ = Reflect::set(&out, &"values".into(), &values);
    out.into()
}

fn describe_js(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

async fn start(message: &JsValue) -> Result<(), Failure> {
    let get = |key: &str| Reflect::get(message, &key.into()).unwrap_or(JsValue::UNDEFINED);
    if get("type").as_string().as_deref() != Some("start") {
        return Err("the import worker expected a start message".into());
    }
    let base = get("base").as_string().ok_or("start without a base")?;
    let files: Vec<File> = Array::from(&get("files"))
        .iter()
        .map(|f| f.dyn_into::<File>())
        .collect::<Result<_, _>>()
        .map_err(|_| "start's files must be File objects")?;
    let sql = load_sql_js(&base).await?;
    let ctor = Reflect::get(&sql, &"Database".into()).map_err(|e| describe_js(&e))?;
    let db: SqlDatabase =
        Reflect::construct(ctor.unchecked_ref::<js_sys::Function>(), &Array::new())
            .map_err(|e| describe_js(&e))?
            .unchecked_into();

    let sources: Vec<BlobSource> = files.iter().map(|f| BlobSource(f.clone().into())).collect();
    let inputs: Vec<InputFile> = files
        .iter()
        .zip(&sources)
        .map(|(f, s)| InputFile {
            name: f.name(),
            source: s,
        })
        .collect();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let mut said = -1.0;
    let mut progress = |p: Progress| {
        // A message per percent is plenty for a progress bar.
        if p.fraction - said >= 0.01 || p.fraction >= 1.0 && said < 1.0 {
            said = p.fraction;
            let out = Object::new();
            let _ = Reflect::set(&out, &"progress".into(), &p.fraction.into());
            let _ = Reflect::set(&out, &"rowsRead".into(), &(p.rows_read as f64).into());
            let _ = scope.post_message(&out);
        }
    };
    let mut sink = SqlJsSink {
        db: &db,
        insert: None,
        row: Array::new(),
        began: false,
        prefix: String::new(),
        batch: String::new(),
        batched: 0,
    };
    let outcome = import_files(&inputs, &mut sink, &mut progress);
    sink.drop_statement();
    let report = match outcome {
        Ok(report) => report,
        Err(e) => {
            db.close();
            return Err(Failure::Said(e.sentence()));
        }
    };
    let bytes = db.export().map_err(|e| describe_js(&e));
    db.close();
    let bytes = bytes?;
    let out = Object::new();
    let _ = Reflect::set(&out, &"done".into(), &JsValue::TRUE);
    let _ = Reflect::set(&out, &"bytes".into(), &bytes);
    let json = serde_json::to_string(&report).map_err(|e| e.to_string())?;
    let _ = Reflect::set(&out, &"report".into(), &json.into());
    let sentences: Array = sentences(&report).iter().map(sentence_js).collect();
    let _ = Reflect::set(&out, &"sentences".into(), &sentences);
    let transfer = Array::of1(&bytes.buffer());
    scope
        .post_message_with_transfer(&out, &transfer)
        .map_err(|e| describe_js(&e).into())
}

/// sql.js, loaded into this worker from `base` (`initSqlJs`'s module object).
async fn load_sql_js(base: &str) -> Result<JsValue, Failure> {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let url = |file: &str| {
        web_sys::Url::new_with_base(file, base)
            .map(|u| u.href())
            .map_err(|e| describe_js(&e))
    };
    scope
        .import_scripts_1(&url("sql-wasm.js")?)
        .map_err(|e| sql_js_failed("open-import-sqljs-not-loaded", &e))?;
    let init: js_sys::Function = Reflect::get(&scope, &"initSqlJs".into())
        .map_err(|e| describe_js(&e))?
        .dyn_into()
        .map_err(|_| "sql-wasm.js did not define initSqlJs")?;
    let wasm_url = url("sql-wasm.wasm")?;
    let locate = Closure::<dyn Fn(String) -> String>::new(move |_file: String| wasm_url.clone());
    let config = Object::new();
    let _ = Reflect::set(&config, &"locateFile".into(), locate.as_ref());
    let promise: js_sys::Promise = init
        .call1(&JsValue::NULL, &config)
        .map_err(|e| describe_js(&e))?
        .dyn_into()
        .map_err(|_| "initSqlJs did not answer a promise")?;
    let module = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| sql_js_failed("open-import-sqljs-not-started", &e))?;
    drop(locate);
    Ok(module)
}

/// sql.js did not load or start (`id`: which), with the browser's words.
fn sql_js_failed(id: &str, error: &JsValue) -> Failure {
    Failure::Said(Sentence::new(id).data("why", describe_js(error)))
}

/// A `Blob` (a `File`) read from its start in slices with `FileReaderSync`: the file is never
/// held whole, and each pass reads it anew.
pub struct BlobSource(pub Blob);

impl ByteSource for BlobSource {
    fn size(&self) -> u64 {
        self.0.size() as u64
    }
    fn open(&self) -> io::Result<Box<dyn Read + '_>> {
        let reader = FileReaderSync::new().map_err(|e| io::Error::other(describe_js(&e)))?;
        Ok(Box::new(BlobReader {
            blob: &self.0,
            reader,
            offset: 0.0,
            buf: Vec::new(),
            at: 0,
        }))
    }
}

struct BlobReader<'b> {
    blob: &'b Blob,
    reader: FileReaderSync,
    offset: f64,
    buf: Vec<u8>,
    at: usize,
}

impl Read for BlobReader<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.buf.len() {
            let size = self.blob.size();
            if self.offset >= size {
                return Ok(0);
            }
            let end = (self.offset + SLICE_BYTES).min(size);
            let slice = self
                .blob
                .slice_with_f64_and_f64(self.offset, end)
                .map_err(|e| io::Error::other(describe_js(&e)))?;
            let buffer = self
                .reader
                .read_as_array_buffer(&slice)
                .map_err(|e| io::Error::other(describe_js(&e)))?;
            self.buf = Uint8Array::new(&buffer).to_vec();
            self.at = 0;
            self.offset = end;
            if self.buf.is_empty() {
                return Ok(0);
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Rows into sql.js, in batches: many rows written as one multi-row `INSERT … VALUES (…), (…)`
/// of SQL literals (`Value::sql_literal`, text quoted with `''`), run as one statement. Measured
/// (docs/benchmarks.md), binding each value through sql.js's `Statement.run` costs a call into
/// JavaScript and a copy per value, about three times the whole import; a batch crosses once.
/// A row that SQL text cannot carry goes through the prepared statement instead, its values
/// bound ([`needs_binding`]).
struct SqlJsSink<'d> {
    db: &'d SqlDatabase,
    insert: Option<SqlStatement>,
    row: Array,
    began: bool,
    /// `INSERT INTO "t" VALUES ` for the table being written.
    prefix: String,
    batch: String,
    batched: usize,
}

/// A batch is run once it holds this many bytes of SQL (or [`BATCH_ROWS`] rows).
const BATCH_BYTES: usize = 1 << 20;
const BATCH_ROWS: usize = 2000;

impl SqlJsSink<'_> {
    fn drop_statement(&mut self) {
        if let Some(statement) = self.insert.take() {
            statement.free();
        }
    }

    fn flush(&mut self) -> Result<(), String> {
        if self.batched > 0 {
            self.db.exec(&self.batch).map_err(|e| describe_js(&e))?;
        }
        self.batch.clear();
        self.batched = 0;
        Ok(())
    }

    fn bind_row(&mut self, row: &[Value]) -> Result<(), String> {
        let statement = self.insert.as_ref().ok_or("no table was made")?;
        self.row.set_length(row.len() as u32);
        for (i, v) in row.iter().enumerate() {
            self.row.set(i as u32, to_js(v));
        }
        statement.run(&self.row).map_err(|e| describe_js(&e))?;
        Ok(())
    }
}

/// Integers beyond 2^53 go to sql.js as BigInt (bound as exact text, which the INTEGER column
/// turns back into an integer); a plain number would lose their last digits.
const SAFE_INTEGER: i64 = 9_007_199_254_740_991;

fn to_js(v: &Value) -> JsValue {
    match v {
        Value::Null => JsValue::NULL,
        Value::Integer(i) if i.abs() <= SAFE_INTEGER => JsValue::from_f64(*i as f64),
        Value::Integer(i) => js_sys::BigInt::from(*i).into(),
        Value::Real(r) => JsValue::from_f64(*r),
        Value::Text(t) => JsValue::from_str(t),
        Value::Blob(b) => Uint8Array::from(b.as_slice()).into(),
    }
}

/// Whether `row` holds a value SQL text cannot carry: a NUL character in a text (it would end
/// the SQL text early), or an infinite real (a JSON number past the largest double, which
/// `Value::sql_literal` writes as NULL).
fn needs_binding(row: &[Value]) -> bool {
    row.iter().any(|v| match v {
        Value::Text(t) => t.contains('\0'),
        Value::Real(r) => !r.is_finite(),
        _ => false,
    })
}

impl Sink for SqlJsSink<'_> {
    fn create_table(&mut self, create_sql: &str, insert_sql: &str) -> Result<(), String> {
        if !self.began {
            self.db.exec("BEGIN").map_err(|e| describe_js(&e))?;
            self.began = true;
        }
        self.flush()?;
        self.drop_statement();
        self.db.exec(create_sql).map_err(|e| describe_js(&e))?;
        let values_at = insert_sql
            .rfind("VALUES")
            .ok_or("an INSERT without VALUES")?;
        self.prefix = format!("{}VALUES ", &insert_sql[..values_at]);
        self.insert = Some(self.db.prepare(insert_sql).map_err(|e| describe_js(&e))?);
        Ok(())
    }

    fn insert(&mut self, row: &[Value]) -> Result<(), String> {
        if needs_binding(row) {
            self.flush()?;
            return self.bind_row(row);
        }
        use std::fmt::Write;
        self.batch.push_str(if self.batched == 0 {
            &self.prefix
        } else {
            ", "
        });
        self.batch.push('(');
        for (i, v) in row.iter().enumerate() {
            if i > 0 {
                self.batch.push_str(", ");
            }
            match v {
                // Written straight into the batch: no string per value.
                Value::Integer(n) => {
                    let _ = write!(self.batch, "{n}");
                }
                Value::Null => self.batch.push_str("NULL"),
                other => self.batch.push_str(&other.sql_literal()),
            }
        }
        self.batch.push(')');
        self.batched += 1;
        if self.batched >= BATCH_ROWS || self.batch.len() >= BATCH_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    fn commit(&mut self) -> Result<(), String> {
        self.flush()?;
        self.drop_statement();
        if self.began {
            self.db.exec("COMMIT").map_err(|e| describe_js(&e))?;
            self.began = false;
        }
        Ok(())
    }
}
