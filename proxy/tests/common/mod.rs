//! What the proxy's tests share: the real binary started on 127.0.0.1 with a config of the
//! test's, and a scripted upstream (also on 127.0.0.1) that counts every request it receives.
//! Everything is bounded: each process and server is stopped when its handle is dropped, and
//! each wait has a timeout.

#![allow(dead_code)]

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A key no test could mistake for anything else.
pub const KEY: &str = "sk-askdb-TEST-KEY-7f3a9c1e5b";
pub const ORIGIN: &str = "https://docs.example.com";
pub const MODEL: &str = "gpt-test-mini";
/// The usage every scripted answer reports.
pub const PROMPT_TOKENS: u64 = 40;
pub const COMPLETION_TOKENS: u64 = 2;
pub const USAGE: u64 = PROMPT_TOKENS + COMPLETION_TOKENS;

/// A streamed answer, as an OpenAI-compatible server writes one (with a multi-byte character
/// cut between chunks, and usage in the last event).
pub const STREAM_CHUNKS: [&[u8]; 4] = [
    b"data: {\"choices\":[{\"delta\":{\"content\":\"H\xc3",
    b"\xa9llo\"}}],\"usage\":null}\n\n",
    b"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":2}}\n\n",
    b"data: [DONE]\n\n",
];

/// How the scripted upstream answers.
#[derive(Clone)]
pub enum Script {
    /// 200 with a chat completion and [`USAGE`], after `delay`; a stream when the body asks.
    Answer { delay: Duration },
    /// The provider refuses the key, quoting it.
    RefuseKey,
    /// A 400 whose message quotes the key.
    QuoteKey,
}

#[derive(Default)]
pub struct Seen {
    pub received: AtomicUsize,
    pub in_flight: AtomicUsize,
    pub most_in_flight: AtomicUsize,
    pub last_headers: Mutex<Option<HeaderMap>>,
    pub last_body: Mutex<Option<Value>>,
    pub last_path: Mutex<String>,
}

