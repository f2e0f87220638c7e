//! [`HttpClient`] for the browser, on `fetch` through gloo-net.

use super::{streams_its_body, HttpClient, HttpRequest, HttpResponse, TransportError};
use crate::browser::describe;
use gloo_net::http::{Headers, Request};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortController;

/// `fetch` from the page. Sends exactly the headers the wire format asks for, so that CORS
/// preflights to local servers (Ollama, LM Studio) ask for nothing they would refuse.
#[derive(Clone, Copy, Debug, Default)]
pub struct GlooHttp;

impl HttpClient for GlooHttp {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        self.post_streaming(request, &mut |_| {}).await
    }

    async fn post_streaming(
        &self,
        request: &HttpRequest,
        on_body: &mut dyn FnMut(&[u8]),
    ) -> Result<HttpResponse, TransportError> {
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

        // Dropping the future (the agent was stopped) drops this guard, which aborts the fetch,
        // a stream being read included: the server sees the connection close.
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

        let mut answer = HttpResponse {
            status: response.status(),
            headers: response.headers().entries().collect(),
            body: String::new(),
        };
        answer.body = match (streams_its_body(&answer), response.body()) {
            (true, Some(stream)) => read_in_pieces(stream, on_body).await?,
            _ => response.text().await.map_err(gloo_error)?,
        };
        Ok(answer)
    }
}

/// A body read piece by piece as the network brings it, each piece handed on; all of it at the
/// end (as text: the pieces are cut anywhere, a character only whole once they are joined).
async fn read_in_pieces(
    stream: web_sys::ReadableStream,
    on_body: &mut dyn FnMut(&[u8]),
) -> Result<String, TransportError> {
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut body = Vec::new();
    loop {
        let result = JsFuture::from(reader.read()).await.map_err(js_error)?;
        let done = js_sys::Reflect::get(&result, &"done".into()).map_err(js_error)?;
        if done.as_bool() == Some(true) {
            break;
        }
        let value = js_sys::Reflect::get(&result, &"value".into()).map_err(js_error)?;
        let piece = js_sys::Uint8Array::new(&value).to_vec();
        body.extend_from_slice(&piece);
        on_body(&piece);
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
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
