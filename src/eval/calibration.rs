//! Whether agreement predicts correctness: the golden questions asked of several candidates
//! (`askdb-eval --candidates N`, and "Check the model" with Candidates > 1), counted per
//! agreement level. One pure builder for the report's Markdown and JSON and for the page.

use super::run::GoldenResult;
use serde::Serialize;

/// One agreement level: how many candidates gave the most common result (0: none gave a
/// result), how many questions were at that level, and for how many the agreed answer was
/// right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CalibrationRow {
    /// Candidates that gave the most common result; 0 when none gave a result.
    pub agreeing: usize,
    /// Candidates drawn per question.
    pub candidates: usize,
    pub questions: usize,
    /// Questions whose agreed answer (the result given more often than any other) was right.
    pub right: usize,
}

impl CalibrationRow {
    /// "3 of 3 agree", "1 of 3 (no two agree)", "none gave a result".
    pub fn label(&self) -> String {
        match self.agreeing {
            0 => "none gave a result".into(),
            1 => format!("1 of {} (no two agree)", self.candidates),
            k => format!("{k} of {} agree", self.candidates),
        }
    }
}

/// The table, most agreement first: one row per level from N of N down to none, for each N
/// the counted questions were asked with (normally one). Questions without candidates, and
/// broken golden questions, are left out. Empty when no question had candidates.
pub fn calibration(results: &[GoldenResult]) -> Vec<CalibrationRow> {
    let judged: Vec<_> = results
        .iter()
        .filter(|r| r.outcome.counts())
        .filter_map(|r| r.candidates.as_ref())
        .collect();
    let mut sizes: Vec<usize> = judged.iter().map(|j| j.agreement.candidates).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes.dedup();
    let mut rows = Vec::new();
    for n in sizes {
        for agreeing in (0..=n).rev() {
            let level = judged
                .iter()
                .filter(|j| j.agreement.candidates == n && j.agreement.agreeing() == agreeing);
            let (questions, right) = level.fold((0, 0), |(q, r), j| {
                (q + 1, r + usize::from(j.agreed_right()))
            });
            rows.push(CalibrationRow {
                agreeing,
                candidates: n,
                questions,
                right,
            });
        }
    }
    rows
}

/// How many counted questions had their agreed answer right, and of how many asked with
/// candidates; `None` when none was.
pub fn agreed_passed(results: &[GoldenResult]) -> Option<(usize, usize)> {
    let judged: Vec<_> = results
        .iter()
        .filter(|r| r.outcome.counts())
        .filter_map(|r| r.candidates.as_ref())
        .collect();
    if judged.is_empty() {
        return None;
    }
    let right = judged.iter().filter(|j| j.agreed_right()).count();
    Some((right, judged.len()))
}
