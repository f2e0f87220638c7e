//! What the page's parts share: the database engine, what is open, and the query settings.

use super::hiding::view::Hiding;
use super::knowledge::view::KnowledgeState;
use crate::conversation::{ConversationFile, DatabaseIdentity};
use crate::engine::fenced::Fenced;
use crate::engine::identity::Identity;
use crate::engine::in_memory::worker::WorkerDatabase;
use crate::engine::kind::DatabaseKind;
use crate::engine::on_demand::lazy::LazyDatabase;
use crate::engine::on_demand::remote::{WholeReason, READ_WHOLE_BELOW_BYTES};
use crate::engine::on_demand::ON_DEMAND_FROM_BYTES;
use crate::engine::page::{ModelDatabase, PageDatabase};
use crate::engine::{DbError, QueryLimits, ReadStats, Schema};
use crate::llm::ledger::Ledger;
use crate::present::ledger::QuestionReads;
use crate::search::values::ValueIndex;
use crate::settings::address::PageAddress;
use crate::tr;
use leptos::prelude::*;
use std::rc::Rc;
use std::sync::Arc;

/// The database that is open, as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenDatabase {
    /// A name for people: the file name, or the last part of the address.
    pub name: String,
    pub schema: Schema,
    /// Its size in bytes.
    pub size: u64,
    /// Where its bytes are.
    pub kind: DatabaseKind,
    /// The server it is read from, for a remote database ("data.example.org").
    pub host: Option<String>,
    /// Why a database at a web address is in memory rather than read on demand.
    pub downloaded: Option<WholeReason>,
    /// True while its tables' rows are being counted (the tables are shown before).
    pub counting: bool,
    /// How it could be opened again from "Recent databases" (`ui::recent`).
    pub reopening: Reopening,
}

/// How the open database could come back on a later visit (`crate::kept`).
#[derive(Clone, Debug, PartialEq)]
pub enum Reopening {
    /// Its bytes are in this page (a file the person chose, or the database an import made):
    /// a copy may be kept, when the person asks.
    Bytes(web_sys::Blob),
    /// A file chosen with the browser's handle to it (`browser::file_handles`): its bytes are
    /// here, and the handle reopens it when it is too large to copy.
    Picked {
        blob: web_sys::Blob,
        handle: wasm_bindgen::JsValue,
    },
    /// A file too large to copy, read on demand, through the browser's handle to it, as it was
    /// when opened (modified at `modified_ms`).
    Handle {
        handle: wasm_bindgen::JsValue,
        modified_ms: u64,
    },
    /// From where the person named: a web address, a Datasette server.
    At(crate::kept::Reopen),
    /// It does not come back: the demo, shipped with the page; a file too large to copy, read
    /// on demand.
    Not,
}

/// What tells the open database from another (`engine::identity`): computed after its tables
/// are shown, since for a file read whole it is the SHA-256 of every byte.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Identification {
    /// No database is open.
    #[default]
    None,
    /// Being computed.
    Pending,
    Known(Identity),
    /// It cannot be computed here, for this reason.
    Unknown(String),
}

impl Identification {
    /// The key the person's notes and hidden choices are kept under, or why there is none
    /// (`None` while it is being computed).
    pub fn storage_key(&self) -> Option<Result<String, String>> {
        match self {
            Identification::Known(identity) => Some(Ok(identity.storage_key())),
            Identification::Unknown(why) => Some(Err(why.clone())),
            Identification::None | Identification::Pending => None,
        }
    }
}

impl OpenDatabase {
    /// What a saved conversation records about this database, identified by `identity`.
    pub fn record(&self, identity: &Identification) -> Option<DatabaseIdentity> {
        match identity {
            Identification::Known(identity) => Some(DatabaseIdentity::new(&self.name, identity)),
            _ => None,
        }
    }

    /// Its tables and views, without the knowledge tables.
    pub fn data_tables(&self) -> usize {
        use crate::knowledge::is_knowledge_table;
        let data = self.schema.tables.iter();
        data.filter(|t| !is_knowledge_table(&t.name)).count()
    }

    /// "3 tables", "13 tables, 17 views": the data's, without the knowledge tables
    /// (`askdb_notes`, …), which the schema panel names apart.
    pub fn summary(&self) -> String {
        use crate::engine::TableKind;
        use crate::knowledge::is_knowledge_table;
        let count = |kind| {
            let data = self
                .schema
                .tables
                .iter()
                .filter(|t| !is_knowledge_table(&t.name));
            data.filter(|t| t.kind == kind).count()
        };
        let tables = count(TableKind::Table);
        match count(TableKind::View) {
            0 => tr!("count-tables", tables = tables),
            views => tr!("count-tables-and-views", tables = tables, views = views),
        }
    }
}

