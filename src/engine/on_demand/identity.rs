//! What identifies a database read on demand without reading it whole ([`LazyIdentity`]), as
//! plain data: the page's engine (`on_demand::lazy`, wasm32) fills it in at open.

use serde::{Deserialize, Serialize};

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
}
