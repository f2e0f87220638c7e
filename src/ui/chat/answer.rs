//! The answer with its proof: the text (safe Markdown), the notes, the evidence SQL, and the
//! result of that SQL as the page ran it itself, not as the model reported it.

use super::Exchange;
use crate::agent::Answer;
use crate::engine::{with_values_written_in, Value};
use crate::present::transcript::unverified_reason;
use crate::ui::app_state;
use crate::ui::language::tr_live;
use crate::ui::markdown_view::MarkdownView;
use crate::ui::result_table::ResultView;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The answer of `exchange`, once there is one.
#[component]
pub fn AnswerView(exchange: Exchange) -> impl IntoView {
    move || {
        exchange
            .answer()
            .map(|answer| answer_view(exchange, answer))
    }
}

fn answer_view(exchange: Exchange, answer: Answer) -> impl IntoView {
    // Why it is not backed by a query, read again when the page's language changes.
    let unverified = unverified_reason(&answer).is_some();
    let why = {
        let answer = answer.clone();
        move || unverified_reason(&answer).unwrap_or_default()
    };
    let notes = answer
        .notes
        .clone()
        .filter(|notes| !notes.trim().is_empty())
        .map(|notes| {
            view! {
                <aside class="answer-notes" aria-label=tr_live("chat-answer-notes-label")>
                    <h4>{tr_live("chat-answer-notes")}</h4>
                    // The model's words, in the language it wrote them.
                    <p translate="no">{notes}</p>
                </aside>
            }
        });
    let evidence = answer.sql.clone().map(|sql| {
        // The console binds nothing: it gets the values written in, as literals.
        let console_sql = with_values_written_in(&sql, &answer.values);
        view! {
            <div class="evidence">
                <div class="evidence-head">
                    <h4>{tr_live("chat-answer-sql")}</h4>
                    <OpenInConsole sql=console_sql/>
                </div>
                <pre class="sql" data-testid="answer-sql" translate="no"><code>{sql}</code></pre>
                {bound_values(&answer.values)}
                <p class="muted">{tr_live("chat-answer-rerun")}</p>
                <div data-testid="answer-result">
                    <ResultView
                        outcome=exchange.evidence
                        testid_scope="evidence"
                    />
                </div>
            </div>
        }
    });
    view! {
        <section class="answer" data-testid="answer" aria-label=tr_live("chat-answer")>
            <div class="answer-head">
                <h3>{tr_live("chat-answer")}</h3>
                {unverified.then(|| view! {
                    <span class="badge unverified" title=why.clone()>{tr_live("chat-unverified-badge")}</span>
                })}
            </div>
            <MarkdownView markdown=answer.text.clone()/>
            {unverified.then(|| view! { <p class="unverified-why">{why}</p> })}
            {notes}
            {evidence}
        </section>
    }
}

/// The values bound to a compiled statement's `?1`, `?2`, …, shown as text on one line.
fn bound_values(values: &[Value]) -> Option<impl IntoView> {
    (!values.is_empty()).then(|| {
        let listed: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, value)| format!("?{} = {}", i + 1, value.sql_literal()))
            .collect();
        view! {
            <p class="muted" data-testid="answer-values">
                {tr_live("chat-answer-bound-values")}" "
                <code translate="no">{listed.join(", ")}</code>
            </p>
        }
    })
}

/// Puts `sql` in the console and takes the person there.
#[component]
fn OpenInConsole(sql: String) -> impl IntoView {
    let state = app_state();
    view! {
        <button
            class="button small"
            data-testid="answer-to-console"
            on:click=move |_| {
                state.sql.set(sql.clone());
                focus_console();
            }
        >
            {tr_live("chat-answer-to-console")}
        </button>
    }
}

fn focus_console() {
    let console = document()
        .query_selector("textarea.sql-input")
        .ok()
        .flatten()
        .and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(console) = console {
        console.scroll_into_view();
        let _ = console.focus();
    }
}
