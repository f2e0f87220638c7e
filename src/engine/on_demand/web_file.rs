//! A database file at a web address, as the page first meets it (wasm32 only): one ranged GET
//! ([`first_get`]) whose answer `engine::on_demand::remote::route` reads, the bytes that answer brings,
//! and the rest of a file downloaded whole ([`rest_of_whole`]), checked to be the same version
//! as the first part. What to do with the answer is decided in `engine::on_demand::remote`; this file only
//! asks and reads.

use super::remote::{
    check_rest, rest_of_whole as plan_rest, FirstAnswer, Pins, RestAnswer, RestOfWhole, Route,
    FIRST_RANGE_BYTES, WHOLE_DOWNLOAD_LIMIT_BYTES,
};
use super::RemoteProblem;
use crate::browser::{get, header, join_blobs, page_origin, read_body, stop_body, DownloadError};
use js_sys::{Array, Uint8Array};
use web_sys::{Blob, Response};

/// The answer to the first GET, its body not read yet.
pub struct FirstGet {
    pub answer: FirstAnswer,
    response: Response,
}

/// Asks `url` for its first [`FIRST_RANGE_BYTES`] (`Range: bytes=0-65535`). No answer at all
/// is [`RemoteProblem::Unreachable`]; every answer, whatever its status, is for
/// `remote::route` to read.
pub async fn first_get(url: &str) -> Result<FirstGet, RemoteProblem> {
    let range = format!("bytes=0-{}", FIRST_RANGE_BYTES - 1);
    let response = get(url, &[("Range", &range)]).await.map_err(unreachable)?;
    let answer = answer_of(&response, url);
    Ok(FirstGet { answer, response })
}

/// A request that got no usable answer.
fn unreachable(error: DownloadError) -> RemoteProblem {
    let why = match error {
        DownloadError::Unreachable { why }
        | DownloadError::Browser { why }
        | DownloadError::Stopped { why } => why,
        DownloadError::Status { status, text } => format!("{status} {text}"),
        DownloadError::TooLarge { bytes, .. } => format!("the server sent {bytes} bytes"),
    };
    RemoteProblem::Unreachable { why }
}

/// What the page may read of `response` to a GET of `url`.
fn answer_of(response: &Response, url: &str) -> FirstAnswer {
    let origin = web_sys::Url::new(url).map(|u| u.origin()).ok();
    FirstAnswer {
        status: response.status(),
        content_range: header(response, "content-range"),
        content_length: header(response, "content-length").and_then(|n| n.trim().parse().ok()),
        etag: header(response, "etag"),
        last_modified: header(response, "last-modified"),
        cross_origin: origin.is_none_or(|origin| origin != page_origin()),
    }
}

impl FirstGet {
    /// How to open the file (see `remote::route`).
    pub fn route(&self, read_whole_below: u64, whole_limit: u64) -> Route {
        super::remote::route(&self.answer, read_whole_below, whole_limit)
    }

    /// The body of the answer: the first part of the file, or all of it when the server sent
    /// it whole; `progress` hears the fraction received, and past `most` bytes it stops.
    pub async fn body(
        self,
        progress: impl Fn(Option<f64>),
        most: Option<u64>,
    ) -> Result<Blob, DownloadError> {
        read_body(&self.response, progress, most).await
    }

    /// The first part as bytes (for the engine that reads on demand: it starts its cache with
    /// them).
    pub async fn first_bytes(self) -> Result<Uint8Array, RemoteProblem> {
        let blob = self
            .body(|_| {}, Some(FIRST_RANGE_BYTES))
            .await
            .map_err(unreachable)?;
        let buffer = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
            .await
            .map_err(|e| RemoteProblem::Unreachable {
                why: crate::browser::describe(&e),
            })?;
        Ok(Uint8Array::new(&buffer))
    }

    /// Nothing more of this answer is downloaded.
    pub fn stop(self) {
        stop_body(&self.response);
    }
}

/// Why the rest of a whole download did not come.
#[derive(Clone, Debug, PartialEq)]
pub enum RestError {
    Download(DownloadError),
    /// The file on the server is not the one the first part came from: why.
    Changed(String),
}

impl From<DownloadError> for RestError {
    fn from(error: DownloadError) -> RestError {
        RestError::Download(error)
    }
}

/// The whole file at `url`, pinned by `pins`, whose first bytes are `first`: the rest asked
/// for as a part and checked to be the same version (the length, the ETag and Last-Modified
/// the first answer had), or, with no validator to check, the whole file in one answer.
/// `progress` hears the fraction of the file received.
pub async fn rest_of_whole(
    url: &str,
    pins: &Pins,
    first: Blob,
    progress: impl Fn(Option<f64>),
) -> Result<Blob, RestError> {
    let got = first.size() as u64;
    let from = match plan_rest(pins, got) {
        RestOfWhole::Nothing => return Ok(first),
        RestOfWhole::AllAgain => {
            let response = get(url, &[]).await?;
            return whole_answer(response, progress).await;
        }
        RestOfWhole::From(from) => from,
    };
    let range = format!("bytes={from}-");
    let response = get(url, &[("Range", &range)]).await?;
    let answer = answer_of(&response, url);
    match check_rest(pins, from, &answer) {
        Ok(RestAnswer::Whole) => whole_answer(response, progress).await,
        Ok(RestAnswer::Rest) => {
            let share = |fraction: Option<f64>| {
                let rest = (pins.size - from) as f64;
                progress(fraction.map(|f| (from as f64 + f * rest) / pins.size as f64));
            };
            let rest = read_body(&response, share, Some(pins.size - from)).await?;
            let sent = got + rest.size() as u64;
            if sent != pins.size {
                return Err(RestError::Changed(format!(
                    "the server sent {sent} bytes of a file of {}",
                    pins.size
                )));
            }
            Ok(join_blobs(&Array::of2(&first, &rest))?)
        }
        Err(why) => {
            stop_body(&response);
            Err(RestError::Changed(why))
        }
    }
}

/// A 200 answer's body: the whole file, as one answer gives it (one version of it, whatever
/// the first answer said), up to the most the page downloads whole.
async fn whole_answer(
    response: Response,
    progress: impl Fn(Option<f64>),
) -> Result<Blob, RestError> {
    if !response.ok() {
        stop_body(&response);
        return Err(RestError::Download(DownloadError::Status {
            status: response.status(),
            text: response.status_text(),
        }));
    }
    Ok(read_body(&response, progress, Some(WHOLE_DOWNLOAD_LIMIT_BYTES)).await?)
}
