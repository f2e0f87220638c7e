//! Sends a checked request upstream with the author's key, and brings the answer back: a
//! stream byte for byte (its usage read as it passes), a whole body with the key redacted
//! should the provider quote it. The reservation is settled when the answer ends, or when the
//! reader goes away before it does.

use crate::config::Demo;
use crate::limits::{Admission, Limiter};
use crate::refusal::Refusal;
use crate::usage::{self, StreamTap};
use askdb::llm::ProviderKind;
use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

/// The one HTTP client, shared by every request (its connections are reused).
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        // Between two pieces of an answer: a model that writes slowly still writes.
        .read_timeout(Duration::from_secs(180))
        // A redirect would carry the key's header (reqwest drops `Authorization` across hosts,
        // not `x-api-key` or `x-goog-api-key`) to an address the author never named.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("the TLS backend is built in")
}

/// What goes upstream.
pub struct Outgoing {
    /// The provider's path after the demo's address, with `?alt=sse` when Gemini streams.
    pub provider_path: String,
    pub body: Bytes,
    /// The reader's `Accept`, the one header of theirs besides the content type passed on.
    pub accept: Option<HeaderValue>,
}

/// Sends `outgoing` for `demo` and gives the reader's response. `admission` is settled when
/// the answer ends.
pub async fn forward(
    client: &reqwest::Client,
    demo: &Demo,
    outgoing: Outgoing,
    limiter: Arc<Limiter>,
    admission: Admission,
) -> Response {
    let mut request = client
        .post(format!("{}{}", demo.upstream, outgoing.provider_path))
        .header(header::CONTENT_TYPE, "application/json")
        .body(outgoing.body);
    if let Some(accept) = outgoing.accept {
        request = request.header(header::ACCEPT, accept);
    }
    request = with_key(request, demo);
    let answer = match request.send().await {
        Ok(answer) => answer,
        // reqwest's error names the address, never a header: still, the reader gets only ours.
        Err(_) => return Refusal::UpstreamUnreachable.into_response(),
    };
    let status = answer.status();
    if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
        // The provider's words about the key may quote part of it.
        return Refusal::UpstreamKey.into_response();
    }
    let content_type = answer.headers().get(header::CONTENT_TYPE).cloned();
    let retry_after = answer.headers().get(header::RETRY_AFTER).cloned();
    let is_stream = content_type
        .as_ref()
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"));

    let body = if is_stream {
        Body::from_stream(TappedStream {
            inner: Box::pin(answer.bytes_stream()),
            tap: Some(StreamTap::new(demo.provider)),
            settlement: Some((limiter, admission)),
        })
    } else {
        let whole = match answer.bytes().await {
            Ok(whole) => whole,
            Err(_) => return Refusal::UpstreamUnreachable.into_response(),
        };
        // A failed settlement (the state file) is reported by the next admission's write.
        let _ = limiter.settle(admission, usage::from_body(demo.provider, &whole));
        Body::from(redact(&whole, demo.key.expose()))
    };
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let Some(content_type) = content_type {
        headers.insert(header::CONTENT_TYPE, content_type);
    }
    if let Some(retry_after) = retry_after {
        headers.insert(header::RETRY_AFTER, retry_after);
    }
    response
}

/// The key in the provider's own header (docs/live-demos.md, "Addresses").
fn with_key(request: reqwest::RequestBuilder, demo: &Demo) -> reqwest::RequestBuilder {
    let key = demo.key.expose();
    match demo.provider {
        ProviderKind::OpenAi => request.bearer_auth(key),
        ProviderKind::Anthropic => request
            .header("x-api-key", key)
            .header("anthropic-version", "2023-06-01"),
        ProviderKind::Gemini => request.header("x-goog-api-key", key),
    }
}

/// `body` with every occurrence of `key` replaced.
fn redact(body: &[u8], key: &str) -> Bytes {
    let key = key.as_bytes();
    if key.is_empty() || body.len() < key.len() {
        return Bytes::copy_from_slice(body);
    }
    let mut out = Vec::with_capacity(body.len());
    let mut index = 0;
    while index < body.len() {
        if body[index..].starts_with(key) {
            out.extend_from_slice(b"(hidden)");
            index += key.len();
        } else {
            out.push(body[index]);
            index += 1;
        }
    }
    Bytes::from(out)
}

/// A streamed answer passed on unchanged, its usage read on the way; the reservation is settled
/// when it ends or is dropped (the reader went away).
struct TappedStream {
    inner: Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send>>,
    tap: Option<StreamTap>,
    settlement: Option<(Arc<Limiter>, Admission)>,
}

impl TappedStream {
    fn settle(&mut self) {
        if let (Some(tap), Some((limiter, admission))) = (self.tap.take(), self.settlement.take()) {
            let _ = limiter.settle(admission, tap.finish());
        }
    }
}

impl Stream for TappedStream {
    type Item = reqwest::Result<Bytes>;

    fn poll_next(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let next = self.inner.poll_next_unpin(context);
        match &next {
            Poll::Ready(Some(Ok(bytes))) => {
                if let Some(tap) = self.tap.as_mut() {
                    tap.feed(bytes);
                }
            }
            // Settled before the reader sees the end, so that the count is in when they do.
            Poll::Ready(None) | Poll::Ready(Some(Err(_))) => self.settle(),
            Poll::Pending => {}
        }
        next
    }
}

impl Drop for TappedStream {
    fn drop(&mut self) {
        self.settle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_redacted_wherever_it_appears() {
        let key = "sk-secret";
        let body = br#"{"error":"bad key sk-secret, try sk-secretsk-secret"}"#;
        let redacted = redact(body, key);
        assert_eq!(
            &redacted[..],
            br#"{"error":"bad key (hidden), try (hidden)(hidden)"}"#
        );
        assert_eq!(&redact(b"short", key)[..], b"short");
    }
}
