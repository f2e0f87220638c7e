//! Anthropic Messages (`POST {base}/v1/messages`). Roles must alternate, so consecutive turns of
//! one role are merged; all tool results of a turn go back in one user message.
//!
//! Prompt caching: Anthropic caches only up to blocks marked `cache_control`, in the order tools,
//! system, messages. Three marks (of the four allowed) make every step of a question read the
//! previous step's prompt from the cache: the last tool, the system prompt, and the last block of
//! the conversation (moved forward at each step, as the multi-turn example of the
//! prompt-caching guide does). Prefixes under the model's minimum (about 1,024 tokens) are
//! simply not cached, at no cost.

use super::{
    arguments_object, error_for_status, error_json, error_message, retry_after_header_ms,
    success_json, temperature, Caching, EndpointConfig, ProviderDescriptor,
};
use crate::llm::http::{HttpRequest, HttpResponse};
use crate::llm::sse::SseEvent;
use crate::llm::stream::{self, Delta, StreamAssembler};
use crate::llm::{ChatRequest, LlmError, Message, ModelReply, RawToolCall, Usage};
use serde::Deserialize;
use serde_json::{json, Value};

pub const PROVIDER: ProviderDescriptor = ProviderDescriptor {
    id: "anthropic",
    label: "Anthropic",
    default_base_url: "https://api.anthropic.com",
    model_example: "claude-sonnet-4-5",
    key_variable: "ANTHROPIC_API_KEY",
    caching: Caching::Marked,
};

const API_VERSION: &str = "2023-06-01";

pub fn build_request(config: &EndpointConfig, request: &ChatRequest) -> HttpRequest {
    let mut messages = Vec::new();
    for message in &request.messages {
        match message {
            Message::User { text } => push_blocks(&mut messages, "user", text_block(Some(text))),
            Message::Assistant {
                text, tool_calls, ..
            } => {
                let mut blocks = text_block(text.as_deref());
                blocks.extend(tool_calls.iter().map(|call| {
                    json!({
                        "type": "tool_use",
                        "id": call.id,
                        "name": call.name,
                        "input": arguments_object(&call.arguments),
                    })
                }));
                push_blocks(&mut messages, "assistant", blocks);
            }
            Message::ToolResults { results } => {
                let blocks = results
                    .iter()
                    .map(|result| {
                        json!({
                            "type": "tool_result",
                            "tool_use_id": result.call_id,
                            "content": result.content,
                            "is_error": result.is_error,
                        })
                    })
                    .collect();
                push_blocks(&mut messages, "user", blocks);
            }
        }
    }

    mark_last_block_for_cache(&mut messages);

    let mut body = json!({
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": messages,
    });
    if !request.system.is_empty() {
        body["system"] = json!([{
            "type": "text",
            "text": request.system,
            "cache_control": cache_mark(),
        }]);
    }
    if let Some(temperature) = temperature(request.temperature) {
        body["temperature"] = json!(temperature);
    }
    if !request.tools.is_empty() {
        let mut tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.parameters,
                })
            })
            .collect();
        if let Some(last) = tools.last_mut() {
            last["cache_control"] = cache_mark();
        }
        body["tools"] = Value::Array(tools);
    }

    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    if !config.api_key().is_empty() {
        headers.push(("x-api-key".to_string(), config.api_key().to_string()));
    }
    headers.push(("anthropic-version".to_string(), API_VERSION.to_string()));
    // Anthropic refuses calls from a web page unless told the page holds the user's own key.
    headers.push((
        "anthropic-dangerous-direct-browser-access".to_string(),
        "true".to_string(),
    ));

    HttpRequest {
        url: messages_url(&config.base_url()),
        headers,
        body: body.to_string(),
    }
}

/// `{base}/v1/messages`, also when the base URL given already ends in `/v1`.
fn messages_url(base: &str) -> String {
    if base.ends_with("/v1") {
        format!("{base}/messages")
    } else {
        format!("{base}/v1/messages")
    }
}

/// A cache breakpoint: "cache the prompt up to here" (for five minutes, the default).
fn cache_mark() -> Value {
    json!({"type": "ephemeral"})
}

/// Marks the conversation's last block, so that the next step reads all of it from the cache.
fn mark_last_block_for_cache(messages: &mut [Value]) {
    let last_block = messages
        .last_mut()
        .and_then(|message| message["content"].as_array_mut())
        .and_then(|content| content.last_mut());
    if let Some(block) = last_block {
        block["cache_control"] = cache_mark();
    }
}

/// A text block, or none: the API refuses empty text blocks.
fn text_block(text: Option<&str>) -> Vec<Value> {
    match text {
        Some(text) if !text.trim().is_empty() => vec![json!({"type": "text", "text": text})],
        _ => Vec::new(),
    }
}

