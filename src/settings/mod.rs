//! The model a person chose, and how the page keeps that choice. Pure (no browser), so native
//! tests cover every rule; the page's settings panel only reads and writes these types.
//!
//! - [`ModelSettings`]: provider, base URL, model, temperature, step limit, the mode (safe
//!   mode: the model writes no SQL) and how many candidate answers each question gets. Not
//!   secret: they may
//!   come from the address ([`address`]) and are kept in `localStorage` when the person edits them.
//! - [`keys::KeyRing`]: API keys, each bound to the one endpoint it was entered for, so a key is
//!   never sent anywhere else (not even when a link sets another base URL).
//! - [`demo_endpoint`]: a demo's endpoint (askdb-proxy) that answers a reader with no key.
//! - [`readiness`]: whether the model may be asked now (a database open, its view ready, a
//!   model chosen, a key where one is surely needed), and what to say when not.

pub mod address;
pub mod demo_endpoint;
pub mod keys;
pub mod readiness;
pub mod server_tokens;

use crate::agent::{AgentConfig, Mode};
use crate::llm::{EndpointConfig, ProviderKind};
use crate::tr;
use serde::{Deserialize, Serialize};
use std::fmt::Display;
use std::ops::RangeInclusive;

/// Where the page keeps [`ModelSettings`] (JSON, no key in it).
pub const SETTINGS_STORAGE_KEY: &str = "askdb.model-settings";
/// Where the page keeps the keys a person asked it to remember (see [`keys::KeyRing`]).
pub const KEYS_STORAGE_KEY: &str = "askdb.api-keys";

pub const TEMPERATURE_RANGE: RangeInclusive<f32> = 0.0..=2.0;
pub const STEP_RANGE: RangeInclusive<u32> = 1..=50;
/// Candidate answers per question: 1 is a single answer (see [`crate::agent::candidates`]).
pub const CANDIDATE_RANGE: RangeInclusive<usize> = 1..=crate::agent::candidates::MAX_CANDIDATES;
/// What one question may read from a database on a web server, in MB (0: no budget).
pub const READ_BUDGET_RANGE_MB: RangeInclusive<u32> = 0..=100_000;
/// The default: 100 MB, a few hundred indexed lookups (each a few pages) but not a scan of a
/// table of 100 MB or more; at 20 Mbit/s about 40 s of transfer.
pub const DEFAULT_READ_BUDGET_MB: u32 = 100;

/// Longer text in a setting is refused: nothing legitimate is that long.
const MAX_URL_CHARS: usize = 2_048;
const MAX_MODEL_CHARS: usize = 200;

/// What a person chose, apart from the key. Missing or unreadable fields take their defaults,
/// so settings saved by an older page still load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelSettings {
    pub provider: ProviderKind,
    /// Where requests go; empty means the provider's own address.
    pub base_url: String,
    pub model: String,
    pub temperature: f32,
    pub max_steps: u32,
    /// Safe mode: the model asks structured queries and writes no SQL. Off by default.
    pub mode: Mode,
    /// Independent candidate answers drawn for each question; 1 (a single answer) by default.
    pub candidates: usize,
    /// What one question (its queries, checks, candidates and the answer's re-run) may read
    /// from a database read on demand from a web server, in MB (10^6 bytes); 0: no budget.
    pub read_budget_mb: u32,
    /// Replies shown as they are written (streamed); on by default. Off, each reply comes
    /// whole: for a server or proxy that streams badly.
    pub stream: bool,
}

/// Temperature and step limit start at the agent's own defaults ([`AgentConfig`] owns them).
impl Default for ModelSettings {
    fn default() -> Self {
        let agent = AgentConfig::default();
        ModelSettings {
            provider: ProviderKind::OpenAi,
            base_url: ProviderKind::OpenAi.default_base_url().to_string(),
            model: String::new(),
            temperature: agent.temperature,
            max_steps: agent.max_steps,
            mode: agent.mode,
            candidates: agent.candidates,
            read_budget_mb: DEFAULT_READ_BUDGET_MB,
            stream: true,
        }
    }
}

