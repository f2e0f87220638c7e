//! The providers and their wire formats: request building and response parsing, per the
//! official references.
//!
//! Each provider is one file here that declares its [`ProviderDescriptor`] once (its id, label,
//! default address, model example, key variable, caching rule) beside its two pure functions,
//! `build_request` and `parse_response`. The one list below ([`providers!`]) makes
//! [`ProviderKind`] and the two functions that dispatch to each file's from those files; everything else (the settings panel, the address, saved
//! settings and conversations, the ledger, the evaluation runner) reads the descriptors through
//! it. This module also holds what the wire files share (the endpoint, error mapping).

pub mod anthropic;
#[cfg(test)]
pub mod fake;
pub mod gemini;
pub mod openai;
pub mod prefix;

use super::http::{streams_its_body, HttpRequest, HttpResponse};
use super::stream::ReplyStream;
use super::{ChatRequest, LlmError, ModelReply};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Everything askdb knows about one provider, declared once in its wire file.
#[derive(Debug)]
pub struct ProviderDescriptor {
    /// Its name in `?provider=`, in saved settings and conversations, and for `askdb-eval
    /// --provider`. Lowercase; never changes once files carry it.
    pub id: &'static str,
    /// Its name for people (the settings panel, a replay's banner).
    pub label: &'static str,
    /// Where its API lives when the person gives no base URL.
    pub default_base_url: &'static str,
    /// A model name to show as an example (a placeholder, never filled in).
    pub model_example: &'static str,
    /// The environment variable `askdb-eval` reads its key from (after `ASKDB_API_KEY`).
    pub key_variable: &'static str,
    /// How it caches the start of a prompt that repeats (every step of a question does).
    pub caching: Caching,
}

/// How a provider caches a prompt's repeated start, which askdb keeps byte for byte from step
/// to step (`tests/prompt_prefix.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caching {
    /// It caches a long unchanged start by itself; the request carries no mark.
    ByItself,
    /// It caches only up to the places a request marks; its `build_request` puts the marks.
    Marked,
}

