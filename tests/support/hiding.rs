//! Databases with secrets to hide, and the copy the page would give the agent, made here with
//! rusqlite from the same script the page's worker applies.

use super::RusqliteDb;
use askdb::engine::hidden::{derive_script, load_catalogue, Hidden};
use askdb::engine::{schema, QueryLimits};
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// Every marker value starts with this; no dataset holds it.
pub const MARKER: &str = "ZQX7-MARK";
/// Names that exist only in the secrets added by [`with_secrets`].
pub const SECRET_COLUMN: &str = "askdb_secret_col";
pub const VAULT_TABLE: &str = "askdb_vault";
pub const VAULT_COLUMN: &str = "vault_code_zq";
/// A view, an index and a trigger that name the secrets: all must go with them.
pub const SECRET_OBJECTS: [&str; 3] = ["askdb_peek_view", "askdb_secret_idx", "askdb_vault_trg"];

/// A file of its own under the temp directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(label: &str) -> Scratch {
        let path =
            std::env::temp_dir().join(format!("askdb-hidden-{}-{label}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A copy of `dataset` where `table` has a column of marker values, with a view reading it and an
/// index on it, plus a whole table of markers with a trigger.
pub fn with_secrets(dataset: &Path, table: &str, label: &str) -> Scratch {
    let copy = Scratch::new(label);
    std::fs::copy(dataset, &copy.0).expect("copy the dataset");
    let connection = Connection::open(&copy.0).expect("open the copy");
    let table = askdb::sql::quote_ident(table);
    connection
        .execute_batch(&format!(
            "ALTER TABLE {table} ADD COLUMN {SECRET_COLUMN} TEXT;
             UPDATE {table} SET {SECRET_COLUMN} = '{MARKER}-' || rowid || '-secret';
             CREATE INDEX askdb_secret_idx ON {table} ({SECRET_COLUMN});
             CREATE VIEW askdb_peek_view AS SELECT {SECRET_COLUMN} AS peek FROM {table};
             CREATE TABLE {VAULT_TABLE} (id INTEGER PRIMARY KEY, {VAULT_COLUMN} TEXT NOT NULL);
             INSERT INTO {VAULT_TABLE} ({VAULT_COLUMN}) VALUES
                 ('{MARKER}-vault-1'), ('{MARKER}-vault-2'), ('{MARKER}-vault-3');
             CREATE TRIGGER askdb_vault_trg AFTER INSERT ON {VAULT_TABLE}
                 BEGIN SELECT 1; END;"
        ))
        .expect("add the secrets");
    copy
}

/// What deriving gave: the copy, the script, and what was hidden.
pub struct Derived {
    pub copy: Scratch,
    pub script: String,
    pub hidden: Hidden,
}

/// The copy of `original` without `names` (`table` or `table.column`), made as the page makes
/// it: the schema and catalogue read through `Database`, the script applied to a writable copy.
pub fn derive(original: &Path, names: &[&str], label: &str) -> Derived {
    let db = RusqliteDb::open(original);
    let schema =
        futures::executor::block_on(schema::load(&db, &QueryLimits::default())).expect("schema");
    let catalogue = futures::executor::block_on(load_catalogue(&db)).expect("catalogue");
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let (hidden, unresolved) = Hidden::resolve(&schema, &names);
    assert!(unresolved.is_empty(), "{unresolved:?}");
    let script = derive_script(&schema, &catalogue, &hidden);

    let copy = Scratch::new(label);
    std::fs::copy(original, &copy.0).expect("copy");
    let connection = Connection::open(&copy.0).expect("open the copy");
    connection
        .execute_batch(&script)
        .unwrap_or_else(|e| panic!("the script failed: {e}\n{script}"));
    drop(connection);
    Derived {
        copy,
        script,
        hidden,
    }
}

/// Where `needle` (ASCII, any case) occurs in the file's bytes, if it does.
pub fn find_in_bytes(path: &Path, needle: &str) -> Option<usize> {
    let bytes = std::fs::read(path)
        .expect("read the file")
        .to_ascii_lowercase();
    let needle = needle.to_ascii_lowercase().into_bytes();
    bytes.windows(needle.len()).position(|w| w == needle)
}
