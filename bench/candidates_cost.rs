//! What candidate answers cost in requests, bytes and (estimated) tokens: the demo's scripted
//! 3-step question (list and describe a table, count its rows, answer) drawn by 1, 3 and 5
//! candidates, each request built in the OpenAI and Gemini wire formats. Prints a table; asserts
//! nothing.
//!
//!   cargo bench --bench candidates_cost
//!
//! Bytes are exact. Tokens are estimated at 4 bytes per token, as in `bench/prompt_cache.rs`,
//! and the providers' automatic prompt cache is simulated as they document it: a request reads
//! from the cache the longest prefix it shares with a request sent before, from 1,024 tokens on
//! (OpenAI in steps of 128). Candidates 2..N start once the first candidate's first reply is in
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
}
