//! Conversations saved and replayed: a question recorded with a scripted model on the shop
//! database, written and read back, then replayed through the same agent and tools with the
//! recorded turns; differences, a recording that runs out, and files that must be refused.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::{Agent, AgentConfig, Answer, Failure, Session};
use askdb::conversation::{
    read, ConversationFile, DatabaseIdentity, Difference, ModelInfo, Pace, ReadError,
    RecordedQuestion, Recorder, ReplayLlm, RunSettings, FORMAT, LIMITS,
};
use askdb::engine::datasette::DatasetteIdentity;
use askdb::engine::identity::Identity;
use askdb::engine::on_demand::{LazyIdentity, RemoteValidators};
use askdb::engine::QueryLimits;
use askdb::llm::ProviderKind;
use serde_json::{json, Value};
use support::scripted_llm::{
    calls, final_answer, run_sql, session, text, FakeClock, ScriptedLlm, Turn,
};
use support::RusqliteDb;

const MARCH: &str =
    "SELECT count(*) FROM orders WHERE ordered_at >= '2024-03-01' AND ordered_at < '2024-04-01'";
const SHA: &str = "5f1e0a4c2b3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789ab";

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    futures::executor::block_on(future)
}

/// Asks `question` with a scripted model behind a [`Recorder`]; the recorded question.
fn record(
    db: &RusqliteDb,
    session: &mut Session,
    question: &str,
    turns: Vec<Turn>,
) -> RecordedQuestion {
    let clock = FakeClock::default();
    let llm = ScriptedLlm::new(turns, &clock);
    let recorder = Recorder::new(&llm, &clock);
    let agent = Agent::new(db, &recorder, &clock, AgentConfig::default());
    let outcome = block_on(agent.ask(session, question, &mut |_| {}, std::future::pending()));
    RecordedQuestion::new(question, recorder.turns(), &outcome)
}

fn file(questions: Vec<RecordedQuestion>) -> ConversationFile {
    ConversationFile {
        format: FORMAT.into(),
        recorded_at: "2026-12-01T09:30:00.000Z".into(),
        database: DatabaseIdentity::new(
            "shop.db",
            &Identity::Bytes {
                size: 24_576,
                sha256: SHA.into(),
            },
        ),
        model: ModelInfo::new(
            ProviderKind::OpenAi,
            "gpt-scripted",
            "https://api.example/v1?key=x",
        ),
        settings: RunSettings::new(&AgentConfig::default(), &QueryLimits::default()),
        questions,
    }
}

fn march_question(db: &RusqliteDb) -> RecordedQuestion {
    let mut session = session(db);
    record(
        db,
        &mut session,
        "How many orders in March 2024?",
        vec![
            calls(vec![run_sql("c1", MARCH)]),
            calls(vec![final_answer("c2", "7 orders.", MARCH)]),
        ],
    )
}

struct Replayed {
    outcome: Result<Answer, Failure>,
    differences: Vec<Difference>,
    reported: Vec<Difference>,
    session: Session,
}

/// Replays `question` of `file` on `db` in a fresh session.
fn replay(db: &RusqliteDb, file: &ConversationFile, question: usize) -> Replayed {
    let mut session = session(db);
    let recorded = &file.questions[question];
    let clock = FakeClock::default();
    let mut reported = Vec::new();
    let llm = ReplayLlm::new(recorded.turns.clone(), &clock, Pace::default())
        .on_difference(|d| reported.push(d.clone()));
    let config = file.settings.replay_config(&file.model.name);
    let agent = Agent::new(db, &llm, &clock, config);
    let outcome = block_on(agent.ask(
        &mut session,
        &recorded.question,
        &mut |_| {},
        std::future::pending(),
    ));
    let differences = llm.differences();
    drop(agent);
    drop(llm);
    Replayed {
        outcome,
        differences,
        reported,
        session,
    }
}

#[test]
fn a_recording_keeps_every_turn_and_what_the_model_saw() {
    let db = RusqliteDb::shop();
    let question = march_question(&db);
    assert_eq!(question.turns.len(), 2);
    let first = &question.turns[0];
    assert_eq!(first.tool_calls[0].name, "run_sql");
    assert_eq!(
        first.tool_calls[0].arguments,
        json!({ "sql": MARCH }).to_string()
    );
    assert_eq!(first.usage.input_tokens, 100);
    assert_eq!(first.results.len(), 1);
    let content: Value = serde_json::from_str(&first.results[0].content).unwrap();
    assert_eq!(content["rows"], json!([[7]]));
    // final_answer ends the question: nothing went back to the model after it.
    assert!(question.turns[1].results.is_empty());
    let answer = question.answer.as_ref().unwrap();
    assert_eq!(answer.text, "7 orders.");
    assert_eq!(answer.sql.as_deref(), Some(MARCH));
    assert!(answer.verified);
}

