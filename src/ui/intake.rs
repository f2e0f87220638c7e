//! What a file a person opens is, and who takes it. [`crate::identify`] says what it is, by
//! its first bytes and name, unless the person named its role by where they gave it
//! (`?replay=` is a conversation; `?notes=` and "Open notes file" a notes file), which wins.
//! A database goes to `ui::opening`; a data file to `ui::importing`; a saved conversation
//! ([`conversation::read`], which refuses anything unsafe) to the chat, to replay; a notes file
//! is read as the open database's notes. Only the first bytes are read here; a database's
//! bytes are its engine's to read.

use super::importing;
use super::knowledge;
use super::lazy::{on_first_use, NotLoaded};
use super::open_ahead;
use super::open_steps::{OpenSteps, Started};
use super::opening::{self, fetch_whole, Came, RemoteOpen};
use super::state::{AppState, Loading, Reopening};
use crate::browser::{last_path_segment, page_origin, read_start, resolve_against_page};
use crate::conversation::{self, ReadError};
use crate::engine::file_check::header_problem;
use crate::engine::on_demand::remote::{DbAddress, WholeReason, WHOLE_DOWNLOAD_LIMIT_BYTES};
use crate::i18n::{self, Arg};
use crate::identify::{identify, DataKind, FileIs, Role, FIRST_BYTES};
use crate::kept::Reopen;
use crate::knowledge::LIMITS;
use crate::present::marked::data as mark;
use crate::present::opening::not_a_database_marked;
use crate::present::replay::unreadable as conversation_unreadable;
use crate::tr;
use js_sys::Uint8Array;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, File};

/// Where a database comes from.
pub enum Source {
    /// A file the person picked or dropped.
    File(File),
    /// A file the person picked, with the browser's handle to it (`browser::file_handles`).
    Picked { file: File, handle: JsValue },
    /// Several files picked or dropped at once: data files imported together into one
    /// database (`ui::importing`).
    Files(Vec<File>),
    /// Data files' addresses (`?csv=`, `?json=`, …), each downloaded whole, then imported
    /// together.
    DataUrls(Vec<String>),
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
    /// A saved conversation's address (`?replay=`), read as one whatever its bytes say.
    ConversationUrl { url: String, name: String },
    /// A database on a Datasette server (`?datasette=`, or the form beside "Open a file"),
    /// asked through its JSON API; `token` goes to that server only.
    Datasette {
        address: String,
        token: Option<String>,
    },
}

/// The demo database's address, beside the page.
const DEMO_URL: &str = "demo/shop.db";

impl Source {
    /// The demo database shipped beside the page.
    pub fn demo() -> Source {
        Source::Url {
            url: DEMO_URL.into(),
            name: tr!("open-demo-name", file = "shop.db"),
        }
    }

    /// A notes file's address given in `?notes=`.
    pub fn notes_address(url: &str) -> Source {
        let (url, name) = named(url);
        Source::NotesUrl { url, name }
    }

    /// A saved conversation's address given in `?replay=`.
    pub fn conversation_address(url: &str) -> Source {
        let (url, name) = named(url);
        Source::ConversationUrl { url, name }
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
            Source::File(file) | Source::NotesFile(file) | Source::Picked { file, .. } => {
                file.name()
            }
            Source::Files(files) => files.iter().map(File::name).collect::<Vec<_>>().join(" + "),
            Source::DataUrls(urls) => urls
                .iter()
                .map(|url| named(url).1)
                .collect::<Vec<_>>()
                .join(" + "),
            Source::Url { name, .. }
            | Source::Remote { name, .. }
            | Source::WholeDownload { name, .. }
            | Source::NotesUrl { name, .. }
            | Source::ConversationUrl { name, .. } => name.clone(),
            // The address as typed: it names the database and carries no token.
            Source::Datasette { address, .. } => address.trim().to_string(),
        }
    }
}

/// How a database downloaded from `url`, beside the page, comes back: from its address, made
/// absolute (the demo does not: it is always one click away).
fn beside_page(url: &str) -> Reopening {
    let demo = resolve_against_page(DEMO_URL);
    match resolve_against_page(url) {
        Some(url) if Some(url_path(&url)) != demo.as_deref().map(url_path) => {
            Reopening::At(Reopen::Address { url })
        }
        _ => Reopening::Not,
    }
}

