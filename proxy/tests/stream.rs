//! A streamed answer passes through byte for byte, and its usage is counted from its events.

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;

/// Mutations that must make this fail: re-encoding the stream (e.g. as text, line by line),
/// buffering it whole and dropping its content type, or not reading usage from its events
/// (the reservation would stay charged instead of the reported 42 tokens).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_passes_byte_for_byte_and_its_usage_counts() {
    let upstream = Upstream::start(Script::Answer {
        delay: Duration::ZERO,
    })
    .await;
    let folder = Folder::new("stream");
    let proxy = Proxy::start(&folder, &config(&folder, &upstream, &GENEROUS, 10_000_000));
    let client = client();
    let mut body = first_request();
    body["stream"] = json!(true);
    body["stream_options"] = json!({"include_usage": true});

    let answer = ask(&client, &proxy, "192.0.2.5", &body).await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.headers["content-type"], "text/event-stream");
    assert_eq!(answer.body, STREAM_CHUNKS.concat());
    assert_eq!(upstream.received(), 1);

    let stats = stats(&client, &proxy).await;
    assert_eq!(stats["demos"]["music"]["today"]["tokens"], USAGE, "{stats}");
}
