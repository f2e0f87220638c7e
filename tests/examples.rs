//! The recorded conversations that `www/embed-example.html` replays for readers with no key
//! (`www/examples/*.askdb.json`). They were recorded with a scripted model standing in for an
//! LLM (this machine reaches none), through the same `Recorder` a person's "Save conversation"
//! uses, on the very databases the page ships. The tests prove each published file is exactly
//! what the recorder writes for its script (labelled as a stand-in, not an LLM), one the page
//! accepts, names the database it sits beside (size and SHA-256), and replays on it with no
//! difference and the recorded answer.
//!
//! To record them again (after a change to the format or the tools):
//! `cargo test --test examples write_examples -- --ignored`.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::Session;
use askdb::agent::{Agent, AgentConfig};
use askdb::conversation::{
    read, ConversationFile, DatabaseIdentity, ModelInfo, Pace, RecordedQuestion, Recorder,
    ReplayLlm, RunSettings, FORMAT,
};
use askdb::engine::hidden::load_catalogue;
use askdb::engine::identity::Identity;
use askdb::engine::QueryLimits;
use askdb::knowledge::{comments, tables, Knowledge};
use askdb::llm::ProviderKind;
use futures::executor::block_on;
use serde_json::json;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use support::scripted_llm::{
    call, calls, final_answer, run_sql, session, FakeClock, ScriptedLlm, Turn,
};
use support::RusqliteDb;

/// One published example: where its database and its recording live, under `www/`, and the
/// script the stand-in model follows.
struct Example {
    recording: &'static str,
    database: &'static str,
    question: &'static str,
    script: fn() -> Vec<Turn>,
}

const TOKYO_WRONG: &str = "SELECT count(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.prefecture = '東京都'";
const TOKYO: &str = "SELECT count(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.prefecture = 'Tokyo'";
const GENRES: &str = "SELECT g.Name AS genre, SUM(il.Quantity) AS tracks_sold FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.GenreId ORDER BY tracks_sold DESC LIMIT 5";

const EXAMPLES: &[Example] = &[
    Example {
        recording: "examples/shop.askdb.json",
        database: "demo/shop.db",
        question: "How many orders did customers in 東京都 place?",
        script: || {
            vec![
                calls(vec![call(
                    "c1",
                    "describe_table",
                    json!({ "table": "customers" }),
                )]),
                // The question's spelling first: the tool shows that the data says Tokyo.
                calls(vec![run_sql("c2", TOKYO_WRONG)]),
                calls(vec![run_sql("c3", TOKYO)]),
                calls(vec![final_answer(
                    "c4",
                    "Customers in 東京都 placed **4 orders**. The data writes the prefecture in \
                     English, so the query matches `'Tokyo'`, not `'東京都'`.",
                    TOKYO,
                )]),
            ]
        },
    },
    Example {
        recording: "examples/chinook.askdb.json",
        database: "examples/chinook/Chinook_Sqlite.sqlite",
        question: "Which five genres have sold the most tracks?",
        script: || {
            vec![
                calls(vec![call("c1", "list_tables", json!({}))]),
                calls(vec![run_sql("c2", GENRES)]),
                calls(vec![final_answer(
                    "c3",
                    "Rock sold the most tracks by far (835), then Latin (386), Metal (264), \
                     Alternative & Punk (244) and Jazz (80).",
                    GENRES,
                )]),
            ]
        },
    },
];

fn www(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("www")
        .join(relative)
}

/// The database's identity as the page computes it when the file opens.
fn identity(path: &Path) -> DatabaseIdentity {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    DatabaseIdentity::new(
        &path.file_name().unwrap().to_string_lossy(),
        &Identity::Bytes {
            size: bytes.len() as u64,
            sha256: format!("{:x}", Sha256::digest(&bytes)),
        },
    )
}

/// A session with the knowledge the page gives the model for this file: its schema comments
/// and knowledge tables, merged and validated against what the model sees.
fn session_with_knowledge(db: &RusqliteDb) -> Session {
    let mut session = session(db);
    let catalogue = block_on(load_catalogue(db)).expect("catalogue");
    let from_comments = Knowledge {
        notes: comments::from_catalogue(&catalogue),
        ..Knowledge::default()
    };
    let (from_tables, _) = block_on(tables::load(db)).expect("knowledge tables");
    let (knowledge, _) =
        Knowledge::merged([from_comments, from_tables]).validated(session.schema());
    session.set_knowledge(knowledge);
    session
}

