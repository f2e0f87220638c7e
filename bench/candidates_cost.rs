//! What candidate answers cost in requests, bytes and (estimated) tokens: the demo's scripted
//! 3-step question (list and describe a table, count its rows, answer) drawn by 1, 3 and 5
//! candidates, each request built in the OpenAI, Gemini and Anthropic wire formats. Prints a
//! table; asserts nothing.
//!
//!   cargo bench --bench candidates_cost
//!
//! Bytes are exact. Tokens are estimated at 4 bytes per token, as in `bench/prompt_cache.rs`,
//! and the providers' automatic prompt cache is simulated as they document it: a request reads
//! from the cache the longest prefix it shares with a request sent before, from 1,024 tokens on
//! (OpenAI in steps of 128). Anthropic caches only what a request marks (`cache_control`: askdb
//! marks the end of the tools, of the system prompt and of the last message): a mark writes the
//! prompt up to it, from 1,024 tokens on, and a later request reads the longest written prefix
//! it starts with, found at a block boundary before its last mark (the tools, the system
//! prompt, each message). Candidates 2..N start once the first candidate's first reply is in
//! (`agent::candidates`), so its first request is in the cache when theirs arrive.
// Native only (rusqlite, through tests/support): on wasm32 there is nothing to build.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

#[path = "../tests/support/mod.rs"]
mod support;

use askdb::agent::candidates::CandidateAgents;
use askdb::agent::AgentConfig;
use askdb::engine::QueryLimits;
use askdb::llm::{wire, ChatRequest, EndpointConfig, ProviderKind};
use support::scripted_llm::{session, three_steps, FakeClock, ScriptedLlm};
use support::RusqliteDb;

const BYTES_PER_TOKEN: usize = 4;
const MIN_CACHED_TOKENS: usize = 1_024;
const OPENAI_CACHE_STEP: usize = 128;

fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(BYTES_PER_TOKEN)
}

/// Every request of the question drawn by `n` candidates: the first candidate's, then each
/// other's, in order.
fn requests(db: &RusqliteDb, n: usize) -> Vec<Vec<ChatRequest>> {
    let session = session(db);
    let table = session.schema().tables[0].name.clone();
    let count = format!("SELECT COUNT(*) FROM \"{table}\"");
    let clock = FakeClock::default();
    let llms: Vec<ScriptedLlm> = (0..n)
        .map(|_| ScriptedLlm::new(three_steps(&table, &count, "Counted."), &clock))
        .collect();
    let agents = CandidateAgents {
        db,
        llms: llms.iter().collect(),
        clock: &clock,
        config: AgentConfig::default(),
        evidence_limits: QueryLimits {
            max_rows: 1_000,
            deadline_ms: 10_000,
        },
    };
    let question = format!("How many rows does {table} have?");
    let drawn = futures::executor::block_on(agents.ask(
        &session,
        &question,
        &mut |_, _| {},
        std::future::pending(),
    ));
    assert_eq!(
        drawn.agreement.agreeing(),
        n,
        "every candidate answered alike"
    );
    llms.iter()
        .map(|llm| llm.requests.borrow().clone())
        .collect()
}

/// How many leading messages `b` shares with `a`, when both have the same tools and system
/// prompt (else none: the prompt starts with them).
fn shared_messages(a: &ChatRequest, b: &ChatRequest) -> Option<usize> {
    if a.tools != b.tools || a.system != b.system {
        return None;
    }
    let same = a.messages.iter().zip(&b.messages);
    Some(same.take_while(|(x, y)| x == y).count())
}

/// A prefix Anthropic wrote to its cache: the request it came from, how much of it (the tools,
/// the tools and system prompt, or those and the first `k` messages), and its tokens.
struct Written<'a> {
    request: &'a ChatRequest,
    upto: Upto,
    tokens: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Upto {
    Tools,
    System,
    Messages(usize),
}

impl Written<'_> {
    /// Whether `request` starts with this prefix.
    fn starts(&self, request: &ChatRequest) -> bool {
        let (a, b) = (self.request, request);
        match self.upto {
            Upto::Tools => a.tools == b.tools,
            Upto::System => a.tools == b.tools && a.system == b.system,
            Upto::Messages(k) => {
                shared_messages(a, b).is_some_and(|shared| shared >= k) && b.messages.len() >= k
            }
        }
    }
}

/// Tokens of `request`'s Anthropic prompt up to `upto`, measured on its body without marks.
fn anthropic_prefix_tokens(request: &ChatRequest, upto: Upto) -> usize {
    let config = EndpointConfig::new(ProviderKind::Anthropic, "", "key");
    let messages = match upto {
        Upto::Messages(k) => k,
        _ => 0,
    };
    let prefix = ChatRequest {
        messages: request.messages[..messages].to_vec(),
        ..request.clone()
    };
    let mut body: serde_json::Value =
        serde_json::from_str(&wire::build_request(&config, &prefix).body).expect("JSON");
    remove_marks(&mut body);
    let tools = body["tools"].to_string().len();
    let system = body["system"].to_string().len();
    tokens(match upto {
        Upto::Tools => tools,
        Upto::System => tools + system,
        Upto::Messages(_) => body.to_string().len(),
    })
}

