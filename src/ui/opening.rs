//! Opening a database: hand the file to a new engine (a local file as it is, a download as
//! the bytes received), read the schema, show it; then identify the database (for its kept
//! notes and hidden choices), settle what the model may see and read its notes. Progress and
//! errors go to the shared state; a failed open leaves the database that was open as it was.
//!
//! The same ways in open a saved conversation: a file whose first bytes are JSON rather than
//! SQLite's header is read as one ([`conversation::read`], which refuses anything unsafe) and
//! handed to the chat to replay; one that looks like a notes file
//! ([`knowledge::looks_like_sidecar`]) is read as the open database's notes instead.
//! `?notes=` and "Open notes file" read a notes file and nothing else.
//!
//! The page never reads a database file's bytes itself: the engine's worker reads the `File`
//! (or the `Blob` a download was gathered into) and copies it into SQLite's memory, so the
//! bytes are neither copied into a message nor into wasm memory, and never leave the browser.
//! Only the first bytes are read here, to tell a database from a conversation. A local file
//! of `engine::on_demand::ON_DEMAND_FROM_BYTES` and more is not copied at all: it opens in the
//! engine that reads the pages a query needs from the `File` (`PageDatabase::OnDemand`).

use super::knowledge;
use super::open_steps::OpenSteps;
use super::state::{AppState, DownloadOffer, Identification, Loading, OpenDatabase};
use crate::browser::{
    download, last_path_segment, page_origin, read_start, resolve_against_page, DownloadError,
};
use crate::conversation::{self, sniff, FileKind, ReadError};
use crate::engine::kind::DatabaseKind;
use crate::engine::on_demand::kind_for_local_file;
use crate::engine::on_demand::remote::{
    host_of, DbAddress, Route, WholeDownload, WholeReason, WHOLE_DOWNLOAD_LIMIT_BYTES,
};
use crate::engine::on_demand::web_file::{first_get, rest_of_whole, RestError};
use crate::engine::on_demand::RemoteProblem;
use crate::engine::page::PageDatabase;
use crate::engine::schema;
use crate::engine::DbError;
use crate::knowledge::{sidecar, LIMITS};
use crate::text::format_bytes;
use js_sys::Uint8Array;
use leptos::prelude::*;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::JsCast;
use web_sys::{Blob, File};

/// Where a database comes from.
pub enum Source {
    /// A file the person picked or dropped.
    File(File),
    /// An address beside the page (`?db=demo/shop.db`, the demo), downloaded whole; `name` is
    /// what the page calls it.
    Url { url: String, name: String },
    /// An absolute http(s) address (`?db=https://…`, the address field): its first ranged GET
    /// decides whether it is downloaded whole or read on demand (`engine::on_demand::remote::route`).
    Remote { url: String, name: String },
    /// An absolute address whose server cannot serve parts, downloaded whole at the person's
    /// request (the offer in the status), stopped past `engine::on_demand::remote::WHOLE_DOWNLOAD_LIMIT_BYTES`.
    WholeDownload { url: String, name: String },
    /// A notes file the person picked with "Open notes file".
    NotesFile(File),
    /// A notes file's address (`?notes=`).
    NotesUrl { url: String, name: String },
    /// A database on a Datasette server (`?datasette=`, or the form beside "Open a file"),
    /// asked through its JSON API; `token` goes to that server only.
    Datasette {
        address: String,
        token: Option<String>,
    },
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
        let (url, name) = named(url);
        Source::NotesUrl { url, name }
    }

    /// An address given in `?db=`; named after its last path segment.
    pub fn address(url: &str) -> Source {
        let (url, name) = named(url);
        Source::Url { url, name }
    }

    /// A database's address from `?db=` or the address field: read on demand when it is an
    /// absolute http(s) address, downloaded whole from beside the page otherwise.
    pub fn database_address(text: &str) -> Source {
        match DbAddress::read(text) {
            DbAddress::Beside(url) => Source::address(&url),
            DbAddress::Remote(url) => {
                let (url, name) = named(&url);
                Source::Remote { url, name }
            }
        }
    }

    fn name(&self) -> String {
        match self {
            Source::File(file) | Source::NotesFile(file) => file.name(),
            Source::Url { name, .. }
            | Source::Remote { name, .. }
            | Source::WholeDownload { name, .. }
            | Source::NotesUrl { name, .. } => name.clone(),
            // The address as typed: it names the database and carries no token.
            Source::Datasette { address, .. } => address.trim().to_string(),
        }
    }
}

