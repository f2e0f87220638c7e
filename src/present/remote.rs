//! A database at a web address that cannot be read in parts, as a person reads of it: what it
//! offers instead (`engine::on_demand::remote::WholeDownload`), and what to set on the server
//! (`RemoteProblem::what_to_set`, in the page's language: the English is the engine's, the
//! tests hold it to it). The problem itself is `present::errors::remote`'s to say.

use crate::engine::on_demand::remote::WholeDownload;
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

    /// Mutation: a word changed in one of the catalogue's server settings (or two problems'
    /// settings swapped): the page's English is the engine's, byte for byte.
    #[test]
    fn what_to_set_reads_as_the_engine_says_it() {
        for problem in every_problem() {
            assert_eq!(
                what_to_set(&problem).as_deref(),
                problem.what_to_set(),
                "{problem:?}"
            );
        }
    }
}
