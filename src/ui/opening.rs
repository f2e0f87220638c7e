//! Opening a database: read the bytes (a local file, or a download), hand them to the engine,
//! read the schema. Progress and errors go to the shared state; a failed open leaves the
//! database that was open as it was.
//!
//! The same ways in open a saved conversation: a file whose first bytes are JSON rather than
//! SQLite's header is read as one ([`conversation::read`], which refuses anything unsafe) and
//! handed to the chat to replay; one that looks like a notes file
//! ([`knowledge::looks_like_sidecar`]) is read as the open database's notes instead.
//! `?notes=` and "Open notes file" read a notes file and nothing else.
//!
//! The bytes stay in JavaScript memory (a `Uint8Array`) from the file or the network to the
//! worker: a 300 MB file is never copied into wasm memory, and never leaves the browser.

use super::knowledge;
use super::state::{AppState, Loading, OpenDatabase};
use crate::browser::{describe, finish_sha256, page_address, page_origin, start_sha256};
use crate::conversation::{self, sniff, FileKind, ReadError};
use crate::engine::schema;
use crate::knowledge::{sidecar, LIMITS};
use futures::channel::oneshot;
use js_sys::{Array, ArrayBuffer, Reflect, Uint8Array};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, FileReader, ProgressEvent, ReadableStreamDefaultReader, Response};

/// Where a database comes from.
pub enum Source {
    /// A file the person picked or dropped.
    File(File),
    /// An address (`?db=…`, or the demo); `name` is what the page calls it.
    Url { url: String, name: String },
    /// A notes file the person picked with "Open notes file".
    NotesFile(File),
    /// A notes file's address (`?notes=`).
    NotesUrl { url: String, name: String },
}

impl Source {
    /// The demo database shipped beside the page.
    pub fn demo() -> Source {
        Source::Url {
            url: "demo/shop.db".into(),
            name: "shop.db (demo)".into(),
        }
    }

    /// A notes file's address given in `?notes=`.
    pub fn notes_address(url: &str) -> Source {
        let Source::Url { url, name } = Source::address(url) else {
            unreachable!("an address is a Url")
        };
        Source::NotesUrl { url, name }
    }

    /// An address given in `?db=`; named after its last path segment.
    pub fn address(url: &str) -> Source {
        let name = web_sys::Url::new_with_base(url, &page_address())
            .ok()
            .map(|u| u.pathname())
            .and_then(|path| {
                let last = path.rsplit('/').next().unwrap_or_default().to_string();
                let decoded = js_sys::decode_uri_component(&last).ok()?;
                Some(String::from(decoded))
            })
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| url.to_string());
        Source::Url {
            url: url.to_string(),
            name,
        }
    }

    fn name(&self) -> String {
        match self {
            Source::File(file) | Source::NotesFile(file) => file.name(),
            Source::Url { name, .. } | Source::NotesUrl { name, .. } => name.clone(),
        }
    }
}

/// Starts opening `source` (a database or a conversation), reporting progress and errors in
/// `state`. One open at a time: a second one while the first runs is ignored (the buttons say
/// so).
pub fn start_open(state: AppState, source: Source) {
    start_opening(state, vec![source]);
}

/// Opens `sources` one after the other (`?db=` then `?replay=`).
pub fn start_opening(state: AppState, sources: Vec<Source>) {
    if state.loading.get_untracked().is_some() {
        return;
    }
    let Some(first) = sources.first() else {
        return;
    };
    // Marked as loading at once, before the first await, so the page is never "ready" between.
    state.loading.set(Some(Loading {
        label: format!("Reading {}", first.name()),
        fraction: Some(0.0),
    }));
    leptos::task::spawn_local(async move {
        for source in sources {
            let name = source.name();
            open_source(state, source, name).await;
        }
        state.loading.set(None);
    });
}

/// What went wrong, and with what kind of file.
enum OpenError {
    Database(String),
    Conversation(String),
    Notes(String),
}

