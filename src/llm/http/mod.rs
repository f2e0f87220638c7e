//! The one HTTP call a provider makes, behind a trait so that tests need no network.

#[cfg(target_arch = "wasm32")]
mod gloo;
#[cfg(target_arch = "wasm32")]
pub use gloo::GlooHttp;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::NativeHttp;

use std::fmt;

/// A JSON POST, ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// What the server answered, whatever the status.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl HttpRequest {
    /// The value of a header, whatever the case of its name.
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

impl HttpResponse {
    /// The value of a header, whatever the case of its name (HTTP names are case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }

    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

/// The request never got an HTTP answer: offline, refused, wrong host, or blocked by CORS (a
/// browser reports all of these the same way, on purpose).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportError {
    pub message: String,
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TransportError {}

/// Sends one POST. Not `Send`: in the browser, fetch futures live on the page's single thread.
/// Dropping the returned future abandons the request.
#[allow(async_fn_in_trait)]
pub trait HttpClient {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError>;

    /// The same POST, with each piece of a successful event-stream answer's body handed to
    /// `on_body` as it arrives (never any other answer's: an error is read whole). The whole
    /// answer still comes back at the end, its body every piece together. A client that cannot
    /// read a body in pieces hands the whole of it at once, which is this default.
    async fn post_streaming(
        &self,
        request: &HttpRequest,
        on_body: &mut dyn FnMut(&[u8]),
    ) -> Result<HttpResponse, TransportError> {
        let response = self.post(request).await?;
        if streams_its_body(&response) {
            on_body(response.body.as_bytes());
        }
        Ok(response)
    }
}

/// Whether an answer's body is read in pieces as it comes: a success that is an event stream.
pub fn streams_its_body(response: &HttpResponse) -> bool {
    response.is_success() && is_event_stream(response)
}

/// Whether an answer is an event stream (a server that does not stream answers JSON, and is
/// read as before).
fn is_event_stream(response: &HttpResponse) -> bool {
    response.header("content-type").is_some_and(|value| {
        value
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("text/event-stream")
    })
}
