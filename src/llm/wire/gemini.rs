//! Gemini `generateContent` (`POST {base}/models/{model}:generateContent`).
//!
//! Two things differ from the others: the model's turn must go back exactly as it came (its
//! parts carry `thoughtSignature`s that Gemini 3 checks), so [`ModelReply::raw`] keeps the whole
//! `content` object; and function calls usually have no id, so the ids are made up here.

use super::{
    arguments_object, error_for_status, error_json, error_message, retry_after_header_ms,
    success_json, temperature, Caching, EndpointConfig, ProviderDescriptor,
};
use crate::llm::http::{HttpRequest, HttpResponse};
use crate::llm::sse::SseEvent;
use crate::llm::stream::{self, Delta, StreamAssembler};
use crate::llm::{ChatRequest, LlmError, Message, ModelReply, RawToolCall, ToolResult, Usage};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::HashSet;

pub const PROVIDER: ProviderDescriptor = ProviderDescriptor {
    id: "gemini",
    label: "Google Gemini",
    default_base_url: "https://generativelanguage.googleapis.com/v1beta",
    model_example: "gemini-2.5-flash",
    key_variable: "GEMINI_API_KEY",
    caching: Caching::ByItself,
};

/// Ids given to function calls that came without one.
const MADE_UP_ID_PREFIX: &str = "gemini-call-";

pub fn build_request(config: &EndpointConfig, request: &ChatRequest) -> HttpRequest {
    let mut contents: Vec<Value> = Vec::new();
    // Call ids Gemini itself gave: only those are echoed in the function responses.
    let mut ids_from_gemini = HashSet::new();
    for message in &request.messages {
        match message {
            Message::User { text } => {
                // Consecutive user messages (a candidate's approach after the question) go in
                // one turn, as parts: turns alternate between the user and the model.
                let part = json!({"text": text});
                match contents.last_mut() {
                    Some(last) if last["role"] == "user" => {
                        if let Some(parts) = last["parts"].as_array_mut() {
                            parts.push(part);
                        }
                    }
                    _ => contents.push(json!({"role": "user", "parts": [part]})),
                }
            }
            Message::Assistant {
                text,
                tool_calls,
                raw,
            } => {
                let turn = match raw.as_ref().and_then(as_gemini_content) {
                    Some(content) => content,
                    None => model_turn(text.as_deref(), &tool_calls[..]),
                };
                ids_from_gemini.extend(function_call_ids(&turn));
                if turn["parts"]
                    .as_array()
                    .is_some_and(|parts| !parts.is_empty())
                {
                    contents.push(turn);
                }
            }
            Message::ToolResults { results } => {
                let parts: Vec<Value> = results
                    .iter()
                    .map(|result| function_response(result, &ids_from_gemini))
                    .collect();
                contents.push(json!({"role": "user", "parts": parts}));
            }
        }
    }

    let mut generation_config = json!({"maxOutputTokens": request.max_tokens});
    if let Some(temperature) = temperature(request.temperature) {
        generation_config["temperature"] = json!(temperature);
    }
    let mut body = json!({
        "contents": contents,
        "generationConfig": generation_config,
    });
    if !request.system.is_empty() {
        body["systemInstruction"] = json!({"parts": [{"text": request.system}]});
    }
    if !request.tools.is_empty() {
        let declarations: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                let mut declaration = json!({"name": tool.name, "description": tool.description});
                // Gemini refuses an object schema without properties: a tool that takes no
                // arguments simply has no `parameters`.
                let parameters = gemini_schema(&tool.parameters);
                if parameters["properties"]
                    .as_object()
                    .is_some_and(|properties| !properties.is_empty())
                {
                    declaration["parameters"] = parameters;
                }
                declaration
            })
            .collect();
        body["tools"] = json!([{"functionDeclarations": declarations}]);
    }

    let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
    if !config.api_key().is_empty() {
        headers.push(("x-goog-api-key".to_string(), config.api_key().to_string()));
    }
    HttpRequest {
        url: format!(
            "{}/models/{}:generateContent",
            config.base_url(),
            model_path_segment(&request.model)
        ),
        headers,
        body: body.to_string(),
    }
}