async fn open_source(state: AppState, source: Source, name: String) {
    let show = move |label: String, fraction: Option<f64>| {
        state.loading.set(Some(Loading { label, fraction }));
    };

    let progress = {
        let name = name.clone();
        move |fraction: Option<f64>| show(format!("Reading {name}"), fraction)
    };
    let notes = matches!(source, Source::NotesFile(_) | Source::NotesUrl { .. });
    let bytes = match &source {
        Source::File(file) | Source::NotesFile(file) => read_file(file, progress).await,
        Source::Url { url, .. } => download(url, progress).await,
        Source::NotesUrl { url, .. } => match allowed_notes_address(url) {
            Ok(()) => download(url, progress).await,
            Err(why) => Err(why),
        },
    };
    let outcome = match bytes {
        Ok(bytes) if notes => {
            knowledge::take_sidecar(state, &name, &bytes).map_err(OpenError::Notes)
        }
        Ok(bytes) => take_in(state, &name, bytes).await,
        Err(why) if notes => Err(OpenError::Notes(why)),
        Err(why) => Err(OpenError::Database(why)),
    };
    let still_open = state
        .open
        .get_untracked()
        .map(|db| format!(" {} is still open.", db.name))
        .unwrap_or_default();
    let message = match outcome {
        Ok(()) => None,
        Err(OpenError::Database(why)) => Some(format!("Could not open {name}: {why}.{still_open}")),
        Err(OpenError::Conversation(why)) => Some(format!(
            "Could not replay {name}: {why}. Nothing of it was run."
        )),
        Err(OpenError::Notes(why)) => Some(format!(
            "Could not read the notes file {name}: {why}.{still_open}"
        )),
    };
    state.open_error.set(message);
}

/// Opens `bytes` as a database, or reads them as a conversation or a notes file when they
/// look like one.
async fn take_in(state: AppState, name: &str, bytes: Uint8Array) -> Result<(), OpenError> {
    let head = bytes.subarray(0, bytes.length().min(SNIFF_BYTES)).to_vec();
    match sniff(&head) {
        FileKind::Conversation if looks_like_sidecar(&bytes) => {
            knowledge::take_sidecar(state, name, &bytes).map_err(OpenError::Notes)
        }
        FileKind::Conversation => read_conversation(state, &bytes).map_err(OpenError::Conversation),
        FileKind::Database | FileKind::Unknown => open_bytes(state, name, bytes)
            .await
            .map_err(OpenError::Database),
    }
}

/// The first bytes read to tell a database from JSON.
const SNIFF_BYTES: u32 = 64;

/// Whether JSON `bytes` are a notes file: read whole (its format is a field of the object), or,
/// past the size a notes file may have, by its first bytes (to be refused as too large).
fn looks_like_sidecar(bytes: &Uint8Array) -> bool {
    if bytes.length() as usize <= LIMITS.sidecar_bytes {
        return knowledge::looks_like_sidecar(&bytes.to_vec());
    }
    let head = bytes.subarray(0, 1024).to_vec();
    String::from_utf8_lossy(&head).contains(sidecar::FORMAT)
}

/// `?notes=` reads from this page's site or from https only (see `check_notes_url`).
fn allowed_notes_address(url: &str) -> Result<(), String> {
    let resolved = web_sys::Url::new_with_base(url, &page_address())
        .map(|u| u.href())
        .map_err(|_| format!("\"{url}\" is not an address"))?;
    crate::settings::address::check_notes_url(&resolved, &page_origin())
}

fn read_conversation(state: AppState, bytes: &Uint8Array) -> Result<(), String> {
    let size = bytes.length() as usize;
    if size > conversation::LIMITS.file_bytes {
        return Err(ReadError::TooLarge { bytes: size }.to_string());
    }
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|_| "the conversation file is not UTF-8 text".to_string())?;
    let file = conversation::read(&text).map_err(|e| e.to_string())?;
    state.pending_replay.set(Some(Arc::new(file)));
    Ok(())
}

async fn open_bytes(state: AppState, name: &str, bytes: Uint8Array) -> Result<(), String> {
    state.loading.set(Some(Loading {
        label: format!("Opening {name}"),
        fraction: None,
    }));
    let size = u64::from(bytes.length());
    // Started before the bytes go to the worker; the browser hashes its own copy meanwhile.
    let digest = start_sha256(&bytes);
    let db = state.database();
    db.open(bytes).await.map_err(|e| e.to_string())?;
    let sha256 = match digest {
        Ok(digest) => finish_sha256(digest).await.ok(),
        Err(_) => None,
    };
    state.loading.set(Some(Loading {
        label: "Reading the schema".into(),
        fraction: None,
    }));
    let limits = state.limits.get_untracked();
    let loaded = schema::load(&*db, &limits).await;
    let schema_error = loaded.as_ref().err().map(|e| e.to_string());
    let schema = loaded.unwrap_or_default();
    // What the model may see is settled before the page shows the database.
    super::hiding::prepare_for_open(state, &schema, sha256.as_deref()).await;
    state.open.set(Some(OpenDatabase {
        name: name.to_string(),
        schema: schema.clone(),
        size,
        sha256: sha256.clone(),
    }));
    // Once the database is shown: its notes never hold it up, and a failure is said apart.
    state.loading.set(Some(Loading {
        label: "Reading the notes".into(),
        fraction: None,
    }));
    knowledge::load_for_open(state, &schema, sha256.as_deref()).await;
    match schema_error {
        // The database is open and can be queried; only the overview is missing.
        Some(why) => Err(format!(
            "it opened, but its schema could not be read ({why})"
        )),
        None => Ok(()),
    }
}

