//! Schema selection, measured: how much of what each gold query reads reaches the model's first
//! request with its columns (recall), what that request weighs, and how long selection takes.
//!
//!   cargo bench --bench schema_selection
//!
//! - The twenty German Spider databases merged into one file of 80 tables (each table renamed
//!   with a short prefix per database, `tests/support/merge_databases.py`), asked its 1,030
//!   questions in German, and the same questions in English (`question_en`: a language the
//!   schema does not share); and Mondial (46 tables) with askdb's 22 questions in English,
//!   German and Japanese (`tests/datasets/mondial/questions_askdb.json`).
//! - Each question is asked of a scripted model that answers at once; the first request is
//!   read as text: a gold table counts as shown when a line of the request lists it with its
//!   columns (`name (rows): column TYPE, …`), a gold column when that line names it. The
//!   same reading works on the code before selection (table names only past 30 tables), which
//!   is how the "before" figures in `docs/benchmarks.md` were made.
//! - Selection's own time: `TableIndex::new` and `pick` on generated schemas of 10, 100 and
//!   1,000 tables (natively, release build; the page's time is `bench/selection_page.mjs`).
//!
//! Prints Markdown tables for `docs/benchmarks.md`; asserts nothing.
// Native only (rusqlite, through tests/support): on wasm32 there is nothing to build.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

#[path = "../tests/support/mod.rs"]
mod support;

use askdb::agent::selection::values::{self, Bounds, IndexPlan};
use askdb::clock::SystemClock;
use askdb::engine::Schema;
use askdb::eval::selection::written_names;
use askdb::llm::{ChatRequest, Message};
use askdb::sql::analysis::Query;
use askdb::sql::ident;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use support::scripted_llm::{ask, calls, final_answer, session};
use support::RusqliteDb;

/// One question: its text, its gold SQL, and the prefix its database's tables got.
struct Question {
    text: String,
    gold: String,
    prefix: String,
}

/// What one question's first request showed of its gold query.
#[derive(Default, Clone, Copy)]
struct Recall {
    tables: usize,
    tables_found: usize,
    columns: usize,
    columns_found: usize,
    bytes: usize,
}

