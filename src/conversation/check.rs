//! Checking a recording against a database, with no model: every recorded question is asked
//! again through the agent with [`ReplayLlm`] in place of the model (no pause between turns),
//! the tools run live on the database, and what no longer matches is collected: the database
//! itself (by the page's rule, [`DatabaseIdentity::differs_from`]), each tool result that
//! differs (which question, which step, expected and now) and a question that ends otherwise
//! than it was recorded. This is what a documentation build runs (`askdb-eval replay-check`)
//! so that readers are never shown answers the data no longer gives.

use super::candidates::{other_agreement, CandidateReplay};
use super::format::{ConversationFile, DatabaseIdentity, RecordedQuestion};
use super::replay::{timings_as, Difference, Pace, ReplayLlm};
use crate::agent::{Agent, Answer, Failure, Session};
use crate::clock::Clock;
use crate::engine::Database;
use crate::text::cut_chars;
use std::fmt::Write;

/// A quoted result shows this many characters before the first difference…
const BEFORE_DIFFERENCE: usize = 80;
/// …and this many in all.
const QUOTED: usize = 320;

/// What one recorded question gave when replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionCheck {
    /// 1 for the first question of the file.
    pub number: usize,
    pub question: String,
    /// Tool results that are not what the model saw when it was recorded.
    pub differences: Vec<Difference>,
    /// How the replay ended, when that is not how the recording ended.
    pub ending: Option<String>,
    /// Model turns replayed.
    pub steps: usize,
}

/// What a whole recording gave when replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayCheck {
    /// Why the database is not the one recorded on, by the page's rule (the page says the same
    /// at the top of the replay).
    pub other_database: Option<String>,
    pub questions: Vec<QuestionCheck>,
}

impl ReplayCheck {
    /// True when a reader's page would show the recording with no warning at all.
    pub fn matches(&self) -> bool {
        self.other_database.is_none()
            && self
                .questions
                .iter()
                .all(|q| q.differences.is_empty() && q.ending.is_none())
    }

    /// The report for a person (or a CI log): what matched, or each step that did not with
    /// what was recorded and what the database gives now.
    pub fn report(&self, recording: &str, database: &str) -> String {
        let mut out = String::new();
        let steps: usize = self.questions.iter().map(|q| q.steps).sum();
        let questions = count(self.questions.len(), "question", "questions");
        if self.matches() {
            let _ = writeln!(
                out,
                "ok: {recording} replays on {database} as recorded ({questions}, {})",
                count(steps, "model turn", "model turns")
            );
            return out;
        }
        let _ = writeln!(
            out,
            "FAILED: {recording} does not replay on {database} as recorded"
        );
        if let Some(why) = &self.other_database {
            let _ = writeln!(out, "  database: {why}");
        }
        for question in &self.questions {
            if question.differences.is_empty() && question.ending.is_none() {
                continue;
            }
            let _ = writeln!(
                out,
                "  question {} ({:?}):",
                question.number,
                cut_chars(&question.question, 100)
            );
            for difference in &question.differences {
                describe(&mut out, difference);
            }
            if let Some(ending) = &question.ending {
                let _ = writeln!(out, "    at the end: {ending}");
            }
        }
        let differing = self
            .questions
            .iter()
            .filter(|q| !q.differences.is_empty() || q.ending.is_some())
            .count();
        let what = if differing == 0 {
            "Every question replays as recorded, but on another database than the \
             recording's: every reader's page says so above the answer."
                .to_string()
        } else {
            format!(
                "{differing} of {questions} no longer {} as recorded{}.",
                if differing == 1 { "replays" } else { "replay" },
                if self.other_database.is_some() {
                    ", and the database is not the one recorded on"
                } else {
                    ""
                }
            )
        };
        let _ = writeln!(
            out,
            "{what} Record again (askdb-eval record) or restore the database."
        );
        out
    }
}

/// One difference: the step, the tool and its call, then expected and now from where they part.
fn describe(out: &mut String, difference: &Difference) {
    let candidate = difference
        .candidate
        .map(|index| format!("candidate {}, ", index + 1))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "    {candidate}step {}, {} (call {}): {}",
        difference.step,
        difference.tool,
        difference.call_id,
        difference.describe()
    );
    let recorded = difference.recorded.as_deref().map(|t| timings_as(t, "…"));
    let live = difference.live.as_deref().map(|t| timings_as(t, "…"));
    let at = match (&recorded, &live) {
        (Some(recorded), Some(live)) => first_difference(recorded, live),
        _ => 0,
    };
    let quote = |text: &Option<String>| match text {
        Some(text) => excerpt(text, at),
        None => "(nothing)".to_string(),
    };
    let _ = writeln!(out, "      expected: {}", quote(&recorded));
    let _ = writeln!(out, "      now:      {}", quote(&live));
}