#[test]
fn a_file_is_written_and_read_back_unchanged() {
    let db = RusqliteDb::shop();
    let saved = file(vec![march_question(&db)]);
    let text = saved.to_json();
    assert_eq!(read(&text), Ok(saved.clone()));
    // The endpoint is kept without its query string.
    assert_eq!(saved.model.base_url, "https://api.example/v1");
    assert!(!text.contains("key=x"));
}

#[test]
fn a_replay_gives_the_same_answer_with_the_tools_run_live() {
    let db = RusqliteDb::shop();
    let saved = file(vec![march_question(&db)]);
    let replayed = replay(&db, &read(&saved.to_json()).unwrap(), 0);
    let answer = replayed.outcome.expect("an answer");
    assert_eq!(answer.text, "7 orders.");
    assert_eq!(answer.sql.as_deref(), Some(MARCH));
    assert!(answer.verified);
    assert_eq!(replayed.differences, Vec::new());
    // The replayed question is the session's history, for a follow-up.
    let turns = replayed.session.conversation().turns();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].answer, "7 orders.");
}

/// A model that writes its calls as text (Hermes/Qwen's tags): the file keeps its turns as it
/// sent them, with the results of the calls askdb read from them, and a replay reads them again.
#[test]
fn calls_written_as_text_are_saved_and_replayed() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let tag = |call: Value| text(&format!("<tool_call>\n{call}\n</tool_call>"));
    let question = record(
        &db,
        &mut session,
        "How many orders in March 2024?",
        vec![
            tag(json!({"name": "run_sql", "arguments": {"sql": MARCH}})),
            tag(
                json!({"name": "final_answer", "arguments": {"answer": "7 orders.", "sql": MARCH}}),
            ),
        ],
    );
    let first = &question.turns[0];
    assert!(first.tool_calls.is_empty());
    assert!(first.text.as_deref().unwrap().contains("<tool_call>"));
    assert_eq!(first.results.len(), 1);
    assert_eq!(first.results[0].call_id, "text-1-1");
    let saved = file(vec![question]);
    let read_back = read(&saved.to_json()).expect("the file reads back");
    assert_eq!(read_back, saved);
    let replayed = replay(&db, &read_back, 0);
    let answer = replayed.outcome.expect("an answer");
    assert_eq!(answer.text, "7 orders.");
    assert!(answer.verified);
    assert_eq!(replayed.differences, Vec::new());
}

#[test]
fn a_result_that_differs_from_the_recording_is_reported_and_the_replay_finishes() {
    let db = RusqliteDb::shop();
    let mut saved = file(vec![march_question(&db)]);
    let result = &mut saved.questions[0].turns[0].results[0];
    result.content = result.content.replace("[[7]]", "[[8]]");
    let replayed = replay(&db, &saved, 0);
    assert_eq!(replayed.outcome.expect("still an answer").text, "7 orders.");
    assert_eq!(replayed.differences.len(), 1);
    let difference = &replayed.differences[0];
    assert_eq!((difference.step, difference.call_id.as_str()), (1, "c1"));
    assert!(difference.recorded.as_deref().unwrap().contains("[[8]]"));
    assert!(difference.live.as_deref().unwrap().contains("[[7]]"));
    assert_eq!(replayed.reported, replayed.differences, "reported as found");
    assert_eq!(
        difference.describe(),
        "The live result of run_sql differs from the recording."
    );
}

#[test]
fn another_database_is_named_by_its_hash() {
    let recorded = file(Vec::new()).database;
    assert_eq!(recorded.differs_from(&recorded.clone()), None);
    let other = DatabaseIdentity::new(
        "shop_ja.db",
        &Identity::Bytes {
            size: 20_480,
            sha256: "0".repeat(64),
        },
    );
    let why = recorded.differs_from(&other).unwrap();
    assert!(
        why.contains("not the database the conversation was recorded on"),
        "{why}"
    );
    assert!(
        why.contains("shop.db") && why.contains("shop_ja.db"),
        "{why}"
    );
}

