//! The sink for native hosts: rusqlite (the tests, the benchmark). One prepared statement per
//! table, all rows in one transaction.

use super::sink::Sink;
use crate::engine::Value;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, Statement};

pub struct RusqliteSink<'c> {
    conn: &'c Connection,
    insert: Option<Statement<'c>>,
    began: bool,
}

impl<'c> RusqliteSink<'c> {
    /// Writes into `conn` (usually `Connection::open_in_memory()`, or a new file).
    pub fn new(conn: &'c Connection) -> Self {
        RusqliteSink {
            conn,
            insert: None,
            began: false,
        }
    }
}

fn text(e: rusqlite::Error) -> String {
    e.to_string()
}

impl Sink for RusqliteSink<'_> {
    fn create_table(&mut self, create_sql: &str, insert_sql: &str) -> Result<(), String> {
        if !self.began {
            self.conn.execute_batch("BEGIN").map_err(text)?;
            self.began = true;
        }
        self.insert = None;
        self.conn.execute_batch(create_sql).map_err(text)?;
        self.insert = Some(self.conn.prepare(insert_sql).map_err(text)?);
        Ok(())
    }

    fn insert(&mut self, row: &[Value]) -> Result<(), String> {
        let statement = self.insert.as_mut().ok_or("no table was made")?;
        for (i, v) in row.iter().enumerate() {
            let value = match v {
                Value::Null => ValueRef::Null,
                Value::Integer(n) => ValueRef::Integer(*n),
                Value::Real(r) => ValueRef::Real(*r),
                Value::Text(t) => ValueRef::Text(t.as_bytes()),
                Value::Blob(b) => ValueRef::Blob(b),
            };
            statement
                .raw_bind_parameter(i + 1, ToSqlOutput::Borrowed(value))
                .map_err(text)?;
        }
        statement.raw_execute().map_err(text)?;
        Ok(())
    }

    fn commit(&mut self) -> Result<(), String> {
        self.insert = None;
        if self.began {
            self.conn.execute_batch("COMMIT").map_err(text)?;
            self.began = false;
        }
        Ok(())
    }
}
