//! Safe mode on the shop database with a scripted model: the model writes no SQL; it asks with
//! the structured `query` tool, whose values are bound, never spliced into SQL text. Every
//! operator of every kind against SQLite's own answer, and every refusal's message.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::tools::query::SPEC_BYTES;
use askdb::agent::{AgentConfig, Mode, Session};
use askdb::engine::{query_bound, QueryLimits, Value};
use serde_json::{json, Value as Json};
use std::cell::Cell;
use support::scripted_llm::{ask_with, call, calls, final_answer, run_sql, session, Episode};
use support::RusqliteDb;

fn safe() -> AgentConfig {
    AgentConfig {
        mode: Mode::Safe,
        ..AgentConfig::default()
    }
}

/// One question whose model makes the given tool calls, one turn each.
fn episode(db: &RusqliteDb, session: &mut Session, turns: Vec<askdb::llm::RawToolCall>) -> Episode {
    let turns = turns.into_iter().map(|c| calls(vec![c])).collect();
    ask_with(
        db,
        session,
        "a question",
        turns,
        safe(),
        std::future::pending(),
    )
}

/// What the model reads back from one `query` call.
fn query_result(db: &RusqliteDb, session: &mut Session, args: Json) -> (bool, Json) {
    let episode = episode(db, session, vec![call("q", "query", args)]);
    let result = episode.result_in(1);
    let content = serde_json::from_str(&result.content)
        .unwrap_or_else(|_| Json::String(result.content.clone()));
    (result.is_error, content)
}

/// The `query` tool as the model is offered it for `db`.
fn query_spec(db: &RusqliteDb) -> askdb::llm::ToolSpec {
    let mut session = session(db);
    let episode = episode(db, &mut session, vec![]);
    let tools = &episode.requests[0].tools;
    let spec = tools.iter().find(|t| t.name == "query");
    spec.expect("query is offered").clone()
}

fn count_where(db: &RusqliteDb, session: &mut Session, table: &str, filter: Json) -> i64 {
    let args =
        json!({ "table": table, "aggregates": [{ "function": "count" }], "filters": [filter] });
    let (is_error, content) = query_result(db, session, args.clone());
    assert!(!is_error, "{args}: {content}");
    content["rows"][0][0].as_i64().expect("a count")
}

fn raw_count(db: &RusqliteDb, sql: &str) -> i64 {
    match db.raw_rows(sql).unwrap()[0][0] {
        Value::Integer(n) => n,
        ref other => panic!("{sql}: {other:?}"),
    }
}

#[test]
fn a_question_is_answered_through_query_alone_with_the_values_bound() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let march = json!({
        "table": "orders",
        "aggregates": [{ "function": "count" }],
        "filters": [{ "field": "ordered_at", "op": "on", "value": "2024-03" }],
    });
    let answer = call(
        "a",
        "final_answer",
        json!({ "answer": "7 orders.", "query": 1 }),
    );
    let episode = episode(&db, &mut session, vec![call("q", "query", march), answer]);

    let content: Json = serde_json::from_str(&episode.result_in(1).content).unwrap();
    assert_eq!(content["rows"], json!([[7]]));
    assert_eq!(content["query"], json!(1));
    assert_eq!(content["values"], json!(["2024-03"]));
    let answer = episode.answer();
    assert!(answer.verified);
    assert_eq!(
        answer.sql.as_deref(),
        Some(
            "SELECT count(*) AS \"count(*)\"\nFROM orders\n\
             WHERE substr(orders.ordered_at, 1, 7) = ?1"
        )
    );
    assert_eq!(answer.values, vec![Value::Text("2024-03".into())]);
    // The evidence re-runs as the page re-runs it: the same statement, the same values.
    let rerun = futures::executor::block_on(query_bound(
        &db,
        answer.sql.as_deref().unwrap(),
        &answer.values,
        &QueryLimits::default(),
    ))
    .unwrap();
    assert_eq!(rerun.rows, vec![vec![Value::Integer(7)]]);

    // The model was offered no way to write SQL, and told so.
    let request = &episode.requests[0];
    let tools: Vec<&str> = request.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        tools,
        ["list_tables", "describe_table", "query", "final_answer"]
    );
    assert!(!request.system.contains("run_sql"));
    assert!(request.system.contains("You cannot write SQL"));
    let answer_spec = serde_json::to_string(&request.tools[3]).unwrap();
    assert!(!answer_spec.contains("\"sql\""), "{answer_spec}");
}