/// `url` with the name it is shown by: its last path segment, or the whole of it.
fn named(url: &str) -> (String, String) {
    let name = last_path_segment(url).unwrap_or_else(|| url.to_string());
    (url.to_string(), name)
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
    state.open_steps.set_value(OpenSteps::default());
    state.download_offer.set(None);
    state.server_help.set(None);
    let outcome = match source {
        Source::File(file) => take_in(state, &name, file.into(), None).await,
        Source::Url { url, .. } => match fetch_whole(&url, progress, None).await {
            Ok(blob) => take_in(state, &name, blob, None).await,
            Err(why) => Err(OpenError::Database(why)),
        },
        Source::Remote { url, name } => open_remote(state, &name, &url).await,
        Source::WholeDownload { url, .. } => {
            match fetch_whole(&url, progress, Some(WHOLE_DOWNLOAD_LIMIT_BYTES)).await {
                Ok(blob) => {
                    take_in(
                        state,
                        &name,
                        blob,
                        Some(Came::from(&url, WholeReason::Asked)),
                    )
                    .await
                }
                Err(why) => Err(OpenError::Database(why)),
            }
        }
        Source::NotesFile(file) => take_notes(state, &name, Ok(file.into())).await,
        Source::NotesUrl { url, .. } => {
            let blob = match allowed_notes_address(&url) {
                Ok(()) => fetch_whole(&url, progress, None).await,
                Err(why) => Err(why),
            };
            take_notes(state, &name, blob).await
        }
        Source::Datasette { address, token } => open_datasette(state, &name, &address, token)
            .await
            .map_err(OpenError::Database),
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
    // Ready for the next open, now that this one no longer needs the cores.
    state.start_spare();
}

/// Reads a notes file (small: read whole, after a look at its size).
async fn take_notes(
    state: AppState,
    name: &str,
    blob: Result<Blob, String>,
) -> Result<(), OpenError> {
    let bytes = match blob {
        Ok(blob) => read_start(&blob, LIMITS.sidecar_bytes + 1).await,
        Err(why) => Err(why),
    };
    bytes
        .and_then(|bytes| knowledge::take_sidecar(state, name, &bytes))
        .map_err(OpenError::Notes)
}

/// A database at a web address downloaded whole: from where, and why not on demand.
#[derive(Clone, Debug)]
struct Came {
    host: Option<String>,
    why: WholeReason,
}

impl Came {
    fn from(url: &str, why: WholeReason) -> Came {
        Came {
            host: host_of(url),
            why,
        }
    }
}

/// Opens `blob` as a database, or reads it as a conversation or a notes file when it looks
/// like one. `came`: where it was downloaded from, when it was.
async fn take_in(
    state: AppState,
    name: &str,
    blob: Blob,
    came: Option<Came>,
) -> Result<(), OpenError> {
    let head = read_start(&blob, SNIFF_BYTES)
        .await
        .map_err(OpenError::Database)?
        .to_vec();
    match sniff(&head) {
        FileKind::Conversation => {
            // Either kind of file is refused when larger than its limit: read no more.
            let most = LIMITS.sidecar_bytes.max(conversation::LIMITS.file_bytes) + 1;
            let bytes = read_start(&blob, most)
                .await
                .map_err(OpenError::Conversation)?;
            if looks_like_sidecar(&bytes) {
                knowledge::take_sidecar(state, name, &bytes).map_err(OpenError::Notes)
            } else {
                read_conversation(state, &bytes, blob.size() as usize)
                    .map_err(OpenError::Conversation)
            }
        }
        FileKind::Database | FileKind::Unknown => open_database(state, name, blob, came)
            .await
            .map_err(OpenError::Database),
    }
}

/// The first bytes read to tell a database from JSON.
const SNIFF_BYTES: usize = 64;

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
    let resolved =
        resolve_against_page(url).ok_or_else(|| format!("\"{url}\" is not an address"))?;
    crate::settings::address::check_notes_url(&resolved, &page_origin())
}

