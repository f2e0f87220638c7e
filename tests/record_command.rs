//! `askdb-eval record`, the built binary, against a fake OpenAI-format model on 127.0.0.1:
//! one conversation file per question (each a conversation of its own) or one for all (each
//! question a follow-up), in the page's format (`conversation::read` accepts them), naming the
//! database by its SHA-256, never holding the key; `replay-check` passes on what it wrote; a
//! question that gets no answer is said and fails the run. (That the page replays a recording
//! made by command with no difference, and that the command writes what the page's "Save
//! conversation" writes, is `tests/e2e/recording-command.test.mjs`.)
#![cfg(not(target_arch = "wasm32"))]

mod support;

use askdb::conversation::{read, ConversationFile, FORMAT};
use askdb::engine::native::file_digest::digest_file;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::fake_server::{FakeServer, Received, Reply};

const KEY: &str = "sk-test-RECORD-0123456789abcdef";
const TOKYO: &str = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY id";
const MARCH: &str =
    "SELECT count(*) FROM orders WHERE ordered_at >= '2024-03-01' AND ordered_at < '2024-04-01'";
const QUESTIONS: [(&str, &str); 2] = [
    ("Which customers live in Tokyo?", TOKYO),
    ("How many orders in March 2024?", MARCH),
];

fn shop_db() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("www/demo/shop.db")
}

