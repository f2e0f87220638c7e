//! The list of recent databases on the landing, and "Keep this database in this browser"
//! beside the open one.

use super::{forget, forget_all, keep, kept_sha256, refresh_storage, reopen};
use crate::kept::Reopen;
use crate::present::kept::{entry_line_with, storage_line};
use crate::present::marked::data as mark;
use crate::tr;
use crate::ui::app_state;
use crate::ui::language::tr_live;
use crate::ui::marked::marked;
use leptos::prelude::*;

/// "Recent databases": each with its size, tables, where it comes back from and when it was
/// opened; a click reopens it, "Forget" removes it (and its copy); the storage this site uses.
#[component]
pub fn RecentDatabases() -> impl IntoView {
    let state = app_state();
    let recent = state.recent;
    // What the copies take is asked once the list is shown with something in it.
    if recent
        .list
        .with_untracked(|list| !list.entries().is_empty())
    {
        refresh_storage(state);
    }
    let entries = move || {
        let now = js_sys::Date::now();
        recent.list.with(|list| {
            list.entries()
                .iter()
                .map(|entry| {
                    let line = entry_line_with(entry, now, mark);
                    let name = entry.name.clone();
                    let reopening = entry.clone();
                    let forgotten = entry.reopen.clone();
                    view! {
                        <li class="recent-entry" data-testid="recent-entry">
                            <button
                                class="link-button recent-name"
                                data-testid="recent-reopen"
                                translate="no"
                                aria-disabled=move || state.loading.with(Option::is_some).to_string()
                                on:click=move |_| reopen(state, reopening.clone())
                            >
                                {name.clone()}
                            </button>
                            <span class="recent-line">{marked(&line)}</span>
                            <button
                                class="button small recent-forget"
                                data-testid="recent-forget"
                                aria-label=move || tr!("open-recent-forget-name", name = &name)
                                on:click=move |_| forget(state, &forgotten)
                            >
                                {tr_live("open-recent-forget")}
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let any = move || recent.list.with(|list| !list.entries().is_empty());
    let storage = move || {
        recent.storage.get().map(|(usage, quota)| {
            view! { <p class="hint" data-testid="recent-storage">{storage_line(usage, quota)}</p> }
        })
    };
    let note = move || {
        recent.note.get().map(|note| {
            view! { <p class="hint recent-note" data-testid="recent-note" role="status">{marked(&note)}</p> }
        })
    };
    view! {
        <Show when=any>
            <section class="recent" aria-labelledby="recent-heading" data-testid="recent">
                <h3 id="recent-heading">{tr_live("open-recent-heading")}</h3>
                <ul class="recent-list">{entries}</ul>
                <div class="recent-actions">
                    <button
                        class="button small"
                        data-testid="recent-forget-all"
                        on:click=move |_| forget_all(state)
                    >
                        {tr_live("open-recent-forget-all")}
                    </button>
                </div>
                {storage}
            </section>
        </Show>
        {note}
    }
}

/// Beside the open database: "Keep this database in this browser", or that it is kept. Only
/// for a database whose bytes are here and were read whole.
#[component]
pub fn KeepLine() -> impl IntoView {
    let state = app_state();
    move || {
        // Tracked: the line follows the open database, its identity and the list; it waits
        // while something opens.
        state.open.track();
        state.identity.track();
        if state.loading.with(Option::is_some) {
            return None;
        }
        let sha256 = kept_sha256(state)?;
        let copy = Reopen::Copy { sha256 };
        if state.recent.list.with(|list| list.find(&copy).is_some()) {
            return Some(
                view! {
                    <p class="hint" data-testid="kept">{tr_live("open-recent-kept")}</p>
                }
                .into_any(),
            );
        }
        let keeping = state.recent.keeping;
        Some(
            view! {
                <div class="keep">
                    <button
                        class="button"
                        data-testid="keep-db"
                        aria-disabled=move || keeping.get().to_string()
                        on:click=move |_| keep(state)
                    >
                        {move || if keeping.get() { tr!("open-recent-keeping") } else { tr!("open-recent-keep") }}
                    </button>
                    <p class="hint">{tr_live("open-recent-keep-hint")}</p>
                </div>
            }
            .into_any(),
        )
    }
}