#[test]
fn a_recording_that_runs_out_of_turns_ends_the_question_with_an_error() {
    let db = RusqliteDb::shop();
    let mut saved = file(vec![march_question(&db)]);
    saved.questions[0].turns.pop();
    let replayed = replay(&db, &saved, 0);
    let failure = replayed.outcome.expect_err("no answer");
    let message = failure.to_string();
    assert!(
        message.contains("the recording has no model turn 2"),
        "{message}"
    );
}

#[test]
fn replies_come_in_recorded_order_and_never_again() {
    let db = RusqliteDb::shop();
    let question = march_question(&db);
    let clock = FakeClock::default();
    let llm = ReplayLlm::new(question.turns.clone(), &clock, Pace::default());
    let request = askdb::llm::ChatRequest {
        model: "m".into(),
        system: String::new(),
        messages: Vec::new(),
        tools: Vec::new(),
        temperature: 0.0,
        max_tokens: 1,
    };
    use askdb::llm::LlmProvider;
    let first = block_on(llm.complete(&request)).unwrap();
    let second = block_on(llm.complete(&request)).unwrap();
    assert_eq!(first, question.turns[0].reply());
    assert_eq!(second, question.turns[1].reply());
    assert!(block_on(llm.complete(&request)).is_err());
    // Each turn waited for the pace, in slices.
    assert_eq!(clock.sleeps.borrow().iter().sum::<u32>(), 2 * 600);
}

// Files that must be refused, each with its own message.

fn saved_json() -> Value {
    let db = RusqliteDb::shop();
    serde_json::from_str(&file(vec![march_question(&db)]).to_json()).unwrap()
}

