//! Golden questions on the shop database, for the evaluation's tests: the builder and the SQL
//! that several of them ask or answer with.

use askdb::knowledge::{GoldenQuestion, Source};

/// The right count of March 2024's orders (7).
pub const MARCH: &str =
    "SELECT count(*) FROM orders WHERE ordered_at >= '2024-03-01' AND ordered_at < '2024-04-01'";
/// A wrong one: every order from March 2024 on.
pub const MARCH_WRONG: &str = "SELECT count(*) FROM orders WHERE ordered_at >= '2024-03-01'";
pub const PER_PREFECTURE: &str = "SELECT prefecture, count(*) FROM customers GROUP BY prefecture";

/// A golden question kept in the database, with no other answer accepted.
pub fn golden_question(question: &str, sql: &str) -> GoldenQuestion {
    GoldenQuestion {
        question: question.into(),
        sql: sql.into(),
        also_accepted: Vec::new(),
        source: Source::Database,
    }
}
