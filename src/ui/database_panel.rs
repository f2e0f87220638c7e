//! Opening a database: the demo, a file picker, drag and drop; and the status line.

use super::address_field;
use super::app_state;
use super::intake::{expect_open, start_open, Source};
use super::marked::marked;
use super::state::OpenDatabase;
use crate::browser::file_handles::{can_pick, pick, Picked};
use crate::present::ledger::{downloaded_whole, how_read};
use crate::text::format_bytes;
use crate::tr;
use crate::ui::language::tr_live;
use leptos::ev;
use leptos::prelude::*;
use web_sys::{DragEvent, HtmlInputElement};

#[component]
pub fn DatabasePanel() -> impl IntoView {
    let state = app_state();
    let busy = move || state.loading.with(Option::is_some);

    let on_file = move |event: ev::Event| {
        let input: HtmlInputElement = event_target(&event);
        if let Some(source) = input.files().and_then(|files| chosen(&files)) {
            start_open(state, source);
        }
        // Lets the same file be picked again (after fixing it, say).
        input.set_value("");
    };
    // Where the browser gives handles to the files a person chooses, its own picker is used
    // instead of the input's: a large file can then be reopened on a later visit
    // (`ui::recent`). The input stays, for browsers without it (and the tests' files).
    let on_pick = move |event: ev::MouseEvent| {
        if !can_pick() {
            return;
        }
        event.prevent_default();
        if busy() {
            return;
        }
        leptos::task::spawn_local(async move {
            match pick().await {
                Ok(picked) => {
                    if let Some(source) = picked_source(picked) {
                        start_open(state, source);
                    }
                }
                Err(why) => state
                    .open_error
                    .set(Some(tr!("open-picker-failed", why = why))),
            }
        });
    };

    view! {
        <section
            class="panel database"
            aria-labelledby="database-heading"
            on:pointerenter=move |_| expect_open(state)
            on:focusin=move |_| expect_open(state)
        >
            <h2 id="database-heading">{tr_live("open-heading")}</h2>
            <div class="open-actions">
                // aria-disabled, not disabled: a disabled button drops the keyboard's focus to
                // the page, and the person would have to Tab from the top after every open.
                // A click while busy does nothing (start_open opens one thing at a time).
                <button
                    class="button primary"
                    data-testid="db-demo"
                    aria-disabled=move || busy().to_string()
                    on:click=move |_| start_open(state, Source::demo())
                >
                    {tr_live("open-demo")}
                </button>
                <label class="button file-button" class:disabled=busy>
                    {tr_live("open-file")}
                    <input
                        type="file"
                        class="visually-hidden"
                        data-testid="db-file"
                        multiple
                        disabled=busy
                        on:change=on_file
                        on:click=on_pick
                    />
                </label>
            </div>
            <super::recent::view::RecentDatabases/>
            <address_field::AddressField/>
            <super::datasette_form::DatasetteForm/>
            <p class="hint">{tr_live("open-hint")}</p>
            <Status/>
            <super::recent::view::KeepLine/>
        </section>
    }
}

/// The open database's name and size, what is loading, or why the last open failed.
/// `data-ready="true"` when nothing is loading (for tests).
#[component]
pub fn Status() -> impl IntoView {
    let state = app_state();
    let ready = move || state.loading.with(Option::is_none).to_string();
    let body = move || {
        if let Some(loading) = state.loading.get() {
            let stop = state.importing.get().then(|| {
                view! {
                    <button
                        class="button"
                        data-testid="import-stop"
                        on:click=move |_| super::importing::stop(state)
                    >
                        {tr_live("open-stop")}
                    </button>
                }
            });
            return view! {
                <p class="status-line">{loading.label}"…"</p>
                <progress
                    max="1"
                    value=loading.fraction
                    aria-label=tr_live("open-progress")
                ></progress>
                {stop}
            }
            .into_any();
        }
        if let Some(error) = state.open_error.get() {
            return view! {
                <p class="status-line error" role="alert">{marked(&error)}</p>
                <ServerHelp/>
                <DownloadOfferButton/>
            }
            .into_any();
        }
        match state.open.get() {
            Some(open) => view! {
                <p class="status-line">
                    <strong class="db-name" translate="no">{open.name.clone()}</strong>
                    <span class="db-summary">{open.summary()}</span>
                    {reading(&open).map(|reading| view! {
                        <span class="db-reading" data-testid="db-reading">{marked(&reading)}</span>
                    })}
                </p>
                <ImportedLine name=open.name/>
            }
            .into_any(),
            None => view! { <p class="status-line muted">{tr!("open-none")}</p> }.into_any(),
        }
    };
    view! {
        <div class="status" data-testid="db-status" data-ready=ready aria-live="polite">
            {body}
        </div>
    }
}

