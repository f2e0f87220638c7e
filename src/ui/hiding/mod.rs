//! Hiding tables and columns from the model.
//!
//! The choice is kept per database, under its identity's key (`engine::identity`: for a file
//! read whole, the SHA-256 of its bytes), in `localStorage`; `?hide=table,table.column` in the
//! address adds to it (a demo published with a column hidden). What the model may read follows
//! from it by [`crate::model_view::plan`]: the whole database when nothing is left out, a copy
//! without it (in an engine of its own) for a database in memory, or a refusal for a database
//! that cannot be copied. Until that is settled the model is not asked at all. The console
//! keeps the whole database.
//!
//! The knowledge tables (`askdb_notes`, …) are left out of the model view too: they are
//! knowledge, not data. They are not the person's choice, so they are neither listed nor kept
//! as hidden; a database without them costs no copy.

pub mod view;

use view::{Hiding, ModelViewState};

use super::app_state;
use super::follow::follower::Follower;
use super::lazy::on_first_use;
use super::state::AppState;
use crate::browser::storage;
use crate::engine::hidden::Hidden;
use crate::engine::page::{ModelDatabase, PageDatabase};
use crate::engine::{schema, DbError, Schema};
use crate::model_view::{self, Made, Prepared};
use crate::present;
use crate::tr;
use futures::lock::Mutex;
use leptos::prelude::*;
use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;

thread_local! {
    /// Counts changes of the choice or the database: a view made for an older one is not used.
    static GENERATION: Cell<u64> = const { Cell::new(0) };
    /// One view is made at a time, so that the last one made is the last one asked for.
    static PREPARING: Rc<Mutex<()>> = Rc::new(Mutex::new(()));
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

fn storage_key(key: &str) -> String {
    format!("askdb.hidden.{key}")
}

/// Hiding follows each open (`ui::follow`): it settles what the model reads.
pub const FOLLOWS: Follower = Follower {
    shown: Some((
        || tr!("hide-preparing-status"),
        "what the model sees (hiding)",
    )),
    forget: start_opening,
    settle: |state, settled| {
        Box::pin(async move { prepare_for_open(state, &settled.schema, settled.key).await })
    },
    // Hiding is what changes the view (`follow::toggle_hidden` tells the others).
    view_changes: |_, _| {},
};

/// Called as a database opens, before the page shows it: until [`prepare_for_open`], the model
/// may not be asked (nothing of the database open before applies any more).
pub fn start_opening(state: AppState) {
    next_generation();
    state.assistant.hiding.set(Hiding {
        model_view: ModelViewState::Preparing,
        ..Hiding::default()
    });
}

/// Called once the open database's identity is settled (`key`: the key its choice is kept
/// under, or why there is none): finds what is hidden in it (kept choice and address) and
/// settles what the model reads. `schema` is the whole database's.
pub async fn prepare_for_open(state: AppState, schema: &Schema, key: Result<String, String>) {
    let generation = next_generation();
    let kept = key
        .as_ref()
        .ok()
        .and_then(|key| storage::read(&storage_key(key)))
        .and_then(|json| serde_json::from_str::<Hidden>(&json).ok())
        .map(|hidden| hidden.within(schema))
        .unwrap_or_default();
    let (from_address, unresolved) =
        Hidden::resolve(schema, &state.address.with_value(|a| a.hidden.clone()));
    let hidden = kept.union(&from_address);
    state.assistant.hiding.set(Hiding {
        hidden: hidden.clone(),
        model_view: ModelViewState::Preparing,
        unresolved,
        not_kept: key
            .as_ref()
            .err()
            .map(|why| tr!("hide-not-kept", why = why)),
        key: key.ok(),
    });
    // What follows the open settles after hiding (`ui::follow`): no one else is told here.
    make_model_view(state, schema.clone(), hidden, generation).await;
}

/// Hides (or shows again) a table, or a column when `column` is given; what remakes the view
/// is returned, to be run (`follow::toggle_hidden`, which tells the others). It ends `true`
/// when the view it made is the model view (no other change came meanwhile). `None`: nothing
/// changed.
pub fn toggle(
    state: AppState,
    table: &str,
    column: Option<&str>,
) -> Option<impl Future<Output = bool> + 'static> {
    // While another database opens, the panel still shows the old one's names.
    if state.loading.with_untracked(Option::is_some) {
        return None;
    }
    let schema = state
        .open
        .with_untracked(|o| o.as_ref().map(|o| o.schema.clone()))?;
    let mut hidden = state.assistant.hiding.with_untracked(|h| h.hidden.clone());
    match column {
        Some(column) => hidden.toggle_column(table, column),
        None => hidden.toggle_table(table),
    }
    let generation = next_generation();
    let not_kept = keep(state, &hidden);
    state.assistant.hiding.update(|h| {
        h.hidden = hidden.clone();
        h.model_view = ModelViewState::Preparing;
        if not_kept.is_some() {
            h.not_kept = not_kept;
        }
    });
    Some(make_model_view(state, schema, hidden, generation))
}

