//! The schema panel's "Knowledge" section: what is known of this database's meaning (counts),
//! where it came from (the knowledge tables in the file, a notes file), what was dropped or
//! cut and why, and on the full page "Export notes file" and "Open notes file".

use super::super::app_state;
use super::super::intake::{start_open, Source};
use super::super::state::AppState;
use super::editor::source_label;
use crate::knowledge::Problem;
use crate::tr;
use crate::ui::language::tr_live;
use leptos::ev;
use leptos::prelude::*;
use web_sys::HtmlInputElement;

#[component]
pub fn KnowledgeSection(read_only: bool) -> impl IntoView {
    let state = app_state();
    let export_error = RwSignal::new(None::<String>);
    let summary = move || {
        state.assistant.knowledge.with(|k| {
            let counts = k.counts();
            if k.reading {
                tr!("notes-reading")
            } else if counts.is_empty() {
                tr!("notes-none")
            } else {
                counts.join(&tr!("notes-list-separator"))
            }
        })
    };
    view! {
        <section class="knowledge" data-testid="knowledge" aria-labelledby="knowledge-heading">
            <h3 id="knowledge-heading">{tr_live("notes-heading")}</h3>
            <p class="knowledge-line" data-testid="knowledge-counts">{summary}</p>
            {stored_tables_line(state)}
            {sidecar_line(state)}
            {problems_list(state)}
            {value_index_line(state)}
            {messages(state, export_error)}
            {(!read_only).then(|| notes_file_actions(state, export_error))}
        </section>
    }
}

/// The knowledge tables found in the database file, with their row counts (when there are any).
fn stored_tables_line(state: AppState) -> impl IntoView {
    move || {
        state.assistant.knowledge.with(|k| {
            (!k.stored_tables.is_empty()).then(|| {
                let separator = tr!("notes-list-separator");
                let tables = k
                    .stored_tables
                    .iter()
                    .enumerate()
                    .map(|(at, (name, rows))| {
                        let rows = rows.map(|count| {
                            tr!(
                                "notes-table-rows",
                                rows = crate::count::rows_for_person(count)
                            )
                        });
                        view! {
                            {(at > 0).then(|| separator.clone())}
                            <span translate="no">{name.clone()}</span>
                            {rows}
                        }
                    })
                    .collect_view();
                view! {
                    <p class="knowledge-line" data-testid="knowledge-tables">
                        {tr!("notes-tables-label")}
                        {tables}
                        <span class="muted">{tr!("notes-tables-not-data")}</span>
                    </p>
                }
            })
        })
    }
}

/// The notes file that was read, once it is no longer waiting.
fn sidecar_line(state: AppState) -> impl IntoView {
    move || {
        state.assistant.knowledge.with(|k| {
            k.sidecar.as_ref().filter(|s| !s.waiting).map(|s| {
                view! {
                    <p class="knowledge-line" data-testid="knowledge-sidecar">
                        {tr!("notes-file-label")}
                        <span translate="no">{s.name.clone()}</span>
                    </p>
                }
            })
        })
    }
}

/// What was dropped or cut from the notes and why, folded (when anything was).
fn problems_list(state: AppState) -> impl IntoView {
    move || {
        let problems = state.assistant.knowledge.with(|k| k.problems.clone());
        (!problems.is_empty()).then(|| {
            let count = problems.len();
            view! {
                <details class="knowledge-problems" data-testid="knowledge-problems">
                    <summary>{tr!("notes-problems", count = count)}</summary>
                    <ul>
                        {problems
                            .into_iter()
                            .map(|problem| view! { <li>{problem_line(&problem)}</li> })
                            .collect_view()}
                    </ul>
                </details>
            }
        })
    }
}

/// A problem as the page says it: what `Problem`'s `Display` says for the tools, in the page's
/// language (its subject and message were said in it when the problem was found).
fn problem_line(problem: &Problem) -> String {
    tr!(
        "notes-problem-line",
        subject = &problem.subject,
        source = source_label(problem.source),
        message = &problem.message
    )
}

/// The value index's state, when there is one.
fn value_index_line(state: AppState) -> impl IntoView {
    move || {
        state.assistant.values.with(|v| v.line()).map(|line| {
            view! { <p class="knowledge-line muted" data-testid="value-index">{line}</p> }
        })
    }
}

/// Reading's error, why notes were not kept, and the last export's error.
fn messages(state: AppState, export_error: RwSignal<Option<String>>) -> impl IntoView {
    move || {
        let (error, not_kept) = state
            .assistant
            .knowledge
            .with(|k| (k.error.clone(), k.not_kept.clone()));
        view! {
            {error.map(|e| view! { <p class="knowledge-line error" role="alert">{e}</p> })}
            {not_kept.map(|why| view! { <p class="knowledge-line muted">{why}</p> })}
            {move || export_error.get().map(|e| view! { <p class="knowledge-line error" role="alert">{e}</p> })}
        }
    }
}

/// "Export notes file" and "Open notes file…", on the full page only.
fn notes_file_actions(state: AppState, export_error: RwSignal<Option<String>>) -> impl IntoView {
    let on_file = move |event: ev::Event| {
        let input: HtmlInputElement = event_target(&event);
        if let Some(file) = input.files().and_then(|files| files.get(0)) {
            start_open(state, Source::NotesFile(file));
        }
        input.set_value("");
    };
    view! {
        <div class="knowledge-actions">
            <button
                class="button small"
                data-testid="export-notes"
                title=tr_live("notes-export-title")
                on:click=move |_| export_error.set(super::export(state).err())
            >
                {tr_live("notes-export")}
            </button>
            <label class="button small file-button">
                {tr_live("notes-open")}
                <input
                    type="file"
                    accept=".json,application/json"
                    class="visually-hidden"
                    data-testid="open-notes"
                    on:change=on_file
                />
            </label>
        </div>
    }
}
