//! What the page's parts share: the database engine, what is open, and the query settings.

use super::hiding::view::Hiding;
use super::knowledge::view::KnowledgeState;
use crate::conversation::{ConversationFile, DatabaseIdentity};
use crate::engine::worker::WorkerDatabase;
use crate::engine::{QueryLimits, Schema};
use crate::llm::ledger::Ledger;
use crate::present::count::plural;
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
    /// SHA-256 of its bytes; `None` when the browser could not compute it.
    pub sha256: Option<String>,
}

impl OpenDatabase {
    /// What a saved conversation records about this database.
    pub fn identity(&self) -> Option<DatabaseIdentity> {
        Some(DatabaseIdentity {
            name: self.name.clone(),
            size: self.size,
            sha256: self.sha256.clone()?,
        })
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
        let tables = plural(count(TableKind::Table) as u64, "table", "tables");
        match count(TableKind::View) {
            0 => tables,
            views => format!("{tables}, {}", plural(views as u64, "view", "views")),
        }
    }
}

/// A database being read or opened.
#[derive(Clone, Debug, PartialEq)]
pub struct Loading {
    /// What is happening, for people: "Reading big.db", "Reading the schema".
    pub label: String,
    /// Done so far, 0.0–1.0, when it is known.
    pub fraction: Option<f64>,
}

/// Handles to the page's shared state; cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The engine (a Web Worker); it lives as long as the page.
    pub db: StoredValue<Rc<WorkerDatabase>, LocalStorage>,
    /// A second engine, for the copy the model gets when something is hidden from it.
    pub agent_copy: StoredValue<Rc<WorkerDatabase>, LocalStorage>,
    /// What is hidden from the model, and what the model sees.
    pub hiding: RwSignal<Hiding>,
    /// What the open database's data means (notes, glossary, examples, golden questions).
    pub knowledge: RwSignal<KnowledgeState>,
    pub open: RwSignal<Option<OpenDatabase>>,
    pub loading: RwSignal<Option<Loading>>,
    /// Why the last attempt to open a database failed.
    pub open_error: RwSignal<Option<String>>,
    pub limits: RwSignal<QueryLimits>,
    /// The console's text (the schema view can fill it).
    pub sql: RwSignal<String>,
    /// A conversation file opened to be replayed, until the chat takes it (once a database
    /// is open).
    pub pending_replay: RwSignal<Option<Arc<ConversationFile>>>,
    /// Every request sent to a model since the page was opened.
    pub sent: SentLedger,
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

impl AppState {
    pub fn new(db: WorkerDatabase) -> AppState {
        AppState {
            agent_copy: StoredValue::new_local(Rc::new(db.sibling())),
            hiding: RwSignal::new(Hiding::default()),
            knowledge: RwSignal::new(KnowledgeState::default()),
            db: StoredValue::new_local(Rc::new(db)),
            open: RwSignal::new(None),
            loading: RwSignal::new(None),
            open_error: RwSignal::new(None),
            limits: RwSignal::new(QueryLimits::default()),
            sql: RwSignal::new(String::new()),
            pending_replay: RwSignal::new(None),
            sent: SentLedger::new(),
        }
    }

    /// The engine, to hold across an `.await`.
    pub fn database(&self) -> Rc<WorkerDatabase> {
        self.db.get_value()
    }

    /// The engine the model's queries run on: the whole database when nothing is hidden, the
    /// copy without the hidden things once it is ready; `None` while it is not (the agent must
    /// then not run, rather than fall back to the whole database).
    pub fn agent_database(&self) -> Option<Rc<WorkerDatabase>> {
        use super::hiding::view::AgentView;
        self.hiding.with_untracked(|h| match h.view {
            AgentView::Whole(_) => Some(self.db.get_value()),
            AgentView::Copy(_) => Some(self.agent_copy.get_value()),
            AgentView::Closed | AgentView::Preparing | AgentView::Failed(_) => None,
        })
    }
}
