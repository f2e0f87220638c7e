//! The three wire formats against fixtures written after the official API references, the
//! provider end to end over a scripted HTTP client, the retry policy, and the error messages.

use askdb::llm::http::{HttpClient, HttpRequest, HttpResponse, TransportError};
use askdb::llm::retry::RetryPolicy;
use askdb::llm::wire::{self, anthropic, gemini, openai};
use askdb::llm::{
    ChatRequest, EndpointConfig, HttpProvider, LlmError, LlmProvider, Message, ModelReply,
    ProviderKind, RawToolCall, ToolResult, ToolSpec, Usage,
};
use futures::executor::block_on;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// Fixtures and the shared conversation

fn fixture_text(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/llm")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("read {}: {e}", full.display()))
}

fn fixture_json(path: &str) -> Value {
    serde_json::from_str(&fixture_text(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn response(status: u16, headers: &[(&str, &str)], body: &str) -> HttpResponse {
    HttpResponse {
        status,
        headers: headers
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect(),
        body: body.to_string(),
    }
}

fn ok_fixture(path: &str) -> HttpResponse {
    response(
        200,
        &[("content-type", "application/json")],
        &fixture_text(path),
    )
}

fn parse(kind: ProviderKind, path: &str) -> ModelReply {
    wire::parse_response(kind, &ok_fixture(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn dir(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::OpenAi => "openai",
        ProviderKind::Anthropic => "anthropic",
        ProviderKind::Gemini => "gemini",
    }
}

fn model(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::OpenAi => "gpt-4o-mini",
        ProviderKind::Anthropic => "claude-sonnet-4-5",
        ProviderKind::Gemini => "gemini-2.5-flash",
    }
}

fn tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "list_tables".to_string(),
            description: "List the tables of the database.".to_string(),
            parameters: json!({"type": "object", "properties": {}, "additionalProperties": false}),
        },
        ToolSpec {
            name: "run_sql".to_string(),
            description: "Run one read-only SQL query.".to_string(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "sql": {"type": "string", "description": "One SELECT statement."},
                    "limit": {"type": ["integer", "null"], "description": "Most rows to return."},
                },
                "required": ["sql"],
                "additionalProperties": false,
            }),
        },
    ]
}

fn result(call: &RawToolCall, content: &str, is_error: bool) -> ToolResult {
    ToolResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        content: content.to_string(),
        is_error,
    }
}

/// user → assistant with two parallel calls → their results (one an error) → assistant with
/// one call → its result → assistant's answer → user. Every assistant turn is the provider's
/// own reply parsed from a fixture, so this also proves that replies round-trip.
fn conversation(kind: ProviderKind) -> ChatRequest {
    let parallel = parse(
        kind,
        &format!("{}/response_parallel_tool_calls.json", dir(kind)),
    );
    let single = parse(kind, &format!("{}/response_tool_call.json", dir(kind)));
    let answer = parse(kind, &format!("{}/response_text.json", dir(kind)));
    assert_eq!(parallel.tool_calls.len(), 2);
    assert_eq!(single.tool_calls.len(), 1);
    ChatRequest {
        model: model(kind).to_string(),
        system: "You answer questions about a SQLite database.".to_string(),
        messages: vec![
            Message::User {
                text: "How many customers are in Berlin?".to_string(),
            },
            parallel.to_message(),
            Message::ToolResults {
                results: vec![
                    result(&parallel.tool_calls[0], "customers, orders", false),
                    result(&parallel.tool_calls[1], "no such column: city", true),
                ],
            },
            single.to_message(),
            Message::ToolResults {
                results: vec![result(&single.tool_calls[0], "COUNT(*)\n7", false)],
            },
            answer.to_message(),
            Message::User {
                text: "And in Paris?".to_string(),
            },
        ],
        tools: tools(),
        temperature: 0.2,
        max_tokens: 1024,
    }
}

fn simple_request(kind: ProviderKind) -> ChatRequest {
    ChatRequest {
        model: model(kind).to_string(),
        system: String::new(),
        messages: vec![Message::User {
            text: "Hi".to_string(),
        }],
        tools: Vec::new(),
        temperature: 0.0,
        max_tokens: 256,
    }
}

fn body_json(request: &HttpRequest) -> Value {
    serde_json::from_str(&request.body).expect("request body is JSON")
}