#[test]
fn the_query_tool_describes_the_tables_fields_operators_and_values_within_its_budget() {
    let spec = query_spec(&RusqliteDb::shop());
    let d = &spec.description;
    for expected in [
        "customers (6): id number, name text, prefecture enum [\"Fukuoka\",\"Hokkaido\",\"Osaka\",\"Tokyo\"], joined_at date YYYY-MM-DD from 2023-01-10 to 2023-06-11",
        "orders (12): id number, customer_id number -> customers, product_id number -> products, quantity number, ordered_at date YYYY-MM-DD from 2024-02-18 to 2024-06-01",
        "category enum [\"electronics\",\"furniture\",\"lifestyle\"]",
        "e.g. customer_id.name from orders",
        "enum: eq ne in",
        "number: eq ne lt lte gt gte between",
        "date: on before after between",
        "text: eq ne contains starts_with in;",
        "every kind: is_null not_null",
    ] {
        assert!(d.contains(expected), "missing {expected:?} in:\n{d}");
    }
    assert_eq!(
        spec.parameters["properties"]["table"]["enum"],
        json!(["customers", "orders", "products"])
    );
    let size = d.len() + spec.parameters.to_string().len();
    assert!(size <= SPEC_BYTES, "{size} bytes");
}

#[test]
fn a_large_catalog_is_cut_to_the_budget_and_says_where_the_rest_is() {
    let spec = query_spec(&RusqliteDb::open(&support::dataset("mondial/mondial.db")));
    let size = spec.name.len() + spec.description.len() + spec.parameters.to_string().len();
    assert!(size <= SPEC_BYTES, "{size} bytes");
    assert!(
        spec.description.contains("Country (244): Name text"),
        "{}",
        spec.description
    );
}

/// The first request's message of `episode` (the question, then what goes with it).
fn question_message(episode: &Episode) -> &str {
    match episode.requests[0].messages.last() {
        Some(askdb::llm::Message::User { text }) => text,
        other => panic!("the first request ends with {other:?}"),
    }
}

/// Mondial with sixty tables of eight columns more: a schema too large to send whole.
fn mondial_and_shelves() -> support::TempFile {
    let file = support::TempFile::new("safe-mode-big");
    std::fs::copy(support::dataset("mondial/mondial.db"), &file.0).expect("a copy");
    let conn = rusqlite::Connection::open(&file.0).unwrap();
    for n in 0..60 {
        conn.execute_batch(&format!(
            "CREATE TABLE shelf_{n} (id INTEGER PRIMARY KEY, label TEXT NOT NULL, \
             placed_at TEXT, weight_grams INTEGER, colour TEXT, owner_name TEXT, \
             notes TEXT, previous_id INTEGER REFERENCES shelf_{n}(id)); \
             INSERT INTO shelf_{n} (label) VALUES ('a'), ('b');"
        ))
        .unwrap();
    }
    file
}