/// The byte offset where `a` and `b` first differ (at a character boundary of both).
fn first_difference(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map(|((at, _), _)| at)
        .unwrap_or_else(|| a.len().min(b.len()))
}

/// `text` from a little before byte `at` on, cut to a readable size, marked where cut.
fn excerpt(text: &str, at: usize) -> String {
    let start = text[..at.min(text.len())]
        .char_indices()
        .rev()
        .nth(BEFORE_DIFFERENCE.saturating_sub(1))
        .map_or(0, |(i, _)| i);
    let shown = cut_chars(&text[start..], QUOTED);
    let lead = if start > 0 { "…" } else { "" };
    format!("{lead}{}", shown.replace('\n', " "))
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Replays every question of `file` on `db` (the database the model reads) with `session` (its
/// schema and knowledge, as the page gives them), `open` being the identity of the database
/// opened. The questions follow each other in one conversation, as in the page.
pub async fn check_replay<D: Database + ?Sized>(
    file: &ConversationFile,
    open: &DatabaseIdentity,
    db: &D,
    session: &mut Session,
    clock: &dyn Clock,
) -> ReplayCheck {
    let pace = Pace::default();
    pace.set(0);
    let config = file.settings.replay_config(&file.model.name);
    session.forget_conversation();
    let mut questions = Vec::new();
    let limits = file.settings.evidence_limits();
    for (index, recorded) in file.questions.iter().enumerate() {
        if let Some(candidates) = &recorded.candidates {
            let replay = CandidateReplay::new(candidates, clock, &pace, |_| {});
            let agents = replay.agents(db, clock, config.clone(), limits);
            let now = agents
                .ask(
                    session,
                    &recorded.question,
                    &mut |_, _| {},
                    std::future::pending(),
                )
                .await;
            let taken = recorded.taken_candidate();
            if let Some(answer) = taken.and_then(|i| now.answers.get(i)?.answer()) {
                session.remember(&recorded.question, answer);
            }
            questions.push(QuestionCheck {
                number: index + 1,
                question: recorded.question.clone(),
                differences: replay.differences(),
                ending: other_agreement(candidates, &now),
                steps: candidates.drawn.iter().map(|c| c.turns.len()).sum(),
            });
            continue;
        }
        let llm = ReplayLlm::new(recorded.turns.clone(), clock, pace.clone());
        let agent = Agent::new(db, &llm, clock, config.clone());
        let outcome = agent
            .ask(
                session,
                &recorded.question,
                &mut |_| {},
                std::future::pending(),
            )
            .await;
        questions.push(QuestionCheck {
            number: index + 1,
            question: recorded.question.clone(),
            differences: llm.differences(),
            ending: other_ending(recorded, &outcome),
            steps: recorded.turns.len(),
        });
    }
    ReplayCheck {
        other_database: file.database.differs_from(open),
        questions,
    }
}

/// How `outcome` ends otherwise than `recorded` did, in words; `None` when it ends the same.
/// The answer's text and SQL come from the recorded turns, so what can change is whether it
/// came at all and whether its SQL ran.
fn other_ending(recorded: &RecordedQuestion, outcome: &Result<Answer, Failure>) -> Option<String> {
    match (&recorded.answer, outcome) {
        (Some(expected), Ok(answer)) if expected.verified && !answer.verified => {
            Some("the answer's SQL no longer runs, so the answer is shown unverified".to_string())
        }
        (Some(_), Ok(_)) => None,
        (Some(_), Err(failure)) => Some(format!(
            "the recording ends with an answer; the replay ends without one: {failure}"
        )),
        (None, Ok(_)) => {
            Some("the recording ends without an answer; the replay ends with one".to_string())
        }
        (None, Err(failure)) => {
            let was = recorded.error.as_deref().unwrap_or_default();
            let now = failure.to_string();
            (was != now).then(|| {
                format!("the recording ends without an answer ({was}); the replay ends with: {now}")
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_excerpt_starts_a_little_before_the_first_difference() {
        let a = format!("{}[[4]]{}", "x".repeat(200), "y".repeat(500));
        let b = format!("{}[[3]]{}", "x".repeat(200), "y".repeat(500));
        let at = first_difference(&a, &b);
        assert_eq!(at, 202);
        let shown = excerpt(&a, at);
        assert!(shown.starts_with('…'), "{shown}");
        assert!(shown.contains("[[4]]"), "{shown}");
        assert!(shown.chars().count() <= QUOTED + 20, "{shown}");
        assert_eq!(excerpt("short", 2), "short");
        // Several bytes per character: never cut inside one.
        let ja = "東京都".repeat(100);
        assert!(excerpt(&ja, ja.len() - 3).starts_with('…'));
    }
}
