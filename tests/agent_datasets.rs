//! Every table of the reference databases described and listed through the agent: odd names,
//! views, wide and larger tables must all give a result within the size cap, never an error.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::tools::RESULT_BYTES;
use askdb::agent::AgentConfig;
use serde_json::json;
use std::time::Instant;
use support::scripted_llm::{ask_with, call, calls, final_answer, session};
use support::RusqliteDb;

fn describe_everything(relative: &str) {
    let db = RusqliteDb::open(&support::dataset(relative));
    let mut session = session(&db);
    let names: Vec<String> = session
        .schema()
        .tables
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let mut turns = vec![calls(vec![call("list", "list_tables", json!({}))])];
    for (i, name) in names.iter().enumerate() {
        turns.push(calls(vec![call(
            &format!("d{i}"),
            "describe_table",
            json!({ "table": name }),
        )]));
    }
    turns.push(calls(vec![final_answer("end", "done", "")]));
    let config = AgentConfig {
        max_steps: names.len() as u32 + 2,
        ..AgentConfig::default()
    };
    let started = Instant::now();
    let episode = ask_with(
        &db,
        &mut session,
        "?",
        turns,
        config,
        std::future::pending(),
    );
    let wall = started.elapsed();
    episode.answer();
    let mut largest = 0;
    for index in 1..=names.len() + 1 {
        let result = episode.result_in(index);
        assert!(!result.is_error, "{relative}: {}", result.content);
        assert!(
            result.content.len() <= RESULT_BYTES,
            "{relative}: {}",
            result.content.len()
        );
        let parsed: serde_json::Value = serde_json::from_str(&result.content)
            .unwrap_or_else(|e| panic!("{relative}: not JSON ({e}): {}", result.content));
        if index > 1 {
            assert!(
                parsed["columns"].as_array().is_some_and(|c| !c.is_empty()),
                "{parsed}"
            );
        }
        largest = largest.max(result.content.len());
    }
    eprintln!(
        "{relative}: {} tables described in {:?}, largest result {largest} bytes",
        names.len(),
        wall
    );
}

#[test]
fn chinook() {
    describe_everything("chinook/Chinook_Sqlite.sqlite");
}

#[test]
fn northwind() {
    describe_everything("northwind/northwind.db");
}

#[test]
fn sakila() {
    describe_everything("sakila/sakila.db");
}

#[test]
fn mondial() {
    describe_everything("mondial/mondial.db");
}

#[test]
fn shop_ja() {
    describe_everything("shop_ja/shop_ja.db");
}
