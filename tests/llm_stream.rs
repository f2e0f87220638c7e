//! Streamed replies (issue 39), proven against the whole replies: each provider's documented
//! stream, fed in two pieces cut at every byte, gives the deltas in order and, at the end, the
//! reply its documented whole answer gives (`tests/fixtures/llm/*/response_*.json` beside
//! `stream_*.sse`). Then what a stream may do wrong: end early, carry an error, split a tool
//! call, leave the usage out; and the provider over a client that streams.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

use askdb::llm::http::{HttpClient, HttpRequest, HttpResponse, TransportError};
use askdb::llm::ledger::{Ledger, RecordedHttp, RequestOutcome};
use askdb::llm::stream::Delta;
use askdb::llm::{
    wire, ChatRequest, EndpointConfig, HttpProvider, LlmError, LlmProvider, Message, ModelReply,
    ProviderKind, Usage,
};
use futures::executor::block_on;
use std::cell::{Cell, RefCell};
use std::future::Future;
use support::scripted_llm::FakeClock;

mod support;

fn fixture(path: &str) -> String {
    let path = format!("{}/tests/fixtures/llm/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn answer(content_type: &str, body: &str) -> HttpResponse {
    HttpResponse {
        status: 200,
        headers: vec![("Content-Type".into(), content_type.into())],
        body: body.into(),
    }
}

fn event_stream(body: &str) -> HttpResponse {
    answer("text/event-stream; charset=utf-8", body)
}

/// The reply a whole stream reads into (as the ledger and the agent read it).
fn read_stream(kind: ProviderKind, body: &str) -> Result<ModelReply, LlmError> {
    wire::parse_response(kind, &event_stream(body))
}

/// The deltas and the end of `body` fed in two pieces cut at every byte, and byte by byte:
/// every way must give the same deltas' text and tool calls, and the same end, as the whole
/// body at once. Returns the deltas of the whole body.
fn deltas_every_way(kind: ProviderKind, body: &str) -> Vec<Delta> {
    let bytes = body.as_bytes();
    let whole = {
        let mut stream = wire::reply_stream(kind);
        let deltas = stream.feed(bytes);
        (deltas, stream.finish())
    };
    let pieces_of = |pieces: &[&[u8]]| {
        let mut stream = wire::reply_stream(kind);
        let deltas: Vec<Delta> = pieces.iter().flat_map(|p| stream.feed(p)).collect();
        (deltas, stream.finish())
    };
    for cut in 0..=bytes.len() {
        let (deltas, end) = pieces_of(&[&bytes[..cut], &bytes[cut..]]);
        assert_eq!(end, whole.1, "{kind:?}, cut at byte {cut}");
        assert_eq!(
            same_shape(&deltas),
            same_shape(&whole.0),
            "{kind:?}, cut at {cut}"
        );
    }
    let singles: Vec<&[u8]> = bytes.chunks(1).collect();
    let (deltas, end) = pieces_of(&singles);
    assert_eq!(end, whole.1, "{kind:?}, byte by byte");
    assert_eq!(
        same_shape(&deltas),
        same_shape(&whole.0),
        "{kind:?}, byte by byte"
    );
    whole.0
}

/// Deltas as what they add up to: the text, the calls' names, each call's arguments (a
/// piece of text may be cut differently when the bytes are; what it adds up to may not).
fn same_shape(deltas: &[Delta]) -> (String, Vec<String>, Vec<String>) {
    let mut text = String::new();
    let mut names = Vec::new();
    let mut arguments: Vec<String> = Vec::new();
    for delta in deltas {
        match delta {
            Delta::Text(piece) => text.push_str(piece),
            Delta::ToolCall { index, name } => {
                assert_eq!(*index, names.len(), "calls are numbered in order");
                names.push(name.clone());
                arguments.push(String::new());
            }
            Delta::ToolArguments { index, piece } => arguments[*index].push_str(piece),
        }
    }
    (text, names, arguments)
}

#[test]
fn each_documented_stream_reads_as_its_whole_reply() {
    let cases = [
        (ProviderKind::OpenAi, "openai", "text"),
        (ProviderKind::OpenAi, "openai", "tool_call"),
        (ProviderKind::Anthropic, "anthropic", "text"),
        (ProviderKind::Anthropic, "anthropic", "tool_call"),
        (ProviderKind::Gemini, "gemini", "text"),
        (ProviderKind::Gemini, "gemini", "tool_call"),
    ];
    for (kind, folder, what) in cases {
        let whole = answer(
            "application/json",
            &fixture(&format!("{folder}/response_{what}.json")),
        );
        let whole = wire::parse_response(kind, &whole).unwrap();
        let body = fixture(&format!("{folder}/stream_{what}.sse"));
        let streamed = read_stream(kind, &body).unwrap();
        assert_eq!(streamed.text, whole.text, "{folder} {what}");
        assert_eq!(streamed.tool_calls, whole.tool_calls, "{folder} {what}");
        assert_eq!(streamed.usage, whole.usage, "{folder} {what}");
        if what == "tool_call" {
            // Gemini's turn goes back as it came: the call's part with its signature.
            assert_eq!(streamed.raw, whole.raw, "{folder} {what}");
        }
        let (text, names, arguments) = same_shape(&deltas_every_way(kind, &body));
        assert_eq!(
            Some(text).filter(|t| !t.is_empty()),
            whole.text,
            "{folder} {what}"
        );
        let called: Vec<String> = whole.tool_calls.iter().map(|c| c.name.clone()).collect();
        assert_eq!(names, called, "{folder} {what}");
        for (written, call) in arguments.iter().zip(&whole.tool_calls) {
            let written: serde_json::Value = serde_json::from_str(written).unwrap();
            let whole: serde_json::Value = serde_json::from_str(&call.arguments).unwrap();
            assert_eq!(
                written, whole,
                "{folder} {what}: the arguments as they were written"
            );
        }
    }
}

#[test]
fn the_text_arrives_before_the_stream_ends() {
    // Positive control for the deltas: the first words come with the first event that has
    // them, long before the closing event.
    let body = fixture("anthropic/stream_text.sse");
    let cut = body.find("event: content_block_stop").unwrap();
    let mut stream = wire::reply_stream(ProviderKind::Anthropic);
    let deltas = stream.feed(&body.as_bytes()[..cut]);
    assert_eq!(
        deltas,
        vec![
            Delta::Text("There are 7".into()),
            Delta::Text(" customers in Berlin.".into())
        ]
    );
}

#[test]
fn a_stream_that_ends_early_is_an_error_that_says_so() {
    for (kind, folder) in [
        (ProviderKind::OpenAi, "openai"),
        (ProviderKind::Anthropic, "anthropic"),
        (ProviderKind::Gemini, "gemini"),
    ] {
        for what in ["text", "tool_call"] {
            let body = fixture(&format!("{folder}/stream_{what}.sse"));
            // Cut before the event that closes it (OpenAI: before finish_reason and [DONE]).
            let closing = match kind {
                ProviderKind::OpenAi => body.find("\"finish_reason\":\"").unwrap(),
                ProviderKind::Anthropic => body.find("event: message_delta").unwrap(),
                _ => body.find("\"finishReason\"").unwrap(),
            };
            let cut = body[..closing].rfind("data:").unwrap();
            let error = read_stream(kind, &body[..cut]).unwrap_err();
            assert!(
                error.to_string().contains("ended before it was complete"),
                "{folder} {what}: {error}"
            );
            // The whole stream, the control, reads.
            assert!(read_stream(kind, &body).is_ok(), "{folder} {what}");
        }
    }
}

#[test]
fn an_error_in_the_stream_is_the_providers_error() {
    // Anthropic: an `error` event after the stream began (its documented example).
    let started = fixture("anthropic/stream_text.sse");
    let body = format!(
        "{}event: error\ndata: {{\"type\": \"error\", \"error\": {{\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}}}\n\n",
        &started[..started.find("event: ping").unwrap()]
    );
    let error = read_stream(ProviderKind::Anthropic, &body).unwrap_err();
    assert!(matches!(error, LlmError::Server { .. }), "{error:?}");
    assert!(error.is_retryable());
    // OpenRouter: an error chunk with the real status in `code`.
    let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n\
                data: {\"error\":{\"code\":502,\"message\":\"Provider returned error\"},\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\"}]}\n\n";
    let error = read_stream(ProviderKind::OpenAi, body).unwrap_err();
    assert!(
        matches!(error, LlmError::Server { status: 502, .. }),
        "{error:?}"
    );
    // Gemini: an error object as an event.
    let body = "data: {\"error\": {\"code\": 429, \"message\": \"Resource exhausted\", \"status\": \"RESOURCE_EXHAUSTED\"}}\r\n\r\n";
    let error = read_stream(ProviderKind::Gemini, body).unwrap_err();
    assert!(matches!(error, LlmError::RateLimited { .. }), "{error:?}");
    // Nothing after an error is read: no deltas, the same error.
    let mut stream = wire::reply_stream(ProviderKind::Gemini);
    stream.feed(body.as_bytes());
    assert!(stream
        .feed(fixture("gemini/stream_text.sse").as_bytes())
        .is_empty());
    assert!(matches!(stream.finish(), Err(LlmError::RateLimited { .. })));
}

#[test]
fn tool_calls_split_across_chunks_and_servers_that_send_them_whole() {
    // Two calls interleaved by index, the second's name in its own chunk.
    let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"query\",\"arguments\":\"{\\\"sq\"}}]}}]}\n\n\
                data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"\",\"arguments\":\"\"}}]}}]}\n\n\
                data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"name\":\"list_tables\",\"arguments\":\"{}\"}}]}}]}\n\n\
                data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"l\\\": \\\"SELECT 1\\\"}\"}}]}}]}\n\n\
                data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n";
    let reply = read_stream(ProviderKind::OpenAi, body).unwrap();
    let calls: Vec<(&str, &str, &str)> = reply
        .tool_calls
        .iter()
        .map(|c| (c.id.as_str(), c.name.as_str(), c.arguments.as_str()))
        .collect();
    assert_eq!(
        calls,
        vec![
            ("a", "query", "{\"sql\": \"SELECT 1\"}"),
            ("b", "list_tables", "{}")
        ]
    );
    deltas_every_way(ProviderKind::OpenAi, body);
    // Ollama: each call whole in one chunk, without an index; no [DONE] after finish_reason.
    let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"call_1\",\"function\":{\"name\":\"query\",\"arguments\":\"{\\\"sql\\\":\\\"SELECT 2\\\"}\"}},{\"id\":\"call_2\",\"function\":{\"name\":\"list_tables\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}]}\n\n\
                data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":\"tool_calls\"}]}\n\n";
    let reply = read_stream(ProviderKind::OpenAi, body).unwrap();
    let names: Vec<&str> = reply.tool_calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["query", "list_tables"]);
    assert_eq!(reply.tool_calls[0].arguments, "{\"sql\":\"SELECT 2\"}");
    // Anthropic: text, then a tool call whose input comes in pieces (block 1 is call 0).
    let body = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n\
                event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n\
                event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Checking.\"}}\n\n\
                event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"final_answer\",\"input\":{}}}\n\n\
                event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"answer\\\": \\\"Thr\"}}\n\n\
                event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"ee.\\\"}\"}}\n\n\
                event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":12}}\n\n\
                event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let reply = read_stream(ProviderKind::Anthropic, body).unwrap();
    assert_eq!(reply.text.as_deref(), Some("Checking."));
    assert_eq!(reply.tool_calls[0].arguments, "{\"answer\":\"Three.\"}");
    assert_eq!(reply.usage, Usage::new(5, 12));
    let (_, names, arguments) = same_shape(&deltas_every_way(ProviderKind::Anthropic, body));
    assert_eq!(names, ["final_answer"]);
    assert_eq!(arguments, ["{\"answer\": \"Three.\"}"]);
}