/// Appends content blocks as a turn of `role`, merged into the previous turn when it has the
/// same role (the API requires user and assistant to alternate).
fn push_blocks(messages: &mut Vec<Value>, role: &str, blocks: Vec<Value>) {
    if blocks.is_empty() {
        return;
    }
    if let Some(last) = messages.last_mut() {
        if last["role"] == role {
            if let Some(content) = last["content"].as_array_mut() {
                content.extend(blocks);
                return;
            }
        }
    }
    messages.push(json!({"role": role, "content": blocks}));
}

pub fn parse_response(response: &HttpResponse) -> Result<ModelReply, LlmError> {
    if !response.is_success() {
        return Err(parse_error(response));
    }
    let reply: MessageReply = success_json(response)?;

    let mut texts = Vec::new();
    let mut tool_calls = Vec::new();
    for block in reply.content {
        match block {
            Block::Text { text } => texts.push(text),
            Block::ToolUse { id, name, input } => tool_calls.push(RawToolCall {
                id,
                name,
                arguments: input.to_string(),
            }),
            Block::Other => {}
        }
    }
    let text = Some(texts.join("\n")).filter(|text| !text.is_empty());

    if text.is_none() && tool_calls.is_empty() {
        if let Some(error) = empty_reply_error(reply.stop_reason.as_deref()) {
            return Err(error);
        }
    }
    let usage = reply.usage.unwrap_or_default();
    let cache_read = usage.cache_read_input_tokens.unwrap_or(0);
    let cache_written = usage.cache_creation_input_tokens.unwrap_or(0);
    Ok(ModelReply {
        text,
        tool_calls,
        usage: Usage {
            // Anthropic counts the tokens read from and written to the cache apart from
            // `input_tokens`; askdb's `input_tokens` is every prompt token.
            input_tokens: usage.input_tokens + cache_written + cache_read,
            output_tokens: usage.output_tokens,
            cached_input_tokens: cache_read,
            cache_write_tokens: cache_written,
        },
        raw: None,
    })
}

fn empty_reply_error(stop_reason: Option<&str>) -> Option<LlmError> {
    let message = match stop_reason? {
        "max_tokens" => {
            "it was cut off at the token limit before any text or tool call; raise the maximum \
             tokens"
        }
        "refusal" => "the model declined to answer (stop_reason refusal)",
        _ => return None,
    };
    Some(LlmError::Malformed {
        message: message.to_string(),
    })
}

/// `{"type": "error", "error": {"type", "message"}}`. `overloaded_error` (HTTP 529) is a busy
/// server whatever the status says.
fn parse_error(response: &HttpResponse) -> LlmError {
    let body = error_json(response);
    let message = error_message(response, body.as_ref());
    let error_type = body
        .as_ref()
        .and_then(|body| body.pointer("/error/type"))
        .and_then(Value::as_str);
    if error_type == Some("overloaded_error") {
        return LlmError::Server {
            status: response.status,
            message,
        };
    }
    error_for_status(response.status, message, retry_after_header_ms(response))
}

#[derive(Deserialize)]
struct MessageReply {
    content: Vec<Block>,
    #[serde(default)]
    stop_reason: Option<String>,
    #[serde(default)]
    usage: Option<MessageUsage>,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block {
    Text {
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    /// Thinking and server-tool blocks: not used by askdb.
    #[serde(other)]
    Other,
}

#[derive(Deserialize, Default)]
struct MessageUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
    #[serde(default)]
    cache_creation_input_tokens: Option<u64>,
    #[serde(default)]
    cache_read_input_tokens: Option<u64>,
}

/// The same request, streamed (`"stream": true`).
pub fn stream_request(request: HttpRequest) -> HttpRequest {
    super::with_body_fields(request, &[("stream", json!(true))])
}

/// A streamed message: `message_start` (the usage so far), for each content block a
/// `content_block_start`, its `content_block_delta`s (`text_delta`, or `input_json_delta`: a
/// tool call's input in pieces) and `content_block_stop`; `message_delta` (the stop reason, the
/// usage now), `message_stop`. `ping`s come at any time, and an `error` event may end it.
#[derive(Debug, Default)]
pub struct Assembler {
    /// The blocks by their `index`, as `content_block_start` gave them.
    blocks: Vec<Value>,
    /// A tool call's input as written so far, by block index.
    inputs: Vec<String>,
    stop_reason: Option<Value>,
    usage: serde_json::Map<String, Value>,
    stopped: bool,
}

impl StreamAssembler for Assembler {
    fn event(&mut self, event: &SseEvent) -> Result<Vec<Delta>, LlmError> {
        let data: Value =
            serde_json::from_str(&event.data).map_err(|e| stream::not_json(&e, &event.data))?;
        let index = data.get("index").and_then(Value::as_u64);
        let index = index.and_then(|i| usize::try_from(i).ok());
        match data.get("type").and_then(Value::as_str).unwrap_or_default() {
            "message_start" => self.add_usage(data.pointer("/message/usage")),
            "content_block_start" => return Ok(self.block_start(index, &data)),
            "content_block_delta" => return Ok(self.block_delta(index, &data)),
            "message_delta" => {
                if let Some(reason) = data.pointer("/delta/stop_reason") {
                    self.stop_reason = Some(reason.clone());
                }
                self.add_usage(data.get("usage"));
            }
            "message_stop" => self.stopped = true,
            "error" => return Err(stream_error(&data)),
            // ping, content_block_stop, and events added after this was written.
            _ => {}
        }
        Ok(Vec::new())
    }

