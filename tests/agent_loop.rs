//! The agent's loop with a scripted model on the shop database: how a question ends, every way
//! it can end, and what the model is sent back.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::tools::RESULT_BYTES;
use askdb::agent::{AgentConfig, AgentError, EventKind, Session};
use askdb::llm::stream::Delta;
use askdb::llm::{LlmError, Message, ModelReply, Usage};
use serde_json::json;
use support::scripted_llm::{
    ask, ask_with, call, calls, final_answer, run_sql, session, text, FakeClock, ScriptedLlm, Turn,
    USAGE,
};
use support::RusqliteDb;

const MARCH: &str =
    "SELECT count(*) FROM orders WHERE ordered_at >= '2024-03-01' AND ordered_at < '2024-04-01'";

fn kinds(events: &[askdb::agent::AgentEvent]) -> Vec<&'static str> {
    events
        .iter()
        // What of the schema went with the question comes with every one; its own tests look
        // at it (tests/agent_selection.rs).
        .filter(|event| !matches!(event.kind, EventKind::Schema(_)))
        .map(|event| match event.kind {
            EventKind::Knowledge(_) => "knowledge",
            EventKind::Schema(_) => "schema",
            EventKind::StepStarted { .. } => "step",
            EventKind::LlmRetry { .. } => "retry",
            EventKind::Writing { .. } => "writing",
            EventKind::ModelReplied { .. } => "replied",
            EventKind::ModelText { .. } => "text",
            EventKind::Nudged { .. } => "nudged",
            EventKind::CallsInText { .. } => "calls_in_text",
            EventKind::ToolsNeverCalled { .. } => "tools_never_called",
            EventKind::ToolCall { .. } => "call",
            EventKind::ToolResult { .. } => "result",
            EventKind::Answer { .. } => "answer",
            EventKind::Error { .. } => "error",
        })
        .collect()
}

#[test]
fn answers_through_final_answer_with_evidence() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "How many orders were placed in March 2024?",
        vec![
            calls(vec![run_sql("c1", MARCH)]),
            calls(vec![final_answer("c2", "7 orders.", MARCH)]),
        ],
    );
    let answer = episode.answer();
    assert_eq!(answer.text, "7 orders.");
    assert_eq!(answer.sql.as_deref(), Some(MARCH));
    assert!(answer.verified);
    assert_eq!(answer.steps, 2);
    assert_eq!(answer.usage, Usage::new(200, 40));
    let result = episode.result_in(1);
    assert!(!result.is_error);
    assert_eq!(result.call_id, "c1");
    let content: serde_json::Value = serde_json::from_str(&result.content).unwrap();
    assert_eq!(content["rows"], json!([[7]]));
    assert_eq!(content["total_rows"], json!(1));
    assert_eq!(
        kinds(&episode.events),
        vec!["step", "replied", "call", "result", "step", "replied", "call", "result", "answer"]
    );
    // Every request carries the same system prompt, the tools and the settings.
    let first = &episode.requests[0];
    assert_eq!(first.temperature, 0.2);
    let tools: Vec<_> = first.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        tools,
        vec![
            "list_tables",
            "describe_table",
            "run_sql",
            "cross_check",
            "final_answer"
        ]
    );
    assert_eq!(episode.requests[1].system, first.system);
}

#[test]
fn events_serialize_with_structured_results() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "orders in March 2024?",
        vec![
            calls(vec![run_sql("c1", MARCH)]),
            calls(vec![final_answer("c2", "7", MARCH)]),
        ],
    );
    let result = episode
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::ToolResult { .. }))
        .unwrap();
    let value = serde_json::to_value(result).unwrap();
    assert_eq!(value["event"], "tool_result");
    assert_eq!(value["name"], "run_sql");
    assert_eq!(value["output"]["kind"], "rows");
    assert_eq!(value["output"]["columns"], json!(["count(*)"]));
    assert!(value["at_ms"].is_number());
    for event in &episode.events {
        serde_json::to_string(event).unwrap();
    }
}