/// Where the open database's value index is.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ValueIndexState {
    /// No database is open, or the one open is not settled yet.
    #[default]
    None,
    /// Being read.
    Building,
    /// Read, in `ms` milliseconds.
    Ready { index: Arc<ValueIndex>, ms: f64 },
}

impl ValueIndexState {
    /// The index, when it is ready.
    pub fn index(&self) -> Option<Arc<ValueIndex>> {
        match self {
            ValueIndexState::Ready { index, .. } => Some(index.clone()),
            _ => None,
        }
    }

    /// The schema panel's line: "Values a question may name: …", or `None` with no database.
    pub fn line(&self) -> Option<String> {
        match self {
            ValueIndexState::None => None,
            ValueIndexState::Building => Some(tr!("count-values-reading")),
            ValueIndexState::Ready { index, .. } => Some(tr!(
                "count-values-line",
                coverage = crate::present::value_index::coverage(index.coverage())
            )),
        }
    }
}

/// A database at a web address whose server cannot serve parts, which the page offers to
/// download whole (`engine::on_demand::remote::WholeDownload`).
#[derive(Clone, Debug, PartialEq)]
pub struct DownloadOffer {
    pub url: String,
    pub name: String,
    /// The whole file's size, when the server said it.
    pub size: Option<u64>,
}

/// The database an import made (`ui::importing`), kept for "Download as .db".
#[derive(Clone)]
pub struct ImportedFile {
    /// The name the open database has while it is the one the import made.
    pub opened_as: String,
    /// The name "Download as .db" saves it under.
    pub file_name: String,
    pub database: web_sys::Blob,
    /// What the import read and wrote, in sentences (`import::sentences`), said in the page's
    /// language.
    pub sentences: Vec<crate::import::Sentence>,
}

/// A database being read or opened.
#[derive(Clone, Debug, PartialEq)]
pub struct Loading {
    /// What is happening, for people: "Reading big.db", "Reading the schema".
    pub label: String,
    /// Done so far, 0.0–1.0, when it is known.
    pub fraction: Option<f64>,
}

/// The assistant's half of the page's state: what the model may read and is told of the open
/// database, what was sent to it, and what its questions read.
#[derive(Clone, Copy)]
pub struct Assistant {
    /// The database the model reads when it is not the open one as it is (`model_view`): a copy
    /// without what is left out, or the open one behind the knowledge fence.
    pub model_view_db: StoredValue<Option<Rc<ModelDatabase>>, LocalStorage>,
    /// What is hidden from the model, and what the model sees.
    pub hiding: RwSignal<Hiding>,
    /// What the open database's data means (notes, glossary, examples, golden questions).
    pub knowledge: RwSignal<KnowledgeState>,
    /// The values of the database the model reads, for the values a question names
    /// (`ui::value_index`).
    pub values: RwSignal<ValueIndexState>,
    /// A conversation file opened to be replayed, until the chat takes it (once a database
    /// is open).
    pub pending_replay: RwSignal<Option<Arc<ConversationFile>>>,
    /// Every request sent to a model since the page was opened.
    pub sent: SentLedger,
    /// What each question read from a database read on demand, for the ledger.
    pub question_reads: RwSignal<Vec<QuestionReads>>,
}

impl Assistant {
    fn new() -> Assistant {
        Assistant {
            model_view_db: StoredValue::new_local(None),
            hiding: RwSignal::new(Hiding::default()),
            knowledge: RwSignal::new(KnowledgeState::default()),
            values: RwSignal::new(ValueIndexState::default()),
            pending_replay: RwSignal::new(None),
            sent: SentLedger::new(),
            question_reads: RwSignal::new(Vec::new()),
        }
    }
}

