//! What was sent to the model, and what it cost, as a person reads it in the page's language:
//! tokens (with what the provider's cache saved), bytes, how each request ended, and names for
//! downloaded bodies; what a database's reads cost, and how it is read.

use crate::engine::kind::Reads;
use crate::engine::on_demand::remote::{WholeReason, READ_WHOLE_BELOW_BYTES};
use crate::engine::ReadStats;
use crate::llm::ledger::{LedgerTotals, RequestOutcome};
use crate::llm::Usage;
use crate::text::cut_chars;
use crate::text::format_bytes;
use crate::tr;

/// What one question (asked in the chat, or a golden question of "Check the model") read from
/// a database that is not in memory: the ledger's "Read from the database".
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionReads {
    pub question: String,
    pub reads: ReadStats,
    pub from: Reads,
}

/// How a database of a kind that is not read into memory is read, for the status: "4.6 GB, read
/// on demand from the file" (the person then knows why hiding is refused and a scan is
/// slower). `None` in memory.
pub fn how_read(from: Reads, size: u64, host: Option<&str>) -> Option<String> {
    let size = format_bytes(size);
    match from {
        Reads::InMemory => None,
        Reads::FilePages => Some(tr!("ledger-read-on-demand-file", size = size)),
        Reads::RangeRequests => Some(tr!(
            "ledger-read-on-demand-server",
            size = size,
            host = host_or_its_server(host)
        )),
        Reads::ServerQueries => Some(tr!("ledger-read-through-datasette", size = size)),
    }
}

/// The status's line for a database of `size` bytes at a web address downloaded whole from
/// `host` (`WholeReason::note`, in the page's language).
pub fn downloaded_whole(why: WholeReason, size: u64, host: Option<&str>) -> String {
    let size = format_bytes(size);
    let host = host_or_its_server(host);
    match why {
        WholeReason::ServerSendsWhole => {
            tr!(
                "ledger-downloaded-server-sends-whole",
                host = host,
                size = size
            )
        }
        WholeReason::Small => tr!(
            "ledger-downloaded-small",
            host = host,
            size = size,
            below = (READ_WHOLE_BELOW_BYTES / (1024 * 1024)).to_string()
        ),
        WholeReason::Asked => tr!("ledger-downloaded-asked", host = host, size = size),
    }
}

/// The server's name, or "its server" when it is not known.
fn host_or_its_server(host: Option<&str>) -> String {
    host.map_or_else(|| tr!("ledger-its-server"), str::to_string)
}

/// "“How many orders?” read 48 KB in 3 HTTP requests from the server", or for a Datasette
/// server "… read 3 KB in 2 requests to the Datasette server, 140 ms" (the question cut to 80
/// characters).
pub fn question_reads_line(q: &QuestionReads) -> String {
    tr!(
        "ledger-question-read",
        question = cut_chars(q.question.trim(), 80),
        reads = reads_text(q.reads, q.from)
    )
}