/// Safe mode on a schema too large to send whole (Mondial and sixty more tables, 106: in SQL
/// mode each question brings its tables' columns, the control): the model is offered no way to write SQL,
/// its question brings the values it names but no table's columns with their SQL types (the
/// query tool's description lists the fields), and a question is answered through `query`
/// with its value bound. Mutation: safe mode taking the big-schema path of SQL mode (`run.rs`
/// `first_messages`: `whole` without `config.mode == Mode::Safe`) fails it (the message carries
/// "Schema for this question").
#[test]
fn on_a_schema_too_large_to_send_whole_safe_mode_sends_values_and_no_sql_schema() {
    let file = mondial_and_shelves();
    let db = RusqliteDb::open(&file.0);
    let mut session = session(&db);
    assert_eq!(session.schema().tables.len(), 106);
    let values = support::value_index(&db, session.schema());
    session.set_values(std::sync::Arc::new(values));
    let question = "How many people live in Poland?";
    let answered = || vec![calls(vec![final_answer("a", "answered", "SELECT 1")])];
    // The control: in SQL mode this schema takes the big-schema path.
    let sql_mode = ask_with(
        &db,
        &mut session.clone(),
        question,
        answered(),
        AgentConfig::default(),
        std::future::pending(),
    );
    let message = question_message(&sql_mode);
    assert!(message.contains("Schema for this question"), "{message}");
    assert!(message.contains("\nCountry ("), "{message}");

    let population = json!({
        "table": "Country",
        "fields": ["Population"],
        "filters": [{ "field": "Name", "op": "eq", "value": "Poland" }],
    });
    let answer = call(
        "a",
        "final_answer",
        json!({ "answer": "38,533,789.", "query": 1 }),
    );
    let turns = vec![
        calls(vec![call("q", "query", population)]),
        calls(vec![answer]),
    ];
    let episode = ask_with(
        &db,
        &mut session,
        question,
        turns,
        safe(),
        std::future::pending(),
    );
    let message = question_message(&episode);
    assert!(!message.contains("Schema for this question"), "{message}");
    assert!(!message.contains("Country ("), "{message}");
    assert!(message.contains("Country.Name has 'Poland'"), "{message}");
    let request = &episode.requests[0];
    let tools: Vec<&str> = request.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        tools,
        ["list_tables", "describe_table", "query", "final_answer"]
    );
    assert!(request.system.contains("You cannot write SQL"));
    assert!(!request.system.contains("run_sql"));
    let content: Json = serde_json::from_str(&episode.result_in(1).content).unwrap();
    assert_eq!(content["rows"], json!([[38_533_789]]));
    assert_eq!(content["values"], json!(["Poland"]));
    let answer = episode.answer();
    assert!(answer.verified);
    assert_eq!(answer.values, vec![Value::Text("Poland".into())]);
    assert!(
        answer
            .sql
            .as_deref()
            .is_some_and(|sql| sql.contains("= ?1") && !sql.contains("Poland")),
        "{:?}",
        answer.sql
    );
}

#[test]
fn run_sql_and_cross_check_are_not_offered_and_refused_when_called() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = episode(
        &db,
        &mut session,
        vec![
            run_sql("1", "SELECT count(*) FROM orders"),
            call(
                "2",
                "cross_check",
                json!({ "sql_a": "SELECT 1", "sql_b": "SELECT 1" }),
            ),
            final_answer("3", "12", "SELECT count(*) FROM orders"),
        ],
    );
    for (request, tool) in [(1, "run_sql"), (2, "cross_check")] {
        let result = episode.result_in(request);
        assert!(result.is_error);
        assert_eq!(
            result.content,
            json!({ "kind": "error", "message": format!(
                "{tool}: there is no tool `{tool}`; the tools are list_tables, describe_table, query, final_answer"
            )})
            .to_string()
        );
    }
    // SQL in final_answer is refused too: no SQL from the model reaches the engine.
    let refused = episode.result_in(3);
    assert!(refused.is_error);
    assert!(
        refused
            .content
            .contains("SQL cannot be given in this mode: give `query`"),
        "{}",
        refused.content
    );
}

