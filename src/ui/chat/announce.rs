//! What a screen reader hears of the chat: each finished answer, error or candidates' verdict,
//! once and complete.
//!
//! The transcript on screen changes with every step and every status; announced as it
//! changes, it would be read out token by token and step by step. So it is no live region.
//! Instead the chat keeps this log, a visually hidden `role="log"` (polite) that exists from
//! the start and is only ever appended to: a line is added when something is over, with its
//! whole text, and a screen reader reads each added line once.

use super::{chat_state, marked, ChatState};
use crate::agent::Answer;
use crate::present::markdown::plain_text;
use crate::present::marked::data;
use crate::tr;
use leptos::prelude::*;

impl ChatState {
    /// Adds `line` to the log, to be read out once.
    pub(super) fn announce(&self, line: String) {
        self.announcements.update(|lines| lines.push(line));
    }

    /// The answer's words (its Markdown as text), the way the page shows them.
    pub(super) fn announce_answer(&self, answer: &Answer) {
        // The model's words, as the answer shows them: not the page's to translate.
        let words = data(&plain_text(&answer.text));
        self.announce(tr!("chat-announce-answer", answer = words));
    }
}

/// The log itself, present (and empty) before anything is asked: a live region made together
/// with its first line is often not read at all.
#[component]
pub fn Announcements() -> impl IntoView {
    let chat = chat_state();
    // Why the last question could not be asked or got no answer: also said once, when set.
    Effect::new(move |_| {
        if let Some(message) = chat.error.get() {
            untrack(|| chat.announce(message));
        }
    });
    view! {
        <div class="visually-hidden" role="log" aria-live="polite" data-testid="announcements">
            <For
                each=move || chat.announcements.get().into_iter().enumerate()
                key=|(index, _)| *index
                children=|(_, line)| view! { <p>{marked(&line)}</p> }
            />
        </div>
    }
}
