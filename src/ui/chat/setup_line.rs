//! What this page was set up to do, said beside the question box, so that a reader of an
//! embedded demo knows it without opening Settings: safe mode (and that the address turned it
//! on, which the reader cannot undo), that the answer shown is played from a recording, and,
//! with a demo's endpoint, who answers and pays (and how many calls are left today), or why
//! it cannot answer.
//! What is hidden from the model has its own line just above (`hiding::HiddenLine`).

use super::chat_state;
use crate::agent::Mode;
use crate::present::demo_endpoint::{answered_by, readers_own_model, unreachable};
use crate::tr;
use crate::ui::demo_endpoint::Card;
use leptos::prelude::*;

#[component]
pub fn SetupLine() -> impl IntoView {
    let chat = chat_state();
    let by_address = crate::ui::the_address().safe_mode;
    move || {
        let safe = chat.model.settings.with(|s| s.mode == Mode::Safe);
        let replayed = chat
            .exchanges
            .with(|list| list.last().is_some_and(|e| e.replayed));
        let endpoint = chat.model.demo.map(|demo| {
            let (own, card) = (demo.readers_own.get(), demo.card.get());
            let has_recording = crate::ui::the_address().start.replay.is_some();
            let (state, said) = match card {
                _ if own => ("own", readers_own_model()),
                Card::Reading => ("reading", tr!("chat-setup-reading")),
                Card::Read(card) => ("ready", answered_by(&card)),
                Card::Unreachable(why) => ("unreachable", unreachable(&why, has_recording)),
            };
            let watch =
                (state == "unreachable").then(|| view! { " " <super::replay::WatchRecording/> });
            view! {
                <li data-testid="setup-demo-endpoint" data-state=state>
                    <strong>{tr!("chat-setup-live-demo")}</strong>
                    {tr!("chat-setup-said", said = said)}
                    {watch}
                </li>
            }
        });
        if !safe && !replayed && endpoint.is_none() {
            return None;
        }
        let safe_chip = safe.then(|| {
            let said = if by_address {
                tr!("chat-setup-safe-by-address")
            } else {
                tr!("chat-setup-safe")
            };
            view! {
                <li data-testid="setup-safe-mode" title=tr!("chat-setup-safe-title")>
                    <strong>{tr!("chat-setup-safe-mode")}</strong>
                    {said}
                </li>
            }
        });
        let replayed = replayed.then(|| {
            // The recording's own mode, which the replay runs in, may not be this page's.
            let recorded_mode = chat
                .recorded_with
                .get_value()
                .map(|(_, settings)| settings.mode);
            let how = match recorded_mode {
                Some(Mode::Safe) => tr!("chat-setup-replay-safe"),
                Some(Mode::Sql) if safe => tr!("chat-setup-replay-sql"),
                _ => String::new(),
            };
            view! {
                <li data-testid="setup-replay">
                    <strong>{tr!("chat-setup-replay-label")}</strong>
                    {tr!("chat-setup-replay")}
                    {how}
                </li>
            }
        });
        Some(view! {
            <ul class="setup-line" data-testid="setup-line" aria-label=tr!("chat-setup-label")>
                {endpoint}
                {safe_chip}
                {replayed}
            </ul>
        })
    }
}