fn header_names(request: &HttpRequest) -> Vec<String> {
    request
        .headers
        .iter()
        .map(|(name, _)| name.to_ascii_lowercase())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Requests

#[test]
fn openai_request_matches_the_documented_json() {
    let config = EndpointConfig::new(ProviderKind::OpenAi, "", "sk-test");
    let request = openai::build_request(&config, &conversation(ProviderKind::OpenAi));
    assert_eq!(request.url, "https://api.openai.com/v1/chat/completions");
    assert_eq!(request.header("authorization"), Some("Bearer sk-test"));
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(header_names(&request), ["content-type", "authorization"]);
    assert_eq!(
        body_json(&request),
        fixture_json("openai/request_conversation.json")
    );
}

#[test]
fn anthropic_request_matches_the_documented_json() {
    let config = EndpointConfig::new(ProviderKind::Anthropic, "", "sk-ant-test");
    let request = anthropic::build_request(&config, &conversation(ProviderKind::Anthropic));
    assert_eq!(request.url, "https://api.anthropic.com/v1/messages");
    assert_eq!(request.header("x-api-key"), Some("sk-ant-test"));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(
        request.header("anthropic-dangerous-direct-browser-access"),
        Some("true")
    );
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(request.header("authorization"), None);
    assert_eq!(
        body_json(&request),
        fixture_json("anthropic/request_conversation.json")
    );
}

#[test]
fn gemini_request_matches_the_documented_json_and_keeps_thought_signatures() {
    let config = EndpointConfig::new(ProviderKind::Gemini, "", "AIza-test");
    let request = gemini::build_request(&config, &conversation(ProviderKind::Gemini));
    assert_eq!(
        request.url,
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
    );
    assert_eq!(request.header("x-goog-api-key"), Some("AIza-test"));
    assert_eq!(header_names(&request), ["content-type", "x-goog-api-key"]);
    assert!(
        !request.url.contains("AIza"),
        "the key stays out of the URL"
    );
    let body = body_json(&request);
    assert_eq!(body, fixture_json("gemini/request_conversation.json"));

    // The model's turn goes back exactly as the response had it.
    let sent_turn = &body["contents"][1];
    let received = fixture_json("gemini/response_parallel_tool_calls.json");
    assert_eq!(sent_turn, &received["candidates"][0]["content"]);
}

#[test]
fn local_openai_compatible_servers_get_no_authorization_header() {
    let config = EndpointConfig::new(ProviderKind::OpenAi, "http://localhost:11434/v1/", "  ");
    let request = openai::build_request(&config, &simple_request(ProviderKind::OpenAi));
    assert_eq!(request.url, "http://localhost:11434/v1/chat/completions");
    assert_eq!(header_names(&request), ["content-type"]);
    let body = body_json(&request);
    assert_eq!(body["messages"], json!([{"role": "user", "content": "Hi"}]));
    assert!(body.get("tools").is_none(), "no empty tools array");
    assert_eq!(body["temperature"], json!(0.0));
}

#[test]
fn base_urls_default_and_tolerate_trailing_slashes() {
    let cases = [
        (ProviderKind::OpenAi, "", "https://api.openai.com/v1"),
        (ProviderKind::Anthropic, "  ", "https://api.anthropic.com"),
        (
            ProviderKind::Gemini,
            "",
            "https://generativelanguage.googleapis.com/v1beta",
        ),
        (
            ProviderKind::OpenAi,
            "https://openrouter.ai/api/v1//",
            "https://openrouter.ai/api/v1",
        ),
    ];
    for (kind, given, expected) in cases {
        assert_eq!(EndpointConfig::new(kind, given, "").base_url(), expected);
    }
}

#[test]
fn anthropic_url_with_v1_already_in_the_base_is_not_doubled() {
    let config = EndpointConfig::new(ProviderKind::Anthropic, "https://proxy.example/v1/", "k");
    let request = anthropic::build_request(&config, &simple_request(ProviderKind::Anthropic));
    assert_eq!(request.url, "https://proxy.example/v1/messages");
}

#[test]
fn gemini_model_name_is_a_safe_path_segment() {
    let config = EndpointConfig::new(ProviderKind::Gemini, "", "k");
    let mut request = simple_request(ProviderKind::Gemini);
    request.model = "models/gemini-2.5-flash".to_string();
    let url = gemini::build_request(&config, &request).url;
    assert!(
        url.ends_with("/models/gemini-2.5-flash:generateContent"),
        "{url}"
    );
    request.model = "x/../y?key=1".to_string();
    let url = gemini::build_request(&config, &request).url;
    assert!(
        url.ends_with("/models/x%2F..%2Fy%3Fkey%3D1:generateContent"),
        "{url}"
    );
}

#[test]
fn the_api_key_is_trimmed_and_never_printed_by_debug() {
    let config = EndpointConfig::new(ProviderKind::OpenAi, "", " sk-secret\n");
    let request = openai::build_request(&config, &simple_request(ProviderKind::OpenAi));
    assert_eq!(request.header("authorization"), Some("Bearer sk-secret"));
    let printed = format!("{config:?}");
    assert!(!printed.contains("sk-secret"), "{printed}");
}

#[test]
fn anthropic_merges_consecutive_turns_of_one_role_and_drops_empty_ones() {
    let config = EndpointConfig::new(ProviderKind::Anthropic, "", "k");
    let call = RawToolCall {
        id: "toolu_1".to_string(),
        name: "run_sql".to_string(),
        arguments: r#"{"sql":"SELECT 1"}"#.to_string(),
    };
    let request = ChatRequest {
        messages: vec![
            Message::User {
                text: "First".to_string(),
            },
            Message::User {
                text: "Second".to_string(),
            },
            Message::Assistant {
                text: Some("   ".to_string()),
                tool_calls: vec![call.clone()],
                raw: None,
            },
            Message::ToolResults {
                results: vec![result(&call, "1", false)],
            },
            Message::User {
                text: "Go on".to_string(),
            },
            Message::Assistant {
                text: None,
                tool_calls: Vec::new(),
                raw: None,
            },
            Message::User {
                text: "Hello?".to_string(),
            },
        ],
        ..simple_request(ProviderKind::Anthropic)
    };
    let body = body_json(&anthropic::build_request(&config, &request));
    assert_eq!(
        body["messages"],
        json!([
            {"role": "user", "content": [
                {"type": "text", "text": "First"},
                {"type": "text", "text": "Second"},
            ]},
            {"role": "assistant", "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "run_sql",
                    "input": {"sql": "SELECT 1"},
                },
            ]},
            {"role": "user", "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": "1",
                    "is_error": false,
                },
                {"type": "text", "text": "Go on"},
                // The conversation's end is a cache breakpoint.
                {"type": "text", "text": "Hello?", "cache_control": {"type": "ephemeral"}},
            ]},
        ])
    );
    assert!(body.get("system").is_none(), "no empty system prompt");
}

#[test]
fn gemini_rebuilds_a_turn_that_has_no_raw_form() {
    // A conversation begun with another provider: no Gemini content to send back.
    let config = EndpointConfig::new(ProviderKind::Gemini, "", "k");
    let call = RawToolCall {
        id: "call_x".to_string(),
        name: "run_sql".to_string(),
        arguments: r#"{"sql":"SELECT 1"}"#.to_string(),
    };
    let request = ChatRequest {
        messages: vec![
            Message::User {
                text: "Q".to_string(),
            },
            Message::Assistant {
                text: Some("Checking.".to_string()),
                tool_calls: vec![call.clone()],
                raw: None,
            },
            Message::ToolResults {
                results: vec![result(&call, "1", false)],
            },
        ],
        ..simple_request(ProviderKind::Gemini)
    };
    let body = body_json(&gemini::build_request(&config, &request));
    assert_eq!(
        body["contents"],
        json!([
            {"role": "user", "parts": [{"text": "Q"}]},
            {"role": "model", "parts": [
                {"text": "Checking."},
                {"functionCall": {"name": "run_sql", "args": {"sql": "SELECT 1"}}},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "run_sql", "response": {"content": "1"}}},
            ]},
        ])
    );
    assert!(body.get("systemInstruction").is_none());
    assert!(body.get("tools").is_none());
}

