//! The SQL that turns a writable copy of the database into one where the hidden tables and
//! columns do not exist.
//!
//! - Every view and trigger is dropped first (rebuilding a table they name would fail), and
//!   those that name nothing hidden are created again at the end, from their own text.
//! - Hidden tables and views are dropped.
//! - A table with hidden columns, or with a foreign key to something hidden, is rebuilt from the
//!   schema without them: its visible data copied (rowids too), the old table dropped, the new
//!   one renamed, its indexes that name nothing hidden created again.
//! - `VACUUM` last, so that no freed page still holds a hidden value or name. (It renumbers the
//!   rowids of tables without an `INTEGER PRIMARY KEY`, keeping their order.)
//!
//! "Names something hidden" is decided on the object's tokens, erring towards dropping: a name
//! or a quoted name equal to a hidden table, column or dropped view (any case), or a string or
//! comment that contains one. A dropped view or index costs the model a shortcut; a kept one
//! could carry a hidden name into the copy.
//!
//! The rebuilt table is declared from the schema: names, types, `NOT NULL`, the primary key
//! (`INTEGER PRIMARY KEY` stays the rowid) and the foreign keys to visible things. Defaults,
//! `CHECK` and `UNIQUE` only guard writes, and the copy is only read, so they are left out.
//! Column collations are not in the schema either: a rebuilt column compares with `BINARY`.

use crate::engine::schema::{Schema, Table};
use crate::engine::{query, Database, DbError, QueryLimits, Value};
use crate::sql::lexer::{significant_tokens, tokenize, TokenKind};
use crate::sql::{ident, quote_ident};
use std::fmt::Write;

use super::Hidden;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    Table,
    View,
    Index,
    Trigger,
}

/// One row of `sqlite_schema`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogueEntry {
    pub kind: ObjectKind,
    pub name: String,
    /// The table an index or trigger belongs to; for a table or view, its own name.
    pub table: String,
    /// The statement that made it; `None` for the indexes SQLite makes itself.
    pub sql: Option<String>,
}

/// Reads `sqlite_schema`, in the order the objects were made. A server that answers at most so
/// many rows (Datasette's row cap) is asked for the rest, part by part: the catalogue is never
/// cut short in silence.
pub async fn load_catalogue<D: Database + ?Sized>(db: &D) -> Result<Vec<CatalogueEntry>, DbError> {
    let limits = QueryLimits {
        max_rows: 1_000_000,
        deadline_ms: 10_000,
    };
    let text = |value: &Value| match value {
        Value::Text(text) => Some(text.clone()),
        _ => None,
    };
    let mut entries = Vec::new();
    let mut after = i64::MIN;
    loop {
        let result = query(
            db,
            &format!(
                "SELECT type, name, tbl_name, sql, rowid FROM sqlite_schema WHERE rowid > {after} \
                 ORDER BY rowid"
            ),
            &limits,
        )
        .await?;
        entries.extend(result.rows.iter().filter_map(|row| {
            let kind = match text(&row[0])?.as_str() {
                "table" => ObjectKind::Table,
                "view" => ObjectKind::View,
                "index" => ObjectKind::Index,
                "trigger" => ObjectKind::Trigger,
                _ => return None,
            };
            Some(CatalogueEntry {
                kind,
                name: text(&row[1])?,
                table: text(&row[2]).unwrap_or_default(),
                sql: text(&row[3]),
            })
        }));
        let last = result.rows.last().and_then(|row| match row.get(4) {
            Some(Value::Integer(rowid)) => Some(*rowid),
            _ => None,
        });
        match last {
            Some(rowid) if result.truncated && rowid > after => after = rowid,
            _ if result.truncated => {
                return Err(DbError::Unavailable(
                    "the database's catalogue (sqlite_schema) could not be read whole".into(),
                ))
            }
            _ => return Ok(entries),
        }
    }
}