/// Handles to the page's shared state; cheap to copy into closures. Its own fields are the
/// database shell's: the engines, the open database and its opening, the console; the
/// assistant's are in [`Assistant`].
#[derive(Clone, Copy)]
pub struct AppState {
    /// Where the in-memory engine's worker script is (`worker.js`, resolved against the page).
    worker_url: StoredValue<String>,
    /// Where the script of the engine that reads on demand is (`lazy-worker.js`).
    lazy_worker_url: StoredValue<String>,
    /// Local files of this many bytes and more are read on demand (`engine::kind`).
    pub on_demand_from: StoredValue<u64>,
    /// Remote files smaller than this are downloaded whole (`engine::on_demand::remote::route`).
    pub read_whole_below: StoredValue<u64>,
    /// The page's address, read once when the page started.
    pub address: StoredValue<PageAddress>,
    /// A worker started ahead, with SQLite loaded, for the next database opened.
    spare: StoredValue<Spare, LocalStorage>,
    /// The open database, of whatever kind (none before the first open).
    pub db: StoredValue<Option<Rc<PageDatabase>>, LocalStorage>,
    /// What tells the open database from another.
    pub identity: RwSignal<Identification>,
    pub open: RwSignal<Option<OpenDatabase>>,
    pub loading: RwSignal<Option<Loading>>,
    /// Why the last attempt to open a database failed.
    pub open_error: RwSignal<Option<String>>,
    /// What the status offers after that failure, if anything.
    pub download_offer: RwSignal<Option<DownloadOffer>>,
    /// What to set on the server, after a web address that cannot be read in parts (shown
    /// folded under the error's one sentence).
    pub server_help: RwSignal<Option<String>>,
    pub limits: RwSignal<QueryLimits>,
    /// The console's text (the schema view can fill it).
    pub sql: RwSignal<String>,
    /// Where the last open's time went (for the benchmark).
    pub open_steps: StoredValue<super::open_steps::OpenSteps, LocalStorage>,
    /// API tokens for Datasette servers, each for its own server.
    pub server_tokens: super::tokens::TokenStore,
    /// The database the last import made (while it is open, "Download as .db" saves it).
    pub imported: RwSignal<Option<ImportedFile>, LocalStorage>,
    /// Stops the import that runs (`ui::importing::stop`).
    pub import_stop: StoredValue<Option<futures::channel::oneshot::Sender<()>>, LocalStorage>,
    /// True while an import runs (its Stop button shows).
    pub importing: RwSignal<bool>,
    /// What the model reads and is told, and what it was sent.
    pub assistant: Assistant,
    /// The databases opened recently, to reopen, and the open one's copy.
    pub recent: super::recent::list::RecentState,
}

/// The page's [`Ledger`], and what redraws the views that read it.
#[derive(Clone, Copy)]
pub struct SentLedger {
    ledger: StoredValue<Ledger, LocalStorage>,
    changed: Trigger,
}

impl SentLedger {
    fn new() -> SentLedger {
        let changed = Trigger::new();
        SentLedger {
            ledger: StoredValue::new_local(Ledger::with_listener(move || changed.notify())),
            changed,
        }
    }

    /// The ledger itself, for the HTTP client to write into.
    pub fn ledger(&self) -> Ledger {
        self.ledger.get_value()
    }

    /// Reads the ledger; a view that does is redrawn when it changes.
    pub fn read<T>(&self, read: impl FnOnce(&Ledger) -> T) -> T {
        self.changed.track();
        self.ledger.with_value(read)
    }
}

/// The worker started ahead of the next open ([`AppState::start_spare`]).
#[derive(Default)]
enum Spare {
    #[default]
    None,
    /// Its thread started at the page's first quiet moment, SQLite's wasm not loaded
    /// ([`AppState::rest_spare`]).
    Resting(WorkerDatabase),
    /// Loading SQLite: another is not started meanwhile.
    Starting,
    Ready(WorkerDatabase),
}

impl AppState {
    /// The page's state, with engines whose worker scripts are at `worker_url` (in memory) and
    /// `lazy_worker_url` (on demand).
    pub fn new(worker_url: &str, lazy_worker_url: &str, address: PageAddress) -> AppState {
        AppState {
            address: StoredValue::new(address),
            worker_url: StoredValue::new(worker_url.to_string()),
            lazy_worker_url: StoredValue::new(lazy_worker_url.to_string()),
            on_demand_from: StoredValue::new(ON_DEMAND_FROM_BYTES),
            read_whole_below: StoredValue::new(READ_WHOLE_BELOW_BYTES),
            spare: StoredValue::new_local(Spare::None),
            db: StoredValue::new_local(None),
            identity: RwSignal::new(Identification::None),
            open: RwSignal::new(None),
            loading: RwSignal::new(None),
            open_error: RwSignal::new(None),
            download_offer: RwSignal::new(None),
            server_help: RwSignal::new(None),
            limits: RwSignal::new(QueryLimits::default()),
            sql: RwSignal::new(String::new()),
            open_steps: StoredValue::new_local(Default::default()),
            server_tokens: super::tokens::TokenStore::load(),
            imported: RwSignal::new_local(None),
            import_stop: StoredValue::new_local(None),
            importing: RwSignal::new(false),
            assistant: Assistant::new(),
            recent: super::recent::list::RecentState::load(),
        }
    }

