//! What reading a database on demand costs and finds, as plain data: the bytes and reads a query
//! took from the file or the server ([`ReadStats`]), what identifies such a database without
//! reading it whole ([`LazyIdentity`]), and why a web address cannot be read in parts
//! ([`RemoteProblem`]). Pure: the page's engine (`engine::lazy`, wasm32) fills them in.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What a query (or an open) read from the file or the server. Pages served from the engine's
/// cache cost nothing and are not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadStats {
    /// Bytes fetched, read-ahead included.
    pub bytes: u64,
    /// Reads that fetched them: HTTP requests for a remote file, slices for a local one, the
    /// queries sent to a Datasette server.
    pub requests: u64,
    /// For a database on a server that runs the queries (Datasette): how long the page waited
    /// for its answers, in milliseconds. `None` for a file read in parts, whose reads are timed
    /// with the query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited_ms: Option<u64>,
}

impl std::ops::Add for ReadStats {
    type Output = ReadStats;

    fn add(self, other: ReadStats) -> ReadStats {
        ReadStats {
            bytes: self.bytes.saturating_add(other.bytes),
            requests: self.requests.saturating_add(other.requests),
            waited_ms: match (self.waited_ms, other.waited_ms) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
            },
        }
    }
}

impl ReadStats {
    /// What was read since `before` (a total taken earlier from the same database).
    pub fn since(self, before: ReadStats) -> ReadStats {
        ReadStats {
            bytes: self.bytes.saturating_sub(before.bytes),
            requests: self.requests.saturating_sub(before.requests),
            waited_ms: self
                .waited_ms
                .map(|now| now.saturating_sub(before.waited_ms.unwrap_or(0))),
        }
    }
}

impl ReadStats {
    /// What a query cost, after its time: "read 1.2 MB in 14 reads", or "1 request to the
    /// server (3 KB, 12 ms)".
    pub fn phrase(&self) -> String {
        match self.waited_ms {
            Some(_) => self.to_string(),
            None => format!("read {self}"),
        }
    }
}

impl fmt::Display for ReadStats {
    /// "1.2 MB in 14 reads"; for a server that runs the queries, "3 requests to the server
    /// (12 KB, 140 ms)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(ms) = self.waited_ms {
            let requests = if self.requests == 1 {
                "request"
            } else {
                "requests"
            };
            return write!(
                f,
                "{} {requests} to the server ({}, {ms} ms)",
                self.requests,
                format_bytes(self.bytes)
            );
        }
        let reads = if self.requests == 1 { "read" } else { "reads" };
        write!(
            f,
            "{} in {} {reads}",
            format_bytes(self.bytes),
            self.requests
        )
    }
}

/// "512 B", "48 KB", "1.2 MB", "4.5 GB" (powers of 1,000, as people read sizes).
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1_000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1_000.0;
    let mut unit = 0;
    while value >= 1_000.0 && unit + 1 < UNITS.len() {
        value /= 1_000.0;
        unit += 1;
    }
    if value < 10.0 {
        format!("{value:.1} {}", UNITS[unit])
    } else {
        format!("{value:.0} {}", UNITS[unit])
    }
}

/// What identifies a database read on demand, found at open without reading it whole.
///
/// A local file: its size, its first 100 bytes (the header, which SQLite changes on every
/// write: the change counter) and the SHA-256 of a few sampled pages. A remote file: its URL,
/// length and header, with the server's `ETag` and `Last-Modified` when it sends them (pages
/// are sampled only when it sends neither).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LazyIdentity {
    pub size: u64,
    /// The first 100 bytes of the file (fewer when the file is shorter).
    pub header: Vec<u8>,
    /// The page numbers (from 1) whose bytes `sample_sha256` hashes, in that order.
    pub sampled_pages: Vec<u64>,
    /// Lower-case hex SHA-256 of the sampled pages' bytes, one after the other.
    pub sample_sha256: Option<String>,
    /// For a remote file: where it is and what the server said about it.
    pub remote: Option<RemoteValidators>,
}

/// What a server says identifies its copy of a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteValidators {
    pub url: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

