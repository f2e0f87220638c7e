//! Scripted episodes on the shop database, each asserting what the tools tell the model: the
//! traps of the seed article (a literal not in the data, NOT IN over a NULL, agreement on an
//! empty result) and the plain answers (sales per category, orders in March 2024).
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::tools::RESULT_BYTES;
use serde_json::{json, Value as Json};
use support::scripted_llm::{ask, call, calls, final_answer, run_sql, session, Episode};
use support::RusqliteDb;

/// Runs `first` as the model's first turn, then a final answer; returns the episode.
fn episode_with(db: &RusqliteDb, question: &str, first: Vec<askdb::llm::RawToolCall>) -> Episode {
    let mut session = session(db);
    ask(
        db,
        &mut session,
        question,
        vec![
            calls(first),
            calls(vec![final_answer("end", "done", "SELECT 1")]),
        ],
    )
}

/// The JSON of the only tool result the model received after its first turn.
fn first_result(episode: &Episode) -> (Json, String) {
    let result = episode.result_in(1);
    assert!(result.content.len() <= RESULT_BYTES);
    let json = serde_json::from_str(&result.content).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}", result.content);
    });
    (json, result.content)
}

fn warnings(result: &Json) -> Vec<String> {
    result["warnings"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|w| w["message"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_literal_not_in_the_data_lists_the_values_that_are() {
    let db = RusqliteDb::shop();
    let sql = "SELECT name FROM customers WHERE prefecture = '東京都'";
    let episode = episode_with(&db, "東京都の顧客は?", vec![run_sql("1", sql)]);
    let (result, content) = first_result(&episode);
    assert_eq!(result["rows"], json!([]));
    assert!(content.contains("Tokyo"), "{content}");
    let warnings = warnings(&result);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("customers.prefecture has no value '東京都'; its values are"),
        "{}",
        warnings[0]
    );
    for value in ["'Tokyo' (2)", "'Osaka' (1)", "'Fukuoka' (1)", "NULL (1)"] {
        assert!(warnings[0].contains(value), "{value}: {}", warnings[0]);
    }
}

#[test]
fn a_count_of_nothing_is_inspected_like_no_rows() {
    let db = RusqliteDb::shop();
    let sql = "SELECT SUM(o.quantity * p.price) FROM orders AS o \
               JOIN products AS p ON p.id = o.product_id WHERE p.category = '家電'";
    let episode = episode_with(&db, "家電の売上は?", vec![run_sql("1", sql)]);
    let (result, _) = first_result(&episode);
    assert_eq!(result["rows"], json!([[null]]));
    let warnings = warnings(&result);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("products.category has no value '家電'")
                && w.contains("'electronics' (2)")),
        "{warnings:?}"
    );
}

#[test]
fn a_literal_that_occurs_points_elsewhere() {
    let db = RusqliteDb::shop();
    let sql = "SELECT c.name FROM customers AS c JOIN orders AS o ON o.customer_id = c.id \
               WHERE c.prefecture = 'Tokyo' AND o.ordered_at = '2024-01-01'";
    let episode = episode_with(&db, "?", vec![run_sql("1", sql)]);
    let (result, _) = first_result(&episode);
    let warnings = warnings(&result);
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("customers.prefecture does have 'Tokyo' (2 rows)")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("orders.ordered_at has no value '2024-01-01'")),
        "{warnings:?}"
    );
}

