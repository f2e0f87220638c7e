//! File, sheet and column names made into SQL identifiers that the agent can write unquoted:
//! letters, digits and `_`, not starting with a digit, not a keyword, not one of SQLite's or
//! askdb's reserved prefixes, at most 64 characters; unique in any ASCII case (SQLite's rule).
//! Duplicates get `_2`, `_3`… and an empty header `column_N` (N its position), so the same file
//! always gives the same names.

use std::collections::HashSet;

const MAX_LEN: usize = 64;

/// `Sales 2024 (EU)` → `Sales_2024_EU`; `""` → `""` (the caller picks a fallback).
pub fn identifier(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.trim().chars() {
        if c.is_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches('_');
    let mut name: String = trimmed.chars().take(MAX_LEN).collect();
    if name.chars().next().is_some_and(|c| c.is_numeric()) {
        name.insert(0, '_');
    }
    let lower = name.to_ascii_lowercase();
    // sqlite_ names are SQLite's own; askdb_ tables are read as knowledge (notes, checks).
    if lower.starts_with("sqlite_") || lower.starts_with("askdb_") {
        name.insert(0, '_');
    }
    if crate::sql::lexer::is_keyword(&name) {
        name.push('_');
    }
    name
}

/// A table's name from its file's: the name without its extension (and folders).
pub fn table_name_of_file(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let stem = match base.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => base,
    };
    stem.to_string()
}

/// Hands out names unique among those it gave (in any ASCII case).
#[derive(Default)]
pub struct Namer {
    used: HashSet<String>,
}

impl Namer {
    /// `wanted` made an identifier, or `fallback` when nothing is left of it, made unique.
    pub fn unique(&mut self, wanted: &str, fallback: &str) -> String {
        let mut base = identifier(wanted);
        if base.is_empty() {
            base = fallback.to_string();
        }
        let mut name = base.clone();
        let mut n = 2;
        while !self.used.insert(name.to_ascii_lowercase()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }
}

/// Column names for a table from its header cells (None where there is no header): each cell
/// made an identifier, `column_N` where empty or absent.
pub fn column_names(header: &[Option<&str>]) -> Vec<String> {
    let mut namer = Namer::default();
    header
        .iter()
        .enumerate()
        .map(|(i, cell)| namer.unique(cell.unwrap_or(""), &format!("column_{}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_characters_become_underscores_and_quotes_cannot_survive() {
        assert_eq!(identifier("Sales 2024 (EU)"), "Sales_2024_EU");
        assert_eq!(identifier("a\"b'c;--"), "a_b_c");
        assert_eq!(identifier("  Prénom  "), "Prénom");
    }

    #[test]
    fn digits_keywords_and_reserved_prefixes_are_moved_aside() {
        assert_eq!(identifier("2024 sales"), "_2024_sales");
        assert_eq!(identifier("order"), "order_");
        assert_eq!(identifier("sqlite_master"), "_sqlite_master");
        assert_eq!(identifier("askdb_notes"), "_askdb_notes");
    }

    #[test]
    fn duplicates_and_empty_headers_get_stable_names() {
        assert_eq!(
            column_names(&[
                Some("id"),
                Some("ID"),
                Some(""),
                None,
                Some("id_2"),
                Some("id")
            ]),
            ["id", "ID_2", "column_3", "column_4", "id_2_2", "id_3"]
        );
    }

    #[test]
    fn very_long_names_are_cut() {
        assert_eq!(identifier(&"x".repeat(500)).len(), 64);
    }

    #[test]
    fn a_file_name_loses_its_folder_and_extension() {
        assert_eq!(
            table_name_of_file("C:\\data\\orders.2024.csv"),
            "orders.2024"
        );
        assert_eq!(
            identifier(&table_name_of_file("orders.2024.csv")),
            "orders_2024"
        );
        assert_eq!(table_name_of_file(".csv"), ".csv");
    }
}
