//! LLM providers. They know messages and tools, not the agent's loop.
//!
//! Each provider (OpenAI Chat Completions, Anthropic Messages, Gemini `generateContent`) is one
//! wire file declaring a [`ProviderDescriptor`]: its names and addresses, and a pair of pure
//! functions, build the HTTP request from a [`ChatRequest`] and parse the HTTP response into a
//! [`ModelReply`]; [`ProviderKind`] names one of them. [`HttpProvider`] joins a wire format with
//! an [`http::HttpClient`] (gloo-net in the page, a scripted fake in tests);
//! [`ledger::RecordedHttp`] can sit between them to keep a record of every exchange for the
//! person to see.

pub mod demo_endpoint;
pub mod http;
pub mod ledger;
mod provider;
pub mod retry;
pub mod sse;
pub mod stream;
pub mod text_calls;
pub mod wire;

pub use provider::HttpProvider;
pub use wire::{Caching, EndpointConfig, ProviderDescriptor, ProviderKind};

pub use demo_endpoint::ProxyRefusal;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A tool the model may call. `parameters` is a JSON Schema object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

/// A tool call as the model made it, raw: a name and `arguments` as JSON text (OpenAI sends a
/// string; for Anthropic and Gemini it is the object re-serialized). Untrusted; the agent reads
/// it once into its typed `agent::tools::ToolCall`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RawToolCall {
    /// The provider's id for the call (Gemini has none: the wire format makes one up).
    pub id: String,
    pub name: String,
    pub arguments: String,
}

/// The answer to one tool call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub call_id: String,
    /// The tool's name (Gemini matches results by name).
    pub name: String,
    pub content: String,
    pub is_error: bool,
}

/// One message of a conversation, in no provider's format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Message {
    User {
        text: String,
    },
    Assistant {
        text: Option<String>,
        tool_calls: Vec<RawToolCall>,
        /// The provider's own form of this turn, to be sent back unchanged where the provider
        /// asks for that (Gemini's `thoughtSignature`). `None` for the others.
        raw: Option<serde_json::Value>,
    },
    /// The results of every tool call of the previous assistant message, in order.
    ToolResults {
        results: Vec<ToolResult>,
    },
}

/// Everything a provider needs for one call.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatRequest {
    pub model: String,
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    pub temperature: f32,
    pub max_tokens: u32,
}

/// Tokens one call used, as the provider reported them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Every prompt token, whether it came from the provider's cache or not.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Of `input_tokens`, those read from the provider's prompt cache (billed at a discount).
    #[serde(default)]
    pub cached_input_tokens: u64,
    /// Of `input_tokens`, those written to the cache for the next call (Anthropic bills them
    /// at a premium; the others report none).
    #[serde(default)]
    pub cache_write_tokens: u64,
}

impl Usage {
    /// Tokens in and out, none of them cached.
    pub const fn new(input_tokens: u64, output_tokens: u64) -> Usage {
        Usage {
            input_tokens,
            output_tokens,
            cached_input_tokens: 0,
            cache_write_tokens: 0,
        }
    }

    /// Prompt tokens billed at the full price: neither read from nor written to the cache.
    pub fn uncached_input_tokens(&self) -> u64 {
        self.input_tokens
            .saturating_sub(self.cached_input_tokens)
            .saturating_sub(self.cache_write_tokens)
    }
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cached_input_tokens += other.cached_input_tokens;
        self.cache_write_tokens += other.cache_write_tokens;
    }
}

/// What the model said in one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelReply {
    pub text: Option<String>,
    pub tool_calls: Vec<RawToolCall>,
    pub usage: Usage,
    /// See [`Message::Assistant::raw`].
    pub raw: Option<serde_json::Value>,
}

impl ModelReply {
    /// This reply as a message of the conversation.
    pub fn to_message(&self) -> Message {
        Message::Assistant {
            text: self.text.clone(),
            tool_calls: self.tool_calls.clone(),
            raw: self.raw.clone(),
        }
    }
}

