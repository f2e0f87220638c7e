use super::builders::{result, text as t};
use super::*;
use crate::sql::analysis::Query;
use Value::{Integer as I, Null, Real as R};

fn why(expected: &QueryResult, actual: &QueryResult, ordered: bool) -> String {
    let verdict = same_result(expected, actual, ordered);
    assert!(!verdict.is_same(), "expected a difference, got {verdict:?}");
    verdict.to_string()
}

#[test]
fn rows_are_a_multiset_unless_ordered() {
    let expected = result(&["a"], vec![vec![I(1)], vec![I(2)], vec![I(3)]]);
    let shuffled = result(&["b"], vec![vec![I(3)], vec![I(1)], vec![I(2)]]);
    assert_eq!(same_result(&expected, &shuffled, false), Verdict::Same);
    assert_eq!(
        why(&expected, &shuffled, true),
        "the same rows in another order (from row 1), where the expected SQL orders them"
    );
    assert_eq!(
        same_result(&expected, &expected.clone(), true),
        Verdict::Same
    );
}

#[test]
fn duplicates_count() {
    let expected = result(&["a"], vec![vec![t("x")], vec![t("x")], vec![t("y")]]);
    let set_like = result(&["a"], vec![vec![t("x")], vec![t("y")], vec![t("y")]]);
    assert_eq!(
        why(&expected, &set_like, false),
        "one row differs: first column (a): 'x' expected, 'y' returned"
    );
    let fewer = result(&["a"], vec![vec![t("x")], vec![t("y")]]);
    assert_eq!(why(&expected, &fewer, false), "3 rows expected, 2 returned");
}

#[test]
fn numbers_are_equal_within_the_tolerance_whatever_their_class() {
    let expected = result(&["n", "avg"], vec![vec![I(2), R(0.3)], vec![I(1), R(1e12)]]);
    let close = result(
        &["n", "avg"],
        vec![vec![R(1.0), R(1e12 + 1.0)], vec![R(2.0), R(0.1 + 0.2)]],
    );
    assert_eq!(same_result(&expected, &close, false), Verdict::Same);
    let tiny = result(&["x"], vec![vec![R(0.0)]]);
    assert!(same_result(&tiny, &result(&["x"], vec![vec![R(5e-10)]]), false).is_same());
    assert!(!same_result(&tiny, &result(&["x"], vec![vec![R(5e-9)]]), false).is_same());
    let rounded = result(&["avg"], vec![vec![R(33.33)]]);
    assert_eq!(
        why(&result(&["avg"], vec![vec![R(33.333333)]]), &rounded, false),
        "first column (avg): 33.333333 expected, 33.33 returned"
    );
    // Integer division is not the same answer as the real one.
    assert!(!same_result(
        &result(&["r"], vec![vec![R(3.5)]]),
        &result(&["r"], vec![vec![I(3)]]),
        false
    )
    .is_same());
    // Large integers are compared exactly, not through floats.
    assert!(!values_equal(
        &I(9_007_199_254_740_993),
        &I(9_007_199_254_740_992)
    ));
}

#[test]
fn text_is_exact_and_null_equals_null() {
    assert!(values_equal(&Null, &Null));
    assert!(!values_equal(&Null, &I(0)));
    assert!(!values_equal(&Null, &t("")));
    assert!(!values_equal(&t("2"), &I(2)));
    assert!(!values_equal(&t("Tokyo"), &t("tokyo")));
    let expected = result(&["city", "n"], vec![vec![t("Tokyo"), Null]]);
    let actual = result(&["city", "n"], vec![vec![t("東京都"), Null]]);
    assert_eq!(
        why(&expected, &actual, false),
        "first column (city): 'Tokyo' expected, '東京都' returned"
    );
}

