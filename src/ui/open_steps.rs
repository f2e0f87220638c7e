//! Where an open's time goes, step by step, as the page measures it: kept for the last open
//! and read by the benchmark (`bench/bench.mjs`, through the test hook `askdbOpenSteps()`).
//! Nothing in the page shows it; nothing is decided by it.

use crate::browser::now_ms;
use serde::Serialize;

/// One step and how long it took.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenStep {
    pub step: String,
    pub ms: f64,
}

/// The steps of one open, in the order they ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpenSteps {
    steps: Vec<OpenStep>,
}

impl OpenSteps {
    /// A clock for a step that starts now.
    pub fn start() -> Started {
        Started(now_ms())
    }

    /// Records `step`, begun at `started`, as ending now.
    pub fn done(&mut self, step: &str, started: Started) {
        self.steps.push(OpenStep {
            step: step.to_string(),
            ms: started.elapsed_ms(),
        });
    }

    /// Records `step` as having taken `ms` (timed elsewhere).
    pub fn took(&mut self, step: &str, ms: f64) {
        self.steps.push(OpenStep {
            step: step.to_string(),
            ms,
        });
    }

    /// The steps so far (read by the test hook only: the test page's build).
    #[cfg(feature = "test-hooks")]
    pub fn steps(&self) -> &[OpenStep] {
        &self.steps
    }
}

/// When a step began.
#[derive(Clone, Copy, Debug)]
pub struct Started(f64);

impl Started {
    /// The ms from then until now.
    pub fn elapsed_ms(self) -> f64 {
        now_ms() - self.0
    }
}
