//! A database at a web address (or read on demand) as a person reads of it: why the address
//! cannot be read in parts (`engine::on_demand::RemoteProblem`) and what to set on the server,
//! what it offers instead (`engine::on_demand::remote::WholeDownload`), and how the open
//! database is read, for the status.
//!
//! `RemoteProblem`'s `Display` is what the model and the logs read; these are the page's words,
//! the same in English (the tests hold them to it).

use crate::engine::kind::Reads;
use crate::engine::on_demand::remote::{WholeDownload, WholeReason, READ_WHOLE_BELOW_BYTES};
use crate::engine::on_demand::RemoteProblem;
use crate::text::format_bytes;
use crate::tr;

/// The sentence a person reads after the problem: what `offer` is, or why there is none, with
/// downloads refused past `limit` bytes; `None` when nothing is offered.
pub fn whole_download(offer: &WholeDownload, limit: u64) -> Option<String> {
    let limit_text = format_bytes(limit);
    match offer {
        WholeDownload::Offer { size: Some(size) } => {
            Some(tr!("open-remote-offer-sized", size = format_bytes(*size)))
        }
        WholeDownload::Offer { size: None } => {
            Some(tr!("open-remote-offer-unsized", limit = limit_text))
        }
        WholeDownload::TooLarge { size } => Some(tr!(
            "open-remote-offer-too-large",
            size = format_bytes(*size),
            limit = limit_text
        )),
        WholeDownload::NotOffered => None,
    }
}

/// Why the database at a web address cannot be read in parts, in one sentence without its
/// full stop.
pub fn problem(problem: &RemoteProblem) -> String {
    match problem {
        RemoteProblem::Unreachable { why } => tr!("open-remote-unreachable", why = why),
        RemoteProblem::RangeIgnored { .. } => tr!("open-remote-range-ignored"),
        RemoteProblem::Status { status } if matches!(status, 401 | 403) => {
            tr!("open-remote-status-private", status = status.to_string())
        }
        RemoteProblem::Status { status } => tr!("open-remote-status", status = status.to_string()),
        RemoteProblem::HeaderHidden { header } => {
            tr!("open-remote-header-hidden", header = header)
        }
        RemoteProblem::HeaderMissing { header } => {
            tr!("open-remote-header-missing", header = header)
        }
        RemoteProblem::BadContentRange { value } => {
            tr!(
                "open-remote-bad-content-range",
                value = format!("{value:?}")
            )
        }
        RemoteProblem::NoLength => tr!("open-remote-no-length"),
        RemoteProblem::NoValidator { .. } => tr!("open-remote-no-validator"),
    }
}

/// What to set on the server so that the page can read the file in parts, for the disclosure
/// under the sentence; `None` when the sentence says it all.
pub fn what_to_set(problem: &RemoteProblem) -> Option<String> {
    Some(match problem {
        RemoteProblem::Unreachable { .. } => tr!("open-remote-set-cors"),
        RemoteProblem::RangeIgnored { .. } => tr!("open-remote-set-ranges"),
        RemoteProblem::HeaderHidden { .. } => tr!("open-remote-set-expose"),
        RemoteProblem::HeaderMissing { .. }
        | RemoteProblem::BadContentRange { .. }
        | RemoteProblem::NoLength => tr!("open-remote-set-static"),
        RemoteProblem::NoValidator { .. } => tr!("open-remote-set-validator"),
        RemoteProblem::Status { .. } => return None,
    })
}