/// The questions' reads in all: "2 questions read 1.2 MB in 14 HTTP requests from the server",
/// each kind of database on its own ("…; 1 question read 3 KB in 2 requests to the Datasette
/// server, 40 ms") when the questions read more than one.
pub fn question_reads_total(list: &[QuestionReads]) -> String {
    [Reads::FilePages, Reads::RangeRequests, Reads::ServerQueries]
        .into_iter()
        .filter_map(|from| {
            let asked: Vec<&QuestionReads> = list.iter().filter(|q| q.from == from).collect();
            let total = asked
                .iter()
                .fold(ReadStats::default(), |sum, q| sum + q.reads);
            (!asked.is_empty()).then(|| {
                tr!(
                    "ledger-questions-read",
                    count = asked.len(),
                    reads = reads_text(total, from)
                )
            })
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What a database's reads cost, after how a kind reads ([`Reads`]).
fn reads_text(reads: ReadStats, from: Reads) -> String {
    let size = format_bytes(reads.bytes);
    let requests = reads.requests;
    match from {
        // Never recorded: reading memory costs nothing.
        Reads::InMemory => tr!("ledger-reads-memory", size = size),
        Reads::FilePages => tr!("ledger-reads-file", size = size, requests = requests),
        Reads::RangeRequests => tr!("ledger-reads-server", size = size, requests = requests),
        Reads::ServerQueries => tr!(
            "ledger-reads-datasette",
            size = size,
            requests = requests,
            waited = reads.waited_ms.unwrap_or(0)
        ),
    }
}

/// What a query read, after its time: "read 1.2 MB in 14 reads", or "1 request to the server
/// (3 KB, 12 ms)" (`ReadStats::phrase`, in the page's language).
pub fn reads_phrase(reads: ReadStats) -> String {
    let size = format_bytes(reads.bytes);
    match reads.waited_ms {
        Some(ms) => server_requests(reads.requests, size, ms),
        None => tr!("ledger-query-read", size = size, requests = reads.requests),
    }
}

/// The requests a Datasette server was asked since it opened, for the ledger: "Asked of the
/// Datasette server since it opened: 3 requests to the server (12 KB, 140 ms)."
pub fn server_asked(reads: ReadStats) -> String {
    let requests = server_requests(
        reads.requests,
        format_bytes(reads.bytes),
        reads.waited_ms.unwrap_or(0),
    );
    tr!("ledger-server-asked", requests = requests)
}

/// "3 requests to the server (12 KB, 140 ms)".
fn server_requests(requests: u64, size: String, ms: u64) -> String {
    tr!(
        "ledger-server-requests",
        requests = requests,
        size = size,
        waited = format!("{ms} ms")
    )
}

/// "1,234 in / 56 out tokens", with "(1,000 cached)" when the provider read part of the prompt
/// from its cache, and what it wrote there for the next call (Anthropic).
pub fn tokens(usage: Usage) -> String {
    let mut cache = Vec::new();
    if usage.cached_input_tokens > 0 {
        cache.push(tr!(
            "ledger-tokens-cached",
            count = usage.cached_input_tokens
        ));
    }
    if usage.cache_write_tokens > 0 {
        cache.push(tr!(
            "ledger-tokens-cache-written",
            count = usage.cache_write_tokens
        ));
    }
    if cache.is_empty() {
        tr!(
            "ledger-tokens",
            input = usage.input_tokens,
            output = usage.output_tokens
        )
    } else {
        tr!(
            "ledger-tokens-with-cache",
            input = usage.input_tokens,
            cache = cache.join(", "),
            output = usage.output_tokens
        )
    }
}

/// "12,345 bytes sent".
pub fn bytes_sent(n: usize) -> String {
    tr!("ledger-bytes-sent", count = n)
}

/// "1 byte received".
pub fn bytes_received(n: usize) -> String {
    tr!("ledger-bytes-received", count = n)
}

/// The session's totals in one line: "3 requests · 12,345 bytes sent · 3,210 bytes received ·
/// 666 in / 24 out tokens".
pub fn totals_line(totals: &LedgerTotals) -> String {
    [
        tr!("ledger-requests", count = totals.requests),
        bytes_sent(totals.bytes_sent),
        bytes_received(totals.bytes_received),
        tokens(totals.usage),
    ]
    .join(" · ")
}

/// How a request ended: "200", "HTTP 429", "no answer: …", "stopped", "waiting…".
pub fn outcome(outcome: &RequestOutcome) -> String {
    match outcome {
        RequestOutcome::Waiting => tr!("ledger-waiting"),
        RequestOutcome::Answered { status } if (200..300).contains(status) => status.to_string(),
        RequestOutcome::Answered { status } => format!("HTTP {status}"),
        RequestOutcome::NoAnswer { reason } => tr!("ledger-no-answer", reason = reason),
        RequestOutcome::Stopped => tr!("ledger-stopped"),
    }
}

/// Whether a request ended badly (the page marks it).
pub fn is_failure(outcome: &RequestOutcome) -> bool {
    match outcome {
        RequestOutcome::Answered { status } => !(200..300).contains(status),
        RequestOutcome::NoAnswer { .. } => true,
        RequestOutcome::Waiting | RequestOutcome::Stopped => false,
    }
}

/// Which body of an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    Request,
    Response,
    /// A streamed response put together (`LedgerEntry::assembled_body`).
    Assembled,
}

/// "askdb-request-3.json": the name a downloaded body gets (`.txt` when it is not JSON, say a
/// proxy's HTML error page).
pub fn body_file_name(number: usize, body: Body, text: &str) -> String {
    let which = match body {
        Body::Request => "request",
        Body::Response => "response",
        Body::Assembled => "assembled",
    };
    let extension = if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        "json"
    } else {
        "txt"
    };
    format!("askdb-{which}-{number}.{extension}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_question_says_what_it_read_and_the_total_adds_them() {
        let one = QuestionReads {
            question: "  How many orders?  ".into(),
            reads: ReadStats {
                bytes: 48_000,
                requests: 3,
                ..ReadStats::default()
            },
            from: Reads::RangeRequests,
        };
        assert_eq!(
            question_reads_line(&one),
            "“How many orders?” read 48 KB in 3 HTTP requests from the server"
        );
        let two = QuestionReads {
            question: "Which one?".into(),
            reads: ReadStats {
                bytes: 1_152_000,
                requests: 1,
                ..ReadStats::default()
            },
            from: Reads::RangeRequests,
        };
        assert_eq!(
            question_reads_total(&[one.clone(), two]),
            "2 questions read 1.2 MB in 4 HTTP requests from the server"
        );
        let local = QuestionReads {
            from: Reads::FilePages,
            ..one.clone()
        };
        assert_eq!(
            question_reads_total(&[local]),
            "1 question read 48 KB in 3 reads from the file"
        );
    }

    #[test]
    fn a_datasette_question_says_its_requests_and_how_long_they_were_waited_for() {
        let asked = |question: &str, requests, waited_ms| QuestionReads {
            question: question.into(),
            reads: ReadStats {
                bytes: 2_400,
                requests,
                waited_ms: Some(waited_ms),
            },
            from: Reads::ServerQueries,
        };
        let one = asked("Which customers live in Tokyo?", 3, 140);
        assert_eq!(
            question_reads_line(&one),
            "“Which customers live in Tokyo?” read 2.4 KB in 3 requests to the Datasette \
             server, 140 ms"
        );
        let two = asked("And in Osaka?", 1, 1_205);
        assert_eq!(
            question_reads_total(&[one.clone(), two.clone()]),
            "2 questions read 4.8 KB in 4 requests to the Datasette server, 1,345 ms"
        );
        // After a file read on demand: each kind on its own.
        let file = QuestionReads {
            from: Reads::FilePages,
            ..two
        };
        assert_eq!(
            question_reads_total(&[file, one]),
            "1 question read 2.4 KB in 1 read from the file; 1 question read 2.4 KB in 3 requests \
             to the Datasette server, 140 ms"
        );
    }

    #[test]
    fn tokens_say_what_the_cache_saved() {
        assert_eq!(tokens(Usage::new(1_234, 56)), "1,234 in / 56 out tokens");
        let cached = Usage {
            cached_input_tokens: 1_000,
            ..Usage::new(1_234, 56)
        };
        assert_eq!(tokens(cached), "1,234 in (1,000 cached) / 56 out tokens");
        let both = Usage {
            cache_write_tokens: 200,
            ..cached
        };
        assert_eq!(
            tokens(both),
            "1,234 in (1,000 cached, 200 written to cache) / 56 out tokens"
        );
    }

    #[test]
    fn totals_read_as_one_line() {
        let totals = LedgerTotals {
            requests: 3,
            bytes_sent: 12_345,
            bytes_received: 1,
            usage: Usage::new(666, 24),
        };
        assert_eq!(
            totals_line(&totals),
            "3 requests · 12,345 bytes sent · 1 byte received · 666 in / 24 out tokens"
        );
    }

    #[test]
    fn outcomes_and_failures() {
        let ok = RequestOutcome::Answered { status: 200 };
        let busy = RequestOutcome::Answered { status: 429 };
        let offline = RequestOutcome::NoAnswer {
            reason: "Failed to fetch".into(),
        };
        assert_eq!(outcome(&ok), "200");
        assert_eq!(outcome(&busy), "HTTP 429");
        assert_eq!(outcome(&offline), "no answer: Failed to fetch");
        assert_eq!(
            outcome(&RequestOutcome::Stopped),
            "stopped before the answer"
        );
        assert!(!is_failure(&ok) && is_failure(&busy) && is_failure(&offline));
        assert!(!is_failure(&RequestOutcome::Stopped));
    }

    #[test]
    fn downloaded_bodies_are_named_by_number() {
        assert_eq!(
            body_file_name(3, Body::Request, "{}"),
            "askdb-request-3.json"
        );
        assert_eq!(
            body_file_name(12, Body::Response, "<html>502</html>"),
            "askdb-response-12.txt"
        );
    }

    /// What a query read says in English what `ReadStats` says, and the status says how a
    /// database is read as `WholeReason` does. Mutation: `[one]` left out of
    /// `ledger-query-read` ("1 reads"), or the size bound dropped from `ledger-downloaded-small`.
    #[test]
    fn reads_and_downloads_read_as_the_engine_words_them() {
        for (bytes, requests, waited_ms) in [(200_000, 1, None), (12_000, 3, Some(140))] {
            let reads = ReadStats {
                bytes,
                requests,
                waited_ms,
            };
            assert_eq!(reads_phrase(reads), reads.phrase());
        }
        let asked = ReadStats {
            bytes: 12_000,
            requests: 3,
            waited_ms: Some(140),
        };
        assert_eq!(
            server_asked(asked),
            "Asked of the Datasette server since it opened: 3 requests to the server (12 KB, \
             140 ms)."
        );
        for why in [
            WholeReason::ServerSendsWhole,
            WholeReason::Small,
            WholeReason::Asked,
        ] {
            for host in [Some("data.example.org"), None] {
                assert_eq!(
                    downloaded_whole(why, 4_915_200, host),
                    why.note(4_915_200, host.unwrap_or("its server"))
                );
            }
        }
        assert_eq!(
            how_read(Reads::RangeRequests, 4_600_000_000, None).as_deref(),
            Some("4.6 GB, read on demand from its server (each read is an HTTP range request)")
        );
        assert_eq!(how_read(Reads::InMemory, 1, None), None);
    }
}
