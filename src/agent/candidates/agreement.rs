//! Which candidates agree: their evidence results grouped by the evaluation's judge
//! ([`crate::compare::same_result`]), so that "agree" means here what "correct" means there.
//! No model judges between them.
//!
//! - Rows are compared in order only when both candidates' SQL orders them: when either leaves
//!   the order open, the order is not part of its answer.
//! - Results cut at the row limit cannot be compared (the judge says so); two of them still agree
//!   when their SQL is the same text with the same values, which gives the same rows.
//! - A candidate with no result (no answer, no SQL, SQL that failed) is in no group.

use crate::compare::same_result;
use crate::engine::QueryResult;
use crate::sql::analysis::Query;
use serde::{Deserialize, Serialize};

/// One candidate's evidence, as the grouping needs it.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'a> {
    pub result: &'a QueryResult,
    /// The SQL with any bound values written in.
    pub sql: &'a str,
}

impl Evidence<'_> {
    fn ordered(&self) -> bool {
        Query::read(self.sql).has_order_by()
    }

    fn agrees_with(&self, other: &Evidence<'_>) -> bool {
        let ordered = self.ordered() && other.ordered();
        if same_result(self.result, other.result, ordered).is_same() {
            return true;
        }
        self.result.truncated && other.result.truncated && self.sql.trim() == other.sql.trim()
    }
}

/// How the candidates of one question agree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agreement {
    /// How many candidates were drawn.
    pub candidates: usize,
    /// The candidates (0-based) that gave the same result, one group per distinct result:
    /// the largest first, equal sizes in the order of their first candidate.
    pub groups: Vec<Vec<usize>>,
    /// The candidates that gave no result to compare, in order.
    pub without_result: Vec<usize>,
}

impl Agreement {
    /// Groups `evidence` (one entry per candidate, `None` for a candidate with no result).
    ///
    /// A group is everyone linked by agreement, directly or through others: results within
    /// the judge's tolerance of each other, or one ordered and one not, do not agree in a
    /// transitive way (1.0 ≈ 1.0000009 ≈ 1.0000018, but not the first with the last), so
    /// comparing each candidate with a group's first member would make the groups depend on
    /// which candidate came first. Linked groups do not: the same results give the same
    /// groups in any order.
    pub fn group(evidence: &[Option<Evidence<'_>>]) -> Agreement {
        let with_result: Vec<usize> = (0..evidence.len())
            .filter(|&i| evidence[i].is_some())
            .collect();
        let without_result = (0..evidence.len())
            .filter(|&i| evidence[i].is_none())
            .collect();
        let mut links = Links::new(evidence.len());
        for (n, &i) in with_result.iter().enumerate() {
            for &j in &with_result[n + 1..] {
                let (Some(a), Some(b)) = (&evidence[i], &evidence[j]) else {
                    continue;
                };
                // Either way round: the judge reads one side as the expected one.
                if a.agrees_with(b) || b.agrees_with(a) {
                    links.join(i, j);
                }
            }
        }
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for &i in &with_result {
            let root = links.root(i);
            match groups.iter_mut().find(|group| links.root(group[0]) == root) {
                Some(group) => group.push(i),
                None => groups.push(vec![i]),
            }
        }
        // Members in order, groups by the order of their first member: then stable by size.
        groups.sort_by_key(|group| std::cmp::Reverse(group.len()));
        Agreement {
            candidates: evidence.len(),
            groups,
            without_result,
        }
    }

    /// How many candidates gave the most common result (0 when none gave a result).
    pub fn agreeing(&self) -> usize {
        self.groups.first().map_or(0, Vec::len)
    }

    /// More than one distinct result: the person chooses.
    pub fn is_split(&self) -> bool {
        self.groups.len() > 1
    }

    /// The candidate whose answer stands for the others, when they gave one result between
    /// them (the rest, if any, gave none): its first candidate. `None` on a split or when no
    /// candidate gave a result.
    pub fn agreed(&self) -> Option<usize> {
        match self.groups.as_slice() {
            [only] => Some(only[0]),
            _ => None,
        }
    }

    /// The result more candidates gave than any other (a majority vote), when no other result
    /// was given as often: its group. For the evaluation; the page never chooses on a split.
    pub fn most_given(&self) -> Option<&[usize]> {
        match self.groups.as_slice() {
            [first, second, ..] if second.len() == first.len() => None,
            [first, ..] => Some(first),
            [] => None,
        }
    }

    /// "3 of 3 candidates agree", "2 of 3 candidates agree; 1 gave no result", "3 candidates
    /// gave 2 different results", "None of 3 candidates gave a result".
    pub fn summary(&self) -> String {
        let no_result = match self.without_result.len() {
            0 => String::new(),
            n => format!("; {n} gave no result"),
        };
        match self.groups.len() {
            0 => format!("None of {} gave a result", candidates(self.candidates)),
            1 if self.agreeing() == 1 => format!(
                "Only 1 of {} candidates gave a result{no_result}",
                self.candidates
            ),
            1 => format!(
                "{} of {} candidates agree{no_result}",
                self.agreeing(),
                self.candidates
            ),
            distinct => format!(
                "The candidates disagree: {} gave {distinct} different results{no_result}",
                candidates(self.candidates - self.without_result.len()),
            ),
        }
    }
}

/// Which candidates are linked by agreement (a union-find over their indices; a few
/// candidates, so written here rather than taken from a crate).
struct Links(Vec<usize>);

impl Links {
    fn new(n: usize) -> Links {
        Links((0..n).collect())
    }

