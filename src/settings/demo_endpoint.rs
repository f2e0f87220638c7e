//! A demo's endpoint (`?endpoint=`, `<askdb-demo endpoint=…>`): an askdb-proxy that holds the
//! author's key (docs/live-demos.md), so that a reader with no key asks their own questions.
//!
//! The page reads the demo's card there (`GET {endpoint}`): which provider and model answer,
//! who pays, how many calls are left today. The card comes from another server, so it is read
//! as untrusted: bounded in size, each field checked, the provider one askdb knows. For the
//! visit the questions go to the endpoint with no key ([`visit_settings`]); the reader's own
//! settings are neither shown nor saved over.

use super::{check_model, check_web_address, ModelSettings, NotWebAddress};
use crate::llm::ProviderKind;
use crate::text::cut_chars;
use crate::tr;
use serde::Deserialize;

/// A card is a few hundred bytes; a larger answer is not read.
pub const MAX_CARD_BYTES: usize = 16 * 1024;
/// The card's format, as its `askdb_proxy` field names it.
const CARD_FORMAT: u32 = 1;
/// Who pays, as shown beside the question box: a few words.
const MAX_PAID_BY_CHARS: usize = 80;
const MAX_NAME_CHARS: usize = 80;

/// The endpoint as given in the address: an absolute http(s) address, else why not.
pub fn check_endpoint(url: &str) -> Result<String, String> {
    match check_web_address(url) {
        Ok(url) if url.is_empty() => Err(tr!("settings-endpoint-empty")),
        Ok(url) => Ok(url),
        Err(NotWebAddress::Unreadable) => Err(tr!("settings-endpoint-not-web")),
        Err(NotWebAddress::NoScheme) => Err(tr!("settings-endpoint-scheme")),
        Err(NotWebAddress::NoHost) => Err(tr!("settings-endpoint-no-host")),
    }
}

/// What the demo's endpoint says of itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DemoCard {
    /// The demo's name in the proxy's config.
    pub demo: String,
    pub provider: ProviderKind,
    /// The model the page asks (the first of the demo's models).
    pub model: String,
    /// Who pays for the questions ("the Music docs").
    pub paid_by: String,
    /// Model calls this reader may still make today; `None` when the card does not say.
    pub left_today: Option<u64>,
}

#[derive(Deserialize)]
struct CardJson {
    askdb_proxy: u32,
    #[serde(default)]
    demo: String,
    provider: String,
    model: String,
    #[serde(default)]
    paid_by: String,
    #[serde(default)]
    left_today: Option<u64>,
}

impl DemoCard {
    /// Reads the card's JSON, or says what is wrong with it.
    pub fn parse(body: &str) -> Result<DemoCard, String> {
        if body.len() > MAX_CARD_BYTES {
            return Err(card_too_large());
        }
        let card: CardJson =
            serde_json::from_str(body).map_err(|_| tr!("settings-demo-card-not-json"))?;
        if card.askdb_proxy != CARD_FORMAT {
            return Err(tr!(
                "settings-demo-card-format",
                format = card.askdb_proxy.to_string()
            ));
        }
        let provider = ProviderKind::named(&card.provider).ok_or_else(|| {
            tr!(
                "settings-demo-card-provider",
                provider = cut_chars(&card.provider, MAX_NAME_CHARS),
                providers = ProviderKind::ids()
            )
        })?;
        let model = check_model(&card.model)
            .ok()
            .filter(|model| !model.is_empty())
            .ok_or_else(|| tr!("settings-demo-card-no-model"))?;
        Ok(DemoCard {
            demo: one_line(&card.demo, MAX_NAME_CHARS),
            provider,
            model,
            paid_by: Some(one_line(&card.paid_by, MAX_PAID_BY_CHARS))
                .filter(|who| !who.is_empty())
                .unwrap_or_else(|| tr!("settings-demo-paid-by-author")),
            left_today: card.left_today,
        })
    }
}

/// Why a card is not read: it is larger than [`MAX_CARD_BYTES`].
pub fn card_too_large() -> String {
    tr!("settings-demo-card-too-large", kb = MAX_CARD_BYTES / 1024)
}

/// Plain text on one line, cut to `most` characters.
fn one_line(text: &str, most: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    cut_chars(&words.join(" "), most)
}

