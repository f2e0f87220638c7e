//! A provider that exists only in the tests: the proof that a provider is one wire file and
//! one line in the list of `wire/mod.rs`. Nothing else in askdb names it, yet it is pickable
//! (settings, the address, saved settings), builds requests, parses responses, and has its key
//! variable (`settings` tests that side).
//!
//! Its format is made up and small: `POST {base}/complete` with the key in `x-fake-key`, the
//! conversation as `turns`; the answer is `{"text", "calls", "tokens": {"in", "out"}}`.

use super::{
    error_for_status, error_json, error_message, success_json, Caching, EndpointConfig,
    ProviderDescriptor,
};
use crate::llm::http::{HttpRequest, HttpResponse};
use crate::llm::sse::SseEvent;
use crate::llm::stream::{self, Delta, StreamAssembler};
use crate::llm::{ChatRequest, LlmError, Message, ModelReply, RawToolCall, Usage};
use serde::Deserialize;
use serde_json::{json, Value};

pub const PROVIDER: ProviderDescriptor = ProviderDescriptor {
    id: "fake",
    label: "Fake (tests only)",
    default_base_url: "https://fake.invalid/api",
    model_example: "fake-1",
    key_variable: "FAKE_API_KEY",
    caching: Caching::ByItself,
};

pub fn build_request(config: &EndpointConfig, request: &ChatRequest) -> HttpRequest {
    // Calls and results as askdb's own types serialize: the format is made up anyway.
    let turns: Vec<Value> = request
        .messages
        .iter()
        .map(|message| match message {
            Message::User { text } => json!({"from": "user", "text": text}),
            Message::Assistant {
                text, tool_calls, ..
            } => json!({"from": "model", "text": text, "calls": tool_calls}),
            Message::ToolResults { results } => json!({"from": "tools", "results": results}),
        })
        .collect();
    let body = json!({
        "model": request.model,
        "system": request.system,
        "tools": request.tools.iter().map(|tool| &tool.name).collect::<Vec<_>>(),
        "turns": turns,
    });
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    if !config.api_key().is_empty() {
        headers.push(("x-fake-key".to_string(), config.api_key().to_string()));
    }
    HttpRequest {
        url: format!("{}/complete", config.base_url()),
        headers,
        body: body.to_string(),
    }
}

pub fn parse_response(response: &HttpResponse) -> Result<ModelReply, LlmError> {
    if !response.is_success() {
        let body = error_json(response);
        let message = error_message(response, body.as_ref());
        return Err(error_for_status(response.status, message, None));
    }
    let reply: Reply = success_json(response)?;
    Ok(ModelReply {
        text: reply.text,
        tool_calls: reply
            .calls
            .into_iter()
            .map(|call| RawToolCall {
                id: call.id,
                name: call.name,
                arguments: call.arguments,
            })
            .collect(),
        usage: Usage::new(reply.tokens.input, reply.tokens.output),
        raw: None,
    })
}

/// Streamed, the reply comes as events `data: {"text": piece}`, `data: {"call": call}` and, last,
/// `data: {"tokens": {…}}`.
pub fn stream_request(request: HttpRequest) -> HttpRequest {
    super::with_body_fields(request, &[("stream", json!(true))])
}

#[derive(Debug, Default)]
pub struct Assembler {
    text: String,
    calls: Vec<Value>,
    tokens: Option<Value>,
}

impl StreamAssembler for Assembler {
    fn event(&mut self, event: &SseEvent) -> Result<Vec<Delta>, LlmError> {
        let piece: Value =
            serde_json::from_str(&event.data).map_err(|e| stream::not_json(&e, &event.data))?;
        if let Some(text) = piece.get("text").and_then(Value::as_str) {
            self.text.push_str(text);
            return Ok(vec![Delta::Text(text.to_string())]);
        }
        if let Some(call) = piece.get("call") {
            let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
            let index = self.calls.len();
            let arguments = call.get("arguments").and_then(Value::as_str);
            let deltas = vec![
                Delta::ToolCall {
                    index,
                    name: name.to_string(),
                },
                Delta::ToolArguments {
                    index,
                    piece: arguments.unwrap_or_default().to_string(),
                },
            ];
            self.calls.push(call.clone());
            return Ok(deltas);
        }
        if let Some(tokens) = piece.get("tokens") {
            self.tokens = Some(tokens.clone());
        }
        Ok(Vec::new())
    }

