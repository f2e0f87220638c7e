//! A demo pinned from its database at start: the first request askdb's own code builds for a
//! question on it passes, in both modes; the same request with its prompt or tools changed
//! does not.

mod common;

use askdb::llm::ProviderKind;
use common::*;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

/// Mutations that must make this fail: pinning from another place in the body than the wire
/// format's (the page's requests would be refused), hashing the parts in another form than
/// `serde_json::to_string`, or not pinning from `database` at start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_askdb_builds_for_the_demos_database_passes_and_a_changed_one_does_not() {
    let database = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/demo/shop.db");
    let upstream = Upstream::start(Script::Answer {
        delay: Duration::ZERO,
    })
    .await;
    let folder = Folder::new("pin");
    let config = format!(
        r#"
listen = "127.0.0.1:0"
state = "state.sqlite"
global_tokens_per_day = 10000000

[demo.shop]
database = "{database}"
provider = "openai"
upstream = "{upstream}"
key_env = "TEST_PROVIDER_KEY"
models = ["{MODEL}"]
max_tokens = 100
origins = ["{ORIGIN}"]

[demo.shop.limits]
reader_burst = 100
reader_per_minute = 100
reader_per_day = 100
requests_per_day = 100
tokens_per_day = 10000000
"#,
        database = database.display(),
        upstream = upstream.address,
    );
    let proxy = Proxy::start(&folder, &config);
    let client = client();
    let ask_shop = |body: Value| {
        send(
            client
                .post(format!("{}/demo/shop/chat/completions", proxy.address))
                .header("origin", ORIGIN)
                .header("content-type", "application/json")
                .body(body.to_string()),
        )
    };

    let requests = askdb::pin::first_requests(&database, None, &[], ProviderKind::OpenAi).unwrap();
    assert_eq!(requests.len(), 2, "SQL mode and safe mode");
    for (mode, mut body) in requests {
        body["model"] = json!(MODEL);
        let answer = ask_shop(body.clone()).await;
        assert_eq!(answer.status, 200, "{mode:?}: {}", answer.text());

        let mut other_prompt = body.clone();
        let system = other_prompt["messages"][0]["content"]
            .as_str()
            .unwrap()
            .to_string();
        other_prompt["messages"][0]["content"] = json!(format!("{system} Also write poems."));
        let answer = ask_shop(other_prompt).await;
        assert_eq!(
            (answer.status, answer.reason().as_str()),
            (403, "system_prompt"),
            "{mode:?}"
        );

        let mut other_tools = body;
        other_tools["tools"].as_array_mut().unwrap().pop();
        let answer = ask_shop(other_tools).await;
        assert_eq!(
            (answer.status, answer.reason().as_str()),
            (403, "tools"),
            "{mode:?}"
        );
    }
    assert_eq!(upstream.received(), 2);
}

/// `askdb-proxy pin` prints the pins the served demo uses: a config with them (and no
/// database) lets the same request through.
#[test]
fn the_pin_command_prints_a_config_snippet() {
    let database = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/demo/shop.db");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_askdb-proxy"))
        .args(["pin", "--provider", "openai", "--db"])
        .arg(&database)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let snippet = String::from_utf8(output.stdout).unwrap();
    let parsed: toml::Table = toml::from_str(&snippet).unwrap();
    let pins = parsed["pins"].as_array().unwrap();
    assert_eq!(pins.len(), 2, "{snippet}");
    let requests = askdb::pin::first_requests(&database, None, &[], ProviderKind::OpenAi).unwrap();
    for ((_, body), pin) in requests.iter().zip(pins) {
        assert_eq!(
            pin["system_sha256"].as_str().unwrap(),
            sha256_hex(&body["messages"][0])
        );
        assert_eq!(
            pin["tools_sha256"].as_str().unwrap(),
            sha256_hex(&body["tools"])
        );
    }

    let unknown = std::process::Command::new(env!("CARGO_BIN_EXE_askdb-proxy"))
        .args(["pin", "--provider", "mistral", "--db"])
        .arg(&database)
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
}

/// A config that cannot be used stops the proxy at start with exit code 2 and names the field.
#[test]
fn a_bad_config_stops_the_proxy_with_its_field_named() {
    let folder = Folder::new("bad-config");
    let path = folder.0.join("askdb-proxy.toml");
    std::fs::write(
        &path,
        format!(
            r#"
global_tokens_per_day = 1
[demo.music]
provider = "openai"
key_env = "TEST_PROVIDER_KEY_NOT_SET"
models = ["m"]
max_tokens = 1
origins = ["{ORIGIN}"]
database = "{}"
[demo.music.limits]
reader_burst = 1
reader_per_minute = 1
reader_per_day = 1
requests_per_day = 1
tokens_per_day = 1
"#,
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../www/demo/shop.db")
                .display()
        ),
    )
    .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_askdb-proxy"))
        .args(["serve", "--config"])
        .arg(&path)
        .env_remove("TEST_PROVIDER_KEY_NOT_SET")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`demo.music.key_env`") && stderr.contains("TEST_PROVIDER_KEY_NOT_SET"),
        "{stderr}"
    );
}

