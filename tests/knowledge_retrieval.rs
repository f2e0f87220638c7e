//! Worked examples are found by their questions' likeness to the question asked
//! (`knowledge::retrieve`: BM25 over character n-grams). Measured here on real paraphrases:
//! the German Spider dev set, where most questions have a twin (another wording with the same
//! gold SQL), and Japanese questions on the shop database, written in pairs for this test.
//!
//! Leave-one-out: each question with a twin is searched among the other questions of its
//! database; it is found when a question with the same SQL is among the top 3.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::knowledge::retrieve::SCORE_FLOOR;
use askdb::search::bm25::TextIndex;
use std::collections::HashMap;

struct Case {
    group: String,
    question: String,
    sql: String,
}

/// How many questions with a twin find it among the top 3 of the rest of their group (scoring
/// at least `floor`, as the agent asks), and how many have a twin.
fn leave_one_out(cases: &[Case], floor: f32) -> (usize, usize) {
    let mut groups: HashMap<&str, Vec<&Case>> = HashMap::new();
    for case in cases {
        groups.entry(&case.group).or_default().push(case);
    }
    let (mut with_twin, mut found) = (0, 0);
    for members in groups.values() {
        for (asked, case) in members.iter().enumerate() {
            let others: Vec<&Case> = members
                .iter()
                .enumerate()
                .filter(|(at, _)| *at != asked)
                .map(|(_, other)| *other)
                .collect();
            if !others.iter().any(|other| other.sql == case.sql) {
                continue;
            }
            with_twin += 1;
            let index = TextIndex::new(others.iter().map(|other| other.question.as_str()));
            let top = index.search(&case.question, 3, floor);
            if top.iter().any(|hit| others[hit.index].sql == case.sql) {
                found += 1;
            }
        }
    }
    (found, with_twin)
}

fn spider_de() -> Vec<Case> {
    let path = support::dataset("spider_de/questions_dev_de.json");
    let text = std::fs::read_to_string(&path).expect("the German Spider dev set");
    let items: Vec<serde_json::Value> = serde_json::from_str(&text).expect("a JSON list");
    items
        .iter()
        .map(|item| Case {
            group: item["db"].as_str().expect("db").to_string(),
            question: item["question"].as_str().expect("question").to_string(),
            // Spider's twins differ only in spacing now and then.
            sql: item["gold_sql"]
                .as_str()
                .expect("gold_sql")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase(),
        })
        .collect()
}

/// Pairs of Japanese questions on the shop database, each pair with the same SQL.
const SHOP_JA: &[(&str, &str, &str)] = &[
    (
        "東京都の顧客は何人いますか？",
        "東京に住んでいる顧客の数を教えて",
        "SELECT count(*) FROM customers WHERE prefecture = 'Tokyo'",
    ),
    (
        "2024年3月の注文は何件ですか？",
        "2024年3月に入った注文の件数は？",
        "SELECT count(*) FROM orders WHERE ordered_at LIKE '2024-03%'",
    ),
    (
        "カテゴリ別の売上合計を教えて",
        "売上の合計をカテゴリごとに出して",
        "SELECT category, sum(price * quantity) FROM orders JOIN products ON products.id = product_id GROUP BY category",
    ),
    (
        "一番高い商品は何ですか？",
        "価格が最も高い商品を教えて",
        "SELECT name FROM products ORDER BY price DESC LIMIT 1",
    ),
    (
        "都道府県が登録されていない顧客は誰？",
        "都道府県が空の顧客を一覧にして",
        "SELECT name FROM customers WHERE prefecture IS NULL",
    ),
    (
        "顧客ごとの注文数を多い順に並べて",
        "注文数が多い顧客の順に一覧にして",
        "SELECT customer_id, count(*) FROM orders GROUP BY customer_id ORDER BY 2 DESC",
    ),
    (
        "家具カテゴリの商品の平均価格は？",
        "家具の商品の価格の平均を教えて",
        "SELECT avg(price) FROM products WHERE category = 'furniture'",
    ),
    (
        "一度も注文していない顧客はいますか？",
        "注文したことがない顧客を教えて",
        "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders WHERE customer_id IS NOT NULL)",
    ),
];

fn shop_ja() -> Vec<Case> {
    SHOP_JA
        .iter()
        .flat_map(|(a, b, sql)| {
            [a, b].map(|question| Case {
                group: "shop".into(),
                question: question.to_string(),
                sql: sql.to_string(),
            })
        })
        .collect()
}

#[test]
fn german_spider_twins_are_found_among_the_top_three() {
    let cases = spider_de();
    let (found, with_twin) = leave_one_out(&cases, SCORE_FLOOR);
    let share = found as f64 / with_twin as f64;
    println!(
        "spider_de: {found} of {with_twin} questions with a twin found it in the top 3 ({:.1} %)",
        share * 100.0
    );
    assert!(with_twin > 900, "{with_twin} questions with a twin");
    // Measured: 745 of 962 (77.4 %); 754 with no floor; without the 3-grams inside words,
    // 68.5 %.
    assert!(share >= 0.72, "{found} of {with_twin}");
}

#[test]
fn japanese_shop_twins_are_found_among_the_top_three() {
    let cases = shop_ja();
    let (found, with_twin) = leave_one_out(&cases, SCORE_FLOOR);
    println!("shop_ja: {found} of {with_twin}");
    assert_eq!(with_twin, SHOP_JA.len() * 2);
    // Measured: 14 of 16 (16 with no floor; 14 with no floor before hiragana split the words).
    assert!(found >= 13, "{found} of {with_twin}");
}

#[test]
fn questions_about_another_database_mostly_find_nothing() {
    // Each database's questions searched among the next database's: what is found clears the
    // floor only by sharing the wording of questions ("Wie viele … gibt es?").
    let cases = spider_de();
    let mut groups: HashMap<&str, Vec<&Case>> = HashMap::new();
    for case in &cases {
        groups.entry(&case.group).or_default().push(case);
    }
    let mut names: Vec<&str> = groups.keys().copied().collect();
    names.sort();
    let (mut asked, mut found) = (0, 0);
    for (at, name) in names.iter().enumerate() {
        let other = &groups[names[(at + 1) % names.len()]];
        let index = TextIndex::new(other.iter().map(|case| case.question.as_str()));
        for case in &groups[name] {
            asked += 1;
            if !index.search(&case.question, 1, SCORE_FLOOR).is_empty() {
                found += 1;
            }
        }
    }
    let share = found as f64 / asked as f64;
    println!(
        "spider_de, another database: {found} of {asked} questions found an example ({:.1} %)",
        share * 100.0
    );
    // Measured: 226 of 1,030 (21.9 %).
    assert!(share <= 0.3, "{found} of {asked}");
}
