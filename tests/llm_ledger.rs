//! The ledger of what was sent to the model: one entry per HTTP request, with the exact bodies,
//! the bytes, the status and the tokens, totals that add up, and never the API key, whichever
//! provider carries it where.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::llm::http::{HttpClient, HttpRequest, HttpResponse, TransportError};
use askdb::llm::ledger::{
    endpoint_of, Ledger, LedgerEntry, RecordedHttp, RequestOutcome, KEY_REMOVED,
};
use askdb::llm::{
    ChatRequest, EndpointConfig, HttpProvider, LlmProvider, Message, ProviderKind, ToolSpec, Usage,
};
use futures::executor::block_on;
use futures::FutureExt;
use serde_json::json;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::Path;
use support::scripted_llm::FakeClock;

const KINDS: [ProviderKind; 3] = [
    ProviderKind::OpenAi,
    ProviderKind::Anthropic,
    ProviderKind::Gemini,
];

fn dir(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::OpenAi => "openai",
        ProviderKind::Anthropic => "anthropic",
        ProviderKind::Gemini => "gemini",
    }
}

fn fixture(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/llm")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("read {}: {e}", full.display()))
}

fn answer(status: u16, body: &str) -> Result<HttpResponse, TransportError> {
    Ok(HttpResponse {
        status,
        headers: vec![("content-type".into(), "application/json".into())],
        body: body.to_string(),
    })
}

/// Answers from a script (and takes its time, on the fake clock), recording what it was sent.
struct ScriptedHttp {
    answers: RefCell<VecDeque<Result<HttpResponse, TransportError>>>,
    sent: RefCell<Vec<HttpRequest>>,
    clock: FakeClock,
}

impl ScriptedHttp {
    fn new(clock: &FakeClock, answers: Vec<Result<HttpResponse, TransportError>>) -> Self {
        ScriptedHttp {
            answers: RefCell::new(answers.into()),
            sent: RefCell::default(),
            clock: clock.clone(),
        }
    }
}

impl HttpClient for &ScriptedHttp {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        self.sent.borrow_mut().push(request.clone());
        self.clock.advance(250.0);
        let next = self.answers.borrow_mut().pop_front();
        match next {
            Some(answer) => answer,
            // No answer scripted: the connection hangs.
            None => std::future::pending().await,
        }
    }
}

fn question(kind: ProviderKind) -> ChatRequest {
    ChatRequest {
        model: format!("{}-model", dir(kind)),
        system: "You answer questions about a SQLite database.".into(),
        messages: vec![Message::User {
            text: "How many customers are in Berlin?".into(),
        }],
        tools: vec![ToolSpec {
            name: "run_sql".into(),
            description: "Run one read-only SQL query.".into(),
            parameters: json!({"type": "object", "properties": {"sql": {"type": "string"}}}),
        }],
        temperature: 0.0,
        max_tokens: 512,
    }
}

/// Asks `question(kind)` once per scripted answer, through the ledger; returns the entries and
/// what the server got.
fn exchanges(
    kind: ProviderKind,
    config: &EndpointConfig,
    answers: Vec<Result<HttpResponse, TransportError>>,
) -> (Vec<LedgerEntry>, Vec<HttpRequest>, Ledger) {
    let clock = FakeClock::default();
    let count = answers.len();
    let http = ScriptedHttp::new(&clock, answers);
    let ledger = Ledger::new();
    let provider = HttpProvider::new(
        config.clone(),
        RecordedHttp::new(&http, ledger.clone(), kind, clock.clone()),
    );
    for _ in 0..count {
        let _ = block_on(provider.complete(&question(kind)));
    }
    let sent = http.sent.borrow().clone();
    (ledger.entries(), sent, ledger)
}

#[test]
fn each_request_is_an_entry_with_its_exact_bodies_status_bytes_and_tokens() {
    for kind in KINDS {
        let text = fixture(&format!("{}/response_text.json", dir(kind)));
        let cached = fixture(&format!("{}/response_cached_prompt.json", dir(kind)));
        let error = fixture(&format!("{}/error_500.json", dir(kind)));
        let config = EndpointConfig::new(kind, "", "k-123456");
        let (entries, sent, ledger) = exchanges(
            kind,
            &config,
            vec![
                answer(200, &text),
                answer(500, &error),
                answer(200, &cached),
            ],
        );
        assert_eq!(entries.len(), 3, "{kind:?}");
        for (index, entry) in entries.iter().enumerate() {
            assert_eq!(entry.number, index + 1);
            assert_eq!(entry.provider, kind);
            assert_eq!(
                entry.endpoint, sent[index].url,
                "{kind:?}: the URL has no query"
            );
            assert_eq!(
                entry.request_body, sent[index].body,
                "{kind:?}: byte for byte"
            );
            assert_eq!(entry.bytes_sent, sent[index].body.len());
            assert_eq!(entry.sent_at_ms, 250.0 * index as f64);
            assert_eq!(entry.duration_ms, Some(250.0));
        }
        let statuses: Vec<&RequestOutcome> = entries.iter().map(|e| &e.outcome).collect();
        assert_eq!(
            statuses,
            [
                &RequestOutcome::Answered { status: 200 },
                &RequestOutcome::Answered { status: 500 },
                &RequestOutcome::Answered { status: 200 },
            ]
        );
        let bodies: Vec<&str> = entries.iter().map(|e| e.response_body.as_str()).collect();
        assert_eq!(bodies, [&text, &error, &cached]);
        let received: Vec<usize> = entries.iter().map(|e| e.bytes_received).collect();
        assert_eq!(received, [text.len(), error.len(), cached.len()]);

        // Tokens as the provider reported them; an error reports none.
        assert!(entries[0].usage.is_some());
        assert_eq!(entries[1].usage, None);
        assert!(
            entries[2].usage.unwrap().cached_input_tokens > 0,
            "{kind:?}"
        );

        let totals = ledger.totals();
        assert_eq!(totals.requests, 3);
        assert_eq!(
            totals.bytes_sent,
            sent.iter().map(|r| r.body.len()).sum::<usize>()
        );
        assert_eq!(
            totals.bytes_received,
            text.len() + error.len() + cached.len()
        );
        let mut usage = entries[0].usage.unwrap();
        usage += entries[2].usage.unwrap();
        assert_eq!(totals.usage, usage, "{kind:?}");
    }
}

