//! How the text functions that read model output scale: the guard (and its lexer), tidy, the
//! analysis behind the lints, and the Markdown reader, on inputs from 1 KB to 1 MB. Each must be
//! linear: the time per KB stays flat as the input grows. Prints a table; asserts nothing.
//!
//!   cargo bench --bench text_speed
//!
//! The guard refuses texts over 100 KB before reading them, so above that size the lexer it
//! runs is measured instead (what the guard would cost without the cap).

use askdb::present::markdown;
use askdb::sql::{analysis, guard, lexer, tidy::tidy};
use std::hint::black_box;
use std::time::{Duration, Instant};

const SIZES: &[usize] = &[1 << 10, 10 << 10, 100 << 10, 1 << 20, 4 << 20];

/// Repeats `piece` (with `open` before and `close` after each repetition nested inside the
/// previous one when `nested`) until the text is about `size` bytes.
fn build(size: usize, prefix: &str, piece: &str, suffix: &str) -> String {
    let n = (size.saturating_sub(prefix.len() + suffix.len()) / piece.len()).max(1);
    format!("{prefix}{}{suffix}", piece.repeat(n))
}

fn nested(size: usize, before: &str, open: &str, middle: &str, close: &str) -> String {
    let n = (size.saturating_sub(before.len() + middle.len()) / (open.len() + close.len())).max(1);
    format!("{before}{}{middle}{}", open.repeat(n), close.repeat(n))
}

/// The shapes of SQL text measured: each a way a model (or an attacker) makes a long text.
fn sql_shapes(size: usize) -> Vec<(&'static str, String)> {
    vec![
        (
            "flat OR chain",
            build(
                size,
                "SELECT * FROM orders WHERE ",
                "status = 'shipped' OR ",
                "1 = 1",
            ),
        ),
        (
            "many joins",
            build(
                size,
                "SELECT * FROM orders o ",
                "JOIN customers c ON c.id = o.customer_id AND c.prefecture = 'Tokyo' ",
                "WHERE 1",
            ),
        ),
        (
            "comments and strings",
            build(size, "SELECT ", "'a''b' /* note */ || -- x\n ", "'end'"),
        ),
        ("nested parentheses", nested(size, "SELECT ", "(", "1", ")")),
        (
            "nested subqueries",
            nested(size, "SELECT ", "(SELECT ", "1", ")"),
        ),
        (
            "nested CASE",
            nested(size, "SELECT ", "CASE WHEN a = 1 THEN ", "1", " END"),
        ),
    ]
}

/// The shapes of model answers and wrapped SQL measured.
fn text_shapes(size: usize) -> Vec<(&'static str, String)> {
    vec![
        (
            "nested code fences",
            nested(size, "", "```sql\n", "SELECT 1", "\n```"),
        ),
        ("nested quotes", nested(size, "", "\"", "SELECT 1", "\"")),
        (
            "markdown answer",
            build(
                size,
                "",
                "**Tokyo** has *12* orders ([see](https://x.org)).\n\n- a\n- b\n",
                "",
            ),
        ),
        (
            "nested lists and quotes",
            nested(size, "", "> - ", "text", "\n"),
        ),
    ]
}

/// The time one call of `f` takes: the fastest of several runs of at least 20 ms in all.
fn time(mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    let started = Instant::now();
    let mut runs = 0;
    while runs < 3 || (started.elapsed() < Duration::from_millis(20) && runs < 1_000) {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

fn lints(sql: &str) {
    let query = analysis::Query::read(sql);
    black_box(query.tables());
    black_box(query.literal_comparisons());
    black_box(query.not_in_subqueries());
    black_box(query.null_comparisons());
    black_box(query.integer_divisions(&|_, _| true));
    black_box(query.has_order_by());
}

type Measured = fn(&str);

fn main() {
    let sql_functions: &[(&str, Measured)] = &[
        ("guard::check", |s| {
            black_box(guard::check(s).ok());
        }),
        ("lexer::tokenize", |s| {
            black_box(lexer::tokenize(s).ok());
        }),
        ("analysis (lints)", lints),
    ];
    let text_functions: &[(&str, Measured)] = &[
        ("tidy", |s| {
            black_box(tidy(s));
        }),
        ("markdown::parse", |s| {
            black_box(markdown::parse(s));
        }),
    ];
    println!("| function | input | 1 KB µs/KB | 10 KB | 100 KB | 1 MB | 4 MB | 4 MB ÷ 1 MB |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (functions, shapes) in [
        (
            sql_functions,
            sql_shapes as fn(usize) -> Vec<(&'static str, String)>,
        ),
        (text_functions, text_shapes),
    ] {
        for &(name, function) in functions {
            for (i, (shape, _)) in shapes(1024).iter().enumerate() {
                let per_kb: Vec<f64> = SIZES
                    .iter()
                    .map(|&size| {
                        let text = &shapes(size)[i].1;
                        let took = time(|| function(text));
                        took.as_secs_f64() * 1e6 / (text.len() as f64 / 1024.0)
                    })
                    .collect();
                let cells: Vec<String> = per_kb.iter().map(|t| format!("{t:.2}")).collect();
                println!(
                    "| {name} | {shape} | {} | {:.1} |",
                    cells.join(" | "),
                    per_kb[4] / per_kb[3]
                );
            }
        }
    }
}
