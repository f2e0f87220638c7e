//! The page (Leptos, client-side rendering).
//!
//! Layout: the database panel, the main column (the question to the agent with its transcript
//! and answer, then the console and its results), then the schema; wide screens show the
//! database panel and the schema side by side with the main column. Text from the database is
//! only ever rendered as text nodes, never as HTML.

mod chart_view;
mod chat;
mod console;
mod database_panel;
mod hiding;
mod markdown_view;
mod number_input;
mod opening;
mod result_table;
mod schema_view;
mod settings;
mod state;
mod test_hooks;

use crate::browser::query_parameters;
use crate::engine::worker::WorkerDatabase;
use leptos::prelude::*;
use opening::Source;
use state::AppState;

pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

#[component]
fn App() -> impl IntoView {
    let db = WorkerDatabase::new("worker.js").expect("worker.js resolves against the page address");
    let state = AppState::new(db);
    provide_context(state);
    test_hooks::install(state);

    // `?db=<url>` opens that database at start.
    if let Some(url) = start_address() {
        opening::start_open(state, Source::address(&url));
    }

    view! {
        <div class="app">
            <header class="app-header">
                <h1 class="brand">"askdb"</h1>
                <p class="tagline">"Ask your SQLite database. Your file stays in this browser."</p>
            </header>
            // In reading order (narrow screens show it as is); wide screens put the database
            // and its schema in a side column (style.css, `.layout`).
            <div class="layout">
                <database_panel::DatabasePanel/>
                <main class="main">
                    <chat::Chat/>
                    <console::Console/>
                </main>
                <schema_view::SchemaView/>
            </div>
            <database_panel::DropOverlay/>
        </div>
    }
}

/// The (first) `db` parameter of the page's address, if any.
fn start_address() -> Option<String> {
    query_parameters()
        .into_iter()
        .find(|(name, _)| name == "db")
        .map(|(_, url)| url)
        .filter(|url| !url.trim().is_empty())
}

/// The shared state, provided by [`App`].
fn app_state() -> AppState {
    expect_context::<AppState>()
}