#[test]
fn a_stream_without_usage_reads_with_none() {
    let body = fixture("openai/stream_text.sse");
    let without: String = body
        .split("\n\n")
        .filter(|event| !event.contains("\"usage\":{"))
        .map(|event| format!("{event}\n\n"))
        .collect();
    assert!(
        !without.contains("prompt_tokens"),
        "positive control: the usage chunk is gone"
    );
    let reply = read_stream(ProviderKind::OpenAi, &without).unwrap();
    assert_eq!(
        reply.text.as_deref(),
        Some("There are 7 customers in Berlin.")
    );
    assert_eq!(reply.usage, Usage::default());
}

#[test]
fn a_server_that_does_not_stream_is_read_whole() {
    // Asked for a stream, a server answers JSON: read as before, no delta.
    let whole = fixture("openai/response_text.json");
    let http = Script::new(answer("application/json", &whole), 7);
    let config = EndpointConfig::new(ProviderKind::OpenAi, "http://localhost:11434/v1", "");
    let provider = HttpProvider::new(config, &http).streaming(true);
    let mut deltas = Vec::new();
    let reply = block_on(provider.complete_streaming(&question(), &mut |d| deltas.push(d)));
    assert_eq!(
        reply.unwrap().text.as_deref(),
        Some("There are 7 customers in Berlin.")
    );
    assert!(deltas.is_empty());
    assert!(http.sent.borrow()[0].body.contains("\"stream\":true"));
}

