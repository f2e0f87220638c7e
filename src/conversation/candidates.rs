//! Replaying a question that was asked of several candidates: each candidate's recorded turns
//! answer for its own model ([`ReplayLlm`]), the candidates are drawn again through the same
//! [`CandidateAgents`] as a live question (their tools and evidence SQL run live), and the
//! grouping they give now is compared with the recorded one.

use super::format::{RecordedCandidates, RecordedQuestion};
use super::replay::{Difference, Pace, ReplayLlm};
use crate::agent::candidates::{CandidateAgents, Candidates};
use crate::agent::AgentConfig;
use crate::clock::Clock;
use crate::engine::QueryLimits;

/// The recorded models of one question's candidates, one [`ReplayLlm`] each.
pub struct CandidateReplay<'a> {
    llms: Vec<ReplayLlm<'a>>,
}

impl<'a> CandidateReplay<'a> {
    /// One replayed model per recorded candidate; `on_difference` is told of each tool result
    /// that differs (the difference names its candidate).
    pub fn new(
        recorded: &RecordedCandidates,
        clock: &'a dyn Clock,
        pace: &Pace,
        on_difference: impl Fn(&Difference) + Clone + 'a,
    ) -> CandidateReplay<'a> {
        let llms = recorded
            .drawn
            .iter()
            .enumerate()
            .map(|(index, candidate)| {
                let report = on_difference.clone();
                ReplayLlm::new(candidate.turns.clone(), clock, pace.clone())
                    .for_candidate(index)
                    .on_difference(move |difference| report(difference))
            })
            .collect();
        CandidateReplay { llms }
    }

    /// The agents that draw the candidates again on `db`, as many as were recorded.
    pub fn agents<'b, D: ?Sized>(
        &'b self,
        db: &'b D,
        clock: &'b dyn Clock,
        config: AgentConfig,
        evidence_limits: QueryLimits,
    ) -> CandidateAgents<'b, D, ReplayLlm<'a>> {
        CandidateAgents {
            db,
            llms: self.llms.iter().collect(),
            clock,
            config,
            evidence_limits,
        }
    }

    /// The replayed models themselves, in the candidates' order.
    pub fn into_models(self) -> Vec<ReplayLlm<'a>> {
        self.llms
    }

    /// Every difference found so far, candidate by candidate.
    pub fn differences(&self) -> Vec<Difference> {
        self.llms.iter().flat_map(ReplayLlm::differences).collect()
    }
}

/// How the candidates' grouping `now` differs from the recorded one, in words; `None` when
/// they are grouped the same (the same groups, in the same order, and the same candidates
/// without a result).
pub fn other_agreement(recorded: &RecordedCandidates, now: &Candidates) -> Option<String> {
    let (before, after) = (&recorded.agreement, &now.agreement);
    let same = before.groups == after.groups && before.without_result == after.without_result;
    (!same).then(|| {
        format!(
            "the candidates were recorded as \"{}\" ({}); now: \"{}\" ({})",
            before.summary(),
            groups(&before.groups),
            after.summary(),
            groups(&after.groups)
        )
    })
}

/// "candidates 1, 2 | 3": each group's candidates from 1.
fn groups(groups: &[Vec<usize>]) -> String {
    if groups.is_empty() {
        return "no group".into();
    }
    let shown: Vec<String> = groups
        .iter()
        .map(|group| {
            let numbers: Vec<String> = group.iter().map(|i| (i + 1).to_string()).collect();
            numbers.join(", ")
        })
        .collect();
    format!("candidates {}", shown.join(" | "))
}

impl RecordedQuestion {
    /// The candidate the recording took as the answer: the agreed one, or the one the person
    /// chose on a split.
    pub fn taken_candidate(&self) -> Option<usize> {
        let candidates = self.candidates.as_ref()?;
        candidates.agreement.agreed().or(candidates.chosen)
    }
}