/// Reads a conversation file of `size` bytes, whose first bytes (all of them, up to the
/// limit) are `bytes`.
fn read_conversation(state: AppState, bytes: &Uint8Array, size: usize) -> Result<(), String> {
    if size > conversation::LIMITS.file_bytes {
        return Err(ReadError::TooLarge { bytes: size }.to_string());
    }
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|_| "the conversation file is not UTF-8 text".to_string())?;
    let file = conversation::read(&text).map_err(|e| e.to_string())?;
    state.pending_replay.set(Some(Arc::new(file)));
    Ok(())
}

/// Opens `blob` in a new engine and shows its tables; then identifies it, settles what the
/// model sees and reads its notes (the status says so meanwhile). The database open before
/// stays open until this one opened.
async fn open_database(
    state: AppState,
    name: &str,
    blob: Blob,
    came: Option<Came>,
) -> Result<(), String> {
    state.loading.set(Some(Loading {
        label: format!("Opening {name}"),
        fraction: None,
    }));
    let step = |name: &str, started| state.open_steps.update_value(|s| s.done(name, started));
    let started = OpenSteps::start();
    let reading = {
        let name = name.to_string();
        move |fraction: f64| {
            state.loading.set(Some(Loading {
                label: format!("Reading {name}"),
                fraction: Some(fraction),
            }))
        }
    };
    let on_demand = blob
        .dyn_ref::<File>()
        .filter(|_| {
            let size = blob.size() as u64;
            kind_for_local_file(size, state.on_demand_from.get_value()) == DatabaseKind::LocalFile
        })
        .cloned();
    let db = match on_demand {
        Some(file) => {
            state.loading.set(Some(Loading {
                label: format!("Opening {name} (read on demand: only the pages a query needs)"),
                fraction: None,
            }));
            let engine = state.lazy_engine().map_err(|e| e.to_string())?;
            let db = PageDatabase::open_local_on_demand(engine, &file)
                .await
                .map_err(|e| e.to_string())?;
            step("open on demand (header, schema, sampled pages)", started);
            db
        }
        None => {
            let engine = state.engine().map_err(|e| e.to_string())?;
            let db = PageDatabase::open_in_memory(engine, &blob, reading)
                .await
                .map_err(|e| e.to_string())?;
            step("read the file and open it (worker)", started);
            db
        }
    };
    let (host, downloaded) = came.map_or((None, None), |came| (came.host, Some(came.why)));
    show_database(state, name, db, host, downloaded).await
}

