//! Replaying a recorded question: the model's turns come from the recording, the tools run
//! live, and where the live results differ from the recorded ones is reported.

use super::format::{RecordedTurn, RunSettings};
use crate::agent::AgentConfig;
use crate::clock::Clock;
use crate::llm::{ChatRequest, LlmError, LlmProvider, Message, ModelReply, ToolResult};
use crate::text::cut_chars;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A step every 0.6 s: slow enough to follow, quick enough not to bore.
pub const DEFAULT_PACE_MS: u32 = 600;
/// The slowest pace a person can choose.
pub const SLOWEST_PACE_MS: u32 = 3_000;
/// A changed pace (or "show all at once") takes effect within this long.
const PACE_SLICE_MS: u32 = 100;
/// Recorded and live results are quoted up to this many characters in a difference.
const QUOTED_CHARS: usize = 2_000;

/// How long a replay waits before each model turn; shared with the page's speed control, which
/// may change it while the replay runs (0: show everything at once).
#[derive(Clone, Debug)]
pub struct Pace(Rc<Cell<u32>>);

impl Default for Pace {
    fn default() -> Self {
        Pace(Rc::new(Cell::new(DEFAULT_PACE_MS)))
    }
}

impl Pace {
    pub fn ms(&self) -> u32 {
        self.0.get()
    }

    pub fn set(&self, ms: u32) {
        self.0.set(ms.min(SLOWEST_PACE_MS));
    }

    /// Waits for the pace, in short slices so that a change applies at once.
    async fn wait(&self, clock: &dyn Clock) {
        let mut waited = 0;
        while waited < self.ms() {
            let slice = (self.ms() - waited).min(PACE_SLICE_MS);
            clock.sleep(slice).await;
            waited += slice;
        }
    }
}

/// A tool result that is not what the recording says the model saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// The candidate (from 0) whose turns these are, in a question asked of several.
    pub candidate: Option<usize>,
    /// The model turn whose call it answers (1 for the first).
    pub step: u32,
    pub call_id: String,
    pub tool: String,
    /// What the recording holds (`None`: the recording has no result for this call).
    pub recorded: Option<String>,
    /// What the tool gave now (`None`: the live run did not make this call).
    pub live: Option<String>,
}

impl Difference {
    /// In a sentence, for the step it belongs to.
    pub fn describe(&self) -> String {
        match (&self.recorded, &self.live) {
            (Some(_), Some(_)) => format!(
                "The live result of {} differs from the recording.",
                self.tool
            ),
            (None, _) => format!("The recording has no result for this {} call.", self.tool),
            (_, None) => format!("This {} call was recorded but not made now.", self.tool),
        }
    }

    /// The recorded result, cut to a readable size.
    pub fn recorded_quote(&self) -> Option<String> {
        self.recorded.as_deref().map(|r| cut_chars(r, QUOTED_CHARS))
    }
}

/// Told of each difference as it is found.
type DifferenceReport<'a> = Box<dyn FnMut(&Difference) + 'a>;

/// An [`LlmProvider`] that answers from the turns of one recorded question, in order. No
/// request goes anywhere; running out of turns is an error the agent reports.
pub struct ReplayLlm<'a> {
    turns: Vec<RecordedTurn>,
    next: Cell<usize>,
    clock: &'a dyn Clock,
    pace: Pace,
    differences: RefCell<Vec<Difference>>,
    on_difference: RefCell<DifferenceReport<'a>>,
    candidate: Option<usize>,
}

impl<'a> ReplayLlm<'a> {
    pub fn new(turns: Vec<RecordedTurn>, clock: &'a dyn Clock, pace: Pace) -> Self {
        ReplayLlm {
            turns,
            next: Cell::new(0),
            clock,
            pace,
            differences: RefCell::new(Vec::new()),
            on_difference: RefCell::new(Box::new(|_| {})),
            candidate: None,
        }
    }

    /// The turns of candidate `index` (from 0): its differences say so.
    pub fn for_candidate(mut self, index: usize) -> Self {
        self.candidate = Some(index);
        self
    }

    /// Calls `report` with each difference as it is found (the page marks the step at once).
    pub fn on_difference(self, report: impl FnMut(&Difference) + 'a) -> Self {
        *self.on_difference.borrow_mut() = Box::new(report);
        self
    }

    /// Every difference found so far.
    pub fn differences(&self) -> Vec<Difference> {
        self.differences.borrow().clone()
    }