#[test]
fn plain_text_is_nudged_once_then_taken_without_evidence() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "How many customers?",
        vec![text("There are 6 customers."), text("6 customers.")],
    );
    let answer = episode.answer();
    assert_eq!(answer.text, "6 customers.");
    assert!(!answer.verified);
    assert_eq!(answer.sql, None);
    match episode.requests[1].messages.last() {
        Some(Message::User { text }) => assert!(text.contains("final_answer"), "{text}"),
        other => panic!("expected the nudge, got {other:?}"),
    }
}

#[test]
fn after_the_nudge_final_answer_is_verified() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let sql = "SELECT count(*) FROM customers";
    let episode = ask(
        &db,
        &mut session,
        "How many customers?",
        vec![
            text("6"),
            calls(vec![final_answer("a", "6 customers.", sql)]),
        ],
    );
    assert!(episode.answer().verified);
    assert!(kinds(&episode.events).contains(&"nudged"));
}

#[test]
fn empty_replies_end_with_a_clear_error() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let empty = || {
        Turn::Reply(ModelReply {
            text: Some("  ".into()),
            tool_calls: Vec::new(),
            usage: USAGE,
            raw: None,
        })
    };
    let episode = ask(&db, &mut session, "?", vec![empty(), empty()]);
    let failure = episode.failure();
    assert_eq!(failure.error, AgentError::EmptyReply);
    assert!(failure.to_string().contains("empty"));
    assert_eq!(failure.usage.input_tokens, 200);
    assert_eq!(kinds(&episode.events).last(), Some(&"error"));
}

#[test]
fn mistakes_in_tool_calls_go_back_to_the_model() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let bad_json = askdb::llm::RawToolCall {
        id: "1".into(),
        name: "run_sql".into(),
        arguments: "{sql: SELECT 1".into(),
    };
    let episode = ask(
        &db,
        &mut session,
        "?",
        vec![
            calls(vec![
                bad_json,
                call("2", "run_sql", json!({ "sql": 5 })),
                call("3", "describe_table", json!({ "name": "orders" })),
                call("4", "drop_database", json!({})),
                run_sql("5", "DELETE FROM orders"),
                run_sql("6", "SELECT * FROM ordrs"),
                call("7", "run_sql", json!(["SELECT 1"])),
            ]),
            calls(vec![final_answer("8", "done", "SELECT 1")]),
        ],
    );
    assert!(episode.answer().verified);
    let results = episode.results_in(1);
    let expected = [
        "not valid JSON",
        "`sql` must be text, not a number",
        "`table` is missing (got: name)",
        "no tool `drop_database`",
        "DELETE",
        "orders",
        "JSON object",
    ];
    assert_eq!(results.len(), expected.len());
    for (result, needle) in results.iter().zip(expected) {
        assert!(result.is_error, "{result:?}");
        assert!(
            result.content.contains(needle),
            "{needle}: {}",
            result.content
        );
    }
    assert!(
        results[5].content.contains("Did you mean"),
        "{}",
        results[5].content
    );
}

#[test]
fn too_many_calls_in_one_reply_are_refused() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let many: Vec<_> = (0..300)
        .map(|i| call(&format!("c{i}"), "list_tables", json!({})))
        .collect();
    let episode = ask(
        &db,
        &mut session,
        "?",
        vec![
            calls(many),
            calls(vec![final_answer("f", "ok", "SELECT 1")]),
        ],
    );
    let results = episode.results_in(1);
    assert_eq!(results.len(), 300);
    assert!(results[..10].iter().all(|r| !r.is_error));
    assert!(results[10..]
        .iter()
        .all(|r| r.is_error && r.content.contains("at most 10")));
}

