//! [`HttpClient`] for the browser, on `fetch` through gloo-net.

use super::{HttpClient, HttpRequest, HttpResponse, TransportError};
use crate::browser::describe;
use gloo_net::http::{Headers, Request};
use web_sys::AbortController;

/// `fetch` from the page. Sends exactly the headers the wire format asks for, so that CORS
/// preflights to local servers (Ollama, LM Studio) ask for nothing they would refuse.
#[derive(Clone, Copy, Debug, Default)]
pub struct GlooHttp;

impl HttpClient for GlooHttp {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        // `Headers.append` throws on a value it cannot carry (say, a pasted key with a stray
        // character); gloo-net would turn that into a panic, so the headers are built here. The
        // browser's message is not passed on: some browsers quote the value, that is, the key.
        let headers = web_sys::Headers::new().map_err(js_error)?;
        for (name, value) in &request.headers {
            headers.append(name, value).map_err(|_| TransportError {
                message: format!(
                    "the browser cannot send this {name} header; check the API key for stray \
                     characters"
                ),
            })?;
        }

        // Dropping the future (the agent was stopped) drops this guard, which aborts the fetch.
        let abort = AbortOnDrop(AbortController::new().map_err(js_error)?);
        let signal = abort.0.signal();

        let response = Request::post(&request.url)
            .headers(Headers::from_raw(headers))
            .abort_signal(Some(&signal))
            .body(request.body.clone())
            .map_err(gloo_error)?
            .send()
            .await
            .map_err(gloo_error)?;

        let status = response.status();
        let headers = response.headers().entries().collect();
        let body = response.text().await.map_err(gloo_error)?;
        Ok(HttpResponse {
            status,
            headers,
            body,
        })
    }
}

struct AbortOnDrop(AbortController);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        // A no-op once the response has been read.
        self.0.abort();
    }
}

fn gloo_error(error: gloo_net::Error) -> TransportError {
    TransportError {
        message: error.to_string(),
    }
}

fn js_error(error: wasm_bindgen::JsValue) -> TransportError {
    TransportError {
        message: describe(&error),
    }
}
