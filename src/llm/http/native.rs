//! [`HttpClient`] for native hosts (the `askdb-eval` runner), on ureq.
//!
//! ureq blocks the thread while it waits. That is fine where this client is used: the runner
//! asks one question at a time on a one-thread executor, and nothing else needs the thread in
//! the meantime. A timeout bounds every request instead of a dropped future.

use super::{HttpClient, HttpRequest, HttpResponse, TransportError};
use std::time::Duration;

/// The most bytes of an answer read: a model's reply is far smaller; a larger body is a wrong
/// URL or a broken server.
const MAX_RESPONSE_BYTES: u64 = 16 * 1024 * 1024;

/// Blocking HTTP over ureq, with rustls for https.
pub struct NativeHttp {
    agent: ureq::Agent,
    timeout: Duration,
}

impl NativeHttp {
    /// A client whose every request ends within `timeout` (connecting, sending, reading).
    pub fn new(timeout: Duration) -> NativeHttp {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            // Error statuses are answers too: the wire formats read their bodies.
            .http_status_as_error(false)
            // Never follow a redirect: the key's headers would go to another address. The 3xx
            // answer is returned as it is, and reported as a refused request.
            .max_redirects(0)
            .max_redirects_will_error(false)
            .build()
            .into();
        NativeHttp { agent, timeout }
    }

    fn post_blocking(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        let mut builder = self.agent.post(&request.url);
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        let mut response = builder
            .send(request.body.as_str())
            .map_err(|e| self.transport_error(e))?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(name, value)| {
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                (name.as_str().to_string(), value)
            })
            .collect();
        let body = response
            .body_mut()
            .with_config()
            .limit(MAX_RESPONSE_BYTES)
            .read_to_string()
            .map_err(|e| self.transport_error(e))?;
        Ok(HttpResponse {
            status,
            headers,
            body,
        })
    }

    /// What went wrong, in words that say what to check. ureq's messages never carry a header's
    /// value, so no key reaches them.
    fn transport_error(&self, error: ureq::Error) -> TransportError {
        let message = match error {
            ureq::Error::Timeout(_) => format!(
                "no answer within {}: the server is slow or not answering",
                describe_duration(self.timeout)
            ),
            ureq::Error::HostNotFound => "the host name was not found: check the URL".into(),
            ureq::Error::ConnectionFailed => "the connection failed".into(),
            ureq::Error::BadUri(uri) => format!("the URL is not valid ({uri})"),
            ureq::Error::Http(error) if is_header_error(&error) => {
                "a header could not be sent: check the API key for stray characters".into()
            }
            ureq::Error::Http(_) => "the URL is not valid: check the base URL".into(),
            ureq::Error::BodyExceedsLimit(limit) => {
                format!("the answer is larger than {} MB", limit / (1024 * 1024))
            }
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
                "the connection was refused: is the server running at this address?".into()
            }
            other => other.to_string(),
        };
        TransportError { message }
    }
}

impl HttpClient for NativeHttp {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        self.post_blocking(request)
    }
}

/// "90 s", "500 ms".
fn describe_duration(duration: Duration) -> String {
    if duration.as_millis() < 1_000 {
        format!("{} ms", duration.as_millis())
    } else {
        format!("{} s", duration.as_secs())
    }
}

fn is_header_error(error: &ureq::http::Error) -> bool {
    error.is::<ureq::http::header::InvalidHeaderValue>()
        || error.is::<ureq::http::header::InvalidHeaderName>()
}
