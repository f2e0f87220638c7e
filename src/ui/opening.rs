//! Opening a database: hand the file to a new engine (a local file as it is, a download as
//! the bytes received, an address read on demand, a Datasette server), read the schema, show
//! it; then count its rows, identify it, and announce it (`ui::follow`): what the model may see,
//! its notes and its values follow. Progress and errors go to the shared state; a failed open
//! leaves the database that was open as it was. What a file is (a database, a conversation, a
//! notes file) is decided before, in `ui::intake`.
//!
//! The page never reads a database file's bytes itself: the engine's worker reads the `File`
//! (or the `Blob` a download was gathered into) and copies it into SQLite's memory, so the
//! bytes are neither copied into a message nor into wasm memory, and never leave the browser.
//! A local file of `engine::on_demand::ON_DEMAND_FROM_BYTES` and more is not copied at all: it
//! opens in the engine that reads the pages a query needs from the `File`.

use super::follow::{Settled, FOLLOWERS};
use super::open_ahead::{self, Opened};
use super::open_steps::OpenSteps;
use super::state::{AppState, DownloadOffer, Identification, Loading, OpenDatabase, Reopening};
use crate::browser::{download, DownloadError};
use crate::engine::in_memory::worker::WorkerDatabase;
use crate::engine::kind::opens_in_memory;
use crate::engine::on_demand::remote::{
    host_of, Route, WholeDownload, WholeReason, WHOLE_DOWNLOAD_LIMIT_BYTES,
};
use crate::engine::on_demand::web_file::{first_get, rest_of_whole, RestError};
use crate::engine::on_demand::RemoteProblem;
use crate::engine::page::PageDatabase;
use crate::engine::schema;
use crate::engine::DbError;
use crate::kept::Reopen;
use crate::present::errors::for_person_marked as open_error;
use crate::present::marked::data as mark;
use crate::present::remote::{self, whole_download};
use crate::text::format_bytes;
use crate::tr;
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Blob, File};

/// A database at a web address downloaded whole: from where, and why not on demand.
#[derive(Clone, Debug)]
pub struct Came {
    host: Option<String>,
    why: WholeReason,
}

impl Came {
    pub fn from(url: &str, why: WholeReason) -> Came {
        Came {
            host: host_of(url),
            why,
        }
    }
}

/// Opens `blob` in a new engine and shows its tables; then identifies it, settles what the
/// model sees and reads its notes (the status says so meanwhile). The database open before
/// stays open until this one opened. `reopening`: how it could come back on a later visit (a
/// file read on demand does not: it is too large to copy).
pub async fn open_database(
    state: AppState,
    name: &str,
    blob: Blob,
    came: Option<Came>,
    reopening: Reopening,
) -> Result<(), String> {
    state.loading.set(Some(Loading {
        label: tr!("open-opening", name = name),
        fraction: None,
    }));
    let step = |name: &str, started| state.open_steps.update_value(|s| s.done(name, started));
    let started = OpenSteps::start();
    let reading = {
        let name = name.to_string();
        move |fraction: f64| {
            state.loading.set(Some(Loading {
                label: tr!("open-reading", name = &name),
                fraction: Some(fraction),
            }))
        }
    };
    let on_demand = blob
        .dyn_ref::<File>()
        .filter(|file| !opens_in_memory(file.size() as u64, state.on_demand_from.get_value()))
        .cloned();
    // What comes back of a file depends on how it is read: a copy of one in memory, the file
    // itself (through its handle, when there is one) of one read on demand.
    let reopening = match (&on_demand, reopening) {
        (Some(file), Reopening::Picked { handle, .. }) => Reopening::Handle {
            handle,
            modified_ms: file.last_modified().max(0.0) as u64,
        },
        (Some(_), Reopening::Bytes(_)) => Reopening::Not,
        (None, Reopening::Picked { blob, .. }) => Reopening::Bytes(blob),
        (_, reopening) => reopening,
    };
    let db = match on_demand {
        Some(file) => {
            state.loading.set(Some(Loading {
                label: tr!("open-opening-on-demand", name = name),
                fraction: None,
            }));
            let engine = state.lazy_engine().map_err(|e| open_error(&e))?;
            let db = PageDatabase::open_local_on_demand(engine, &file)
                .await
                .map_err(|e| open_error(&e))?;
            step("open on demand (header, schema, sampled pages)", started);
            db
        }
        None => {
            // The open started at the choice, if there was one; else one started here.
            let (engine, ms, from) = match open_ahead::take(&blob) {
                Some(ahead) => {
                    let Opened {
                        engine,
                        outcome,
                        ms,
                    } = ahead.await;
                    outcome.map_err(|e| open_error(&e))?;
                    step("waited for that worker", started);
                    (engine, ms, "from the choice")
                }
                None => {
                    let engine = state.engine().map_err(|e| open_error(&e))?;
                    engine
                        .open_with_progress(&blob, reading)
                        .await
                        .map_err(|e| open_error(&e))?;
                    (engine, started.elapsed_ms(), "from here")
                }
            };
            state.open_steps.update_value(|steps| {
                steps.took(SQLITE_WAIT, engine.waited_for_sqlite_ms());
                steps.took(&worker_opened(&engine, from), ms);
            });
            PageDatabase::opened_in_memory(engine, &blob)
        }
    };
    let (host, downloaded) = came.map_or((None, None), |came| (came.host, Some(came.why)));
    let shown = Shown {
        host,
        downloaded,
        reopening,
    };
    show_database(state, name, db, shown).await
}

