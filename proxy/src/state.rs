//! The state file (SQLite): the day's counters, written as they change so that a restart is
//! not a reset, and the salt readers' addresses are hashed with.

use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The state file could not be opened or written.
#[derive(Debug)]
pub struct StateError {
    path: PathBuf,
    error: String,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the state file {} cannot be used ({}): check the config's `state` and that its folder is writable",
            self.path.display(),
            self.error
        )
    }
}

impl std::error::Error for StateError {}

pub struct State {
    connection: Connection,
    path: PathBuf,
}

impl State {
    pub fn open(path: &Path) -> Result<State, StateError> {
        let failed = |error: rusqlite::Error| StateError {
            path: path.to_path_buf(),
            error: error.to_string(),
        };
        let connection = Connection::open(path).map_err(failed)?;
        // WAL with NORMAL sync: a write per request stays cheap, and a crash loses at most the
        // last moment's counts, never the file.
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL;
                 PRAGMA synchronous = NORMAL;
                 CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
                 CREATE TABLE IF NOT EXISTS counters (
                     day TEXT NOT NULL, name TEXT NOT NULL, value INTEGER NOT NULL,
                     PRIMARY KEY (day, name));",
            )
            .map_err(failed)?;
        Ok(State {
            connection,
            path: path.to_path_buf(),
        })
    }

    fn failed(&self, error: rusqlite::Error) -> StateError {
        StateError {
            path: self.path.clone(),
            error: error.to_string(),
        }
    }

    /// The salt for readers' hashes: made once, then kept (a new one would make every reader
    /// new, and their day's counts lost).
    pub fn salt(&self) -> Result<Vec<u8>, StateError> {
        let kept: Option<Vec<u8>> = self
            .connection
            .query_row("SELECT value FROM meta WHERE key = 'salt'", [], |row| {
                row.get(0)
            })
            .optional()
            .map_err(|error| self.failed(error))?;
        if let Some(salt) = kept {
            return Ok(salt);
        }
        let mut salt = vec![0u8; 32];
        getrandom::fill(&mut salt).map_err(|error| StateError {
            path: self.path.clone(),
            error: format!("no random salt: {error}"),
        })?;
        self.connection
            .execute(
                "INSERT INTO meta (key, value) VALUES ('salt', ?1)",
                params![salt],
            )
            .map_err(|error| self.failed(error))?;
        Ok(salt)
    }

    /// Every counter of `day`.
    pub fn day(&self, day: &str) -> Result<HashMap<String, u64>, StateError> {
        let mut statement = self
            .connection
            .prepare("SELECT name, value FROM counters WHERE day = ?1")
            .map_err(|error| self.failed(error))?;
        let rows = statement
            .query_map(params![day], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
            })
            .map_err(|error| self.failed(error))?;
        let mut counters = HashMap::new();
        for row in rows {
            let (name, value) = row.map_err(|error| self.failed(error))?;
            counters.insert(name, value.max(0) as u64);
        }
        Ok(counters)
    }

    pub fn set(&self, day: &str, name: &str, value: u64) -> Result<(), StateError> {
        self.connection
            .execute(
                "INSERT INTO counters (day, name, value) VALUES (?1, ?2, ?3)
                 ON CONFLICT (day, name) DO UPDATE SET value = excluded.value",
                params![day, name, value.min(i64::MAX as u64) as i64],
            )
            .map(|_| ())
            .map_err(|error| self.failed(error))
    }

    /// Drops the counters of days before `day`: only today's limit anything.
    pub fn forget_before(&self, day: &str) -> Result<(), StateError> {
        self.connection
            .execute("DELETE FROM counters WHERE day < ?1", params![day])
            .map(|_| ())
            .map_err(|error| self.failed(error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_and_salt_survive_reopening() {
        let folder = std::env::temp_dir().join(format!("askdb-proxy-state-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("state.sqlite");
        let _ = std::fs::remove_file(&path);
        let salt = {
            let state = State::open(&path).unwrap();
            state.set("2026-12-04", "requests:music", 7).unwrap();
            state.set("2026-12-04", "requests:music", 8).unwrap();
            state.set("2026-12-03", "requests:music", 99).unwrap();
            state.salt().unwrap()
        };
        let state = State::open(&path).unwrap();
        assert_eq!(state.salt().unwrap(), salt);
        assert_eq!(state.day("2026-12-04").unwrap()["requests:music"], 8);
        state.forget_before("2026-12-04").unwrap();
        assert!(state.day("2026-12-03").unwrap().is_empty());
        drop(state);
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