/// The model name as a URL path segment: `models/` dropped if the user typed it, and any
/// character that could change the URL's meaning percent-encoded.
pub fn model_path_segment(model: &str) -> String {
    let model = model.trim();
    let model = model.strip_prefix("models/").unwrap_or(model);
    let mut segment = String::new();
    for byte in model.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            segment.push(byte as char);
        } else {
            segment.push_str(&format!("%{byte:02X}"));
        }
    }
    segment
}

/// The stored turn, when it is a Gemini `content` object (it may come from another provider if
/// the user switched mid-conversation). A missing role is filled in: history needs one.
fn as_gemini_content(raw: &Value) -> Option<Value> {
    raw.get("parts")?.as_array()?;
    let mut content = raw.clone();
    if content.get("role").is_none() {
        content["role"] = json!("model");
    }
    Some(content)
}

/// A model turn rebuilt from the neutral form (no signatures to keep).
fn model_turn(text: Option<&str>, tool_calls: &[RawToolCall]) -> Value {
    let mut parts = Vec::new();
    if let Some(text) = text.filter(|text| !text.is_empty()) {
        parts.push(json!({"text": text}));
    }
    for call in tool_calls {
        parts.push(json!({
            "functionCall": {"name": call.name, "args": arguments_object(&call.arguments)},
        }));
    }
    json!({"role": "model", "parts": parts})
}

fn function_call_ids(content: &Value) -> Vec<String> {
    content["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|part| part.pointer("/functionCall/id").and_then(Value::as_str))
        .map(str::to_string)
        .collect()
}

/// One `functionResponse` part. Gemini matches it to its call by name (and by id when the call
/// had one); errors go under `error`, as the function-calling guide suggests.
fn function_response(result: &ToolResult, ids_from_gemini: &HashSet<String>) -> Value {
    let response = if result.is_error {
        json!({"error": result.content})
    } else {
        json!({"content": result.content})
    };
    let mut function_response = json!({"name": result.name, "response": response});
    if ids_from_gemini.contains(&result.call_id) {
        function_response["id"] = json!(result.call_id);
    }
    json!({"functionResponse": function_response})
}

/// The JSON Schema keys Gemini's `Schema` (an OpenAPI subset) accepts; others, such as
/// `additionalProperties` or `$schema`, make it refuse the whole request.
const SCHEMA_KEYS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyOrdering",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
    "default",
    "example",
];

/// `schema` reduced to what Gemini accepts. A type list such as `["string", "null"]` becomes
/// `type: "string", nullable: true`.
fn gemini_schema(schema: &Value) -> Value {
    let Some(object) = schema.as_object() else {
        return schema.clone();
    };
    let mut cleaned = Map::new();
    for (key, value) in object {
        if !SCHEMA_KEYS.contains(&key.as_str()) {
            continue;
        }
        let value = match key.as_str() {
            "properties" => match value.as_object() {
                Some(properties) => Value::Object(
                    properties
                        .iter()
                        .map(|(name, property)| (name.clone(), gemini_schema(property)))
                        .collect(),
                ),
                None => value.clone(),
            },
            "items" => gemini_schema(value),
            "anyOf" => match value.as_array() {
                Some(options) => Value::Array(options.iter().map(gemini_schema).collect()),
                None => value.clone(),
            },
            "type" => match value.as_array() {
                Some(types) => {
                    if types.iter().any(|t| t == "null") {
                        cleaned.insert("nullable".to_string(), json!(true));
                    }
                    match types.iter().find(|t| *t != "null") {
                        Some(first) => first.clone(),
                        None => json!("string"),
                    }
                }
                None => value.clone(),
            },
            _ => value.clone(),
        };
        cleaned.insert(key.clone(), value);
    }
    Value::Object(cleaned)
}