/// The settings a question uses through the demo's endpoint: the reader's own (mode,
/// temperature, steps, candidates, read budget) with the card's provider and model, at the
/// endpoint. No key goes with them: the endpoint holds the author's.
pub fn visit_settings(reader: &ModelSettings, card: &DemoCard, endpoint: &str) -> ModelSettings {
    ModelSettings {
        provider: card.provider,
        base_url: endpoint.to_string(),
        model: card.model.clone(),
        ..reader.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::readiness::{may_ask, Asking, Facts, ModelViewReadiness};

    const CARD: &str = r#"{
      "askdb_proxy": 1, "demo": "music", "provider": "openai", "model": "gpt-4.1-mini",
      "models": ["gpt-4.1-mini"], "max_tokens": 1024, "paid_by": "the Music docs",
      "left_today": 47, "resets_at": "2026-12-05T00:00:00Z"
    }"#;

    #[test]
    fn the_card_of_live_demos_md_is_read() {
        let card = DemoCard::parse(CARD).unwrap();
        assert_eq!(
            card,
            DemoCard {
                demo: "music".into(),
                provider: ProviderKind::OpenAi,
                model: "gpt-4.1-mini".into(),
                paid_by: "the Music docs".into(),
                left_today: Some(47),
            }
        );
    }

    #[test]
    fn a_card_that_is_not_one_askdb_reads_is_refused_with_the_reason() {
        let refused = |body: &str| DemoCard::parse(body).unwrap_err();
        assert!(refused("<html>Bad gateway</html>").contains("not the JSON"));
        assert!(
            refused(&CARD.replace("\"askdb_proxy\": 1", "\"askdb_proxy\": 2")).contains("format 2")
        );
        let mistral = refused(&CARD.replace("\"openai\"", "\"mistral\""));
        assert!(
            mistral.contains("\"mistral\", not one of openai"),
            "{mistral}"
        );
        assert!(refused(&CARD.replace("\"gpt-4.1-mini\",", "\"  \",")).contains("no model"));
        assert!(refused(&CARD.replace("\"gpt-4.1-mini\",", "\"a\\nb\",")).contains("no model"));
        let huge = format!("{} {}", CARD, " ".repeat(MAX_CARD_BYTES));
        assert!(refused(&huge).contains("larger than 16 KB"));
        assert!(refused(r#"{"askdb_proxy": 1, "provider": "openai"}"#).contains("not the JSON"));
    }

    #[test]
    fn who_pays_is_a_few_words_on_one_line_and_the_author_by_default() {
        let long = CARD.replace(
            "the Music docs",
            &format!("the\\nMusic\\t{}", "x".repeat(500)),
        );
        let card = DemoCard::parse(&long).unwrap();
        assert!(
            card.paid_by.starts_with("the Music xxx"),
            "{}",
            card.paid_by
        );
        assert_eq!(
            card.paid_by.chars().count(),
            MAX_PAID_BY_CHARS + 1,
            "cut, with …"
        );
        let anonymous = CARD.replace("\"paid_by\": \"the Music docs\",", "");
        assert_eq!(DemoCard::parse(&anonymous).unwrap().paid_by, "the author");
        let no_count = CARD.replace("\"left_today\": 47,", "");
        assert_eq!(DemoCard::parse(&no_count).unwrap().left_today, None);
    }

    #[test]
    fn an_endpoint_is_an_absolute_web_address_like_a_base_url() {
        assert_eq!(
            check_endpoint(" https://proxy.example/demo/music/ "),
            Ok("https://proxy.example/demo/music".into())
        );
        assert_eq!(
            check_endpoint("http://127.0.0.1:8787/demo/shop"),
            Ok("http://127.0.0.1:8787/demo/shop".into())
        );
        for wrong in [
            "",
            "javascript:alert(1)",
            "/demo/music",
            "https://",
            "ftp://x/y",
        ] {
            let why = check_endpoint(wrong).unwrap_err();
            assert!(why.contains("endpoint"), "{wrong}: {why}");
        }
    }

    #[test]
    fn a_visit_through_the_endpoint_asks_its_model_with_no_key() {
        let reader = ModelSettings {
            provider: ProviderKind::Anthropic,
            base_url: "https://api.anthropic.com".into(),
            model: "claude-x".into(),
            candidates: 3,
            ..ModelSettings::default()
        };
        let card = DemoCard::parse(CARD).unwrap();
        let visit = visit_settings(&reader, &card, "https://proxy.example/demo/music");
        assert_eq!(visit.provider, ProviderKind::OpenAi);
        assert_eq!(visit.endpoint_url(), "https://proxy.example/demo/music");
        assert_eq!(visit.model, "gpt-4.1-mini");
        assert_eq!(visit.candidates, 3, "the reader's own choices stay");
        // May ask with no key: the endpoint is not the provider's own address.
        let facts = Facts {
            asking: Asking::Question("How many?"),
            database_open: true,
            model_view: ModelViewReadiness::Ready,
            settings: &visit,
            key: "",
            demo_endpoint: None,
        };
        assert_eq!(may_ask(&facts), Ok(()));
    }
}
