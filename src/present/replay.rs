//! A replayed conversation as a person reads it, in the page's language: a file that cannot be
//! read, the open database that is not the recorded one, a step whose result differs, and
//! candidates grouped otherwise than recorded.
//!
//! `conversation`'s own sentences (`ReadError`'s `Display`, `differs_from`, `Difference::describe`,
//! `other_agreement`) stay English for the native tools (`askdb-eval`, the documentation's
//! checks); these say the same in English, and are what the page shows. Names, hashes, addresses
//! and what a parser said go in as they are.

use super::candidates::agreement;
use super::marked::data;
use super::transcript::listed;
use crate::agent::candidates::{Agreement, Candidates};
use crate::conversation::{
    DatabaseIdentity, Difference, ReadError, RecordedCandidates, FORMAT, FORMAT_CANDIDATES, LIMITS,
};
use crate::engine::identity::{same_database, Sameness};
use crate::text::cut_chars;
use crate::tr;

/// Why a conversation file (or a kept conversation) cannot be replayed. What is wrong in a
/// damaged one is said as the reader of files says it, in English.
pub fn unreadable(error: &ReadError) -> String {
    match error {
        ReadError::TooLarge { bytes } => tr!(
            "chat-conversation-too-large",
            bytes = *bytes,
            limit = LIMITS.file_bytes
        ),
        ReadError::NotJson { message } => {
            tr!("chat-conversation-not-json", message = data(message))
        }
        ReadError::CutShort => tr!("chat-conversation-cut-short"),
        ReadError::NotAConversation => {
            let field = format!("\"format\": \"{FORMAT}\"");
            tr!("chat-conversation-no-format", field = data(&field))
        }
        ReadError::ForeignFormat { found } => tr!(
            "chat-conversation-foreign-format",
            field = data("\"format\""),
            found = data(&cut_chars(found, 60)),
            format = data(FORMAT)
        ),
        ReadError::WrongVersion { found } => tr!(
            "chat-conversation-wrong-version",
            found = data(&cut_chars(found, 60)),
            format = data(FORMAT),
            candidates_format = data(FORMAT_CANDIDATES)
        ),
        ReadError::WrongShape { message } => {
            tr!("chat-conversation-damaged", message = data(message))
        }
        ReadError::Invalid { what } => tr!("chat-conversation-invalid", what = data(what)),
    }
}

/// Why `open` is not the database `recorded` was recorded on, or cannot be told from it;
/// `None` when it is the same.
pub fn other_database(recorded: &DatabaseIdentity, open: &DatabaseIdentity) -> Option<String> {
    let (Some(was), Some(now)) = (recorded.identity(), open.identity()) else {
        return Some(tr!(
            "chat-replay-database-unidentified",
            name = data(&recorded.name)
        ));
    };
    let (recorded_identity, open_identity) = (data(&was.to_string()), data(&now.to_string()));
    let (recorded_name, open_name) = (data(&recorded.name), data(&open.name));
    // Sizes in bytes are written as the file's record has them, digit for digit.
    let (recorded_size, open_size) = (recorded.size.to_string(), open.size.to_string());
    match same_database(&was, &now) {
        Sameness::Same => None,
        Sameness::Different => Some(tr!(
            "chat-replay-other-database",
            recorded = &recorded_name,
            recorded_size = &recorded_size,
            recorded_identity = &recorded_identity,
            open = &open_name,
            open_size = &open_size,
            open_identity = &open_identity
        )),
        Sameness::CannotTell => Some(tr!(
            "chat-replay-database-cannot-tell",
            recorded = recorded_name,
            recorded_size = recorded_size,
            recorded_identity = recorded_identity,
            open = open_name,
            open_size = open_size,
            open_identity = open_identity
        )),
    }
}

/// A tool result that is not what the recording says, in a sentence for its step.
pub fn difference(difference: &Difference) -> String {
    let tool = data(&difference.tool);
    match (&difference.recorded, &difference.live) {
        (Some(_), Some(_)) => tr!("chat-replay-difference", tool = tool),
        (None, _) => tr!("chat-replay-difference-not-recorded", tool = tool),
        (_, None) => tr!("chat-replay-difference-not-made", tool = tool),
    }
}