impl std::ops::AddAssign for Recall {
    fn add_assign(&mut self, other: Recall) {
        self.tables += other.tables;
        self.tables_found += other.tables_found;
        self.columns += other.columns;
        self.columns_found += other.columns_found;
        self.bytes += other.bytes;
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let temp = std::env::temp_dir().join(format!("askdb-bench-selection-{}", std::process::id()));
    std::fs::create_dir_all(&temp).expect("a temporary folder");

    println!("| database | questions | tables shown with their columns | columns shown | first request, mean | asked in |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let (spider, german, english) = spider_merged(root, &temp);
    report(
        "German Spider, 20 databases merged (80 tables), questions in German",
        &spider,
        &german,
    );
    report("the same, the questions in English", &spider, &english);
    let mondial = root.join("tests/datasets/mondial/mondial.db");
    report(
        "Mondial (46 tables), 22 questions in English, German, Japanese",
        &mondial,
        &mondial_questions(root, ""),
    );
    report(
        "the same questions, Mondial merged with Sakila, Northwind, Chinook (86 tables)",
        &four_merged(root, temp.as_path()),
        &mondial_questions(root, "mo_"),
    );
    println!();
    timings();
    let _ = std::fs::remove_dir_all(&temp);
}

/// The merged file and its questions, in German and in English.
fn spider_merged(root: &Path, temp: &Path) -> (PathBuf, Vec<Question>, Vec<Question>) {
    let base = root.join("tests/datasets/spider_de/database");
    let mut names: Vec<String> = std::fs::read_dir(&base)
        .expect("the Spider databases")
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut prefixes = HashMap::new();
    let mut args = Vec::new();
    for name in &names {
        let prefix = short_prefix(name, &prefixes);
        args.push(format!(
            "{prefix}={}",
            base.join(name).join(format!("{name}.sqlite")).display()
        ));
        prefixes.insert(name.clone(), prefix);
    }
    let merged = temp.join("spider_de_merged.db");
    let status = std::process::Command::new("python3")
        .arg(root.join("tests/support/merge_databases.py"))
        .arg(&merged)
        .args(&args)
        .status()
        .expect("python3");
    assert!(status.success(), "the merge failed");
    let text = std::fs::read_to_string(root.join("tests/datasets/spider_de/questions_dev_de.json"))
        .expect("the questions");
    let list: Vec<serde_json::Value> = serde_json::from_str(&text).expect("JSON");
    let question = |q: &serde_json::Value, key: &str| Question {
        text: q[key].as_str().unwrap_or_default().to_string(),
        gold: q["gold_sql"].as_str().unwrap_or_default().to_string(),
        prefix: prefixes[q["db"].as_str().unwrap_or_default()].clone(),
    };
    let german = list.iter().map(|q| question(q, "question")).collect();
    let english = list.iter().map(|q| question(q, "question_en")).collect();
    (merged, german, english)
}

/// `concert_singer` → `cs_`, `car_1` → `c1_`: the initials of its parts, made unique.
fn short_prefix(name: &str, taken: &HashMap<String, String>) -> String {
    let initials: String = name
        .split('_')
        .filter_map(|part| part.chars().next())
        .collect();
    let mut prefix = format!("{initials}_");
    let mut n = 2;
    while taken.values().any(|p| *p == prefix) {
        prefix = format!("{initials}{n}_");
        n += 1;
    }
    prefix
}

/// Sakila, Northwind, Chinook and Mondial merged (`sk_`, `nw_`, `ch_`, `mo_`).
fn four_merged(root: &Path, temp: &Path) -> PathBuf {
    let data = root.join("tests/datasets");
    let merged = temp.join("four_merged.db");
    let status = std::process::Command::new("python3")
        .arg(root.join("tests/support/merge_databases.py"))
        .arg(&merged)
        .arg(format!("sk_={}", data.join("sakila/sakila.db").display()))
        .arg(format!(
            "nw_={}",
            data.join("northwind/northwind.db").display()
        ))
        .arg(format!(
            "ch_={}",
            data.join("chinook/Chinook_Sqlite.sqlite").display()
        ))
        .arg(format!("mo_={}", data.join("mondial/mondial.db").display()))
        .status()
        .expect("python3");
    assert!(status.success(), "the merge failed");
    merged
}

fn mondial_questions(root: &Path, prefix: &str) -> Vec<Question> {
    let text = std::fs::read_to_string(root.join("tests/datasets/mondial/questions_askdb.json"))
        .expect("the questions");
    let list: Vec<serde_json::Value> = serde_json::from_str(&text).expect("JSON");
    list.iter()
        .map(|q| Question {
            text: q["question"].as_str().unwrap_or_default().to_string(),
            gold: q["gold_sql"].as_str().unwrap_or_default().to_string(),
            prefix: prefix.to_string(),
        })
        .collect()
}

/// Asks every question of `file` and prints a row of totals.
fn report(label: &str, file: &Path, questions: &[Question]) {
    let db = RusqliteDb::open(file);
    let mut template = session(&db);
    let values = futures::executor::block_on(values::build(
        &db,
        template.schema(),
        &IndexPlan::Sample {
            rows_per_table: 20_000,
        },
        &Bounds::default(),
        &SystemClock::new(),
    ));
    template.set_values(Arc::new(values));
    let started = Instant::now();
    let mut total = Recall::default();
    for question in questions {
        let mut session = template.clone();
        let episode = ask(
            &db,
            &mut session,
            &question.text,
            vec![calls(vec![final_answer("c1", "answered", "SELECT 1")])],
        );
        total += recall(&episode.requests[0], template.schema(), question);
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    println!(
        "| {label} | {} | {} of {} ({}) | {} of {} ({}) | {:.1} KB | {:.0} ms |",
        questions.len(),
        total.tables_found,
        total.tables,
        share(total.tables_found, total.tables),
        total.columns_found,
        total.columns,
        share(total.columns_found, total.columns),
        total.bytes as f64 / questions.len().max(1) as f64 / 1000.0,
        ms
    );
}

fn share(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "–".into();
    }
    format!("{:.0} %", part as f64 * 100.0 / whole as f64)
}

/// What the first request shows of `question`'s gold query, read from its text.
fn recall(request: &ChatRequest, schema: &Schema, question: &Question) -> Recall {
    let user = match request.messages.last() {
        Some(Message::User { text }) => text.as_str(),
        _ => "",
    };
    let text = format!("{}\n{user}", request.system);
    let lines: Vec<&str> = text.lines().collect();
    let names = written_names(&question.gold);
    let mut recall = Recall {
        bytes: request_bytes(request),
        ..Recall::default()
    };
    let mut seen = Vec::new();
    for read in Query::read(&question.gold).tables() {
        let Some(table) = schema.table(&format!("{}{}", question.prefix, read.name)) else {
            continue;
        };
        if seen.contains(&table.name) {
            continue;
        }
        seen.push(table.name.clone());
        let start = format!("{} (", ident(&table.name));
        let view = format!("view {start}");
        let line = lines.iter().find(|line| {
            // A names-only list (`a (3), b (4)`) has no `): `: a table line has.
            (line.starts_with(&start) || line.starts_with(&view)) && line.contains("): ")
        });
        recall.tables += 1;
        recall.tables_found += usize::from(line.is_some());
        for column in &table.columns {
            if names.iter().any(|n| n.eq_ignore_ascii_case(&column.name)) {
                recall.columns += 1;
                let written = ident(&column.name);
                let shown = line.is_some_and(|line| {
                    line.contains(&format!(": {written} "))
                        || line.contains(&format!(", {written} "))
                        || line.contains(&format!(": {written},"))
                        || line.contains(&format!(", {written},"))
                        || line.ends_with(&format!(" {written}"))
                });
                recall.columns_found += usize::from(shown);
            }
        }
    }
    recall
}

/// The system prompt, the messages' text and the tools' descriptions, in bytes.
fn request_bytes(request: &ChatRequest) -> usize {
    let messages: usize = request
        .messages
        .iter()
        .map(|m| match m {
            Message::User { text } => text.len(),
            _ => 0,
        })
        .sum();
    let tools: usize = request
        .tools
        .iter()
        .map(|t| t.name.len() + t.description.len() + t.parameters.to_string().len())
        .sum();
    request.system.len() + messages + tools
}

/// Selection's own time on generated schemas.
fn timings() {
    use askdb::agent::selection::{generated_schema, rank::TableIndex};
    use askdb::knowledge::Knowledge;
    println!("| tables | `TableIndex::new` (once per database and notes) | `pick` per question, median of 100 |");
    println!("| ---: | ---: | ---: |");
    for size in [10usize, 100, 1_000] {
        let (schema, questions) = generated_schema(size);
        let started = Instant::now();
        let index = TableIndex::new(&schema, &Knowledge::default());
        let built = started.elapsed().as_secs_f64() * 1000.0;
        let mut times: Vec<f64> = questions
            .iter()
            .map(|question| {
                let started = Instant::now();
                std::hint::black_box(index.pick(question, &[], 6));
                started.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!(
            "| {size} | {built:.1} ms | {:.3} ms |",
            times[times.len() / 2]
        );
    }
}