#[test]
fn huge_results_are_cut_for_the_model_and_say_so() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let sql = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) \
               SELECT i, replace(printf('%0300d', 0), '0', 'é') AS wide FROM n";
    let huge_text = "x".repeat(1_000_000);
    let episode = ask(
        &db,
        &mut session,
        "?",
        vec![
            calls(vec![run_sql("1", sql)]),
            text(&huge_text),
            calls(vec![final_answer("f", "ok", "SELECT 1")]),
        ],
    );
    assert!(episode.answer().verified);
    let result = episode.result_in(1);
    assert!(
        result.content.len() <= RESULT_BYTES,
        "{}",
        result.content.len()
    );
    let content: serde_json::Value = serde_json::from_str(&result.content).unwrap();
    assert!(content["note"].as_str().unwrap().contains("cut to fit"));
    assert_eq!(content["total_rows"], json!(500));
    assert_eq!(content["more_rows"], json!(true));
}

#[test]
fn the_step_limit_ends_the_question() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let config = AgentConfig {
        max_steps: 3,
        ..AgentConfig::default()
    };
    let list = || calls(vec![call("l", "list_tables", json!({}))]);
    let episode = ask_with(
        &db,
        &mut session,
        "?",
        vec![list(), list(), list(), list()],
        config,
        std::future::pending(),
    );
    let failure = episode.failure();
    assert_eq!(failure.error, AgentError::StepLimit { steps: 3 });
    assert_eq!(failure.steps, 3);
    assert_eq!(failure.usage.input_tokens, 300);
    assert!(failure.to_string().contains("3 steps"));
    assert_eq!(episode.requests.len(), 3);
}

#[test]
fn a_hung_model_meets_the_deadline() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(&db, &mut session, "?", vec![Turn::Hang]);
    let failure = episode.failure();
    assert_eq!(failure.error, AgentError::Deadline { after_ms: 120_000 });
    assert_eq!(failure.elapsed_ms, 120_000.0);
    assert!(failure.to_string().contains("120 s"), "{failure}");
    assert_eq!(kinds(&episode.events), vec!["step", "error"]);
}

#[test]
fn a_slow_model_uses_up_the_time_for_later_steps() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let slow = Turn::Slow {
        ms: 130_000.0,
        reply: ModelReply {
            text: None,
            tool_calls: vec![call("l", "list_tables", json!({}))],
            usage: USAGE,
            raw: None,
        },
    };
    let episode = ask(&db, &mut session, "?", vec![slow]);
    let failure = episode.failure();
    assert!(matches!(failure.error, AgentError::Deadline { .. }));
    // The reply that came in counts, though its tools never ran.
    assert_eq!(failure.usage, USAGE);
    assert!(!kinds(&episode.events).contains(&"result"));
}

#[test]
fn cancel_in_the_middle_of_a_step() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let clock = FakeClock::default();
    let llm = ScriptedLlm::new(
        vec![calls(vec![
            run_sql("1", "SELECT 1"),
            run_sql("2", "SELECT 2"),
        ])],
        &clock,
    );
    let agent = askdb::agent::Agent::new(&db, &llm, &clock, AgentConfig::default());
    let (sender, receiver) = futures::channel::oneshot::channel::<()>();
    let mut sender = Some(sender);
    let mut events = Vec::new();
    let outcome = futures::executor::block_on(agent.ask(
        &mut session,
        "?",
        &mut |event| {
            // The person presses Stop as the first result arrives.
            if matches!(event.kind, EventKind::ToolResult { .. }) {
                if let Some(sender) = sender.take() {
                    sender.send(()).unwrap();
                }
            }
            events.push(event);
        },
        async {
            let _ = receiver.await;
        },
    ));
    let failure = outcome.unwrap_err();
    assert_eq!(failure.error, AgentError::Cancelled);
    assert_eq!(failure.usage, USAGE);
    assert_eq!(
        kinds(&events),
        vec!["step", "replied", "call", "result", "call", "error"]
    );
    assert!(session.conversation().turns().is_empty());
}

#[test]
fn cancel_before_the_first_call() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask_with(
        &db,
        &mut session,
        "?",
        vec![calls(vec![final_answer("f", "x", "SELECT 1")])],
        AgentConfig::default(),
        std::future::ready(()),
    );
    assert_eq!(episode.failure().error, AgentError::Cancelled);
    assert!(episode.requests.is_empty());
}