#[test]
fn every_operator_of_every_kind_agrees_with_sqlite() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let filter =
        |field: &str, op: &str, value: Json| json!({ "field": field, "op": op, "value": value });
    let cases: Vec<(&str, Json, &str)> = vec![
        // text
        ("customers", filter("name", "eq", json!("Alice")), "SELECT count(*) FROM customers WHERE name = 'Alice'"),
        ("customers", filter("name", "ne", json!("Alice")), "SELECT count(*) FROM customers WHERE name <> 'Alice'"),
        ("customers", filter("name", "contains", json!("A")), "SELECT count(*) FROM customers WHERE name LIKE '%a%'"),
        ("customers", filter("name", "starts_with", json!("ca")), "SELECT count(*) FROM customers WHERE name LIKE 'Ca%'"),
        ("customers", filter("name", "in", json!(["Alice", "Bob", "Nobody"])), "SELECT count(*) FROM customers WHERE name IN ('Alice', 'Bob')"),
        ("customers", filter("name", "is_null", Json::Null), "SELECT count(*) FROM customers WHERE name IS NULL"),
        ("customers", filter("name", "not_null", Json::Null), "SELECT count(*) FROM customers WHERE name IS NOT NULL"),
        ("customers", filter("name", "contains", json!("%")), "SELECT 0"),
        // enumeration
        ("customers", filter("prefecture", "eq", json!("Tokyo")), "SELECT count(*) FROM customers WHERE prefecture = 'Tokyo'"),
        ("customers", filter("prefecture", "ne", json!("Tokyo")), "SELECT count(*) FROM customers WHERE prefecture <> 'Tokyo'"),
        ("customers", filter("prefecture", "in", json!(["Osaka", "Fukuoka"])), "SELECT count(*) FROM customers WHERE prefecture IN ('Osaka', 'Fukuoka')"),
        ("customers", filter("prefecture", "is_null", Json::Null), "SELECT count(*) FROM customers WHERE prefecture IS NULL"),
        ("orders", filter("customer_id", "is_null", Json::Null), "SELECT count(*) FROM orders WHERE customer_id IS NULL"),
        ("orders", filter("ordered_at", "not_null", Json::Null), "SELECT count(*) FROM orders"),
        // number, with values written as text too
        ("orders", filter("quantity", "eq", json!(1)), "SELECT count(*) FROM orders WHERE quantity = 1"),
        ("orders", filter("quantity", "ne", json!("1")), "SELECT count(*) FROM orders WHERE quantity <> 1"),
        ("orders", filter("quantity", "lt", json!(2)), "SELECT count(*) FROM orders WHERE quantity < 2"),
        ("orders", filter("quantity", "lte", json!("2")), "SELECT count(*) FROM orders WHERE quantity <= 2"),
        ("orders", filter("quantity", "gt", json!(1.5)), "SELECT count(*) FROM orders WHERE quantity > 1.5"),
        ("orders", filter("quantity", "gte", json!(2)), "SELECT count(*) FROM orders WHERE quantity >= 2"),
        ("orders", filter("quantity", "between", json!([2, "4"])), "SELECT count(*) FROM orders WHERE quantity BETWEEN 2 AND 4"),
        // date, in the column's shape or rewritten into it
        ("orders", filter("ordered_at", "on", json!("2024-03-10")), "SELECT count(*) FROM orders WHERE ordered_at = '2024-03-10'"),
        ("orders", filter("ordered_at", "on", json!("2024/3/10")), "SELECT count(*) FROM orders WHERE ordered_at = '2024-03-10'"),
        ("orders", filter("ordered_at", "on", json!("2024-03")), "SELECT count(*) FROM orders WHERE ordered_at LIKE '2024-03-%'"),
        ("orders", filter("ordered_at", "before", json!("2024-03-10")), "SELECT count(*) FROM orders WHERE ordered_at < '2024-03-10'"),
        ("orders", filter("ordered_at", "after", json!("2024-03")), "SELECT count(*) FROM orders WHERE ordered_at >= '2024-04-01'"),
        ("orders", filter("ordered_at", "between", json!(["2024-03-05", "2024-03-15"])), "SELECT count(*) FROM orders WHERE ordered_at BETWEEN '2024-03-05' AND '2024-03-15'"),
        ("orders", filter("ordered_at", "between", json!(["2024-02", "2024-03"])), "SELECT count(*) FROM orders WHERE ordered_at >= '2024-02-01' AND ordered_at < '2024-04-01'"),
        ("orders", filter("ordered_at", "on", json!("2024")), "SELECT count(*) FROM orders"),
        // a field through a key
        ("orders", filter("customer_id.prefecture", "eq", json!("Tokyo")), "SELECT count(*) FROM orders JOIN customers ON customers.id = orders.customer_id WHERE customers.prefecture = 'Tokyo'"),
        ("orders", filter("product_id.price", "gte", json!(15000)), "SELECT count(*) FROM orders JOIN products ON products.id = orders.product_id WHERE price >= 15000"),
    ];
    for (table, filter, sql) in cases {
        let got = count_where(&db, &mut session, table, filter.clone());
        assert_eq!(got, raw_count(&db, sql), "{table} {filter} vs {sql}");
    }
}

