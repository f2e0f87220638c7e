//! The compact page for an iframe (`?embed=1`): documentation embeds askdb as a live demo.
//!
//! One column: a bar (the database's status, toggles for the schema and the console, a link to
//! the full page), then the question with its transcript and answer. The schema and the console
//! open in place, under the bar, with one click. Inside an iframe the page reports its height
//! to the host page ([`report_height`]), which can then size the iframe to fit.

use super::{app_state, chat, console, database_panel, schema_view};
use crate::browser::{focus_element, query_string, report_height};
use crate::tr;
use crate::ui::language::tr_live;
use leptos::html::Div;
use leptos::prelude::*;

const SCHEMA_ID: &str = "compact-schema";
const CONSOLE_ID: &str = "compact-console";

/// `opens_from_address`: a `?db=` database is opening, so the bar shows its status; without
/// one, the database panel offers the demo and a file instead.
#[component]
pub fn CompactPage(opens_from_address: bool) -> impl IntoView {
    let state = app_state();
    let schema_open = RwSignal::new(false);
    let console_open = RwSignal::new(false);
    // The schema's "Query this table" and the answer's "Open in the console" fill the console:
    // it opens, so the person sees what they asked for.
    Effect::watch(
        move || state.sql.track(),
        move |_, _, _| {
            if !console_open.get_untracked() {
                console_open.set(true);
                // Once it is shown: a hidden box cannot take the focus.
                request_animation_frame(|| focus_element(console::INPUT_ID));
            }
        },
        false,
    );
    let page = NodeRef::<Div>::new();
    page.on_load(|element| report_height(element.into()));

    let status = opens_from_address.then(|| view! { <database_panel::Status/> });
    let panel = (!opens_from_address).then(|| view! { <database_panel::DatabasePanel/> });
    view! {
        <div class="app compact" node_ref=page>
            <header class="compact-bar">
                <span class="brand" translate="no">"askdb"</span>
                {status}
                <nav class="compact-actions" aria-label=tr_live("embed-more")>
                    <Toggle label=|| tr!("embed-schema") testid="toggle-schema" controls=SCHEMA_ID open=schema_open/>
                    <Toggle label=|| tr!("embed-console") testid="toggle-console" controls=CONSOLE_ID open=console_open/>
                    <a
                        class="open-full"
                        data-testid="open-full"
                        href=full_page_address()
                        target="_blank"
                        rel="noopener"
                    >
                        {tr_live("embed-open-full")}
                    </a>
                </nav>
            </header>
            {panel}
            // Kept in the page while closed, so that the console keeps its text and result.
            <div id=SCHEMA_ID class="compact-drawer" hidden=move || !schema_open.get()>
                <schema_view::SchemaView read_only=true/>
            </div>
            <div id=CONSOLE_ID class="compact-drawer" hidden=move || !console_open.get()>
                <console::Console/>
            </div>
            <main class="main">
                <chat::Chat/>
            </main>
            <database_panel::DropOverlay/>
        </div>
    }
}

/// A button that shows and hides the part of the page `controls` names. Without a database
/// there is nothing to show. `label` says its name in the page's language.
#[component]
fn Toggle(
    label: fn() -> String,
    testid: &'static str,
    controls: &'static str,
    open: RwSignal<bool>,
) -> impl IntoView {
    let state = app_state();
    view! {
        <button
            class="button small toggle"
            data-testid=testid
            aria-controls=controls
            aria-expanded=move || open.get().to_string()
            disabled=move || state.open.with(Option::is_none)
            on:click=move |_| open.update(|open| *open = !*open)
        >
            {move || label()}
        </button>
    }
}

/// The full page with this page's parameters (but `embed`), as an address relative to this
/// one: the same path, so it works from any host and sub-path.
fn full_page_address() -> String {
    format!(
        "?{}",
        query_string(&crate::ui::the_address().full_page_parameters())
    )
}
