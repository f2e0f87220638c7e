//! A demo's endpoint in the page (`?endpoint=`; the rules are `settings::demo_endpoint`'s, the
//! words `present::demo_endpoint`'s): its card is read at start and again after each question,
//! and while it is in use the questions go there, with no key.
//!
//! Who answers is decided once per question: the demo's endpoint, until the reader chooses a
//! model of their own in Settings (a provider, preset, base URL, model or key) during the
//! visit; from then on theirs answers, and the line beside the question box says so. The
//! reader's saved settings are never written over: the endpoint's are made for each question.
//!
//! Small on purpose, and in the first download: a `fetch` of a few hundred bytes of JSON; the
//! providers stay in the assistant's chunk (`ui::lazy`).

use crate::browser::{get, read_body, DownloadError};
use crate::settings::demo_endpoint::{card_too_large, visit_settings, DemoCard, MAX_CARD_BYTES};
use crate::settings::ModelSettings;
use crate::tr;
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// What the page knows of the demo's card.
#[derive(Clone, Debug, PartialEq)]
pub enum Card {
    /// Being read (at start: nothing is known yet).
    Reading,
    Read(DemoCard),
    /// It could not be read: why, in a few words.
    Unreachable(String),
}

/// The demo's endpoint of this visit; cheap to copy.
#[derive(Clone, Copy)]
pub struct DemoEndpoint {
    /// The endpoint's address (checked: `settings::demo_endpoint::check_endpoint`).
    url: StoredValue<String>,
    pub card: RwSignal<Card>,
    /// The reader chose a model of their own in Settings during this visit: it answers.
    pub readers_own: RwSignal<bool>,
}

impl DemoEndpoint {
    /// The endpoint the address names, its card on its way; `None` without one.
    pub fn from_address() -> Option<DemoEndpoint> {
        let url = crate::ui::the_address().endpoint?;
        let endpoint = DemoEndpoint {
            url: StoredValue::new(url),
            card: RwSignal::new(Card::Reading),
            readers_own: RwSignal::new(false),
        };
        endpoint.refresh();
        Some(endpoint)
    }

    /// Reads the card again (after a question: how many calls are left).
    pub fn refresh(&self) {
        let (url, card) = (self.url.get_value(), self.card);
        leptos::task::spawn_local(async move {
            let read = read_card(&url).await;
            card.set(match read {
                Ok(read) => Card::Read(read),
                Err(why) => Card::Unreachable(why),
            });
        });
    }

    /// Whether the questions go to the endpoint (rather than to the reader's own choice).
    pub fn in_use(&self) -> bool {
        !self.readers_own.get()
    }

    /// For a question now: the settings that reach the endpoint (the reader's `own`, with the
    /// card's provider and model at the endpoint), or why it cannot answer yet. `None` when the
    /// reader's own model answers instead.
    pub fn settings_untracked(&self, own: &ModelSettings) -> Option<Result<ModelSettings, String>> {
        if self.readers_own.get_untracked() {
            return None;
        }
        Some(match self.card.get_untracked() {
            Card::Read(card) => Ok(visit_settings(own, &card, &self.url.get_value())),
            Card::Reading => Err(tr!("settings-demo-still-asking")),
            Card::Unreachable(why) => Err(crate::present::demo_endpoint::unreachable(
                &why,
                crate::ui::the_address().start.replay.is_some(),
            )),
        })
    }
}

/// The card at `url`, or why it could not be read.
async fn read_card(url: &str) -> Result<DemoCard, String> {
    let response = get(url, &[("accept", "application/json")])
        .await
        .map_err(|e| fetch_failure(&e))?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let body = read_body(&response, |_| {}, Some(MAX_CARD_BYTES as u64))
        .await
        .map_err(|e| fetch_failure(&e))?;
    let text = JsFuture::from(body.text())
        .await
        .ok()
        .and_then(|text| text.as_string())
        .ok_or_else(|| tr!("settings-demo-card-unreadable"))?;
    DemoCard::parse(&text)
}

fn fetch_failure(error: &DownloadError) -> String {
    match error {
        DownloadError::Unreachable { .. } => tr!("settings-demo-no-answer"),
        DownloadError::Status { status, .. } => format!("HTTP {status}"),
        DownloadError::TooLarge { .. } => card_too_large(),
        DownloadError::Stopped { why } | DownloadError::Browser { why } => why.clone(),
    }
}
