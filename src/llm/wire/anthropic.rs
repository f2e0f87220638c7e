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