#[test]
fn grouping_ordering_and_aggregates_agree_with_sqlite() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let args = json!({
        "table": "orders",
        "group_by": ["customer_id.prefecture"],
        "aggregates": [
            { "function": "sum", "field": "quantity" },
            { "function": "count_distinct", "field": "customer_id" },
            { "function": "max", "field": "ordered_at" },
            "count",
        ],
        "filters": [{ "field": "customer_id", "op": "not_null" }],
        "order_by": [{ "by": "sum(quantity)", "direction": "desc" }, "customer_id.prefecture"],
        "limit": 3,
    });
    let (is_error, content) = query_result(&db, &mut session, args);
    assert!(!is_error, "{content}");
    assert_eq!(
        content["columns"],
        json!([
            "customer_id.prefecture",
            "sum(quantity)",
            "count_distinct(customer_id)",
            "max(ordered_at)",
            "count(*)"
        ])
    );
    let expected = db
        .raw_rows(
            "SELECT c.prefecture, sum(o.quantity), count(DISTINCT o.customer_id), max(o.ordered_at), count(*) \
             FROM orders o JOIN customers c ON c.id = o.customer_id \
             GROUP BY c.prefecture ORDER BY 2 DESC, 1 LIMIT 3",
        )
        .unwrap();
    let expected: Vec<Vec<Json>> = expected
        .iter()
        .map(|row| row.iter().map(Value::to_json).collect())
        .collect();
    assert_eq!(content["rows"], json!(expected));

    // Fields without aggregates, all of a table when none are named.
    let (_, content) = query_result(
        &db,
        &mut session,
        json!({ "table": "products", "order_by": [{ "by": "price", "direction": "desc" }], "limit": 1 }),
    );
    assert_eq!(
        content["columns"],
        json!(["id", "name", "category", "price"])
    );
    assert_eq!(
        content["rows"],
        json!([[1, "Laptop", "electronics", 120000]])
    );
}

/// Counts the statements that reach the database.
struct CountingDb<'d> {
    inner: &'d RusqliteDb,
    queries: Cell<usize>,
}

impl askdb::engine::Database for CountingDb<'_> {
    async fn run(
        &self,
        sql: &askdb::engine::ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<askdb::engine::QueryResult, askdb::engine::DbError> {
        self.queries.set(self.queries.get() + 1);
        self.inner.run(sql, values, limits).await
    }
}