/// How the candidates' grouping `now` differs from the recorded one; `None` when they are
/// grouped the same.
pub fn other_agreement(recorded: &RecordedCandidates, now: &Candidates) -> Option<String> {
    let (before, after) = (&recorded.agreement, &now.agreement);
    let same = before.groups == after.groups && before.without_result == after.without_result;
    (!same).then(|| {
        tr!(
            "chat-replay-candidates-otherwise",
            before = agreement(before),
            before_groups = groups(before),
            after = agreement(after),
            after_groups = groups(after)
        )
    })
}

/// "candidates 1, 2 | 3": each group's candidates from 1.
fn groups(agreement: &Agreement) -> String {
    if agreement.groups.is_empty() {
        return tr!("chat-replay-no-group");
    }
    let shown: Vec<String> = agreement
        .groups
        .iter()
        .map(|group| {
            let numbers: Vec<String> = group.iter().map(|i| (i + 1).to_string()).collect();
            listed(&numbers)
        })
        .collect();
    tr!("chat-replay-groups", groups = shown.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversation::format::DatasetteRecord;
    use crate::conversation::other_agreement as conversation_agreement;
    use crate::present::marked::plain;

    fn bytes(name: &str, size: u64, digit: char) -> DatabaseIdentity {
        DatabaseIdentity {
            name: name.into(),
            size,
            sha256: Some(digit.to_string().repeat(64)),
            on_demand: None,
            datasette: None,
        }
    }

    /// In English, the page says what the conversation's own English says (the native tools
    /// keep it). Mutation: "is open" made "is opened" in `chat-replay-other-database` fails it.
    #[test]
    fn in_english_the_page_says_what_the_conversation_says() {
        let recorded = bytes("shop.db", 1_234_567, 'a');
        let served = DatabaseIdentity {
            sha256: None,
            datasette: Some(DatasetteRecord {
                address: "https://data.example/shop".into(),
                sha256: None,
            }),
            ..bytes("shop", 2_000, 'c')
        };
        let unknown = DatabaseIdentity {
            sha256: None,
            ..bytes("x.db", 1, 'a')
        };
        for open in [
            bytes("shop.db", 1_234_567, 'a'),
            bytes("other.db", 99, 'b'),
            served,
            unknown.clone(),
        ] {
            assert_eq!(
                other_database(&recorded, &open).map(|s| plain(&s)),
                recorded.differs_from(&open)
            );
        }
        assert_eq!(
            other_database(&unknown, &recorded).map(|s| plain(&s)),
            unknown.differs_from(&recorded)
        );

        for (recorded, live) in [(Some("1"), Some("2")), (None, Some("2")), (Some("1"), None)] {
            let found = Difference {
                candidate: None,
                step: 1,
                call_id: "c1".into(),
                tool: "run_sql".into(),
                recorded: recorded.map(Into::into),
                live: live.map(Into::into),
            };
            assert_eq!(plain(&difference(&found)), found.describe());
        }

        for error in [
            ReadError::TooLarge { bytes: 9_000_000 },
            ReadError::NotJson {
                message: "expected value at line 1".into(),
            },
            ReadError::CutShort,
            ReadError::NotAConversation,
            ReadError::ForeignFormat {
                found: "x".repeat(80),
            },
            ReadError::WrongVersion {
                found: "askdb-conversation/9".into(),
            },
            ReadError::WrongShape {
                message: "missing field `model`".into(),
            },
            ReadError::Invalid {
                what: "holds no question".into(),
            },
        ] {
            assert_eq!(plain(&unreadable(&error)), error.to_string());
        }

        let grouped = |groups: Vec<Vec<usize>>, without: Vec<usize>| Agreement {
            candidates: 3,
            groups,
            without_result: without,
        };
        let recorded = RecordedCandidates {
            drawn: Vec::new(),
            agreement: grouped(vec![vec![0, 1], vec![2]], Vec::new()),
            chosen: None,
        };
        for now in [
            grouped(vec![vec![0, 1], vec![2]], Vec::new()),
            grouped(vec![vec![0, 1, 2]], Vec::new()),
            grouped(Vec::new(), vec![0, 1, 2]),
        ] {
            let now = Candidates {
                answers: Vec::new(),
                agreement: now,
            };
            assert_eq!(
                other_agreement(&recorded, &now),
                conversation_agreement(&recorded, &now)
            );
        }
    }
}