/// The script that removes what `hidden` names from a writable copy of the database that
/// `schema` and `catalogue` describe. Empty when nothing is hidden.
///
/// The texts of kept views, triggers and indexes come from the database itself and run only
/// after every hidden table and column is gone, on the copy: whatever they do, nothing hidden
/// is left for them to read.
pub fn derive_script(schema: &Schema, catalogue: &[CatalogueEntry], hidden: &Hidden) -> String {
    if hidden.is_empty() {
        return String::new();
    }
    let forbidden = forbidden_names(catalogue, hidden);
    let mentions_hidden = |entry: &CatalogueEntry| {
        entry
            .sql
            .as_deref()
            .is_none_or(|sql| mentions_any(sql, &forbidden))
    };
    let rebuilt: Vec<&Table> = schema
        .tables
        .iter()
        .filter(|t| t.kind == crate::engine::TableKind::Table && needs_rebuild(t, hidden))
        .collect();

    // A file in WAL mode would write its changes beside the file, not into the bytes exported.
    let mut script =
        String::from("PRAGMA journal_mode=DELETE;\nPRAGMA foreign_keys=OFF;\nBEGIN;\n");
    for entry in catalogue {
        match entry.kind {
            ObjectKind::View => line(&mut script, "DROP VIEW", &entry.name),
            ObjectKind::Trigger => line(&mut script, "DROP TRIGGER", &entry.name),
            _ => {}
        }
    }
    for entry in catalogue.iter().filter(|e| e.kind == ObjectKind::Table) {
        if hidden.hides_table(&entry.name) {
            line(&mut script, "DROP TABLE", &entry.name);
        }
    }
    let spare = spare_name(catalogue);
    for table in &rebuilt {
        let definition = catalogue
            .iter()
            .find(|e| e.kind == ObjectKind::Table && e.name == table.name)
            .and_then(|e| e.sql.as_deref())
            .unwrap_or_default();
        rebuild(&mut script, table, definition, hidden, &spare);
        for index in catalogue
            .iter()
            .filter(|e| e.kind == ObjectKind::Index && e.table.eq_ignore_ascii_case(&table.name))
        {
            if let (Some(sql), false) = (&index.sql, mentions_hidden(index)) {
                let _ = writeln!(script, "{sql};");
            }
        }
    }
    for entry in catalogue {
        let kept =
            matches!(entry.kind, ObjectKind::View | ObjectKind::Trigger) && !mentions_hidden(entry);
        if let (true, Some(sql)) = (kept, &entry.sql) {
            let _ = writeln!(script, "{sql};");
        }
    }
    script.push_str("COMMIT;\nVACUUM;\n");
    script
}

fn line(script: &mut String, statement: &str, name: &str) {
    let _ = writeln!(script, "{statement} {};", quote_ident(name));
}

/// A table is rebuilt when it loses columns, or keeps a foreign key that names something hidden.
fn needs_rebuild(table: &Table, hidden: &Hidden) -> bool {
    if hidden.hides_table(&table.name) {
        return false;
    }
    let loses_columns = table
        .columns
        .iter()
        .any(|c| hidden.hides_column(&table.name, &c.name));
    loses_columns
        || table
            .foreign_keys
            .iter()
            .any(|key| !key_is_visible(table, key, hidden))
}

fn key_is_visible(table: &Table, key: &crate::engine::schema::ForeignKey, hidden: &Hidden) -> bool {
    !hidden.hides_table(&key.to_table)
        && key
            .from_columns
            .iter()
            .all(|c| !hidden.hides_column(&table.name, c))
        && key
            .to_columns
            .iter()
            .all(|c| !hidden.hides_column(&key.to_table, c))
}

/// The names a kept object may not mention: hidden tables and columns, and every view that is
/// dropped because it mentions one (views built on views, to a fixed point).
fn forbidden_names(catalogue: &[CatalogueEntry], hidden: &Hidden) -> Vec<String> {
    let mut forbidden: Vec<String> = hidden
        .tables
        .iter()
        .chain(hidden.columns.iter().map(|(_, column)| column))
        .cloned()
        .collect();
    // A hidden table's columns need no place here: a statement reaches them only through the
    // table's name (or a view's, dropped below), and listing them would drop every view that
    // shares a column name such as `id` with it.
    loop {
        let newly_dropped: Vec<String> = catalogue
            .iter()
            .filter(|e| e.kind == ObjectKind::View)
            .filter(|e| !forbidden.iter().any(|f| f.eq_ignore_ascii_case(&e.name)))
            .filter(|e| {
                e.sql
                    .as_deref()
                    .is_none_or(|sql| mentions_any(sql, &forbidden))
            })
            .map(|e| e.name.clone())
            .collect();
        if newly_dropped.is_empty() {
            return forbidden;
        }
        forbidden.extend(newly_dropped);
    }
}

