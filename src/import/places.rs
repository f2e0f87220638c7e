//! Where something happened in a file (lines, elements, rows), kept short: the decoder collects
//! its undecodable lines in it and the readers their ragged rows, and the report lists them.
//! A module of its own so that the decoder need not know the report.

use serde::{Deserialize, Serialize};

/// How many places (lines, elements) a report lists before it only counts.
pub const PLACES_LISTED: usize = 20;

/// Where something happened: the first [`PLACES_LISTED`] places (line numbers, or element or
/// row numbers as the table's `places` says) and how many in all.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Places {
    pub first: Vec<u64>,
    pub count: u64,
}

impl Places {
    pub fn add(&mut self, place: u64) {
        // One place once: several bad bytes on a line are one line to look at.
        if self.first.last() == Some(&place) {
            return;
        }
        if self.first.len() < PLACES_LISTED {
            self.first.push(place);
        }
        self.count += 1;
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}
