//! What a three-step question sends, and what prompt caching saves: the agent answers a scripted
//! question (list and describe a table, count its rows, answer) on a real database, and each
//! step's request is built in each provider's wire format. Prints a table per database; asserts
//! nothing.
//!
//!   cargo bench --bench prompt_cache
//!
//! Bytes are exact. Tokens are not counted by any tokenizer here: they are estimated at 4 bytes
//! per token (the usual rule of thumb for English and JSON), and the cache is simulated with the
//! rules the providers document, to get the usage each would report:
//! - Anthropic reads the longest prefix it wrote before, and writes at each `cache_control`
//!   mark whose prefix has at least 1,024 tokens (Claude Sonnet's minimum). Billed in full-price
//!   tokens: a cache write costs 1.25, a cache read 0.1 (five-minute cache).
//! - OpenAI and Gemini cache by themselves any prefix they saw before, from 1,024 tokens on
//!   (OpenAI in steps of 128); their discounts depend on the model, so only the tokens are shown.
// Native only (rusqlite, through tests/support): on wasm32 there is nothing to build.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

#[path = "../tests/support/mod.rs"]
mod support;

use askdb::engine::Schema;
use askdb::llm::{wire, ChatRequest, EndpointConfig, ProviderKind};
use serde_json::Value;
use support::scripted_llm::{ask, session, three_steps};
use support::RusqliteDb;

const BYTES_PER_TOKEN: usize = 4;
const MIN_CACHED_TOKENS: usize = 1_024;
const OPENAI_CACHE_STEP: usize = 128;
const WRITE_PRICE: f64 = 1.25;
const READ_PRICE: f64 = 0.1;

fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(BYTES_PER_TOKEN)
}

/// The three requests of the scripted question on `db`.
fn question(db: &RusqliteDb) -> Vec<ChatRequest> {
    let mut session = session(db);
    let table = first_table(session.schema());
    let count = format!("SELECT COUNT(*) FROM \"{table}\"");
    let episode = ask(
        db,
        &mut session,
        &format!("How many rows does {table} have?"),
        three_steps(&table, &count, "Counted."),
    );
    episode.answer();
    episode.requests
}

fn first_table(schema: &Schema) -> String {
    schema.tables[0].name.clone()
}

/// A request body, and the bytes of its prefixes that end at a cache mark (Anthropic's order:
/// tools, system, messages), measured on the body without marks.
struct Step {
    body: String,
    body_without_marks: String,
    /// Bytes up to the end of the tools, of the system prompt, of the whole prompt.
    mark_prefixes: Vec<usize>,
}

fn anthropic_step(request: &ChatRequest) -> Step {
    let config = EndpointConfig::new(ProviderKind::Anthropic, "", "key");
    let body = wire::build_request(&config, request).body;
    let mut value: Value = serde_json::from_str(&body).expect("JSON");
    remove_marks(&mut value);
    let tools = value["tools"].to_string().len();
    let system = value["system"].to_string().len();
    let whole = value.to_string().len();
    Step {
        body,
        body_without_marks: value.to_string(),
        mark_prefixes: vec![tools, tools + system, whole],
    }
}

fn remove_marks(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("cache_control");
            map.values_mut().for_each(remove_marks);
        }
        Value::Array(items) => items.iter_mut().for_each(remove_marks),
        _ => {}
    }
}

/// Tokens of one step as Anthropic would report them: (full price, written, read).
fn anthropic_usage(
    prompt: usize,
    marks: &[usize],
    written_before: &mut Vec<usize>,
) -> (usize, usize, usize) {
    let read = written_before
        .iter()
        .copied()
        .filter(|&prefix| prefix <= prompt)
        .max()
        .unwrap_or(0);
    let write_to = marks
        .iter()
        .copied()
        .filter(|&prefix| prefix >= MIN_CACHED_TOKENS && prefix > read)
        .max();
    written_before.extend(
        marks
            .iter()
            .copied()
            .filter(|&prefix| prefix >= MIN_CACHED_TOKENS),
    );
    let written = write_to.map_or(0, |end| end - read);
    (prompt - read - written, written, read)
}

fn price(full: usize, written: usize, read: usize) -> f64 {
    full as f64 + written as f64 * WRITE_PRICE + read as f64 * READ_PRICE
}

fn report(name: &str, requests: &[ChatRequest]) {
    println!("\n{name}: a 3-step question");
    println!();
    println!("| step | Anthropic bytes (no marks → marks) | prompt tokens (est.) | marks at (tokens) | full price | written | read | billed, no cache | billed, tools+system marks | billed, + conversation mark |");
    println!("| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut all_marks = Vec::new();
    let mut fixed_marks = Vec::new();
    let (mut before, mut fixed_total, mut after) = (0.0, 0.0, 0.0);
    let (mut bytes_plain, mut bytes_marked) = (0, 0);
    for (index, request) in requests.iter().enumerate() {
        let step = anthropic_step(request);
        let prompt = tokens(step.body_without_marks.len());
        let marks: Vec<usize> = step.mark_prefixes.iter().map(|&b| tokens(b)).collect();
        let (full, written, read) = anthropic_usage(prompt, &marks, &mut all_marks);
        let (f_full, f_written, f_read) = anthropic_usage(prompt, &marks[..2], &mut fixed_marks);
        before += prompt as f64;
        fixed_total += price(f_full, f_written, f_read);
        after += price(full, written, read);
        bytes_plain += step.body_without_marks.len();
        bytes_marked += step.body.len();
        println!(
            "| {} | {} → {} | {} | {:?} | {} | {} | {} | {} | {:.0} | {:.0} |",
            index + 1,
            step.body_without_marks.len(),
            step.body.len(),
            prompt,
            marks,
            full,
            written,
            read,
            prompt,
            price(f_full, f_written, f_read),
            price(full, written, read)
        );
    }
    println!(
        "| all | {bytes_plain} → {bytes_marked} | | | | | | {before:.0} | {fixed_total:.0} ({:+.0} %) | {after:.0} ({:+.0} %) |",
        (fixed_total / before - 1.0) * 100.0,
        (after / before - 1.0) * 100.0
    );

    println!();
    println!("| step | OpenAI bytes | prompt tokens (est.) | cached | Gemini bytes | prompt tokens (est.) | cached |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut previous = [0usize; 2];
    for (index, request) in requests.iter().enumerate() {
        let mut cells = Vec::new();
        for (slot, kind) in [ProviderKind::OpenAi, ProviderKind::Gemini]
            .into_iter()
            .enumerate()
        {
            let body = wire::build_request(&EndpointConfig::new(kind, "", "key"), request).body;
            let prompt = tokens(body.len());
            // The previous step's whole prompt is this one's prefix (tests/prompt_prefix.rs).
            let shared = previous[slot];
            let cached = match kind {
                _ if shared < MIN_CACHED_TOKENS => 0,
                ProviderKind::OpenAi => shared / OPENAI_CACHE_STEP * OPENAI_CACHE_STEP,
                _ => shared,
            };
            previous[slot] = prompt;
            cells.push(format!("{} | {} | {}", body.len(), prompt, cached));
        }
        println!("| {} | {} |", index + 1, cells.join(" | "));
    }
}

fn main() {
    for (name, path) in [
        ("shop (the demo: 3 tables)", "shop/shop.db"),
        ("chinook (11 tables)", "chinook/Chinook_Sqlite.sqlite"),
        ("mondial (40 tables)", "mondial/mondial.db"),
    ] {
        let db = RusqliteDb::open(&support::dataset(path));
        report(name, &question(&db));
    }
}