#[test]
fn rate_limit_is_retried_after_a_wait() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let limited = LlmError::RateLimited {
        retry_after_ms: Some(2_000),
        message: "slow down".into(),
    };
    let episode = ask(
        &db,
        &mut session,
        "?",
        vec![
            Turn::Fail(limited),
            calls(vec![final_answer(
                "f",
                "6",
                "SELECT count(*) FROM customers",
            )]),
        ],
    );
    assert!(episode.answer().verified);
    assert_eq!(episode.requests.len(), 2);
    let waits: Vec<u32> = episode
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::LlmRetry {
                attempt, wait_ms, ..
            } => {
                assert_eq!(*attempt, 1);
                Some(*wait_ms)
            }
            _ => None,
        })
        .collect();
    assert_eq!(waits, [2_000], "the wait the server asked for");
    assert_eq!(*episode.clock.sleeps.borrow(), waits);
}

#[test]
fn server_errors_are_retried_a_bounded_number_of_times() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let down = || {
        Turn::Fail(LlmError::Server {
            status: 503,
            message: "overloaded".into(),
        })
    };
    let episode = ask(&db, &mut session, "?", (0..20).map(|_| down()).collect());
    let failure = episode.failure();
    assert!(matches!(
        failure.error,
        AgentError::Llm(LlmError::Server { status: 503, .. })
    ));
    // The default policy: three retries after doubling waits, four calls in all.
    assert_eq!(episode.requests.len(), 4);
    assert_eq!(*episode.clock.sleeps.borrow(), [1_000, 2_000, 4_000]);
}

#[test]
fn unauthorized_is_not_retried() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let denied = LlmError::Unauthorized {
        status: 401,
        message: "invalid api key".into(),
    };
    let episode = ask(&db, &mut session, "?", vec![Turn::Fail(denied.clone())]);
    let failure = episode.failure();
    assert_eq!(failure.error, AgentError::Llm(denied.clone()));
    assert_eq!(episode.requests.len(), 1);
    assert!(!kinds(&episode.events).contains(&"retry"));
    assert!(failure.to_string().contains(&denied.to_string()));
}

#[test]
fn evidence_that_does_not_run_is_refused_then_fixed() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "?",
        vec![
            calls(vec![final_answer(
                "1",
                "6",
                "SELECT count(*) FROM customer",
            )]),
            calls(vec![final_answer(
                "2",
                "6",
                "```sql\nSELECT count(*) FROM customers;\n```",
            )]),
        ],
    );
    let refused = episode.result_in(1);
    assert!(refused.is_error);
    assert!(refused.content.contains("customers"), "{}", refused.content);
    let answer = episode.answer();
    assert!(answer.verified);
    assert_eq!(
        answer.sql.as_deref(),
        Some("SELECT count(*) FROM customers")
    );
}

#[test]
fn evidence_refused_again_and_again_is_dropped_not_looped_on() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let bad = |id: &str| calls(vec![final_answer(id, "6", "DROP TABLE customers")]);
    let episode = ask(&db, &mut session, "?", vec![bad("1"), bad("2"), bad("3")]);
    let answer = episode.answer();
    assert_eq!(answer.text, "6");
    assert!(!answer.verified);
    assert_eq!(answer.sql, None);
    assert!(answer.notes.as_deref().unwrap().contains("did not run"));
    assert_eq!(episode.requests.len(), 3);
}

