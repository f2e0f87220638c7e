//! Why a web address cannot be read in parts ([`RemoteProblem`]): one sentence for each, what to
//! set on the server beside it, and whether the whole file may be offered instead.

use std::fmt;

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