#[test]
fn gemini_echoes_call_ids_only_when_gemini_gave_them() {
    let reply = wire::parse_response(
        ProviderKind::Gemini,
        &response(
            200,
            &[],
            r#"{"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"id": "fc-7", "name": "list_tables", "args": {}}}
            ]}, "finishReason": "STOP"}]}"#,
        ),
    )
    .unwrap();
    assert_eq!(reply.tool_calls[0].id, "fc-7");
    let request = ChatRequest {
        messages: vec![
            Message::User {
                text: "Q".to_string(),
            },
            reply.to_message(),
            Message::ToolResults {
                results: vec![result(&reply.tool_calls[0], "orders", false)],
            },
        ],
        ..simple_request(ProviderKind::Gemini)
    };
    let config = EndpointConfig::new(ProviderKind::Gemini, "", "k");
    let body = body_json(&gemini::build_request(&config, &request));
    assert_eq!(
        body["contents"][2]["parts"][0]["functionResponse"],
        json!({"id": "fc-7", "name": "list_tables", "response": {"content": "orders"}})
    );
}

// ---------------------------------------------------------------------------------------------
// Prompt caching

/// Every `cache_control` in a request body, as JSON pointers.
fn cache_marks(value: &Value, at: &str, marks: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                if key == "cache_control" {
                    marks.push(at.to_string());
                } else {
                    cache_marks(inner, &format!("{at}/{key}"), marks);
                }
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                cache_marks(inner, &format!("{at}/{index}"), marks);
            }
        }
        _ => {}
    }
}

#[test]
fn anthropic_cache_breakpoints_match_the_documented_example() {
    // The tools of the prompt-caching guide's "cache_control on tool definitions" example, its
    // system prompt as a block list, and a first question (marked as in its multi-turn example).
    let tool = |name: &str, description: &str, argument: &str| ToolSpec {
        name: name.to_string(),
        description: description.to_string(),
        parameters: json!({
            "type": "object",
            "properties": {argument: {"type": "string"}},
            "required": [argument],
        }),
    };
    let request = ChatRequest {
        model: "claude-sonnet-4-5".to_string(),
        system: "You are an AI assistant that answers questions about the weather and the time."
            .to_string(),
        messages: vec![Message::User {
            text: "What is the weather and time in New York?".to_string(),
        }],
        tools: vec![
            tool(
                "get_weather",
                "Get the current weather in a given location",
                "location",
            ),
            tool(
                "get_time",
                "Get the current time in a given time zone",
                "timezone",
            ),
        ],
        temperature: 0.0,
        max_tokens: 1024,
    };
    let config = EndpointConfig::new(ProviderKind::Anthropic, "", "k");
    let body = body_json(&anthropic::build_request(&config, &request));
    assert_eq!(body, fixture_json("anthropic/request_prompt_caching.json"));
}

#[test]
fn anthropic_marks_the_tools_the_system_prompt_and_the_conversation_end() {
    let config = EndpointConfig::new(ProviderKind::Anthropic, "", "k");
    let body = body_json(&anthropic::build_request(
        &config,
        &conversation(ProviderKind::Anthropic),
    ));
    let mut marks = Vec::new();
    cache_marks(&body, "", &mut marks);
    marks.sort();
    // At most four are allowed; the last tool, the system prompt and the last block.
    assert_eq!(marks, ["/messages/6/content/0", "/system/0", "/tools/1"]);
    for mark in &marks {
        let marked = body.pointer(mark).unwrap();
        assert_eq!(
            marked["cache_control"],
            json!({"type": "ephemeral"}),
            "{mark}"
        );
    }

    // With no system prompt and no tools, only the conversation is marked.
    let body = body_json(&anthropic::build_request(
        &config,
        &simple_request(ProviderKind::Anthropic),
    ));
    let mut marks = Vec::new();
    cache_marks(&body, "", &mut marks);
    assert_eq!(marks, ["/messages/0/content/0"]);
}

#[test]
fn openai_and_gemini_requests_carry_no_cache_marks() {
    // They cache long prefixes by themselves; an unknown field could make a compatible server
    // refuse the request.
    for kind in [ProviderKind::OpenAi, ProviderKind::Gemini] {
        let config = EndpointConfig::new(kind, "", "k");
        let body = body_json(&wire::build_request(&config, &conversation(kind)));
        let mut marks = Vec::new();
        cache_marks(&body, "", &mut marks);
        assert!(marks.is_empty(), "{kind:?}: {marks:?}");
    }
}

#[test]
fn cached_prompt_tokens_are_read_from_each_provider() {
    let cases = [
        // usage.prompt_tokens_details.cached_tokens; prompt_tokens counts them already.
        (
            ProviderKind::OpenAi,
            Usage {
                input_tokens: 2006,
                output_tokens: 300,
                cached_input_tokens: 1920,
                cache_write_tokens: 0,
            },
        ),
        // input_tokens counts neither the tokens read from the cache nor those written to it.
        (
            ProviderKind::Anthropic,
            Usage {
                input_tokens: 50 + 248 + 1800,
                output_tokens: 393,
                cached_input_tokens: 1800,
                cache_write_tokens: 248,
            },
        ),
        // usageMetadata.cachedContentTokenCount, within promptTokenCount.
        (
            ProviderKind::Gemini,
            Usage {
                input_tokens: 2100,
                output_tokens: 9 + 30,
                cached_input_tokens: 2048,
                cache_write_tokens: 0,
            },
        ),
    ];
    for (kind, expected) in cases {
        let reply = parse(kind, &format!("{}/response_cached_prompt.json", dir(kind)));
        assert_eq!(reply.usage, expected, "{kind:?}");
        assert_eq!(
            reply.text.as_deref(),
            Some("There are 7 customers in Berlin.")
        );
    }
    assert_eq!(
        parse(
            ProviderKind::Anthropic,
            "anthropic/response_cached_prompt.json"
        )
        .usage
        .uncached_input_tokens(),
        50
    );
}

// ---------------------------------------------------------------------------------------------
// Responses