pub struct Upstream {
    pub address: String,
    pub seen: Arc<Seen>,
    script: Arc<Mutex<Script>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Upstream {
    pub async fn start(script: Script) -> Upstream {
        let seen = Arc::new(Seen::default());
        let script = Arc::new(Mutex::new(script));
        let app = Router::new()
            .fallback(answer)
            .with_state((seen.clone(), script.clone()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
        Upstream {
            address,
            seen,
            script,
            stop: Some(stop),
        }
    }

    pub fn received(&self) -> usize {
        self.seen.received.load(Ordering::SeqCst)
    }

    pub fn set(&self, script: Script) {
        *self.script.lock().unwrap() = script;
    }
}

impl Drop for Upstream {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

type UpstreamState = (Arc<Seen>, Arc<Mutex<Script>>);

async fn answer(State((seen, script)): State<UpstreamState>, request: Request) -> Response {
    seen.received.fetch_add(1, Ordering::SeqCst);
    let now = seen.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    seen.most_in_flight.fetch_max(now, Ordering::SeqCst);
    *seen.last_headers.lock().unwrap() = Some(request.headers().clone());
    *seen.last_path.lock().unwrap() = request.uri().to_string();
    let bytes = axum::body::to_bytes(request.into_body(), 10_000_000)
        .await
        .unwrap();
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    *seen.last_body.lock().unwrap() = Some(body.clone());
    let script = script.lock().unwrap().clone();
    let response = match script {
        Script::Answer { delay } => {
            tokio::time::sleep(delay).await;
            if body["stream"] == true {
                let chunks = futures_util::stream::iter(STREAM_CHUNKS).then(|chunk| async move {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    Ok::<_, std::convert::Infallible>(Bytes::from_static(chunk))
                });
                Response::builder()
                    .header("content-type", "text/event-stream")
                    .body(Body::from_stream(chunks))
                    .unwrap()
            } else {
                axum::Json(json!({
                    "choices": [{"message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": PROMPT_TOKENS, "completion_tokens": COMPLETION_TOKENS}
                }))
                .into_response()
            }
        }
        Script::RefuseKey => (
            StatusCode::UNAUTHORIZED,
            axum::Json(json!({"error": {"message": format!("Incorrect API key provided: {KEY}")}})),
        )
            .into_response(),
        Script::QuoteKey => (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"error": {"message": format!("bad request for key {KEY}")}})),
        )
            .into_response(),
    };
    seen.in_flight.fetch_sub(1, Ordering::SeqCst);
    response
}

use futures_util::StreamExt;

/// A folder of the test's own, removed when dropped.
pub struct Folder(pub PathBuf);

impl Folder {
    pub fn new(name: &str) -> Folder {
        let path =
            std::env::temp_dir().join(format!("askdb-proxy-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Folder(path)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The real askdb-proxy, started on a config; killed when dropped.
pub struct Proxy {
    child: Child,
    pub address: String,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Proxy {
    /// Starts `askdb-proxy serve` on `config` (written to `folder`) and waits for its line.
    pub fn start(folder: &Folder, config: &str) -> Proxy {
        let path = folder.0.join("askdb-proxy.toml");
        std::fs::write(&path, config).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_askdb-proxy"))
            .args(["serve", "--config"])
            .arg(&path)
            .env("TEST_PROVIDER_KEY", KEY)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let stderr_pipe = child.stderr.take().unwrap();
        let stderr_copy = stderr.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
                let mut text = stderr_copy.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        let (lines, first_line) = std::sync::mpsc::channel();
        let stdout = Arc::new(Mutex::new(String::new()));
        let stdout_pipe = child.stdout.take().unwrap();
        let stdout_copy = stdout.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout_pipe).lines().map_while(Result::ok) {
                stdout_copy.lock().unwrap().push_str(&format!("{line}\n"));
                let _ = lines.send(line);
            }
        });
        let line = first_line
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| {
                let _ = child.kill();
                panic!("askdb-proxy did not start: {}", stderr.lock().unwrap())
            });
        let address = line
            .strip_prefix("askdb-proxy listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .to_string();
        Proxy {
            child,
            address,
            stdout,
            stderr,
        }
    }

    /// Everything the proxy wrote so far.
    pub fn output(&self) -> String {
        format!(
            "{}{}",
            self.stdout.lock().unwrap(),
            self.stderr.lock().unwrap()
        )
    }

    pub fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(50));
        self.output()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The limits of a demo, as a TOML table.
pub struct Limits {
    pub reader_burst: u32,
    pub reader_per_minute: u32,
    pub reader_per_day: u64,
    pub requests_per_day: u64,
    pub tokens_per_day: u64,
}

pub const GENEROUS: Limits = Limits {
    reader_burst: 1000,
    reader_per_minute: 1000,
    reader_per_day: 1000,
    requests_per_day: 1000,
    tokens_per_day: 10_000_000,
};

/// A config with one OpenAI demo, `music`, pinned to [`first_request`]'s prefix, forwarding to
/// `upstream`; readers told apart by `x-forwarded-for` from 127.0.0.1.
pub fn config(folder: &Folder, upstream: &Upstream, limits: &Limits, global_tokens: u64) -> String {
    let pin = pin_of(&first_request());
    format!(
        r#"
listen = "127.0.0.1:0"
state = "{state}"
max_body_bytes = 4096
global_tokens_per_day = {global_tokens}
trusted_proxies = ["127.0.0.1"]
forwarded_header = "x-forwarded-for"

[demo.music]
provider = "openai"
upstream = "{upstream}"
key_env = "TEST_PROVIDER_KEY"
models = ["{MODEL}"]
max_tokens = 100
origins = ["{ORIGIN}"]
paid_by = "the Music docs"
pins = [{pin}]

[demo.music.limits]
reader_burst = {burst}
reader_per_minute = {per_minute}
reader_per_day = {per_day}
requests_per_day = {requests}
tokens_per_day = {tokens}
"#,
        state = folder.0.join("state.sqlite").display(),
        upstream = upstream.address,
        burst = limits.reader_burst,
        per_minute = limits.reader_per_minute,
        per_day = limits.reader_per_day,
        requests = limits.requests_per_day,
        tokens = limits.tokens_per_day,
    )
}

/// A first request as askdb's OpenAI format writes one.
pub fn first_request() -> Value {
    json!({
        "model": MODEL,
        "messages": [
            {"role": "system", "content": "You answer questions about music.db with run_sql."},
            {"role": "user", "content": "How many artists are there?"}
        ],
        "max_tokens": 50,
        "temperature": 0.0,
        "tools": [{"type": "function", "function": {
            "name": "run_sql", "description": "Runs one SELECT on music.db.",
            "parameters": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]}}}]
    })
}

pub fn sha256_hex(value: &Value) -> String {
    Sha256::digest(serde_json::to_string(value).unwrap().as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The config's pin for an OpenAI body, computed as docs/live-demos.md says.
pub fn pin_of(body: &Value) -> String {
    format!(
        r#"{{ system_sha256 = "{}", tools_sha256 = "{}" }}"#,
        sha256_hex(&body["messages"][0]),
        sha256_hex(&body["tools"])
    )
}

/// An HTTP client for the tests, with a timeout on everything.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

/// A finished exchange: status, headers, body.
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    pub fn reason(&self) -> String {
        self.json()["error"]["reason"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Headers and body as text, to look for the key in.
    pub fn text(&self) -> String {
        format!(
            "{:?}\n{}",
            self.headers,
            String::from_utf8_lossy(&self.body)
        )
    }
}

pub async fn send(request: reqwest::RequestBuilder) -> Answer {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.bytes().await.unwrap().to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

/// POSTs `body` to the demo's chat completions as reader `reader` (a forwarded address).
pub async fn ask(client: &reqwest::Client, proxy: &Proxy, reader: &str, body: &Value) -> Answer {
    send(
        client
            .post(format!("{}/demo/music/chat/completions", proxy.address))
            .header("origin", ORIGIN)
            .header("x-forwarded-for", reader)
            .header("content-type", "application/json")
            .body(body.to_string()),
    )
    .await
}

/// /stats as JSON.
pub async fn stats(client: &reqwest::Client, proxy: &Proxy) -> Value {
    send(
        client
            .get(format!("{}/stats", proxy.address))
            .header("accept", "application/json"),
    )
    .await
    .json()
}
