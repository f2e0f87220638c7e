//! What a web address that cannot be read in parts offers instead
//! (`engine::on_demand::remote::WholeDownload`), as a person reads it after the problem.

use crate::engine::on_demand::remote::WholeDownload;
use crate::text::format_bytes;

/// The sentence a person reads after the problem: what `offer` is, or why there is none, with
/// downloads refused past `limit` bytes; `None` when nothing is offered.
pub fn whole_download(offer: &WholeDownload, limit: u64) -> Option<String> {
    let limit_text = format_bytes(limit);
    match offer {
        WholeDownload::Offer { size: Some(size) } => Some(format!(
            "It can be downloaded whole instead ({}) and read in this browser's memory.",
            format_bytes(*size)
        )),
        WholeDownload::Offer { size: None } => Some(format!(
            "It can be downloaded whole instead and read in this browser's memory (its size \
             is not known yet: the download stops past {limit_text})."
        )),
        WholeDownload::TooLarge { size } => Some(format!(
            "At {} it is too large to download whole here (at most {limit_text}).",
            format_bytes(*size)
        )),
        WholeDownload::NotOffered => None,
    }
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
}