pub fn parse_response(response: &HttpResponse) -> Result<ModelReply, LlmError> {
    if !response.is_success() {
        return Err(parse_error(response));
    }
    let reply: GenerateReply = success_json(response)?;
    let usage = reply.usage_metadata.unwrap_or_default();
    let usage = Usage {
        // `promptTokenCount` counts the cached ones too.
        input_tokens: usage.prompt_token_count,
        // Thinking tokens are billed as output.
        output_tokens: usage.candidates_token_count + usage.thoughts_token_count,
        cached_input_tokens: usage.cached_content_token_count,
        cache_write_tokens: 0,
    };

    let Some(candidate) = reply.candidates.into_iter().next() else {
        let message = match reply.prompt_feedback.and_then(|f| f.block_reason) {
            Some(reason) => {
                format!("Gemini refused the prompt (blockReason {reason}); try rephrasing it")
            }
            None => "Gemini sent no candidates".to_string(),
        };
        return Err(LlmError::Malformed { message });
    };

    let content = candidate
        .content
        .filter(|content| content.get("parts").is_some());
    let parts = content
        .as_ref()
        .and_then(|content| content["parts"].as_array())
        .map(Vec::as_slice)
        .unwrap_or_default();

    let mut texts = Vec::new();
    let mut tool_calls = Vec::new();
    for part in parts {
        // Thought summaries (`thought: true`) are the model's notes, not its answer.
        if part.get("thought").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        if let Some(text) = part.get("text").and_then(Value::as_str) {
            texts.push(text);
        }
        if let Some(call) = part.get("functionCall") {
            tool_calls.push(tool_call(call, tool_calls.len() + 1)?);
        }
    }
    let text = Some(texts.concat()).filter(|text| !text.is_empty());

    if text.is_none() && tool_calls.is_empty() {
        if let Some(error) = empty_reply_error(candidate.finish_reason.as_deref()) {
            return Err(error);
        }
    }
    Ok(ModelReply {
        text,
        tool_calls,
        usage,
        raw: content,
    })
}

fn tool_call(call: &Value, number: usize) -> Result<RawToolCall, LlmError> {
    let name = call
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| LlmError::Malformed {
            message: "a functionCall has no name".to_string(),
        })?;
    let id = match call.get("id").and_then(Value::as_str) {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => format!("{MADE_UP_ID_PREFIX}{number}"),
    };
    let arguments = match call.get("args") {
        None | Some(Value::Null) => "{}".to_string(),
        Some(args) => args.to_string(),
    };
    Ok(RawToolCall {
        id,
        name: name.to_string(),
        arguments,
    })
}

/// Why a candidate without text or calls is an error, when it is one (`STOP` is not).
fn empty_reply_error(finish_reason: Option<&str>) -> Option<LlmError> {
    let message = match finish_reason? {
        "STOP" | "FINISH_REASON_UNSPECIFIED" => return None,
        "MAX_TOKENS" => {
            "it was cut off at the token limit before any text or tool call (thinking counts \
             toward it); raise the maximum tokens"
                .to_string()
        }
        "MALFORMED_FUNCTION_CALL" => {
            "Gemini wrote a function call it could not parse (finishReason \
             MALFORMED_FUNCTION_CALL); asking again usually works"
                .to_string()
        }
        reason => format!("Gemini withheld the reply (finishReason {reason}); try rephrasing"),
    };
    Some(LlmError::Malformed { message })
}

