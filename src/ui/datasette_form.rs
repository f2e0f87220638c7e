//! "Ask a Datasette server": the small form beside "Open a file" that opens a database on a
//! Datasette server (`https://host/dbname`) through its JSON API, with an API token for a
//! private one.
//!
//! The token is kept like the model's key: in this tab's memory, bound to the server it was
//! entered for (`settings::server_tokens`), and in `localStorage` only when the person ticks
//! "remember". It is never put in the address (`?datasette=` finds the one remembered for that
//! server; `?token=` is never read), nor in a transcript, a recording or the ledger.

use super::app_state;
use super::intake::{start_open, Source};
use super::state::AppState;
use crate::engine::datasette::DatasetteAddress;
use crate::engine::DbError;
use crate::present::errors::for_person_marked;
use crate::tr;
use crate::ui::language::tr_live;
use leptos::ev;
use leptos::prelude::*;

impl AppState {
    /// What opens the Datasette database at `address`, with the token held for its server.
    pub fn datasette_source(&self, address: &str) -> Source {
        let token = DatasetteAddress::parse(address)
            .ok()
            .and_then(|parsed| self.server_tokens.get(parsed.origin()));
        Source::Datasette {
            address: address.trim().to_string(),
            token,
        }
    }
}

#[component]
pub fn DatasetteForm() -> impl IntoView {
    let state = app_state();
    let address = RwSignal::new(String::new());
    let token = RwSignal::new(String::new());
    let remember = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);

    let on_submit = move |event: ev::SubmitEvent| {
        event.prevent_default();
        let typed = address.get_untracked();
        match DatasetteAddress::parse(&typed) {
            Ok(parsed) => {
                let kept = state.server_tokens.keep(
                    parsed.origin(),
                    &token.get_untracked(),
                    remember.get_untracked(),
                );
                problem.set(kept.err());
                // Held by the store from now on, not by the field.
                token.set(String::new());
                start_open(state, state.datasette_source(&typed));
            }
            Err(why) => {
                let why = for_person_marked(&DbError::Datasette(why));
                problem.set(Some(tr!("open-datasette-form-problem", why = why)))
            }
        }
    };

    view! {
        <form class="datasette-form" data-testid="datasette-form" on:submit=on_submit>
            <label for="datasette-address">{tr_live("open-datasette-label")}</label>
            {address_row(state, address)}
            {token_details(state, address, token, remember, problem)}
            {move || problem.get().map(|why| view! {
                <p class="field-error" role="alert" data-testid="datasette-problem">
                    {super::marked::marked(&why)}
                </p>
            })}
        </form>
    }
}

/// The address field and "Open", which waits for an address and for any open under way.
fn address_row(state: AppState, address: RwSignal<String>) -> impl IntoView {
    let busy = move || state.loading.with(Option::is_some);
    view! {
        <div class="datasette-row">
            <input
                id="datasette-address"
                type="url"
                data-testid="datasette-address"
                spellcheck="false"
                autocomplete="url"
                placeholder="https://host/dbname"
                prop:value=move || address.get()
                on:input=move |event| address.set(event_target_value(&event))
            />
            <button
                type="submit"
                class="button"
                data-testid="datasette-open"
                disabled=move || busy() || address.with(|a| a.trim().is_empty())
            >
                {tr_live("open-datasette-open")}
            </button>
        </div>
    }
}

/// The folded API token part: the token, "remember", where it goes, and "Forget saved tokens".
fn token_details(
    state: AppState,
    address: RwSignal<String>,
    token: RwSignal<String>,
    remember: RwSignal<bool>,
    problem: RwSignal<Option<String>>,
) -> impl IntoView {
    let held = move || {
        address.with(|typed| {
            DatasetteAddress::parse(typed)
                .ok()
                .and_then(|parsed| state.server_tokens.get(parsed.origin()))
                .is_some()
        })
    };
    view! {
        <details class="datasette-token">
            <summary>{tr_live("open-datasette-token")}</summary>
            <input
                type="password"
                aria-label=tr_live("open-datasette-token-label")
                data-testid="datasette-token"
                spellcheck="false"
                autocomplete="off"
                placeholder=move || if held() { tr!("open-datasette-token-held") } else { "dstok_…".to_string() }
                prop:value=move || token.get()
                on:input=move |event| token.set(event_target_value(&event))
            />
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="datasette-remember"
                    prop:checked=move || remember.get()
                    on:change=move |event| remember.set(event_target_checked(&event))
                />
                " "{tr_live("open-datasette-remember")}
            </label>
            <p class="hint">{tr_live("open-datasette-token-hint")}</p>
            {move || {
                state.server_tokens.any_remembered().then(|| view! {
                    <button
                        type="button"
                        class="button small"
                        data-testid="datasette-forget"
                        on:click=move |_| problem.set(state.server_tokens.forget_all().err())
                    >
                        {tr_live("open-datasette-forget-tokens")}
                    </button>
                })
            }}
        </details>
    }
}
