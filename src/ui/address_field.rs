//! The address field beside "Open a file": a database on a web server, opened on demand (only
//! the pages a query needs, with HTTP Range requests), like `?db=https://…`. Its own component,
//! so that other ways in beside the file button stay apart from it.

use super::app_state;
use super::intake::{start_open, Source};
use crate::engine::on_demand::remote::is_web_address;
use crate::tr;
use crate::ui::language::tr_live;
use leptos::ev;
use leptos::prelude::*;

#[component]
pub fn AddressField() -> impl IntoView {
    let state = app_state();
    let busy = move || state.loading.with(Option::is_some);
    let text = RwSignal::new(String::new());
    let on_submit = move |event: ev::SubmitEvent| {
        event.prevent_default();
        let address = text.get_untracked().trim().to_string();
        if is_web_address(&address) {
            start_open(state, Source::database_address(&address));
        } else {
            state.server_help.set(None);
            state.download_offer.set(None);
            let address = crate::present::marked::data(&address);
            state
                .open_error
                .set(Some(tr!("open-address-not-web", address = address)));
        }
    };
    view! {
        // `novalidate`: what is not an address gets the page's own message, not the browser's.
        <form class="address-field" data-testid="db-address-form" novalidate=true on:submit=on_submit>
            <label for="db-address">{tr_live("open-address-label")}</label>
            <div class="address-row">
                <input
                    id="db-address"
                    type="url"
                    inputmode="url"
                    placeholder="https://…/data.db"
                    translate="no"
                    data-testid="db-address"
                    prop:value=move || text.get()
                    on:input=move |event| text.set(event_target_value(&event))
                />
                <button class="button" type="submit" data-testid="db-address-open" disabled=busy>
                    {tr_live("open-address-open")}
                </button>
            </div>
        </form>
    }
}