impl LazyIdentity {
    /// True when `other` is the same database as far as both identities can tell: the same
    /// size and header, the same sampled pages (when both have them) and, for remote files, the
    /// same URL and the same validators the server gave both times.
    pub fn same_as(&self, other: &LazyIdentity) -> bool {
        if self.size != other.size || self.header != other.header {
            return false;
        }
        if let (Some(a), Some(b)) = (&self.sample_sha256, &other.sample_sha256) {
            if a != b || self.sampled_pages != other.sampled_pages {
                return false;
            }
        }
        match (&self.remote, &other.remote) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.url == b.url
                    && same_if_both(&a.etag, &b.etag)
                    && same_if_both(&a.last_modified, &b.last_modified)
            }
            _ => false,
        }
    }
}

fn same_if_both(a: &Option<String>, b: &Option<String>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// Why the database at a web address cannot be read in parts. Each says so in one sentence
/// (`Display`), and most have what to set on the server beside it ([`Self::what_to_set`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteProblem {
    /// No answer: the address is wrong, the server is down, or its cross-origin settings do not
    /// let this page read it at all (the browser does not say which).
    Unreachable { why: String },
    /// The server sent the whole file (200) to a request for a part: it does not support HTTP
    /// Range requests. `size` is the whole file's length when the server said it.
    RangeIgnored { size: Option<u64> },
    /// The server answered with another status than 206 (404, 403, …).
    Status { status: u16 },
    /// The server answered a part (206) but its CORS settings hide `header` from this page.
    HeaderHidden { header: String },
    /// The server answered a part (206) without `header` at all.
    HeaderMissing { header: String },
    /// The `Content-Range` it sent is not one the page can read.
    BadContentRange { value: String },
    /// The `Content-Range` it sent does not give the file's length (`bytes 0-65535/*`).
    NoLength,
    /// The server sends neither `ETag` nor `Last-Modified`: a new version of the file could not
    /// be told from the old one between two reads, so its pages could come from two versions.
    NoValidator { size: u64 },
}

impl RemoteProblem {
    /// The whole file's size, when known: the page can offer to download it whole instead.
    pub fn whole_download_size(&self) -> Option<u64> {
        match self {
            RemoteProblem::RangeIgnored { size } => *size,
            RemoteProblem::NoValidator { size } => Some(*size),
            _ => None,
        }
    }

    /// What to set on the server so that the page can read the file in parts, for the
    /// disclosure under the sentence; `None` when the sentence says it all.
    pub fn what_to_set(&self) -> Option<&'static str> {
        match self {
            RemoteProblem::Unreachable { .. } => Some(
                "The server must allow other sites to read the file: it must send \
                 Access-Control-Allow-Origin (* or this page's origin) and, for reading in \
                 parts, Access-Control-Allow-Headers: Range and Access-Control-Expose-Headers: \
                 Content-Range, Content-Length, ETag, Last-Modified.",
            ),
            RemoteProblem::RangeIgnored { .. } => Some(
                "nginx and Apache answer Range requests for plain static files, but not for a \
                 file they compress on the fly (turn gzip off for .db files; nginx behind a \
                 proxy: proxy_force_ranges on) or generate. S3, R2 and CloudFront answer them \
                 (the bucket's CORS rules must allow the Range header, and CloudFront must \
                 forward it). GitHub Pages and Netlify answer them for files they serve as they \
                 are. Python's http.server does not.",
            ),
            RemoteProblem::HeaderHidden { .. } => Some(
                "The server must send Access-Control-Expose-Headers: Content-Range, \
                 Content-Length, ETag, Last-Modified. nginx: add_header \
                 Access-Control-Expose-Headers \"Content-Range, Content-Length, ETag, \
                 Last-Modified\" always; Apache: Header set Access-Control-Expose-Headers \
                 \"...\"; S3 and R2: ExposeHeaders in the bucket's CORS rules, with \
                 AllowedHeaders: Range; CloudFront: a response headers policy that exposes \
                 them; Netlify: a _headers file. GitHub Pages lets no header be set: serve \
                 askdb from the same site as the file, or the file from another host.",
            ),
            RemoteProblem::HeaderMissing { .. }
            | RemoteProblem::BadContentRange { .. }
            | RemoteProblem::NoLength => Some(
                "Serve the file as a plain static file (not generated, not compressed on the \
                 fly) from a host that supports HTTP Range requests fully: each answer to a \
                 Range request must be 206 with Content-Range: bytes START-END/LENGTH.",
            ),
            RemoteProblem::NoValidator { .. } => Some(
                "Static hosts send ETag or Last-Modified with every file (nginx, Apache, S3, \
                 R2, CloudFront, GitHub Pages, Netlify send both); a proxy, a function or a \
                 script that serves the file must pass them on, and on another site the ETag \
                 must be exposed (Access-Control-Expose-Headers: ETag; Last-Modified needs \
                 none).",
            ),
            RemoteProblem::Status { .. } => None,
        }
    }
}

