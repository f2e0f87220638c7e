//! The three wire formats: request building and response parsing, per the official references.
//!
//! Each module has the same two pure functions, `build_request` and `parse_response`; this
//! module picks one by [`ProviderKind`] and holds what they share (the endpoint, error mapping).

pub mod anthropic;
pub mod gemini;
pub mod openai;

use super::http::{HttpRequest, HttpResponse};
use super::{ChatRequest, LlmError, ModelReply, ProviderKind};
use std::fmt;

impl ProviderKind {
    /// Where the provider's API lives when the user gives no base URL.
    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
            ProviderKind::Gemini => "https://generativelanguage.googleapis.com/v1beta",
        }
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

/// The HTTP request for `request` in the format of `config.kind`.
pub fn build_request(config: &EndpointConfig, request: &ChatRequest) -> HttpRequest {
    match config.kind {
        ProviderKind::OpenAi => openai::build_request(config, request),
        ProviderKind::Anthropic => anthropic::build_request(config, request),
        ProviderKind::Gemini => gemini::build_request(config, request),
    }
}

/// The reply in `response`, or the error it reports, in the format of `kind`.
pub fn parse_response(kind: ProviderKind, response: &HttpResponse) -> Result<ModelReply, LlmError> {
    match kind {
        ProviderKind::OpenAi => openai::parse_response(response),
        ProviderKind::Anthropic => anthropic::parse_response(response),
        ProviderKind::Gemini => gemini::parse_response(response),
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
