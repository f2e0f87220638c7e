//! Golden questions asked of a model and judged by their results (see `ARCHITECTURE.md`):
//! [`crate::compare`] says whether two results are the same answer, `run` asks the questions
//! and keeps the results in a `Report`, `report` writes it as Markdown and JSON; with
//! candidates, `calibration` counts per agreement level how often the agreed answer was right;
//! `selection` says how much of what the expected SQL reads the first request showed; `said`
//! says a run to a person in the page's language (the reports stay in English).

pub mod calibration;
pub mod report;
pub mod run;
pub mod said;
pub mod selection;