/// The path of `url` without its query or fragment, for comparing addresses of the demo.
fn url_path(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

/// `url` with the name it is shown by: its last path segment, or the whole of it.
fn named(url: &str) -> (String, String) {
    let name = last_path_segment(url).unwrap_or_else(|| url.to_string());
    (url.to_string(), name)
}

/// The person is about to open something (they point at or tab into the database panel, or
/// drag a file over the page): SQLite's worker starts and the code that opens files is
/// downloaded now, so that the open need not wait for them. Not before: a visit that opens
/// nothing downloads neither. Nothing while an open runs: it has the cores, and readies the
/// next open when it ends.
pub fn expect_open(state: AppState) {
    if state.loading.get_untracked().is_some() {
        return;
    }
    state.start_spare();
    super::language::ready_numbers();
    // The chunk is downloaded once (a second call waits for the first, or returns at once);
    // a failed download is tried again, and said, by the open itself.
    leptos::task::spawn_local(async move {
        let _ = preload_database().await;
    });
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
        label: tr!("open-reading", name = first.name()),
        fraction: Some(0.0),
    }));
    // A chosen file's worker starts reading it now, while the code below downloads.
    if let Source::File(file) | Source::Picked { file, .. } = first {
        open_ahead::start(state, file);
    }
    super::language::ready_numbers();
    leptos::task::spawn_local(async move {
        for source in sources {
            let name = source.name();
            let asked = OpenSteps::start();
            if let Err(not_loaded) = open_in_chunk(state, source, name.clone(), asked).await {
                finish(state, &name, Err(OpenError::NotLoaded(not_loaded)));
            }
        }
        state.loading.set(None);
    });
}

/// What went wrong, and with what kind of file.
enum OpenError {
    Database(String),
    Conversation(String),
    Notes(String),
    /// The code that opens files could not be downloaded.
    NotLoaded(NotLoaded),
}

on_first_use! {
    database, preload(preload_database) =>
    /// Opens `source` (see [`open_source`]): reading files and addresses, opening a database
    /// and showing its tables are downloaded with the first open.
    fn open_in_chunk(state: AppState, source: Source, name: String, asked: Started) -> () {
        open_source(state, source, name, asked).await
    }
}

/// Opens `source`, asked for at `asked`.
async fn open_source(state: AppState, source: Source, name: String, asked: Started) {
    let show = move |label: String, fraction: Option<f64>| {
        state.loading.set(Some(Loading { label, fraction }));
    };

    let progress = {
        let name = name.clone();
        move |fraction: Option<f64>| show(tr!("open-reading", name = &name), fraction)
    };
    state.open_steps.set_value(OpenSteps::default());
    state
        .open_steps
        .update_value(|steps| steps.done("the opening code (download, compile)", asked));
    state.download_offer.set(None);
    state.server_help.set(None);
    let outcome = match source {
        Source::File(file) => {
            let bytes = Reopening::Bytes(file.clone().into());
            take_in(state, &name, file.into(), None, None, bytes).await
        }
        Source::Picked { file, handle } => {
            let picked = Reopening::Picked {
                blob: file.clone().into(),
                handle,
            };
            take_in(state, &name, file.into(), None, None, picked).await
        }
        Source::Files(files) => take_several(state, files).await,
        Source::DataUrls(urls) => import_addresses(state, &urls).await,
        Source::Url { url, .. } => match fetch_whole(&url, progress, None).await {
            Ok(blob) => take_in(state, &name, blob, None, None, beside_page(&url)).await,
            Err(why) => Err(OpenError::Database(why)),
        },
        Source::Remote { url, name } => match opening::open_remote(state, &name, &url).await {
            Ok(RemoteOpen::Opened) => Ok(()),
            Ok(RemoteOpen::Downloaded(blob, came)) => {
                let at = Reopening::At(Reopen::Address { url });
                take_in(state, &name, blob, Some(came), None, at).await
            }
            Err(why) => Err(OpenError::Database(why)),
        },
        Source::WholeDownload { url, .. } => {
            match fetch_whole(&url, progress, Some(WHOLE_DOWNLOAD_LIMIT_BYTES)).await {
                Ok(blob) => {
                    let came = Some(Came::from(&url, WholeReason::Asked));
                    let at = Reopening::At(Reopen::Address { url });
                    take_in(state, &name, blob, came, None, at).await
                }
                Err(why) => Err(OpenError::Database(why)),
            }
        }
        Source::NotesFile(file) => {
            take_in(
                state,
                &name,
                file.into(),
                None,
                Some(Role::Notes),
                Reopening::Not,
            )
            .await
        }
        Source::NotesUrl { url, .. } => {
            let blob = match allowed_notes_address(&url) {
                Ok(()) => fetch_whole(&url, progress, None).await,
                Err(why) => Err(why),
            };
            match blob {
                Ok(blob) => {
                    take_in(state, &name, blob, None, Some(Role::Notes), Reopening::Not).await
                }
                Err(why) => Err(OpenError::Notes(why)),
            }
        }
        Source::ConversationUrl { url, .. } => match fetch_whole(&url, progress, None).await {
            Ok(blob) => {
                let role = Some(Role::Conversation);
                take_in(state, &name, blob, None, role, Reopening::Not).await
            }
            Err(why) => Err(OpenError::Conversation(why)),
        },
        Source::Datasette { address, token } => {
            opening::open_datasette(state, &name, &address, token)
                .await
                .map_err(OpenError::Database)
        }
    };
    finish(state, &name, outcome);
}