    /// An engine for the next database opened: the one started ahead if there is one, else a
    /// new one.
    pub fn engine(&self) -> Result<WorkerDatabase, DbError> {
        let ready = self
            .spare
            .try_update_value(|spare| match std::mem::take(spare) {
                // A resting one loads SQLite with the open: its thread has started.
                Spare::Ready(engine) | Spare::Resting(engine) => Some(engine),
                // One still starting stays, and is ready for the open after this one.
                other => {
                    *spare = other;
                    None
                }
            });
        match ready.flatten() {
            Some(engine) => Ok(engine),
            None => self.new_engine(),
        }
    }

    /// A new in-memory engine (its worker starts with its first request).
    fn new_engine(&self) -> Result<WorkerDatabase, DbError> {
        WorkerDatabase::new(&self.worker_url.get_value())
    }

    /// An engine that reads a database on demand (nothing loads until it opens one).
    pub fn lazy_engine(&self) -> Result<LazyDatabase, DbError> {
        LazyDatabase::new(&self.lazy_worker_url.get_value())
    }

    /// Starts a worker ahead, with SQLite loaded in it, for the next open: starting one costs
    /// a moment the open then need not wait for. A resting one ([`AppState::rest_spare`])
    /// loads SQLite now.
    /// One at a time: while one is starting or ready, this does nothing.
    pub fn start_spare(&self) {
        let engine = match self.spare.try_update_value(std::mem::take) {
            Some(Spare::Resting(engine)) => engine,
            Some(Spare::None) => match self.new_engine() {
                Ok(engine) => engine,
                Err(_) => return,
            },
            Some(busy) => {
                self.spare.set_value(busy);
                return;
            }
            None => return,
        };
        self.spare.set_value(Spare::Starting);
        let spare = self.spare;
        leptos::task::spawn_local(async move {
            // A worker that did not start is not kept: the open starts its own, and says why.
            let next = match engine.warm().await {
                Ok(()) => Spare::Ready(engine),
                Err(_) => Spare::None,
            };
            spare.set_value(next);
        });
    }

    /// Starts a worker's thread for an open to come, with sql.js's scripts loaded but not its
    /// wasm: the browser takes 60–190 ms to start a thread, and the two scripts, fetched one
    /// after the other, 40–60 ms more, which an open with nothing before it (a file dropped,
    /// or chosen by the keyboard) would otherwise wait for. The wasm (336 KB of 359 gzipped)
    /// waits for a sign of an open ([`AppState::start_spare`]): a visit that opens nothing
    /// does not download it. Nothing when a spare is there, or an open runs (which readies the
    /// next one when it ends).
    pub fn rest_spare(&self) {
        let free = self.spare.with_value(|spare| matches!(spare, Spare::None));
        if !free || self.loading.get_untracked().is_some() {
            return;
        }
        let Ok(engine) = self.new_engine() else {
            return;
        };
        // A thread that does not start is not kept: the open starts its own, and says why.
        if engine.start_resting().is_ok() {
            self.spare.set_value(Spare::Resting(engine));
        }
    }

    /// Puts what `question` read from `db` since `before` (its total then) in the ledger, when
    /// `db` is read on demand or asked on a Datasette server (its requests, bytes and time).
    pub fn note_question_reads(
        &self,
        question: &str,
        db: &PageDatabase,
        before: Option<ReadStats>,
    ) {
        if let (Some(before), Some(now)) = (before, db.total_reads()) {
            let reads = QuestionReads {
                question: question.to_string(),
                reads: now.since(before),
                from: db.kind().reads(),
            };
            self.assistant
                .question_reads
                .update(|list| list.push(reads));
        }
    }

    /// The open database, to hold across an `.await`; `None` when none is open.
    pub fn database(&self) -> Option<Rc<PageDatabase>> {
        self.db.get_value()
    }

    /// The database the model's queries run on: the whole one when nothing is left out of its
    /// view, the copy without it once that is ready; `None` while it is not, or when this
    /// database cannot leave it out (the agent must then not run, rather than fall back to the
    /// whole database).
    pub fn model_view_database(&self) -> Option<Rc<ModelDatabase>> {
        use super::hiding::view::ModelViewState;
        self.assistant
            .hiding
            .with_untracked(|h| match h.model_view {
                ModelViewState::Whole(_) => self.db.get_value().map(|db| Rc::new(Fenced::open(db))),
                ModelViewState::Copy(_) | ModelViewState::Fenced(_) => {
                    self.assistant.model_view_db.get_value()
                }
                ModelViewState::Closed
                | ModelViewState::Preparing
                | ModelViewState::Failed(_)
                | ModelViewState::Refused(_) => None,
            })
    }

    /// What a saved conversation records about the open database (`None` until its identity
    /// is known).
    pub fn database_record(&self) -> Option<DatabaseIdentity> {
        let identity = self.identity.get_untracked();
        self.open
            .with_untracked(|open| open.as_ref()?.record(&identity))
    }
}
