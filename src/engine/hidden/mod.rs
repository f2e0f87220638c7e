//! Tables and columns a person hides from the model.
//!
//! Hiding is enforced by the engine, not by reading the model's SQL: the agent's queries run on
//! a copy of the database in which the hidden tables and columns do not exist. [`script`] writes
//! the SQL that makes that copy from the schema; the page applies it to a writable copy of the
//! bytes in a worker of its own (the original bytes are never touched).

mod script;

pub use script::{derive_script, load_catalogue, CatalogueEntry, ObjectKind};

use super::schema::{Schema, TableKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// What is hidden, by the names the schema spells.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hidden {
    /// Whole tables and views.
    pub tables: BTreeSet<String>,
    /// `(table, column)`, for columns of tables that are themselves visible.
    pub columns: BTreeSet<(String, String)>,
}

impl Hidden {
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty() && self.columns.is_empty()
    }

    pub fn hides_table(&self, table: &str) -> bool {
        self.tables.iter().any(|t| t.eq_ignore_ascii_case(table))
    }

    /// True when the column is hidden itself.
    pub fn hides_column(&self, table: &str, column: &str) -> bool {
        self.columns
            .iter()
            .any(|(t, c)| t.eq_ignore_ascii_case(table) && c.eq_ignore_ascii_case(column))
    }

    /// Hides the table when it is visible, shows it again when it is hidden.
    pub fn toggle_table(&mut self, table: &str) {
        if self.hides_table(table) {
            self.tables.retain(|t| !t.eq_ignore_ascii_case(table));
        } else {
            self.tables.insert(table.to_string());
        }
    }

    pub fn toggle_column(&mut self, table: &str, column: &str) {
        if self.hides_column(table, column) {
            self.columns.retain(|(t, c)| {
                !(t.eq_ignore_ascii_case(table) && c.eq_ignore_ascii_case(column))
            });
        } else {
            self.columns.insert((table.to_string(), column.to_string()));
        }
    }

    /// "customers.email", "payments": what the page says is hidden, sorted.
    pub fn names(&self) -> Vec<String> {
        let columns = self
            .columns
            .iter()
            .filter(|(table, _)| !self.hides_table(table))
            .map(|(table, column)| format!("{table}.{column}"));
        let mut names: Vec<String> = self.tables.iter().cloned().chain(columns).collect();
        names.sort_by_key(|name| name.to_lowercase());
        names
    }

    /// Reads names such as `payments` or `customers.email` against `schema`. Names the schema
    /// does not have, or cannot hide, are returned apart with the reason.
    pub fn resolve(schema: &Schema, names: &[String]) -> (Hidden, Vec<Unresolved>) {
        let mut hidden = Hidden::default();
        let mut unresolved = Vec::new();
        for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
            match resolve_one(schema, name) {
                Ok(Target::Table(table)) => {
                    hidden.tables.insert(table);
                }
                Ok(Target::Column(table, column)) => {
                    hidden.columns.insert((table, column));
                }
                Err(reason) => unresolved.push(Unresolved {
                    name: name.to_string(),
                    reason,
                }),
            }
        }
        (hidden, unresolved)
    }

    /// The same choice for `schema`: what it no longer names is dropped (a kept choice for a
    /// database whose bytes, and so whose schema, are the same stays whole).
    pub fn within(&self, schema: &Schema) -> Hidden {
        let names: Vec<String> = self
            .tables
            .iter()
            .cloned()
            .chain(self.columns.iter().map(|(t, c)| format!("{t}.{c}")))
            .collect();
        Hidden::resolve(schema, &names).0
    }

    /// Both choices together.
    pub fn union(&self, other: &Hidden) -> Hidden {
        let mut all = self.clone();
        all.tables.extend(other.tables.iter().cloned());
        all.columns.extend(other.columns.iter().cloned());
        all
    }
}

/// A name that could not be hidden, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unresolved {
    pub name: String,
    pub reason: UnresolvedReason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnresolvedReason {
    /// No table or column of that name.
    NotFound,
    /// A view's column: a view cannot be rebuilt without it.
    ViewColumn,
}

impl fmt::Display for Unresolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason {
            UnresolvedReason::NotFound => {
                write!(
                    f,
                    "{}: this database has no such table or column",
                    self.name
                )
            }
            UnresolvedReason::ViewColumn => write!(
                f,
                "{}: a view's column cannot be hidden alone; hide the view, or the table's \
                 column it shows",
                self.name
            ),
        }
    }
}