/// A provider and address offered with one click.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub label: &'static str,
    pub provider: ProviderKind,
    pub base_url: &'static str,
    /// An example model name, shown as the model field's placeholder (never filled in: model
    /// names change faster than this page); `None` where the server lists its own.
    pub model_example: Option<&'static str>,
}

/// Servers that speak the OpenAI format at another address.
pub const OPENAI_COMPATIBLE_PRESETS: [Preset; 3] = [
    Preset {
        label: "Ollama",
        provider: ProviderKind::OpenAi,
        base_url: "http://127.0.0.1:11434/v1",
        model_example: Some("qwen2.5-coder:7b"),
    },
    Preset {
        label: "LM Studio",
        provider: ProviderKind::OpenAi,
        base_url: "http://127.0.0.1:1234/v1",
        model_example: None,
    },
    Preset {
        label: "OpenRouter",
        provider: ProviderKind::OpenAi,
        base_url: "https://openrouter.ai/api/v1",
        model_example: Some("openai/gpt-4.1-mini"),
    },
];

/// The model field's placeholder for the current provider and address: the preset's example at
/// a preset's address ("e.g. the model id LM Studio shows" where the server lists its own),
/// else the provider's own.
pub fn model_placeholder(settings: &ModelSettings) -> String {
    let url = settings.endpoint_url();
    let preset = OPENAI_COMPATIBLE_PRESETS
        .iter()
        .find(|p| p.provider == settings.provider && p.base_url == url);
    match preset {
        Some(Preset {
            model_example: None,
            label,
            ..
        }) => tr!("settings-model-placeholder-listed", server = *label),
        Some(Preset {
            model_example: Some(example),
            ..
        }) => tr!("settings-model-placeholder", example = *example),
        None => tr!(
            "settings-model-placeholder",
            example = settings.provider.descriptor().model_example
        ),
    }
}

impl ModelSettings {
    /// Switches to `provider` at its own address (a custom address rarely fits another format).
    pub fn choose_provider(&mut self, provider: ProviderKind) {
        if provider != self.provider {
            self.provider = provider;
            self.base_url = provider.default_base_url().to_string();
        }
    }

    pub fn choose_preset(&mut self, preset: &Preset) {
        self.provider = preset.provider;
        self.base_url = preset.base_url.to_string();
    }

    /// The base URL requests go to (the provider's own when none is set).
    pub fn endpoint_url(&self) -> String {
        EndpointConfig::new(self.provider, self.base_url.clone(), "").base_url()
    }

    /// Where and how to call the model, with `api_key` (empty for servers that need none).
    pub fn endpoint(&self, api_key: &str) -> EndpointConfig {
        EndpointConfig::new(self.provider, self.endpoint_url(), api_key)
    }

    /// The agent's settings as the person chose them; the rest are the agent's defaults. The
    /// page sets the query deadline, which is the console's (not a model setting).
    pub fn agent_config(&self) -> AgentConfig {
        AgentConfig {
            model: self.model.trim().to_string(),
            temperature: self.temperature,
            max_steps: self.max_steps,
            mode: self.mode,
            candidates: self.candidates,
            ..AgentConfig::default()
        }
    }

    /// These settings as saved in `localStorage`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Saved settings; anything unreadable or out of range falls back to its default (storage
    /// can hold anything: another version of the page, or a person's edits).
    pub fn from_json(json: &str) -> ModelSettings {
        let Ok(saved) = serde_json::from_str::<ModelSettings>(json) else {
            return ModelSettings::default();
        };
        let mut settings = ModelSettings {
            provider: saved.provider,
            base_url: saved.provider.default_base_url().to_string(),
            ..ModelSettings::default()
        };
        if let Ok(url) = check_base_url(&saved.base_url) {
            settings.base_url = url;
        }
        if let Ok(model) = check_model(&saved.model) {
            settings.model = model;
        }
        if let Ok(temperature) = check_temperature(saved.temperature) {
            settings.temperature = temperature;
        }
        if let Ok(steps) = check_max_steps(saved.max_steps) {
            settings.max_steps = steps;
        }
        settings.mode = saved.mode;
        if let Ok(candidates) = check_candidates(saved.candidates) {
            settings.candidates = candidates;
        }
        if let Ok(mb) = check_read_budget_mb(saved.read_budget_mb) {
            settings.read_budget_mb = mb;
        }
        settings.stream = saved.stream;
        settings
    }
}

