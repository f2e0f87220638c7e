//! LLM providers. They know messages and tools, not the agent's loop.
//!
//! Each wire format (OpenAI Chat Completions, Anthropic Messages, Gemini `generateContent`) is a
//! pair of pure functions: build the HTTP request from a [`ChatRequest`], parse the HTTP response
//! into a [`ModelReply`]. [`HttpProvider`] joins a wire format with an [`http::HttpClient`]
//! (gloo-net in the page, a scripted fake in tests).

pub mod http;
pub mod retry;
pub mod wire;

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which wire format to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// OpenAI Chat Completions and every server that copies it (OpenRouter, Ollama, LM Studio…).
    OpenAi,
    Anthropic,
    Gemini,
}

/// A tool the model may call. `parameters` is a JSON Schema object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

/// A tool call as the model made it. Untrusted: `arguments` is the raw JSON text (OpenAI sends a
/// string; for Anthropic and Gemini it is the object re-serialized), parsed by the agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
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
        tool_calls: Vec<ToolCall>,
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

/// Tokens one call used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// What the model said in one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelReply {
    pub text: Option<String>,
    pub tool_calls: Vec<ToolCall>,
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
}

impl LlmError {
    /// Whether trying again later may help.
    pub fn is_retryable(&self) -> bool {
        matches!(self, LlmError::RateLimited { .. } | LlmError::Server { .. })
    }
}

impl fmt::Display for LlmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        todo!("messages a person can act on; Network names OLLAMA_ORIGINS for loopback :11434")
    }
}

impl std::error::Error for LlmError {}

/// Something that answers a [`ChatRequest`]: an HTTP provider, or a script in tests.
#[allow(async_fn_in_trait)]
pub trait LlmProvider {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError>;
}
