//! OpenAI Chat Completions (`POST {base}/chat/completions`), also spoken by OpenRouter, Ollama,
//! LM Studio, vLLM and others. Tool call arguments travel as a JSON *string*.

use super::{
    error_for_status, error_json, error_message, retry_after_header_ms, success_json, temperature,
    Caching, EndpointConfig, ProviderDescriptor,
};
use crate::llm::http::{HttpRequest, HttpResponse};
use crate::llm::sse::SseEvent;
use crate::llm::stream::{self, Delta, StreamAssembler};
use crate::llm::{ChatRequest, LlmError, Message, ModelReply, RawToolCall, Usage};
use serde::Deserialize;
use serde_json::{json, Value};

/// OpenAI, and every server that copies its format (OpenRouter, Ollama, LM Studio…).
pub const PROVIDER: ProviderDescriptor = ProviderDescriptor {
    id: "openai",
    label: "OpenAI or compatible",
    default_base_url: "https://api.openai.com/v1",
    model_example: "gpt-4.1-mini",
    key_variable: "OPENAI_API_KEY",
    caching: Caching::ByItself,
};

pub fn build_request(config: &EndpointConfig, request: &ChatRequest) -> HttpRequest {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    for message in &request.messages {
        match message {
            Message::User { text } => messages.push(json!({"role": "user", "content": text})),
            Message::Assistant {
                text, tool_calls, ..
            } => {
                let mut turn = json!({"role": "assistant", "content": text});
                // An empty `tool_calls` array is refused by some servers: leave it out.
                if !tool_calls.is_empty() {
                    let calls: Vec<Value> = tool_calls.iter().map(tool_call_json).collect();
                    turn["tool_calls"] = Value::Array(calls);
                }
                messages.push(turn);
            }
            // One "tool" message per result. The format has no error flag: the content says so.
            Message::ToolResults { results } => {
                for result in results {
                    messages.push(json!({
                        "role": "tool",
                        "tool_call_id": result.call_id,
                        "content": result.content,
                    }));
                }
            }
        }
    }

    let mut body = json!({
        "model": request.model,
        "messages": messages,
        // `max_tokens`, not the newer `max_completion_tokens`: local servers know only this one.
        "max_tokens": request.max_tokens,
    });
    if let Some(temperature) = temperature(request.temperature) {
        body["temperature"] = json!(temperature);
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.parameters,
                    },
                })
            })
            .collect();
        body["tools"] = Value::Array(tools);
    }

    // Only these two headers: anything more could fail a local server's CORS preflight.
    let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
    if !config.api_key().is_empty() {
        headers.push((
            "Authorization".to_string(),
            format!("Bearer {}", config.api_key()),
        ));
    }
    HttpRequest {
        url: format!("{}/chat/completions", config.base_url()),
        headers,
        body: body.to_string(),
    }
}

fn tool_call_json(call: &RawToolCall) -> Value {
    json!({
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    })
}

pub fn parse_response(response: &HttpResponse) -> Result<ModelReply, LlmError> {
    if !response.is_success() {
        return Err(parse_error(response));
    }
    let body: Value = success_json(response)?;
    // Some compatible servers (OpenRouter) answer an error with status 200 and put the real
    // status in `error.code`.
    if body.get("error").is_some() && body.get("choices").is_none() {
        let message = error_message(response, Some(&body));
        let code = body.pointer("/error/code").and_then(Value::as_u64);
        return Err(match code {
            Some(code @ 400..=599) => error_for_status(code as u16, message, None),
            _ => LlmError::BadRequest {
                status: response.status,
                message,
            },
        });
    }
    let completion: Completion =
        serde_json::from_value(body).map_err(|error| LlmError::Malformed {
            message: format!(
                "a chat completion was expected ({error}); is this an OpenAI-compatible URL?"
            ),
        })?;
    let choice = completion
        .choices
        .into_iter()
        .next()
        .ok_or_else(|| LlmError::Malformed {
            message: "the completion has no choices".to_string(),
        })?;

    let message = choice.message;
    let text = content_text(message.content).or(message.refusal);
    let tool_calls: Vec<RawToolCall> = message
        .tool_calls
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(index, call)| RawToolCall {
            // A few local servers leave the id out; the agent needs one to pair results.
            id: call.id.unwrap_or_else(|| format!("call-{}", index + 1)),
            name: call.function.name,
            arguments: arguments_text(call.function.arguments),
        })
        .collect();

    if text.is_none() && tool_calls.is_empty() {
        if let Some(error) = empty_reply_error(choice.finish_reason.as_deref()) {
            return Err(error);
        }
    }
    let usage = completion.usage.unwrap_or_default();
    Ok(ModelReply {
        text,
        tool_calls,
        usage: Usage {
            // `prompt_tokens` counts the cached ones too.
            input_tokens: usage.prompt_tokens.unwrap_or(0),
            output_tokens: usage.completion_tokens.unwrap_or(0),
            cached_input_tokens: usage
                .prompt_tokens_details
                .and_then(|details| details.cached_tokens)
                .unwrap_or(0),
            cache_write_tokens: 0,
        },
        raw: None,
    })
}