#[test]
fn the_provider_streams_asks_for_a_stream_and_the_ledger_keeps_its_bytes() {
    for (kind, folder) in [
        (ProviderKind::OpenAi, "openai"),
        (ProviderKind::Anthropic, "anthropic"),
        (ProviderKind::Gemini, "gemini"),
    ] {
        let body = fixture(&format!("{folder}/stream_text.sse"));
        let http = Script::new(event_stream(&body), 5);
        let ledger = Ledger::new();
        let recorded = RecordedHttp::new(&http, ledger.clone(), kind, FakeClock::default());
        let config = EndpointConfig::new(kind, "", "secret-key-123456");
        let provider = HttpProvider::new(config.clone(), recorded).streaming(true);
        let mut deltas = Vec::new();
        let reply =
            block_on(provider.complete_streaming(&question(), &mut |d| deltas.push(d))).unwrap();
        assert_eq!(
            reply.text.as_deref(),
            Some("There are 7 customers in Berlin."),
            "{folder}"
        );
        // The deltas came while the body was read, in pieces of 5 bytes.
        assert!(
            http.pieces.get() > 10,
            "{folder}: {} pieces",
            http.pieces.get()
        );
        assert_eq!(
            same_shape(&deltas).0,
            "There are 7 customers in Berlin.",
            "{folder}"
        );
        // Asked as a stream, the way each provider documents.
        let sent = http.sent.borrow()[0].clone();
        match kind {
            ProviderKind::Gemini => assert!(sent.url.ends_with(":streamGenerateContent?alt=sse")),
            _ => assert!(sent.body.contains("\"stream\":true"), "{folder}"),
        }
        let entry = &ledger.entries()[0];
        assert_eq!(
            entry.response_body, body,
            "{folder}: the stream's bytes as they came"
        );
        assert_eq!(entry.usage, Some(reply.usage), "{folder}");
        // And put together: the body its whole reply would have, which reads as the reply.
        let assembled = entry
            .assembled_body
            .clone()
            .expect("a streamed answer is put together");
        let whole = answer("application/json", &assembled);
        assert_eq!(
            wire::parse_response(kind, &whole),
            Ok(reply.clone()),
            "{folder}"
        );
        // Not streaming, the same provider asks for a whole reply.
        let plain = HttpProvider::new(config, &http).streaming(false);
        let _ = block_on(plain.complete_streaming(&question(), &mut |_| {}));
        let sent = http.sent.borrow()[1].clone();
        assert!(
            !sent.body.contains("\"stream\"") && !sent.url.contains("stream"),
            "{folder}"
        );
    }
}