#[test]
fn text_replies_parse() {
    let cases = [
        (ProviderKind::OpenAi, 412, 9),
        (ProviderKind::Anthropic, 412, 9),
        // Gemini: 9 candidate tokens + 30 thinking tokens, both billed as output.
        (ProviderKind::Gemini, 412, 39),
    ];
    for (kind, input_tokens, output_tokens) in cases {
        let reply = parse(kind, &format!("{}/response_text.json", dir(kind)));
        assert_eq!(
            reply.text.as_deref(),
            Some("There are 7 customers in Berlin."),
            "{kind:?}"
        );
        assert!(reply.tool_calls.is_empty(), "{kind:?}");
        assert_eq!(
            reply.usage,
            Usage::new(input_tokens, output_tokens),
            "{kind:?}"
        );
    }
}

#[test]
fn one_tool_call_parses() {
    let cases = [
        (ProviderKind::OpenAi, "call_abc123"),
        (ProviderKind::Anthropic, "toolu_01A09q90qw90lq917835lq9"),
        (ProviderKind::Gemini, "gemini-call-1"),
    ];
    for (kind, id) in cases {
        let reply = parse(kind, &format!("{}/response_tool_call.json", dir(kind)));
        assert_eq!(reply.text, None, "{kind:?}");
        assert_eq!(reply.tool_calls.len(), 1, "{kind:?}");
        let call = &reply.tool_calls[0];
        assert_eq!(call.id, id);
        assert_eq!(call.name, "run_sql");
        let arguments: Value = serde_json::from_str(&call.arguments).unwrap();
        assert_eq!(arguments, json!({"sql": "SELECT COUNT(*) FROM customers"}));
        assert_eq!(reply.usage, Usage::new(82, 17));
    }
}

#[test]
fn parallel_tool_calls_parse_in_order() {
    let cases = [
        (ProviderKind::OpenAi, ["call_a1", "call_b2"], 300),
        // Anthropic: 300 fresh + 100 cached prompt tokens.
        (ProviderKind::Anthropic, ["toolu_01A", "toolu_01B"], 400),
        (
            ProviderKind::Gemini,
            ["gemini-call-1", "gemini-call-2"],
            300,
        ),
    ];
    for (kind, ids, input_tokens) in cases {
        let reply = parse(
            kind,
            &format!("{}/response_parallel_tool_calls.json", dir(kind)),
        );
        assert_eq!(
            reply.text.as_deref(),
            Some("Let me look at the tables and count.")
        );
        let names: Vec<&str> = reply.tool_calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["list_tables", "run_sql"], "{kind:?}");
        let got_ids: Vec<&str> = reply.tool_calls.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(got_ids, ids, "{kind:?}");
        let second: Value = serde_json::from_str(&reply.tool_calls[1].arguments).unwrap();
        assert_eq!(
            second,
            json!({"sql": "SELECT COUNT(*) FROM customers WHERE city = 'Berlin'"})
        );
        assert_eq!(reply.usage.input_tokens, input_tokens, "{kind:?}");
        let cached = if kind == ProviderKind::Anthropic {
            100
        } else {
            0
        };
        assert_eq!(reply.usage.cached_input_tokens, cached, "{kind:?}");
        // Only Gemini needs its own form of the turn back.
        assert_eq!(
            reply.raw.is_some(),
            kind == ProviderKind::Gemini,
            "{kind:?}"
        );
    }
}

#[test]
fn openai_compatible_quirks_are_tolerated() {
    // No usage block (some local servers): zero tokens, not an error.
    let reply = parse(ProviderKind::OpenAi, "openai/response_no_usage.json");
    assert_eq!(reply.text.as_deref(), Some("Hello."));
    assert_eq!(reply.usage, Usage::default());

    // Arguments as an object instead of a string, and no call id.
    let body = r#"{"choices": [{"message": {"role": "assistant", "content": "",
        "tool_calls": [{"type": "function", "function": {"name": "run_sql",
        "arguments": {"sql": "SELECT 1"}}}]}, "finish_reason": "tool_calls"}]}"#;
    let reply = openai::parse_response(&response(200, &[], body)).unwrap();
    assert_eq!(reply.text, None, "empty content is no text");
    assert_eq!(
        reply.tool_calls,
        vec![RawToolCall {
            id: "call-1".to_string(),
            name: "run_sql".to_string(),
            arguments: r#"{"sql":"SELECT 1"}"#.to_string(),
        }]
    );
}

#[test]
fn replies_without_an_answer_say_why() {
    let cases: [(ProviderKind, &str, &str); 4] = [
        (
            ProviderKind::Gemini,
            "gemini/response_prompt_blocked.json",
            "blockReason SAFETY",
        ),
        (
            ProviderKind::Gemini,
            "gemini/response_candidate_safety.json",
            "finishReason SAFETY",
        ),
        (
            ProviderKind::Gemini,
            "gemini/response_max_tokens_thinking.json",
            "raise the maximum tokens",
        ),
        (
            ProviderKind::Anthropic,
            "anthropic/response_max_tokens_empty.json",
            "raise the maximum tokens",
        ),
    ];
    for (kind, path, expected) in cases {
        let error = wire::parse_response(kind, &ok_fixture(path)).unwrap_err();
        assert!(
            matches!(error, LlmError::Malformed { .. }),
            "{path}: {error:?}"
        );
        assert!(error.to_string().contains(expected), "{path}: {error}");
    }

    let cut_off = r#"{"choices": [{"message": {"role": "assistant", "content": null},
        "finish_reason": "length"}]}"#;
    let error = openai::parse_response(&response(200, &[], cut_off)).unwrap_err();
    assert!(error.to_string().contains("token limit"), "{error}");
}

#[test]
fn an_empty_reply_after_a_normal_stop_is_not_an_error() {
    let body = r#"{"content": [], "stop_reason": "end_turn",
        "usage": {"input_tokens": 5, "output_tokens": 0}}"#;
    let reply = anthropic::parse_response(&response(200, &[], body)).unwrap();
    assert_eq!((reply.text, reply.tool_calls.len()), (None, 0));
}

#[test]
fn gemini_thought_summaries_are_not_the_answer() {
    let body = r#"{"candidates": [{"content": {"role": "model", "parts": [
        {"text": "I should count rows.", "thought": true},
        {"text": "Seven."}
    ]}, "finishReason": "STOP"}]}"#;
    let reply = gemini::parse_response(&response(200, &[], body)).unwrap();
    assert_eq!(reply.text.as_deref(), Some("Seven."));
}

