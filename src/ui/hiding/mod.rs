//! Hiding tables and columns from the model.
//!
//! The choice is kept per database, under the SHA-256 of its bytes, in `localStorage`;
//! `?hide=table,table.column` in the address adds to it (a demo published with a column
//! hidden). When something is hidden the model's queries run on a copy without it
//! ([`crate::engine::hidden`]), open in an engine of its own; until that copy is ready the model
//! is not asked at all. The console keeps the whole database.
//!
//! The knowledge tables (`askdb_notes`, …) are left out of the model's copy too: they are
//! knowledge, not data. They are not the person's choice, so they are neither listed nor kept
//! as hidden; a database without them costs no copy.

pub mod view;

use view::{AgentView, Hiding};

use super::app_state;
use super::state::{AppState, Loading};
use crate::browser::{query_parameters, storage};
use crate::engine::hidden::{derive_script, load_catalogue, Hidden};
use crate::engine::{schema, DbError, Schema};
use crate::knowledge::is_knowledge_table;
use crate::settings::address::hidden_names;
use futures::lock::Mutex;
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;

thread_local! {
    /// Counts changes of the choice or the database: a copy made for an older one is not used.
    static GENERATION: Cell<u64> = const { Cell::new(0) };
    /// One copy is made at a time, so that the last one made is the last one asked for.
    static COPYING: Rc<Mutex<()>> = Rc::new(Mutex::new(()));
}

fn next_generation() -> u64 {
    GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    })
}

fn is_current(generation: u64) -> bool {
    GENERATION.with(Cell::get) == generation
}

fn storage_key(digest: &str) -> String {
    format!("askdb.hidden.{digest}")
}

/// Called as a database opens, before the page shows it: finds what is hidden in it (kept
/// choice and address) and, if anything is, makes the copy for the model. `schema` is the
/// whole database's.
pub async fn prepare_for_open(state: AppState, schema: &Schema, sha256: Option<&str>) {
    let generation = next_generation();
    // Computed once, as the bytes went to the worker (`opening`); none where the browser
    // offers no Web Crypto.
    let digest: Result<String, String> = sha256.map(str::to_string).ok_or_else(|| {
        "this browser offers no Web Crypto here (it needs https or this computer)".to_string()
    });
    let kept = digest
        .as_ref()
        .ok()
        .and_then(|digest| storage::read(&storage_key(digest)))
        .and_then(|json| serde_json::from_str::<Hidden>(&json).ok())
        .map(|hidden| hidden.within(schema))
        .unwrap_or_default();
    let (from_address, unresolved) = Hidden::resolve(schema, &hidden_names(&query_parameters()));
    let hidden = kept.union(&from_address);
    let left_out = left_out_of_copy(schema, &hidden);
    let view = if left_out.is_empty() {
        AgentView::Whole(schema.clone())
    } else {
        AgentView::Preparing
    };
    state.hiding.set(Hiding {
        hidden: hidden.clone(),
        view,
        unresolved: unresolved.iter().map(ToString::to_string).collect(),
        not_kept: digest
            .as_ref()
            .err()
            .map(|why| format!("This choice lasts until the tab closes: {why}.")),
        digest: digest.ok(),
    });
    if left_out.is_empty() {
        // A copy made for the database open before is not needed any more.
        state.agent_copy.get_value().close().await;
    } else {
        state.loading.set(Some(Loading {
            label: "Making the copy the model sees, without what is hidden".into(),
            fraction: None,
        }));
        make_copy(state, schema.clone(), left_out, generation).await;
    }
}

/// Hides (or shows again) a table, or a column when `column` is given, and remakes the copy.
pub fn toggle(state: AppState, table: &str, column: Option<&str>) {
    // While another database opens, the panel still shows the old one's names.
    if state.loading.with_untracked(Option::is_some) {
        return;
    }
    let Some(schema) = state
        .open
        .with_untracked(|o| o.as_ref().map(|o| o.schema.clone()))
    else {
        return;
    };
    let mut hidden = state.hiding.with_untracked(|h| h.hidden.clone());
    match column {
        Some(column) => hidden.toggle_column(table, column),
        None => hidden.toggle_table(table),
    }
    let generation = next_generation();
    let not_kept = keep(state, &hidden);
    let left_out = left_out_of_copy(&schema, &hidden);
    state.hiding.update(|h| {
        h.hidden = hidden.clone();
        h.view = if left_out.is_empty() {
            AgentView::Whole(schema.clone())
        } else {
            AgentView::Preparing
        };
        if not_kept.is_some() {
            h.not_kept = not_kept;
        }
    });
    if left_out.is_empty() {
        leptos::task::spawn_local(async move { state.agent_copy.get_value().close().await });
    } else {
        leptos::task::spawn_local(make_copy(state, schema, left_out, generation));
    }
}