/// `content` is a string, null, or (on some servers) an array of `{type: "text", text}` parts.
fn content_text(content: Option<Value>) -> Option<String> {
    let text = match content? {
        Value::String(text) => text,
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

/// The documented form is a JSON string; some servers send the object itself.
fn arguments_text(arguments: Option<Value>) -> String {
    match arguments {
        Some(Value::String(text)) => text,
        None | Some(Value::Null) => "{}".to_string(),
        Some(other) => other.to_string(),
    }
}

/// Why a reply with neither text nor tool calls is an error, when it is one. An empty reply
/// after a normal stop is not: the agent decides what to make of it.
fn empty_reply_error(finish_reason: Option<&str>) -> Option<LlmError> {
    let message = match finish_reason? {
        "length" => {
            "it was cut off at the token limit before any text or tool call; raise the maximum \
             tokens"
        }
        "content_filter" => "the provider's content filter withheld it",
        _ => return None,
    };
    Some(LlmError::Malformed {
        message: message.to_string(),
    })
}

/// `{"error": {"message", "type", "code"}}`. A 429 whose code is `insufficient_quota` is an
/// empty account, not a busy one: waiting will not help, so it is not reported as rate limiting.
fn parse_error(response: &HttpResponse) -> LlmError {
    let body = error_json(response);
    let message = error_message(response, body.as_ref());
    let code = body
        .as_ref()
        .and_then(|body| body.pointer("/error/code"))
        .and_then(Value::as_str);
    if response.status == 429 && code == Some("insufficient_quota") {
        return LlmError::BadRequest {
            status: 429,
            message,
        };
    }
    error_for_status(response.status, message, retry_after_header_ms(response))
}

#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<CompletionUsage>,
}

#[derive(Deserialize)]
struct Choice {
    message: ResponseMessage,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ResponseMessage {
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    refusal: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<ResponseToolCall>>,
}

#[derive(Deserialize)]
struct ResponseToolCall {
    #[serde(default)]
    id: Option<String>,
    function: ResponseFunction,
}

#[derive(Deserialize)]
struct ResponseFunction {
    name: String,
    #[serde(default)]
    arguments: Option<Value>,
}

#[derive(Deserialize, Default)]
struct CompletionUsage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
    /// Present when the provider caches prompts (OpenAI does so by itself for long prefixes).
    #[serde(default)]
    prompt_tokens_details: Option<PromptTokensDetails>,
}

#[derive(Deserialize)]
struct PromptTokensDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

/// The same request, streamed: `stream`, and `stream_options.include_usage` so that the last
/// chunk reports the tokens (servers that do not know the option leave it out of the reply; the
/// usage is then unknown, as with any reply that has none).
pub fn stream_request(request: HttpRequest) -> HttpRequest {
    super::with_body_fields(
        request,
        &[
            ("stream", json!(true)),
            ("stream_options", json!({"include_usage": true})),
        ],
    )
}

/// A streamed chat completion: `data:` chunks of `choices[0].delta` (text, and tool calls whose
/// arguments come in pieces under the call's `index`), `finish_reason` in the last one, the
/// usage in a chunk of its own, then `data: [DONE]`.
#[derive(Debug, Default)]
pub struct Assembler {
    text: String,
    refusal: String,
    calls: Vec<StreamedCall>,
    finish_reason: Option<String>,
    usage: Option<Value>,
    done: bool,
}

#[derive(Debug, Default)]
struct StreamedCall {
    id: Option<String>,
    name: String,
    arguments: String,
}

impl StreamAssembler for Assembler {
    fn event(&mut self, event: &SseEvent) -> Result<Vec<Delta>, LlmError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(Vec::new());
        }
        let chunk: Value = serde_json::from_str(data).map_err(|e| stream::not_json(&e, data))?;
        if let Some(error) = chunk.get("error") {
            return Err(stream_error(error, &chunk));
        }
        if let Some(usage) = chunk.get("usage").filter(|u| !u.is_null()) {
            self.usage = Some(usage.clone());
        }
        let Some(choice) = chunk.pointer("/choices/0") else {
            return Ok(Vec::new());
        };
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.to_string());
        }
        match choice.get("delta") {
            Some(delta) => Ok(self.delta(delta)),
            None => Ok(Vec::new()),
        }
    }

    fn whole_body(self: Box<Self>) -> Result<Value, LlmError> {
        if !self.done && self.finish_reason.is_none() {
            return Err(stream::cut_short());
        }
        let calls: Vec<Value> = self
            .calls
            .iter()
            .map(|call| {
                json!({
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                })
            })
            .collect();
        let mut message = json!({
            "role": "assistant",
            "content": (!self.text.is_empty()).then_some(&self.text),
        });
        if !self.refusal.is_empty() {
            message["refusal"] = json!(self.refusal);
        }
        if !calls.is_empty() {
            message["tool_calls"] = Value::Array(calls);
        }
        Ok(json!({
            "choices": [{"index": 0, "message": message, "finish_reason": self.finish_reason}],
            "usage": self.usage,
        }))
    }
}