#[test]
fn a_stopped_stream_leaves_what_had_come_in_the_ledger() {
    let body = fixture("anthropic/stream_text.sse");
    let http = Script::new(event_stream(&body), 40).stopping_after(3);
    let ledger = Ledger::new();
    let recorded = RecordedHttp::new(
        &http,
        ledger.clone(),
        ProviderKind::Anthropic,
        FakeClock::default(),
    );
    let provider = HttpProvider::new(
        EndpointConfig::new(ProviderKind::Anthropic, "", ""),
        recorded,
    )
    .streaming(true);
    // The script's answer never ends after three pieces: the call is dropped, as Stop does.
    let (request, mut ignore) = (question(), |_| {});
    let mut call = Box::pin(provider.complete_streaming(&request, &mut ignore));
    let waker = futures::task::noop_waker();
    let mut context = std::task::Context::from_waker(&waker);
    assert!(call.as_mut().poll(&mut context).is_pending());
    drop(call);
    let entry = &ledger.entries()[0];
    assert_eq!(entry.outcome, RequestOutcome::Stopped);
    assert_eq!(entry.response_body, body[..120]);
    assert_eq!(entry.bytes_received, 120);
}

fn question() -> ChatRequest {
    ChatRequest {
        model: "m-1".into(),
        system: "Answer from the data.".into(),
        messages: vec![Message::User {
            text: "How many customers in Berlin?".into(),
        }],
        tools: Vec::new(),
        temperature: 0.0,
        max_tokens: 100,
    }
}

/// Answers every request with one response, its body handed on in pieces of `piece` bytes;
/// with `stopping_after`, it hands that many pieces and then never ends.
struct Script {
    response: HttpResponse,
    piece: usize,
    stop_after: Option<usize>,
    sent: RefCell<Vec<HttpRequest>>,
    pieces: Cell<usize>,
}

impl Script {
    fn new(response: HttpResponse, piece: usize) -> Script {
        Script {
            response,
            piece,
            stop_after: None,
            sent: RefCell::new(Vec::new()),
            pieces: Cell::new(0),
        }
    }

    fn stopping_after(self, pieces: usize) -> Script {
        Script {
            stop_after: Some(pieces),
            ..self
        }
    }
}

impl HttpClient for &Script {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        self.sent.borrow_mut().push(request.clone());
        Ok(self.response.clone())
    }

    async fn post_streaming(
        &self,
        request: &HttpRequest,
        on_body: &mut dyn FnMut(&[u8]),
    ) -> Result<HttpResponse, TransportError> {
        self.sent.borrow_mut().push(request.clone());
        if askdb::llm::http::streams_its_body(&self.response) {
            for (number, piece) in self.response.body.as_bytes().chunks(self.piece).enumerate() {
                if Some(number) == self.stop_after {
                    futures::future::pending::<()>().await;
                }
                self.pieces.set(self.pieces.get() + 1);
                on_body(piece);
            }
        }
        Ok(self.response.clone())
    }
}
