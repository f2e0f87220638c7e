//! `askdb-eval`, the built binary, against a fake model server on 127.0.0.1 written here: one
//! that answers right, one that answers wrong, one that fails with HTTP 500, one that refuses
//! the key, and an address where nothing listens; the three wire formats. Checked: the exit
//! status, the summary line on stdout, the report files, and that the key is in neither report.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::fake_server::{closed_port_url, FakeServer, Received, Reply};

const KEY: &str = "sk-test-SECRET-0123456789abcdef";
const MARCH: &str =
    "SELECT count(*) FROM orders WHERE ordered_at >= '2024-03-01' AND ordered_at < '2024-04-01'";
const TOKYO: &str = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY id";

#[derive(Clone, Copy, PartialEq)]
enum Provider {
    OpenAi,
    Anthropic,
    Gemini,
}

/// A model that reads the question, runs one query and answers with it: the SQL `answers`
/// pairs with the question, or one that names no table for a question it does not know.
fn model(provider: Provider, mut answers: Vec<(String, String)>) -> FakeServer {
    // Longest first: a question that contains another is found as itself.
    answers.sort_by_key(|(q, _)| std::cmp::Reverse(q.len()));
    FakeServer::start(move |request, _| {
        let sql = answers
            .iter()
            .find(|(q, _)| request.body.contains(q.as_str()))
            .map_or("SELECT 'unknown question'", |(_, sql)| sql.as_str());
        let (name, arguments) = if has_tool_result(provider, request) {
            (
                "final_answer",
                json!({ "answer": "Here it is.", "sql": sql }),
            )
        } else {
            ("run_sql", json!({ "sql": sql }))
        };
        Reply::json(200, tool_call(provider, name, arguments))
    })
}

/// The two questions of [`shop_questions`] with their expected SQL.
fn shop_answers() -> Vec<(String, String)> {
    vec![
        ("How many orders in March 2024?".into(), MARCH.into()),
        ("Which customers live in Tokyo?".into(), TOKYO.into()),
    ]
}

/// The questions of a shipped set with their expected SQL.
fn set_answers(set: &str) -> Vec<(String, String)> {
    let items = read_json(&repo(set));
    let text = |item: &Value, field: &str| item[field].as_str().unwrap().to_string();
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| (text(item, "question"), text(item, "gold_sql")))
        .collect()
}

/// The same questions, each answered with SQL that runs but is wrong.
fn wrong(answers: Vec<(String, String)>) -> Vec<(String, String)> {
    answers
        .into_iter()
        .map(|(q, _)| (q, "SELECT 42".to_string()))
        .collect()
}

fn has_tool_result(provider: Provider, request: &Received) -> bool {
    let marker = match provider {
        Provider::OpenAi => "\"tool_call_id\"",
        Provider::Anthropic => "\"tool_result\"",
        Provider::Gemini => "\"functionResponse\"",
    };
    request.body.contains(marker)
}