/// Makes, from the one list of providers below, [`ProviderKind`] (which provider, as a value to
/// keep, compare and save) and its way to each provider's descriptor.
macro_rules! providers {
    ($($(#[$attr:meta])* $variant:ident => $wire:ident),+ $(,)?) => {
        /// Which provider, and so which wire format, to speak. Saved and read as its id.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ProviderKind {
            $($(#[$attr])* $variant),+
        }

        impl ProviderKind {
            /// Every provider, in the order the page lists them.
            pub const ALL: &'static [ProviderKind] = &[$($(#[$attr])* ProviderKind::$variant),+];

            /// What its wire file declares.
            pub fn descriptor(self) -> &'static ProviderDescriptor {
                match self {
                    $($(#[$attr])* ProviderKind::$variant => &$wire::PROVIDER),+
                }
            }
        }

        /// The HTTP request for `request`, in the format of the provider `config` names.
        pub fn build_request(config: &EndpointConfig, request: &ChatRequest) -> HttpRequest {
            match config.kind {
                $($(#[$attr])* ProviderKind::$variant => $wire::build_request(config, request)),+
            }
        }

        /// `request` (made by [`build_request`] for `kind`), asking for the reply as a stream.
        pub fn stream_request(kind: ProviderKind, request: HttpRequest) -> HttpRequest {
            match kind {
                $($(#[$attr])* ProviderKind::$variant => $wire::stream_request(request)),+
            }
        }

        /// A reader for a reply streamed in `kind`'s format.
        pub fn reply_stream(kind: ProviderKind) -> ReplyStream {
            match kind {
                $($(#[$attr])* ProviderKind::$variant => {
                    ReplyStream::new(Box::<$wire::Assembler>::default())
                }),+
            }
        }

        /// The model's reply in `response`, whole or streamed, or the error the provider
        /// reports there (or, in front of the provider, a demo's endpoint: the same refusal
        /// for every format).
        pub fn parse_response(
            kind: ProviderKind,
            response: &HttpResponse,
        ) -> Result<ModelReply, LlmError> {
            if let Some(refusal) = super::demo_endpoint::refusal_in(response) {
                return Err(LlmError::Proxy(refusal));
            }
            let whole;
            let response = match assembled(kind, response) {
                // Read as the body the same reply would have had unstreamed.
                Some(body) => {
                    whole = HttpResponse {
                        body: body?.to_string(),
                        ..response.clone()
                    };
                    &whole
                }
                None => response,
            };
            match kind {
                $($(#[$attr])* ProviderKind::$variant => $wire::parse_response(response)),+
            }
        }
    };
}

/// A streamed answer put together: the JSON body its provider would have sent whole, or why
/// it cannot be (an error in the stream, or its end missing); `None` for an answer that was not
/// streamed. What `parse_response` reads, and what the ledger shows beside the stream's bytes.
pub fn assembled(
    kind: ProviderKind,
    response: &HttpResponse,
) -> Option<Result<serde_json::Value, LlmError>> {
    if !streams_its_body(response) {
        return None;
    }
    let mut stream = reply_stream(kind);
    stream.feed(response.body.as_bytes());
    Some(stream.finish())
}

/// `request`'s JSON body with `fields` set: how the providers that say "stream" in the body
/// ask for a stream (their `stream_request`).
fn with_body_fields(mut request: HttpRequest, fields: &[(&str, serde_json::Value)]) -> HttpRequest {
    if let Ok(mut body) = serde_json::from_str::<serde_json::Value>(&request.body) {
        for (name, value) in fields {
            body[*name] = value.clone();
        }
        request.body = body.to_string();
    }
    request
}

// The providers. Adding one: a wire file that declares its `PROVIDER`, `build_request`,
// `parse_response`, `stream_request` and its stream's `Assembler`, and one line here. The two functions are chosen by a `match`, not kept in
// the descriptor: the page's settings read the descriptors, and a function pointer there would
// keep the wire formats in the page's first download (`ui::lazy`).
providers! {
    OpenAi => openai,
    Anthropic => anthropic,
    Gemini => gemini,
    #[cfg(test)]
    Fake => fake,
}

impl ProviderKind {
    /// See [`ProviderDescriptor::id`].
    pub fn id(self) -> &'static str {
        self.descriptor().id
    }

    /// See [`ProviderDescriptor::label`].
    pub fn label(self) -> &'static str {
        self.descriptor().label
    }

    /// Where the provider's API lives when the user gives no base URL.
    pub fn default_base_url(self) -> &'static str {
        self.descriptor().default_base_url
    }

    /// The provider a person named (`openai`, ` Gemini `: any case, spaces around).
    pub fn named(name: &str) -> Option<ProviderKind> {
        let name = name.trim();
        ProviderKind::ALL
            .iter()
            .copied()
            .find(|kind| kind.id().eq_ignore_ascii_case(name))
    }

    /// Every provider's id, for a message that lists them: "openai, anthropic, gemini".
    pub fn ids() -> String {
        let ids: Vec<&str> = ProviderKind::ALL.iter().map(|kind| kind.id()).collect();
        ids.join(", ")
    }
}

/// Saved as its id, exactly as files have always carried it (`"openai"`).
impl Serialize for ProviderKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

/// Read from its id, exactly (a file is not a person typing); anything else is an error that
/// names the ids there are.
impl<'de> Deserialize<'de> for ProviderKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        ProviderKind::ALL
            .iter()
            .copied()
            .find(|kind| kind.id() == id)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown provider `{id}`, expected one of {}",
                    ProviderKind::ids()
                ))
            })
    }
}

/// Where to send requests and with which key.
#[derive(Clone, PartialEq, Eq)]
pub struct EndpointConfig {
    pub kind: ProviderKind,
    /// Empty for the provider's default; else e.g. `http://localhost:11434/v1` for Ollama.
    pub base_url: String,
    /// Empty when the server needs none (Ollama, LM Studio).
    pub api_key: String,
}

impl EndpointConfig {
    pub fn new(
        kind: ProviderKind,
        base_url: impl Into<String>,
        api_key: impl Into<String>,
    ) -> Self {
        EndpointConfig {
            kind,
            base_url: base_url.into(),
            api_key: api_key.into(),
        }
    }

    /// The base URL requests go to, without a trailing slash.
    pub fn base_url(&self) -> String {
        let given = self.base_url.trim();
        let base = if given.is_empty() {
            self.kind.default_base_url()
        } else {
            given
        };
        base.trim_end_matches('/').to_string()
    }

    /// The key as pasted, minus the spaces and line breaks a copy often brings along.
    fn api_key(&self) -> &str {
        self.api_key.trim()
    }
}

/// Never prints the key: configs end up in logs and error reports.
impl fmt::Debug for EndpointConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = if self.api_key().is_empty() {
            "(none)"
        } else {
            "(hidden)"
        };
        f.debug_struct("EndpointConfig")
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("api_key", &key)
            .finish()
    }
}

/// The temperature as JSON wants it: `0.2_f32` widened naively would print as
/// 0.20000000298023224. `None` when it is not a number at all (the field is then left out).
fn temperature(value: f32) -> Option<f64> {
    if !value.is_finite() {
        return None;
    }
    value.to_string().parse().ok()
}

/// The JSON body of a successful answer.
fn success_json<T: serde::de::DeserializeOwned>(response: &HttpResponse) -> Result<T, LlmError> {
    serde_json::from_str(&response.body).map_err(|error| LlmError::Malformed {
        message: format!(
            "it is not JSON ({error}): {}. Does the provider kind match the base URL?",
            snippet(&response.body)
        ),
    })
}

/// An error answer's JSON body, if it is JSON at all (a proxy may answer with an HTML page).
fn error_json(response: &HttpResponse) -> Option<serde_json::Value> {
    serde_json::from_str(&response.body).ok()
}

