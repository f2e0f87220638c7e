//! What a query (or an open) read from a database's file or server ([`ReadStats`]): nothing in
//! memory, pages read on demand, requests to a server that runs the queries.

use crate::text::format_bytes;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a query (or an open) read from the file or the server. Pages served from the engine's
/// cache cost nothing and are not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadStats {
    /// Bytes fetched, read-ahead included.
    pub bytes: u64,
    /// Reads that fetched them: HTTP requests for a remote file, slices for a local one, the
    /// queries sent to a Datasette server.
    pub requests: u64,
    /// For a database on a server that runs the queries (Datasette): how long the page waited
    /// for its answers, in milliseconds. `None` for a file read in parts, whose reads are timed
    /// with the query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited_ms: Option<u64>,
}

impl std::ops::Add for ReadStats {
    type Output = ReadStats;

    fn add(self, other: ReadStats) -> ReadStats {
        ReadStats {
            bytes: self.bytes.saturating_add(other.bytes),
            requests: self.requests.saturating_add(other.requests),
            waited_ms: match (self.waited_ms, other.waited_ms) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
            },
        }
    }
}

impl ReadStats {
    /// What was read since `before` (a total taken earlier from the same database).
    pub fn since(self, before: ReadStats) -> ReadStats {
        ReadStats {
            bytes: self.bytes.saturating_sub(before.bytes),
            requests: self.requests.saturating_sub(before.requests),
            waited_ms: self
                .waited_ms
                .map(|now| now.saturating_sub(before.waited_ms.unwrap_or(0))),
        }
    }
}

impl ReadStats {
    /// What a query cost, after its time: "read 1.2 MB in 14 reads", or "1 request to the
    /// server (3 KB, 12 ms)".
    pub fn phrase(&self) -> String {
        match self.waited_ms {
            Some(_) => self.to_string(),
            None => format!("read {self}"),
        }
    }
}

impl fmt::Display for ReadStats {
    /// "1.2 MB in 14 reads"; for a server that runs the queries, "3 requests to the server
    /// (12 KB, 140 ms)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(ms) = self.waited_ms {
            let requests = if self.requests == 1 {
                "request"
            } else {
                "requests"
            };
            return write!(
                f,
                "{} {requests} to the server ({}, {ms} ms)",
                self.requests,
                format_bytes(self.bytes)
            );
        }
        let reads = if self.requests == 1 { "read" } else { "reads" };
        write!(
            f,
            "{} in {} {reads}",
            format_bytes(self.bytes),
            self.requests
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_was_read_since_an_earlier_total() {
        let before = ReadStats {
            bytes: 4_096,
            requests: 2,
            waited_ms: None,
        };
        let now = ReadStats {
            bytes: 69_632,
            requests: 5,
            waited_ms: None,
        };
        assert_eq!(
            now.since(before),
            ReadStats {
                bytes: 65_536,
                requests: 3,
                waited_ms: None,
            }
        );
        // A total from before a restart of the count never goes below zero.
        assert_eq!(before.since(now), ReadStats::default());
    }

    #[test]
    fn sizes_read_as_people_read_them() {
        let stats = ReadStats {
            bytes: 200_000,
            requests: 1,
            waited_ms: None,
        };
        assert_eq!(stats.to_string(), "200 KB in 1 read");
        assert_eq!(
            stats + stats,
            ReadStats {
                bytes: 400_000,
                requests: 2,
                waited_ms: None,
            }
        );
    }

    #[test]
    fn requests_to_a_server_say_how_long_they_were_waited_for() {
        let before = ReadStats {
            bytes: 1_000,
            requests: 2,
            waited_ms: Some(40),
        };
        let now = ReadStats {
            bytes: 13_000,
            requests: 5,
            waited_ms: Some(180),
        };
        let question = now.since(before);
        assert_eq!(
            question,
            ReadStats {
                bytes: 12_000,
                requests: 3,
                waited_ms: Some(140),
            }
        );
        assert_eq!(
            question.to_string(),
            "3 requests to the server (12 KB, 140 ms)"
        );
        assert_eq!(question.phrase(), question.to_string());
        let file = ReadStats {
            waited_ms: None,
            ..question
        };
        assert_eq!(file.phrase(), "read 12 KB in 3 reads");
        assert_eq!(
            (before + question).to_string(),
            "5 requests to the server (13 KB, 180 ms)"
        );
    }
}
