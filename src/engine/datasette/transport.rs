//! How the Datasette client reaches a server: one GET ([`Transport`]; ureq natively in
//! `native`, `fetch` in the page in `fetch`) and what comes back ([`WebAnswer`], or
//! [`TransportFailure`] when nothing does). Apart from the client and the reading of answers,
//! which both use these types.

/// A server's answer, whatever its status.
#[derive(Clone, Debug, PartialEq)]
pub struct WebAnswer {
    pub status: u16,
    pub content_type: Option<String>,
    /// Where a redirect (3xx) points.
    pub location: Option<String>,
    pub body: String,
    /// From sending the request to reading the whole body.
    pub elapsed_ms: f64,
}

/// No answer came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportFailure {
    pub why: String,
    /// The server answered, but its answer may not be read by this page (a browser that found
    /// the server without CORS headers).
    pub cors: bool,
}

/// One GET. Not `Send`: in the browser, fetch futures live on the page's single thread.
#[allow(async_fn_in_trait)]
pub trait Transport {
    /// Fetches `url`, with `token` as a bearer token when given, giving up after `timeout_ms`.
    /// Redirects are returned as they are, not followed.
    async fn get(
        &self,
        url: &str,
        token: Option<&str>,
        timeout_ms: u32,
    ) -> Result<WebAnswer, TransportFailure>;
}