#[test]
fn a_wrong_table_field_operator_or_value_is_refused_before_any_query_with_what_would_do() {
    let shop = RusqliteDb::shop();
    let db = CountingDb {
        inner: &shop,
        queries: Cell::new(0),
    };
    let mut session = session(&db);
    // The first question reads the catalog; after that, a refusal runs nothing.
    let _ = ask_with(
        &db,
        &mut session,
        "warm up",
        vec![],
        safe(),
        std::future::pending(),
    );
    let cases = [
        (
            json!({ "table": "order" }),
            "query: there is no table `order`; the tables are: customers, orders, products",
        ),
        (
            json!({ "table": "orders", "filters": [{ "field": "prefecture", "op": "eq", "value": "Tokyo" }] }),
            "query: `orders` has no field `prefecture`; its fields are: id (number), customer_id (number), \
             product_id (number), quantity (number), ordered_at (date); fields of other tables: \
             customer_id.<field of customers>, product_id.<field of products>",
        ),
        (
            json!({ "table": "orders", "fields": ["customer_id.town"] }),
            "query: `customers` has no field `town`; its fields are: id (number), name (text), \
             prefecture (enum), joined_at (date)",
        ),
        (
            json!({ "table": "customers", "filters": [{ "field": "prefecture", "op": "contains", "value": "Tok" }] }),
            "query: `contains` does not apply to `prefecture` (an enum of 4 values); its operators are: eq, ne, in, is_null, not_null",
        ),
        (
            json!({ "table": "orders", "filters": [{ "field": "quantity", "op": "like", "value": 1 }] }),
            "query: `like` is not an operator; for `quantity` (number) the operators are: eq, ne, lt, lte, gt, gte, between, is_null, not_null",
        ),
        (
            json!({ "table": "customers", "filters": [{ "field": "prefecture", "op": "eq", "value": "東京都" }] }),
            "query: '東京都' does not occur in `prefecture`; the values that occur are: 'Fukuoka', 'Hokkaido', 'Osaka', 'Tokyo'",
        ),
        (
            json!({ "table": "orders", "filters": [{ "field": "customer_id.prefecture", "op": "in", "value": ["Tokyo", "Kyoto"] }] }),
            "query: 'Kyoto' does not occur in `customer_id.prefecture`; the values that occur are: 'Fukuoka', 'Hokkaido', 'Osaka', 'Tokyo'",
        ),
        (
            json!({ "table": "orders", "filters": [{ "field": "quantity", "op": "gt", "value": "two" }] }),
            "query: `quantity` holds numbers: 'two' is not a number; give one such as 3 or 2.5",
        ),
        (
            json!({ "table": "orders", "filters": [{ "field": "ordered_at", "op": "before", "value": "last March" }] }),
            "query: `ordered_at` holds dates like '2024-02-18' (YYYY-MM-DD): 'last March' is not a date; \
             give a day, a month or a year in that shape, e.g. '2024-02-18', '2024-02' or '2024'",
        ),
        (
            json!({ "table": "orders", "fields": ["quantity"], "aggregates": [{ "function": "sum", "field": "quantity" }] }),
            "query: `quantity` is neither in group_by nor aggregated: add it to group_by, or ask for an aggregate of it",
        ),
        (
            json!({ "table": "customers", "aggregates": [{ "function": "avg", "field": "name" }] }),
            "query: `avg` needs a number field; `name` is text",
        ),
    ];
    for (args, message) in cases {
        let before = db.queries.get();
        let episode = ask_with(
            &db,
            &mut session,
            "a question",
            vec![calls(vec![call("q", "query", args.clone())])],
            safe(),
            std::future::pending(),
        );
        let result = episode.result_in(1);
        assert!(result.is_error, "{args}");
        assert_eq!(
            result.content,
            json!({ "kind": "error", "message": message }).to_string(),
            "{args}"
        );
        assert_eq!(db.queries.get(), before, "a query ran for {args}");
    }
}