/// A model that runs the question's query, then answers with it. The question it answers is
/// the last one the request carries (a follow-up's request carries the earlier ones too).
/// With `answers: false` it never answers.
fn model(answers: bool) -> FakeServer {
    FakeServer::start(move |request, _| {
        let body = &request.body;
        let sql = QUESTIONS
            .iter()
            .filter_map(|(q, sql)| body.rfind(q).map(|at| (at, *sql)))
            .max()
            .map_or("SELECT 1", |(_, sql)| sql);
        let answered = body.contains("\"tool_call_id\"") && answers && last_is_tool_result(request);
        let (name, arguments) = if answered {
            (
                "final_answer",
                json!({ "answer": "Here it is.", "sql": sql }),
            )
        } else {
            ("run_sql", json!({ "sql": sql }))
        };
        Reply::json(
            200,
            json!({
                "id": "chatcmpl-fake", "object": "chat.completion", "created": 1741570300,
                "model": "fake-model",
                "choices": [{
                    "index": 0,
                    "message": {
                        "role": "assistant", "content": null,
                        "tool_calls": [{
                            "id": format!("call_{name}"), "type": "function",
                            "function": { "name": name, "arguments": arguments.to_string() }
                        }]
                    },
                    "finish_reason": "tool_calls"
                }],
                "usage": { "prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120 }
            }),
        )
    })
}

/// Whether the request's last message is a tool's result (the model's query ran).
fn last_is_tool_result(request: &Received) -> bool {
    let messages = request.json()["messages"].clone();
    messages
        .as_array()
        .and_then(|m| m.last())
        .is_some_and(|m| m["role"] == "tool")
}

/// A folder of its own for one test, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(label: &str) -> Scratch {
        let path =
            std::env::temp_dir().join(format!("askdb-record-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }

    fn questions(&self) -> PathBuf {
        let path = self.0.join("questions.txt");
        let lines: Vec<&str> = QUESTIONS.iter().map(|(q, _)| *q).collect();
        std::fs::write(
            &path,
            format!("# the shop's demo\n{}\n", lines.join("\n\n")),
        )
        .unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn askdb_eval<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_askdb-eval"));
    command.args(args);
    for variable in [
        "ASKDB_API_KEY",
        "OPENAI_API_KEY",
        "http_proxy",
        "HTTP_PROXY",
    ] {
        command.env_remove(variable);
    }
    command.env("OPENAI_API_KEY", KEY);
    command.output().expect("run askdb-eval")
}

fn record(server: &FakeServer, scratch: &Scratch, out: (&str, &Path), more: &[&str]) -> Output {
    let questions = scratch.questions();
    let mut args: Vec<String> = vec![
        "record".into(),
        "--db".into(),
        shop_db().display().to_string(),
        "--questions".into(),
        questions.display().to_string(),
        "--base-url".into(),
        server.url.clone(),
        "--model".into(),
        "fake-model".into(),
        out.0.into(),
        out.1.display().to_string(),
    ];
    args.extend(more.iter().map(|s| s.to_string()));
    askdb_eval(&args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The file at `path`, read as the page reads a conversation it opens.
fn conversation(path: &Path) -> (String, ConversationFile) {
    let raw = std::fs::read_to_string(path).unwrap();
    let file = read(&raw).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (raw, file)
}

#[test]
fn one_file_per_question_in_the_pages_format_each_a_conversation_of_its_own() {
    let scratch = Scratch::new("each");
    let server = model(true);
    let folder = scratch.0.join("recordings");
    let output = record(&server, &scratch, ("--out", &folder), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let written: Vec<PathBuf> = text(&output.stdout).lines().map(PathBuf::from).collect();
    assert_eq!(
        written,
        [
            folder.join("01-which-customers-live-in-tokyo.askdb.json"),
            folder.join("02-how-many-orders-in-march-2024.askdb.json"),
        ]
    );
    let progress = text(&output.stderr);
    assert!(progress.contains("[1/2] answered in 2 steps"), "{progress}");

    let digest = digest_file(&shop_db()).unwrap();
    for (path, (question, sql)) in written.iter().zip(QUESTIONS) {
        let (raw, file) = conversation(path);
        assert!(!raw.contains(KEY), "{} holds the key", path.display());
        assert_eq!(raw, file.to_json(), "written as the page writes it");
        assert_eq!(file.format, FORMAT);
        assert_eq!(
            (file.database.name.as_str(), file.database.size),
            ("shop.db", digest.size)
        );
        assert_eq!(file.database.sha256, Some(digest.sha256.clone()));
        assert_eq!(file.model.name, "fake-model");
        assert_eq!(file.model.base_url, server.url);
        assert_eq!(
            (file.settings.row_cap, file.settings.query_deadline_ms),
            (1_000, 10_000),
            "the page's console limits"
        );
        assert!(file.recorded_at.ends_with('Z') && file.recorded_at.len() == 24);
        let [recorded] = file.questions.as_slice() else {
            panic!("one question per file: {raw}");
        };
        assert_eq!(recorded.question, question);
        assert_eq!(recorded.turns.len(), 2);
        assert!(
            recorded.turns[0].results[0].content.contains("\"rows\""),
            "{raw}"
        );
        assert_eq!(recorded.answer.as_ref().unwrap().sql.as_deref(), Some(sql));
    }
    // Each file is a conversation of its own: the second question's first request carries
    // nothing of the first.
    let requests = server.requests();
    assert_eq!(requests.len(), 4);
    assert!(
        requests[1].body.contains("Alice"),
        "the first query's rows went to the model"
    );
    assert!(!requests[2].body.contains(QUESTIONS[0].0));
    assert_eq!(
        requests[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );

    // What was recorded replays on the database with no model.
    let output = askdb_eval(&[
        "replay-check",
        written[0].to_str().unwrap(),
        written[1].to_str().unwrap(),
        "--db",
        shop_db().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    assert_eq!(text(&output.stdout).matches("ok: ").count(), 2);
}

#[test]
fn one_file_for_all_makes_each_question_a_follow_up() {
    let scratch = Scratch::new("one");
    let server = model(true);
    let file_path = scratch.0.join("shop-demo.askdb.json");
    let output = record(&server, &scratch, ("--one-file", &file_path), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).trim(), file_path.display().to_string());
    let (_, file) = conversation(&file_path);
    let asked: Vec<&str> = file.questions.iter().map(|q| q.question.as_str()).collect();
    assert_eq!(asked, [QUESTIONS[0].0, QUESTIONS[1].0]);
    // The second question is asked with the first in the conversation, as in the page.
    let requests = server.requests();
    assert!(requests[2].body.contains(QUESTIONS[0].0));
    let output = askdb_eval(&[
        "replay-check",
        file_path.to_str().unwrap(),
        "--db",
        shop_db().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
}

#[test]
fn a_question_without_an_answer_is_written_said_and_fails_the_run() {
    let scratch = Scratch::new("none");
    let server = model(false);
    let folder = scratch.0.join("out");
    let output = record(&server, &scratch, ("--out", &folder), &["--max-steps", "2"]);
    let said = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("[1/2] NO ANSWER after 2 steps"), "{said}");
    assert!(said.contains("question 2 got no answer"), "{said}");
    let (_, file) = conversation(&folder.join("01-which-customers-live-in-tokyo.askdb.json"));
    assert!(file.questions[0].answer.is_none());
    assert!(file.questions[0].error.is_some());
}

#[test]
fn wrong_arguments_are_exit_2_and_name_what_to_fix() {
    let scratch = Scratch::new("args");
    let server = model(true);
    let folder = scratch.0.join("out");
    let output = record(
        &server,
        &scratch,
        ("--out", &folder),
        &["--hide", "customers.nope"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("customers.nope"));
    assert!(server.requests().is_empty(), "nothing is asked");

    let output = askdb_eval(&[
        "record",
        "--db",
        "x.db",
        "--questions",
        "q.txt",
        "--model",
        "m",
    ]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "--out or --one-file is needed"
    );
    let said = text(&output.stderr);
    assert!(said.contains("--out"), "{said}");

    // The evaluation's own command line is as it was.
    let output = askdb_eval(&["--help"]);
    let help = text(&output.stdout);
    assert!(
        help.contains("--db-dir") && help.contains("askdb-eval record --help"),
        "{help}"
    );
}

#[test]
fn hidden_columns_never_reach_the_model_of_a_recording() {
    let scratch = Scratch::new("hide");
    let server = model(true);
    let folder = scratch.0.join("out");
    let output = record(
        &server,
        &scratch,
        ("--out", &folder),
        &["--hide", "customers.name"],
    );
    // The model's query and answer name the hidden column, which the copy it runs on does not
    // have: the question may end without an answer, but the recording is written.
    assert_ne!(output.status.code(), Some(2), "{}", text(&output.stderr));
    let (_, file) = conversation(&folder.join("01-which-customers-live-in-tokyo.askdb.json"));
    let result: Value =
        serde_json::from_str(&file.questions[0].turns[0].results[0].content).unwrap_or(Value::Null);
    assert!(
        file.questions[0].turns[0].results[0].is_error || result["kind"] == "error",
        "{:?}",
        file.questions[0].turns[0].results[0]
    );
    for request in server.requests() {
        assert!(
            !request.body.contains("Alice"),
            "a hidden value reached the model"
        );
    }
}