/// The human-readable message of an error body. All three providers put it in
/// `{"error": {"message": …}}`; some OpenAI-compatible servers send `{"error": "…"}`.
fn error_message(response: &HttpResponse, body: Option<&serde_json::Value>) -> String {
    let error = body.and_then(|body| body.get("error"));
    let message = match error {
        Some(serde_json::Value::String(text)) => Some(text.as_str()),
        Some(error) => error.get("message").and_then(|m| m.as_str()),
        None => body
            .and_then(|body| body.get("message"))
            .and_then(|m| m.as_str()),
    };
    match message {
        Some(text) => text.trim().to_string(),
        None => snippet(&response.body),
    }
}

/// The usual reading of an HTTP error status.
fn error_for_status(status: u16, message: String, retry_after_ms: Option<u32>) -> LlmError {
    match status {
        401 | 403 => LlmError::Unauthorized { status, message },
        404 => LlmError::NotFound { message },
        429 => LlmError::RateLimited {
            retry_after_ms,
            message,
        },
        500..=599 => LlmError::Server { status, message },
        _ => LlmError::BadRequest { status, message },
    }
}

/// The `Retry-After` header in milliseconds (OpenAI also sends a finer `retry-after-ms`). Only
/// the seconds form is read: the HTTP-date form would need a clock, and backoff covers it. In a
/// browser the header is visible only if the server lists it in `Access-Control-Expose-Headers`;
/// when it is not, backoff covers that too.
fn retry_after_header_ms(response: &HttpResponse) -> Option<u32> {
    if let Some(ms) = response
        .header("retry-after-ms")
        .and_then(parse_non_negative)
    {
        return Some(saturating_ms(ms));
    }
    let seconds = response
        .header("retry-after")
        .and_then(parse_non_negative)?;
    Some(saturating_ms(seconds * 1000.0))
}

fn parse_non_negative(text: &str) -> Option<f64> {
    let number: f64 = text.trim().parse().ok()?;
    (number.is_finite() && number >= 0.0).then_some(number)
}

fn saturating_ms(ms: f64) -> u32 {
    // `as` saturates at u32::MAX; the retry policy caps it anyway.
    ms.ceil() as u32
}

/// The start of a body that could not be read, for an error message: tags dropped, whitespace
/// collapsed, a bounded length.
fn snippet(body: &str) -> String {
    const MAX_CHARS: usize = 200;
    let mut text = String::new();
    let mut in_tag = false;
    for c in body.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if in_tag => {}
            _ => text.push(c),
        }
    }
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.is_empty() {
        return "(an empty body)".to_string();
    }
    match collapsed.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &collapsed[..cut]),
        None => collapsed,
    }
}

/// A tool call's argument text as the JSON object Anthropic and Gemini want back. Arguments that
/// are not an object (the model wrote broken JSON) become `{}`: the call already failed, and its
/// error result tells the model why.
fn arguments_object(arguments: &str) -> serde_json::Value {
    match serde_json::from_str::<serde_json::Value>(arguments) {
        Ok(value @ serde_json::Value::Object(_)) => value,
        _ => serde_json::Value::Object(serde_json::Map::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn provider_names_round_trip() {
        for &kind in ProviderKind::ALL {
            assert_eq!(ProviderKind::named(kind.id()), Some(kind));
            let saved = serde_json::to_string(&kind).unwrap();
            assert_eq!(saved, format!("\"{}\"", kind.id()));
            assert_eq!(serde_json::from_str::<ProviderKind>(&saved).unwrap(), kind);
        }
        assert_eq!(ProviderKind::named(" Gemini "), Some(ProviderKind::Gemini));
        assert_eq!(ProviderKind::named("ollama"), None);
        // Files carry the id exactly as it was always written.
        assert!(serde_json::from_str::<ProviderKind>("\"Gemini\"").is_err());
        let unknown = serde_json::from_str::<ProviderKind>("\"mistral\"").unwrap_err();
        assert!(
            unknown.to_string().contains("openai, anthropic, gemini"),
            "{unknown}"
        );
    }

    #[test]
    fn each_provider_has_its_own_names() {
        let mut ids = HashSet::new();
        let mut labels = HashSet::new();
        let mut variables = HashSet::new();
        for &kind in ProviderKind::ALL {
            let descriptor = kind.descriptor();
            let id = descriptor.id;
            assert!(ids.insert(id), "{id} twice");
            assert!(
                !id.is_empty() && id.bytes().all(|b| b.is_ascii_lowercase()),
                "{id}: ids are lowercase letters (addresses, files and the command line use them)"
            );
            assert!(labels.insert(descriptor.label), "{id}: label twice");
            let variable = descriptor.key_variable;
            assert!(variables.insert(variable), "{id}: {variable} twice");
            assert!(
                variable.ends_with("_API_KEY") && variable != "ASKDB_API_KEY",
                "{id}: {variable}"
            );
            assert!(!descriptor.model_example.is_empty(), "{id}");
        }
    }
}