/// How its bytes are read, when that is not "all of it, from a file here, into memory": "4.6
/// GB, read on demand" (the person then knows why hiding is refused and a scan is slower), or
/// why a file at a web address was downloaded whole. The server's name marked as data.
fn reading(open: &OpenDatabase) -> Option<String> {
    let host = open.host.as_deref().map(crate::present::marked::data);
    let host = host.as_deref();
    let downloaded = open
        .downloaded
        .map(|why| downloaded_whole(why, open.size, host));
    how_read(open.kind.reads(), open.size, host).or(downloaded)
}

/// The files the person chose with the browser's picker: one with its handle, several to
/// import together.
fn picked_source(picked: Vec<Picked>) -> Option<Source> {
    if picked.len() > 1 {
        return Some(Source::Files(picked.into_iter().map(|p| p.file).collect()));
    }
    let Picked { file, handle } = picked.into_iter().next()?;
    Some(Source::Picked { file, handle })
}

/// The files the person chose: one as it is, several to import together.
fn chosen(files: &web_sys::FileList) -> Option<Source> {
    let all: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    match all.len() {
        0 => None,
        1 => all.into_iter().next().map(Source::File),
        _ => Some(Source::Files(all)),
    }
}

/// Beside a database an import made (`name`, the open one's): what the import read and wrote,
/// and "Download as .db", which saves the database it made.
#[component]
fn ImportedLine(name: String) -> impl IntoView {
    let state = app_state();
    move || {
        let imported = state.imported.get().filter(|i| i.opened_as == name)?;
        let database = imported.database.clone();
        let file_name = imported.file_name.clone();
        let download = move |_| {
            let _ = crate::browser::save_blob(&file_name, &database);
        };
        Some(view! {
            <details class="import-report" data-testid="import-report">
                <summary>{tr_live("open-import-report")}</summary>
                <ul>
                    {imported.sentences.iter().map(|s| {
                        let s = s.clone();
                        view! { <li>{move || marked(&s.say_marked())}</li> }
                    }).collect_view()}
                </ul>
            </details>
            <button class="button" data-testid="import-download" on:click=download>
                {move || tr!("open-import-download", file = &imported.file_name)}
            </button>
        })
    }
}

/// After a web address whose server cannot serve parts: what to set on the server, folded.
#[component]
fn ServerHelp() -> impl IntoView {
    let state = app_state();
    move || {
        state.server_help.get().map(|help| {
            view! {
                <details class="server-help" data-testid="db-server-help">
                    <summary>{tr_live("open-server-help")}</summary>
                    <p>{help}</p>
                </details>
            }
        })
    }
}

/// After a web address whose server cannot serve parts: a button that downloads it whole (the
/// offer's size, when the server said it).
#[component]
fn DownloadOfferButton() -> impl IntoView {
    let state = app_state();
    move || {
        state.download_offer.get().map(|offer| {
            let size = offer.size;
            let label = move || match size {
                Some(size) => tr!("open-download-whole-sized", size = format_bytes(size)),
                None => tr!("open-download-whole"),
            };
            let open = move |_| {
                start_open(
                    state,
                    Source::WholeDownload {
                        url: offer.url.clone(),
                        name: offer.name.clone(),
                    },
                )
            };
            view! {
                <button class="button" data-testid="db-download-whole" on:click=open>
                    {label}
                </button>
            }
        })
    }
}

/// Files dragged anywhere onto the page open on drop; while one is over the page, an overlay
/// says so. The browser must never navigate to a dropped file.
#[component]
pub fn DropOverlay() -> impl IntoView {
    let state = app_state();
    let dragging = RwSignal::new(false);
    let carries_files = |event: &DragEvent| {
        event
            .data_transfer()
            .is_some_and(|data| data.types().includes(&"Files".into(), 0))
    };
    // The page lives as long as the window: these listeners are never removed.
    let _ = window_event_listener(ev::dragenter, move |event| {
        if carries_files(&event) {
            event.prevent_default();
            dragging.set(true);
            expect_open(state);
        }
    });
    let _ = window_event_listener(ev::dragover, move |event| event.prevent_default());
    let _ = window_event_listener(ev::drop, move |event| {
        event.prevent_default();
        dragging.set(false);
        let source = event
            .data_transfer()
            .and_then(|data| data.files())
            .and_then(|files| chosen(&files));
        if let Some(source) = source {
            start_open(state, source);
        }
    });
    view! {
        // Covers the page while dragging, so leaving it means leaving the window.
        <div
            class="drop-overlay"
            class:visible=dragging
            aria-hidden="true"
            on:dragleave=move |_| dragging.set(false)
        >
            <p>{tr_live("open-drop")}</p>
        </div>
    }
}