/// Opens the database at the absolute `url`: one ranged GET, whose answer decides
/// (`engine::on_demand::remote::route`). A small file, or one from a server that sends whole files, is
/// downloaded whole and opened in memory; a larger one is read on demand (HTTP Range
/// requests). When neither can be done by itself, the error says why in one sentence, what to
/// set on the server is folded under it, and the status offers the whole download when it may
/// be had (`engine::on_demand::remote::WholeDownload`).
async fn open_remote(state: AppState, name: &str, url: &str) -> Result<(), OpenError> {
    let host = host_of(url);
    let shown_host = host.clone().unwrap_or_else(|| url.to_string());
    state.loading.set(Some(Loading {
        label: format!("Asking {shown_host} for {name}"),
        fraction: None,
    }));
    let started = OpenSteps::start();
    let database = |why: String| OpenError::Database(format!("{url}: {why}"));
    let first = first_get(url)
        .await
        .map_err(|problem| refuse(state, url, name, problem))?;
    let route = first.route(
        state.read_whole_below.get_value(),
        WHOLE_DOWNLOAD_LIMIT_BYTES,
    );
    let progress = {
        let name = name.to_string();
        move |fraction: Option<f64>| {
            state.loading.set(Some(Loading {
                label: format!("Downloading {name} from {shown_host}"),
                fraction,
            }))
        }
    };
    match route {
        Route::OnDemand(pins) => {
            state.loading.set(Some(Loading {
                label: format!(
                    "Opening {name} on demand from {}",
                    host.as_deref().unwrap_or(url)
                ),
                fraction: None,
            }));
            let bytes = first
                .first_bytes()
                .await
                .map_err(|problem| refuse(state, url, name, problem))?;
            let engine = state.lazy_engine().map_err(|e| database(e.to_string()))?;
            let db = match PageDatabase::open_remote_pinned(engine, url, pins, &bytes).await {
                Ok(db) => db,
                Err(DbError::Remote(problem)) => return Err(refuse(state, url, name, problem)),
                Err(other) => return Err(database(other.to_string())),
            };
            state
                .open_steps
                .update_value(|s| s.done("open on demand (ranged GET, header, schema)", started));
            show_database(state, name, db, host, None)
                .await
                .map_err(OpenError::Database)
        }
        Route::Whole { why, pins, .. } => {
            let body = first
                .body(&progress, Some(WHOLE_DOWNLOAD_LIMIT_BYTES))
                .await
                .map_err(|error| database(download_failed(url, error)))?;
            let blob = match pins {
                None => body,
                Some(pins) => rest_of_whole(url, &pins, body, &progress)
                    .await
                    .map_err(|error| database(rest_failed(url, error)))?,
            };
            state
                .open_steps
                .update_value(|s| s.done("download whole (ranged GET, then the rest)", started));
            take_in(state, name, blob, Some(Came::from(url, why))).await
        }
        Route::Refused(problem) => {
            first.stop();
            Err(refuse(state, url, name, problem))
        }
    }
}

/// The error for a web address that cannot be read in parts: the problem in one sentence and
/// the offer (`engine::on_demand::remote::WholeDownload`), set beside it with what to set on the server.
fn refuse(state: AppState, url: &str, name: &str, problem: RemoteProblem) -> OpenError {
    let offer = WholeDownload::for_problem(&problem, WHOLE_DOWNLOAD_LIMIT_BYTES);
    let sentence = offer
        .sentence(WHOLE_DOWNLOAD_LIMIT_BYTES)
        .map(|s| format!(" {s}"))
        .unwrap_or_default();
    if let WholeDownload::Offer { size } = offer {
        state.download_offer.set(Some(DownloadOffer {
            url: url.to_string(),
            name: name.to_string(),
            size,
        }));
    }
    state
        .server_help
        .set(problem.what_to_set().map(String::from));
    // The status adds the last full stop.
    let message = format!("{url}: {problem}.{sentence}");
    OpenError::Database(message.trim_end_matches('.').to_string())
}

/// Opens the database at the Datasette `address`, its `token` (if any) sent to that server
/// only; then shows it as any other.
async fn open_datasette(
    state: AppState,
    name: &str,
    address: &str,
    token: Option<String>,
) -> Result<(), String> {
    state.loading.set(Some(Loading {
        label: format!("Asking the Datasette server for {name}"),
        fraction: None,
    }));
    let started = OpenSteps::start();
    let db = PageDatabase::open_datasette(address, token)
        .await
        .map_err(|e| e.to_string())?;
    state
        .open_steps
        .update_value(|s| s.done("ask the Datasette server", started));
    show_database(state, name, db, None, None).await
}