impl fmt::Display for RemoteProblem {
    /// One sentence, without its full stop.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteProblem::Unreachable { why } => write!(
                f,
                "the server could not be reached ({why}): check the address, and that its \
                 cross-origin settings (Access-Control-Allow-Origin) let other sites read the file"
            ),
            RemoteProblem::RangeIgnored { .. } => write!(
                f,
                "the server sends the whole file when asked for a part (it ignores the Range \
                 header), so the database cannot be read on demand"
            ),
            RemoteProblem::Status { status } => write!(
                f,
                "the server answered {status} to a request for the start of the file: check the \
                 address{}",
                if matches!(status, 401 | 403) {
                    " and that the file is public"
                } else {
                    ""
                }
            ),
            RemoteProblem::HeaderHidden { header } => write!(
                f,
                "the server answers range requests, but its cross-origin (CORS) settings hide \
                 the {header} header this page needs to read the file in parts"
            ),
            RemoteProblem::HeaderMissing { header } => write!(
                f,
                "the server answered a part of the file without the {header} header, so the \
                 file's length is unknown"
            ),
            RemoteProblem::BadContentRange { value } => write!(
                f,
                "the server's Content-Range ({value:?}) is not one this page can read"
            ),
            RemoteProblem::NoLength => write!(
                f,
                "the server does not say the file's length (its Content-Range ends in /*)"
            ),
            RemoteProblem::NoValidator { .. } => write!(
                f,
                "the server sends neither an ETag nor a Last-Modified header, so a new version \
                 of the file could not be told from the old one between two reads: it is not \
                 read in parts"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(size: u64, header: u8, sample: Option<&str>) -> LazyIdentity {
        LazyIdentity {
            size,
            header: vec![header; 100],
            sampled_pages: vec![1, 50, 100],
            sample_sha256: sample.map(str::to_string),
            remote: None,
        }
    }

    fn remote(etag: Option<&str>, modified: Option<&str>) -> LazyIdentity {
        LazyIdentity {
            remote: Some(RemoteValidators {
                url: "https://example.org/a.db".into(),
                etag: etag.map(str::to_string),
                last_modified: modified.map(str::to_string),
            }),
            ..local(4096, 1, None)
        }
    }

    #[test]
    fn what_was_read_since_an_earlier_total() {
        let before = ReadStats {
            bytes: 4_096,
            requests: 2,
            waited_ms: None,
        };
        let now = ReadStats {
            bytes: 69_632,
            requests: 5,
            waited_ms: None,
        };
        assert_eq!(
            now.since(before),
            ReadStats {
                bytes: 65_536,
                requests: 3,
                waited_ms: None,
            }
        );
        // A total from before a restart of the count never goes below zero.
        assert_eq!(before.since(now), ReadStats::default());
    }

    #[test]
    fn sizes_read_as_people_read_them() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(48_000), "48 KB");
        assert_eq!(format_bytes(1_234_567), "1.2 MB");
        assert_eq!(format_bytes(4_500_000_000), "4.5 GB");
        let stats = ReadStats {
            bytes: 200_000,
            requests: 1,
            waited_ms: None,
        };
        assert_eq!(stats.to_string(), "200 KB in 1 read");
        assert_eq!(
            stats + stats,
            ReadStats {
                bytes: 400_000,
                requests: 2,
                waited_ms: None,
            }
        );
    }

    #[test]
    fn requests_to_a_server_say_how_long_they_were_waited_for() {
        let before = ReadStats {
            bytes: 1_000,
            requests: 2,
            waited_ms: Some(40),
        };
        let now = ReadStats {
            bytes: 13_000,
            requests: 5,
            waited_ms: Some(180),
        };
        let question = now.since(before);
        assert_eq!(
            question,
            ReadStats {
                bytes: 12_000,
                requests: 3,
                waited_ms: Some(140),
            }
        );
        assert_eq!(
            question.to_string(),
            "3 requests to the server (12 KB, 140 ms)"
        );
        assert_eq!(question.phrase(), question.to_string());
        let file = ReadStats {
            waited_ms: None,
            ..question
        };
        assert_eq!(file.phrase(), "read 12 KB in 3 reads");
        assert_eq!(
            (before + question).to_string(),
            "5 requests to the server (13 KB, 180 ms)"
        );
    }

    #[test]
    fn a_local_file_is_the_same_when_size_header_and_samples_agree() {
        let a = local(8192, 1, Some("aa"));
        assert!(a.same_as(&a.clone()));
        assert!(!a.same_as(&local(8193, 1, Some("aa"))), "size");
        assert!(!a.same_as(&local(8192, 2, Some("aa"))), "header");
        assert!(!a.same_as(&local(8192, 1, Some("bb"))), "sampled pages");
        assert!(
            !a.same_as(&remote(None, None)),
            "a local file is not a remote one"
        );
    }

    #[test]
    fn a_remote_file_is_the_same_when_the_server_says_so() {
        let a = remote(Some("\"v1\""), Some("Mon, 01 Jan 2024 00:00:00 GMT"));
        assert!(a.same_as(&a.clone()));
        assert!(!a.same_as(&remote(
            Some("\"v2\""),
            Some("Mon, 01 Jan 2024 00:00:00 GMT")
        )));
        assert!(!a.same_as(&remote(
            Some("\"v1\""),
            Some("Tue, 02 Jan 2024 00:00:00 GMT")
        )));
        // A validator the server did not send one of the times cannot tell them apart.
        assert!(a.same_as(&remote(None, Some("Mon, 01 Jan 2024 00:00:00 GMT"))));
    }

    #[test]
    fn each_remote_problem_is_one_sentence_with_what_to_set_beside_it() {
        let problems = [
            RemoteProblem::Unreachable {
                why: "Failed to fetch".into(),
            },
            RemoteProblem::RangeIgnored {
                size: Some(1_100_000_000),
            },
            RemoteProblem::Status { status: 403 },
            RemoteProblem::HeaderHidden {
                header: "Content-Range".into(),
            },
            RemoteProblem::HeaderMissing {
                header: "Content-Range".into(),
            },
            RemoteProblem::BadContentRange {
                value: "bytes x".into(),
            },
            RemoteProblem::NoLength,
            RemoteProblem::NoValidator { size: 40_000_000 },
        ];
        for problem in &problems {
            let sentence = problem.to_string();
            assert!(
                !sentence.contains(". ") && !sentence.ends_with('.'),
                "more than one sentence, or its own full stop: {sentence}"
            );
            assert!(sentence.len() < 240, "{sentence}");
            if !matches!(problem, RemoteProblem::Status { .. }) {
                assert!(problem.what_to_set().is_some(), "{problem:?}");
            }
        }
        let hidden = problems[3].to_string();
        assert!(hidden.contains("hide the Content-Range header"), "{hidden}");
        let set = problems[3].what_to_set().unwrap();
        assert!(
            set.contains("Access-Control-Expose-Headers: Content-Range"),
            "{set}"
        );
        assert_eq!(problems[1].whole_download_size(), Some(1_100_000_000));
        assert!(problems[1].to_string().contains("ignores the Range header"));
        let set = problems[1].what_to_set().unwrap();
        assert!(set.contains("nginx") && set.contains("CloudFront"), "{set}");
        let forbidden = problems[2].to_string();
        assert!(forbidden.contains("answered 403"), "{forbidden}");
        assert!(forbidden.ends_with("the file is public"), "{forbidden}");
        assert_eq!(problems[7].whole_download_size(), Some(40_000_000));
        assert!(problems[7].what_to_set().unwrap().contains("ETag"));
    }
}
