//! Files and downloads as the browser gives them: the first bytes of a `Blob`, and a download
//! read chunk by chunk into a `Blob` with its progress. What the page says of a failure is the
//! page's (`ui::opening`); what failed is told here as a [`DownloadError`].

use super::describe;
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ReadableStreamDefaultReader, Response};

/// Why a download did not end with the whole file.
#[derive(Clone, Debug, PartialEq)]
pub enum DownloadError {
    /// The request failed: the server could not be reached, or it refused a cross-origin
    /// request (the browser does not say which).
    Unreachable { why: String },
    /// The server answered with an error status.
    Status { status: u16, text: String },
    /// The body stopped coming.
    Stopped { why: String },
    /// Larger than the most the caller would take (`bytes`: what was known or received).
    TooLarge { bytes: u64, most: u64 },
    /// The browser gave no response, or could not keep what came.
    Browser { why: String },
}

/// At most the first `most` bytes of `blob` (all of a small file); when the browser cannot
/// read them, its own words (the page says the rest).
pub async fn read_start(blob: &Blob, most: usize) -> Result<Uint8Array, String> {
    let end = blob.size().min(most as f64);
    let start = blob
        .slice_with_f64_and_f64(0.0, end)
        .map_err(|e| describe(&e))?;
    let buffer = JsFuture::from(start.array_buffer())
        .await
        .map_err(|e| describe(&e))?;
    Ok(Uint8Array::new(&buffer))
}

/// Downloads `url` chunk by chunk, so that progress can be shown (the fraction received, when
/// the server says the length), into a `Blob` (the chunks are not gathered into one buffer
/// here: the engine's worker reads the blob). With `most`, a download the server says is
/// larger, or that grows larger, is stopped there.
pub async fn download(
    url: &str,
    progress: impl Fn(Option<f64>),
    most: Option<u64>,
) -> Result<Blob, DownloadError> {
    let response = get(url, &[]).await?;
    if !response.ok() {
        return Err(DownloadError::Status {
            status: response.status(),
            text: response.status_text(),
        });
    }
    read_body(&response, progress, most).await
}

/// A GET of `url` with these request headers (a `Range`), answered by the server, never from
/// the browser's cache: a file read in parts must be the server's copy as it is now. Any
/// status is an answer; only no answer at all is an error.
pub async fn get(url: &str, headers: &[(&str, &str)]) -> Result<Response, DownloadError> {
    let browser = |why: String| DownloadError::Browser { why };
    let window = web_sys::window().ok_or_else(|| browser("no browser window".into()))?;
    let init = web_sys::RequestInit::new();
    init.set_cache(web_sys::RequestCache::NoStore);
    let sent = web_sys::Headers::new().map_err(|e| browser(describe(&e)))?;
    for (name, value) in headers {
        sent.set(name, value).map_err(|e| browser(describe(&e)))?;
    }
    init.set_headers(&sent);
    let response: Response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|e| DownloadError::Unreachable { why: describe(&e) })?
        .dyn_into()
        .map_err(|_| browser("the browser returned no response".into()))?;
    Ok(response)
}

/// A header of `response`, when the page may read it (on another site, only those its CORS
/// settings expose, and the safe ones).
pub fn header(response: &Response, name: &str) -> Option<String> {
    response.headers().get(name).ok().flatten()
}

/// Stops `response`'s body: nothing more of it is downloaded.
pub fn stop_body(response: &Response) {
    if let Some(body) = response.body() {
        let _ = body.cancel();
    }
}

/// Reads `response`'s body chunk by chunk into a `Blob`, telling `progress` the fraction
/// received when the server says the length; stopped past `most` bytes.
pub async fn read_body(
    response: &Response,
    progress: impl Fn(Option<f64>),
    most: Option<u64>,
) -> Result<Blob, DownloadError> {
    let browser = |why: String| DownloadError::Browser { why };
    // The length is a guess when the server compresses; the bar then stops short of the end.
    let expected = header(response, "content-length")
        .and_then(|n| n.parse::<f64>().ok())
        .filter(|n| *n > 0.0);
    let too_large = |size: f64| {
        most.filter(|most| size > *most as f64)
            .map(|most| DownloadError::TooLarge {
                bytes: size as u64,
                most,
            })
    };
    if let Some(error) = expected.and_then(too_large) {
        stop_body(response);
        return Err(error);
    }
    let Some(body) = response.body() else {
        let buffer = JsFuture::from(response.array_buffer().map_err(|e| browser(describe(&e)))?)
            .await
            .map_err(|e| browser(describe(&e)))?;
        return blob_of(&Array::of1(&buffer));
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let chunks = Array::new();
    let mut received: f64 = 0.0;
    loop {
        let step = JsFuture::from(reader.read())
            .await
            .map_err(|e| DownloadError::Stopped { why: describe(&e) })?;
        if Reflect::get(&step, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            == Some(true)
        {
            break;
        }
        let chunk: Uint8Array = Reflect::get(&step, &"value".into())
            .map_err(|e| browser(describe(&e)))?
            .unchecked_into();
        received += f64::from(chunk.length());
        if let Some(error) = too_large(received) {
            let _ = reader.cancel();
            return Err(error);
        }
        chunks.push(&chunk);
        progress(expected.map(|total| (received / total).min(1.0)));
    }
    blob_of(&chunks)
}

/// `parts` (blobs or byte arrays) one after the other, as one `Blob`.
pub fn join_blobs(parts: &Array) -> Result<Blob, DownloadError> {
    blob_of(parts)
}

fn blob_of(parts: &Array) -> Result<Blob, DownloadError> {
    Blob::new_with_u8_array_sequence(parts).map_err(|e| DownloadError::Browser {
        why: format!("the browser could not keep the download ({})", describe(&e)),
    })
}
