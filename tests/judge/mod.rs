//! The judge's own view of what may run, for `tests/guard_oracle.rs`: which functions act
//! outside the query and which pragma functions only read the schema. Written from each
//! function's and pragma's documentation, and never taken from the guard
//! (`askdb::sql::guard::FORBIDDEN_FUNCTIONS`, `READ_ONLY_PRAGMAS`): a judge that imported the
//! guard's lists would move with them, and a name dropped from the guard's list of forbidden
//! functions (or added to its list of pragmas) would go unseen.
//!
//! The functions here that this SQLite does not have (the sqlite3 shell's, extensions') are
//! registered on the oracle's connection as stubs that do nothing ([`register_stubs`]), so that a
//! text calling one prepares and the judge sees the call, as an engine that has them would run
//! it.
#![allow(dead_code)] // the oracle uses every part; the module is kept apart for reading

use rusqlite::ffi;
use rusqlite::functions::FunctionFlags;
use rusqlite::vtab::{
    eponymous_only_module, Context, Filters, IndexInfo, VTab, VTabConnection, VTabCursor,
};
use rusqlite::Connection;
use std::ffi::c_int;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

/// Scalar functions that act outside the query's result, with what each does.
pub const FUNCTIONS_OUTSIDE_THE_QUERY: &[(&str, &str)] = &[
    // https://sqlite.org/lang_corefunc.html#load_extension
    (
        "load_extension",
        "loads a shared library into SQLite and runs its entry point",
    ),
    // https://sqlite.org/fts3.html#custom_application_defined_tokenizers
    (
        "fts3_tokenizer",
        "registers an FTS3 tokenizer given the address of its C structure",
    ),
    // https://sqlite.org/cli.html#file_i_o_functions
    ("readfile", "the sqlite3 shell: reads a file of the machine"),
    (
        "writefile",
        "the sqlite3 shell: writes a file of the machine",
    ),
    (
        "edit",
        "the sqlite3 shell: opens a text editor on the machine",
    ),
    // ext/misc/eval.c in SQLite's sources
    ("eval", "runs any SQL text it is given, writes included"),
    // sqlean's fileio extension
    ("fileio_read", "sqlean: reads a file of the machine"),
    ("fileio_write", "sqlean: writes a file of the machine"),
];

/// Table-valued functions that act outside the query, with what each does.
pub const TABLES_OUTSIDE_THE_QUERY: &[(&str, &str)] = &[
    // https://sqlite.org/cli.html#file_i_o_functions
    (
        "fsdir",
        "the sqlite3 shell: lists the machine's directories and files",
    ),
    // https://sqlite.org/zipfile.html
    ("zipfile", "reads a zip archive from the machine's disk"),
    // sqlean's fileio extension
    ("fileio_ls", "sqlean: lists a directory of the machine"),
];

/// The pragmas whose table-valued functions (`pragma_<name>`) only read the schema, with what
/// each returns (https://sqlite.org/pragma.html). Every other pragma is a finding: SQLite runs
/// `PRAGMA <name>=<argument>` behind the function, and some do more than read
/// (`pragma_optimize` runs ANALYZE, which writes `sqlite_stat1`).
pub const PRAGMAS_THAT_READ_THE_SCHEMA: &[(&str, &str)] = &[
    ("table_info", "one row per column of a table or view"),
    (
        "table_xinfo",
        "the same, hidden and generated columns included",
    ),
    ("table_list", "the tables and views of the schema"),
    ("index_list", "the indexes of a table"),
    ("index_info", "the columns of an index"),
    (
        "index_xinfo",
        "the columns of an index, the key's others included",
    ),
    ("foreign_key_list", "the foreign keys of a table"),
    ("collation_list", "the collating sequences defined"),
    ("function_list", "the SQL functions known to the connection"),
    (
        "module_list",
        "the virtual table modules known to the connection",
    ),
    ("pragma_list", "the pragmas known to this SQLite"),
    ("database_list", "the databases attached to the connection"),
];

/// Where the judge writes what it saw: one line per action that is not a plain read.
pub type Findings = Arc<Mutex<Vec<String>>>;

/// `Some(what it does)` when `name` (any case) acts outside the query.
pub fn function_outside_the_query(name: &str) -> Option<&'static str> {
    FUNCTIONS_OUTSIDE_THE_QUERY
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, what)| *what)
}

