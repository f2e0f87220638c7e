//! A demo's endpoint: an askdb-proxy (docs/live-demos.md) that holds the author's key and
//! forwards a reader's questions about one demo, within the author's limits. Its own answers
//! (not the provider's) that are not a success carry one JSON shape,
//! `{"error": {"type": "askdb_proxy", "reason", "message", "resets_at", "retry_after_s"}}`,
//! read here into a [`ProxyRefusal`] whichever provider's format the demo speaks.

use super::http::HttpResponse;
use crate::text::cut_chars;
use serde::Deserialize;
use std::fmt;

/// The `error.type` that marks the proxy's own answers.
const PROXY_ERROR_TYPE: &str = "askdb_proxy";

/// A longer message or reason from the endpoint is cut: it is shown to the reader.
const MAX_MESSAGE_CHARS: usize = 400;
const MAX_REASON_CHARS: usize = 40;

/// The proxy answered for itself: it refused the request, or one of its limits ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProxyRefusal {
    /// The HTTP status (429 for a limit, 403 for a refusal, 502 when the provider failed it).
    pub status: u16,
    /// Which check or limit (`reader_per_day`, `system_prompt`, `upstream_key`, …).
    pub reason: String,
    /// The proxy's words, for the reader.
    pub message: String,
    /// When the limit comes back (an RFC 3339 UTC time), for a limit.
    pub resets_at: Option<String>,
    /// How long until it comes back, in seconds (the body's, else `Retry-After`).
    pub retry_after_s: Option<u64>,
}

/// The limit whose short wait askdb may sit out by itself (a reader's burst).
pub const BURST: &str = "reader_burst";
/// The provider could not be reached from the proxy: like a server error, worth a retry.
pub const UPSTREAM_UNREACHABLE: &str = "upstream_unreachable";

impl ProxyRefusal {
    /// A limit ran out (429): the demo says when it comes back.
    pub fn is_limit(&self) -> bool {
        self.status == 429
    }
}

#[derive(Deserialize)]
struct Body {
    error: BodyError,
}

#[derive(Deserialize)]
struct BodyError {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    resets_at: Option<String>,
    #[serde(default)]
    retry_after_s: Option<u64>,
}

/// The proxy's refusal in an error `response`, if that is what it is (a provider's own error,
/// passed through, is not).
pub fn refusal_in(response: &HttpResponse) -> Option<ProxyRefusal> {
    if response.is_success() {
        return None;
    }
    let body: Body = serde_json::from_str(&response.body).ok()?;
    if body.error.kind != PROXY_ERROR_TYPE {
        return None;
    }
    let header_seconds = response
        .header("retry-after")
        .and_then(|value| value.trim().parse::<u64>().ok());
    Some(ProxyRefusal {
        status: response.status,
        reason: clean(&body.error.reason, MAX_REASON_CHARS),
        message: clean(&body.error.message, MAX_MESSAGE_CHARS),
        resets_at: body
            .error
            .resets_at
            .map(|at| clean(&at, MAX_REASON_CHARS))
            .filter(|at| !at.is_empty()),
        retry_after_s: body.error.retry_after_s.or(header_seconds),
    })
}

/// One line of plain text, cut to `most` characters.
fn clean(text: &str, most: usize) -> String {
    let line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    cut_chars(line.trim(), most)
}

/// Says the refusal as the demo's endpoint's, never as a key's: the reader has none here.
impl fmt::Display for ProxyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ProxyRefusal { status, reason, .. } = self;
        match reason.as_str() {
            _ if self.is_limit() => write!(
                f,
                "the demo's endpoint has reached one of its limits (HTTP {status}, {reason})"
            )?,
            UPSTREAM_UNREACHABLE => write!(
                f,
                "the demo's endpoint could not reach its model (HTTP {status}, {reason})"
            )?,
            "upstream_key" => write!(
                f,
                "the demo's endpoint could not use its model: the provider turned the demo's \
                 author away (HTTP {status}, {reason}); only the author can fix this"
            )?,
            _ => write!(
                f,
                "the demo's endpoint refused this question (HTTP {status}, {reason})"
            )?,
        }
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        Ok(())
    }
}