#[test]
fn a_follow_up_sees_the_earlier_question_answer_and_sql() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    ask(
        &db,
        &mut session,
        "How many orders in March 2024?",
        vec![
            calls(vec![run_sql("1", MARCH)]),
            calls(vec![final_answer("2", "7 orders.", MARCH)]),
        ],
    )
    .answer();
    let april = MARCH.replace("03-01", "04-01").replace("04-01'", "05-01'");
    let episode = ask(
        &db,
        &mut session,
        "And in April?",
        vec![calls(vec![final_answer("3", "2 orders.", &april)])],
    );
    assert_eq!(episode.answer().text, "2 orders.");
    let messages = &episode.requests[0].messages;
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert_eq!(
        messages[0],
        Message::User {
            text: "How many orders in March 2024?".into()
        }
    );
    match &messages[1] {
        Message::Assistant {
            text: Some(text),
            tool_calls,
            ..
        } => {
            assert!(text.contains("7 orders.") && text.contains(MARCH), "{text}");
            assert!(tool_calls.is_empty());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(session.conversation().turns().len(), 2);

    // A new database starts afresh.
    let mut fresh = Session::new(session.schema().clone());
    let episode = ask(
        &db,
        &mut fresh,
        "And in April?",
        vec![calls(vec![final_answer("4", "?", "")])],
    );
    assert_eq!(episode.requests[0].messages.len(), 1);
    assert!(!episode.answer().verified);
}

// --- Tool calls written as text (local models) ---------------------------------------------

/// A model served locally, whose chat template writes its calls as text: Hermes/Qwen's tags for
/// the query, Mistral's token with single quotes and a trailing comma for the answer.
fn written_turns() -> Vec<Turn> {
    vec![
        text(&format!(
            "I will count the orders of March.\n<tool_call>\n{}\n</tool_call>",
            json!({"name": "run_sql", "arguments": {"sql": MARCH}})
        )),
        text(&format!(
            "[TOOL_CALLS] [{{'name': 'final_answer', 'arguments': {{'answer': '7 orders.', 'sql': \"{MARCH}\",}}}}]"
        )),
    ]
}

#[test]
fn calls_written_as_text_run_like_tool_calls_and_give_a_verified_answer() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "How many orders were placed in March 2024?",
        written_turns(),
    );
    let answer = episode.answer();
    assert_eq!(answer.text, "7 orders.");
    assert_eq!(answer.sql.as_deref(), Some(MARCH));
    assert!(answer.verified, "the query ran: the answer has evidence");
    assert_eq!(
        kinds(&episode.events),
        vec![
            "step",
            "replied",
            "text",
            "calls_in_text",
            "call",
            "result",
            "step",
            "replied",
            "calls_in_text",
            "call",
            "result",
            "answer"
        ]
    );
    // The query ran on the database, and its rows went back to the model as the call's result.
    let result = episode.result_in(1);
    assert_eq!(result.call_id, "text-1-1");
    let content: serde_json::Value = serde_json::from_str(&result.content).unwrap();
    assert_eq!(content["rows"], json!([[7]]));
    // The next request carries the call back as a tool call, and the prose as the text.
    match &episode.requests[1].messages[episode.requests[1].messages.len() - 2] {
        Message::Assistant {
            text, tool_calls, ..
        } => {
            assert_eq!(text.as_deref(), Some("I will count the orders of March."));
            assert_eq!(tool_calls[0].id, "text-1-1");
            assert_eq!(tool_calls[0].name, "run_sql");
        }
        other => panic!("expected the model's turn, got {other:?}"),
    }
    // The transcript learns how each was written, and what was repaired.
    let written: Vec<_> = episode
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::CallsInText { calls, .. } => Some(serde_json::to_value(calls).unwrap()),
            _ => None,
        })
        .collect();
    assert_eq!(written[0][0]["form"], "tool_call_tag");
    assert_eq!(written[1][0]["form"], "tool_calls_token");
    assert_eq!(
        written[1][0]["repairs"],
        json!(["single_quotes", "trailing_comma"])
    );
}

