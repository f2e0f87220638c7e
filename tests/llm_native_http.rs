//! The native `HttpClient` (ureq) against a server on 127.0.0.1 started by each test: what it
//! sends, what it hands back whatever the status, and the words it finds for each way a
//! request can fail. No network beyond loopback.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use askdb::llm::http::{HttpClient, HttpRequest, NativeHttp};
use askdb::llm::{ChatRequest, EndpointConfig, HttpProvider, LlmError, LlmProvider, ProviderKind};
use futures::executor::block_on;
use std::net::TcpListener;
use std::time::Duration;
use support::fake_server::{closed_port_url, FakeServer, Reply};

fn client() -> NativeHttp {
    NativeHttp::new(Duration::from_secs(10))
}

fn post(url: String) -> HttpRequest {
    HttpRequest {
        url,
        headers: vec![
            ("Content-Type".into(), "application/json".into()),
            ("Authorization".into(), "Bearer sk-test".into()),
        ],
        body: r#"{"hello":"wörld"}"#.into(),
    }
}

#[test]
fn posts_the_headers_and_body_and_returns_the_answer() {
    let server = FakeServer::start(|_, _| Reply {
        status: 200,
        headers: vec![
            ("Content-Type".into(), "application/json".into()),
            ("Retry-After".into(), "3".into()),
        ],
        body: r#"{"ok":"ja ✓"}"#.into(),
    });
    let response = block_on(client().post(&post(format!("{}/v1/chat", server.url)))).unwrap();
    assert_eq!(response.status, 200);
    assert_eq!(response.body, r#"{"ok":"ja ✓"}"#);
    assert_eq!(response.header("retry-after"), Some("3"));

    let received = server.requests();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].method, "POST");
    assert_eq!(received[0].path, "/v1/chat");
    assert_eq!(received[0].header("authorization"), Some("Bearer sk-test"));
    assert_eq!(received[0].body, r#"{"hello":"wörld"}"#);
}

#[test]
fn an_error_status_is_an_answer_with_its_body() {
    let server = FakeServer::start(|_, _| {
        Reply::json(500, serde_json::json!({"error": {"message": "boom"}}))
    });
    let response = block_on(client().post(&post(server.url.clone()))).unwrap();
    assert_eq!(response.status, 500);
    assert!(response.body.contains("boom"));
}

#[test]
fn a_redirect_is_not_followed_so_the_key_stays_where_it_was_sent() {
    let elsewhere = FakeServer::start(|_, _| Reply::json(200, serde_json::json!({})));
    let target = format!("{}/steal", elsewhere.url);
    let server = FakeServer::start(move |_, _| Reply {
        status: 307,
        headers: vec![("Location".into(), target.clone())],
        body: String::new(),
    });
    let response = block_on(client().post(&post(server.url.clone()))).unwrap();
    assert_eq!(response.status, 307);
    assert!(elsewhere.requests().is_empty());
}

#[test]
fn a_refused_connection_says_to_check_the_server() {
    let error = block_on(client().post(&post(closed_port_url()))).unwrap_err();
    assert_eq!(
        error.message,
        "the connection was refused: is the server running at this address?"
    );
}

#[test]
fn a_server_that_never_answers_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    // Accepts, reads nothing, answers nothing.
    std::thread::spawn(move || {
        let _held: Vec<_> = listener.incoming().take(1).collect();
        std::thread::sleep(Duration::from_secs(30));
    });
    let client = NativeHttp::new(Duration::from_millis(300));
    let error = block_on(client.post(&post(url))).unwrap_err();
    assert_eq!(
        error.message,
        "no answer within 300 ms: the server is slow or not answering"
    );
}

#[test]
fn a_url_that_is_not_one_is_named() {
    let error = block_on(client().post(&post("not a url".into()))).unwrap_err();
    assert!(error.message.contains("not valid"), "{}", error.message);
}

#[test]
fn a_key_with_a_line_break_is_refused_without_quoting_it() {
    let mut request = post(closed_port_url());
    request.headers[1].1 = "Bearer sk-secret\nX-Evil: 1".into();
    let error = block_on(client().post(&request)).unwrap_err();
    assert_eq!(
        error.message,
        "a header could not be sent: check the API key for stray characters"
    );
}

#[test]
fn the_provider_reads_a_documented_reply_through_it() {
    let server = FakeServer::start(|_, _| {
        let body = std::fs::read_to_string(support::fixture("llm/openai/response_tool_call.json"))
            .unwrap();
        Reply {
            status: 200,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body,
        }
    });
    let config = EndpointConfig::new(ProviderKind::OpenAi, format!("{}/v1", server.url), "sk-x");
    let provider = HttpProvider::new(config, client());
    let reply = block_on(provider.complete(&request())).unwrap();
    assert_eq!(reply.tool_calls.len(), 1);
    assert_eq!(server.requests()[0].path, "/v1/chat/completions");
}

#[test]
fn an_unreachable_endpoint_is_a_network_error_naming_the_address() {
    let url = closed_port_url();
    let config = EndpointConfig::new(ProviderKind::Anthropic, url.clone(), "key");
    let error = block_on(HttpProvider::new(config, client()).complete(&request())).unwrap_err();
    let LlmError::Network { base_url, message } = error else {
        panic!("{error:?}");
    };
    assert_eq!(base_url, url);
    assert!(message.contains("refused"), "{message}");
}

fn request() -> ChatRequest {
    ChatRequest {
        model: "m".into(),
        system: "s".into(),
        messages: vec![askdb::llm::Message::User { text: "q".into() }],
        tools: vec![],
        temperature: 0.0,
        max_tokens: 100,
    }
}
