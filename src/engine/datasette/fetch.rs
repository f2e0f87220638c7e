//! [`Transport`] for the page: `fetch` through gloo-net, aborted when its future is dropped (a
//! stopped question) or its time is up.
//!
//! The browser follows redirects itself (and drops an `Authorization` header on one to another
//! origin); an answer that ended on another server is refused unread. A request that gets no
//! answer is tried once more without CORS (`no-cors`: the answer cannot be read, only whether
//! one came), so that a server started without `--cors` is told from one that is not there.

use super::address::origin_of;
use super::transport::{Transport, TransportFailure, WebAnswer};
use crate::browser::{describe, now_ms};
use futures::future::{select, Either};
use gloo_net::http::Request;
use gloo_timers::future::TimeoutFuture;
use web_sys::AbortController;
use web_sys::RequestMode;

/// `fetch` from the page.
#[derive(Clone, Copy, Debug, Default)]
pub struct FetchTransport;

impl Transport for FetchTransport {
    async fn get(
        &self,
        url: &str,
        token: Option<&str>,
        timeout_ms: u32,
    ) -> Result<WebAnswer, TransportFailure> {
        let failure = |why: String| TransportFailure { why, cors: false };
        let abort = AbortOnDrop(AbortController::new().map_err(|e| failure(describe(&e)))?);
        let signal = abort.0.signal();
        let started = now_ms();
        let mut request = Request::get(url).abort_signal(Some(&signal));
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let sent = async {
            let response = request.send().await?;
            let body = response.text().await?;
            Ok::<_, gloo_net::Error>((response, body))
        };
        let (response, body) = match select(Box::pin(sent), TimeoutFuture::new(timeout_ms)).await {
            Either::Left((Ok(answer), _)) => answer,
            Either::Left((Err(error), _)) => {
                let cors = answers_without_cors(url).await;
                return Err(TransportFailure {
                    why: error.to_string(),
                    cors,
                });
            }
            Either::Right(_) => return Err(failure(format!("no answer within {timeout_ms} ms"))),
        };
        let ended_at = response.url();
        if !ended_at.is_empty() && origin_of(&ended_at) != origin_of(url) {
            return Ok(WebAnswer {
                status: 302,
                content_type: None,
                location: Some(ended_at),
                body: String::new(),
                elapsed_ms: now_ms() - started,
            });
        }
        Ok(WebAnswer {
            status: response.status(),
            content_type: response.headers().get("content-type"),
            location: None,
            body,
            elapsed_ms: now_ms() - started,
        })
    }
}

/// Whether the Datasette server that `url` is on answers a request whose answer the page may
/// not read: then it runs, and did not let the page read its answer (no `--cors`). The probe
/// asks for its stylesheet: browsers block JSON and HTML answers to such requests (Opaque
/// Response Blocking) as if nothing had answered, and let CSS through.
async fn answers_without_cors(url: &str) -> bool {
    let Ok(controller) = AbortController::new() else {
        return false;
    };
    let abort = AbortOnDrop(controller);
    let signal = abort.0.signal();
    let probe = Request::get(&stylesheet_of(url))
        .mode(RequestMode::NoCors)
        .abort_signal(Some(&signal))
        .send();
    matches!(
        select(Box::pin(probe), TimeoutFuture::new(5_000)).await,
        Either::Left((Ok(_), _))
    )
}

/// `<server>/-/static/app.css` for a request to `<server>/<db>.json?…` or
/// `<server>/-/databases.json`.
fn stylesheet_of(url: &str) -> String {
    let path = url.split('?').next().unwrap_or(url);
    let after_scheme = path.find("://").map_or(0, |i| i + 3);
    let server = match path[after_scheme..].find("/-/") {
        Some(i) => &path[..after_scheme + i],
        None => path
            .rfind('/')
            .map_or(path, |i| &path[..i.max(after_scheme)]),
    };
    format!("{server}/-/static/app.css")
}

struct AbortOnDrop(AbortController);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        // A no-op once the response has been read.
        self.0.abort();
    }
}