#[test]
fn agreement_on_an_empty_result_is_called_out() {
    let db = RusqliteDb::shop();
    let a = "SELECT count(*) FROM customers WHERE prefecture = '東京都'";
    let b = "SELECT count(*) FROM customers WHERE prefecture IN ('東京都')";
    let a_rows = "SELECT name FROM customers WHERE prefecture = '東京都'";
    let b_rows = "SELECT c.name FROM customers c WHERE c.prefecture LIKE '東京%'";
    let check =
        |id: &str, a: &str, b: &str| call(id, "cross_check", json!({"sql_a": a, "sql_b": b}));
    let episode = episode_with(&db, "東京都の顧客数は?", vec![check("1", a_rows, b_rows)]);
    let (result, content) = first_result(&episode);
    assert_eq!(result["verdict"], "both_empty", "{content}");
    assert!(result["message"]
        .as_str()
        .unwrap()
        .contains("proves nothing"));
    assert!(content.contains("Tokyo"), "{content}");
    // Two counts of zero agree as rows; the literal check still speaks up.
    let episode = episode_with(&db, "?", vec![check("2", a, b)]);
    let (result, content) = first_result(&episode);
    assert_eq!(result["verdict"], "same");
    assert!(content.contains("has no value '東京都'"), "{content}");
}

#[test]
fn not_in_over_a_null_warns_and_names_not_exists() {
    let db = RusqliteDb::shop();
    let not_in = "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)";
    let episode = episode_with(
        &db,
        "Customers who never ordered?",
        vec![run_sql("1", not_in)],
    );
    let (result, _) = first_result(&episode);
    assert_eq!(result["rows"], json!([]));
    let warnings = warnings(&result);
    let warning = warnings
        .iter()
        .find(|w| w.contains("NOT EXISTS"))
        .unwrap_or_else(|| panic!("{warnings:?}"));
    assert!(
        warning.contains("orders.customer_id holds 1 NULL"),
        "{warning}"
    );
    // The suggested form names the outer column so that it cannot bind inside.
    assert!(
        warning.contains("(SELECT 1 FROM orders AS sub WHERE sub.customer_id = customers.id)"),
        "{warning}"
    );

    let not_exists = "SELECT c.name FROM customers c WHERE NOT EXISTS \
                      (SELECT 1 FROM orders o WHERE o.customer_id = c.id)";
    let left_join = "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id \
                     WHERE o.id IS NULL";
    let episode = episode_with(
        &db,
        "?",
        vec![call(
            "2",
            "cross_check",
            json!({"sql_a": not_exists, "sql_b": left_join}),
        )],
    );
    let (result, content) = first_result(&episode);
    assert_eq!(result["verdict"], "same", "{content}");
    assert_eq!(result["a"]["first_rows"], json!([["Diana"]]));
    assert_eq!(result["b"]["first_rows"], json!([["Diana"]]));
}

#[test]
fn cross_check_reports_the_rows_that_differ() {
    let db = RusqliteDb::shop();
    let popular = |measure: &str| {
        format!(
            "WITH t AS (SELECT c.prefecture, p.category, {measure} AS n FROM orders o \
             JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id \
             GROUP BY c.prefecture, p.category), \
             r AS (SELECT prefecture, category, ROW_NUMBER() OVER \
             (PARTITION BY prefecture ORDER BY n DESC, category) AS k FROM t) \
             SELECT prefecture, category FROM r WHERE k = 1"
        )
    };
    let (by_quantity, by_orders) = (popular("SUM(o.quantity)"), popular("COUNT(*)"));
    let episode = episode_with(
        &db,
        "Most popular category per prefecture?",
        vec![call(
            "1",
            "cross_check",
            json!({"sql_a": by_quantity, "sql_b": by_orders}),
        )],
    );
    let (result, content) = first_result(&episode);
    assert_eq!(result["verdict"], "different", "{content}");
    assert_eq!(
        result["only_in_a"],
        json!([["Hokkaido", "lifestyle"], ["Tokyo", "lifestyle"]])
    );
    assert_eq!(
        result["only_in_b"],
        json!([["Hokkaido", "electronics"], ["Tokyo", "electronics"]])
    );
}

