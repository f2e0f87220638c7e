//! What knowledge costs: the time to find the worked examples for a question among 10, 100 and
//! 1,000 (BM25 over character n-grams, `knowledge::retrieve`), and the bytes it adds to a
//! question on the demo database. Prints tables; asserts nothing.
//!
//!   cargo bench --bench knowledge
//!
//! The examples' questions are the German Spider dev questions (real wording, many near
//! duplicates); each search is for another question of the same set. The demo's knowledge is
//! the shop database's, written here as a person or the sidecar would give it.
// Native only (rusqlite, through tests/support): on wasm32 there is nothing to build.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

#[path = "../tests/support/mod.rs"]
mod support;

use askdb::agent::{system_prompt, AgentConfig, EventKind};
use askdb::knowledge::retrieve::SCORE_FLOOR;
use askdb::knowledge::{Example, Knowledge, Note, Source, Term};
use askdb::llm::Message;
use askdb::search::bm25::TextIndex;
use std::time::Instant;
use support::scripted_llm::{ask, calls, final_answer, session};
use support::RusqliteDb;

/// Searches timed per index size; the median of this many rounds is shown.
const SEARCHES: usize = 200;
const ROUNDS: usize = 5;

fn spider_questions() -> Vec<String> {
    let path = support::dataset("spider_de/questions_dev_de.json");
    let text = std::fs::read_to_string(path).expect("the German Spider dev set");
    let items: Vec<serde_json::Value> = serde_json::from_str(&text).expect("a JSON list");
    items
        .iter()
        .map(|item| item["question"].as_str().expect("question").to_string())
        .collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn retrieval() {
    let questions = spider_questions();
    println!("| examples | build the index | one search (median of {ROUNDS} x {SEARCHES}) |");
    println!("| ---: | ---: | ---: |");
    for size in [10, 100, 1_000] {
        let examples = &questions[..size];
        let asked: Vec<&String> = questions.iter().rev().take(SEARCHES).collect();
        let mut builds = Vec::new();
        let mut searches = Vec::new();
        for _ in 0..ROUNDS {
            let started = Instant::now();
            let index = TextIndex::new(examples.iter().map(String::as_str));
            builds.push(started.elapsed().as_secs_f64() * 1e3);
            let started = Instant::now();
            let mut found = 0;
            for question in &asked {
                found += index.search(question, 3, SCORE_FLOOR).len();
            }
            searches.push(started.elapsed().as_secs_f64() * 1e6 / SEARCHES as f64);
            std::hint::black_box(found);
        }
        println!(
            "| {size} | {:.2} ms | {:.1} µs |",
            median(builds),
            median(searches)
        );
    }
}

fn note(table: &str, column: Option<&str>, text: &str) -> Note {
    Note {
        table: table.into(),
        column: column.map(Into::into),
        text: text.into(),
        source: Source::Sidecar,
    }
}

fn demo_knowledge() -> Knowledge {
    let example = |question: &str, sql: &str| Example {
        question: question.into(),
        sql: sql.into(),
        source: Source::Sidecar,
    };
    let term = |term: &str, meaning: &str| Term {
        term: term.into(),
        meaning: meaning.into(),
        source: Source::Sidecar,
    };
    Knowledge {
        notes: vec![
            note("customers", None, "one row per customer who ever signed up"),
            note("customers", Some("prefecture"), "in English (Tokyo, Osaka); NULL when unknown"),
            note("customers", Some("joined_at"), "ISO date (YYYY-MM-DD) of sign-up"),
            note("products", Some("price"), "in yen, tax included"),
            note("products", Some("category"), "lower case: electronics, furniture, lifestyle"),
            note("orders", None, "one row per order of one product"),
            note("orders", Some("customer_id"), "the buyer; NULL for guest orders; JOIN customers"),
            note("orders", Some("ordered_at"), "ISO date (YYYY-MM-DD)"),
        ],
        glossary: vec![
            term("revenue", "sum(products.price * orders.quantity)"),
            term("repeat rate", "share of customers with two or more orders"),
            term("売上", "sum(products.price * orders.quantity)"),
        ],
        examples: vec![
            example(
                "What was the revenue in March 2024?",
                "SELECT sum(p.price * o.quantity) FROM orders o JOIN products p ON p.id = o.product_id WHERE o.ordered_at LIKE '2024-03%'",
            ),
            example(
                "How many customers live in Tokyo?",
                "SELECT count(*) FROM customers WHERE prefecture = 'Tokyo'",
            ),
            example(
                "東京都の顧客の売上は？",
                "SELECT sum(p.price * o.quantity) FROM orders o JOIN products p ON p.id = o.product_id JOIN customers c ON c.id = o.customer_id WHERE c.prefecture = 'Tokyo'",
            ),
        ],
        golden_questions: Vec::new(),
    }
}

fn prompt_bytes() {
    let db = RusqliteDb::shop();
    let knowledge = demo_knowledge();
    println!("| the demo (shop.db) | without knowledge | with knowledge | knowledge event |");
    println!("| --- | ---: | ---: | --- |");
    let config = AgentConfig::default();
    let bare = session(&db);
    let without = system_prompt(bare.schema(), &Knowledge::default(), &config).len();
    let with = system_prompt(bare.schema(), &knowledge, &config).len();
    println!("| system prompt | {without} B | {with} B | |");
    for question in [
        "What was the revenue in April 2024?",
        "東京都の顧客の売上を教えて",
        "Which product is the cheapest?",
    ] {
        let mut session = session(&db);
        session.set_knowledge(knowledge.clone());
        let episode = ask(
            &db,
            &mut session,
            question,
            vec![calls(vec![final_answer("c1", "-", "SELECT 1")])],
        );
        let Some(Message::User { text }) = episode.requests[0].messages.last() else {
            panic!("no question message");
        };
        let sent = match &episode.events[0].kind {
            EventKind::Knowledge(sent) => format!(
                "{} notes, {} terms, {} examples, {} of {} B",
                sent.notes,
                sent.terms.len(),
                sent.examples.len(),
                sent.bytes,
                sent.budget
            ),
            _ => "none".into(),
        };
        println!(
            "| question \"{question}\" | {} B | {} B | {sent} |",
            question.len(),
            text.len()
        );
    }
}

fn main() {
    println!("## Retrieval of worked examples\n");
    retrieval();
    println!("\n## Bytes of knowledge in a request\n");
    prompt_bytes();
}