fn record(example: &Example) -> ConversationFile {
    let path = www(example.database);
    let db = RusqliteDb::open(&path);
    let mut session = session_with_knowledge(&db);
    let clock = FakeClock::default();
    let llm = ScriptedLlm::new((example.script)(), &clock);
    let recorder = Recorder::new(&llm, &clock);
    let config = AgentConfig::default();
    let agent = Agent::new(&db, &recorder, &clock, config.clone());
    let outcome = block_on(agent.ask(
        &mut session,
        example.question,
        &mut |_| {},
        std::future::pending(),
    ));
    assert!(outcome.is_ok(), "{}: {outcome:?}", example.recording);
    let question = RecordedQuestion::new(example.question, recorder.turns(), &outcome);
    ConversationFile {
        format: FORMAT.into(),
        recorded_at: "2026-12-01T12:00:00.000Z".into(),
        database: identity(&path),
        model: ModelInfo::new(ProviderKind::OpenAi, STAND_IN, "http://127.0.0.1/scripted"),
        settings: RunSettings::new(&config, &QueryLimits::default()),
        questions: vec![question],
    }
}

#[test]
fn each_published_example_replays_on_its_database_without_differences() {
    for example in EXAMPLES {
        let text = std::fs::read_to_string(www(example.recording)).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (record it: see this file's header)",
                example.recording
            )
        });
        let file = read(&text).unwrap_or_else(|e| panic!("{}: {e}", example.recording));
        let path = www(example.database);
        assert_eq!(
            file.database,
            identity(&path),
            "{} names another database",
            example.recording
        );

        let db = RusqliteDb::open(&path);
        let mut session = session_with_knowledge(&db);
        let recorded = &file.questions[0];
        assert_eq!(recorded.question, example.question);
        let clock = FakeClock::default();
        let llm = ReplayLlm::new(recorded.turns.clone(), &clock, Pace::default());
        let agent = Agent::new(
            &db,
            &llm,
            &clock,
            file.settings.replay_config(&file.model.name),
        );
        let answer = block_on(agent.ask(
            &mut session,
            &recorded.question,
            &mut |_| {},
            std::future::pending(),
        ))
        .unwrap_or_else(|f| panic!("{}: {f:?}", example.recording));
        let expected = recorded.answer.as_ref().expect("a recorded answer");
        assert_eq!(answer.text, expected.text, "{}", example.recording);
        assert!(answer.verified, "{}", example.recording);
        assert_eq!(answer.sql, expected.sql, "{}", example.recording);
        assert_eq!(llm.differences(), vec![], "{}", example.recording);
    }
}

/// What the banner shows as the model of a published recording: it says that no LLM answered.
const STAND_IN: &str = "scripted stand-in (no LLM)";

/// The text of a recording with the query times its tool results report (`"elapsed_ms":` inside
/// a result's JSON, where the quotes are escaped) replaced by `MEASURED`: the database measures
/// them with a real clock, so no two recordings share them. The model's turns are timed by the
/// scripted clock and stay.
fn without_query_times(recording: &str) -> String {
    const FIELD: &str = r#"\"elapsed_ms\":"#;
    let mut out = String::with_capacity(recording.len());
    let mut rest = recording;
    while let Some(at) = rest.find(FIELD) {
        let after = &rest[at + FIELD.len()..];
        let number = after
            .find(|c: char| !(c.is_ascii_digit() || ".eE+-".contains(c)))
            .unwrap_or(after.len());
        out.push_str(&rest[..at + FIELD.len()]);
        out.push_str("MEASURED");
        rest = &after[number..];
    }
    out.push_str(rest);
    out
}

/// Each published file is, byte for byte, what [`record`] writes for its script today (as
/// [`write_examples`] writes it), apart from the query times measured while recording: a file
/// edited by hand or left behind by a change of the tools, the knowledge or the format fails
/// here, even where it would still replay. Its label says that a scripted stand-in, not an LLM,
/// answered.
#[test]
fn each_published_example_is_what_the_recorder_writes_for_its_script() {
    for example in EXAMPLES {
        let published = std::fs::read_to_string(www(example.recording))
            .unwrap_or_else(|e| panic!("{}: {e}", example.recording));
        assert_eq!(
            read(&published).expect("readable").model.name,
            STAND_IN,
            "{}: the label",
            example.recording
        );
        let recorded = record(example).to_json() + "\n";
        assert!(
            without_query_times(&published) == without_query_times(&recorded),
            "{} is not what the recorder writes for its script: record it again with \
             `cargo test --test examples write_examples -- --ignored`",
            example.recording
        );
    }
}

#[test]
fn only_the_query_times_are_set_apart() {
    let text = r#"{"elapsed_ms": 1.0, "content": "{\"rows\":[[1]],\"elapsed_ms\":13.6}"}"#;
    assert_eq!(
        without_query_times(text),
        r#"{"elapsed_ms": 1.0, "content": "{\"rows\":[[1]],\"elapsed_ms\":MEASURED}"}"#
    );
}

#[test]
#[ignore]
fn write_examples() {
    for example in EXAMPLES {
        std::fs::write(www(example.recording), record(example).to_json() + "\n").unwrap();
    }
}