enum Target {
    Table(String),
    Column(String, String),
}

/// A whole name is a table first; otherwise `table.column`, split at any dot (table names may
/// hold dots too).
fn resolve_one(schema: &Schema, name: &str) -> Result<Target, UnresolvedReason> {
    if let Some(table) = schema.table(name) {
        return Ok(Target::Table(table.name.clone()));
    }
    let mut reason = UnresolvedReason::NotFound;
    for (dot, _) in name.match_indices('.') {
        let (table_name, column_name) = (&name[..dot], &name[dot + 1..]);
        let Some(table) = schema.table(table_name) else {
            continue;
        };
        let Some(column) = table.column(column_name) else {
            continue;
        };
        if table.kind == TableKind::View {
            reason = UnresolvedReason::ViewColumn;
            continue;
        }
        return Ok(Target::Column(table.name.clone(), column.name.clone()));
    }
    Err(reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::schema::Table;

    fn table(name: &str, kind: TableKind, columns: &[&str]) -> Table {
        Table::of_text_columns(name, kind, columns)
    }

    fn schema() -> Schema {
        Schema {
            tables: vec![
                table("customers", TableKind::Table, &["id", "email"]),
                table("payments", TableKind::Table, &["id", "card"]),
                table("v.x", TableKind::Table, &["y"]),
                table("mailing", TableKind::View, &["email"]),
            ],
        }
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn names_resolve_to_tables_and_columns_as_the_schema_spells_them() {
        let (hidden, unresolved) = Hidden::resolve(
            &schema(),
            &names(&["PAYMENTS", "Customers.EMAIL", " v.x.y ", ""]),
        );
        assert!(unresolved.is_empty(), "{unresolved:?}");
        assert!(hidden.hides_table("payments"));
        assert!(hidden.hides_column("customers", "email"));
        assert!(hidden.hides_column("v.x", "y"));
        assert_eq!(hidden.names(), ["customers.email", "payments", "v.x.y"]);
    }

    #[test]
    fn unknown_names_and_view_columns_are_reported_with_a_reason() {
        let (hidden, unresolved) = Hidden::resolve(
            &schema(),
            &names(&["nope", "customers.nope", "mailing.email"]),
        );
        assert!(hidden.is_empty());
        let messages: Vec<String> = unresolved.iter().map(|u| u.to_string()).collect();
        assert_eq!(
            messages,
            [
                "nope: this database has no such table or column",
                "customers.nope: this database has no such table or column",
                "mailing.email: a view's column cannot be hidden alone; hide the view, or the \
                 table's column it shows",
            ]
        );
    }

    #[test]
    fn toggling_twice_gives_back_the_same_choice() {
        let mut hidden = Hidden::default();
        hidden.toggle_column("customers", "email");
        hidden.toggle_table("payments");
        assert_eq!(hidden.names(), ["customers.email", "payments"]);
        hidden.toggle_column("CUSTOMERS", "Email");
        hidden.toggle_table("Payments");
        assert!(hidden.is_empty());
    }

    #[test]
    fn showing_one_thing_again_keeps_the_rest_hidden() {
        let mut hidden = Hidden::default();
        hidden.toggle_column("customers", "email");
        hidden.toggle_column("customers", "id");
        hidden.toggle_column("mailing", "email");
        hidden.toggle_table("payments");
        hidden.toggle_table("v.x");
        hidden.toggle_column("Customers", "EMAIL");
        hidden.toggle_table("PAYMENTS");
        assert_eq!(hidden.names(), ["customers.id", "mailing.email", "v.x"]);
    }

    #[test]
    fn a_column_of_a_hidden_table_is_named_once_with_its_table() {
        let mut hidden = Hidden::default();
        hidden.toggle_column("payments", "card");
        hidden.toggle_table("payments");
        assert_eq!(hidden.names(), ["payments"]);
    }

    #[test]
    fn a_kept_choice_keeps_only_what_the_schema_still_has() {
        let mut kept = Hidden::default();
        kept.toggle_table("gone");
        kept.toggle_column("customers", "email");
        let within = kept.within(&schema());
        assert_eq!(within.names(), ["customers.email"]);
    }
}