/// Downloads the data files at `urls`, each whole, and imports them together.
async fn import_addresses(state: AppState, urls: &[String]) -> Result<(), OpenError> {
    let mut files = Vec::new();
    for url in urls {
        let (_, file_name) = named(url);
        let progress = move |fraction: Option<f64>| {
            state.loading.set(Some(Loading {
                label: tr!("open-downloading", name = &file_name),
                fraction,
            }))
        };
        let blob = fetch_whole(url, progress, Some(WHOLE_DOWNLOAD_LIMIT_BYTES))
            .await
            .map_err(OpenError::Database)?;
        files.push(as_file(&blob, &named(url).1));
    }
    importing::import(state, files)
        .await
        .map_err(OpenError::Database)
}

/// Says how opening `name` ended (nothing when it opened), and readies the next open.
fn finish(state: AppState, name: &str, outcome: Result<(), OpenError>) {
    let message = outcome.err().map(|error| {
        let still_open = state
            .open
            .with_untracked(|open| open.as_ref().map(|db| mark(&db.name)));
        failed(&mark(name), error, still_open)
    });
    state.open_error.set(message);
    open_ahead::forget();
    // Ready for the next open, now that this one no longer needs the cores.
    state.start_spare();
}

/// Why opening `name` failed, and the database still open (`open`), if one is.
fn failed(name: &str, error: OpenError, open: Option<String>) -> String {
    // Each kind of file has its sentence, and another that also names what is still open.
    let (alone, still_open, why) = match error {
        OpenError::Database(why) => ("open-failed", "open-failed-still-open", why),
        OpenError::Conversation(why) => {
            ("open-replay-failed", "open-replay-failed-still-open", why)
        }
        OpenError::Notes(why) => ("open-notes-failed", "open-notes-failed-still-open", why),
        OpenError::NotLoaded(why) => (
            "open-not-loaded",
            "open-not-loaded-still-open",
            why.to_string(),
        ),
    };
    let mut values = vec![("name", Arg::from(name)), ("why", Arg::from(why))];
    let id = match open {
        None => alone,
        Some(open) => {
            values.push(("open", Arg::from(open)));
            still_open
        }
    };
    i18n::text(id, &values)
}

