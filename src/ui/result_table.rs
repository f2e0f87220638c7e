//! A query's outcome: its rows as a table (with row count, time and a CSV download), or the
//! error that stopped it.
//!
//! Cells keep values apart that look alike: NULL is a marked badge, the text 'NULL' is plain
//! text, the empty text is an empty cell. Numbers are right-aligned; long text is clipped with
//! a button that shows it whole.

use super::chart_view::TableOrChart;
use super::lazy::{on_first_use, when_here};
use super::marked::marked;
use crate::browser::save_file;
use crate::count::rows_caption_for_person;
use crate::engine::{QueryResult, Value};
use crate::present::csv::to_csv;
use crate::present::ledger::reads_phrase;
use crate::present::time::elapsed;
use crate::tr;
use crate::ui::language::tr_live;
use crate::ui::table_scroll::TableScroll;
use leptos::prelude::*;
use std::sync::Arc;

/// Longer text is clipped to this many characters until asked for.
const CLIP_CHARS: usize = 120;
/// How many cells are added to the page in one go (see `ResultTable`).
const CELLS_PER_SLICE: usize = 2_000;

/// A query's result (shared, not copied, by the views that show it), or why it has none (its
/// values may be marked: `present::errors::for_person_marked`).
pub type QueryOutcome = Result<Arc<QueryResult>, String>;

/// `running` dims the result shown while the next one is on its way (none when not given).
/// `testid_scope` sets a view apart from the console's when a page shows two: its test ids
/// become `<scope>-result`, `<scope>-sql-error`, and so on.
#[component]
pub fn ResultView(
    outcome: RwSignal<Option<QueryOutcome>>,
    #[prop(optional, into)] running: Signal<bool>,
    #[prop(optional)] testid_scope: Option<&'static str>,
) -> impl IntoView {
    let ids = TestIds(testid_scope);
    move || {
        let body = match outcome.get()? {
            Err(message) => view! {
                <p class="sql-error" data-testid=ids.id("sql-error") role="alert">{marked(&message)}</p>
            }
            .into_any(),
            Ok(result) => when_here(table_in_chunk(result, ids)),
        };
        Some(view! {
            <section
                class="panel results"
                class:stale=move || running.get()
                aria-label=tr_live("result-label")
                aria-busy=move || running.get().to_string()
            >
                {body}
            </section>
        })
    }
}

on_first_use! {
    database =>
    /// A result's rows (and its chart): drawn by the chunk that opened the database they come
    /// from, so a first visit does not download them.
    fn table_in_chunk(result: Arc<QueryResult>, ids: TestIds) -> AnyView {
        view! { <ResultTable result=result ids=ids/> }.into_any()
    }
}