/// Why a call failed. `Display` says what a person can do about it.
#[derive(Clone, Debug, PartialEq)]
pub enum LlmError {
    /// 401/403: the key is missing, wrong, or not allowed this model.
    Unauthorized { status: u16, message: String },
    /// 404: the model or the URL does not exist.
    NotFound { message: String },
    /// 429: too many requests; `retry_after_ms` from the `Retry-After` header when given.
    RateLimited {
        retry_after_ms: Option<u32>,
        message: String,
    },
    /// 5xx or an "overloaded" answer.
    Server { status: u16, message: String },
    /// Any other 4xx: the request was refused (the message is the provider's).
    BadRequest { status: u16, message: String },
    /// The request did not reach the server or no answer came back (offline, refused, CORS).
    Network { message: String, base_url: String },
    /// The server answered with something that is not the documented format.
    Malformed { message: String },
    /// A demo's endpoint (askdb-proxy) answered for itself: a refusal, or a limit that ran out.
    Proxy(ProxyRefusal),
    /// Any other failure while the questions go through a demo's endpoint: said as the
    /// endpoint's, since the reader has no key or provider of their own to check there.
    ThroughDemoEndpoint(Box<LlmError>),
}

impl LlmError {
    /// Whether trying again later may help. The retry policy (`retry`) also reads how long.
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::RateLimited { .. } | LlmError::Server { .. } => true,
            // A limit that comes back in hours is not waited for; a burst's short wait is.
            LlmError::Proxy(refusal) => {
                matches!(
                    refusal.reason.as_str(),
                    demo_endpoint::BURST | demo_endpoint::UPSTREAM_UNREACHABLE
                )
            }
            LlmError::ThroughDemoEndpoint(error) => error.is_retryable(),
            _ => false,
        }
    }

    /// This failure, for questions sent through a demo's endpoint: said as the endpoint's.
    pub fn through_demo_endpoint(self) -> LlmError {
        match self {
            // Already the endpoint's own words.
            LlmError::Proxy(_) | LlmError::ThroughDemoEndpoint(_) => self,
            other => LlmError::ThroughDemoEndpoint(Box::new(other)),
        }
    }
}

impl fmt::Display for LlmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LlmError::Unauthorized { status, message } => {
                write!(
                    f,
                    "the API key was refused (HTTP {status}): check the key in Settings, and that \
                     it may use this model"
                )?;
                server_said(f, message)
            }
            LlmError::NotFound { message } => {
                f.write_str(
                    "model or URL not found (HTTP 404): check the model name and base URL",
                )?;
                server_said(f, message)
            }
            LlmError::RateLimited {
                retry_after_ms,
                message,
            } => {
                f.write_str("the provider is rate limiting requests (HTTP 429)")?;
                if let Some(ms) = retry_after_ms {
                    write!(f, " and asks to wait {} s", ms.div_ceil(1000))?;
                }
                f.write_str(
                    ": askdb retries a few times by itself; if this goes on, wait a minute or \
                     check your plan's limits",
                )?;
                server_said(f, message)
            }
            LlmError::Server { status, message } => {
                write!(
                    f,
                    "the provider is overloaded or failing (HTTP {status}): askdb retries a few \
                     times by itself; if this goes on, try again later"
                )?;
                server_said(f, message)
            }
            LlmError::BadRequest { status, message } => {
                write!(f, "the provider refused the request (HTTP {status})")?;
                server_said(f, message)
            }
            LlmError::Network { message, base_url } => {
                write!(
                    f,
                    "could not reach {base_url} ({message}): you may be offline, the URL may be \
                     wrong, the server may not be running, or it refused this page (CORS)"
                )?;
                match local_server_port(base_url) {
                    Some(OLLAMA_PORT) => f.write_str(
                        ". Ollama answers web pages only when started with OLLAMA_ORIGINS set, \
                         e.g. `OLLAMA_ORIGINS=* ollama serve` (or this page's origin instead of *)",
                    ),
                    Some(_) => f.write_str(
                        ". For LM Studio, enable CORS in its server settings; for Ollama, set \
                         OLLAMA_ORIGINS",
                    ),
                    None => Ok(()),
                }
            }
            LlmError::Malformed { message } => {
                write!(
                    f,
                    "the server's answer was not in the expected format: {message}"
                )
            }
            LlmError::Proxy(refusal) => fmt::Display::fmt(refusal, f),
            LlmError::ThroughDemoEndpoint(error) => through_demo_endpoint(f, error),
        }
    }
}