    /// Compares the results `request` carries back with those recorded after turn `index`.
    fn compare(&self, index: usize, request: &ChatRequest) {
        let recorded = &self.turns[index].results;
        let live: &[ToolResult] = match request.messages.last() {
            Some(Message::ToolResults { results }) => results,
            _ => &[],
        };
        let step = index as u32 + 1;
        let mut found = Vec::new();
        for result in live {
            let before = recorded.iter().find(|r| r.call_id == result.call_id);
            if before.is_none_or(|before| !same_result(&before.content, &result.content)) {
                found.push(Difference {
                    candidate: self.candidate,
                    step,
                    call_id: result.call_id.clone(),
                    tool: result.name.clone(),
                    recorded: before.map(|r| r.content.clone()),
                    live: Some(result.content.clone()),
                });
            }
        }
        for before in recorded {
            if !live.iter().any(|r| r.call_id == before.call_id) {
                found.push(Difference {
                    candidate: self.candidate,
                    step,
                    call_id: before.call_id.clone(),
                    tool: before.name.clone(),
                    recorded: Some(before.content.clone()),
                    live: None,
                });
            }
        }
        for difference in found {
            (self.on_difference.borrow_mut())(&difference);
            self.differences.borrow_mut().push(difference);
        }
    }
}

impl LlmProvider for ReplayLlm<'_> {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError> {
        let index = self.next.get();
        if index > 0 {
            self.compare(index - 1, request);
        }
        let Some(turn) = self.turns.get(index) else {
            return Err(LlmError::Malformed {
                message: format!(
                    "the recording has no model turn {} for this question (it has {}): the \
                     live results differed, so the agent did not end where the recording did",
                    index + 1,
                    self.turns.len()
                ),
            });
        };
        self.next.set(index + 1);
        self.pace.wait(self.clock).await;
        Ok(turn.reply())
    }
}

/// Whether two tool results say the same, apart from how long the query took (`elapsed_ms`,
/// which differs on every run). A result cut to size (its text ends in a "[cut: …]" note) is
/// compared on the part both show: a timing of another length moves the cut by a few bytes.
fn same_result(recorded: &str, live: &str) -> bool {
    let (recorded, recorded_cut) = without_cut_note(recorded);
    let (live, live_cut) = without_cut_note(live);
    let (recorded, live) = (timings_as(recorded, ""), timings_as(live, ""));
    if recorded_cut || live_cut {
        let shown = recorded.len().min(live.len());
        recorded.as_bytes()[..shown] == live.as_bytes()[..shown]
    } else {
        recorded == live
    }
}

fn without_cut_note(text: &str) -> (&str, bool) {
    match text.rfind(" …[cut: ") {
        Some(at) if text.ends_with(" bytes shown]") => (&text[..at], true),
        _ => (text, false),
    }
}

/// `text` with the number after each `"elapsed_ms":` replaced by `shown` (left out when empty):
/// how long a query took is not part of its result.
pub(crate) fn timings_as(text: &str, shown: &str) -> String {
    const KEY: &str = "\"elapsed_ms\":";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(KEY) {
        out.push_str(&rest[..at + KEY.len()]);
        out.push_str(shown);
        rest = rest[at + KEY.len()..].trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')
        });
    }
    out.push_str(rest);
    out
}

// Here rather than beside `RunSettings` in `format`: it depends on the replay's pace.
impl RunSettings {
    /// The agent's settings for a replay: the recorded ones, with time for the replay's pace
    /// added to the question's deadline (the model's time was real; the pace is on top).
    pub fn replay_config(&self, model: &str) -> AgentConfig {
        let pacing = self.max_steps.saturating_mul(SLOWEST_PACE_MS);
        AgentConfig {
            model: model.to_string(),
            temperature: self.temperature,
            max_tokens: self.max_tokens,
            max_steps: self.max_steps,
            deadline_ms: self.deadline_ms.saturating_add(pacing),
            query_deadline_ms: self.query_deadline_ms,
            rows_to_model: self.rows_to_model,
            mode: self.mode,
            candidates: self.candidates,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timings_do_not_count_as_differences() {
        assert!(same_result(
            r#"{"rows":[[7]],"elapsed_ms":1.5}"#,
            r#"{"rows":[[7]],"elapsed_ms":12.25}"#
        ));
        assert!(!same_result(
            r#"{"rows":[[7]],"elapsed_ms":1.5}"#,
            r#"{"rows":[[8]],"elapsed_ms":1.5}"#
        ));
    }

    #[test]
    fn cut_results_compare_on_what_both_show() {
        let recorded = r#"{"rows":[[1],[2],[3]],"elapsed_ms":1 …[cut: 30 of 90 bytes shown]"#;
        let live = r#"{"rows":[[1],[2],[3]],"elapsed_ms":10.5, …[cut: 33 of 93 bytes shown]"#;
        assert!(same_result(recorded, live));
        let other = r#"{"rows":[[1],[9],[3]],"elapsed_ms":1 …[cut: 30 of 90 bytes shown]"#;
        assert!(!same_result(recorded, other));
    }
}