/// What the model's copy leaves out: what the person hides, and the knowledge tables.
fn left_out_of_copy(schema: &Schema, hidden: &Hidden) -> Hidden {
    let knowledge_tables: Vec<String> = schema
        .tables
        .iter()
        .filter(|table| is_knowledge_table(&table.name))
        .map(|table| table.name.clone())
        .collect();
    if knowledge_tables.is_empty() {
        return hidden.clone();
    }
    hidden.union(&Hidden::resolve(schema, &knowledge_tables).0)
}

/// Saves the choice under the database's digest; the reason when it cannot be.
fn keep(state: AppState, hidden: &Hidden) -> Option<String> {
    let digest = state.hiding.with_untracked(|h| h.digest.clone())?;
    let key = storage_key(&digest);
    let saved = if hidden.is_empty() {
        storage::remove(&key)
    } else {
        let json = serde_json::to_string(hidden).expect("names and sets serialize");
        storage::write(&key, &json)
    };
    saved.err().map(|refused| refused.to_string())
}

/// Makes the copy without `hidden` and opens it in the model's engine; the outcome becomes the
/// model's view unless something changed meanwhile.
async fn make_copy(state: AppState, schema: Schema, hidden: Hidden, generation: u64) {
    let copying = COPYING.with(Rc::clone);
    let _one_at_a_time = copying.lock().await;
    if !is_current(generation) {
        return;
    }
    let outcome = copy_without(state, &schema, &hidden).await;
    if !is_current(generation) {
        return;
    }
    state.hiding.update(|h| {
        h.view = match outcome {
            Ok(copy) => AgentView::Copy(copy),
            Err(why) => AgentView::Failed(why.to_string()),
        }
    });
}

async fn copy_without(
    state: AppState,
    schema: &Schema,
    hidden: &Hidden,
) -> Result<Schema, DbError> {
    let whole = state.database();
    let copy = state.agent_copy.get_value();
    let catalogue = load_catalogue(&*whole).await?;
    let script = derive_script(schema, &catalogue, hidden);
    let bytes = whole.pristine_bytes().ok_or(DbError::NotOpen)?;
    let derived = copy.derive(&bytes, &script).await?;
    copy.open(derived).await?;
    schema::load(&*copy, &state.limits.get_untracked()).await
}

/// The line above the question box: what the model does not see, and anything to know about it.
#[component]
pub fn HiddenLine() -> impl IntoView {
    let state = app_state();
    move || {
        let hiding = state.hiding.get();
        let names = hiding.hidden.names();
        let unresolved = (!hiding.unresolved.is_empty()).then(|| {
            view! {
                <p class="hidden-note warn" data-testid="hide-unresolved">
                    "Not hidden (from the address): "{hiding.unresolved.join("; ")}
                </p>
            }
        });
        let hidden = (!names.is_empty()).then(|| {
            let status = match &hiding.view {
                AgentView::Preparing => Some(" (making the copy the model sees…)".to_string()),
                AgentView::Failed(why) => Some(format!(" (the copy could not be made: {why})")),
                _ => None,
            };
            view! {
                <p
                    class="hidden-line"
                    data-testid="hidden-line"
                    title="The model's queries run on a copy of the database without these; the \
                           console still sees everything. Changing this starts a new conversation."
                >
                    <span class="hidden-label">"Hidden from the model: "</span>
                    {names.join(", ")}
                    {status}
                </p>
                {hiding.not_kept.map(|why| view! { <p class="hidden-note">{why}</p> })}
            }
        });
        view! { {hidden} {unresolved} }
    }
}
