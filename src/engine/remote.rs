//! A database at a web address, as plain rules the page follows: which addresses are read on
//! demand ([`DbAddress`]), what to show of where it is ([`host_of`]), and what the page offers
//! when the server cannot serve it in parts ([`WholeDownload`]). Pure: the page's opening
//! (`ui/opening.rs`) and the engine that reads on demand (`engine::lazy`) act on them.

use super::kind::ON_DEMAND_FROM_BYTES;
use super::reads::{format_bytes, RemoteProblem};

/// What a `?db=` value (or the address field) names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbAddress {
    /// A file beside the page (`demo/shop.db`, `data/x.db`: a relative address), downloaded
    /// whole and read in memory, as the page always did.
    Beside(String),
    /// An absolute `http://` or `https://` address: read on demand with HTTP Range requests.
    Remote(String),
}

impl DbAddress {
    /// Reads an address as given (trimmed).
    pub fn read(text: &str) -> DbAddress {
        let text = text.trim();
        if is_web_address(text) {
            DbAddress::Remote(text.to_string())
        } else {
            DbAddress::Beside(text.to_string())
        }
    }
}

/// Whether `text` is an absolute http or https address with a host.
pub fn is_web_address(text: &str) -> bool {
    let lower = text.trim().to_ascii_lowercase();
    ["http://", "https://"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
        && host_of(text).is_some()
}

/// The host (and port) of an absolute address, without any user info: what the page says a
/// database is read from ("read on demand from data.example.org").
pub fn host_of(url: &str) -> Option<String> {
    let (_, rest) = url.trim().split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    (!host.is_empty()).then(|| host.to_string())
}

/// The largest file the page downloads whole when its server cannot serve it in parts: the
/// size from which a local file is read on demand rather than in memory
/// (`engine::kind::ON_DEMAND_FROM_BYTES`), for the same reasons: past it, opening in memory
/// takes seconds and holds the file twice in the tab's memory while it opens, and sql.js stops
/// at 2 GB.
pub const WHOLE_DOWNLOAD_LIMIT_BYTES: u64 = ON_DEMAND_FROM_BYTES;

/// What the page offers when a database at a web address cannot be read in parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WholeDownload {
    /// Download it whole and read it in memory: `size` when the server said it (else the
    /// download stops past the limit).
    Offer { size: Option<u64> },
    /// Too large to download whole here.
    TooLarge { size: u64 },
    /// Nothing to offer: the address cannot be read at all (unreachable, an error status), so
    /// a download would fail the same way.
    NotOffered,
}

impl WholeDownload {
    /// What to offer for `problem`, with downloads refused past `limit` bytes.
    pub fn for_problem(problem: &RemoteProblem, limit: u64) -> WholeDownload {
        match problem {
            RemoteProblem::Unreachable { .. } | RemoteProblem::Status { .. } => {
                WholeDownload::NotOffered
            }
            RemoteProblem::RangeIgnored { size: Some(size) } if *size > limit => {
                WholeDownload::TooLarge { size: *size }
            }
            RemoteProblem::RangeIgnored { size } => WholeDownload::Offer { size: *size },
            RemoteProblem::HeaderHidden { .. }
            | RemoteProblem::HeaderMissing { .. }
            | RemoteProblem::BadContentRange { .. }
            | RemoteProblem::NoLength => WholeDownload::Offer { size: None },
        }
    }

    /// The sentence a person reads after the problem: what the offer is, or why there is none.
    pub fn sentence(&self, limit: u64) -> Option<String> {
        let limit_text = format_bytes(limit);
        match self {
            WholeDownload::Offer { size: Some(size) } => Some(format!(
                "It can be downloaded whole instead ({}) and read in this browser's memory.",
                format_bytes(*size)
            )),
            WholeDownload::Offer { size: None } => Some(format!(
                "It can be downloaded whole instead and read in this browser's memory (its size \
                 is not known yet: the download stops past {limit_text})."
            )),
            WholeDownload::TooLarge { size } => Some(format!(
                "At {} it is too large to download whole here: the page downloads at most \
                 {limit_text} (larger files open in seconds only when read in parts, and a \
                 whole download would be held twice in the tab's memory while it opens).",
                format_bytes(*size)
            )),
            WholeDownload::NotOffered => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_web_addresses_are_read_on_demand_and_the_rest_sit_beside_the_page() {
        for remote in [
            "https://data.example.org/big.db",
            "HTTP://127.0.0.1:8080/x.db",
            "  https://example.org/a.db  ",
        ] {
            assert_eq!(
                DbAddress::read(remote),
                DbAddress::Remote(remote.trim().into())
            );
        }
        for beside in [
            "demo/shop.db",
            "files/plain.db",
            "/data/x.db",
            "//example.org/x.db",
            "https://",
            "ftp://example.org/x.db",
            "data:application/octet-stream,SQLite",
            "javascript:alert(1)",
        ] {
            assert_eq!(DbAddress::read(beside), DbAddress::Beside(beside.into()));
        }
    }

    #[test]
    fn the_host_shown_has_its_port_and_no_user_info() {
        assert_eq!(
            host_of("https://data.example.org/a/b.db?x=1").as_deref(),
            Some("data.example.org")
        );
        assert_eq!(
            host_of("http://127.0.0.1:4321/range/big.db").as_deref(),
            Some("127.0.0.1:4321")
        );
        assert_eq!(
            host_of("https://user:secret@example.org/x.db").as_deref(),
            Some("example.org")
        );
        assert_eq!(host_of("demo/shop.db"), None);
    }

    #[test]
    fn a_whole_download_is_offered_up_to_the_limit_and_refused_past_it() {
        let limit = WHOLE_DOWNLOAD_LIMIT_BYTES;
        let ignored = |size| RemoteProblem::RangeIgnored { size };
        assert_eq!(
            WholeDownload::for_problem(&ignored(Some(limit)), limit),
            WholeDownload::Offer { size: Some(limit) }
        );
        assert_eq!(
            WholeDownload::for_problem(&ignored(Some(limit + 1)), limit),
            WholeDownload::TooLarge { size: limit + 1 }
        );
        let hidden = RemoteProblem::HeaderHidden {
            header: "Content-Range".into(),
        };
        assert_eq!(
            WholeDownload::for_problem(&hidden, limit),
            WholeDownload::Offer { size: None }
        );
        assert_eq!(
            WholeDownload::for_problem(&RemoteProblem::Status { status: 404 }, limit),
            WholeDownload::NotOffered
        );
        let offer = WholeDownload::Offer {
            size: Some(12_000_000),
        }
        .sentence(limit)
        .unwrap();
        assert!(
            offer.contains("downloaded whole instead (12 MB)"),
            "{offer}"
        );
        let refused = WholeDownload::TooLarge {
            size: 1_100_000_000,
        }
        .sentence(limit)
        .unwrap();
        assert!(refused.contains("At 1.1 GB it is too large"), "{refused}");
        assert!(refused.contains("at most 537 MB"), "{refused}");
    }
}
