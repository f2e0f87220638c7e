//! The proxy's own answers that are not a success: one JSON shape for all of them
//! (docs/live-demos.md, "Refusals"), so that the page tells them from a provider's.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Which limit ran out (429), in the order they are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Limit {
    ReaderBurst,
    ReaderPerDay,
    DemoRequestsPerDay,
    DemoTokensPerDay,
    GlobalTokensPerDay,
}

/// Why the proxy did not forward a request (or could not finish it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    Path,
    Method,
    Origin,
    BodyTooLarge {
        limit: usize,
    },
    NotJson,
    Shape(String),
    Model(String),
    SystemPrompt,
    Tools,
    Limit {
        limit: Limit,
        allowed: u64,
        retry_after_s: u64,
        resets_at: String,
    },
    UpstreamUnreachable,
    UpstreamKey,
    /// The state file cannot be written: nothing goes upstream uncounted.
    State,
}

impl Refusal {
    pub fn status(&self) -> StatusCode {
        match self {
            Refusal::Path => StatusCode::NOT_FOUND,
            Refusal::Method => StatusCode::METHOD_NOT_ALLOWED,
            Refusal::Origin | Refusal::Model(_) | Refusal::SystemPrompt | Refusal::Tools => {
                StatusCode::FORBIDDEN
            }
            Refusal::BodyTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::NotJson | Refusal::Shape(_) => StatusCode::BAD_REQUEST,
            Refusal::Limit { .. } => StatusCode::TOO_MANY_REQUESTS,
            Refusal::UpstreamUnreachable | Refusal::UpstreamKey => StatusCode::BAD_GATEWAY,
            Refusal::State => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The `reason`, which the page and `/stats` read.
    pub fn reason(&self) -> &'static str {
        match self {
            Refusal::Path => "path",
            Refusal::Method => "method",
            Refusal::Origin => "origin",
            Refusal::BodyTooLarge { .. } => "body_too_large",
            Refusal::NotJson => "not_json",
            Refusal::Shape(_) => "shape",
            Refusal::Model(_) => "model",
            Refusal::SystemPrompt => "system_prompt",
            Refusal::Tools => "tools",
            Refusal::Limit { limit, .. } => match limit {
                Limit::ReaderBurst => "reader_burst",
                Limit::ReaderPerDay => "reader_per_day",
                Limit::DemoRequestsPerDay => "demo_requests_per_day",
                Limit::DemoTokensPerDay => "demo_tokens_per_day",
                Limit::GlobalTokensPerDay => "global_tokens_per_day",
            },
            Refusal::UpstreamUnreachable => "upstream_unreachable",
            Refusal::UpstreamKey => "upstream_key",
            Refusal::State => "state",
        }
    }

    /// The proxy's words for the reader (shown by the page).
    pub fn message(&self) -> String {
        match self {
            Refusal::Path => "There is no such demo or address on this askdb-proxy.".into(),
            Refusal::Method => "This address does not take that method.".into(),
            Refusal::Origin => "This demo answers only on its own docs pages.".into(),
            Refusal::BodyTooLarge { limit } => {
                format!("The request is larger than this demo allows ({limit} bytes).")
            }
            Refusal::NotJson => "The request is not a JSON object.".into(),
            Refusal::Shape(what) => format!("The request is not one askdb sends: {what}."),
            Refusal::Model(model) => format!("This demo does not answer with the model `{model}`."),
            Refusal::SystemPrompt => {
                "The system prompt is not this demo's: only askdb's questions about it go through."
                    .into()
            }
            Refusal::Tools => {
                "The tool list is not this demo's: only askdb's questions about it go through."
                    .into()
            }
            Refusal::Limit { limit, allowed, .. } => match limit {
                Limit::ReaderBurst => format!(
                    "This reader is asking faster than this demo allows ({allowed} calls a minute); wait a moment."
                ),
                Limit::ReaderPerDay => format!(
                    "This reader has asked {allowed} times today, the most this demo allows."
                ),
                Limit::DemoRequestsPerDay => format!(
                    "This demo has answered {allowed} model calls today, the most its author allows."
                ),
                Limit::DemoTokensPerDay => {
                    "This demo has used the tokens its author allows for today.".into()
                }
                Limit::GlobalTokensPerDay => {
                    "This proxy has used the tokens its author allows for today.".into()
                }
            },
            Refusal::UpstreamUnreachable => "The demo's model provider could not be reached.".into(),
            Refusal::UpstreamKey => {
                "The demo's model provider refused the author's key; the author needs to renew it."
                    .into()
            }
            Refusal::State => "The demo's endpoint cannot keep its counts just now; try again later.".into(),
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut error = json!({
            "type": "askdb_proxy",
            "reason": self.reason(),
            "message": self.message(),
        });
        let mut retry_after = None;
        if let Refusal::Limit {
            retry_after_s,
            resets_at,
            ..
        } = &self
        {
            error["retry_after_s"] = json!(retry_after_s);
            error["resets_at"] = json!(resets_at);
            retry_after = Some(*retry_after_s);
        }
        let mut response = (self.status(), axum::Json(json!({ "error": error }))).into_response();
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        // Read by the log line and /stats after the handler.
        response
            .extensions_mut()
            .insert(RefusalReason(self.reason()));
        response
    }
}

/// The reason of a refusal, carried on its response for the log line and /stats.
#[derive(Clone, Copy, Debug)]
pub struct RefusalReason(pub &'static str);

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_of(refusal: Refusal) -> (StatusCode, Option<String>, serde_json::Value) {
        let response = refusal.into_response();
        let status = response.status();
        let retry_after = response
            .headers()
            .get(header::RETRY_AFTER)
            .map(|value| value.to_str().unwrap().to_string());
        let bytes = axum::body::to_bytes(response.into_body(), 10_000)
            .await
            .unwrap();
        (status, retry_after, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn a_limit_says_when_it_comes_back() {
        let (status, retry_after, body) = body_of(Refusal::Limit {
            limit: Limit::ReaderPerDay,
            allowed: 30,
            retry_after_s: 18230,
            resets_at: "2026-12-05T00:00:00Z".into(),
        })
        .await;
        assert_eq!(status, 429);
        assert_eq!(retry_after.as_deref(), Some("18230"));
        assert_eq!(body["error"]["type"], "askdb_proxy");
        assert_eq!(body["error"]["reason"], "reader_per_day");
        assert_eq!(body["error"]["retry_after_s"], 18230);
        assert_eq!(body["error"]["resets_at"], "2026-12-05T00:00:00Z");
        assert!(body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("30 times"));
    }

    #[tokio::test]
    async fn a_refusal_has_no_retry() {
        let (status, retry_after, body) = body_of(Refusal::Tools).await;
        assert_eq!(status, 403);
        assert_eq!(retry_after, None);
        assert_eq!(body["error"]["reason"], "tools");
        assert!(body["error"].get("retry_after_s").is_none());
    }
}