/// How a database at a web address was opened.
pub enum RemoteOpen {
    /// Read on demand, and shown.
    Opened,
    /// Downloaded whole (small, or from a server that sends whole files): to be taken in as
    /// any file (`ui::intake`).
    Downloaded(Blob, Came),
}

/// Opens the database at the absolute `url`: one ranged GET, whose answer decides
/// (`engine::on_demand::remote::route`). A small file, or one from a server that sends whole files, is
/// downloaded whole and opened in memory; a larger one is read on demand (HTTP Range
/// requests). When neither can be done by itself, the error says why in one sentence, what to
/// set on the server is folded under it, and the status offers the whole download when it may
/// be had (`engine::on_demand::remote::WholeDownload`).
pub async fn open_remote(state: AppState, name: &str, url: &str) -> Result<RemoteOpen, String> {
    let host = host_of(url);
    let shown_host = host.clone().unwrap_or_else(|| url.to_string());
    state.loading.set(Some(Loading {
        label: tr!("open-asking-host", host = &shown_host, name = name),
        fraction: None,
    }));
    let started = OpenSteps::start();
    let database = |why: String| tr!("open-at-address", address = mark(url), why = why);
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
                label: tr!("open-downloading-from", name = &name, host = &shown_host),
                fraction,
            }))
        }
    };
    match route {
        Route::OnDemand(pins) => {
            state.loading.set(Some(Loading {
                label: tr!(
                    "open-opening-remote",
                    name = name,
                    host = host.as_deref().unwrap_or(url)
                ),
                fraction: None,
            }));
            let bytes = first
                .first_bytes()
                .await
                .map_err(|problem| refuse(state, url, name, problem))?;
            let engine = state.lazy_engine().map_err(|e| database(open_error(&e)))?;
            let db = match PageDatabase::open_remote_pinned(engine, url, pins, &bytes).await {
                Ok(db) => db,
                Err(DbError::Remote(problem)) => return Err(refuse(state, url, name, problem)),
                Err(other) => return Err(database(open_error(&other))),
            };
            state
                .open_steps
                .update_value(|s| s.done("open on demand (ranged GET, header, schema)", started));
            let shown = Shown {
                host,
                downloaded: None,
                reopening: Reopening::At(Reopen::Address {
                    url: url.to_string(),
                }),
            };
            show_database(state, name, db, shown).await?;
            Ok(RemoteOpen::Opened)
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
            Ok(RemoteOpen::Downloaded(blob, Came::from(url, why)))
        }
        Route::Refused(problem) => {
            first.stop();
            Err(refuse(state, url, name, problem))
        }
    }
}

/// The error for a web address that cannot be read in parts: the problem in one sentence and
/// the offer (`engine::on_demand::remote::WholeDownload`), set beside it with what to set on the server.
fn refuse(state: AppState, url: &str, name: &str, problem: RemoteProblem) -> String {
    let offer = WholeDownload::for_problem(&problem, WHOLE_DOWNLOAD_LIMIT_BYTES);
    let said = open_error(&DbError::Remote(problem.clone()));
    let message = match whole_download(&offer, WHOLE_DOWNLOAD_LIMIT_BYTES) {
        Some(offer) => tr!(
            "open-refused-offer",
            address = mark(url),
            problem = said,
            offer = offer
        ),
        None => tr!("open-refused", address = mark(url), problem = said),
    };
    if let WholeDownload::Offer { size } = offer {
        state.download_offer.set(Some(DownloadOffer {
            url: url.to_string(),
            name: name.to_string(),
            size,
        }));
    }
    state.server_help.set(remote::what_to_set(&problem));
    // The status adds the last full stop.
    message.trim_end_matches(['.', '。']).to_string()
}

/// Opens the database at the Datasette `address`, its `token` (if any) sent to that server
/// only; then shows it as any other.
pub async fn open_datasette(
    state: AppState,
    name: &str,
    address: &str,
    token: Option<String>,
) -> Result<(), String> {
    state.loading.set(Some(Loading {
        label: tr!("open-asking-datasette", name = name),
        fraction: None,
    }));
    let started = OpenSteps::start();
    let db = PageDatabase::open_datasette(address, token)
        .await
        .map_err(|e| open_error(&e))?;
    state
        .open_steps
        .update_value(|s| s.done("ask the Datasette server", started));
    let shown = Shown {
        host: None,
        downloaded: None,
        reopening: Reopening::At(Reopen::Datasette {
            address: address.trim().to_string(),
        }),
    };
    show_database(state, name, db, shown).await
}

/// The part of the worker's open spent waiting for SQLite to load (its download and compile).
const SQLITE_WAIT: &str = "of which: SQLite loading (worker)";