#[test]
fn column_names_are_ignored_and_columns_may_come_in_another_order() {
    let expected = result(
        &["city", "n"],
        vec![vec![t("Osaka"), I(2)], vec![t("Tokyo"), I(5)]],
    );
    let swapped = result(
        &["total", "town"],
        vec![vec![I(5), t("Tokyo")], vec![I(2), t("Osaka")]],
    );
    let verdict = same_result(&expected, &swapped, false);
    assert_eq!(verdict, Verdict::SameInColumnOrder { order: vec![1, 0] });
    assert!(verdict.is_same());
    // Swapped columns whose pairs do not match are still different.
    let mixed = result(
        &["n", "city"],
        vec![vec![I(2), t("Tokyo")], vec![I(5), t("Osaka")]],
    );
    assert!(!same_result(&expected, &mixed, false).is_same());
    // Two columns with the same values: the order that matches the rows is found.
    let twins = result(
        &["a", "b"],
        vec![vec![I(1), I(2)], vec![I(2), I(1)], vec![I(1), I(1)]],
    );
    let twins_swapped = result(
        &["b", "a"],
        vec![vec![I(2), I(1)], vec![I(1), I(2)], vec![I(1), I(1)]],
    );
    assert_eq!(
        same_result(&twins, &twins_swapped, true),
        Verdict::SameInColumnOrder { order: vec![1, 0] }
    );
}

#[test]
fn column_counts_and_row_counts_are_said_first() {
    let expected = result(&["a", "b"], vec![vec![I(1), I(2)]]);
    assert_eq!(
        why(&expected, &result(&["a"], vec![vec![I(1)]]), false),
        "2 columns expected, 1 returned"
    );
    assert_eq!(
        why(&expected, &result(&["a", "b"], vec![]), false),
        "1 row expected, 0 returned"
    );
}

#[test]
fn ordered_differences_name_the_row() {
    let expected = result(
        &["name", "n"],
        vec![vec![t("a"), I(3)], vec![t("b"), I(2)], vec![t("c"), I(1)]],
    );
    let actual = result(
        &["name", "n"],
        vec![vec![t("a"), I(3)], vec![t("b"), I(4)], vec![t("c"), I(1)]],
    );
    assert_eq!(
        why(&expected, &actual, true),
        "row 2 differs: second column (n): 2 expected, 4 returned"
    );
    let all_different = result(
        &["name", "n"],
        vec![vec![t("a"), I(3)], vec![t("x"), I(9)], vec![t("c"), I(1)]],
    );
    assert_eq!(
        why(&expected, &all_different, true),
        "row 2 differs: ('b', 2) expected, ('x', 9) returned"
    );
    let several = result(
        &["name", "n"],
        vec![vec![t("a"), I(0)], vec![t("b"), I(0)], vec![t("c"), I(1)]],
    );
    assert_eq!(
        why(&expected, &several, false),
        "2 rows differ, for example: second column (n): 3 expected, 0 returned"
    );
}

#[test]
fn long_values_are_cut_in_the_verdict() {
    let long = "x".repeat(10_000);
    let expected = result(&["note"], vec![vec![t(&long)]]);
    let actual = result(&["note"], vec![vec![t("short")]]);
    let message = why(&expected, &actual, false);
    assert!(message.len() < 200, "{message}");
    assert!(message.contains("…"), "{message}");
}

#[test]
fn results_cut_at_the_row_limit_are_compared_by_count_only() {
    let mut expected = result(&["a"], vec![vec![I(1)]]);
    expected.truncated = true;
    expected.total_rows = RowCount::Exact(5_000);
    let mut actual = expected.clone();
    assert_eq!(
        why(&expected, &actual, false),
        "both return more than 1 row: too many to compare"
    );
    actual.total_rows = RowCount::Exact(4_000);
    assert_eq!(
        why(&expected, &actual, false),
        "5,000 rows expected, 4,000 returned"
    );
}

#[test]
fn near_numbers_sorted_apart_by_a_later_column_still_pair() {
    // 1.0 < 1.0000000001 puts ('b') first on one side and ('a') first on the other.
    let expected = result(
        &["x", "y"],
        vec![vec![R(1.0), t("b")], vec![R(1.0 + 1e-10), t("a")]],
    );
    let actual = result(
        &["x", "y"],
        vec![vec![R(1.0 + 1e-10), t("b")], vec![R(1.0), t("a")]],
    );
    assert_eq!(same_result(&expected, &actual, false), Verdict::Same);
}

