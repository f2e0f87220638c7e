//! The pins of a demo made from its database: the hashes of the system prompt and tool list of
//! the first request the page would send about it, in each mode (docs/live-demos.md, "What is
//! pinned"). askdb's own code builds that request (`askdb::pin`), so the pins are the page's.

use crate::check::pin_of;
use crate::config::{Pin, PinSource};
use askdb::agent::Mode;
use askdb::llm::ProviderKind;
use std::fmt;

/// The database's pins could not be made.
#[derive(Debug)]
pub struct PinError {
    database: String,
    why: String,
}

impl fmt::Display for PinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot pin the prompt of {}: {}",
            self.database, self.why
        )
    }
}

impl std::error::Error for PinError {}

/// One pin per mode, with the mode it is for.
pub fn pins_from(source: &PinSource, provider: ProviderKind) -> Result<Vec<(Mode, Pin)>, PinError> {
    let failed = |why: String| PinError {
        database: source.database.display().to_string(),
        why,
    };
    let requests = askdb::pin::first_requests(
        &source.database,
        source.notes.as_deref(),
        &source.hide,
        provider,
    )
    .map_err(|error| failed(error.to_string()))?;
    requests
        .into_iter()
        .map(|(mode, body)| {
            pin_of(provider, &body)
                .map(|pin| (mode, pin))
                .ok_or_else(|| failed(format!("the {mode:?} mode's request has no system prompt")))
        })
        .collect()
}

/// The `pins = [...]` lines for a demo's config, one pin per mode.
pub fn toml_snippet(pins: &[(Mode, Pin)]) -> String {
    let mut text = String::from("pins = [\n");
    for (mode, pin) in pins {
        text.push_str(&format!(
            "  {{ system_sha256 = \"{}\", tools_sha256 = \"{}\" }},  # {mode:?} mode\n",
            pin.system_sha256, pin.tools_sha256
        ));
    }
    text.push_str("]\n");
    text
}