/// `error`, met while the questions went through a demo's endpoint, as the endpoint's: never
/// a key's (the reader gave none) nor a provider's.
fn through_demo_endpoint(f: &mut fmt::Formatter<'_>, error: &LlmError) -> fmt::Result {
    match error {
        LlmError::Network { message, .. } => write!(
            f,
            "the demo's endpoint could not be reached ({message}): you may be offline, or the \
             endpoint is down or does not serve this page"
        ),
        LlmError::Unauthorized { status, message } | LlmError::BadRequest { status, message } => {
            write!(
                f,
                "the demo's endpoint refused this question (HTTP {status})"
            )?;
            server_said(f, message)
        }
        LlmError::NotFound { message } => {
            f.write_str("the demo's endpoint does not know this address or model (HTTP 404)")?;
            server_said(f, message)
        }
        LlmError::RateLimited { message, .. } => {
            f.write_str(
                "the demo's endpoint is busy (HTTP 429): askdb retries a few times by itself; \
                 if this goes on, try again in a minute",
            )?;
            server_said(f, message)
        }
        LlmError::Server { status, message } => {
            write!(
                f,
                "the demo's endpoint is failing (HTTP {status}): askdb retries a few times by \
                 itself; if this goes on, try again later"
            )?;
            server_said(f, message)
        }
        LlmError::Malformed { message } => write!(
            f,
            "the demo's endpoint's answer was not in the expected format: {message}"
        ),
        LlmError::Proxy(_) | LlmError::ThroughDemoEndpoint(_) => fmt::Display::fmt(error, f),
    }
}

/// Appends the provider's own words, when it gave any.
fn server_said(f: &mut fmt::Formatter<'_>, message: &str) -> fmt::Result {
    let message = message.trim();
    if message.is_empty() {
        Ok(())
    } else {
        write!(f, ". The server said: {message}")
    }
}

/// Ollama's port, whose failures to answer a web page have their own hint.
pub const OLLAMA_PORT: u16 = 11434;

/// The port of a base URL on this machine (`localhost`, `127.x.x.x`, `[::1]`), where a local
/// model server runs; `None` for any other host.
pub fn local_server_port(base_url: &str) -> Option<u16> {
    let (scheme, rest) = base_url.trim().split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit('@').next()?; // drop user:password@
    let (host, port) = match authority.strip_prefix('[') {
        Some(bracketed) => {
            let (host, after) = bracketed.split_once(']')?;
            (host, after.strip_prefix(':'))
        }
        None => match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    let host = host.to_ascii_lowercase();
    let loopback = host == "localhost" || host == "::1" || host.starts_with("127.");
    if !loopback {
        return None;
    }
    match port {
        Some(port) => port.parse().ok(),
        None if scheme.eq_ignore_ascii_case("https") => Some(443),
        None => Some(80),
    }
}

impl std::error::Error for LlmError {}

/// Something that answers a [`ChatRequest`]: an HTTP provider, or a script in tests.
#[allow(async_fn_in_trait)]
pub trait LlmProvider {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError>;

    /// The same, with what the reply adds handed to `on_delta` as it is written, when the
    /// provider streams; one that does not (a replay, a script) gives the whole reply only,
    /// which is this default.
    async fn complete_streaming(
        &self,
        request: &ChatRequest,
        on_delta: &mut dyn FnMut(stream::Delta),
    ) -> Result<ModelReply, LlmError> {
        let _ = on_delta;
        self.complete(request).await
    }
}