/// True when `pragma_<name>` only reads the schema.
pub fn pragma_reads_the_schema(name: &str) -> bool {
    PRAGMAS_THAT_READ_THE_SCHEMA
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(name))
}

/// Registers a stub for every function and table-valued function above that `connection` does
/// not have. A scalar stub returns NULL (the authorizer reports its call when a statement is
/// prepared); a table-valued stub has no rows and writes a finding whenever SQLite plans a
/// query on it.
pub fn register_stubs(connection: &Connection, findings: &Findings) {
    for (name, _) in FUNCTIONS_OUTSIDE_THE_QUERY {
        if !has_function(connection, name) {
            connection
                .create_scalar_function(*name, -1, FunctionFlags::SQLITE_UTF8, |_| {
                    Ok(rusqlite::types::Null)
                })
                .unwrap_or_else(|e| panic!("a stub for {name}(): {e}"));
        }
    }
    for (name, what) in TABLES_OUTSIDE_THE_QUERY {
        let aux = StubAux {
            finding: format!("the table-valued function {name}() reached SQLite ({what})"),
            findings: findings.clone(),
        };
        connection
            .create_module(*name, eponymous_only_module::<StubTable>(), Some(aux))
            .unwrap_or_else(|e| panic!("a stub for {name}(): {e}"));
    }
}

fn has_function(connection: &Connection, name: &str) -> bool {
    connection
        .query_row(
            "SELECT count(*) FROM pragma_function_list WHERE name = ?1",
            [name],
            |row| row.get::<_, i64>(0),
        )
        .expect("pragma_function_list")
        > 0
}

struct StubAux {
    finding: String,
    findings: Findings,
}

/// A table-valued function with three arguments and no rows.
#[repr(C)]
struct StubTable {
    /// SQLite's part; must come first.
    base: ffi::sqlite3_vtab,
    finding: String,
    findings: Findings,
}

unsafe impl<'vtab> VTab<'vtab> for StubTable {
    type Aux = StubAux;
    type Cursor = NoRows<'vtab>;

    fn connect(
        _db: &mut VTabConnection,
        aux: Option<&StubAux>,
        _args: &[&[u8]],
    ) -> rusqlite::Result<(String, StubTable)> {
        let aux = aux.expect("every stub module is registered with its finding");
        let table = StubTable {
            base: ffi::sqlite3_vtab::default(),
            finding: aux.finding.clone(),
            findings: aux.findings.clone(),
        };
        let columns = "CREATE TABLE x(value, a1 HIDDEN, a2 HIDDEN, a3 HIDDEN)";
        Ok((columns.to_string(), table))
    }

    fn best_index(&self, info: &mut IndexInfo) -> rusqlite::Result<()> {
        self.findings.lock().unwrap().push(self.finding.clone());
        // Take every usable constraint (the function's arguments among them), so that SQLite
        // finds a plan whatever the arguments.
        let usable: Vec<usize> = info
            .constraints()
            .enumerate()
            .filter(|(_, c)| c.is_usable())
            .map(|(i, _)| i)
            .collect();
        for (n, i) in usable.into_iter().enumerate() {
            let mut usage = info.constraint_usage(i);
            usage.set_argv_index(n as c_int + 1);
            usage.set_omit(true);
        }
        Ok(())
    }

    fn open(&'vtab mut self) -> rusqlite::Result<NoRows<'vtab>> {
        Ok(NoRows {
            base: ffi::sqlite3_vtab_cursor::default(),
            table: PhantomData,
        })
    }
}

#[repr(C)]
struct NoRows<'vtab> {
    /// SQLite's part; must come first.
    base: ffi::sqlite3_vtab_cursor,
    table: PhantomData<&'vtab StubTable>,
}

unsafe impl VTabCursor for NoRows<'_> {
    fn filter(&mut self, _: c_int, _: Option<&str>, _: &Filters<'_>) -> rusqlite::Result<()> {
        Ok(())
    }
    fn next(&mut self) -> rusqlite::Result<()> {
        Ok(())
    }
    fn eof(&self) -> bool {
        true
    }
    fn column(&self, _: &mut Context, _: c_int) -> rusqlite::Result<()> {
        Ok(())
    }
    fn rowid(&self) -> rusqlite::Result<i64> {
        Ok(0)
    }
}