impl Assembler {
    /// One chunk's `delta`: text, a refusal, or pieces of tool calls.
    fn delta(&mut self, delta: &Value) -> Vec<Delta> {
        let mut deltas = Vec::new();
        if let Some(text) = content_text(delta.get("content").cloned()) {
            self.text.push_str(&text);
            deltas.push(Delta::Text(text));
        }
        if let Some(refusal) = delta.get("refusal").and_then(Value::as_str) {
            self.refusal.push_str(refusal);
            deltas.push(Delta::Text(refusal.to_string()));
        }
        let pieces = delta.get("tool_calls").and_then(Value::as_array);
        for piece in pieces.into_iter().flatten() {
            deltas.extend(self.call_piece(piece));
        }
        deltas
    }

    /// A piece of a tool call. Its `index` says which call; a server that gives none (some
    /// local ones send each call whole) starts a new call with each piece that has an id or a
    /// name, and adds the rest to the last.
    fn call_piece(&mut self, piece: &Value) -> Vec<Delta> {
        let id = piece.get("id").and_then(Value::as_str);
        let name = piece.pointer("/function/name").and_then(Value::as_str);
        let index = match piece.get("index").and_then(Value::as_u64) {
            Some(index) => usize::try_from(index).unwrap_or(usize::MAX),
            None if id.is_some() || name.is_some() || self.calls.is_empty() => self.calls.len(),
            None => self.calls.len() - 1,
        };
        // A made-up index far ahead is no reason to allocate: calls are numbered in order.
        if index > self.calls.len() {
            return Vec::new();
        }
        if index == self.calls.len() {
            self.calls.push(StreamedCall::default());
        }
        let call = &mut self.calls[index];
        if let Some(id) = id {
            call.id = Some(id.to_string());
        }
        let mut deltas = Vec::new();
        let unnamed = call.name.is_empty();
        call.name.push_str(name.unwrap_or_default());
        if unnamed && !call.name.is_empty() {
            let name = call.name.clone();
            deltas.push(Delta::ToolCall { index, name });
        }
        let piece = match piece.pointer("/function/arguments") {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        if !piece.is_empty() {
            call.arguments.push_str(&piece);
            deltas.push(Delta::ToolArguments { index, piece });
        }
        deltas
    }
}

/// An error sent in the stream (OpenRouter, and servers that fail after the status was sent):
/// read as the same body would be read unstreamed.
fn stream_error(error: &Value, chunk: &Value) -> LlmError {
    let response = HttpResponse {
        status: 200,
        headers: Vec::new(),
        body: chunk.to_string(),
    };
    let message = error_message(&response, Some(chunk));
    match error.get("code").and_then(Value::as_u64) {
        Some(code @ 400..=599) => error_for_status(code as u16, message, None),
        _ => LlmError::BadRequest {
            status: 200,
            message,
        },
    }
}