#[test]
fn cross_check_tells_rounding_from_difference_and_order() {
    let db = RusqliteDb::shop();
    let check = |a: &str, b: &str| {
        let episode = episode_with(
            &db,
            "?",
            vec![call("1", "cross_check", json!({"sql_a": a, "sql_b": b}))],
        );
        first_result(&episode).0
    };
    let average = "SELECT AVG(quantity * 1.0) FROM orders WHERE customer_id = 1";
    let rounded = "SELECT ROUND(AVG(quantity * 1.0), 2) FROM orders WHERE customer_id = 1";
    assert_eq!(check(average, rounded)["verdict"], "same_up_to_rounding");
    let up = "SELECT id FROM products ORDER BY id";
    let down = "SELECT id FROM products ORDER BY id DESC";
    let result = check(up, down);
    assert_eq!(result["verdict"], "different");
    assert!(result["message"].as_str().unwrap().contains("order"));
    let unordered = "SELECT id FROM products";
    assert_eq!(check(down, unordered)["verdict"], "same");
    let failed = check(up, "SELECT nope FROM products");
    assert!(failed["message"]
        .as_str()
        .unwrap()
        .starts_with("sql_b failed"));
}

#[test]
fn sales_per_category() {
    let db = RusqliteDb::shop();
    let sql = "SELECT p.category, SUM(o.quantity * p.price) AS sales FROM orders o \
               JOIN products p ON p.id = o.product_id GROUP BY p.category ORDER BY sales DESC";
    let episode = episode_with(&db, "Sales per category?", vec![run_sql("1", sql)]);
    let (result, _) = first_result(&episode);
    assert_eq!(
        result["rows"],
        json!([
            ["electronics", 252000],
            ["furniture", 140000],
            ["lifestyle", 14000]
        ])
    );
    assert_eq!(result["columns"], json!(["category", "sales"]));
    assert!(warnings(&result).is_empty());
}

#[test]
fn orders_in_march_2024_and_a_date_in_another_shape() {
    let db = RusqliteDb::shop();
    let sql = "SELECT count(*) FROM orders WHERE ordered_at BETWEEN '2024-03-01' AND '2024-03-31'";
    let episode = episode_with(&db, "Orders in March 2024?", vec![run_sql("1", sql)]);
    let (result, _) = first_result(&episode);
    assert_eq!(result["rows"], json!([[7]]));
    assert!(warnings(&result).is_empty(), "{:?}", warnings(&result));

    let slashed = "SELECT count(*) FROM orders WHERE ordered_at = '2024/03/02'";
    let episode = episode_with(&db, "?", vec![run_sql("2", slashed)]);
    let (result, _) = first_result(&episode);
    let warnings = warnings(&result);
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("orders.ordered_at holds dates shaped YYYY-MM-DD")),
        "{warnings:?}"
    );
}

#[test]
fn a_day_as_the_upper_bound_of_date_times_is_flagged_and_a_safe_bound_is_not() {
    // Sakila's rental dates carry a time: '2005-05-24 22:53:30' sorts after '2005-05-24'.
    let db = RusqliteDb::open(&support::dataset("sakila/sakila.db"));
    let cut = [
        (
            "SELECT count(*) FROM rental WHERE rental_date <= '2005-05-24'",
            "<=",
        ),
        (
            "SELECT count(*) FROM rental WHERE rental_date BETWEEN '2005-05-01' AND '2005-05-24'",
            "<=",
        ),
        (
            "SELECT count(*) FROM rental WHERE '2005-05-24' < rental_date",
            ">",
        ),
    ];
    for (sql, operator) in cut {
        let episode = episode_with(&db, "Rentals until 24 May 2005?", vec![run_sql("1", sql)]);
        let (result, _) = first_result(&episode);
        let warnings = warnings(&result);
        let expected =
            "rental.rental_date holds values longer than '2005-05-24', such as '2005-05-24 ";
        let warning = warnings
            .iter()
            .find(|w| w.starts_with(expected))
            .unwrap_or_else(|| panic!("{sql}: {warnings:?}"));
        assert!(
            warning.contains(&format!(
                "substr(rental_date, 1, 10) {operator} '2005-05-24'"
            )),
            "{warning}"
        );
    }

    // A lower bound, and an exclusive upper bound, of the shorter shape are right as they are.
    let safe = "SELECT count(*) FROM rental \
                WHERE rental_date >= '2005-05-01' AND rental_date < '2005-05-25'";
    let episode = episode_with(
        &db,
        "Rentals in May until the 24th?",
        vec![run_sql("1", safe)],
    );
    let (result, _) = first_result(&episode);
    assert_eq!(result["rows"], json!([[8]]));
    assert!(warnings(&result).is_empty(), "{:?}", warnings(&result));
}