    fn whole_body(self: Box<Self>) -> Result<Value, LlmError> {
        if !self.stopped {
            return Err(stream::cut_short());
        }
        let mut content = self.blocks;
        for (block, input) in content.iter_mut().zip(&self.inputs) {
            if block.get("type").and_then(Value::as_str) == Some("tool_use") && !input.is_empty() {
                // Broken JSON from the model is kept as text: the call then fails, and its
                // error result tells the model why (as a whole reply's odd input would).
                block["input"] =
                    serde_json::from_str(input).unwrap_or_else(|_| Value::String(input.clone()));
            }
        }
        Ok(json!({
            "type": "message",
            "role": "assistant",
            "content": content,
            "stop_reason": self.stop_reason,
            "usage": self.usage,
        }))
    }
}

impl Assembler {
    /// The usage counts in `usage` (each one the total so far) over those known.
    fn add_usage(&mut self, usage: Option<&Value>) {
        if let Some(Value::Object(counts)) = usage {
            for (name, count) in counts {
                if !count.is_null() {
                    self.usage.insert(name.clone(), count.clone());
                }
            }
        }
    }

    /// A block begins: text (which may already hold some), a tool call (named now), or a
    /// kind askdb does not use. Blocks come in order; one out of order is not kept.
    fn block_start(&mut self, index: Option<usize>, data: &Value) -> Vec<Delta> {
        let Some(block) = data.get("content_block") else {
            return Vec::new();
        };
        if index != Some(self.blocks.len()) {
            return Vec::new();
        }
        self.blocks.push(block.clone());
        self.inputs.push(String::new());
        let tool_calls_before = self.tool_calls_before(self.blocks.len() - 1);
        match block.get("type").and_then(Value::as_str) {
            Some("text") => block
                .get("text")
                .and_then(Value::as_str)
                .filter(|text| !text.is_empty())
                .map(|text| vec![Delta::Text(text.to_string())])
                .unwrap_or_default(),
            Some("tool_use") => vec![Delta::ToolCall {
                index: tool_calls_before,
                name: block
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            }],
            _ => Vec::new(),
        }
    }

    /// How many of the blocks before block `index` are tool calls: the number of its call, if
    /// it is one.
    fn tool_calls_before(&self, index: usize) -> usize {
        self.blocks[..index]
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
            .count()
    }

    /// More of block `index`: its text, or its tool call's input.
    fn block_delta(&mut self, index: Option<usize>, data: &Value) -> Vec<Delta> {
        let (Some(index), Some(delta)) = (index, data.get("delta")) else {
            return Vec::new();
        };
        let Some(block) = self.blocks.get_mut(index) else {
            return Vec::new();
        };
        match delta.get("type").and_then(Value::as_str) {
            Some("text_delta") => {
                let text = delta
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let so_far = block
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                block["text"] = Value::String(format!("{so_far}{text}"));
                if text.is_empty() {
                    return Vec::new();
                }
                vec![Delta::Text(text.to_string())]
            }
            Some("input_json_delta") => {
                let piece = delta.get("partial_json").and_then(Value::as_str);
                let piece = piece.unwrap_or_default();
                self.inputs[index].push_str(piece);
                if piece.is_empty() {
                    return Vec::new();
                }
                vec![Delta::ToolArguments {
                    index: self.tool_calls_before(index),
                    piece: piece.to_string(),
                }]
            }
            // Thinking and signatures: not shown, not used.
            _ => Vec::new(),
        }
    }
}

/// An `error` event: the status its type stands for (the stream itself was a 200), read as a
/// whole error answer is.
fn stream_error(data: &Value) -> LlmError {
    let status = match data.pointer("/error/type").and_then(Value::as_str) {
        Some("invalid_request_error") => 400,
        Some("authentication_error") => 401,
        Some("permission_error") => 403,
        Some("not_found_error") => 404,
        Some("request_too_large") => 413,
        Some("rate_limit_error") => 429,
        Some("overloaded_error") => 529,
        _ => 500,
    };
    parse_error(&HttpResponse {
        status,
        headers: Vec::new(),
        body: data.to_string(),
    })
}
