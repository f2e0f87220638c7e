//! What the page's parts share: the database engine, what is open, and the query settings.

use super::hiding::Hiding;
use crate::engine::worker::WorkerDatabase;
use crate::engine::{QueryLimits, Schema};
use crate::present::count::plural;
use leptos::prelude::*;
use std::rc::Rc;

/// The database that is open, as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenDatabase {
    /// A name for people: the file name, or the last part of the address.
    pub name: String,
    pub schema: Schema,
}

impl OpenDatabase {
    /// "3 tables", "13 tables, 17 views".
    pub fn summary(&self) -> String {
        use crate::engine::TableKind;
        let count = |kind| self.schema.tables.iter().filter(|t| t.kind == kind).count();
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
    pub open: RwSignal<Option<OpenDatabase>>,
    pub loading: RwSignal<Option<Loading>>,
    /// Why the last attempt to open a database failed.
    pub open_error: RwSignal<Option<String>>,
    pub limits: RwSignal<QueryLimits>,
    /// The console's text (the schema view can fill it).
    pub sql: RwSignal<String>,
}

impl AppState {
    pub fn new(db: WorkerDatabase) -> AppState {
        AppState {
            agent_copy: StoredValue::new_local(Rc::new(db.sibling())),
            hiding: RwSignal::new(Hiding::default()),
            db: StoredValue::new_local(Rc::new(db)),
            open: RwSignal::new(None),
            loading: RwSignal::new(None),
            open_error: RwSignal::new(None),
            limits: RwSignal::new(QueryLimits::default()),
            sql: RwSignal::new(String::new()),
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
        use super::hiding::AgentView;
        self.hiding.with_untracked(|h| match h.view {
            AgentView::Whole(_) => Some(self.db.get_value()),
            AgentView::Copy(_) => Some(self.agent_copy.get_value()),
            AgentView::Closed | AgentView::Preparing | AgentView::Failed(_) => None,
        })
    }
}