#[test]
fn empty_results_are_the_same() {
    let empty = result(&["a"], vec![]);
    assert_eq!(
        same_result(&empty, &result(&["b"], vec![]), true),
        Verdict::Same
    );
}

#[test]
fn the_order_that_counts_is_the_outer_querys() {
    // The runner asks `has_order_by` of the expected SQL: only the outer ORDER BY orders rows.
    assert!(Query::read("SELECT a FROM t ORDER BY a").has_order_by());
    assert!(Query::read("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1").has_order_by());
    assert!(
        Query::read("WITH c AS (SELECT a FROM t ORDER BY a) SELECT a FROM c ORDER BY a DESC")
            .has_order_by()
    );
    assert!(!Query::read("WITH c AS (SELECT a FROM t ORDER BY a) SELECT a FROM c").has_order_by());
    assert!(!Query::read("SELECT a, rank() OVER (ORDER BY b) FROM t").has_order_by());
    assert!(!Query::read("SELECT a FROM (SELECT a FROM t ORDER BY a LIMIT 3)").has_order_by());
    assert!(!Query::read("SELECT group_concat(a ORDER BY a) FROM t").has_order_by());
}

#[test]
fn a_cut_result_against_a_whole_one_is_a_row_count() {
    // The same rows kept, but one side was cut: its count says so, not "too many".
    let expected = result(&["a"], vec![vec![I(1)], vec![I(2)]]);
    let mut cut = expected.clone();
    cut.truncated = true;
    cut.total_rows = RowCount::MoreThan(2);
    assert_eq!(
        why(&expected, &cut, false),
        "2 rows expected, more than 2 returned"
    );
}

/// Past [`MAX_LEFTOVER_PAIRING`] rows only the sorted pass pairs rows: it must pair every equal
/// row and leave exactly the different ones.
#[test]
fn large_results_pair_in_one_sorted_pass() {
    let rows = |range: std::ops::Range<i64>| range.map(|n| vec![I(n)]).collect::<Vec<_>>();
    let many = MAX_LEFTOVER_PAIRING as i64 + 500;
    let expected = result(&["n"], rows(0..many));
    let reversed = result(&["n"], rows(0..many).into_iter().rev().collect());
    assert_eq!(same_result(&expected, &reversed, false), Verdict::Same);
    let shifted = result(&["n"], rows(1..many + 1));
    assert_eq!(
        why(&expected, &shifted, false),
        "one row differs: first column (n): 0 expected, 1500 returned"
    );
}

/// The sorted pass needs an order that puts equal values side by side, for every kind of value:
/// past [`MAX_LEFTOVER_PAIRING`] rows nothing else pairs them.
#[test]
fn large_results_of_every_kind_pair_in_the_sorted_pass() {
    type Make = fn(i64) -> Value;
    let many = MAX_LEFTOVER_PAIRING as i64 + 500;
    let mixed: Make = |n| match n % 4 {
        0 => Null,
        1 => I(n),
        2 => t(&n.to_string()),
        _ => Value::Blob(n.to_be_bytes().to_vec()),
    };
    let kinds: [(&str, Make, Make); 5] = [
        // Past 2^53 neighbours are one float apart: only integers order them.
        (
            "integers past 2^53",
            |n| I((1 << 53) + n),
            |n| I((1 << 53) + n),
        ),
        ("text", |n| t(&format!("{n:05}")), |n| t(&format!("{n:05}"))),
        (
            "blobs",
            |n| Value::Blob(n.to_be_bytes().to_vec()),
            |n| Value::Blob(n.to_be_bytes().to_vec()),
        ),
        ("integers against reals", |n| I(n), |n| R(n as f64)),
        ("every kind in one column", mixed, mixed),
    ];
    for (kind, expected_value, returned_value) in kinds {
        let expected = result(&["v"], (0..many).map(|n| vec![expected_value(n)]).collect());
        let returned = result(
            &["v"],
            (0..many).rev().map(|n| vec![returned_value(n)]).collect(),
        );
        assert_eq!(
            same_result(&expected, &returned, false),
            Verdict::Same,
            "{kind}"
        );
    }
}