/// A base URL as typed, if it is an absolute `http(s)` address; else why not. Empty stands for
/// the provider's own address.
pub fn check_base_url(url: &str) -> Result<String, String> {
    check_web_address(url).map_err(|problem| match problem {
        NotWebAddress::Unreadable => tr!("settings-base-url-not-web"),
        NotWebAddress::NoScheme => tr!("settings-base-url-scheme"),
        NotWebAddress::NoHost => tr!("settings-base-url-no-host"),
    })
}

/// Why typed text is not an absolute `http(s)` address; each caller names the setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotWebAddress {
    /// Too long, or with a blank or a control character in it.
    Unreadable,
    /// Not `http://` or `https://`.
    NoScheme,
    NoHost,
}

/// `url` trimmed and without its trailing `/`, when it is an absolute `http(s)` address (empty
/// stays empty).
pub(crate) fn check_web_address(url: &str) -> Result<String, NotWebAddress> {
    let url = url.trim();
    if url.is_empty() {
        return Ok(String::new());
    }
    if url.chars().count() > MAX_URL_CHARS || url.chars().any(|c| c.is_control() || c == ' ') {
        return Err(NotWebAddress::Unreadable);
    }
    let rest = ["http://", "https://"]
        .iter()
        .find_map(|scheme| {
            url.get(..scheme.len())
                .filter(|start| start.eq_ignore_ascii_case(scheme))
                .map(|_| &url[scheme.len()..])
        })
        .ok_or(NotWebAddress::NoScheme)?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() {
        return Err(NotWebAddress::NoHost);
    }
    Ok(url.trim_end_matches('/').to_string())
}

pub fn check_model(model: &str) -> Result<String, String> {
    let model = model.trim();
    if model.chars().count() > MAX_MODEL_CHARS || model.chars().any(char::is_control) {
        return Err(tr!("settings-model-invalid"));
    }
    Ok(model.to_string())
}

pub fn check_temperature(temperature: f32) -> Result<f32, String> {
    check_in_range(temperature, &TEMPERATURE_RANGE, "temperature")
}

pub fn check_max_steps(steps: u32) -> Result<u32, String> {
    check_in_range(steps, &STEP_RANGE, "step limit")
}

pub fn check_candidates(candidates: usize) -> Result<usize, String> {
    check_in_range(candidates, &CANDIDATE_RANGE, "number of candidates")
}

pub fn check_read_budget_mb(mb: u32) -> Result<u32, String> {
    check_in_range(mb, &READ_BUDGET_RANGE_MB, "read budget (MB)")
}

impl ModelSettings {
    /// The bytes one question may read from a remote database, `None` for no budget.
    pub fn read_budget_bytes(&self) -> Option<u64> {
        (self.read_budget_mb > 0).then(|| u64::from(self.read_budget_mb) * 1_000_000)
    }
}