fn refused(value: &Value) -> String {
    match read(&value.to_string()) {
        Ok(_) => panic!("read a file that should be refused"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn text_that_is_not_json_or_is_cut_short_is_refused() {
    let text = saved_json().to_string();
    let cut = read(&text[..text.len() / 2]).unwrap_err();
    assert_eq!(cut, ReadError::CutShort);
    assert!(cut.to_string().contains("cut short"));
    let html = read("<html><script>alert(1)</script></html>").unwrap_err();
    assert!(matches!(html, ReadError::NotJson { .. }), "{html:?}");
    assert!(html
        .to_string()
        .contains("neither a SQLite database nor a conversation"));
    assert_eq!(read("[1, 2]").unwrap_err(), ReadError::NotAConversation);
    assert_eq!(read("{\"a\": 1}").unwrap_err(), ReadError::NotAConversation);
}

/// Another program's JSON that has a `"format"` of its own is said to be that, not a
/// conversation of another version. Mutation: reading any string `format` as a version (as
/// before) says "this conversation is in the format \"geojson\"".
#[test]
fn another_programs_format_is_not_called_a_conversation() {
    for (text, found) in [
        (r#"{"format": "geojson", "features": []}"#, "geojson"),
        (r#"{"format": 2}"#, "2"),
        (r#"{"format": "askdb-knowledge/1"}"#, "askdb-knowledge/1"),
    ] {
        let refused = read(text).unwrap_err();
        assert_eq!(
            refused,
            ReadError::ForeignFormat {
                found: found.into()
            }
        );
        let message = refused.to_string();
        assert!(
            message.contains("not a conversation saved by askdb"),
            "{message}"
        );
        assert!(!message.contains("this conversation"), "{message}");
    }
}

#[test]
fn another_version_is_named() {
    let mut value = saved_json();
    value["format"] = json!("askdb-conversation/9");
    let message = refused(&value);
    assert!(
        message.contains("\"askdb-conversation/9\"") && message.contains(FORMAT),
        "{message}"
    );
}

#[test]
fn wrong_types_say_where() {
    let mut value = saved_json();
    value["settings"]["max_steps"] = json!("ten");
    let message = refused(&value);
    assert!(
        message.starts_with("the conversation file is damaged: invalid type"),
        "{message}"
    );
    let mut value = saved_json();
    value["questions"][0]["turns"] = json!({});
    assert!(refused(&value).contains("damaged"));
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_it_is_parsed() {
    let huge = format!(
        "{{\"format\": \"{FORMAT}\", \"x\": \"{}\"}}",
        "a".repeat(LIMITS.file_bytes)
    );
    assert!(matches!(read(&huge), Err(ReadError::TooLarge { .. })));
}

#[test]
fn huge_strings_are_refused() {
    let mut value = saved_json();
    value["questions"][0]["answer"]["text"] = json!("x".repeat(LIMITS.text_bytes + 1));
    let message = refused(&value);
    assert!(
        message.contains("question 1's answer of 65,537 bytes"),
        "{message}"
    );
    let mut value = saved_json();
    value["questions"][0]["turns"][0]["results"][0]["content"] =
        json!("y".repeat(LIMITS.result_bytes + 1));
    assert!(refused(&value).contains("a tool result in question 1, turn 1"));
}

#[test]
fn ten_thousand_steps_are_refused() {
    let mut value = saved_json();
    let turn = value["questions"][0]["turns"][0].clone();
    value["questions"][0]["turns"] = Value::Array(vec![turn; 10_000]);
    let message = refused(&value);
    assert!(
        message.contains("10,000 model turns in question 1"),
        "{message}"
    );
}

#[test]
fn a_file_written_before_identities_had_kinds_reads_as_bytes() {
    // The `database` of every file saved so far: name, size and SHA-256, nothing else.
    let mut value = saved_json();
    value["database"] = json!({ "name": "shop.db", "size": 24_576, "sha256": SHA });
    let file = read(&value.to_string()).expect("an older file reads");
    assert_eq!(
        file.database.identity(),
        Some(Identity::Bytes {
            size: 24_576,
            sha256: SHA.into()
        })
    );
    // And a file read whole is still written that way: older pages read it too.
    let written: Value = serde_json::from_str(&file.to_json()).unwrap();
    assert_eq!(
        written["database"],
        json!({ "name": "shop.db", "size": 24_576, "sha256": SHA })
    );
}

/// What the engine that reads on demand finds at open: a local file (sampled pages) or a file
/// on a web server (its validators).
fn on_demand(remote: bool) -> Identity {
    let mut header = b"SQLite format 3\0".to_vec();
    header.resize(100, 7);
    Identity::OnDemand(LazyIdentity {
        size: 4_500_000_000,
        header,
        sampled_pages: if remote {
            Vec::new()
        } else {
            vec![1, 500, 1_000]
        },
        sample_sha256: (!remote).then(|| "ab".repeat(32)),
        remote: remote.then(|| RemoteValidators {
            url: "https://example.org/data/big.db".into(),
            etag: Some("\"v1\"".into()),
            last_modified: None,
        }),
    })
}

#[test]
fn databases_read_on_demand_are_recorded_and_read_back() {
    for identity in [on_demand(true), on_demand(false)] {
        let mut saved = file(vec![march_question(&RusqliteDb::shop())]);
        saved.database = DatabaseIdentity::new("big.db", &identity);
        let back = read(&saved.to_json()).expect("reads back");
        assert_eq!(back.database.identity(), Some(identity.clone()));
        assert_eq!(back.database.differs_from(&saved.database), None);
        // The header is written as hex: the file stays readable text.
        let written: Value = serde_json::from_str(&saved.to_json()).unwrap();
        assert!(written["database"]["on_demand"]["header"]
            .as_str()
            .is_some_and(|h| h.starts_with("53514c69746520666f726d6174203300")));
    }
}

#[test]
fn a_database_read_on_demand_that_changed_is_not_the_one_recorded() {
    let recorded = DatabaseIdentity::new("big.db", &on_demand(false));
    let Identity::OnDemand(mut changed) = on_demand(false) else {
        unreachable!()
    };
    changed.header[24] ^= 1; // SQLite's change counter
    let now = DatabaseIdentity::new("big.db", &Identity::OnDemand(changed));
    let why = recorded.differs_from(&now).expect("another database");
    assert!(why.contains("not the database"), "{why}");
}

#[test]
fn a_database_is_identified_exactly_one_way() {
    let on_demand_record = |extra: Value| {
        let mut record = json!({ "header": "53514c697465", "sampled_pages": [1] });
        record
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        record
    };
    let mut value = saved_json();
    value["database"]["on_demand"] = on_demand_record(json!({}));
    assert!(
        refused(&value).contains("exactly one"),
        "{}",
        refused(&value)
    );
    let mut value = saved_json();
    value["database"] = json!({ "name": "shop.db", "size": 24_576 });
    assert!(refused(&value).contains("exactly one"));
    let mut value = saved_json();
    value["database"] = json!({
        "name": "big.db", "size": 5,
        "on_demand": on_demand_record(json!({ "sample_sha256": "<img>" }))
    });
    assert!(
        refused(&value).contains("sampled pages"),
        "{}",
        refused(&value)
    );
    let mut value = saved_json();
    value["database"] = json!({
        "name": "big.db", "size": 5,
        "on_demand": { "header": "<script>" }
    });
    assert!(
        refused(&value).contains("valid header"),
        "{}",
        refused(&value)
    );
    let mut value = saved_json();
    value["database"] = json!({
        "name": "big.db", "size": 5,
        "on_demand": on_demand_record(json!({ "remote": { "url": "x".repeat(3_000) } }))
    });
    assert!(refused(&value).contains("address"), "{}", refused(&value));
}

#[test]
fn a_database_read_another_way_cannot_be_compared() {
    let recorded = file(Vec::new()).database;
    let on_demand = DatabaseIdentity::new("shop.db", &on_demand(false));
    let why = recorded
        .differs_from(&on_demand)
        .expect("cannot be the same");
    assert!(why.contains("cannot be compared"), "{why}");
    assert!(!why.contains("not the database"), "{why}");
}

#[test]
fn unknown_tools_are_refused() {
    let mut value = saved_json();
    value["questions"][0]["turns"][0]["tool_calls"][0]["name"] = json!("drop_table");
    let message = refused(&value);
    assert!(
        message.contains("calls a tool askdb does not have in question 1, turn 1: \"drop_table\""),
        "{message}"
    );
}

#[test]
fn a_bad_hash_a_url_with_a_query_and_settings_out_of_range_are_refused() {
    let mut value = saved_json();
    value["database"]["sha256"] = json!("<img src=x>");
    assert!(refused(&value).contains("SHA-256"));
    let mut value = saved_json();
    value["model"]["base_url"] = json!("https://api.example/v1?key=sk-1");
    assert!(refused(&value).contains("query string"));
    let mut value = saved_json();
    value["settings"]["max_steps"] = json!(0);
    assert!(refused(&value).contains("out of range: max_steps"));
    let mut value = saved_json();
    value["questions"] = json!([]);
    assert!(refused(&value).contains("holds no question"));
}

#[test]
fn the_example_in_the_documentation_is_a_valid_file() {
    let doc = include_str!("../docs/conversation-format.md");
    let start = doc.find("```json\n").expect("a json block") + "```json\n".len();
    let end = start + doc[start..].find("```").expect("its end");
    let example = read(&doc[start..end]).unwrap_or_else(|e| panic!("the example: {e}"));
    assert_eq!(example.format, FORMAT);
    assert!(example.questions[0].answer.is_some());
    // And it replays on the shop database as documented, without a difference.
    let replayed = replay(&RusqliteDb::shop(), &example, 0);
    assert!(replayed.outcome.is_ok(), "{:?}", replayed.outcome);
    assert_eq!(replayed.differences, Vec::new());
}

/// Prints a recorded file (for the documentation's example): `cargo test --test conversation
/// print_example -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_example() {
    println!(
        "{}",
        file(vec![march_question(&RusqliteDb::shop())]).to_json()
    );
}

#[test]
fn a_datasette_database_is_recorded_and_matches_the_file_it_serves() {
    let served = |sha256: Option<&str>| {
        Identity::Datasette(DatasetteIdentity {
            address: "http://127.0.0.1:8001/shop".into(),
            size: 24_576,
            sha256: sha256.map(Into::into),
        })
    };
    for identity in [served(Some(SHA)), served(None)] {
        let mut saved = file(vec![march_question(&RusqliteDb::shop())]);
        saved.database = DatabaseIdentity::new("shop", &identity);
        let back = read(&saved.to_json()).expect("reads back");
        assert_eq!(back.database.identity(), Some(identity.clone()));
        assert_eq!(back.database.differs_from(&saved.database), None);
    }
    // Recorded on the file, played against the server that serves it immutable: the same.
    let on_the_file = file(Vec::new()).database;
    let on_the_server = DatabaseIdentity::new("shop", &served(Some(SHA)));
    assert_eq!(on_the_file.differs_from(&on_the_server), None);
    // Served mutable (no hash): it cannot be told from the file.
    let mutable = DatabaseIdentity::new("shop", &served(None));
    let why = on_the_file.differs_from(&mutable).expect("cannot be told");
    assert!(why.contains("cannot be compared"), "{why}");
    // What a file says of it is checked like the rest.
    let mut value = saved_json();
    value["database"] = json!({
        "name": "shop", "size": 5,
        "datasette": { "address": "http://h/shop", "sha256": "<img>" }
    });
    assert!(refused(&value).contains("Datasette"), "{}", refused(&value));
    let mut value = saved_json();
    value["database"]["datasette"] = json!({ "address": "http://h/shop" });
    assert!(
        refused(&value).contains("exactly one"),
        "{}",
        refused(&value)
    );
}
