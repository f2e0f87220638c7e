//! Settings from the page's address: `?provider=`, `?base_url=`, `?model=`, and `?q=` for a
//! question to fill in, and `?hide=` for tables and columns hidden from the model (see
//! [`hidden_names`]). A link can set up the model but never carries a key: an address ends up
//! in histories, logs and chats, so a key in it is ignored and the person is told so.

use super::{check_base_url, check_model, parse_provider, ModelSettings};
use crate::text::cut_chars;

/// A value quoted back to the person is cut to this many characters, so that a long address
/// cannot flood the panel.
const SHOWN_CHARS: usize = 40;

/// A question from the address is cut to this many characters.
const MAX_QUESTION_CHARS: usize = 4_000;

/// Parameter names that look like someone put a key in the address.
const KEY_PARAMETERS: [&str; 5] = ["key", "api_key", "apikey", "api-key", "token"];

/// What the address asked for, apart from the settings it changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FromAddress {
    /// `?q=`, to fill the question box (never asked by itself).
    pub question: Option<String>,
    /// Parameters that were not used, and why, for the settings panel to show.
    pub ignored: Vec<String>,
}

/// Applies the address parameters (already decoded, in order) to `settings`.
///
/// A provider without a base URL goes to its own address, not to the one saved for another
/// provider. Invalid values are left out and reported in [`FromAddress::ignored`].
pub fn apply(settings: &mut ModelSettings, params: &[(String, String)]) -> FromAddress {
    let mut found = FromAddress::default();
    let last = |name: &str| {
        params
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    };

    if let Some(name) = last("provider") {
        match parse_provider(name) {
            Some(kind) => settings.choose_provider(kind),
            None => found.ignored.push(format!(
                "provider \"{}\" is not one of openai, anthropic, gemini",
                cut_chars(name, SHOWN_CHARS)
            )),
        }
    }
    if let Some(url) = last("base_url") {
        match check_base_url(url) {
            Ok(url) if url.is_empty() => {}
            Ok(url) => settings.base_url = url,
            Err(why) => found.ignored.push(format!("base_url: {why}")),
        }
    }
    if let Some(model) = last("model") {
        match check_model(model) {
            Ok(model) if model.is_empty() => {}
            Ok(model) => settings.model = model,
            Err(why) => found.ignored.push(format!("model: {why}")),
        }
    }
    if let Some(question) = last("q") {
        let question: String = question.trim().chars().take(MAX_QUESTION_CHARS).collect();
        found.question = Some(question).filter(|q| !q.is_empty());
    }
    if params
        .iter()
        .any(|(key, _)| KEY_PARAMETERS.contains(&key.to_ascii_lowercase().as_str()))
    {
        found.ignored.push(
            "an API key in the address is never used: enter it in Settings (and remove it from \
             the link)"
                .into(),
        );
    }
    found
}

/// At most this many names are read from `?hide=`, each cut to [`MAX_HIDDEN_NAME_CHARS`].
const MAX_HIDDEN_NAMES: usize = 500;
const MAX_HIDDEN_NAME_CHARS: usize = 200;

/// The names in `?hide=table,table.column,…` (the parameter may come more than once), for a
/// demo published with something hidden from the model. Empty entries are skipped; the page
/// reads the names against the open database's schema.
pub fn hidden_names(params: &[(String, String)]) -> Vec<String> {
    params
        .iter()
        .filter(|(key, _)| key == "hide")
        .flat_map(|(_, value)| value.split(','))
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .take(MAX_HIDDEN_NAMES)
        .map(|name| name.chars().take(MAX_HIDDEN_NAME_CHARS).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ProviderKind;

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_link_sets_provider_address_model_and_question() {
        let mut settings = ModelSettings::default();
        let found = apply(
            &mut settings,
            &params(&[
                ("db", "demo/shop.db"),
                ("provider", "openai"),
                ("base_url", "http://127.0.0.1:9999/v1"),
                ("model", "test"),
                ("q", " How many orders? "),
            ]),
        );
        assert_eq!(settings.provider, ProviderKind::OpenAi);
        assert_eq!(settings.base_url, "http://127.0.0.1:9999/v1");
        assert_eq!(settings.model, "test");
        assert_eq!(found.question.as_deref(), Some("How many orders?"));
        assert!(found.ignored.is_empty(), "{:?}", found.ignored);
    }

    #[test]
    fn a_provider_alone_goes_to_its_own_address() {
        let mut settings = ModelSettings {
            base_url: "http://127.0.0.1:11434/v1".into(),
            ..ModelSettings::default()
        };
        apply(&mut settings, &params(&[("provider", "anthropic")]));
        assert_eq!(settings.provider, ProviderKind::Anthropic);
        assert_eq!(settings.base_url, "https://api.anthropic.com");
    }

    #[test]
    fn nothing_in_the_address_leaves_the_settings_as_they_were() {
        let saved = ModelSettings {
            provider: ProviderKind::Gemini,
            base_url: "https://proxy.example/v1beta".into(),
            model: "gemini-x".into(),
            ..ModelSettings::default()
        };
        let mut settings = saved.clone();
        let found = apply(&mut settings, &params(&[("db", "x.db"), ("q", "  ")]));
        assert_eq!(settings, saved);
        assert_eq!(found, FromAddress::default());
    }

    #[test]
    fn bad_values_are_ignored_and_said_so() {
        let mut settings = ModelSettings::default();
        let found = apply(
            &mut settings,
            &params(&[("provider", "mistral"), ("base_url", "javascript:alert(1)")]),
        );
        assert_eq!(settings, ModelSettings::default());
        assert_eq!(found.ignored.len(), 2, "{:?}", found.ignored);
        assert!(found.ignored[0].contains("mistral"));
        assert!(found.ignored[1].starts_with("base_url"));
    }

    #[test]
    fn a_key_in_the_address_is_never_read() {
        let mut settings = ModelSettings::default();
        let found = apply(
            &mut settings,
            &params(&[("api_key", "sk-secret"), ("model", "m")]),
        );
        let everything = format!("{settings:?} {found:?}");
        assert!(!everything.contains("sk-secret"), "{everything}");
        assert_eq!(found.ignored.len(), 1);
        assert!(found.ignored[0].contains("API key"));
    }

    #[test]
    fn long_questions_are_cut() {
        let mut settings = ModelSettings::default();
        let long = "x".repeat(10_000);
        let found = apply(&mut settings, &params(&[("q", &long)]));
        assert_eq!(found.question.unwrap().chars().count(), MAX_QUESTION_CHARS);
    }

    #[test]
    fn hidden_names_come_from_every_hide_parameter() {
        let names = hidden_names(&params(&[
            ("hide", "customers.email, payments,,"),
            ("q", "x"),
            ("hide", " Order Details "),
        ]));
        assert_eq!(names, ["customers.email", "payments", "Order Details"]);
        assert!(hidden_names(&params(&[("db", "x.db")])).is_empty());
    }

    #[test]
    fn a_flood_of_hidden_names_is_cut() {
        let long = vec!["x".repeat(1_000); 2_000].join(",");
        let names = hidden_names(&params(&[("hide", &long)]));
        assert_eq!(names.len(), MAX_HIDDEN_NAMES);
        assert_eq!(names[0].chars().count(), MAX_HIDDEN_NAME_CHARS);
    }
}