/// `value` when it lies in `range` (NaN does not), otherwise which values the `what` takes (in
/// English: `askdb-eval` says it of its arguments; the page never shows it, its number inputs
/// put back the value that stands).
fn check_in_range<T: PartialOrd + Display>(
    value: T,
    range: &RangeInclusive<T>,
    what: &str,
) -> Result<T, String> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "the {what} goes from {} to {}",
            range.start(),
            range.end()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_openai_at_its_own_address_with_no_model() {
        let settings = ModelSettings::default();
        assert_eq!(settings.provider, ProviderKind::OpenAi);
        assert_eq!(settings.base_url, "https://api.openai.com/v1");
        assert_eq!(settings.temperature, 0.2);
        assert_eq!(settings.max_steps, 10);
        assert_eq!(settings.mode, Mode::Sql, "safe mode is off by default");
        assert!(settings.model.is_empty(), "no model chosen yet");
    }

    #[test]
    fn presets_fill_an_openai_compatible_address() {
        let mut settings = ModelSettings::default();
        let ollama = OPENAI_COMPATIBLE_PRESETS[0];
        settings.choose_preset(&ollama);
        assert_eq!(settings.provider, ProviderKind::OpenAi);
        assert_eq!(settings.base_url, "http://127.0.0.1:11434/v1");
        assert_eq!(model_placeholder(&settings), "e.g. qwen2.5-coder:7b");
        settings.choose_preset(&OPENAI_COMPATIBLE_PRESETS[1]);
        assert_eq!(
            model_placeholder(&settings),
            "e.g. the model id LM Studio shows"
        );
        let addresses: Vec<_> = OPENAI_COMPATIBLE_PRESETS
            .iter()
            .map(|p| p.base_url)
            .collect();
        assert_eq!(
            addresses,
            [
                "http://127.0.0.1:11434/v1",
                "http://127.0.0.1:1234/v1",
                "https://openrouter.ai/api/v1"
            ]
        );
    }

    #[test]
    fn another_provider_starts_at_its_own_address() {
        let mut settings = ModelSettings::default();
        settings.choose_preset(&OPENAI_COMPATIBLE_PRESETS[2]);
        settings.choose_provider(ProviderKind::Anthropic);
        assert_eq!(settings.base_url, "https://api.anthropic.com");
        // Choosing the provider it already has keeps a custom address.
        settings.base_url = "https://proxy.example/anthropic".into();
        settings.choose_provider(ProviderKind::Anthropic);
        assert_eq!(settings.base_url, "https://proxy.example/anthropic");
    }

    #[test]
    fn every_providers_own_address_is_a_web_address() {
        for &kind in ProviderKind::ALL {
            let url = kind.default_base_url();
            assert!(url.starts_with("https://"), "{kind:?}: {url}");
            assert_eq!(check_base_url(url), Ok(url.to_string()), "{kind:?}");
            let example = kind.descriptor().model_example;
            assert_eq!(check_model(example), Ok(example.to_string()), "{kind:?}");
        }
    }

    /// The provider that exists only in the tests (`llm/wire/fake.rs` and its line in the list
    /// of `llm/wire/mod.rs`): nothing in settings names it, yet it is picked like the others.
    #[test]
    fn a_provider_in_the_list_is_pickable_everywhere() {
        let fake = ProviderKind::Fake;
        // The settings panel offers `ProviderKind::ALL` and reads the chosen option's id back.
        assert!(ProviderKind::ALL.contains(&fake));
        assert_eq!(ProviderKind::named(fake.id()), Some(fake));
        assert_eq!(fake.label(), "Fake (tests only)");
        // Chosen, it goes to its own address, with its own model example.
        let mut settings = ModelSettings::default();
        settings.choose_provider(fake);
        assert_eq!(settings.endpoint_url(), "https://fake.invalid/api");
        assert_eq!(model_placeholder(&settings), "e.g. fake-1");
        // From a link.
        let mut linked = ModelSettings::default();
        let found = address::apply(&mut linked, &[("provider".into(), "fake".into())]);
        assert!(found.ignored.is_empty(), "{:?}", found.ignored);
        assert_eq!(linked.provider, fake);
        assert_eq!(linked.endpoint_url(), "https://fake.invalid/api");
        // Saved and read back.
        settings.model = "fake-1".into();
        assert_eq!(ModelSettings::from_json(&settings.to_json()), settings);
        // Its key is bound to it, not to another provider's endpoint.
        let mut keys = keys::KeyRing::default();
        keys.set(&settings, "fake-secret");
        assert_eq!(keys.get(&settings), Some("fake-secret"));
        assert_eq!(keys.get(&ModelSettings::default()), None);
        // `askdb-eval` reads its key from the variable it declares.
        assert_eq!(fake.descriptor().key_variable, "FAKE_API_KEY");
    }

    #[test]
    fn agent_config_takes_the_persons_choices() {
        let settings = ModelSettings {
            model: "  test-model ".into(),
            temperature: 0.7,
            max_steps: 4,
            ..ModelSettings::default()
        };
        let config = settings.agent_config();
        assert_eq!(config.model, "test-model");
        assert_eq!(config.temperature, 0.7);
        assert_eq!(config.max_steps, 4);
        assert_eq!(config.deadline_ms, AgentConfig::default().deadline_ms);
        // Where the page joins them, the console's deadline becomes each query's.
        let limits = crate::engine::QueryLimits {
            max_rows: 1_000,
            deadline_ms: 2_500,
        };
        assert_eq!(config.with_query_limits(&limits).query_deadline_ms, 2_500);
    }

    #[test]
    fn an_empty_base_url_means_the_providers_own() {
        let settings = ModelSettings {
            provider: ProviderKind::Gemini,
            base_url: " ".into(),
            ..ModelSettings::default()
        };
        assert_eq!(
            settings.endpoint("k").base_url(),
            "https://generativelanguage.googleapis.com/v1beta"
        );
    }

    #[test]
    fn saved_settings_round_trip_without_any_key() {
        let settings = ModelSettings {
            provider: ProviderKind::Anthropic,
            base_url: "https://api.anthropic.com".into(),
            model: "claude-x".into(),
            temperature: 0.0,
            max_steps: 20,
            mode: Mode::Safe,
            candidates: 3,
            read_budget_mb: 250,
            stream: false,
        };
        let json = settings.to_json();
        assert!(!json.to_lowercase().contains("key"), "{json}");
        assert_eq!(ModelSettings::from_json(&json), settings);
    }

    #[test]
    fn replies_stream_unless_turned_off_also_for_settings_saved_before_the_setting() {
        assert!(ModelSettings::default().stream);
        let older = r#"{"provider": "openai", "model": "gpt-x", "candidates": 1}"#;
        assert!(ModelSettings::from_json(older).stream);
        let off = r#"{"provider": "openai", "stream": false}"#;
        assert!(!ModelSettings::from_json(off).stream);
    }

    #[test]
    fn unreadable_or_out_of_range_saved_fields_take_their_defaults() {
        assert_eq!(
            ModelSettings::from_json("not json"),
            ModelSettings::default()
        );
        let settings = ModelSettings::from_json(
            r#"{"provider":"gemini","base_url":"javascript:alert(1)","model":"m",
                "temperature":9,"max_steps":0}"#,
        );
        assert_eq!(settings.provider, ProviderKind::Gemini);
        assert_eq!(
            settings.base_url,
            "https://generativelanguage.googleapis.com/v1beta"
        );
        assert_eq!(settings.model, "m");
        assert_eq!(settings.temperature, AgentConfig::default().temperature);
        assert_eq!(settings.max_steps, AgentConfig::default().max_steps);
        // An unknown provider makes the whole record unreadable: start from the defaults.
        assert_eq!(
            ModelSettings::from_json(r#"{"provider":"other","model":"m"}"#),
            ModelSettings::default()
        );
    }

    #[test]
    fn base_urls_must_be_web_addresses() {
        assert_eq!(
            check_base_url(" http://127.0.0.1:11434/v1/ "),
            Ok("http://127.0.0.1:11434/v1".into())
        );
        assert_eq!(
            check_base_url("HTTPS://Example.com"),
            Ok("HTTPS://Example.com".into())
        );
        assert_eq!(check_base_url(""), Ok(String::new()));
        for bad in [
            "javascript:alert(1)",
            "file:///etc/passwd",
            "ftp://host",
            "http://",
            "https:///path",
            "http://a b",
            "127.0.0.1:11434",
        ] {
            assert!(check_base_url(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn numbers_outside_their_range_are_refused() {
        assert!(check_temperature(2.0).is_ok());
        assert!(check_temperature(-0.1).is_err());
        assert!(check_temperature(f32::NAN).is_err());
        assert!(check_max_steps(50).is_ok());
        assert!(check_max_steps(51).is_err());
        assert!(check_model("a\u{0}b").is_err());
        assert_eq!(check_model(" gpt "), Ok("gpt".into()));
    }
}