/// The `data-testid` names of one result view.
#[derive(Clone, Copy)]
struct TestIds(Option<&'static str>);

impl TestIds {
    fn id(self, name: &str) -> String {
        match self.0 {
            Some(scope) => format!("{scope}-{name}"),
            None => name.to_string(),
        }
    }
}

#[component]
fn ResultTable(result: Arc<QueryResult>, ids: TestIds) -> impl IntoView {
    let header = result
        .columns
        .iter()
        .map(|name| view! { <th scope="col">{name.clone()}</th> })
        .collect_view();
    // Said when read, so that a change of the page's language reaches a result already shown.
    let counted = result.clone();
    let elapsed_ms = result.elapsed_ms;
    let meta = view! {
        <span data-testid=ids.id("result-rowcount")>{move || row_count_text(&counted)}</span>
        <span class="muted" data-testid=ids.id("result-elapsed")>{move || elapsed(elapsed_ms)}</span>
        {result.reads.map(|reads| view! {
            <span class="muted" data-testid=ids.id("result-reads")>{move || reads_phrase(reads)}</span>
        })}
    };

    // Rows appear a slice at a time, one slice per task, so that a thousand wide rows never
    // hold the page up; the first slice shows at once.
    let rows_per_slice = (CELLS_PER_SLICE / result.columns.len().max(1)).max(1);
    let slice_count = result.rows.len().div_ceil(rows_per_slice);
    let revealed = RwSignal::new(1usize);
    leptos::task::spawn_local(async move {
        for shown in 2..=slice_count {
            gloo_timers::future::TimeoutFuture::new(0).await;
            // `try_set` hands the value back once the table is gone: stop then.
            if revealed.try_set(shown).is_some() {
                break;
            }
        }
    });
    let words = Arc::new(CellWords::read());
    let slices = (0..slice_count)
        .map(|index| {
            let result = result.clone();
            let words = words.clone();
            view! {
                <Show when=move || { revealed.get() > index }>
                    {
                        let start = index * rows_per_slice;
                        let end = (start + rows_per_slice).min(result.rows.len());
                        result.rows[start..end]
                            .iter()
                            .map(|row| view! { <tr>{row.iter().map(|value| cell(value, &words)).collect_view()}</tr> })
                            .collect_view()
                    }
                </Show>
            }
        })
        .collect_view();

    view! {
        <div class="result-meta">
            {meta}
            <button
                class="button small"
                data-testid=ids.id("csv-download")
                title=tr_live("result-csv-title")
                on:click={
                    let result = result.clone();
                    move |_| download_csv(&to_csv(&result.columns, &result.rows))
                }
            >
                {tr_live("result-csv-download")}
            </button>
        </div>
        <TableOrChart result=result>
            <TableScroll label=Signal::derive(|| tr!("result-rows-label")) test_id=ids.id("result")>
                // The rows are data: never translated.
                <table translate="no">
                    <thead>
                        <tr>{header}</tr>
                    </thead>
                    <tbody>{slices}</tbody>
                </table>
            </TableScroll>
        </TableOrChart>
    }
}

/// One cell. Every cell has the same shape (no type-erased views): a table of a thousand wide
/// rows must render quickly.
fn cell(value: &Value, words: &CellWords) -> impl IntoView {
    let mut null_mark = false;
    let mut long_text = None;
    let mut title = None;
    let (class, text) = match value {
        Value::Null => {
            null_mark = true;
            ("null", None)
        }
        Value::Integer(_) | Value::Real(_) => ("num", Some(number_text(value))),
        Value::Text(text) if text.is_empty() => {
            title = Some(words.empty_text.clone());
            ("empty-text", None)
        }
        Value::Text(text) if text.chars().count() > CLIP_CHARS => {
            long_text = Some(text.clone());
            ("", None)
        }
        Value::Text(text) => ("", Some(text.clone())),
        Value::Blob(bytes) => ("blob", Some(tr!("result-blob", bytes = bytes.len()))),
    };
    view! {
        <td class=class title=title>
            {null_mark.then(|| view! { <span class="null-mark" title=words.null_title.clone()>"NULL"</span> })}
            {text}
            {long_text.map(|text| view! { <LongText text=text/> })}
        </td>
    }
}

/// What a cell says beside its value, read once for a table (not once for each of its cells).
struct CellWords {
    null_title: String,
    empty_text: String,
}

impl CellWords {
    fn read() -> CellWords {
        CellWords {
            null_title: tr!("result-null-title"),
            empty_text: tr!("result-empty-text"),
        }
    }
}

/// Long text, clipped until the button shows it whole.
#[component]
fn LongText(text: String) -> impl IntoView {
    let whole = RwSignal::new(false);
    let clipped: String = text.chars().take(CLIP_CHARS).collect();
    let length = text.chars().count();
    view! {
        <span class="cell-text" class:clipped=move || !whole.get()>
            {move || if whole.get() { text.clone() } else { format!("{clipped}…") }}
        </span>
        " "
        <button
            class="link-button"
            aria-expanded=move || whole.get().to_string()
            on:click=move |_| whole.update(|w| *w = !*w)
        >
            {move || if whole.get() { tr!("result-show-less") } else { tr!("result-show-all", length = length.to_string()) }}
        </button>
    }
}

/// Reals keep a decimal point (2.0, not 2) so they read apart from integers; very large or
/// very small ones use an exponent.
fn number_text(value: &Value) -> String {
    match value {
        Value::Real(r) if r.is_finite() && *r != 0.0 && (r.abs() >= 1e16 || r.abs() < 1e-5) => {
            format!("{r:e}")
        }
        Value::Real(r) if r.is_finite() && r.fract() == 0.0 => format!("{r:.1}"),
        other => other.to_string(),
    }
}

fn row_count_text(result: &QueryResult) -> String {
    rows_caption_for_person(result.rows.len(), !result.truncated, result.total_rows)
}

/// Saves the rows as `result.csv`.
fn download_csv(text: &str) {
    if let Err(e) = save_file("result.csv", "text/csv;charset=utf-8", text) {
        web_sys::console::error_2(&"askdb: the CSV download failed".into(), &e);
    }
}
