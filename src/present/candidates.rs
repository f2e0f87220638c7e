//! A question's candidates as a person reads them, in the page's language: how each was asked,
//! how their results agree, and why one has no result.
//!
//! `Agreement::summary` and `CandidateAnswer::no_result` stay English: a saved conversation and
//! the evaluation's reports keep them. These say the same in English, and are what the page shows.

use super::failure::agent_error;
use super::marked::data;
use crate::agent::candidates::{Agreement, Approach, CandidateAnswer};
use crate::tr;

/// How the candidates' results agree: "3 of 3 candidates agree", "2 of 3 candidates agree; 1
/// gave no result", "The candidates disagree: 3 candidates gave 2 different results", "None of
/// 3 candidates gave a result".
pub fn agreement(agreement: &Agreement) -> String {
    let (count, without) = (agreement.candidates, agreement.without_result.len());
    match agreement.groups.len() {
        0 => tr!("chat-agreement-none", count = count),
        1 if agreement.agreeing() == 1 => {
            tr!("chat-agreement-only-one", count = count, without = without)
        }
        1 => tr!(
            "chat-agreement-agree",
            agreeing = agreement.agreeing(),
            count = count,
            without = without
        ),
        distinct => tr!(
            "chat-agreement-disagree",
            with = count - without,
            distinct = distinct,
            without = without
        ),
    }
}

/// Why a candidate has no result to compare; `None` when it has one.
pub fn no_result(candidate: &CandidateAnswer) -> Option<String> {
    let answer = match &candidate.outcome {
        Err(failure) => {
            let why = agent_error(&failure.error);
            return Some(tr!("chat-candidate-no-answer", why = why));
        }
        Ok(answer) => answer,
    };
    if answer.sql.is_none() {
        return Some(tr!("chat-candidate-no-sql"));
    }
    match &candidate.evidence {
        None => Some(tr!("chat-candidate-stopped")),
        // The database's own words.
        Some(Err(error)) => Some(tr!(
            "chat-candidate-sql-failed",
            error = data(&error.to_string())
        )),
        Some(Ok(_)) => None,
    }
}

/// How a candidate was asked to work, in a few words: "as asked", "in parts", …
pub fn approach(approach: Approach) -> String {
    match approach {
        Approach::AsAsked => tr!("chat-approach-as-asked"),
        Approach::InParts => tr!("chat-approach-in-parts"),
        Approach::ValuesFirst => tr!("chat-approach-values-first"),
        Approach::JoinPaths => tr!("chat-approach-join-paths"),
        Approach::WordByWord => tr!("chat-approach-word-by-word"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{AgentError, Answer, Failure};
    use crate::engine::DbError;
    use crate::llm::Usage;

    fn agreement_of(candidates: usize, groups: &[&[usize]], without: &[usize]) -> Agreement {
        Agreement {
            candidates,
            groups: groups.iter().map(|g| g.to_vec()).collect(),
            without_result: without.to_vec(),
        }
    }

    /// In English, the page says what the agent's English summary and reasons say (a saved
    /// conversation keeps those). Mutation: "agree" made "agreed" in `chat-agreement-agree`
    /// fails it.
    #[test]
    fn in_english_the_page_says_what_the_agent_says() {
        for agreement in [
            agreement_of(3, &[&[0, 1, 2]], &[]),
            agreement_of(3, &[&[0, 2]], &[1]),
            agreement_of(3, &[&[1]], &[0, 2]),
            agreement_of(1, &[&[0]], &[]),
            agreement_of(3, &[&[0, 1], &[2]], &[]),
            agreement_of(4, &[&[0], &[2]], &[1, 3]),
            agreement_of(3, &[], &[0, 1, 2]),
            agreement_of(1, &[], &[0]),
        ] {
            assert_eq!(super::agreement(&agreement), agreement.summary());
        }
        let answer = |sql: Option<&str>| Answer {
            text: "42".into(),
            sql: sql.map(Into::into),
            values: Vec::new(),
            notes: None,
            verified: true,
            usage: Usage::default(),
            steps: 1,
            elapsed_ms: 1.0,
        };
        let failed = Failure {
            error: AgentError::StepLimit { steps: 10 },
            usage: Usage::default(),
            steps: 10,
            elapsed_ms: 1.0,
        };
        let candidates = [
            (Err(failed), None),
            (Ok(answer(None)), None),
            (Ok(answer(Some("SELECT 42"))), None),
            (
                Ok(answer(Some("SELECT x"))),
                Some(Err(DbError::Sqlite("no such column: x".into()))),
            ),
        ];
        for (outcome, evidence) in candidates {
            let candidate = CandidateAnswer {
                approach: Approach::InParts,
                outcome,
                evidence,
            };
            let said = no_result(&candidate).map(|said| crate::present::marked::plain(&said));
            assert_eq!(said, candidate.no_result());
        }
        for each in Approach::ALL {
            assert_eq!(approach(each), each.label());
        }
    }
}
