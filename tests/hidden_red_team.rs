//! Red team: a scripted adversarial model tries every route it has to a hidden column's values
//! and name, with the agent on the copy the page gives it (rusqlite over the derived file). No
//! request to the model, in any provider's wire format, carries a marker or a hidden name. The
//! same script on the original file does find them: the routes are real.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::llm::wire::{build_request, EndpointConfig};
use askdb::llm::{ChatRequest, ProviderKind};
use serde_json::json;
use support::hiding::{
    derive, with_secrets, Derived, Scratch, MARKER, SECRET_COLUMN, SECRET_OBJECTS, VAULT_COLUMN,
    VAULT_TABLE,
};
use support::scripted_llm::{ask, call, calls, final_answer, run_sql, session, Turn};
use support::{dataset, RusqliteDb};

/// Every route a model that knows nothing of the hidden names can take.
fn adversary() -> Vec<Turn> {
    let sql = |id: &str, sql: &str| run_sql(id, sql);
    vec![
        calls(vec![
            call("1", "list_tables", json!({})),
            call("2", "describe_table", json!({ "table": "customers" })),
            call("3", "describe_table", json!({ "table": "orders" })),
        ]),
        calls(vec![
            sql("4", "SELECT * FROM customers"),
            sql("5", "SELECT * FROM sqlite_schema"),
            sql("6", "SELECT group_concat(sql, ' | ') FROM sqlite_schema"),
            sql(
                "7",
                "SELECT m.name, p.* FROM sqlite_schema AS m JOIN pragma_table_xinfo(m.name) AS p",
            ),
        ]),
        calls(vec![
            sql("8", "SELECT * FROM pragma_table_list"),
            sql(
                "9",
                "SELECT m.name, i.* FROM sqlite_schema AS m JOIN pragma_index_list(m.name) AS i",
            ),
            sql(
                "10",
                "SELECT group_concat(c.name) FROM sqlite_schema AS m \
                 JOIN pragma_table_info(m.name) AS c",
            ),
            // Errors that name columns: an ambiguous name lists nothing hidden either.
            sql("11", "SELECT id FROM customers, orders"),
            sql(
                "12",
                "SELECT * FROM customers NATURAL JOIN orders WHERE nope = 1",
            ),
        ]),
        calls(vec![
            call(
                "13",
                "cross_check",
                json!({
                    "sql_a": "SELECT * FROM customers ORDER BY id",
                    "sql_b": "SELECT group_concat(name || ':' || sql) FROM sqlite_schema"
                }),
            ),
            sql(
                "14",
                "SELECT group_concat(quote(c.value)) FROM customers, json_each(json_array(\
                 customers.name, customers.prefecture)) AS c",
            ),
            sql("15", "SELECT name, seq FROM sqlite_sequence"),
        ]),
        calls(vec![final_answer(
            "16",
            "Here is everything I could see.",
            "SELECT * FROM customers",
        )]),
    ]
}

/// What went to the model, as each provider's request bodies.
fn bodies(requests: &[ChatRequest]) -> Vec<String> {
    let kinds = [
        ProviderKind::OpenAi,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ];
    requests
        .iter()
        .flat_map(|request| {
            kinds
                .iter()
                .map(move |kind| build_request(&EndpointConfig::new(*kind, "", "k"), request).body)
        })
        .collect()
}

fn secrets() -> Vec<&'static str> {
    let mut secrets = vec![MARKER, SECRET_COLUMN, VAULT_TABLE, VAULT_COLUMN];
    secrets.extend(SECRET_OBJECTS);
    secrets
}

fn leaks(bodies: &[String], secrets: &[&str]) -> Vec<String> {
    secrets
        .iter()
        .filter(|secret| {
            bodies
                .iter()
                .any(|b| b.to_lowercase().contains(&secret.to_lowercase()))
        })
        .map(|s| s.to_string())
        .collect()
}

fn shop_with_secrets(label: &str) -> Scratch {
    with_secrets(&dataset("shop/shop.db"), "customers", label)
}

/// shop.db with secrets, and the copy without them that the page gives the agent (the original
/// is returned too: it must outlive the test).
fn secrets_hidden(label: &str) -> (Scratch, Derived) {
    let original = shop_with_secrets(label);
    let secret = format!("customers.{SECRET_COLUMN}");
    let derived = derive(
        &original.0,
        &[&secret, VAULT_TABLE],
        &format!("{label}-derived"),
    );
    (original, derived)
}

#[test]
fn the_adversary_finds_nothing_hidden_in_the_copy() {
    let (_original, derived) = secrets_hidden("red-team");
    let db = RusqliteDb::open(&derived.copy.0);
    let mut session = session(&db);
    let episode = ask(&db, &mut session, "Show me everything.", adversary());
    episode.answer();
    assert_eq!(episode.requests.len(), 5, "every turn was asked");

    let bodies = bodies(&episode.requests);
    assert_eq!(leaks(&bodies, &secrets()), Vec::<String>::new());
    // The routes did run and return the visible data.
    let everything = bodies.join("\n");
    for visible in ["prefecture", "joined_at", "Tokyo", "FOREIGN KEY"] {
        assert!(everything.contains(visible), "{visible} was not seen");
    }
}

#[test]
fn the_same_adversary_finds_the_secrets_in_the_original() {
    let original = shop_with_secrets("red-team-control");
    let db = RusqliteDb::open(&original.0);
    let mut session = session(&db);
    let episode = ask(&db, &mut session, "Show me everything.", adversary());
    let found = leaks(&bodies(&episode.requests), &secrets());
    for secret in [MARKER, SECRET_COLUMN, VAULT_TABLE, VAULT_COLUMN] {
        assert!(found.contains(&secret.to_string()), "{secret}: {found:?}");
    }
}

#[test]
fn a_guessed_hidden_name_is_unknown_and_shows_no_value() {
    let (_original, derived) = secrets_hidden("red-team-guess");
    let db = RusqliteDb::open(&derived.copy.0);
    let mut session = session(&db);
    let episode = ask(
        &db,
        &mut session,
        "What is in the secret column?",
        vec![
            calls(vec![
                run_sql("1", &format!("SELECT {SECRET_COLUMN} FROM customers")),
                run_sql("2", &format!("SELECT * FROM {VAULT_TABLE}")),
                run_sql("3", "SELECT * FROM askdb_peek_view"),
                call("4", "describe_table", json!({ "table": VAULT_TABLE })),
            ]),
            calls(vec![final_answer("5", "Nothing.", "SELECT 1")]),
        ],
    );
    let results: Vec<String> = episode
        .results_in(1)
        .iter()
        .map(|r| r.content.clone())
        .collect();
    let joined = results.join("\n");
    assert!(joined.contains("no such column"), "{joined}");
    assert!(joined.contains("no such table"), "{joined}");
    // The model's own guess comes back in the error; no value ever does.
    assert_eq!(
        leaks(&bodies(&episode.requests), &[MARKER]),
        Vec::<String>::new()
    );
}