/// How the open database's bytes are read, for the status, when that is not "all of it, from a
/// file here, into memory": "4.6 GB, read on demand from the file" (the person then knows why
/// hiding is refused and a scan is slower), or why a file at a web address was downloaded
/// whole. `host`: the server it is read from, when remote.
pub fn how_read(
    from: Reads,
    size: u64,
    host: Option<&str>,
    downloaded: Option<WholeReason>,
) -> Option<String> {
    let host = || host.map_or_else(|| tr!("open-reading-its-server"), str::to_string);
    let size = format_bytes(size);
    let reading = match from {
        Reads::InMemory => None,
        Reads::FilePages => Some(tr!("open-reading-file-pages", size = &size)),
        Reads::RangeRequests => Some(tr!("open-reading-ranges", size = &size, host = host())),
        Reads::ServerQueries => Some(tr!("open-reading-datasette", size = &size)),
    };
    reading.or_else(|| {
        downloaded.map(|why| match why {
            WholeReason::ServerSendsWhole => {
                tr!(
                    "open-reading-server-sends-whole",
                    host = host(),
                    size = &size
                )
            }
            WholeReason::Small => tr!(
                "open-reading-small",
                host = host(),
                size = &size,
                mib = READ_WHOLE_BELOW_BYTES / (1024 * 1024)
            ),
            WholeReason::Asked => tr!("open-reading-asked", host = host(), size = &size),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mutation: the limit left out of the sentence for a file too large (`(at most …)`
    /// dropped), or a sentence for `NotOffered`.
    #[test]
    fn each_offer_reads_as_one_sentence_and_none_says_nothing() {
        const LIMIT: u64 = 512 * 1024 * 1024;
        assert_eq!(
            whole_download(
                &WholeDownload::Offer {
                    size: Some(4_900_000)
                },
                LIMIT
            )
            .as_deref(),
            Some("It can be downloaded whole instead (4.9 MB) and read in this browser's memory.")
        );
        assert_eq!(
            whole_download(&WholeDownload::Offer { size: None }, LIMIT).as_deref(),
            Some(
                "It can be downloaded whole instead and read in this browser's memory (its size \
                 is not known yet: the download stops past 537 MB)."
            )
        );
        assert_eq!(
            whole_download(&WholeDownload::TooLarge { size: 629_000_000 }, LIMIT).as_deref(),
            Some("At 629 MB it is too large to download whole here (at most 537 MB).")
        );
        assert_eq!(whole_download(&WholeDownload::NotOffered, LIMIT), None);
    }

    fn every_problem() -> Vec<RemoteProblem> {
        vec![
            RemoteProblem::Unreachable {
                why: "Failed to fetch".into(),
            },
            RemoteProblem::RangeIgnored { size: Some(1_000) },
            RemoteProblem::Status { status: 403 },
            RemoteProblem::Status { status: 404 },
            RemoteProblem::HeaderHidden {
                header: "Content-Range".into(),
            },
            RemoteProblem::HeaderMissing {
                header: "Content-Length".into(),
            },
            RemoteProblem::BadContentRange {
                value: "bytes x".into(),
            },
            RemoteProblem::NoLength,
            RemoteProblem::NoValidator { size: 40_000_000 },
        ]
    }

    /// Mutation: a word changed in one of the catalogue's problems or in what to set (or two
    /// variants' messages swapped) fails: the page's English is the model's, byte for byte.
    #[test]
    fn the_page_says_each_problem_as_the_engine_does() {
        for problem in every_problem() {
            assert_eq!(super::problem(&problem), problem.to_string());
            assert_eq!(
                what_to_set(&problem).as_deref(),
                problem.what_to_set(),
                "{problem:?}"
            );
        }
    }

    /// Mutation: the host left out of a database read by range requests, or `Small`'s and
    /// `Asked`'s sentences swapped.
    #[test]
    fn the_status_says_how_a_database_is_read() {
        let host = Some("data.example.org");
        assert_eq!(how_read(Reads::InMemory, 5_000_000, host, None), None);
        assert_eq!(
            how_read(Reads::FilePages, 4_600_000_000, None, None).as_deref(),
            Some("4.6 GB, read on demand from the file")
        );
        assert_eq!(
            how_read(Reads::RangeRequests, 1_000_000, host, None).as_deref(),
            Some(
                "1.0 MB, read on demand from data.example.org (each read is an HTTP range request)"
            )
        );
        assert_eq!(
            how_read(Reads::InMemory, 2_000_000, None, Some(WholeReason::Small)).as_deref(),
            Some(
                "downloaded whole from its server (2.0 MB; files under 16 MiB are, so that \
                 everything works as for a file on this computer)"
            )
        );
        assert_eq!(
            how_read(Reads::InMemory, 2_000_000, host, Some(WholeReason::Asked)).as_deref(),
            Some("downloaded whole from data.example.org (2.0 MB)")
        );
        assert_eq!(
            how_read(
                Reads::InMemory,
                2_000_000,
                host,
                Some(WholeReason::ServerSendsWhole)
            )
            .as_deref(),
            Some("data.example.org sends whole files; downloaded 2.0 MB")
        );
    }
}
