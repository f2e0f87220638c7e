//! Why the runner stopped, in words a person can act on, and the exit status that goes with it:
//! 2 when the command line needs fixing, 1 when the run could not be done.

use super::key::key_variables;
use askdb::engine::native::OpenError;
use askdb::engine::DbError;
use askdb::llm::{LlmError, ProviderKind};
use askdb::opened::OpeningError;
use std::fmt;
use std::path::PathBuf;

#[derive(Debug)]
pub enum EvalError {
    /// An argument is missing or wrong.
    BadArgument(String),
    /// No API key in the environment.
    NoKey {
        provider: ProviderKind,
    },
    /// A file named on the command line does not exist.
    MissingFile {
        option: &'static str,
        path: PathBuf,
    },
    /// A question names a database that is not in --db-dir.
    UnknownDatabase {
        name: String,
        tried: Vec<PathBuf>,
    },
    /// The questions file cannot be read as questions.
    Questions {
        path: PathBuf,
        why: String,
    },
    /// The knowledge file cannot be read.
    Notes {
        path: PathBuf,
        why: String,
    },
    /// A database cannot be opened, or its schema not read.
    Database(OpenError),
    Schema {
        path: PathBuf,
        why: DbError,
    },
    /// The model cannot be used at all (unreachable, key refused, no such model): the run stops.
    Model(LlmError),
    /// There is nothing to ask.
    NoQuestions(String),
    /// A conversation file cannot be read, or would not replay.
    Recording {
        path: PathBuf,
        why: String,
    },
    /// The report cannot be written.
    Write {
        path: PathBuf,
        why: std::io::Error,
    },
}

impl EvalError {
    /// The process's exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            EvalError::BadArgument(_)
            | EvalError::NoKey { .. }
            | EvalError::MissingFile { .. }
            | EvalError::UnknownDatabase { .. }
            | EvalError::Recording { .. } => 2,
            _ => 1,
        }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::BadArgument(why) => write!(f, "{why}"),
            EvalError::NoKey { provider } => {
                let [shared, own] = key_variables(*provider);
                write!(
                    f,
                    "no API key: set {own} (or {shared}) in the environment, or pass --no-key \
                     for a local server that needs none"
                )
            }
            EvalError::MissingFile { option, path } => {
                write!(f, "{option} {}: no such file or folder", path.display())
            }
            EvalError::UnknownDatabase { name, tried } => {
                let tried: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "the questions name the database {name:?}, which is not in --db-dir (looked \
                     for {})",
                    tried.join(", ")
                )
            }
            EvalError::Questions { path, why } => {
                write!(f, "cannot read the questions in {}: {why}", path.display())
            }
            EvalError::Notes { path, why } => {
                write!(
                    f,
                    "cannot read the knowledge file {}: {why}",
                    path.display()
                )
            }
            EvalError::Database(error) => write!(f, "{error}"),
            EvalError::Schema { path, why } => {
                write!(f, "cannot read the schema of {}: {why}", path.display())
            }
            EvalError::Model(error) => write!(f, "stopped: {error}"),
            EvalError::NoQuestions(why) => write!(f, "nothing to ask: {why}"),
            EvalError::Recording { path, why } => {
                write!(f, "{}: {why}", path.display())
            }
            EvalError::Write { path, why } => {
                write!(f, "cannot write {}: {why}", path.display())
            }
        }
    }
}

impl std::error::Error for EvalError {}

/// A database that would not open is said as the runner always said it, with its exit status
/// (a bad `--datasette` address is the command line's to fix).
impl From<OpeningError> for EvalError {
    fn from(error: OpeningError) -> EvalError {
        match error {
            OpeningError::Database(error) => EvalError::Database(error),
            OpeningError::Schema { path, why } => EvalError::Schema { path, why },
            OpeningError::Address(why) => EvalError::BadArgument(format!("--datasette: {why}")),
            OpeningError::Notes { path, why } => EvalError::Notes { path, why },
        }
    }
}