/// True when `sql` names one of `names` (any ASCII case), or a string or comment in it contains
/// one; also when SQLite's tokens cannot be read (then nothing can be vouched for).
fn mentions_any(sql: &str, names: &[String]) -> bool {
    let Ok(tokens) = tokenize(sql) else {
        return true;
    };
    let lowered: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    tokens.iter().any(|token| match token.kind {
        TokenKind::Word | TokenKind::QuotedName => token
            .name()
            .is_some_and(|name| names.iter().any(|n| n.eq_ignore_ascii_case(&name))),
        TokenKind::String | TokenKind::Comment | TokenKind::Unknown => {
            let text = token.text.to_lowercase();
            lowered.iter().any(|n| text.contains(n.as_str()))
        }
        _ => false,
    })
}

/// A table name no object has, for the table being built.
fn spare_name(catalogue: &[CatalogueEntry]) -> String {
    (0..)
        .map(|n| format!("askdb_rebuilt_{n}"))
        .find(|name| !catalogue.iter().any(|e| e.name.eq_ignore_ascii_case(name)))
        .expect("some number is free")
}

/// Writes the statements that rebuild `table` without its hidden columns and keys.
fn rebuild(script: &mut String, table: &Table, definition: &str, hidden: &Hidden, spare: &str) {
    let visible: Vec<&crate::engine::schema::Column> = table
        .columns
        .iter()
        .filter(|c| !hidden.hides_column(&table.name, &c.name))
        .collect();
    let mut primary: Vec<_> = table.columns.iter().filter(|c| c.primary_key > 0).collect();
    primary.sort_by_key(|c| c.primary_key);
    // A key that lost a column may no longer be unique: the copy has none.
    let keeps_key = !primary.is_empty()
        && primary
            .iter()
            .all(|c| !hidden.hides_column(&table.name, &c.name));
    let rowid_alias =
        keeps_key && primary.len() == 1 && primary[0].decl_type.eq_ignore_ascii_case("INTEGER");
    // A WITHOUT ROWID table that loses its key is rebuilt as an ordinary table; it still has
    // no rowid to copy from.
    let had_rowid = !declared_without_rowid(definition);
    let without_rowid = keeps_key && !had_rowid;

    let mut parts: Vec<String> = visible
        .iter()
        .map(|c| {
            let mut part = format!("{} {}", ident(&c.name), c.decl_type);
            if rowid_alias && c.primary_key > 0 {
                part.push_str(" PRIMARY KEY");
            }
            if c.not_null {
                part.push_str(" NOT NULL");
            }
            part.trim_end().to_string()
        })
        .collect();
    if keeps_key && !rowid_alias {
        parts.push(format!(
            "PRIMARY KEY ({})",
            name_list(primary.iter().map(|c| &c.name))
        ));
    }
    for key in table
        .foreign_keys
        .iter()
        .filter(|k| key_is_visible(table, k, hidden))
    {
        let mut part = format!(
            "FOREIGN KEY ({}) REFERENCES {}",
            name_list(key.from_columns.iter()),
            quote_ident(&key.to_table)
        );
        if !key.to_columns.is_empty() {
            let _ = write!(part, " ({})", name_list(key.to_columns.iter()));
        }
        parts.push(part);
    }

    let columns = name_list(visible.iter().map(|c| &c.name));
    // Rowids are copied (a column called rowid hides them), so that rows keep their order: the
    // SELECT alone may read them in the order of an index. The `VACUUM` at the end renumbers
    // them, in order, in every table without an `INTEGER PRIMARY KEY`, rebuilt or not: only
    // rowids that are a key stay the original's.
    let keeps_rowid = had_rowid
        && !table.columns.iter().any(|c| {
            ["rowid", "oid", "_rowid_"]
                .iter()
                .any(|r| r.eq_ignore_ascii_case(&c.name))
        });
    let (into, select) = if keeps_rowid {
        (format!("rowid, {columns}"), format!("rowid, {columns}"))
    } else {
        (columns.clone(), columns)
    };
    let name = quote_ident(&table.name);
    let spare = quote_ident(spare);
    let _ = writeln!(
        script,
        "CREATE TABLE {spare} ({}){};",
        parts.join(", "),
        if without_rowid { " WITHOUT ROWID" } else { "" }
    );
    let _ = writeln!(
        script,
        "INSERT INTO {spare} ({into}) SELECT {select} FROM {name};"
    );
    let _ = writeln!(script, "DROP TABLE {name};");
    let _ = writeln!(script, "ALTER TABLE {spare} RENAME TO {name};");
}

