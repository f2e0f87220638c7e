//! Which names or values are near one that was not found: the same but for case or spaces, one
//! inside the other, or a few typing mistakes away.

use crate::engine::Schema;

/// Up to `max` of `candidates` near `probe`, nearest first.
pub(crate) fn nearest<'c>(
    probe: &str,
    candidates: impl IntoIterator<Item = &'c str>,
    max: usize,
) -> Vec<&'c str> {
    let probe = normalize(probe);
    if probe.is_empty() {
        return Vec::new();
    }
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter_map(|candidate| distance(&probe, &normalize(candidate)).map(|d| (d, candidate)))
        .collect();
    scored.sort_by_key(|(d, _)| *d);
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(max).map(|(_, c)| c).collect()
}

/// The tables a name that is not in the schema may have meant.
pub(crate) enum TableHint<'s> {
    /// The names near it, nearest first.
    Near(Vec<&'s str>),
    /// None is near: the first tables of the schema instead.
    Tables(Vec<&'s str>),
}

/// Up to 5 tables near `name`, or else the first 40 tables.
pub(crate) fn table_hint<'s>(schema: &'s Schema, name: &str) -> TableHint<'s> {
    let names = schema.tables.iter().map(|t| t.name.as_str());
    let close = nearest(name, names.clone(), 5);
    if close.is_empty() {
        TableHint::Tables(names.take(40).collect())
    } else {
        TableHint::Near(close)
    }
}

fn normalize(text: &str) -> String {
    text.trim().to_lowercase()
}

/// 0 for equal, 1 for one inside the other, else 2 + the edit distance when that is small.
fn distance(probe: &str, candidate: &str) -> Option<usize> {
    if candidate.is_empty() {
        return None;
    }
    if probe == candidate {
        return Some(0);
    }
    let short_enough = |text: &str| text.chars().count() >= 2;
    if (short_enough(candidate) && probe.contains(candidate))
        || (short_enough(probe) && candidate.contains(probe))
    {
        return Some(1);
    }
    let allowed = (probe.chars().count() / 3).max(1);
    let edits = strsim::levenshtein(probe, candidate);
    (edits <= allowed).then_some(2 + edits)
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn finds_case_substring_and_typos() {
        let names = ["customers", "orders", "products", "order_items"];
        assert_eq!(nearest("Customer", names, 5), vec!["customers"]);
        assert_eq!(nearest("ordrs", names, 5), vec!["orders"]);
        assert_eq!(nearest("order", names, 5), vec!["orders", "order_items"]);
        assert!(nearest("東京都", ["Tokyo", "Osaka"], 5).is_empty());
        assert_eq!(nearest(" tokyo ", ["Tokyo", "Kyoto"], 5), vec!["Tokyo"]);
    }
}