#[test]
fn a_value_that_looks_like_sql_is_only_a_value() {
    let db = RusqliteDb::shop();
    let before = std::fs::read(support::dataset("shop/shop.db")).unwrap();
    let mut session = session(&db);
    let hostile = "'); DROP TABLE customers; --";
    let args = json!({
        "table": "customers",
        "filters": [
            { "field": "name", "op": "eq", "value": hostile },
            { "field": "name", "op": "contains", "value": hostile },
        ],
    });
    let (is_error, content) = query_result(&db, &mut session, args);
    assert!(!is_error, "{content}");
    assert_eq!(content["total_rows"], json!(0));
    let sql = content["sql"].as_str().unwrap();
    assert!(!sql.contains("DROP"), "{sql}");
    assert_eq!(content["values"][0], json!(hostile));
    assert_eq!(raw_count(&db, "SELECT count(*) FROM customers"), 6);
    assert_eq!(
        std::fs::read(support::dataset("shop/shop.db")).unwrap(),
        before
    );
}

#[test]
fn final_answer_names_a_query_that_ran() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let episode = episode(
        &db,
        &mut session,
        vec![
            call("a", "final_answer", json!({ "answer": "12", "query": 1 })),
            call(
                "b",
                "query",
                json!({ "table": "orders", "aggregates": ["count"] }),
            ),
            call("c", "final_answer", json!({ "answer": "12", "query": 2 })),
            call("d", "final_answer", json!({ "answer": "12", "query": "1" })),
        ],
    );
    assert!(episode
        .result_in(1)
        .content
        .contains("there is no query 1: no query has run yet in this question"));
    assert!(episode
        .result_in(3)
        .content
        .contains("there is no query 2: the queries that ran are numbered 1 to 1"));
    let answer = episode.answer();
    assert!(answer.verified);
    assert_eq!(
        answer.sql.as_deref(),
        Some("SELECT count(*) AS \"count(*)\"\nFROM orders")
    );
    assert!(answer.values.is_empty());
}