/// `{"error": {"code", "message", "status", "details"}}`. Gemini answers a bad key with 400
/// `API_KEY_INVALID`, and says how long to wait in a `RetryInfo` detail.
fn parse_error(response: &HttpResponse) -> LlmError {
    let body = error_json(response);
    let message = error_message(response, body.as_ref());
    let details: &[Value] = body
        .as_ref()
        .and_then(|body| body.pointer("/error/details"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();

    let key_invalid = details
        .iter()
        .any(|detail| detail.get("reason").and_then(Value::as_str) == Some("API_KEY_INVALID"));
    if key_invalid {
        return LlmError::Unauthorized {
            status: response.status,
            message,
        };
    }
    let retry_after_ms = retry_after_header_ms(response).or_else(|| {
        details
            .iter()
            .filter_map(|detail| detail.get("retryDelay").and_then(Value::as_str))
            .find_map(duration_ms)
    });
    error_for_status(response.status, message, retry_after_ms)
}

/// A protobuf JSON duration such as `"27s"` or `"0.5s"`, in milliseconds.
fn duration_ms(text: &str) -> Option<u32> {
    let seconds: f64 = text.trim().strip_suffix('s')?.parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0).ceil() as u32)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GenerateReply {
    #[serde(default)]
    candidates: Vec<Candidate>,
    #[serde(default)]
    prompt_feedback: Option<PromptFeedback>,
    #[serde(default)]
    usage_metadata: Option<UsageMetadata>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate {
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptFeedback {
    #[serde(default)]
    block_reason: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct UsageMetadata {
    #[serde(default)]
    prompt_token_count: u64,
    #[serde(default)]
    candidates_token_count: u64,
    #[serde(default)]
    thoughts_token_count: u64,
    /// Gemini caches long prefixes by itself (implicit caching) and says how much it reused.
    #[serde(default)]
    cached_content_token_count: u64,
}

/// The same request, streamed: `:streamGenerateContent?alt=sse` in place of `:generateContent`.
pub fn stream_request(mut request: HttpRequest) -> HttpRequest {
    if let Some(model_path) = request.url.strip_suffix(":generateContent") {
        request.url = format!("{model_path}:streamGenerateContent?alt=sse");
    }
    request
}

/// A streamed `generateContent`: each event is a reply of its own whose candidate holds the
/// parts written since the last (text in pieces; a function call whole; a `thoughtSignature`
/// possibly in a part of its own at the end), the usage so far, and, last, the `finishReason`.
/// The parts are kept in order as they came: the model's turn goes back exactly so.
#[derive(Debug, Default)]
pub struct Assembler {
    parts: Vec<Value>,
    role: Option<Value>,
    finish_reason: Option<Value>,
    usage: Option<Value>,
    prompt_feedback: Option<Value>,
    calls: usize,
}

impl StreamAssembler for Assembler {
    fn event(&mut self, event: &SseEvent) -> Result<Vec<Delta>, LlmError> {
        let chunk: Value =
            serde_json::from_str(&event.data).map_err(|e| stream::not_json(&e, &event.data))?;
        if let Some(error) = chunk.get("error") {
            let status = error.get("code").and_then(Value::as_u64);
            let status = status
                .and_then(|code| u16::try_from(code).ok())
                .unwrap_or(500);
            return Err(parse_error(&HttpResponse {
                status,
                headers: Vec::new(),
                body: chunk.to_string(),
            }));
        }
        if let Some(usage) = chunk.get("usageMetadata") {
            self.usage = Some(usage.clone());
        }
        if let Some(feedback) = chunk.get("promptFeedback") {
            self.prompt_feedback = Some(feedback.clone());
        }
        let Some(candidate) = chunk.pointer("/candidates/0") else {
            return Ok(Vec::new());
        };
        if let Some(reason) = candidate.get("finishReason") {
            self.finish_reason = Some(reason.clone());
        }
        if let Some(role) = candidate.pointer("/content/role") {
            self.role = Some(role.clone());
        }
        let parts = candidate
            .pointer("/content/parts")
            .and_then(Value::as_array);
        let mut deltas = Vec::new();
        for part in parts.into_iter().flatten() {
            deltas.extend(self.part(part));
        }
        Ok(deltas)
    }

    fn whole_body(self: Box<Self>) -> Result<Value, LlmError> {
        let blocked = self
            .prompt_feedback
            .as_ref()
            .is_some_and(|f| f.get("blockReason").is_some());
        if self.finish_reason.is_none() && !blocked {
            return Err(stream::cut_short());
        }
        let mut reply = json!({"candidates": []});
        if self.finish_reason.is_some() || !self.parts.is_empty() {
            let role = self.role.unwrap_or_else(|| json!("model"));
            reply["candidates"] = json!([{
                "content": {"role": role, "parts": self.parts},
                "finishReason": self.finish_reason,
            }]);
        }
        if let Some(usage) = self.usage {
            reply["usageMetadata"] = usage;
        }
        if let Some(feedback) = self.prompt_feedback {
            reply["promptFeedback"] = feedback;
        }
        Ok(reply)
    }
}

impl Assembler {
    /// One part: kept, and shown when it is answer text (not a thought) or a function call.
    fn part(&mut self, part: &Value) -> Vec<Delta> {
        self.parts.push(part.clone());
        if part.get("thought").and_then(Value::as_bool) == Some(true) {
            return Vec::new();
        }
        if let Some(call) = part.get("functionCall") {
            let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
            let index = self.calls;
            self.calls += 1;
            let mut deltas = vec![Delta::ToolCall {
                index,
                name: name.to_string(),
            }];
            // A call comes whole: its arguments at once.
            if let Some(args) = call.get("args").filter(|args| !args.is_null()) {
                let piece = args.to_string();
                deltas.push(Delta::ToolArguments { index, piece });
            }
            return deltas;
        }
        match part.get("text").and_then(Value::as_str) {
            Some(text) if !text.is_empty() => vec![Delta::Text(text.to_string())],
            _ => Vec::new(),
        }
    }
}