/// Reads a local file with progress; the browser does the reading off the page's thread.
async fn read_file(
    file: &File,
    progress: impl Fn(Option<f64>) + 'static,
) -> Result<Uint8Array, String> {
    let reader = FileReader::new().map_err(|e| describe(&e))?;
    let (sender, receiver) = oneshot::channel::<Result<(), String>>();
    let sender = Rc::new(RefCell::new(Some(sender)));

    let on_progress = Closure::<dyn FnMut(ProgressEvent)>::new(move |event: ProgressEvent| {
        if event.length_computable() && event.total() > 0.0 {
            progress(Some(event.loaded() / event.total()));
        }
    });
    let on_load = {
        let sender = sender.clone();
        Closure::<dyn FnMut(ProgressEvent)>::new(move |_| {
            if let Some(sender) = sender.borrow_mut().take() {
                let _ = sender.send(Ok(()));
            }
        })
    };
    let on_error = {
        let reader = reader.clone();
        Closure::<dyn FnMut(ProgressEvent)>::new(move |_| {
            let error = Reflect::get(&reader, &"error".into()).unwrap_or(JsValue::NULL);
            let why = format!("the browser could not read the file ({})", describe(&error));
            if let Some(sender) = sender.borrow_mut().take() {
                let _ = sender.send(Err(why));
            }
        })
    };
    reader.set_onprogress(Some(on_progress.as_ref().unchecked_ref()));
    reader.set_onload(Some(on_load.as_ref().unchecked_ref()));
    reader.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    reader
        .read_as_array_buffer(file)
        .map_err(|e| describe(&e))?;

    let outcome = receiver
        .await
        .unwrap_or_else(|_| Err("the browser stopped reading the file".into()));
    reader.set_onprogress(None);
    reader.set_onload(None);
    reader.set_onerror(None);
    outcome?;
    let buffer: ArrayBuffer = reader
        .result()
        .map_err(|e| describe(&e))?
        .dyn_into()
        .map_err(|_| "the browser returned no bytes".to_string())?;
    Ok(Uint8Array::new(&buffer))
}

/// Downloads `url` chunk by chunk, so that progress can be shown.
async fn download(url: &str, progress: impl Fn(Option<f64>)) -> Result<Uint8Array, String> {
    let window = web_sys::window().ok_or("no browser window")?;
    let response: Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| {
            format!(
                "the download from {url} failed ({}). Either the server could not be reached, \
                 or it does not allow cross-origin requests: a database on another site opens \
                 here only if its server sends the header Access-Control-Allow-Origin",
                describe(&e)
            )
        })?
        .dyn_into()
        .map_err(|_| "the browser returned no response".to_string())?;
    if !response.ok() {
        return Err(format!(
            "the server at {url} answered {} {}",
            response.status(),
            response.status_text()
        ));
    }
    // The length is a guess when the server compresses; the bar then stops short of the end.
    let expected = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|n| n.parse::<f64>().ok())
        .filter(|n| *n > 0.0);
    let Some(body) = response.body() else {
        let buffer = JsFuture::from(response.array_buffer().map_err(|e| describe(&e))?)
            .await
            .map_err(|e| describe(&e))?;
        return Ok(Uint8Array::new(&buffer));
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let chunks = Array::new();
    let mut received: u32 = 0;
    loop {
        let step = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("the download stopped ({})", describe(&e)))?;
        if Reflect::get(&step, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            == Some(true)
        {
            break;
        }
        let chunk: Uint8Array = Reflect::get(&step, &"value".into())
            .map_err(|e| describe(&e))?
            .unchecked_into();
        received = received
            .checked_add(chunk.length())
            .ok_or("the file is larger than 4 GB")?;
        chunks.push(&chunk);
        progress(expected.map(|total| (f64::from(received) / total).min(1.0)));
    }
    let bytes = Uint8Array::new_with_length(received);
    let mut offset = 0;
    for chunk in chunks.iter() {
        let chunk: Uint8Array = chunk.unchecked_into();
        bytes.set(&chunk, offset);
        offset += chunk.length();
    }
    Ok(bytes)
}