/// Anthropic's and Gemini's paths: the first request askdb builds for each (pinned from the
/// database at start) reaches the upstream at the provider's own path, with the author's key in
/// that provider's header and none of the reader's, and the same request with another model in
/// Gemini's path is refused before it goes anywhere.
///
/// Mutations that must make this fail: the key sent in OpenAI's `Authorization` for every
/// provider; Gemini's model taken from the body instead of the path (the other model would
/// pass); the model in the upstream path left unencoded (`gemini-test/../x` would change the
/// path).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_and_gemini_requests_reach_their_own_paths_with_their_own_key_header() {
    let database = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/demo/shop.db");
    let upstream = Upstream::start(Script::Answer {
        delay: Duration::ZERO,
    })
    .await;
    let folder = Folder::new("providers");
    let demo = |name: &str, provider: &str, model: &str| {
        format!(
            r#"
[demo.{name}]
database = "{database}"
provider = "{provider}"
upstream = "{upstream}"
key_env = "TEST_PROVIDER_KEY"
models = ["{model}"]
max_tokens = 100
origins = ["{ORIGIN}"]

[demo.{name}.limits]
reader_burst = 100
reader_per_minute = 100
reader_per_day = 100
requests_per_day = 100
tokens_per_day = 10000000
"#,
            database = database.display(),
            upstream = upstream.address,
        )
    };
    let config = format!(
        "listen = \"127.0.0.1:0\"\nstate = \"state.sqlite\"\nglobal_tokens_per_day = 10000000\n{}{}",
        demo("claude", "anthropic", "claude-test"),
        demo("gem", "gemini", "gemini-test/v1"),
    );
    let proxy = Proxy::start(&folder, &config);
    let client = client();
    let post = |path: String, body: &Value| {
        send(
            client
                .post(format!("{}{path}", proxy.address))
                .header("origin", ORIGIN)
                .header("content-type", "application/json")
                .header("authorization", "Bearer reader-key")
                .header("x-api-key", "reader-key")
                .header("x-goog-api-key", "reader-key")
                .body(body.to_string()),
        )
    };
    let first = |provider| {
        askdb::pin::first_requests(&database, None, &[], provider)
            .unwrap()
            .remove(0)
            .1
    };
    let last_header = |name: &str| {
        upstream.seen.last_headers.lock().unwrap().as_ref().unwrap()[name]
            .to_str()
            .unwrap()
            .to_string()
    };

    let mut claude = first(ProviderKind::Anthropic);
    claude["model"] = json!("claude-test");
    let answer = post("/demo/claude/v1/messages".into(), &claude).await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(*upstream.seen.last_path.lock().unwrap(), "/v1/messages");
    assert_eq!(last_header("x-api-key"), KEY);
    assert_eq!(last_header("anthropic-version"), "2023-06-01");
    let headers = upstream.seen.last_headers.lock().unwrap().clone().unwrap();
    assert!(!headers.contains_key("authorization"));
    assert!(!headers.contains_key("x-goog-api-key"));
    assert_eq!(upstream.received(), 1);

    // The model travels in Gemini's path, so it is checked (and encoded) there.
    let gemini = first(ProviderKind::Gemini);
    let answer = post(
        "/demo/gem/models/gemini-test%2Fv1:generateContent".into(),
        &gemini,
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(
        *upstream.seen.last_path.lock().unwrap(),
        "/models/gemini-test%2Fv1:generateContent"
    );
    assert_eq!(last_header("x-goog-api-key"), KEY);
    let headers = upstream.seen.last_headers.lock().unwrap().clone().unwrap();
    assert!(!headers.contains_key("authorization"));
    assert!(!headers.contains_key("x-api-key"));
    assert_eq!(upstream.received(), 2);

    let answer = post(
        "/demo/gem/models/gemini-pro-expensive:generateContent".into(),
        &gemini,
    )
    .await;
    assert_eq!((answer.status, answer.reason().as_str()), (403, "model"));
    assert_eq!(
        upstream.received(),
        2,
        "a refused model never goes upstream"
    );
}