/// Shows the opened `db` (read from `host`, when remote; `downloaded` whole, and why, when it
/// is in memory): its tables, then its row counts, identity, the model view and notes.
async fn show_database(
    state: AppState,
    name: &str,
    db: PageDatabase,
    host: Option<String>,
    downloaded: Option<WholeReason>,
) -> Result<(), String> {
    let step = |name: &str, started| state.open_steps.update_value(|s| s.done(name, started));
    let db = Rc::new(db);
    state.loading.set(Some(Loading {
        label: "Reading the schema".into(),
        fraction: None,
    }));
    let started = OpenSteps::start();
    let loaded = schema::load_tables(&*db).await;
    step("schema", started);
    let schema_error = loaded.as_ref().err().map(|e| e.to_string());
    let mut schema = loaded.unwrap_or_default();

    // The new database takes the old one's place: nothing the model saw of the old one, nor
    // its notes, applies to it until they are settled below.
    super::hiding::start_opening(state);
    knowledge::start_opening(state);
    super::value_index::forget(state);
    state.identity.set(Identification::Pending);
    let before = state
        .db
        .try_update_value(|open| open.replace(db.clone()))
        .flatten();
    let started = OpenSteps::start();
    state.open.set(Some(OpenDatabase {
        name: name.to_string(),
        schema: schema.clone(),
        size: db.size(),
        kind: db.kind(),
        host,
        downloaded,
        counting: true,
    }));
    step("show the tables", started);
    if let Some(before) = before {
        leptos::task::spawn_local(async move { before.close().await });
    }

    // Tables shown; their rows are counted (as the kind allows) while the database is
    // identified in a worker of its own.
    state.loading.set(Some(Loading {
        label: format!("Counting the rows of {name}'s tables"),
        fraction: None,
    }));
    let started = OpenSteps::start();
    let limits = state.limits.get_untracked();
    schema::count_rows(&*db, &mut schema, db.count_policy(), &limits).await;
    state.open.update(|open| {
        if let Some(open) = open {
            open.schema = schema.clone();
            open.counting = false;
        }
    });
    step("row counts", started);

    // Tables shown; now what depends on which database this is.
    state.loading.set(Some(Loading {
        label: format!("Identifying {name} (for its notes and hidden choices)"),
        fraction: None,
    }));
    let started = OpenSteps::start();
    let identity = match db.identity().await {
        Ok(identity) => Identification::Known(identity),
        Err(why) => Identification::Unknown(why),
    };
    step("identity", started);
    let key = identity
        .storage_key()
        .unwrap_or_else(|| Err("no identity".into()));
    state.identity.set(identity);
    state.loading.set(Some(Loading {
        label: "Preparing what the model may see".into(),
        fraction: None,
    }));
    let started = OpenSteps::start();
    super::hiding::prepare_for_open(state, &schema, key.clone()).await;
    step("what the model sees (hiding)", started);
    state.loading.set(Some(Loading {
        label: "Reading the notes".into(),
        fraction: None,
    }));
    let started = OpenSteps::start();
    knowledge::load_for_open(state, &schema, key).await;
    step("notes (knowledge)", started);
    // Settled: the values a question may name are read now, in the background.
    super::value_index::refresh(state);
    match schema_error {
        // The database is open and can be queried; only the overview is missing.
        Some(why) => Err(format!(
            "it opened, but its schema could not be read ({why})"
        )),
        None => Ok(()),
    }
}

/// What the page says when a download did not end with the whole file.
fn download_failed(url: &str, error: DownloadError) -> String {
    match error {
        DownloadError::Unreachable { why } => format!(
            "the download from {url} failed ({why}). Either the server could not be reached, \
             or it does not allow cross-origin requests: a database on another site opens \
             here only if its server sends the header Access-Control-Allow-Origin"
        ),
        DownloadError::Status { status, text } => {
            format!("the server at {url} answered {status} {text}")
        }
        DownloadError::Stopped { why } => format!("the download stopped ({why})"),
        DownloadError::TooLarge { bytes, most } => format!(
            "at {} it is larger than the {} the page downloads whole",
            format_bytes(bytes),
            format_bytes(most)
        ),
        DownloadError::Browser { why } => why,
    }
}

/// The rest of a whole download did not come, said for the person.
fn rest_failed(url: &str, error: RestError) -> String {
    match error {
        RestError::Download(error) => download_failed(url, error),
        RestError::Changed(why) => {
            format!("the file on the server changed while it was downloaded ({why}): open it again")
        }
    }
}

/// [`download`], its failure said for the person.
async fn fetch_whole(
    url: &str,
    progress: impl Fn(Option<f64>),
    most: Option<u64>,
) -> Result<Blob, String> {
    download(url, progress, most)
        .await
        .map_err(|error| download_failed(url, error))
}