/// Takes `blob` by what it is: what [`identify`] says, or the `role` the person gave it.
/// `came`: where it was downloaded from, when it was; `reopening`: how a database in it could
/// come back on a later visit.
async fn take_in(
    state: AppState,
    name: &str,
    blob: Blob,
    came: Option<Came>,
    role: Option<Role>,
    reopening: Reopening,
) -> Result<(), OpenError> {
    let is = match role {
        Some(role) => role.read_as(),
        None => {
            let first = read_start(&blob, FIRST_BYTES)
                .await
                .map_err(|why| OpenError::Database(unreadable(why)))?
                .to_vec();
            let is = identify(name, &first);
            // A file that is not a database is said so here, in the page's words; the engine
            // checks again what it opens.
            if matches!(is, FileIs::Database | FileIs::Unknown) {
                header_problem(&first, blob.size() as u64)
                    .map_err(|problem| OpenError::Database(not_a_database_marked(problem)))?;
            }
            is
        }
    };
    match is {
        FileIs::Data(_) => importing::import(state, vec![as_file(&blob, name)])
            .await
            .map_err(OpenError::Database),
        FileIs::Notes => take_notes(state, name, &blob).await,
        FileIs::Conversation => take_conversation(state, &blob).await,
        FileIs::Database | FileIs::Unknown => {
            opening::open_database(state, name, blob, came, reopening)
                .await
                .map_err(OpenError::Database)
        }
    }
}

/// The browser could not read a file: `why`, in its words.
fn unreadable(why: String) -> String {
    tr!("open-file-unreadable", why = mark(&why))
}

/// Reads a notes file (small: read whole, one byte past its limit to refuse a larger one).
async fn take_notes(state: AppState, name: &str, blob: &Blob) -> Result<(), OpenError> {
    read_start(blob, LIMITS.sidecar_bytes + 1)
        .await
        .map_err(unreadable)
        .and_then(|bytes| knowledge::take_sidecar(state, name, &bytes))
        .map_err(OpenError::Notes)
}

/// Reads a saved conversation and hands it to the chat to replay.
async fn take_conversation(state: AppState, blob: &Blob) -> Result<(), OpenError> {
    let bytes = read_start(blob, conversation::LIMITS.file_bytes + 1)
        .await
        .map_err(|why| OpenError::Conversation(unreadable(why)))?;
    read_conversation(state, &bytes, blob.size() as usize).map_err(OpenError::Conversation)
}

/// Several files at once: data files are imported together into one database; anything else
/// is refused with what to do (one database, conversation or notes file at a time).
async fn take_several(state: AppState, files: Vec<File>) -> Result<(), OpenError> {
    if let Some(other) = files
        .iter()
        .find(|file| DataKind::by_name(&file.name()).is_none())
    {
        return Err(OpenError::Database(tr!(
            "open-not-data-file",
            file = other.name()
        )));
    }
    importing::import(state, files)
        .await
        .map_err(OpenError::Database)
}

/// `blob` as a `File` named `name` (a download is a `Blob`; the importer reads `File`s).
fn as_file(blob: &Blob, name: &str) -> File {
    if let Some(file) = blob.dyn_ref::<File>() {
        return file.clone();
    }
    File::new_with_blob_sequence(&js_sys::Array::of1(blob), name).expect("a File made of a Blob")
}

/// `?notes=` reads from this page's site or from https only (see `check_notes_url`).
fn allowed_notes_address(url: &str) -> Result<(), String> {
    let resolved =
        resolve_against_page(url).ok_or_else(|| tr!("open-not-an-address", address = url))?;
    crate::settings::address::check_notes_url(&resolved, &page_origin())
}

/// Reads a conversation file of `size` bytes, whose first bytes (all of them, up to the
/// limit) are `bytes`.
fn read_conversation(state: AppState, bytes: &Uint8Array, size: usize) -> Result<(), String> {
    if size > conversation::LIMITS.file_bytes {
        return Err(conversation_unreadable(&ReadError::TooLarge {
            bytes: size,
        }));
    }
    let text = String::from_utf8(bytes.to_vec()).map_err(|_| tr!("open-conversation-not-utf8"))?;
    let file = conversation::read(&text).map_err(|e| conversation_unreadable(&e))?;
    state.assistant.pending_replay.set(Some(Arc::new(file)));
    Ok(())
}
