//! Prompt caching pays only when each step of a question starts with exactly the bytes the step
//! before sent: the same tools, the same system prompt, then the same conversation. OpenAI and
//! Gemini cache such prefixes by themselves; Anthropic reads them at its breakpoints. Nothing in
//! the prefix may change between steps (no clock, no counter, no reordering).
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::llm::http::HttpRequest;
use askdb::llm::wire::prefix;
use askdb::llm::{wire, ChatRequest, EndpointConfig, ProviderKind};
use serde_json::Value;
use support::scripted_llm::{ask, calls, final_answer, session, three_steps};
use support::RusqliteDb;

const TOKYO: &str = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";

/// The wire request of every step of a three-step question, then of a follow-up question.
fn steps() -> Vec<ChatRequest> {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let first = ask(
        &db,
        &mut session,
        "Which customers live in Tokyo?",
        three_steps("customers", TOKYO, "Alice and Evan."),
    );
    first.answer();
    let follow_up = ask(
        &db,
        &mut session,
        "And in Osaka?",
        vec![calls(vec![final_answer("c5", "Nobody.", TOKYO)])],
    );
    follow_up.answer();
    let mut requests = first.requests;
    requests.extend(follow_up.requests);
    assert_eq!(requests.len(), 4);
    requests
}

fn body(request: &HttpRequest) -> Value {
    serde_json::from_str(&request.body).expect("JSON")
}

/// The parts of a body that come before the conversation, as the bytes they are sent as.
fn fixed_parts(kind: ProviderKind, body: &Value) -> Vec<String> {
    let keys: &[&str] = match kind {
        ProviderKind::OpenAi => &["tools", "model", "temperature", "max_tokens"],
        ProviderKind::Anthropic => &["tools", "system", "model", "temperature", "max_tokens"],
        ProviderKind::Gemini => &["tools", "systemInstruction", "generationConfig"],
    };
    keys.iter().map(|key| body[*key].to_string()).collect()
}

/// The conversation of a body, without Anthropic's moving cache mark.
fn conversation(kind: ProviderKind, body: &Value) -> Vec<Value> {
    let key = match kind {
        ProviderKind::Gemini => "contents",
        _ => "messages",
    };
    let mut messages = body[key].as_array().expect("a conversation").clone();
    for message in &mut messages {
        if let Some(blocks) = message["content"].as_array_mut() {
            for block in blocks {
                if let Some(block) = block.as_object_mut() {
                    block.remove("cache_control");
                }
            }
        }
    }
    messages
}

#[test]
fn every_step_starts_with_the_bytes_of_the_step_before() {
    let requests = steps();
    for kind in [
        ProviderKind::OpenAi,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ] {
        let config = EndpointConfig::new(kind, "", "key-for-the-test");
        let bodies: Vec<Value> = requests
            .iter()
            .map(|request| body(&wire::build_request(&config, request)))
            .collect();

        // Tools, system prompt and settings: the same bytes at every step of both questions.
        let fixed = fixed_parts(kind, &bodies[0]);
        assert!(
            fixed[0].contains("final_answer"),
            "{kind:?}: the tools are there"
        );
        if kind != ProviderKind::OpenAi {
            assert!(
                fixed[1].contains("How to work"),
                "{kind:?}: so is the system prompt"
            );
        }
        for (step, body) in bodies.iter().enumerate() {
            assert_eq!(
                fixed_parts(kind, body),
                fixed,
                "{kind:?}, request {}",
                step + 1
            );
        }

        // Within the question, each step's conversation extends the previous one unchanged.
        for step in 1..3 {
            let before = conversation(kind, &bodies[step - 1]);
            let now = conversation(kind, &bodies[step]);
            assert!(now.len() > before.len(), "{kind:?}");
            assert_eq!(
                now[..before.len()],
                before[..],
                "{kind:?}, step {}",
                step + 1
            );
        }
        // The follow-up starts with the first question as it was first sent.
        let first_question = conversation(kind, &bodies[0]);
        let follow_up = conversation(kind, &bodies[3]);
        assert_eq!(follow_up[0], first_question[0], "{kind:?}");
    }
}

/// What a demo's endpoint (`askdb-proxy`) pins and checks on every request it forwards: the
/// system prompt and the tool list as the wire carries them (`wire::prefix::parts`). Every step
/// of a question, and of the next question, must carry the first request's parts, or the
/// endpoint would refuse the second step. (A step counter in the system prompt fails this.)
#[test]
fn every_request_carries_the_first_requests_pinned_parts() {
    let requests = steps();
    for kind in [
        ProviderKind::OpenAi,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ] {
        let config = EndpointConfig::new(kind, "", "key-for-the-test");
        let parts: Vec<(Value, Value)> = requests
            .iter()
            .map(|request| {
                let body = body(&wire::build_request(&config, request));
                prefix::parts(kind, &body).expect("a system part")
            })
            .collect();
        let (system, tools) = &parts[0];
        assert!(system.to_string().contains("How to work"), "{kind:?}");
        assert!(tools.to_string().contains("final_answer"), "{kind:?}");
        for (number, later) in parts.iter().enumerate().skip(1) {
            assert!(
                later == &parts[0],
                "{kind:?}: request {} carries other pinned parts than the first",
                number + 1
            );
        }
    }
}

#[test]
fn anthropic_marks_where_the_next_step_reads_from() {
    // Step 2's prompt starts with all of step 1's, and step 1 marked its end: step 2 reads it
    // from the cache.
    let requests = steps();
    let config = EndpointConfig::new(ProviderKind::Anthropic, "", "key-for-the-test");
    let first = body(&wire::build_request(&config, &requests[0]));
    let second = body(&wire::build_request(&config, &requests[1]));
    let marked = first["messages"][0]["content"]
        .as_array()
        .unwrap()
        .last()
        .unwrap();
    assert_eq!(marked["cache_control"]["type"], "ephemeral");
    let same_block = &second["messages"][0]["content"][0];
    assert_eq!(same_block["text"], marked["text"]);
    let last = second["messages"].as_array().unwrap().last().unwrap();
    let last_block = last["content"].as_array().unwrap().last().unwrap();
    assert_eq!(last_block["type"], "tool_result");
    assert_eq!(last_block["cache_control"]["type"], "ephemeral");
}