#[test]
fn a_call_written_as_text_is_checked_like_any_call() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "Remove the orders",
        vec![
            text(&format!(
                "<tool_call>{}</tool_call>",
                json!({"name": "run_sql", "arguments": {"sql": "DELETE FROM orders"}})
            )),
            text("<tool_call>{\"name\": \"drop_database\", \"arguments\": {}}</tool_call>"),
            text("<tool_call>{\"name\": \"run_sql\", \"arguments\": {\"query\": \"SELECT 1\"}}</tool_call>"),
            text("I cannot."),
            text("I cannot."),
        ],
    );
    let refused = episode.result_in(1);
    assert!(refused.is_error);
    assert!(refused.content.contains("read-only"), "{}", refused.content);
    let unknown = episode.result_in(2);
    assert!(unknown.is_error);
    assert!(
        unknown.content.contains("drop_database"),
        "{}",
        unknown.content
    );
    let wrong = episode.result_in(3);
    assert!(wrong.is_error);
    assert!(wrong.content.contains("sql"), "{}", wrong.content);
    let answer = episode.answer();
    assert!(!answer.verified);
    // It did call tools (as text): this is no model without tool calling.
    assert!(!kinds(&episode.events).contains(&"tools_never_called"));
}

#[test]
fn a_call_written_as_text_that_cannot_be_read_is_explained_then_fixed() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let broken = "<tool_call>{'name': 'run_sql', 'arguments': {'sql': 'SELECT count(*) FROM customers WHERE name = 'O'Brien''}}</tool_call>";
    let sql = "SELECT count(*) FROM customers";
    let episode = ask(
        &db,
        &mut session,
        "How many customers?",
        vec![
            text(broken),
            text(broken),
            text(&format!(
                "<tool_call>{}</tool_call>",
                json!({"name": "final_answer", "arguments": {"answer": "6 customers.", "sql": sql}})
            )),
        ],
    );
    // Nothing of the broken reply ran; the model was told what was wrong and how to write it,
    // each time (it is trying to call a tool: not the once-only nudge).
    for index in [1, 2] {
        match episode.requests[index].messages.last() {
            Some(Message::User { text }) => {
                assert!(text.contains("could not read"), "{text}");
                assert!(text.contains("does not parse"), "{text}");
                assert!(
                    text.contains("<tool_call>{\"name\": \"list_tables\""),
                    "{text}"
                );
            }
            other => panic!("expected the correction, got {other:?}"),
        }
    }
    assert!(episode.answer().verified);
    let ran_sql = episode
        .events
        .iter()
        .any(|event| matches!(&event.kind, EventKind::ToolCall { name, .. } if name == "run_sql"));
    assert!(!ran_sql, "nothing of the broken reply ran");
}

#[test]
fn a_model_that_never_calls_a_tool_is_said_to_need_tool_calling() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "How many customers?",
        vec![text("There are 6 customers."), text("6 customers.")],
    );
    assert!(!episode.answer().verified);
    let seen = kinds(&episode.events);
    assert_eq!(&seen[seen.len() - 2..], ["tools_never_called", "answer"]);
    // A model that called a tool and then answered in text is not said to lack tool calling.
    let mut session = support::scripted_llm::session(&db);
    let episode = ask(
        &db,
        &mut session,
        "How many customers?",
        vec![
            calls(vec![run_sql("c1", "SELECT count(*) FROM customers")]),
            text("6 customers."),
            text("6 customers."),
        ],
    );
    assert!(!kinds(&episode.events).contains(&"tools_never_called"));
}

