//! [`Transport`] for native hosts (the tests, `askdb-eval`), on ureq. It blocks the thread while
//! it waits, as `llm::http::NativeHttp` does: fine on the one-thread executor these hosts run.

use super::transport::{Transport, TransportFailure, WebAnswer};
use std::time::{Duration, Instant};

/// The most bytes of an answer read: the engines' own cap on a result (`DbError::TooLarge`).
const MAX_ANSWER_BYTES: u64 = 64 * 1024 * 1024;

/// Blocking GETs over ureq; redirects returned, not followed.
#[derive(Clone, Copy, Debug, Default)]
pub struct NativeTransport;

impl Transport for NativeTransport {
    async fn get(
        &self,
        url: &str,
        token: Option<&str>,
        timeout_ms: u32,
    ) -> Result<WebAnswer, TransportFailure> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_millis(u64::from(timeout_ms))))
            .http_status_as_error(false)
            .max_redirects(0)
            .max_redirects_will_error(false)
            .build()
            .into();
        let failure = |e: ureq::Error| TransportFailure {
            why: match e {
                ureq::Error::Timeout(_) => format!("no answer within {timeout_ms} ms"),
                ureq::Error::HostNotFound => "the host name was not found".into(),
                ureq::Error::ConnectionFailed | ureq::Error::Io(_) => {
                    "the connection failed".into()
                }
                other => other.to_string(),
            },
            cors: false,
        };
        let started = Instant::now();
        let mut request = agent.get(url);
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let mut response = request.call().map_err(failure)?;
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        let status = response.status().as_u16();
        let content_type = header("content-type");
        let location = header("location");
        let body = response
            .body_mut()
            .with_config()
            .limit(MAX_ANSWER_BYTES)
            .read_to_string()
            .map_err(failure)?;
        Ok(WebAnswer {
            status,
            content_type,
            location,
            body,
            elapsed_ms: started.elapsed().as_secs_f64() * 1_000.0,
        })
    }
}