fn remove_marks(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.remove("cache_control");
            map.values_mut().for_each(remove_marks);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(remove_marks),
        _ => {}
    }
}

/// Totals of Anthropic's requests, as [`totals`] gives them, with the tokens written to the
/// cache as an eighth figure: each request reads the longest prefix written before that it
/// starts with, and writes up to its last mark of 1,024 tokens or more beyond what it read.
fn anthropic_totals(candidates: &[Vec<ChatRequest>]) -> [usize; 8] {
    let config = EndpointConfig::new(ProviderKind::Anthropic, "", "key");
    let mut written: Vec<Written> = Vec::new();
    let mut totals = [0usize; 8];
    for (index, requests) in candidates.iter().enumerate() {
        for request in requests {
            let body = wire::build_request(&config, request).body;
            let prompt = anthropic_prefix_tokens(request, Upto::Messages(request.messages.len()));
            let read = written
                .iter()
                .filter(|w| w.starts(request))
                .map(|w| w.tokens)
                .max()
                .unwrap_or(0);
            let marks = [
                Upto::Tools,
                Upto::System,
                Upto::Messages(request.messages.len()),
            ];
            let mut wrote = 0;
            for upto in marks {
                let tokens = anthropic_prefix_tokens(request, upto);
                if tokens >= MIN_CACHED_TOKENS && tokens > read {
                    wrote = wrote.max(tokens - read);
                    written.push(Written {
                        request,
                        upto,
                        tokens,
                    });
                }
            }
            totals[0] += 1;
            totals[1] += body.len();
            totals[2] += prompt;
            totals[3] += read;
            totals[7] += wrote;
            if index > 0 {
                totals[4] += body.len();
                totals[5] += prompt;
                totals[6] += read;
            }
        }
    }
    totals
}

/// Totals of one provider's requests: (requests, bytes, prompt tokens, cached tokens, and the
/// same three for candidates 2..N alone).
fn totals(kind: ProviderKind, candidates: &[Vec<ChatRequest>]) -> [usize; 7] {
    let config = EndpointConfig::new(kind, "", "key");
    let mut sent: Vec<&ChatRequest> = Vec::new();
    let mut totals = [0usize; 7];
    for (index, requests) in candidates.iter().enumerate() {
        for request in requests {
            let body = wire::build_request(&config, request).body;
            let prompt = tokens(body.len());
            // The prompt up to the last message shared with a request sent before (the tools
            // and system prompt come first in every provider's prompt).
            let shared = sent
                .iter()
                .filter_map(|before| shared_messages(before, request))
                .max()
                .map_or(0, |messages| {
                    let prefix = ChatRequest {
                        messages: request.messages[..messages].to_vec(),
                        ..request.clone()
                    };
                    tokens(wire::build_request(&config, &prefix).body.len())
                });
            let cached = match kind {
                _ if shared < MIN_CACHED_TOKENS => 0,
                ProviderKind::OpenAi => shared / OPENAI_CACHE_STEP * OPENAI_CACHE_STEP,
                _ => shared,
            };
            totals[0] += 1;
            totals[1] += body.len();
            totals[2] += prompt;
            totals[3] += cached;
            if index > 0 {
                totals[4] += body.len();
                totals[5] += prompt;
                totals[6] += cached;
            }
            sent.push(request);
        }
    }
    totals
}

fn main() {
    let db = RusqliteDb::open(&support::dataset("shop/shop.db"));
    println!("\nshop (the demo): a 3-step question drawn by N candidates\n");
    println!("| provider | N | requests | bytes sent | prompt tokens (est.) | cached | candidates 2..N: bytes | prompt tokens | cached |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for kind in [ProviderKind::OpenAi, ProviderKind::Gemini] {
        for n in [1, 3, 5] {
            let t = totals(kind, &requests(&db, n));
            println!(
                "| {} | {n} | {} | {} | {} | {} | {} | {} | {} |",
                kind.descriptor().label,
                t[0],
                t[1],
                t[2],
                t[3],
                t[4],
                t[5],
                t[6]
            );
        }
    }
    println!("\nAnthropic (cache_control marks): the same, with the tokens written to the cache (billed at 1.25)\n");
    println!("| N | requests | bytes sent | prompt tokens (est.) | read from cache | written to cache | candidates 2..N: bytes | prompt tokens | read |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for n in [1, 3, 5] {
        let t = anthropic_totals(&requests(&db, n));
        println!(
            "| {n} | {} | {} | {} | {} | {} | {} | {} | {} |",
            t[0], t[1], t[2], t[3], t[7], t[4], t[5], t[6]
        );
    }
}