// ---------------------------------------------------------------------------------------------
// Errors

fn error_of(kind: ProviderKind, status: u16, headers: &[(&str, &str)], path: &str) -> LlmError {
    let body = fixture_text(path);
    wire::parse_response(kind, &response(status, headers, &body))
        .expect_err("an error status is an error")
}

/// Asserts that an error answer parses to `expected(message)`, where `message` is the
/// `error.message` of the fixture body: all three providers put it there.
fn check_error(
    kind: ProviderKind,
    status: u16,
    headers: &[(&str, &str)],
    path: &str,
    expected: impl FnOnce(String) -> LlmError,
) {
    let message = fixture_json(path)
        .pointer("/error/message")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{path} has an error.message"))
        .to_string();
    assert_eq!(
        error_of(kind, status, headers, path),
        expected(message),
        "{path}"
    );
}

#[test]
fn openai_error_bodies_map_to_the_right_error() {
    use ProviderKind::OpenAi;
    check_error(OpenAi, 401, &[], "openai/error_401.json", |message| {
        LlmError::Unauthorized {
            status: 401,
            message,
        }
    });
    check_error(OpenAi, 404, &[], "openai/error_404.json", |message| {
        LlmError::NotFound { message }
    });
    let retry_after = [("Retry-After", "20")];
    check_error(
        OpenAi,
        429,
        &retry_after,
        "openai/error_429.json",
        |message| LlmError::RateLimited {
            retry_after_ms: Some(20_000),
            message,
        },
    );
    // The finer header wins when both are there.
    let both = [("retry-after", "1"), ("retry-after-ms", "210")];
    check_error(OpenAi, 429, &both, "openai/error_429.json", |message| {
        LlmError::RateLimited {
            retry_after_ms: Some(210),
            message,
        }
    });
    // An empty account: waiting will not help, so it is no rate limit.
    check_error(OpenAi, 429, &[], "openai/error_429_quota.json", |message| {
        LlmError::BadRequest {
            status: 429,
            message,
        }
    });
    check_error(OpenAi, 500, &[], "openai/error_500.json", |message| {
        LlmError::Server {
            status: 500,
            message,
        }
    });
    check_error(OpenAi, 400, &[], "openai/error_400.json", |message| {
        LlmError::BadRequest {
            status: 400,
            message,
        }
    });
}

#[test]
fn anthropic_error_bodies_map_to_the_right_error() {
    use ProviderKind::Anthropic;
    check_error(Anthropic, 401, &[], "anthropic/error_401.json", |message| {
        LlmError::Unauthorized {
            status: 401,
            message,
        }
    });
    check_error(Anthropic, 404, &[], "anthropic/error_404.json", |message| {
        LlmError::NotFound { message }
    });
    let retry_after = [("retry-after", "7")];
    check_error(
        Anthropic,
        429,
        &retry_after,
        "anthropic/error_429.json",
        |message| LlmError::RateLimited {
            retry_after_ms: Some(7_000),
            message,
        },
    );
    check_error(Anthropic, 500, &[], "anthropic/error_500.json", |message| {
        LlmError::Server {
            status: 500,
            message,
        }
    });
    check_error(Anthropic, 529, &[], "anthropic/error_529.json", |message| {
        LlmError::Server {
            status: 529,
            message,
        }
    });
    check_error(Anthropic, 400, &[], "anthropic/error_400.json", |message| {
        LlmError::BadRequest {
            status: 400,
            message,
        }
    });
    // The message is the provider's own words, not the JSON around them.
    let error = error_of(Anthropic, 529, &[], "anthropic/error_529.json");
    assert!(
        error.to_string().ends_with("The server said: Overloaded"),
        "{error}"
    );
}

#[test]
fn gemini_error_bodies_map_to_the_right_error() {
    use ProviderKind::Gemini;
    // Gemini answers a bad key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
    check_error(
        Gemini,
        400,
        &[],
        "gemini/error_400_key_invalid.json",
        |message| LlmError::Unauthorized {
            status: 400,
            message,
        },
    );
    check_error(Gemini, 404, &[], "gemini/error_404.json", |message| {
        LlmError::NotFound { message }
    });
    // No Retry-After header: the RetryInfo detail says how long.
    check_error(Gemini, 429, &[], "gemini/error_429.json", |message| {
        LlmError::RateLimited {
            retry_after_ms: Some(27_000),
            message,
        }
    });
    check_error(Gemini, 500, &[], "gemini/error_500.json", |message| {
        LlmError::Server {
            status: 500,
            message,
        }
    });
    check_error(Gemini, 503, &[], "gemini/error_503.json", |message| {
        LlmError::Server {
            status: 503,
            message,
        }
    });
}

#[test]
fn a_429_without_retry_after_leaves_the_wait_to_backoff() {
    let error = error_of(
        ProviderKind::Anthropic,
        429,
        &[("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")],
        "anthropic/error_429.json",
    );
    assert!(matches!(
        error,
        LlmError::RateLimited {
            retry_after_ms: None,
            ..
        }
    ));
}

#[test]
fn an_html_error_page_keeps_its_status_and_a_readable_message() {
    for kind in [
        ProviderKind::OpenAi,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ] {
        let error = error_of(kind, 502, &[], "error_502.html");
        assert_eq!(
            error,
            LlmError::Server {
                status: 502,
                message: "502 Bad Gateway 502 Bad Gateway nginx".to_string(),
            },
            "{kind:?}"
        );
    }
}

