//! API keys, each bound to the endpoint it was entered for.
//!
//! A key belongs to one provider at one address. Binding it there is what keeps it from going
//! anywhere else: a link that sets `?base_url=https://elsewhere` finds no key for that address,
//! and a person who switches from OpenAI to OpenRouter does not send the OpenAI key along.
//! The page keeps one ring in memory and, for the keys a person asked it to remember, one in
//! `localStorage`.

use super::ModelSettings;
use std::collections::BTreeMap;
use std::fmt;

/// Keys by endpoint (`"openai https://api.openai.com/v1"`).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct KeyRing {
    keys: BTreeMap<String, String>,
}

/// The endpoint a key belongs to: the provider's wire format and the address requests go to.
pub fn endpoint_id(settings: &ModelSettings) -> String {
    format!("{} {}", settings.provider.id(), settings.endpoint_url())
}

impl KeyRing {
    /// The key entered for the endpoint of `settings`, if any.
    pub fn get(&self, settings: &ModelSettings) -> Option<&str> {
        self.keys.get(&endpoint_id(settings)).map(String::as_str)
    }

    /// Keeps `key` for the endpoint of `settings`; an empty key removes it.
    pub fn set(&mut self, settings: &ModelSettings, key: &str) {
        let key = key.trim();
        if key.is_empty() {
            self.remove(settings);
        } else {
            self.keys.insert(endpoint_id(settings), key.to_string());
        }
    }

    pub fn remove(&mut self, settings: &ModelSettings) {
        self.keys.remove(&endpoint_id(settings));
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The ring as saved in `localStorage`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.keys).unwrap_or_default()
    }

    /// A saved ring; anything unreadable is an empty ring.
    pub fn from_json(json: &str) -> KeyRing {
        KeyRing {
            keys: serde_json::from_str(json).unwrap_or_default(),
        }
    }
}

/// Never prints a key, only where keys are held.
impl fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.keys.keys()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ProviderKind;
    use crate::settings::{address, OPENAI_COMPATIBLE_PRESETS};

    fn openai() -> ModelSettings {
        ModelSettings::default()
    }

    #[test]
    fn a_key_is_found_only_for_the_endpoint_it_was_entered_for() {
        let mut ring = KeyRing::default();
        ring.set(&openai(), " sk-openai \n");
        assert_eq!(ring.get(&openai()), Some("sk-openai"));

        let mut openrouter = openai();
        openrouter.choose_preset(&OPENAI_COMPATIBLE_PRESETS[2]);
        assert_eq!(ring.get(&openrouter), None);

        let mut anthropic = openai();
        anthropic.choose_provider(ProviderKind::Anthropic);
        assert_eq!(ring.get(&anthropic), None);

        // Same address, other format: still another endpoint.
        let mut gemini_at_openai = openai();
        gemini_at_openai.provider = ProviderKind::Gemini;
        assert_eq!(ring.get(&gemini_at_openai), None);
    }

    #[test]
    fn a_link_to_another_address_finds_no_remembered_key() {
        let mut ring = KeyRing::default();
        ring.set(&openai(), "sk-openai");
        let saved = KeyRing::from_json(&ring.to_json());

        let mut settings = openai();
        address::apply(
            &mut settings,
            &[("base_url".into(), "https://collector.example/v1".into())],
        );
        assert_eq!(saved.get(&settings), None);
    }

    #[test]
    fn the_endpoint_ignores_a_trailing_slash_and_an_empty_url_means_the_default() {
        let mut ring = KeyRing::default();
        ring.set(&openai(), "k");
        let slash = ModelSettings {
            base_url: "https://api.openai.com/v1/".into(),
            ..openai()
        };
        let empty = ModelSettings {
            base_url: String::new(),
            ..openai()
        };
        assert_eq!(ring.get(&slash), Some("k"));
        assert_eq!(ring.get(&empty), Some("k"));
    }

    #[test]
    fn an_empty_key_removes_it() {
        let mut ring = KeyRing::default();
        ring.set(&openai(), "k");
        ring.set(&openai(), "  ");
        assert!(ring.is_empty());
    }

    #[test]
    fn debug_output_names_endpoints_not_keys() {
        let mut ring = KeyRing::default();
        ring.set(&openai(), "sk-very-secret");
        let shown = format!("{ring:?}");
        assert!(!shown.contains("sk-very-secret"), "{shown}");
        assert!(
            shown.contains("openai https://api.openai.com/v1"),
            "{shown}"
        );
    }

    #[test]
    fn unreadable_storage_is_an_empty_ring() {
        assert!(KeyRing::from_json("{oops").is_empty());
        assert!(KeyRing::from_json("[1,2]").is_empty());
    }
}