/// A reply that calls one tool, in the provider's documented format (as in
/// `tests/fixtures/llm/*/response_tool_call.json`).
fn tool_call(provider: Provider, name: &str, arguments: Value) -> Value {
    match provider {
        Provider::OpenAi => json!({
            "id": "chatcmpl-fake", "object": "chat.completion", "created": 1741570300,
            "model": "fake-model",
            "choices": [{
                "index": 0,
                "message": {
                    "role": "assistant", "content": null, "refusal": null,
                    "tool_calls": [{
                        "id": format!("call_{name}"), "type": "function",
                        "function": { "name": name, "arguments": arguments.to_string() }
                    }]
                },
                "logprobs": null, "finish_reason": "tool_calls"
            }],
            "usage": { "prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120 }
        }),
        Provider::Anthropic => json!({
            "id": "msg_fake", "type": "message", "role": "assistant", "model": "fake-model",
            "content": [{
                "type": "tool_use", "id": format!("toolu_{name}"), "name": name, "input": arguments
            }],
            "stop_reason": "tool_use", "stop_sequence": null,
            "usage": { "input_tokens": 100, "output_tokens": 20 }
        }),
        Provider::Gemini => json!({
            "candidates": [{
                "content": { "parts": [{ "functionCall": { "name": name, "args": arguments } }],
                             "role": "model" },
                "finishReason": "STOP", "index": 0
            }],
            "usageMetadata": { "promptTokenCount": 100, "candidatesTokenCount": 20,
                               "totalTokenCount": 120 },
            "modelVersion": "fake-model"
        }),
    }
}

fn repo(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A folder of its own for one test's files, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(label: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("askdb-eval-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn report(&self) -> (String, Value) {
        let markdown = std::fs::read_to_string(self.0.join("out/report.md")).unwrap();
        let json = read_json(&self.0.join("out/report.json"));
        (markdown, json)
    }

    fn assert_key_absent(&self) {
        for name in ["out/report.md", "out/report.json"] {
            let text = std::fs::read_to_string(self.0.join(name)).unwrap();
            assert!(!text.contains(KEY), "{name} holds the key");
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Two questions on the shop database, as a dataset list.
fn shop_questions(scratch: &Scratch) -> PathBuf {
    let items = json!([
        { "question": "How many orders in March 2024?", "gold_sql": MARCH },
        { "question": "Which customers live in Tokyo?", "gold_sql": TOKYO },
    ]);
    scratch.write("questions.json", &items.to_string())
}

/// Runs the binary with `args` (and `--out SCRATCH/out`), the key in `key_variable` if any, and
/// no proxy in the way of 127.0.0.1.
fn eval(scratch: &Scratch, key_variable: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_askdb-eval"));
    command.args(args).arg("--out").arg(scratch.0.join("out"));
    for variable in [
        "ASKDB_API_KEY",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "GEMINI_API_KEY",
        "http_proxy",
        "HTTP_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ] {
        command.env_remove(variable);
    }
    if let Some(variable) = key_variable {
        command.env(variable, KEY);
    }
    command.output().expect("run askdb-eval")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn shop_db() -> String {
    repo("tests/datasets/shop/shop.db").display().to_string()
}

/// The shop's two questions asked of `server` speaking `provider`.
fn ask_shop(scratch: &Scratch, server: &FakeServer, provider: &str, variable: &str) -> Output {
    let questions = shop_questions(scratch);
    eval(
        scratch,
        Some(variable),
        &[
            "--db",
            &shop_db(),
            "--questions",
            questions.to_str().unwrap(),
            "--provider",
            provider,
            "--base-url",
            &server.url,
            "--model",
            "fake-model",
        ],
    )
}

/// Runs the binary against the OpenAI-format server at `url` (model "m", the key in
/// OPENAI_API_KEY) with `args` before those.
fn eval_at(scratch: &Scratch, url: &str, args: &[&str]) -> Output {
    let mut all = args.to_vec();
    all.extend(["--base-url", url, "--model", "m"]);
    eval(scratch, Some("OPENAI_API_KEY"), &all)
}

/// The exit status is `code` and stderr says `said`.
fn assert_exit(output: &Output, code: i32, said: &str) {
    let stderr = stderr(output);
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    assert!(stderr.contains(said), "expected {said:?} in: {stderr}");
}

#[test]
fn a_model_that_answers_right_passes_every_question() {
    let scratch = Scratch::new("right");
    let server = model(Provider::OpenAi, shop_answers());
    let output = ask_shop(&scratch, &server, "openai", "OPENAI_API_KEY");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Two questions, two calls each of 100 + 20 tokens.
    assert_eq!(stdout(&output), "2 of 2 correct, 480 tokens\n");
    let progress = stderr(&output);
    assert!(progress.contains("[1/2] pass"), "{progress}");
    assert!(progress.contains("[2/2] pass"), "{progress}");

    let (markdown, report) = scratch.report();
    assert_eq!(report["format"], "askdb-eval-report/1");
    assert_eq!(report["passed"], 2);
    assert_eq!(report["total"], 2);
    assert_eq!(report["model"], "fake-model");
    assert_eq!(report["results"][0]["model_sql"], MARCH);
    assert!(markdown.contains("2 of 2 correct"), "{markdown}");
    scratch.assert_key_absent();

    let requests = server.requests();
    assert_eq!(requests.len(), 4);
    assert_eq!(requests[0].path, "/chat/completions");
    assert_eq!(
        requests[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(requests[0].json()["model"], "fake-model");
}

#[test]
fn a_model_that_answers_wrong_fails_with_both_sqls_in_the_report() {
    let scratch = Scratch::new("wrong");
    let server = model(Provider::OpenAi, wrong(shop_answers()));
    let output = ask_shop(&scratch, &server, "openai", "ASKDB_API_KEY");
    // Wrong answers are a result, not a failure to run.
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "0 of 2 correct, 480 tokens\n");
    let (markdown, report) = scratch.report();
    assert_eq!(report["results"][0]["outcome"], "fail");
    assert!(markdown.contains("## Not passed"), "{markdown}");
    assert!(markdown.contains(TOKYO), "{markdown}");
    assert!(markdown.contains("SELECT 42"), "{markdown}");
    assert!(stderr(&output).contains("[2/2] fail"));
    scratch.assert_key_absent();
}

#[test]
fn a_server_that_fails_gives_no_answer_and_the_run_still_ends() {
    let scratch = Scratch::new("http500");
    let server = FakeServer::start(|_, _| {
        Reply::json(500, json!({"error": {"message": "the fake model is down"}}))
    });
    let questions = shop_questions(&scratch);
    let questions = questions.to_str().unwrap();
    let args = ["--db", &shop_db(), "--questions", questions, "--limit", "1"];
    let output = eval_at(&scratch, &server.url, &args);
    assert_exit(&output, 0, "[1/1] no answer");
    assert_eq!(stdout(&output), "0 of 1 correct, 0 tokens\n");
    let (markdown, report) = scratch.report();
    assert_eq!(report["results"][0]["outcome"], "no_answer");
    assert!(markdown.contains("HTTP 500"), "{markdown}");
    // The agent's own retries: the first try and three more.
    assert_eq!(server.requests().len(), 4);
}

#[test]
fn anthropic_and_gemini_are_spoken_too() {
    let cases = [
        (
            Provider::Anthropic,
            "anthropic",
            "ANTHROPIC_API_KEY",
            "/v1/messages",
            "x-api-key",
        ),
        (
            Provider::Gemini,
            "gemini",
            "GEMINI_API_KEY",
            "/models/fake-model:generateContent",
            "x-goog-api-key",
        ),
    ];
    for (provider, name, variable, path, key_header) in cases {
        let scratch = Scratch::new(name);
        let server = model(provider, shop_answers());
        let output = ask_shop(&scratch, &server, name, variable);
        assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
        assert_eq!(stdout(&output), "2 of 2 correct, 480 tokens\n", "{name}");
        let first = &server.requests()[0];
        assert_eq!(first.path, path);
        assert_eq!(first.header(key_header), Some(KEY), "{name}");
        scratch.assert_key_absent();
    }
}

#[test]
fn a_refused_key_stops_the_run_and_is_cut_out_of_everything_written() {
    let scratch = Scratch::new("refused");
    // Some servers quote the key they refuse.
    let server = FakeServer::start(|request, _| {
        let sent = request
            .header("authorization")
            .unwrap_or_default()
            .to_string();
        Reply::json(
            401,
            json!({"error": {"message": format!("Incorrect API key: {sent}")}}),
        )
    });
    let output = ask_shop(&scratch, &server, "openai", "OPENAI_API_KEY");
    assert_eq!(output.status.code(), Some(1));
    let said = stderr(&output);
    assert!(
        said.contains("stopped: the API key was refused (HTTP 401)"),
        "{said}"
    );
    assert!(!said.contains(KEY), "{said}");
    assert!(
        said.contains("Incorrect API key: Bearer [API key]"),
        "{said}"
    );
    // Stopped at the first question: the second is never asked.
    assert_eq!(server.requests().len(), 1);
    let (_, report) = scratch.report();
    assert_eq!(report["stopped"], true);
    scratch.assert_key_absent();
}

#[test]
fn an_endpoint_where_nothing_listens_cannot_run() {
    let scratch = Scratch::new("unreachable");
    let questions = shop_questions(&scratch);
    let url = closed_port_url();
    let args = [
        "--db",
        &shop_db(),
        "--questions",
        questions.to_str().unwrap(),
    ];
    let output = eval_at(&scratch, &url, &args);
    assert_exit(&output, 1, &format!("stopped: could not reach {url}"));
    assert!(stderr(&output).contains("connection was refused"));
    assert_eq!(stdout(&output), "");
}

#[test]
fn bad_arguments_say_what_to_fix_with_status_2() {
    let scratch = Scratch::new("arguments");
    let questions = shop_questions(&scratch);
    let questions = questions.to_str().unwrap();
    let db = shop_db();
    let shop = [
        "--db",
        db.as_str(),
        "--questions",
        questions,
        "--model",
        "m",
    ];

    let no_key = eval(&scratch, None, &shop);
    assert_exit(
        &no_key,
        2,
        "no API key: set OPENAI_API_KEY (or ASKDB_API_KEY)",
    );
    let gemini = [&shop[..], &["--provider", "gemini"]].concat();
    assert_exit(
        &eval(&scratch, Some("OPENAI_API_KEY"), &gemini),
        2,
        "set GEMINI_API_KEY",
    );

    let key = Some("ASKDB_API_KEY");
    let missing = [
        "--db",
        "no/such.db",
        "--questions",
        questions,
        "--model",
        "m",
    ];
    let missing = eval(&scratch, key, &missing);
    assert_exit(&missing, 2, "--db no/such.db: no such file or folder");
    assert_exit(&eval(&scratch, key, &["--db", &db]), 2, "--model");
    assert_exit(&eval(&scratch, key, &["--model", "m"]), 2, "Give --db FILE");

    let past_the_end = [&shop[..], &["--offset", "2"]].concat();
    let past_the_end = eval(&scratch, key, &past_the_end);
    assert_exit(
        &past_the_end,
        1,
        "has 2 questions to ask, none of them after --offset 2",
    );

    let not_questions = scratch.write("notes.txt", "hello");
    let unreadable = [
        "--db",
        &db,
        "--questions",
        not_questions.to_str().unwrap(),
        "--model",
        "m",
    ];
    assert_exit(
        &eval(&scratch, key, &unreadable),
        1,
        "cannot read the questions in",
    );
}

#[test]
fn the_shipped_shop_sets_find_both_databases_and_every_expected_sql_runs() {
    let scratch = Scratch::new("shop-sets");
    let datasets = repo("tests/datasets").display().to_string();
    for set in [
        "evals/shop/questions.json",
        "evals/shop/questions_mirrored.json",
    ] {
        let server = model(Provider::OpenAi, set_answers(set));
        let set = repo(set).display().to_string();
        let output = eval_at(
            &scratch,
            &server.url,
            &["--db-dir", &datasets, "--questions", &set],
        );
        assert_exit(&output, 0, "[12/12] pass");
        // Twelve questions, two calls each of 100 + 20 tokens.
        assert_eq!(stdout(&output), "12 of 12 correct, 2.8k tokens\n");
        let (_, report) = scratch.report();
        let databases: Vec<&str> = report["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["question"].as_str().unwrap().split(':').next().unwrap())
            .collect();
        // TC01-TC11 on one database, TC12 on the other, each named in the report.
        assert_eq!(databases[0], databases[10]);
        assert_ne!(databases[10], databases[11]);
        assert!(databases.iter().all(|db| *db == "shop" || *db == "shop_ja"));
    }
}

#[test]
fn the_german_spider_set_skips_gold_sql_known_not_to_run() {
    let scratch = Scratch::new("spider");
    let server = model(Provider::OpenAi, Vec::new());
    let folder = repo("tests/datasets/spider_de/database");
    let set = repo("tests/datasets/spider_de/questions_dev_de.json");
    let args = [
        "--db-dir",
        folder.to_str().unwrap(),
        "--questions",
        set.to_str().unwrap(),
        "--limit",
        "2",
    ];
    let output = eval_at(&scratch, &server.url, &args);
    assert_exit(&output, 0, "skipped 52 questions");
    assert_eq!(stdout(&output), "0 of 2 correct, 480 tokens\n");
    let (markdown, _) = scratch.report();
    assert!(markdown.contains("52 questions of the set were not asked"));
}

/// The expected SQL kept in the file carries this alias, which no SQL of the model has: a
/// request that holds it was sent the golden question's answer.
const GOLDEN_ALIAS: &str = "golden_answer_7f3q";
/// Kept in lower case in an ordinary table; only a query's result has it in upper case.
const MEMO: &str = "memo-marker-5k";

/// A model that tries to read the golden questions, first by the knowledge table's name (the
/// agent refuses it), then through a view over it (`v`, which only the model view's copy of the
/// file lacks), then reads an ordinary table (the positive control: a query's result reaches
/// the next request), and answers with `MARCH`. Each step is told by the tool results so far.
fn catalogue_reader() -> FakeServer {
    FakeServer::start(|request, _| {
        let step = request.body.matches("\"tool_call_id\"").count();
        let (name, arguments) = match step {
            0 => ("run_sql", json!({ "sql": "SELECT * FROM askdb_checks" })),
            1 => ("run_sql", json!({ "sql": "SELECT * FROM v" })),
            2 => ("run_sql", json!({ "sql": "SELECT upper(note) FROM memo" })),
            _ => (
                "final_answer",
                json!({ "answer": "Here it is.", "sql": MARCH }),
            ),
        };
        let mut reply = tool_call(Provider::OpenAi, name, arguments);
        reply["choices"][0]["message"]["tool_calls"][0]["id"] = json!(format!("call_{step}"));
        Reply::json(200, reply)
    })
}

#[test]
fn golden_questions_kept_in_the_database_are_asked_and_never_shown_to_the_model() {
    let scratch = Scratch::new("in-file");
    let db = scratch.0.join("shop-with-checks.db");
    std::fs::copy(repo("tests/datasets/shop/shop.db"), &db).unwrap();
    let connection = rusqlite::Connection::open(&db).unwrap();
    let golden = MARCH.replace("count(*)", &format!("count(*) AS {GOLDEN_ALIAS}"));
    connection
        .execute_batch(&format!(
            "CREATE TABLE askdb_checks (question TEXT, sql TEXT, also_accepted TEXT);
             INSERT INTO askdb_checks VALUES ('How many orders in March 2024?', \"{golden}\", NULL);
             CREATE VIEW v AS SELECT * FROM askdb_checks;
             CREATE TABLE memo (note TEXT);
             INSERT INTO memo VALUES ('{MEMO}');"
        ))
        .unwrap();
    drop(connection);
    let server = catalogue_reader();
    let output = eval_at(&scratch, &server.url, &["--db", db.to_str().unwrap()]);
    assert_exit(&output, 0, "[1/1] pass");
    assert_eq!(stdout(&output), "1 of 1 correct, 480 tokens\n");

    let requests = server.requests();
    assert_eq!(requests.len(), 4, "the model's four steps");
    // The positive control: what the model's query read reached its next request.
    let read = MEMO.to_uppercase();
    assert!(!requests[2].body.contains(&read), "{}", requests[2].body);
    assert!(requests[3].body.contains(&read), "{}", requests[3].body);
    // By name the agent refused to run it; through the view there was nothing to read.
    assert!(requests[1]
        .body
        .contains("holds askdb's notes about the data"));
    for request in &requests {
        assert!(!request.body.contains(GOLDEN_ALIAS), "{}", request.body);
    }
}

#[test]
fn a_knowledge_files_golden_questions_are_asked_given_as_notes_or_as_questions() {
    let scratch = Scratch::new("sidecar");
    let knowledge = askdb::knowledge::Knowledge {
        golden_questions: vec![askdb::knowledge::GoldenQuestion {
            question: "Which customers live in Tokyo?".into(),
            sql: TOKYO.into(),
            also_accepted: Vec::new(),
            source: askdb::knowledge::Source::Person,
        }],
        notes: vec![askdb::knowledge::Note {
            table: "customers".into(),
            column: Some("prefecture".into()),
            text: "NOTE-7Q: in English, as in Tokyo".into(),
            source: askdb::knowledge::Source::Person,
        }],
        ..Default::default()
    };
    let sidecar = scratch.write(
        "shop.askdb.json",
        &askdb::knowledge::sidecar::write(&knowledge),
    );
    let server = model(Provider::OpenAi, shop_answers());
    for option in ["--notes", "--questions"] {
        let args = ["--db", &shop_db(), option, sidecar.to_str().unwrap()];
        let output = eval_at(&scratch, &server.url, &args);
        assert_exit(&output, 0, "[1/1] pass");
        assert_eq!(stdout(&output), "1 of 1 correct, 240 tokens\n", "{option}");
    }
    // Given as notes, its note went to the model with the question; as questions, only its
    // golden questions were read.
    let requests = server.requests();
    assert!(requests[0].body.contains("NOTE-7Q"), "{}", requests[0].body);
    assert!(
        !requests[2].body.contains("NOTE-7Q"),
        "{}",
        requests[2].body
    );
    // Without a questions file, and no golden questions in the database or a knowledge file.
    let output = eval_at(&scratch, &server.url, &["--db", &shop_db()]);
    assert_exit(&output, 1, "has no golden questions");
}

#[test]
fn the_golden_questions_are_asked_of_a_datasette_server_with_the_same_report() {
    let datasette = support::datasette::DatasetteServer::start();
    let scratch = Scratch::new("datasette");
    let server = model(Provider::OpenAi, shop_answers());
    let questions = shop_questions(&scratch);
    let address = datasette.database("shop");
    let output = eval_at(
        &scratch,
        &server.url,
        &[
            "--datasette",
            &address,
            "--questions",
            questions.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "2 of 2 correct, 480 tokens\n");
    let (markdown, report) = scratch.report();
    assert_eq!(report["passed"], 2);
    assert!(markdown.contains("2 of 2 correct"), "{markdown}");
    // The model's queries, and the expected SQL, ran on the server.
    let asked = datasette.requests();
    for sql in [MARCH, TOKYO] {
        assert!(
            asked.iter().filter(|r| r.contains(sql)).count() >= 2,
            "{sql} not asked of the server twice (the model's and the expected one): {asked:#?}"
        );
    }

    // A database the server does not have: the server's list says so, and nothing is asked.
    let nosuch = eval_at(
        &scratch,
        &server.url,
        &["--datasette", &datasette.database("nosuchdb")],
    );
    assert_exit(&nosuch, 1, "has no database nosuchdb");
}

#[test]
fn a_servers_knowledge_tables_give_the_notes_and_golden_questions_and_the_model_reads_none() {
    let datasette = support::datasette::DatasetteServer::start();
    let scratch = Scratch::new("datasette-knowing");
    let answer = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";
    // Tries the golden questions by name (the agent refuses it), through a view over them and
    // a view over that view (the fence refuses both before any request), then reads an
    // ordinary table (the positive control) and answers.
    let server = FakeServer::start(move |request, _| {
        let step = request.body.matches("\"tool_call_id\"").count();
        let (name, arguments) = match step {
            0 => ("run_sql", json!({ "sql": "SELECT * FROM askdb_checks" })),
            1 => ("run_sql", json!({ "sql": "SELECT * FROM golden" })),
            2 => (
                "run_sql",
                json!({ "sql": "SELECT * FROM main.\"GOLDEN AGAIN\"" }),
            ),
            3 => ("run_sql", json!({ "sql": "SELECT upper(note) FROM memo" })),
            _ => (
                "final_answer",
                json!({ "answer": "Alice and Evan.", "sql": answer }),
            ),
        };
        let mut reply = tool_call(Provider::OpenAi, name, arguments);
        reply["choices"][0]["message"]["tool_calls"][0]["id"] = json!(format!("call_{step}"));
        Reply::json(200, reply)
    });
    let output = eval_at(
        &scratch,
        &server.url,
        &["--datasette", &datasette.database("knowing")],
    );
    assert_exit(&output, 0, "[1/1] pass");
    assert_eq!(stdout(&output), "1 of 1 correct, 600 tokens\n");

    let requests = server.requests();
    assert_eq!(requests.len(), 5, "the model's five steps");
    // The notes in the server's askdb_notes went with the question.
    assert!(requests[0].body.contains("NOTE-K7"), "{}", requests[0].body);
    // The positive control: what the model's query read reached its next request.
    assert!(
        requests[4].body.contains("MEMO-MARKER-K5"),
        "{}",
        requests[4].body
    );
    // Both views were refused by the fence, with its message.
    for refused in &requests[2..4] {
        assert!(refused.body.contains("may not read it"), "{}", refused.body);
    }
    for request in &requests {
        assert!(
            !request.body.contains("golden_answer_k9"),
            "{}",
            request.body
        );
    }
    // The server was asked the control and the expected SQL, never the views.
    let asked = datasette.wait_for_request("upper(note)");
    assert!(
        asked.iter().any(|r| r.contains("golden_answer_k9")),
        "{asked:#?}"
    );
    for view in ["FROM golden", "GOLDEN AGAIN"] {
        assert!(
            !asked.iter().any(|r| r.contains(view)),
            "{view}: {asked:#?}"
        );
    }
}