/// Saves the choice under the database's key; the reason when it cannot be.
fn keep(state: AppState, hidden: &Hidden) -> Option<String> {
    let key = state.assistant.hiding.with_untracked(|h| h.key.clone())?;
    let key = storage_key(&key);
    let saved = if hidden.is_empty() {
        storage::remove(&key)
    } else {
        let json = serde_json::to_string(hidden).expect("names and sets serialize");
        storage::write(&key, &json)
    };
    saved.is_err().then(|| tr!("hide-not-saved"))
}

/// Settles what the model reads with `hidden` kept from it ([`model_view::plan`]); the
/// outcome becomes the model view unless something changed meanwhile (then `false`).
async fn make_model_view(state: AppState, schema: Schema, hidden: Hidden, generation: u64) -> bool {
    let preparing = PREPARING.with(Rc::clone);
    let _one_at_a_time = preparing.lock().await;
    if !is_current(generation) {
        return false;
    }
    let view = match model_view_in_chunk(state, schema, hidden).await {
        Ok(Ok(view)) => view,
        Ok(Err(why)) => ModelViewState::Failed(why.to_string()),
        Err(not_loaded) => ModelViewState::Failed(not_loaded.to_string()),
    };
    if !is_current(generation) {
        return false;
    }
    if !matches!(view, ModelViewState::Copy(_) | ModelViewState::Fenced(_)) {
        // A copy made for the database or the choice before is not needed any more.
        keep_model_view_db(&state, None);
    }
    state.assistant.hiding.update(|h| h.model_view = view);
    true
}

on_first_use! {
    database =>
    /// See [`model_view_for`]: planning and making the model's view (the copy's script, the
    /// fence) are downloaded with the first database opened.
    fn model_view_in_chunk(
        state: AppState,
        schema: Schema,
        hidden: Hidden,
    ) -> Result<ModelViewState, DbError> {
        model_view_for(state, &schema, &hidden).await
    }
}

/// The model view of the open database with `hidden` kept from it ([`model_view::prepare`]):
/// the whole database, a copy without what is left out (in an engine of its own), or the
/// database behind a fence of names, kept in `AppState::model_view_db`; or a refusal.
async fn model_view_for(
    state: AppState,
    schema: &Schema,
    hidden: &Hidden,
) -> Result<ModelViewState, DbError> {
    let whole = state.database().ok_or(DbError::NotOpen)?;
    let limits = state.limits.get_untracked();
    let copy = async |whole: &PageDatabase, script: &str| {
        let copy = whole.model_view_copy(script).await?;
        let seen = schema::load_counting(&copy, copy.count_policy(), &limits).await?;
        Ok((copy, seen))
    };
    let prepared = model_view::prepare(&whole, schema, hidden, &whole.hiding(), copy).await?;
    let (database, seen, made) = match prepared {
        Prepared::Refused(refusal) => {
            return Ok(ModelViewState::Refused(present::hiding::refusal(&refusal)))
        }
        Prepared::Ready {
            database,
            schema,
            made,
        } => (database, schema, made),
    };
    Ok(match made {
        Made::Whole => ModelViewState::Whole(seen),
        Made::Copy => {
            keep_model_view_db(&state, Some(Rc::new(database)));
            ModelViewState::Copy(seen)
        }
        Made::Fenced => {
            keep_model_view_db(&state, Some(Rc::new(database)));
            ModelViewState::Fenced(seen)
        }
    })
}

/// Keeps `db` as the database the model reads (or none), and closes the one kept before when
/// it was a copy (one behind the fence is the open database, closed by the opening).
fn keep_model_view_db(state: &AppState, db: Option<Rc<ModelDatabase>>) {
    let before = state
        .assistant
        .model_view_db
        .try_update_value(|kept| std::mem::replace(kept, db))
        .flatten();
    if let Some(before) = before.filter(|before| !before.is_fenced()) {
        leptos::task::spawn_local(async move { before.database().close().await });
    }
}

/// The line above the question box: what the model does not see, and anything to know about it.
#[component]
pub fn HiddenLine() -> impl IntoView {
    let state = app_state();
    move || {
        let hiding = state.assistant.hiding.get();
        let names = hiding.hidden.names();
        let unresolved = (!hiding.unresolved.is_empty()).then(|| {
            let reasons: Vec<String> = hiding
                .unresolved
                .iter()
                .map(present::hiding::unresolved)
                .collect();
            view! {
                <p class="hidden-note warn" data-testid="hide-unresolved">
                    {tr!("hide-unresolved-label")}
                    {reasons.join(&tr!("hide-reason-separator"))}
                </p>
            }
        });
        let hidden = (!names.is_empty()).then(|| {
            let status = match &hiding.model_view {
                ModelViewState::Preparing => Some(tr!("hide-line-preparing")),
                ModelViewState::Failed(why) => Some(tr!("hide-line-failed", why = why)),
                ModelViewState::Refused(why) => Some(tr!("hide-line-refused", why = why)),
                _ => None,
            };
            view! {
                <p class="hidden-line" data-testid="hidden-line" title=tr!("hide-line-title")>
                    <span class="hidden-label">{tr!("hide-line-label")}</span>
                    <span translate="no">{names.join(", ")}</span>
                    {status}
                </p>
                {hiding.not_kept.map(|why| view! { <p class="hidden-note">{why}</p> })}
            }
        });
        view! { {hidden} {unresolved} }
    }
}