#[test]
fn a_streamed_reply_shows_its_answer_as_written_then_the_whole_turn() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let answer_call = final_answer("c2", "7 orders.", MARCH);
    let arguments = answer_call.arguments.clone();
    let (first, rest) = arguments.split_at(arguments.find("7 or").unwrap() + 2);
    let streamed = Turn::Streamed {
        deltas: vec![
            Delta::Text("Counting.".into()),
            Delta::ToolCall {
                index: 0,
                name: "final_answer".into(),
            },
            Delta::ToolArguments {
                index: 0,
                piece: first.into(),
            },
            Delta::ToolArguments {
                index: 0,
                piece: rest.into(),
            },
        ],
        reply: ModelReply {
            text: Some("Counting.".into()),
            tool_calls: vec![answer_call],
            usage: Usage::new(100, 20),
            raw: None,
        },
    };
    let episode = ask(
        &db,
        &mut session,
        "How many orders were placed in March 2024?",
        vec![calls(vec![run_sql("c1", MARCH)]), streamed],
    );
    assert_eq!(episode.answer().text, "7 orders.");
    assert_eq!(
        kinds(&episode.events),
        vec![
            "step", "replied", "call", "result", "step", "writing", "writing", "writing",
            "writing", "replied", "text", "call", "result", "answer"
        ]
    );
    let drafts: Vec<(String, Option<String>)> = episode
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::Writing { step: 2, draft } => {
                Some((draft.text.clone(), draft.answer.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        drafts,
        vec![
            ("Counting.".into(), None),
            ("Counting.".into(), Some(String::new())),
            ("Counting.".into(), Some("7 ".into())),
            ("Counting.".into(), Some("7 orders.".into())),
        ]
    );
    // The first step was not streamed; the second's first words came 100 ms in.
    let first_tokens: Vec<Option<f64>> = episode
        .events
        .iter()
        .filter_map(|event| match event.kind {
            EventKind::ModelReplied { first_token_ms, .. } => Some(first_token_ms),
            _ => None,
        })
        .collect();
    assert_eq!(first_tokens, vec![None, Some(100.0)]);
}

/// Calls written as text by a local model that streams: each reply's text arrives in pieces of
/// 3 characters (a `<tool_call>` tag cut anywhere); the calls are read from the whole text
/// once the reply ends, as when it came whole.
#[test]
fn calls_written_as_text_in_pieces_run_as_when_they_came_whole() {
    let streamed: Vec<Turn> = written_turns()
        .into_iter()
        .map(|turn| match turn {
            Turn::Reply(reply) => {
                let text = reply.text.clone().unwrap_or_default();
                let chars: Vec<char> = text.chars().collect();
                let deltas = chars
                    .chunks(3)
                    .map(|piece| Delta::Text(piece.iter().collect()))
                    .collect();
                Turn::Streamed { deltas, reply }
            }
            other => other,
        })
        .collect();
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "How many orders were placed in March 2024?",
        streamed,
    );
    let answer = episode.answer();
    assert_eq!(answer.text, "7 orders.");
    assert!(answer.verified, "the query written as text ran");
    // Positive control: the pieces reached the draft, the tag cut among them.
    let drafts = episode
        .events
        .iter()
        .filter(|event| matches!(event.kind, EventKind::Writing { .. }))
        .count();
    assert!(drafts > 20, "{drafts} drafts");
}

/// A reply in pieces 10 ms apart is shown at most every 50 ms: 100 pieces, about 20 drafts,
/// each the text so far; the first token's time is still the first piece's.
#[test]
fn a_fast_stream_is_shown_at_most_every_fifty_ms() {
    let text = "word ".repeat(100);
    let deltas: Vec<Delta> = (0..100).map(|_| Delta::Text("word ".into())).collect();
    let streamed = Turn::StreamedEvery {
        ms: 10.0,
        deltas,
        reply: ModelReply {
            text: Some(text.clone()),
            tool_calls: vec![final_answer("c1", "7 orders.", MARCH)],
            usage: Usage::new(100, 20),
            raw: None,
        },
    };
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "How many orders were placed in March 2024?",
        vec![streamed],
    );
    let drafts: Vec<usize> = episode
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::Writing { draft, .. } => Some(draft.text.len()),
            _ => None,
        })
        .collect();
    assert!((18..=22).contains(&drafts.len()), "{} drafts", drafts.len());
    assert_eq!(drafts[0], 5, "the first piece is shown at once");
    assert!(
        drafts.windows(2).all(|w| w[0] < w[1]),
        "each draft has more: {drafts:?}"
    );
    let first_token = episode.events.iter().find_map(|event| match event.kind {
        EventKind::ModelReplied { first_token_ms, .. } => first_token_ms,
        _ => None,
    });
    assert_eq!(first_token, Some(10.0));
}