#[test]
fn a_success_status_with_a_body_that_is_not_the_format_is_malformed() {
    let html = fixture_text("error_502.html");
    let bodies = ["", "{not json", html.as_str(), r#"{"unexpected": true}"#];
    for kind in [
        ProviderKind::OpenAi,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ] {
        for body in bodies {
            let outcome = wire::parse_response(kind, &response(200, &[], body));
            assert!(
                matches!(outcome, Err(LlmError::Malformed { .. })),
                "{kind:?} {body:?}: {outcome:?}"
            );
        }
    }
    let error = openai::parse_response(&response(200, &[], &html)).unwrap_err();
    assert!(error.to_string().contains("502 Bad Gateway"), "{error}");
}

#[test]
fn an_openai_compatible_error_sent_with_status_200_is_still_an_error() {
    let body =
        r#"{"error": {"code": 429, "message": "Rate limit exceeded: free-models-per-min."}}"#;
    let error = openai::parse_response(&response(200, &[], body)).unwrap_err();
    assert_eq!(
        error,
        LlmError::RateLimited {
            retry_after_ms: None,
            message: "Rate limit exceeded: free-models-per-min.".to_string(),
        }
    );
    // Ollama's own error shape: a bare string.
    let body = r#"{"error": "model \"llama9\" not found, try pulling it first"}"#;
    let error = openai::parse_response(&response(404, &[], body)).unwrap_err();
    assert_eq!(
        error,
        LlmError::NotFound {
            message: r#"model "llama9" not found, try pulling it first"#.to_string(),
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Error messages a person can act on

#[test]
fn error_messages_say_what_to_do() {
    let cases: Vec<(LlmError, Vec<&str>)> = vec![
        (
            LlmError::Unauthorized {
                status: 401,
                message: "invalid x-api-key".to_string(),
            },
            vec![
                "API key was refused (HTTP 401)",
                "check the key in Settings",
                "invalid x-api-key",
            ],
        ),
        (
            LlmError::NotFound {
                message: String::new(),
            },
            vec!["not found", "check the model name and base URL"],
        ),
        (
            LlmError::RateLimited {
                retry_after_ms: Some(20_000),
                message: String::new(),
            },
            vec!["rate limiting", "HTTP 429", "wait 20 s", "retries"],
        ),
        (
            LlmError::Server {
                status: 529,
                message: "Overloaded".to_string(),
            },
            vec!["overloaded", "HTTP 529", "retries", "Overloaded"],
        ),
        (
            LlmError::Malformed {
                message: "no choices".to_string(),
            },
            vec!["the server's answer was not in the expected format: no choices"],
        ),
    ];
    for (error, expected) in cases {
        let text = error.to_string();
        for part in expected {
            assert!(text.contains(part), "{text:?} lacks {part:?}");
        }
        assert!(
            !text.contains("The server said: ."),
            "no empty quote: {text}"
        );
    }
}

#[test]
fn network_errors_name_the_fix_for_local_servers() {
    let network = |base_url: &str| {
        LlmError::Network {
            message: "Failed to fetch".to_string(),
            base_url: base_url.to_string(),
        }
        .to_string()
    };

    for ollama in [
        "http://localhost:11434/v1",
        "http://127.0.0.1:11434/v1",
        "http://[::1]:11434",
    ] {
        let text = network(ollama);
        assert!(text.contains("OLLAMA_ORIGINS=*"), "{text}");
        assert!(text.contains("could not reach"), "{text}");
    }

    let text = network("http://localhost:1234/v1");
    assert!(text.contains("LM Studio, enable CORS"), "{text}");

    let text = network("https://api.openai.com/v1");
    for part in [
        "could not reach https://api.openai.com/v1",
        "offline",
        "CORS",
    ] {
        assert!(text.contains(part), "{text}");
    }
    assert!(!text.contains("OLLAMA"), "{text}");
    assert!(!network("http://example.com:11434").contains("OLLAMA"));
}

// ---------------------------------------------------------------------------------------------
// HttpProvider end to end over a scripted client

/// Answers each post with the next scripted outcome and keeps what it was sent.
struct ScriptedHttp {
    outcomes: RefCell<VecDeque<Result<HttpResponse, TransportError>>>,
    sent: RefCell<Vec<HttpRequest>>,
}

impl ScriptedHttp {
    fn new(outcomes: Vec<Result<HttpResponse, TransportError>>) -> Self {
        ScriptedHttp {
            outcomes: RefCell::new(outcomes.into()),
            sent: RefCell::new(Vec::new()),
        }
    }
}

impl HttpClient for &ScriptedHttp {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        self.sent.borrow_mut().push(request.clone());
        self.outcomes
            .borrow_mut()
            .pop_front()
            .expect("the script has an answer for every call")
    }
}

#[test]
fn provider_builds_posts_and_parses() {
    let http = ScriptedHttp::new(vec![Ok(ok_fixture(
        "anthropic/response_parallel_tool_calls.json",
    ))]);
    let config = EndpointConfig::new(ProviderKind::Anthropic, "", "sk-ant");
    let provider = HttpProvider::new(config.clone(), &http);
    let request = simple_request(ProviderKind::Anthropic);

    let reply = block_on(provider.complete(&request)).unwrap();
    assert_eq!(reply.tool_calls.len(), 2);
    assert_eq!(
        http.sent.borrow().as_slice(),
        [anthropic::build_request(&config, &request)]
    );
}

#[test]
fn provider_reports_an_unreachable_server_with_its_url() {
    let http = ScriptedHttp::new(vec![Err(TransportError {
        message: "TypeError: Failed to fetch".to_string(),
    })]);
    let config = EndpointConfig::new(ProviderKind::OpenAi, "http://localhost:11434/v1/", "");
    let provider = HttpProvider::new(config, &http);
    let error = block_on(provider.complete(&simple_request(ProviderKind::OpenAi))).unwrap_err();
    assert_eq!(
        error,
        LlmError::Network {
            message: "TypeError: Failed to fetch".to_string(),
            base_url: "http://localhost:11434/v1".to_string(),
        }
    );
    assert!(!error.is_retryable());
}

// What the agent's retry policy makes of parsed errors: the waits before each retry, and when
// it gives up. The loop that waits and calls again is the agent's (tests/agent_loop.rs).

#[test]
fn overloaded_then_rate_limited_waits_the_backoff_then_the_retry_after() {
    let policy = RetryPolicy::default();
    let overloaded = error_of(
        ProviderKind::Anthropic,
        529,
        &[],
        "anthropic/error_529.json",
    );
    let limited = error_of(
        ProviderKind::Anthropic,
        429,
        &[("retry-after", "3")],
        "anthropic/error_429.json",
    );
    assert_eq!(policy.delay_before_retry(1, &overloaded), Some(1_000));
    assert_eq!(policy.delay_before_retry(2, &limited), Some(3_000));
}

#[test]
fn a_refused_key_is_not_retried() {
    let refused = error_of(ProviderKind::OpenAi, 401, &[], "openai/error_401.json");
    assert!(matches!(refused, LlmError::Unauthorized { .. }));
    assert_eq!(RetryPolicy::default().delay_before_retry(1, &refused), None);
}

#[test]
fn a_server_that_stays_down_is_given_up_after_max_retries() {
    let policy = RetryPolicy::default();
    let down = error_of(ProviderKind::Gemini, 503, &[], "gemini/error_503.json");
    assert!(matches!(down, LlmError::Server { status: 503, .. }));
    let waits: Vec<Option<u32>> = (1..=4)
        .map(|attempt| policy.delay_before_retry(attempt, &down))
        .collect();
    // Three retries (four calls in all), then no more.
    assert_eq!(waits, [Some(1_000), Some(2_000), Some(4_000), None]);
}

// ---------------------------------------------------------------------------------------------
// RetryPolicy

#[test]
fn retry_policy_table() {
    let policy = RetryPolicy {
        max_retries: 3,
        base_delay_ms: 500,
        max_delay_ms: 10_000,
    };
    let server = LlmError::Server {
        status: 529,
        message: String::new(),
    };
    let limited = |retry_after_ms| LlmError::RateLimited {
        retry_after_ms,
        message: String::new(),
    };
    let unauthorized = LlmError::Unauthorized {
        status: 401,
        message: String::new(),
    };
    let not_found = LlmError::NotFound {
        message: String::new(),
    };
    let bad_request = LlmError::BadRequest {
        status: 400,
        message: String::new(),
    };
    let network = LlmError::Network {
        message: String::new(),
        base_url: String::new(),
    };
    let malformed = LlmError::Malformed {
        message: String::new(),
    };

    let cases: Vec<(u32, LlmError, Option<u32>)> = vec![
        (1, server.clone(), Some(500)),
        (2, server.clone(), Some(1_000)),
        (3, server.clone(), Some(2_000)),
        (4, server.clone(), None),
        (1, limited(None), Some(500)),
        (3, limited(None), Some(2_000)),
        (1, limited(Some(1_234)), Some(1_234)),
        (2, limited(Some(0)), Some(0)),
        // A server asking for an hour gets the cap.
        (1, limited(Some(3_600_000)), Some(10_000)),
        (4, limited(Some(1_000)), None),
        (1, unauthorized.clone(), None),
        (1, not_found.clone(), None),
        (1, bad_request.clone(), None),
        (1, network.clone(), None),
        (1, malformed.clone(), None),
    ];
    for (attempt, error, expected) in cases {
        assert_eq!(
            policy.delay_before_retry(attempt, &error),
            expected,
            "attempt {attempt}, {error:?}"
        );
    }

    // Backoff is capped too, and huge attempt numbers do not overflow.
    let patient = RetryPolicy {
        max_retries: u32::MAX,
        ..policy
    };
    assert_eq!(patient.delay_before_retry(10, &server), Some(10_000));
    assert_eq!(patient.delay_before_retry(100, &server), Some(10_000));
    assert_eq!(RetryPolicy::default().max_retries, 3);
}

/// A candidate's way of working goes after the question as a second user message: each format
/// keeps the question first in one user turn (Anthropic and Gemini merge them, OpenAI keeps two
/// user messages), so that the question's bytes are the shared start every candidate's request
/// has.
#[test]
fn a_second_user_message_follows_the_question_in_the_same_user_turn() {
    for kind in [
        ProviderKind::OpenAi,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ] {
        let request = ChatRequest {
            messages: vec![
                Message::User {
                    text: "How many orders?".to_string(),
                },
                Message::User {
                    text: "How to work on this answer: in parts.".to_string(),
                },
            ],
            ..simple_request(kind)
        };
        let config = EndpointConfig::new(kind, "", "key");
        let body = body_json(&wire::build_request(&config, &request));
        match kind {
            ProviderKind::OpenAi => assert_eq!(
                body["messages"],
                json!([
                    {"role": "user", "content": "How many orders?"},
                    {"role": "user", "content": "How to work on this answer: in parts."},
                ])
            ),
            ProviderKind::Anthropic => assert_eq!(
                body["messages"],
                json!([{"role": "user", "content": [
                    {"type": "text", "text": "How many orders?"},
                    {"type": "text", "text": "How to work on this answer: in parts.",
                     "cache_control": {"type": "ephemeral"}},
                ]}])
            ),
            _ => assert_eq!(
                body["contents"],
                json!([{"role": "user", "parts": [
                    {"text": "How many orders?"},
                    {"text": "How to work on this answer: in parts."},
                ]}])
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A demo's endpoint (askdb-proxy, docs/live-demos.md): its own refusals, the same for every
// provider's format, and every failure met through it said as the endpoint's, never a key's.

/// The refusal of docs/live-demos.md, with this status, reason and wait.
fn proxy_refusal(status: u16, reason: &str, retry_after_s: Option<u64>) -> HttpResponse {
    let mut error = json!({
        "type": "askdb_proxy", "reason": reason,
        "message": format!("The demo's {reason} check said no."),
    });
    if status == 429 {
        error["resets_at"] = json!("2026-12-05T00:00:00Z");
    }
    if let Some(seconds) = retry_after_s {
        error["retry_after_s"] = json!(seconds);
    }
    let seconds = retry_after_s.map(|s| s.to_string()).unwrap_or_default();
    let headers: &[(&str, &str)] = if retry_after_s.is_some() {
        &[
            ("content-type", "application/json"),
            ("retry-after", &seconds),
        ]
    } else {
        &[("content-type", "application/json")]
    };
    response(status, headers, &json!({ "error": error }).to_string())
}

#[test]
fn the_proxys_own_refusal_is_its_own_error_for_every_provider() {
    for &kind in ProviderKind::ALL {
        let limit = proxy_refusal(429, "reader_per_day", Some(18_230));
        let LlmError::Proxy(refusal) = wire::parse_response(kind, &limit).unwrap_err() else {
            panic!("{kind:?}: a plain rate limit, not the proxy's");
        };
        assert_eq!(refusal.status, 429);
        assert_eq!(refusal.reason, "reader_per_day");
        assert_eq!(refusal.message, "The demo's reader_per_day check said no.");
        assert_eq!(refusal.resets_at.as_deref(), Some("2026-12-05T00:00:00Z"));
        assert_eq!(refusal.retry_after_s, Some(18_230));
        assert!(refusal.is_limit());

        let pinned = wire::parse_response(kind, &proxy_refusal(403, "system_prompt", None));
        let said = pinned.unwrap_err().to_string();
        assert_eq!(
            said,
            "the demo's endpoint refused this question (HTTP 403, system_prompt): The demo's \
             system_prompt check said no."
        );
    }
}

#[test]
fn a_providers_own_error_is_not_taken_for_the_proxys() {
    // The provider's 429 passed through the proxy: the provider's own body.
    let provider = response(
        429,
        &[("retry-after", "2")],
        r#"{"error": {"type": "requests", "message": "Rate limit reached"}}"#,
    );
    assert!(matches!(
        wire::parse_response(ProviderKind::OpenAi, &provider).unwrap_err(),
        LlmError::RateLimited {
            retry_after_ms: Some(2_000),
            ..
        }
    ));
    // A success is never a refusal, whatever it says.
    let odd = response(200, &[], r#"{"error": {"type": "askdb_proxy"}}"#);
    assert!(!matches!(
        wire::parse_response(ProviderKind::OpenAi, &odd),
        Err(LlmError::Proxy(_))
    ));
}

#[test]
fn a_limit_is_not_retried_but_a_short_burst_is_within_the_policys_longest_wait() {
    let policy = RetryPolicy::default();
    let error = |status, reason, wait| {
        wire::parse_response(ProviderKind::OpenAi, &proxy_refusal(status, reason, wait))
            .unwrap_err()
    };
    for reason in [
        "reader_per_day",
        "demo_requests_per_day",
        "demo_tokens_per_day",
        "global_tokens_per_day",
    ] {
        let limit = error(429, reason, Some(3));
        assert_eq!(policy.delay_before_retry(1, &limit), None, "{reason}");
    }
    // A reader's burst that comes back in 3 s is waited for; one in an hour is not (sooner
    // would be refused again); one that does not say when gets the usual backoff.
    assert_eq!(
        policy.delay_before_retry(1, &error(429, "reader_burst", Some(3))),
        Some(3_000)
    );
    assert_eq!(
        policy.delay_before_retry(1, &error(429, "reader_burst", Some(3_600))),
        None
    );
    assert_eq!(
        policy.delay_before_retry(2, &error(429, "reader_burst", None)),
        Some(2_000)
    );
    assert_eq!(
        policy.delay_before_retry(4, &error(429, "reader_burst", Some(3))),
        None,
        "no more than max_retries"
    );
    // The provider out of the proxy's reach: a server error's backoff. Its key refused: never.
    assert_eq!(
        policy.delay_before_retry(1, &error(502, "upstream_unreachable", None)),
        Some(1_000)
    );
    assert_eq!(
        policy.delay_before_retry(1, &error(502, "upstream_key", None)),
        None
    );
    for refusal in [
        "origin",
        "model",
        "system_prompt",
        "tools",
        "shape",
        "body_too_large",
    ] {
        let status = if refusal == "body_too_large" {
            413
        } else {
            403
        };
        assert_eq!(
            policy.delay_before_retry(1, &error(status, refusal, None)),
            None
        );
    }
}

#[test]
fn every_failure_through_a_demos_endpoint_is_the_endpoints_never_a_keys() {
    let config = EndpointConfig::new(ProviderKind::OpenAi, "https://proxy.example/demo/shop", "");
    let failures: Vec<Result<HttpResponse, TransportError>> = vec![
        Err(TransportError {
            message: "TypeError: Failed to fetch".into(),
        }),
        Ok(response(500, &[], "<html>Internal Server Error</html>")),
        Ok(response(
            401,
            &[],
            r#"{"error": {"message": "Incorrect API key provided"}}"#,
        )),
        Ok(response(403, &[], "Forbidden")),
        Ok(response(404, &[], "")),
        Ok(response(200, &[], "not json")),
        Ok(proxy_refusal(502, "upstream_key", None)),
        Ok(proxy_refusal(429, "demo_tokens_per_day", Some(600))),
    ];
    let expected_starts = [
        "the demo's endpoint could not be reached (TypeError: Failed to fetch)",
        "the demo's endpoint is failing (HTTP 500)",
        "the demo's endpoint refused this question (HTTP 401)",
        "the demo's endpoint refused this question (HTTP 403)",
        "the demo's endpoint does not know this address or model (HTTP 404)",
        "the demo's endpoint's answer was not in the expected format",
        "the demo's endpoint could not use its model",
        "the demo's endpoint has reached one of its limits (HTTP 429, demo_tokens_per_day)",
    ];
    let http = ScriptedHttp::new(failures);
    let provider = HttpProvider::new(config, &http).through_demo_endpoint();
    for start in expected_starts {
        let error = block_on(provider.complete(&simple_request(ProviderKind::OpenAi))).unwrap_err();
        let said = error.to_string();
        assert!(said.starts_with(start), "{said}");
        assert!(!said.contains("API key was refused"), "{said}");
        assert!(!said.contains("check the key"), "{said}");
    }
    // The wrapping keeps what the retry policy reads: a 500 is still retried.
    let policy = RetryPolicy::default();
    let failing = LlmError::Server {
        status: 500,
        message: String::new(),
    }
    .through_demo_endpoint();
    assert_eq!(policy.delay_before_retry(1, &failing), Some(1_000));
}

#[test]
fn without_a_demos_endpoint_a_providers_401_still_names_the_api_key() {
    let http = ScriptedHttp::new(vec![Ok(response(
        401,
        &[],
        r#"{"error": {"message": "Incorrect API key provided"}}"#,
    ))]);
    let config = EndpointConfig::new(ProviderKind::OpenAi, "", "sk-wrong");
    let provider = HttpProvider::new(config, &http);
    let said = block_on(provider.complete(&simple_request(ProviderKind::OpenAi)))
        .unwrap_err()
        .to_string();
    assert!(
        said.starts_with("the API key was refused (HTTP 401)"),
        "{said}"
    );
}