#[test]
fn null_comparison_and_integer_division_are_flagged() {
    let db = RusqliteDb::shop();
    let sql = "SELECT SUM(quantity) / COUNT(*) FROM orders WHERE customer_id = NULL";
    let episode = episode_with(&db, "?", vec![run_sql("1", sql)]);
    let (result, _) = first_result(&episode);
    let warnings = warnings(&result);
    assert!(
        warnings.iter().any(|w| w.contains("IS NULL")),
        "{warnings:?}"
    );
    let division = "SELECT SUM(quantity) / COUNT(*) FROM orders";
    let episode = episode_with(&db, "?", vec![run_sql("2", division)]);
    let (result, _) = first_result(&episode);
    assert!(
        self::warnings(&result)
            .iter()
            .any(|w| w.contains("divides integers")),
        "{result}"
    );
}

#[test]
fn describe_table_shows_values_keys_and_samples() {
    let db = RusqliteDb::shop();
    let episode = episode_with(
        &db,
        "?",
        vec![call("1", "describe_table", json!({"table": "Customers"}))],
    );
    let (result, content) = first_result(&episode);
    assert_eq!(result["table"], "customers");
    assert_eq!(result["rows"], 6);
    assert!(result.get("statistics_from").is_none());
    let column = |name: &str| {
        result["columns"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap()
            .clone()
    };
    let prefecture = column("prefecture");
    assert_eq!(prefecture["nulls"], 1);
    assert_eq!(prefecture["distinct"], 4);
    assert_eq!(prefecture["values"][0], json!(["Tokyo", 2]));
    assert!(prefecture["values"]
        .as_array()
        .unwrap()
        .contains(&json!([null, 1])));
    assert!(prefecture.get("min").is_none(), "{prefecture}");
    let joined = column("joined_at");
    assert_eq!(joined["min"], "2023-01-10");
    assert_eq!(joined["max"], "2023-06-11");
    assert_eq!(column("id")["primary_key"], true);
    assert_eq!(column("name")["not_null"], true);
    assert_eq!(
        result["referenced_by"],
        json!([{"columns": ["id"], "other_table": "orders", "other_columns": ["customer_id"]}])
    );
    assert_eq!(result["sample_rows"].as_array().unwrap().len(), 3);
    assert!(content.len() < 2_000, "compact: {} bytes", content.len());
}

#[test]
fn describe_table_is_cached_and_knows_close_names() {
    let db = RusqliteDb::shop();
    let mut session = session(&db);
    let describe = |id: &str, table: &str| call(id, "describe_table", json!({ "table": table }));
    let episode = ask(
        &db,
        &mut session,
        "?",
        vec![
            calls(vec![describe("1", "orders"), describe("2", "customer")]),
            calls(vec![final_answer("f", "done", "")]),
        ],
    );
    let results = episode.results_in(1);
    assert!(!results[0].is_error);
    assert!(results[1].is_error);
    assert!(
        results[1].content.contains("did you mean: customers"),
        "{}",
        results[1].content
    );
    let orders: Json = serde_json::from_str(&results[0].content).unwrap();
    assert_eq!(orders["columns"][1]["nulls"], 1);
    assert_eq!(orders["foreign_keys"].as_array().unwrap().len(), 2);

    // Asked again in the same session: the same description, from the cache.
    let counting = CountingDb::new(&db);
    let again = ask(
        &counting,
        &mut session,
        "?",
        vec![
            calls(vec![describe("3", "ORDERS")]),
            calls(vec![final_answer("f", "done", "")]),
        ],
    );
    assert_eq!(again.answer().text, "done");
    assert_eq!(counting.queries.get(), 0);
    assert_eq!(again.results_in(1)[0].content, results[0].content);
}

#[test]
fn list_tables_gives_counts() {
    let db = RusqliteDb::shop();
    let episode = episode_with(&db, "?", vec![call("1", "list_tables", json!({}))]);
    let (result, _) = first_result(&episode);
    assert_eq!(
        result["tables"],
        json!([
            {"name": "customers", "rows": 6, "columns": 4},
            {"name": "orders", "rows": 12, "columns": 5},
            {"name": "products", "rows": 5, "columns": 4},
        ])
    );
}

#[test]
fn statistics_of_a_big_table_come_from_a_sample_and_say_so() {
    let file = support::TempFile::new("agent-big");
    let path = &file.0;
    {
        let connection = rusqlite::Connection::open(path).unwrap();
        connection
            .execute_batch(
                "CREATE TABLE events (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, at TEXT); \
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25000) \
                 INSERT INTO events SELECT i, 'kind' || (i % 3), date('2024-01-01', '+' || (i % 300) || ' days') FROM n;",
            )
            .unwrap();
    }
    let db = RusqliteDb::open(path);
    let episode = episode_with(
        &db,
        "?",
        vec![call("1", "describe_table", json!({"table": "events"}))],
    );
    let (result, content) = first_result(&episode);
    assert_eq!(result["rows"], 25_000);
    assert_eq!(
        result["statistics_from"], "the first 10000 rows",
        "{content}"
    );
    let kind = &result["columns"][1];
    assert_eq!(kind["distinct"], 3);
    assert_eq!(kind["values"].as_array().unwrap().len(), 3);
    let at = &result["columns"][2];
    assert_eq!(at["min"], "2024-01-01");
    assert_eq!(at["most_frequent"].as_array().unwrap().len(), 10);
}

/// A database that counts the queries it runs.
struct CountingDb<'d> {
    inner: &'d RusqliteDb,
    queries: std::cell::Cell<usize>,
}