/// The open step of `engine`, timed `from` somewhere: what its worker read before it answered
/// (the schema's pages only, or the whole file).
fn worker_opened(engine: &WorkerDatabase, from: &str) -> String {
    if engine.opened_schema_first() {
        format!("read the schema's pages and open them (worker, {from})")
    } else {
        format!("read the file and open it (worker, {from})")
    }
}

/// What the page says of a database beside its tables.
struct Shown {
    /// The server it is read from, when remote.
    host: Option<String>,
    /// Why it was downloaded whole, when it was.
    downloaded: Option<WholeReason>,
    reopening: Reopening,
}

/// Shows the opened `db` (with what is `shown` beside it): its tables, then its row counts,
/// identity, the model view and notes.
async fn show_database(
    state: AppState,
    name: &str,
    db: PageDatabase,
    shown: Shown,
) -> Result<(), String> {
    let step = |name: &str, started| state.open_steps.update_value(|s| s.done(name, started));
    let db = Rc::new(db);
    state.loading.set(Some(Loading {
        label: tr!("open-reading-schema"),
        fraction: None,
    }));
    let started = OpenSteps::start();
    let loaded = schema::load_tables(&*db).await;
    step("schema", started);
    let schema_error = loaded.as_ref().err().map(open_error);
    let mut schema = loaded.unwrap_or_default();

    // The new database takes the old one's place: nothing the model saw of the old one, nor
    // its notes, applies to it until its followers have settled below.
    for follower in FOLLOWERS {
        (follower.forget)(state);
    }
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
        host: shown.host,
        downloaded: shown.downloaded,
        counting: true,
        reopening: shown.reopening,
    }));
    step("show the tables", started);
    if let Some(before) = before {
        leptos::task::spawn_local(async move { before.close().await });
    }
    // Drawn before the counting asks for the whole file (read then, after a schema-first open),
    // and the identity is taken beside it (on another core, where there is one).
    gloo_timers::future::TimeoutFuture::new(0).await;
    db.start_identifying();

    // Tables shown; their rows are counted (as the kind allows) while the database is
    // identified in a worker of its own.
    state.loading.set(Some(Loading {
        label: tr!("open-counting", name = name),
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
    let key = identify(state, &db, name).await;
    // Announced: what follows an open does its part, in turn.
    let settled = Settled { schema, key };
    for follower in FOLLOWERS {
        let started = OpenSteps::start();
        if let Some((label, _)) = follower.shown {
            state.loading.set(Some(Loading {
                label: label(),
                fraction: None,
            }));
        }
        (follower.settle)(state, settled.clone()).await;
        if let Some((_, name)) = follower.shown {
            step(name, started);
        }
    }
    crate::browser::offline::register(state.address.with_value(|a| a.presentation.embed));
    match schema_error {
        // The database is open and can be queried; only the overview is missing.
        Some(why) => Err(tr!("open-schema-unread", why = why)),
        None => Ok(()),
    }
}

/// Waits for the identity of `db` (opened as `name`) and announces it in `state`: the key what
/// is kept for it is kept under, or why there is none.
async fn identify(state: AppState, db: &PageDatabase, name: &str) -> Result<String, String> {
    state.loading.set(Some(Loading {
        label: tr!("open-identifying", name = name),
        fraction: None,
    }));
    let started = OpenSteps::start();
    let identity = match db.identity().await {
        Ok(identity) => Identification::Known(identity),
        Err(why) => Identification::Unknown(why),
    };
    state
        .open_steps
        .update_value(|s| s.done("identity", started));
    let key = identity
        .storage_key()
        .unwrap_or_else(|| Err(tr!("open-no-identity")));
    state.identity.set(identity);
    key
}

/// What the page says when a download did not end with the whole file.
fn download_failed(url: &str, error: DownloadError) -> String {
    match error {
        DownloadError::Unreachable { why } => tr!(
            "open-download-unreachable",
            address = mark(url),
            why = mark(&why),
            header = mark("Access-Control-Allow-Origin")
        ),
        DownloadError::Status { status, text } => tr!(
            "open-download-status",
            address = mark(url),
            status = status.to_string(),
            text = mark(&text)
        ),
        DownloadError::Stopped { why } => tr!("open-download-stopped", why = mark(&why)),
        DownloadError::TooLarge { bytes, most } => tr!(
            "open-download-too-large",
            size = format_bytes(bytes),
            most = format_bytes(most)
        ),
        DownloadError::Browser { why } => why,
    }
}

/// The rest of a whole download did not come, said for the person.
fn rest_failed(url: &str, error: RestError) -> String {
    match error {
        RestError::Download(error) => download_failed(url, error),
        RestError::Changed(why) => tr!("open-download-changed", why = mark(&why)),
    }
}

/// [`download`], its failure said for the person.
pub async fn fetch_whole(
    url: &str,
    progress: impl Fn(Option<f64>),
    most: Option<u64>,
) -> Result<Blob, String> {
    download(url, progress, most)
        .await
        .map_err(|error| download_failed(url, error))
}
