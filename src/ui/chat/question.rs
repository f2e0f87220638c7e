//! The question box: type, ask (Enter or the button), stop, start a new conversation; below
//! it what went wrong, if anything, and what the questions cost.

use super::{chat_state, marked, Totals};
use crate::present::ledger::tokens;
use crate::present::time::elapsed;
use crate::present::transcript::{listed, question_reads};
use crate::tr;
use crate::ui::language::tr_live;
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn QuestionBox() -> impl IntoView {
    let chat = chat_state();
    view! {
        <form
            class="ask-form"
            on:submit=move |event| {
                event.prevent_default();
                chat.ask();
                // Ask turns itself off while the question runs: the focus goes back to the
                // box, for the next question, and Stop is the next Tab away.
                focus_question();
            }
        >
            <label class="visually-hidden" for="question">{tr_live("chat-question-label")}</label>
            <QuestionInput/>
            <AskBar/>
        </form>
        <AgentError/>
        <DemoLimit/>
        <UsageLine/>
    }
}

/// Where the question is typed.
#[component]
fn QuestionInput() -> impl IntoView {
    let chat = chat_state();
    // Enter asks; Shift+Enter is a new line; Enter that ends an IME composition (Japanese,
    // Chinese…) only confirms the characters.
    let on_keydown = move |event: ev::KeyboardEvent| {
        if event.key() == "Enter" && !event.shift_key() && !event.is_composing() {
            event.prevent_default();
            chat.ask();
        }
    };
    view! {
        <textarea
            id="question"
            class="question-input"
            data-testid="question"
            rows="3"
            placeholder=tr_live("chat-question-placeholder")
            prop:value=move || chat.question.get()
            on:input=move |event| chat.question.set(event_target_value(&event))
            on:keydown=on_keydown
        ></textarea>
    }
}

/// The buttons under the box: ask, stop, start afresh, save.
#[component]
fn AskBar() -> impl IntoView {
    let chat = chat_state();
    let running = move || chat.task.running();
    view! {
        <div class="ask-bar">
            <button type="submit" class="button primary" data-testid="ask" disabled=running>
                {move || if running() { tr!("chat-asking") } else { tr!("chat-ask") }}
            </button>
            <button
                type="button"
                class="button"
                data-testid="stop"
                disabled=move || !running()
                on:click=move |_| {
                    chat.task.stop();
                    // Stop turns itself off: the focus would fall to the page's top.
                    focus_question();
                }
            >
                {tr_live("chat-stop")}
            </button>
            <button
                type="button"
                class="button"
                data-testid="new-conversation"
                title=tr_live("chat-new-conversation-title")
                disabled=running
                on:click=move |_| chat.new_conversation()
            >
                {tr_live("chat-new-conversation")}
            </button>
            <button
                type="button"
                class="button"
                data-testid="save-conversation"
                title=tr_live("chat-save-conversation-title")
                disabled=move || running() || !chat.can_save()
                on:click=move |_| chat.save()
            >
                {tr_live("chat-save-conversation")}
            </button>
            <span class="hint keys">{tr_live("chat-keys-hint")}</span>
        </div>
    }
}

/// What went wrong with the last question, if anything.
#[component]
fn AgentError() -> impl IntoView {
    let chat = chat_state();
    move || {
        chat.error.get().map(|message| {
            // Read out by the chat's log (`announce`), once: not an alert as well.
            view! { <p class="agent-error" data-testid="agent-error">{marked(&message)}</p> }
        })
    }
}

/// A limit of the demo's endpoint is no error: said in a sentence, with the recording on offer
/// (read out by the chat's log too).
#[component]
fn DemoLimit() -> impl IntoView {
    let chat = chat_state();
    move || {
        chat.limit_reached.get().map(|said| {
            view! {
                <div class="demo-limit" data-testid="demo-limit">
                    <p>{said}</p>
                    <super::replay::WatchRecording/>
                </div>
            }
        })
    }
}

/// Puts the focus in the question box.
fn focus_question() {
    let question = document()
        .get_element_by_id("question")
        .and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(question) = question {
        let _ = question.focus();
    }
}

/// Tokens and time: the current (or last) question, and the conversation so far.
#[component]
fn UsageLine() -> impl IntoView {
    let chat = chat_state();
    move || {
        let current = chat.current_cost();
        let totals = chat.totals.get();
        if current.is_none() && totals.questions == 0 {
            return None;
        }
        let question = current.map(|(usage, elapsed_ms, done)| {
            // "1,234 tokens, 3.2 s, read 1.2 MB in 14 reads from the database"; "3 requests to
            // the server (12 KB, 140 ms)" for a Datasette server.
            let cost: Vec<String> = [
                Some(tokens(usage)),
                elapsed_ms.map(elapsed),
                chat.current_reads().map(|reads| question_reads(&reads)),
            ]
            .into_iter()
            .flatten()
            .collect();
            let cost = listed(&cost);
            if done {
                tr!("chat-usage-question", cost = cost)
            } else {
                tr!("chat-usage-so-far", cost = cost)
            }
        });
        let session = (totals.questions > 0).then(|| session_text(&totals));
        let text = [question, session]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" · ");
        Some(view! { <p class="usage muted" data-testid="usage">{text}</p> })
    }
}

fn session_text(totals: &Totals) -> String {
    tr!(
        "chat-usage-session",
        questions = totals.questions,
        tokens = tokens(totals.usage),
        time = elapsed(totals.elapsed_ms)
    )
}