    fn whole_body(self: Box<Self>) -> Result<Value, LlmError> {
        let tokens = self.tokens.ok_or_else(stream::cut_short)?;
        Ok(json!({
            "text": (!self.text.is_empty()).then_some(self.text),
            "calls": self.calls,
            "tokens": tokens,
        }))
    }
}

#[derive(Deserialize)]
struct Reply {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    calls: Vec<Call>,
    #[serde(default)]
    tokens: Tokens,
}

#[derive(Deserialize)]
struct Call {
    id: String,
    name: String,
    arguments: String,
}

#[derive(Deserialize, Default)]
struct Tokens {
    #[serde(rename = "in")]
    input: u64,
    #[serde(rename = "out")]
    output: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::http::{HttpClient, TransportError};
    use crate::llm::{wire, HttpProvider, LlmProvider, ProviderKind};
    use futures::executor::block_on;
    use std::cell::RefCell;

    fn question() -> ChatRequest {
        ChatRequest {
            model: "fake-1".into(),
            system: "Answer from the data.".into(),
            messages: vec![Message::User {
                text: "How many orders?".into(),
            }],
            tools: Vec::new(),
            temperature: 0.2,
            max_tokens: 100,
        }
    }

    /// Answers every request with one response, and keeps the requests.
    struct OneAnswer {
        response: HttpResponse,
        sent: RefCell<Vec<HttpRequest>>,
    }

    impl HttpClient for &OneAnswer {
        async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
            self.sent.borrow_mut().push(request.clone());
            Ok(self.response.clone())
        }
    }

    fn answering(status: u16, body: &str) -> OneAnswer {
        OneAnswer {
            response: HttpResponse {
                status,
                headers: Vec::new(),
                body: body.into(),
            },
            sent: RefCell::new(Vec::new()),
        }
    }

    #[test]
    fn its_requests_are_built_by_its_own_wire_file() {
        let config = EndpointConfig::new(ProviderKind::Fake, "", " fake-secret ");
        let request = wire::build_request(&config, &question());
        assert_eq!(request.url, "https://fake.invalid/api/complete");
        assert!(request
            .headers
            .contains(&("x-fake-key".to_string(), "fake-secret".to_string())));
        let body: Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["turns"][0]["text"], "How many orders?");
        assert_eq!(body["model"], "fake-1");
    }

    #[test]
    fn a_provider_over_http_asks_it_and_reads_its_answer() {
        let client = answering(
            200,
            r#"{"text": "12 orders.", "calls": [{"id": "c1", "name": "run_sql",
                "arguments": "{\"sql\": \"SELECT 1\"}"}], "tokens": {"in": 30, "out": 4}}"#,
        );
        let config = EndpointConfig::new(ProviderKind::Fake, "http://127.0.0.1:9/v0/", "k");
        let provider = HttpProvider::new(config, &client);
        let reply = block_on(provider.complete(&question())).unwrap();
        assert_eq!(reply.text.as_deref(), Some("12 orders."));
        assert_eq!(reply.tool_calls[0].name, "run_sql");
        assert_eq!(reply.usage, Usage::new(30, 4));
        let sent = client.sent.borrow();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].url, "http://127.0.0.1:9/v0/complete");
    }

    #[test]
    fn its_errors_read_like_every_providers() {
        let refused = answering(401, r#"{"error": {"message": "bad key"}}"#);
        let config = EndpointConfig::new(ProviderKind::Fake, "", "k");
        let error = block_on(HttpProvider::new(config, &refused).complete(&question()));
        assert_eq!(
            error.unwrap_err(),
            LlmError::Unauthorized {
                status: 401,
                message: "bad key".into()
            }
        );
    }
}