/// The statement and values the compiler writes for each form of query, to the letter: the
/// evidence a person reads, and what a change to the compiler must keep (results alone are
/// checked above against SQLite).
#[test]
fn each_form_of_query_compiles_to_the_same_statement() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let filter =
        |field: &str, op: &str, value: Json| json!({ "field": field, "op": op, "value": value });
    let count = |table: &str, filters: Vec<Json>| json!({ "table": table, "aggregates": ["count"], "filters": filters });
    let cases: Vec<(Json, &str, Json)> = vec![
        (
            count(
                "customers",
                vec![
                    filter("name", "eq", json!("Alice")),
                    filter("name", "ne", json!("Bob")),
                ],
            ),
            "SELECT count(*) AS \"count(*)\"\n\
             FROM customers\n\
             WHERE customers.name = ?1\n  AND customers.name <> ?2",
            json!(["Alice", "Bob"]),
        ),
        (
            count(
                "customers",
                vec![
                    filter("name", "contains", json!("50%_a\\b")),
                    filter("name", "starts_with", json!("ca")),
                ],
            ),
            "SELECT count(*) AS \"count(*)\"\n\
             FROM customers\n\
             WHERE customers.name LIKE ?1 ESCAPE '\\'\n  AND customers.name LIKE ?2 ESCAPE '\\'",
            json!(["%50\\%\\_a\\\\b%", "ca%"]),
        ),
        (
            count(
                "customers",
                vec![
                    filter("prefecture", "in", json!(["Osaka", "Fukuoka"])),
                    filter("name", "is_null", Json::Null),
                    filter("name", "not_null", Json::Null),
                ],
            ),
            "SELECT count(*) AS \"count(*)\"\n\
             FROM customers\n\
             WHERE customers.prefecture IN (?1, ?2)\n  AND customers.name IS NULL\n  AND customers.name IS NOT NULL",
            json!(["Osaka", "Fukuoka"]),
        ),
        (
            count(
                "orders",
                vec![
                    filter("quantity", "lt", json!(2)),
                    filter("quantity", "lte", json!("2")),
                    filter("quantity", "gt", json!(1.5)),
                    filter("quantity", "gte", json!(2)),
                    filter("quantity", "between", json!([2, "4"])),
                ],
            ),
            "SELECT count(*) AS \"count(*)\"\n\
             FROM orders\n\
             WHERE orders.quantity < ?1\n  AND orders.quantity <= ?2\n  AND orders.quantity > ?3\n  AND orders.quantity >= ?4\n  AND orders.quantity BETWEEN ?5 AND ?6",
            json!([2, 2, 1.5, 2, 2, 4]),
        ),
        (
            count(
                "orders",
                vec![
                    filter("ordered_at", "on", json!("2024-03")),
                    filter("ordered_at", "before", json!("2024-03-10")),
                    filter("ordered_at", "after", json!("2024")),
                    filter("ordered_at", "between", json!(["2024-02", "2024-03-15"])),
                ],
            ),
            "SELECT count(*) AS \"count(*)\"\n\
             FROM orders\n\
             WHERE substr(orders.ordered_at, 1, 7) = ?1\n  AND substr(orders.ordered_at, 1, 10) < ?2\n  AND substr(orders.ordered_at, 1, 4) > ?3\n  AND substr(orders.ordered_at, 1, 7) >= ?4 AND substr(orders.ordered_at, 1, 10) <= ?5",
            json!(["2024-03", "2024-03-10", "2024", "2024-02", "2024-03-15"]),
        ),
        (
            json!({
                "table": "orders",
                "fields": ["id", "customer_id.name", "product_id.name"],
                "filters": [filter("customer_id.prefecture", "eq", json!("Tokyo"))],
                "order_by": [{ "by": "ordered_at", "direction": "desc" }, "id"],
                "limit": 5,
            }),
            "SELECT orders.id, customers.name AS \"customer_id.name\", products.name AS \"product_id.name\"\n\
             FROM orders\n\
             LEFT JOIN customers ON customers.id = orders.customer_id\n\
             LEFT JOIN products ON products.id = orders.product_id\n\
             WHERE customers.prefecture = ?1\n\
             ORDER BY orders.ordered_at DESC, orders.id\n\
             LIMIT 5",
            json!(["Tokyo"]),
        ),
        (
            json!({
                "table": "orders",
                "group_by": ["customer_id.prefecture"],
                "aggregates": [
                    { "function": "sum", "field": "quantity" },
                    { "function": "avg", "field": "product_id.price" },
                    { "function": "count_distinct", "field": "customer_id" },
                    { "function": "min", "field": "ordered_at" },
                    { "function": "max", "field": "ordered_at" },
                    { "function": "count", "field": "customer_id" },
                    "count",
                ],
                "order_by": [{ "by": "sum(quantity)", "direction": "desc" }, "customer_id.prefecture"],
                "limit": 3,
            }),
            "SELECT customers.prefecture AS \"customer_id.prefecture\", sum(orders.quantity) AS \"sum(quantity)\", avg(products.price) AS \"avg(product_id.price)\", count(DISTINCT orders.customer_id) AS \"count_distinct(customer_id)\", min(orders.ordered_at) AS \"min(ordered_at)\", max(orders.ordered_at) AS \"max(ordered_at)\", count(orders.customer_id) AS \"count(customer_id)\", count(*) AS \"count(*)\"\n\
             FROM orders\n\
             LEFT JOIN customers ON customers.id = orders.customer_id\n\
             LEFT JOIN products ON products.id = orders.product_id\n\
             GROUP BY customers.prefecture\n\
             ORDER BY sum(orders.quantity) DESC, customers.prefecture\n\
             LIMIT 3",
            json!(null),
        ),
        (json!({ "table": "products" }), "SELECT products.id, products.name, products.category, products.price\n\
             FROM products", json!(null)),
    ];
    let mut wrong = Vec::new();
    for (args, sql, values) in cases {
        let (is_error, content) = query_result(&db, &mut session, args.clone());
        assert!(!is_error, "{args}: {content}");
        if content["sql"] != json!(sql) || content["values"] != values {
            wrong.push(format!(
                "{args}\n  sql: {}\n  values: {}",
                serde_json::to_string(&content["sql"]).unwrap(),
                content["values"]
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
