//! The SQL console: type a query, run it (button or Ctrl+Enter), stop it, see its result.
//! Every query goes through `engine::query`, so the read-only rules apply here too.

use super::app_state;
use super::number_input::NumberInput;
use super::result_table::{QueryOutcome, ResultView};
use super::task::Task;
use crate::engine::{query, DbError};
use crate::present::errors::{after_stop, for_person, for_person_marked};
use crate::tr;
use crate::ui::language::tr_live;
use futures::future::{select, Either};
use leptos::ev;
use leptos::prelude::*;
use std::sync::Arc;

/// The SQL box's `id`, to give it the focus.
pub const INPUT_ID: &str = "sql-input";

/// The largest row cap the page accepts: every kept row is rendered.
const MAX_ROW_CAP: usize = 100_000;
/// The longest deadline the page accepts, in seconds.
const MAX_DEADLINE_S: f64 = 600.0;

#[component]
pub fn Console() -> impl IntoView {
    let state = app_state();
    let outcome = RwSignal::new(None::<QueryOutcome>);
    let task = Task::new();
    let running = Signal::derive(move || task.running());
    // A result belongs to the database it came from: another database clears it.
    Effect::new(move |_| {
        state.open.track();
        outcome.set(None);
    });

    let run = move || {
        if task.running_untracked() {
            return;
        }
        let Some(db) = state.database() else {
            outcome.set(Some(Err(for_person(&DbError::NotOpen))));
            return;
        };
        let Some(started) = task.start() else {
            return;
        };
        let sql = state.sql.get_untracked();
        let limits = state.limits.get_untracked();
        leptos::task::spawn_local(async move {
            let query = Box::pin(query(&*db, &sql, &limits));
            // Stop drops the query (before its result is shown): the engine then terminates
            // its worker at once.
            let result = match select(query, started.stopped.clone()).await {
                Either::Left((result, _)) => {
                    result.map(Arc::new).map_err(|e| for_person_marked(&e))
                }
                Either::Right(_stopped) => Err(format!(
                    "{} {}",
                    tr!("console-stopped"),
                    after_stop(db.after_stop())
                )),
            };
            outcome.set(Some(result));
        });
    };
    let stop_query = move || task.stop();
    let on_keydown = move |event: ev::KeyboardEvent| {
        if event.key() == "Enter" && (event.ctrl_key() || event.meta_key()) {
            event.prevent_default();
            run();
        }
    };

    view! {
        <section class="panel console" aria-labelledby="console-heading">
            <h2 id="console-heading">{tr_live("console-heading")}</h2>
            <textarea
                id=INPUT_ID
                class="sql-input"
                data-testid="sql-input"
                aria-label=tr_live("console-input-label")
                translate="no"
                spellcheck="false"
                autocomplete="off"
                rows="6"
                placeholder="SELECT * FROM orders LIMIT 10;"
                prop:value=move || state.sql.get()
                on:input=move |event| state.sql.set(event_target_value(&event))
                on:keydown=on_keydown
            ></textarea>
            <div class="console-bar">
                <button
                    class="button primary"
                    data-testid="sql-run"
                    disabled=move || running.get()
                    on:click=move |_| run()
                >
                    {move || if running.get() { tr!("console-running") } else { tr!("console-run") }}
                </button>
                <button
                    class="button"
                    data-testid="sql-stop"
                    disabled=move || !running.get()
                    on:click=move |_| stop_query()
                >
                    {tr_live("console-stop")}
                </button>
                <span class="hint keys">{tr_live("console-keys-hint")}</span>
                <Settings/>
            </div>
        </section>
        <ResultView outcome=outcome running=running/>
    }
}

/// The row cap and the deadline, for the console and for counting rows in the schema.
#[component]
fn Settings() -> impl IntoView {
    let state = app_state();
    view! {
        <div class="settings">
            <label>
                {tr_live("console-row-cap")}
                " "
                <NumberInput
                    testid="setting-row-cap"
                    range=1..=MAX_ROW_CAP
                    step="1"
                    value=Signal::derive(move || state.limits.get().max_rows.to_string())
                    set=move |n| state.limits.update(|l| l.max_rows = n)
                />
            </label>
            <label>
                {tr_live("console-deadline")}
                " "
                <NumberInput
                    testid="setting-deadline"
                    range=0.1..=MAX_DEADLINE_S
                    step="any"
                    value=Signal::derive(move || seconds(state.limits.get().deadline_ms))
                    set=move |s: f64| {
                        state.limits.update(|l| l.deadline_ms = (s * 1_000.0).round() as u32)
                    }
                />
                " s"
            </label>
        </div>
    }
}

/// 10000 → "10", 2500 → "2.5".
fn seconds(ms: u32) -> String {
    format!("{}", f64::from(ms) / 1_000.0)
}
