//! The page (Leptos, client-side rendering).
//!
//! Layout: the database panel, the main column (the question to the agent with its transcript
//! and answer, then the console and its results), then the schema; wide screens show the
//! database panel and the schema side by side with the main column. `?embed=1` shows the
//! compact page for an iframe instead ([`embed`]). Text from the database is only ever rendered
//! as text nodes, never as HTML.

mod address_field;
mod chart_view;
mod chat;
mod connection;
mod console;
mod database_panel;
mod datasette_form;
mod demo_endpoint;
mod embed;
mod follow;
mod golden_run;
mod hiding;
mod importing;
mod intake;
mod knowledge;
mod language;
mod lazy;
mod ledger_view;
mod markdown_view;
mod marked;
mod number_input;
mod open_ahead;
mod open_steps;
mod opening;
mod recent;
mod result_table;
mod schema_view;
mod settings;
mod state;
mod task;
// Only in the page the end-to-end tests build: the shipped page exposes no bytes on `window`.
mod table_scroll;
#[cfg(feature = "test-hooks")]
mod test_hooks;
mod tokens;
mod value_index;

use crate::browser::{follow_host_theme, query_parameters, set_theme};
use crate::settings::address::{PageAddress, Theme};
use crate::ui::language::tr_live;
use intake::Source;
use leptos::prelude::*;
use state::AppState;

pub fn mount() {
    console_error_panic_hook::set_once();
    // The language first: the page is drawn once, in it.
    language::start(&query_parameters(), || leptos::mount::mount_to_body(App));
}

/// How long the page waits at most for a quiet moment after it is drawn.
const QUIET_AT_MOST_MS: u32 = 2_000;

#[component]
fn App() -> impl IntoView {
    // The address is read here, once; every part of the page takes what is its own from it.
    let address = PageAddress::read(query_parameters());
    let state = AppState::new("worker.js", "lazy-worker.js", address.clone());
    provide_context(state);
    // SQLite starts when the person is about to open a file (`intake::expect_open`), or with
    // an open the address asks for; a worker's thread, without SQLite's wasm, at the page's
    // first quiet moment (`AppState::rest_spare`).
    #[cfg(feature = "test-hooks")]
    test_hooks::install(state);

    // What is wrong with `?embed=` and `?theme=` is said in the settings panel, with the other
    // parameters.
    let shown = address.presentation;
    set_theme(shown.theme.map(|theme| theme.name()));
    // Inside a documentation page, the host's theme switch changes the colours here too.
    follow_host_theme(|name| {
        if let Some(theme) = Theme::named(name) {
            set_theme(Some(theme.name()));
        }
    });

    // `?db=<url>` opens that database at start, `?notes=<url>` reads its notes file, then
    // `?replay=<url>` replays a conversation.
    let start = &address.start;
    let opens_from_address = address.opens_a_database();
    let notes = start.notes.as_deref().map(Source::notes_address);
    // `?datasette=<address>` opens a database on a Datasette server instead (with the token
    // remembered for that server, if any: never one from the address).
    let served = start
        .datasette
        .iter()
        .map(|address| state.datasette_source(address));
    let sources = start.db.iter().map(|url| Source::database_address(url));
    // `?csv=`, `?json=`, …: data files imported together into one database.
    let data = (!start.data.is_empty()).then(|| Source::DataUrls(start.data.clone()));
    let sources = sources.chain(data);
    let sources = sources.chain(served).chain(notes);
    let sources = sources.chain(
        start
            .replay
            .iter()
            .map(|url| Source::conversation_address(url)),
    );
    intake::start_opening(state, sources.collect());
    leptos::task::spawn_local(async move {
        crate::browser::quiet_moment(QUIET_AT_MOST_MS).await;
        state.rest_spare();
    });

    if shown.embed {
        view! { <embed::CompactPage opens_from_address=opens_from_address/> }.into_any()
    } else {
        view! { <FullPage/> }.into_any()
    }
}

/// The page on its own: every panel.
#[component]
fn FullPage() -> impl IntoView {
    view! {
        <div class="app">
            <header class="app-header">
                <h1 class="brand" translate="no">"askdb"</h1>
                <p class="tagline">{tr_live("page-tagline")}</p>
                <language::LanguageMenu keeps_choice=true/>
            </header>
            // In reading order (narrow screens show it as is); wide screens put the database
            // and its schema in a side column (style.css, `.layout`).
            <div class="layout">
                <database_panel::DatabasePanel/>
                <main class="main">
                    <chat::Chat/>
                    <ledger_view::LedgerPanel/>
                    <console::Console/>
                </main>
                <schema_view::SchemaView/>
            </div>
            <database_panel::DropOverlay/>
        </div>
    }
}

/// The shared state, provided by [`App`].
fn app_state() -> AppState {
    expect_context::<AppState>()
}

/// The page's address as [`App`] read it, once.
fn the_address() -> PageAddress {
    app_state().address.get_value()
}