    fn root(&self, mut i: usize) -> usize {
        while self.0[i] != i {
            i = self.0[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        // The smaller index is the root, so roots never depend on the order of joins.
        self.0[a.max(b)] = a.min(b);
    }
}

/// "1 candidate", "3 candidates".
fn candidates(n: usize) -> String {
    match n {
        1 => "1 candidate".into(),
        n => format!("{n} candidates"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::builders::{result, text};
    use crate::engine::{RowCount, Value};

    #[test]
    fn equal_results_make_one_group_and_the_answer_is_agreed() {
        let a = result(&["n"], vec![vec![Value::Integer(7)]]);
        let b = result(&["count(*)"], vec![vec![Value::Real(7.0)]]);
        let evidence = [
            Some(Evidence {
                result: &a,
                sql: "SELECT 7",
            }),
            Some(Evidence {
                result: &b,
                sql: "SELECT 7.0",
            }),
            Some(Evidence {
                result: &a,
                sql: "SELECT 7",
            }),
        ];
        let agreement = Agreement::group(&evidence);
        assert_eq!(agreement.groups, vec![vec![0, 1, 2]]);
        assert_eq!(agreement.agreed(), Some(0));
        assert!(!agreement.is_split());
        assert_eq!(agreement.summary(), "3 of 3 candidates agree");
    }

    #[test]
    fn rows_and_columns_in_another_order_agree_unless_both_order_their_rows() {
        let ab = result(
            &["name", "city"],
            vec![vec![text("A"), text("X")], vec![text("B"), text("Y")]],
        );
        let ba_swapped = result(
            &["city", "name"],
            vec![vec![text("Y"), text("B")], vec![text("X"), text("A")]],
        );
        let plain = |result| Evidence {
            result,
            sql: "SELECT name, city FROM t",
        };
        let ordered = |result| Evidence {
            result,
            sql: "SELECT name, city FROM t ORDER BY 1",
        };
        let agree = Agreement::group(&[Some(plain(&ab)), Some(plain(&ba_swapped))]);
        assert_eq!(agree.groups, vec![vec![0, 1]]);
        // One leaves the order open: the order is not part of its answer.
        let agree = Agreement::group(&[Some(ordered(&ab)), Some(plain(&ba_swapped))]);
        assert_eq!(agree.groups, vec![vec![0, 1]]);
        // Both order their rows, differently: that is a difference.
        let split = Agreement::group(&[Some(ordered(&ab)), Some(ordered(&ba_swapped))]);
        assert_eq!(split.groups, vec![vec![0], vec![1]]);
    }

    #[test]
    fn a_two_one_split_chooses_nothing_and_names_both() {
        let seven = result(&["n"], vec![vec![Value::Integer(7)]]);
        let eight = result(&["n"], vec![vec![Value::Integer(8)]]);
        let e = |result| {
            Some(Evidence {
                result,
                sql: "SELECT n",
            })
        };
        let agreement = Agreement::group(&[e(&eight), e(&seven), e(&seven)]);
        assert_eq!(agreement.groups, vec![vec![1, 2], vec![0]]);
        assert!(agreement.is_split());
        assert_eq!(agreement.agreed(), None, "nothing is chosen on a split");
        assert_eq!(agreement.agreeing(), 2);
        assert_eq!(agreement.most_given(), Some(&[1, 2][..]));
        assert_eq!(
            agreement.summary(),
            "The candidates disagree: 3 candidates gave 2 different results"
        );
        // A tie has no most given result.
        let tie = Agreement::group(&[e(&eight), e(&seven)]);
        assert_eq!(tie.groups, vec![vec![0], vec![1]]);
        assert_eq!(tie.most_given(), None);
    }

    #[test]
    fn candidates_without_a_result_are_counted_apart() {
        let seven = result(&["n"], vec![vec![Value::Integer(7)]]);
        let e = Some(Evidence {
            result: &seven,
            sql: "SELECT 7",
        });
        let agreement = Agreement::group(&[e, None, e]);
        assert_eq!(agreement.groups, vec![vec![0, 2]]);
        assert_eq!(agreement.without_result, vec![1]);
        assert_eq!(agreement.agreed(), Some(0));
        assert_eq!(
            agreement.summary(),
            "2 of 3 candidates agree; 1 gave no result"
        );
        let lone = Agreement::group(&[None, e, None]);
        assert_eq!(
            lone.summary(),
            "Only 1 of 3 candidates gave a result; 2 gave no result"
        );
        let none = Agreement::group(&[None, None, None]);
        assert_eq!(none.agreeing(), 0);
        assert_eq!(none.agreed(), None);
        assert_eq!(none.summary(), "None of 3 candidates gave a result");
    }

    /// Every order of `items` (Heap's algorithm), as permutations of their indices.
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        fn heap(k: usize, order: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if k <= 1 {
                out.push(order.clone());
                return;
            }
            for i in 0..k {
                heap(k - 1, order, out);
                let j = if k.is_multiple_of(2) { i } else { 0 };
                order.swap(j, k - 1);
            }
        }
        let mut out = Vec::new();
        heap(n, &mut (0..n).collect(), &mut out);
        out
    }

    /// The grouping of `evidence` laid out in `order`, read back in the candidates' own
    /// numbers: each group's members sorted, the groups sorted.
    fn grouping_in(
        order: &[usize],
        evidence: &[Option<Evidence<'_>>],
    ) -> (Vec<Vec<usize>>, String) {
        let laid_out: Vec<Option<Evidence<'_>>> = order.iter().map(|&i| evidence[i]).collect();
        let agreement = Agreement::group(&laid_out);
        let mut groups: Vec<Vec<usize>> = agreement
            .groups
            .iter()
            .map(|group| {
                let mut members: Vec<usize> = group.iter().map(|&at| order[at]).collect();
                members.sort_unstable();
                members
            })
            .collect();
        groups.sort();
        let mut without: Vec<usize> = agreement
            .without_result
            .iter()
            .map(|&at| order[at])
            .collect();
        without.sort_unstable();
        groups.push(without);
        (groups, agreement.summary())
    }

    #[test]
    fn the_grouping_is_the_same_in_every_order_of_the_candidates() {
        let ab = result(&["name"], vec![vec![text("A")], vec![text("B")]]);
        let ba = result(&["name"], vec![vec![text("B")], vec![text("A")]]);
        let null = result(&["x"], vec![vec![Value::Null]]);
        let null_text = result(&["x"], vec![vec![text("NULL")]]);
        let number = |n: f64| result(&["n"], vec![vec![Value::Real(n)]]);
        // A chain: each within the judge's 1e-6 of the next, the ends not of each other.
        let (low, middle, high, far) = (
            number(1.0),
            number(1.000_000_9),
            number(1.000_001_8),
            number(1.1),
        );
        let plain = |result| {
            Some(Evidence {
                result,
                sql: "SELECT name FROM t",
            })
        };
        let ordered = |result| {
            Some(Evidence {
                result,
                sql: "SELECT name FROM t ORDER BY name",
            })
        };
        let reverse = |result| {
            Some(Evidence {
                result,
                sql: "SELECT name FROM t ORDER BY name DESC",
            })
        };
        let scenarios: Vec<Vec<Option<Evidence<'_>>>> = vec![
            // Rows in other orders, with and without ORDER BY; NULL apart from 'NULL'; no result.
            vec![
                plain(&ab),
                ordered(&ab),
                reverse(&ba),
                plain(&ba),
                plain(&null),
                plain(&null_text),
                None,
            ],
            // Floats within tolerance in a chain, another number, NULLs, no result.
            vec![
                plain(&low),
                plain(&high),
                plain(&middle),
                plain(&far),
                plain(&null),
                plain(&null),
                None,
            ],
            // Two ordered results alone that differ by their order only.
            vec![ordered(&ab), reverse(&ba), plain(&null)],
        ];
        let expected = [
            vec![vec![0, 1, 2, 3], vec![4], vec![5], vec![6]],
            vec![vec![0, 1, 2], vec![3], vec![4, 5], vec![6]],
            vec![vec![0], vec![1], vec![2], vec![]],
        ];
        for (evidence, expected) in scenarios.iter().zip(expected) {
            let orders = permutations(evidence.len());
            // Positive control: every order was tried.
            assert_eq!(orders.len(), (1..=evidence.len()).product::<usize>());
            let (first, summary) = grouping_in(&orders[0], evidence);
            assert_eq!(first, expected);
            for order in &orders {
                assert_eq!(
                    grouping_in(order, evidence),
                    (first.clone(), summary.clone()),
                    "in the order {order:?}"
                );
            }
        }
    }

    #[test]
    fn results_too_large_to_compare_agree_only_with_the_same_sql() {
        let mut big = result(&["n"], vec![vec![Value::Integer(1)]]);
        big.truncated = true;
        big.total_rows = RowCount::MoreThan(1);
        let e = |sql| Some(Evidence { result: &big, sql });
        let same = Agreement::group(&[e("SELECT n FROM t"), e(" SELECT n FROM t ")]);
        assert_eq!(same.groups, vec![vec![0, 1]]);
        let other = Agreement::group(&[e("SELECT n FROM t"), e("SELECT n FROM u")]);
        assert_eq!(other.groups.len(), 2);
    }
}
