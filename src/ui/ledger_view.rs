//! "Sent to the model": every request this page sent to a model, with its totals on top. Each
//! request shows when it went, where, how it ended, its bytes and tokens, and both bodies exactly
//! as they went and came (each downloadable). The ledger never holds the API key
//! ([`crate::llm::ledger`] keeps it out), and bodies are shown as text, never as HTML.

use super::app_state;
use crate::browser::{save_file, time_of_day};
use crate::engine::kind::Reads;
use crate::llm::ledger::{LedgerEntry, RequestOutcome};
use crate::present::ledger::{
    body_file_name, bytes_received, bytes_sent, is_failure, outcome, question_reads_line,
    question_reads_total, server_asked, tokens, totals_line, Body,
};
use crate::present::time::elapsed;
use crate::tr;
use crate::ui::language::tr_live;
use leptos::prelude::*;

#[component]
pub fn LedgerPanel() -> impl IntoView {
    let sent = app_state().assistant.sent;
    let totals = move || sent.read(|ledger| ledger.totals());
    // One row per request, newest first, redrawn when it ends (its key changes then).
    let rows = move || {
        sent.read(|ledger| {
            ledger.with_entries(|entries| {
                entries
                    .iter()
                    .rev()
                    .map(|entry| (entry.number, entry.outcome != RequestOutcome::Waiting))
                    .collect::<Vec<_>>()
            })
        })
    };

    // Beside the model's requests, the database server's (a Datasette database's queries are
    // requests too): since it opened, redrawn as the ledger or the open database changes.
    let state = app_state();
    let server_requests = move || {
        sent.read(|_| ());
        state.open.track();
        let db = state.database()?;
        (db.kind().reads() == Reads::ServerQueries)
            .then(|| db.total_reads())
            .flatten()
            .map(server_asked)
    };

    view! {
        <section class="panel ledger" aria-labelledby="ledger-heading" data-testid="ledger">
            <details class="ledger-details">
                <summary>
                    <h2 id="ledger-heading">{tr_live("ledger-heading")}</h2>
                    <span class="ledger-totals" data-testid="ledger-totals">
                        {move || {
                            let totals = totals();
                            if totals.requests == 0 {
                                tr!("ledger-nothing-yet")
                            } else {
                                totals_line(&totals)
                            }
                        }}
                    </span>
                </summary>
                {move || server_requests().map(|line| view! {
                    <p class="ledger-server" data-testid="ledger-server">{line}</p>
                })}
                <p class="hint">{tr_live("ledger-hint")}</p>
                <DatabaseReads/>
                <ol class="ledger-entries">
                    <For
                        each=rows
                        key=|row| *row
                        children=|(number, _done)| view! { <LedgerRow number=number/> }
                    />
                </ol>
            </details>
        </section>
    }
}

/// What each question read from a database read on demand (bytes, and HTTP requests for one on
/// a web server) or asked of a Datasette server (its requests, bytes and the time they were
/// waited for): nothing shows until a question read one.
#[component]
fn DatabaseReads() -> impl IntoView {
    let reads = app_state().assistant.question_reads;
    move || {
        let list = reads.get();
        (!list.is_empty()).then(|| {
            let lines = list
                .iter()
                .map(|q| view! { <li data-testid="ledger-reads-question">{question_reads_line(q)}</li> })
                .collect::<Vec<_>>();
            view! {
                <div class="ledger-reads" data-testid="ledger-reads">
                    <h3>{tr_live("ledger-reads-heading")}</h3>
                    <p class="hint" data-testid="ledger-reads-total">{question_reads_total(&list)}</p>
                    <ul>{lines}</ul>
                </div>
            }
        })
    }
}

/// One request: a summary line, and its bodies when opened.
#[component]
fn LedgerRow(number: usize) -> impl IntoView {
    let sent = app_state().assistant.sent;
    // The entry as it is now; the row is made again when it changes (it ends).
    let Some(entry) = sent
        .ledger()
        .with_entries(|entries| entries.iter().find(|entry| entry.number == number).cloned())
    else {
        return ().into_any();
    };
    let failed = is_failure(&entry.outcome);
    let summary = summary_line(&entry);
    let open = RwSignal::new(false);
    view! {
        <li class="ledger-entry" class:failed=failed data-testid="ledger-entry">
            <details on:toggle=move |event| {
                open.set(event_target::<web_sys::Element>(&event).has_attribute("open"))
            }>
                <summary>
                    <span class="ledger-number">"#"{number}</span>
                    " "
                    <span class="ledger-summary">{summary}</span>
                    <span class="ledger-endpoint" data-testid="ledger-endpoint" translate="no">
                        "POST "{entry.endpoint.clone()}
                    </span>
                </summary>
                // Bodies can be large: they join the page only while the row is open.
                {move || open.get().then(|| bodies(&entry))}
            </details>
        </li>
    }
    .into_any()
}

/// "14:03:21 · 200 · 12,345 bytes sent · 1,234 bytes received · 100 in / 20 out tokens · 1.2 s"
fn summary_line(entry: &LedgerEntry) -> String {
    let mut parts = vec![
        time_of_day(entry.sent_at_ms),
        outcome(&entry.outcome),
        bytes_sent(entry.bytes_sent),
        bytes_received(entry.bytes_received),
    ];
    if let Some(usage) = entry.usage {
        parts.push(tokens(usage));
    }
    if let Some(ms) = entry.duration_ms {
        parts.push(elapsed(ms));
    }
    parts.join(" · ")
}

fn bodies(entry: &LedgerEntry) -> impl IntoView {
    let number = entry.number;
    view! {
        <div class="ledger-bodies">
            {body_view(number, Body::Request, entry.request_body.clone())}
            {(entry.outcome != RequestOutcome::Waiting)
                .then(|| body_view(number, Body::Response, entry.response_body.clone()))}
            {entry.assembled_body.clone().map(|whole| body_view(number, Body::Assembled, whole))}
        </div>
    }
}

fn body_view(number: usize, which: Body, text: String) -> impl IntoView {
    let (label, id): (fn() -> String, _) = match which {
        Body::Request => (|| tr!("ledger-request-body"), "ledger-request"),
        Body::Response => (|| tr!("ledger-response-body"), "ledger-response"),
        Body::Assembled => (|| tr!("ledger-assembled-body"), "ledger-assembled"),
    };
    let name = body_file_name(number, which, &text);
    let download = {
        let text = text.clone();
        move |_| {
            if let Err(error) = save_file(&name, "application/json;charset=utf-8", &text) {
                web_sys::console::error_2(&"askdb: the download failed".into(), &error);
            }
        }
    };
    let empty = text.is_empty();
    view! {
        <div class="ledger-body">
            <div class="ledger-body-head">
                <h3>{label}</h3>
                <button
                    type="button"
                    class="button small"
                    data-testid=format!("{id}-download")
                    disabled=empty
                    on:click=download
                >
                    {tr_live("ledger-download")}
                </button>
            </div>
            {if empty {
                view! { <p class="muted">{tr_live("ledger-empty")}</p> }.into_any()
            } else {
                view! { <pre class="ledger-text" data-testid=id tabindex="0" translate="no">{text}</pre> }.into_any()
            }}
        </div>
    }
}