#[test]
fn no_entry_holds_the_key_for_any_provider() {
    const KEY: &str = "sk-ledger-secret-7c1e9a";
    for kind in KINDS {
        // A key where each format puts it (a header), and typed into the base URL as well:
        // user info and a query that a careless link could carry.
        let base = format!(
            "https://user:{KEY}@llm.example{}?key={KEY}",
            match kind {
                ProviderKind::OpenAi => "/v1",
                ProviderKind::Anthropic => "",
                ProviderKind::Gemini => "/v1beta",
            }
        );
        let config = EndpointConfig::new(kind, base, KEY);
        // Servers that echo the key back: in an error body, and in a transport error.
        let echo = format!(r#"{{"error": {{"message": "Incorrect API key provided: {KEY}"}}}}"#);
        let bearer = format!(r#"{{"error": {{"message": "bad header: Bearer {KEY}"}}}}"#);
        let (entries, sent, _) = exchanges(
            kind,
            &config,
            vec![
                answer(401, &echo),
                answer(400, &bearer),
                Err(TransportError {
                    message: format!("connection to {KEY} refused"),
                }),
            ],
        );
        // The key did go, in the header the format wants: the test is about the ledger.
        let header = match kind {
            ProviderKind::OpenAi => "authorization",
            ProviderKind::Anthropic => "x-api-key",
            ProviderKind::Gemini => "x-goog-api-key",
        };
        assert!(sent[0].header(header).unwrap().contains(KEY), "{kind:?}");

        assert_eq!(entries.len(), 3);
        let recorded = format!("{entries:?}");
        assert!(!recorded.contains(KEY), "{kind:?}: {recorded}");
        assert!(
            !recorded.contains("sk-ledger"),
            "{kind:?}: no piece of it either"
        );
        assert!(entries[0].response_body.contains(KEY_REMOVED), "{kind:?}");
        assert!(entries[1].response_body.contains(KEY_REMOVED), "{kind:?}");
        assert_eq!(
            entries[2].outcome,
            RequestOutcome::NoAnswer {
                reason: format!("connection to {KEY_REMOVED} refused")
            }
        );
        assert!(
            entries[0].endpoint.starts_with("https://llm.example"),
            "{}",
            entries[0].endpoint
        );
        // The byte counts are of what really went and came.
        assert_eq!(entries[0].bytes_received, echo.len());
    }
}

#[test]
fn a_stopped_request_stays_in_the_ledger_as_stopped() {
    let clock = FakeClock::default();
    let http = ScriptedHttp::new(&clock, Vec::new()); // never answers
    let ledger = Ledger::new();
    let kind = ProviderKind::Anthropic;
    let provider = HttpProvider::new(
        EndpointConfig::new(kind, "", "k"),
        RecordedHttp::new(&http, ledger.clone(), kind, clock.clone()),
    );
    let request = question(kind);
    {
        let mut call = Box::pin(provider.complete(&request));
        assert!((&mut call).now_or_never().is_none(), "still waiting");
        assert_eq!(ledger.entries()[0].outcome, RequestOutcome::Waiting);
        assert_eq!(ledger.entries()[0].duration_ms, None);
    } // dropped: the question was stopped
    let entry = &ledger.entries()[0];
    assert_eq!(entry.outcome, RequestOutcome::Stopped);
    assert_eq!(entry.duration_ms, Some(250.0));
    assert_eq!(
        entry.request_body,
        http.sent.borrow()[0].body,
        "it was sent"
    );
}

#[test]
fn the_listener_hears_every_change() {
    let heard = std::rc::Rc::new(std::cell::Cell::new(0));
    let counter = heard.clone();
    let ledger = Ledger::with_listener(move || counter.set(counter.get() + 1));
    let clock = FakeClock::default();
    let kind = ProviderKind::OpenAi;
    let http = ScriptedHttp::new(
        &clock,
        vec![answer(200, &fixture("openai/response_text.json"))],
    );
    let provider = HttpProvider::new(
        EndpointConfig::new(kind, "", ""),
        RecordedHttp::new(&http, ledger.clone(), kind, clock),
    );
    block_on(provider.complete(&question(kind))).unwrap();
    // Sent, then answered.
    assert_eq!(heard.get(), 2);
    assert_eq!(ledger.totals().usage, Usage::new(412, 9));
}

#[test]
fn endpoints_keep_no_user_info_query_or_fragment() {
    let cases = [
        (
            "https://api.openai.com/v1/chat/completions",
            "https://api.openai.com/v1/chat/completions",
        ),
        (
            "https://me:secret@proxy.example:8443/v1/messages?key=abc#frag",
            "https://proxy.example:8443/v1/messages",
        ),
        ("http://127.0.0.1:11434?x=1", "http://127.0.0.1:11434"),
        ("http://a@b@host/p", "http://host/p"),
        ("host/path#x", "host/path"),
        ("", ""),
    ];
    for (url, expected) in cases {
        assert_eq!(endpoint_of(url), expected, "{url}");
    }
}