impl<'d> CountingDb<'d> {
    fn new(inner: &'d RusqliteDb) -> Self {
        CountingDb {
            inner,
            queries: std::cell::Cell::new(0),
        }
    }
}

impl askdb::engine::Database for CountingDb<'_> {
    async fn run(
        &self,
        sql: &askdb::engine::ReadOnlySql,
        values: &[askdb::engine::Value],
        limits: &askdb::engine::QueryLimits,
    ) -> Result<askdb::engine::QueryResult, askdb::engine::DbError> {
        self.queries.set(self.queries.get() + 1);
        self.inner.run(sql, values, limits).await
    }
}

#[test]
fn an_english_literal_over_japanese_data_lists_the_japanese_values() {
    let db = RusqliteDb::open(&support::dataset("shop_ja/shop_ja.db"));
    let sql = "SELECT count(*) FROM customers WHERE prefecture = 'Tokyo'";
    let episode = episode_with(&db, "How many customers in Tokyo?", vec![run_sql("1", sql)]);
    let (result, _) = first_result(&episode);
    let warnings = warnings(&result);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("has no value 'Tokyo'") && w.contains("'東京都' (2)")),
        "{warnings:?}"
    );
}

#[test]
fn among_many_values_the_nearest_are_named() {
    let db = RusqliteDb::open(&support::dataset("chinook/Chinook_Sqlite.sqlite"));
    let sql = "SELECT ArtistId FROM Artist WHERE Name = 'ac/dc'";
    let episode = episode_with(&db, "?", vec![run_sql("1", sql)]);
    let (result, _) = first_result(&episode);
    let warnings = warnings(&result);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .starts_with("Artist.Name has no value 'ac/dc'; the nearest values are 'AC/DC' (1)"),
        "{}",
        warnings[0]
    );
    assert!(warnings[0].contains("most frequent"), "{}", warnings[0]);
}