fn name_list<'a>(names: impl Iterator<Item = &'a String>) -> String {
    names.map(|n| ident(n)).collect::<Vec<_>>().join(", ")
}

/// True when the table's own statement ends in `WITHOUT ROWID`.
fn declared_without_rowid(definition: &str) -> bool {
    let Ok(tokens) = significant_tokens(definition) else {
        return false;
    };
    let words: Vec<_> = tokens.iter().rev().take(2).collect();
    words.len() == 2 && words[0].is_keyword("ROWID") && words[1].is_keyword("WITHOUT")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_mention_is_a_name_a_string_or_a_comment_in_any_case() {
        let hidden = names(&["email"]);
        assert!(mentions_any(
            "CREATE VIEW v AS SELECT EMAIL FROM c",
            &hidden
        ));
        assert!(mentions_any(
            "CREATE VIEW v AS SELECT \"Email\" FROM c",
            &hidden
        ));
        assert!(mentions_any(
            "CREATE VIEW v AS SELECT [email] FROM c",
            &hidden
        ));
        assert!(mentions_any(
            "CREATE VIEW v AS SELECT x -> '$.email' FROM c",
            &hidden
        ));
        assert!(mentions_any(
            "CREATE VIEW v AS SELECT x /* the email */ FROM c",
            &hidden
        ));
        assert!(!mentions_any(
            "CREATE VIEW v AS SELECT emails, e_mail FROM c",
            &hidden
        ));
        // Text SQLite could not read either vouches for nothing.
        assert!(mentions_any("CREATE VIEW v AS SELECT 'x", &hidden));
    }

    #[test]
    fn without_rowid_is_read_from_the_statement_end() {
        assert!(declared_without_rowid(
            "CREATE TABLE t (a PRIMARY KEY) without  rowid"
        ));
        assert!(!declared_without_rowid(
            "CREATE TABLE t (a, \"without rowid\")"
        ));
        // A column called `without` at the end is not the clause.
        assert!(!declared_without_rowid("CREATE TABLE t (a, without)"));
        // No statement found (`derive_script` reads "" then): an ordinary table.
        assert!(!declared_without_rowid(""));
    }

    #[test]
    fn the_table_being_built_has_a_name_no_object_has() {
        let entry = |kind, name: &str| CatalogueEntry {
            kind,
            name: name.into(),
            table: "t".into(),
            sql: None,
        };
        assert_eq!(spare_name(&[]), "askdb_rebuilt_0");
        let taken = [
            entry(ObjectKind::Table, "askdb_rebuilt_0"),
            entry(ObjectKind::Index, "ASKDB_REBUILT_1"),
            entry(ObjectKind::View, "askdb_rebuilt_3"),
        ];
        assert_eq!(spare_name(&taken), "askdb_rebuilt_2");
    }

    #[test]
    fn nothing_hidden_needs_no_script() {
        assert_eq!(
            derive_script(&Schema::default(), &[], &Hidden::default()),
            ""
        );
    }
}
