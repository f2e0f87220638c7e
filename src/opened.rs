//! A database opened the way the askdb page opens it, for the native tools (`askdb-eval`'s
//! subcommands, `pin`): the whole file (read-only), the copy the model reads (without what is
//! hidden, and without askdb's knowledge tables, as in the page), and a session on the copy's
//! schema with the knowledge from every source (schema comments, the `askdb_*` tables, a notes
//! file), checked against what the model sees. A recording made or checked here, or a request
//! pinned, therefore sees what a reader's page sends and shows.
//!
//! Native only (rusqlite, a blocking Datasette client). Problems with the knowledge, which do
//! not stop the opening, are written to stderr, for the person at the command line.

use crate::agent::selection::{self, values, values::Bounds};
use crate::agent::Session;
use crate::clock::SystemClock;
use crate::conversation::DatabaseIdentity;
use crate::engine::datasette::native::NativeTransport;
use crate::engine::datasette::{DatasetteAddress, DatasetteDatabase, DatasetteProblem};
use crate::engine::fenced::Fenced;
use crate::engine::hidden::{Hidden, Unresolved};
use crate::engine::identity::Identity;
use crate::engine::kind::DatabaseKind;
use crate::engine::native::file_digest::digest_file;
use crate::engine::native::{OpenError, RusqliteDb};
use crate::engine::schema::Schema;
use crate::engine::{schema, Database, DbError, QueryLimits};
use crate::knowledge::{in_database, sidecar, Knowledge};
use crate::model_view::{self, ModelView, Prepared};
use crate::present;
use futures::executor::block_on;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

/// Row counts in the schema get this long each, as in the page.
const COUNT_LIMITS: QueryLimits = QueryLimits {
    max_rows: 1,
    deadline_ms: 3_000,
};

/// A database opened as the page opens it: what the model reads of it, and the session its
/// questions are asked in.
pub struct Opened<D = RusqliteDb> {
    /// The whole database (behind an empty fence, the same type as the model's): the expected
    /// SQL of a golden question runs here.
    pub whole: Fenced<Rc<D>>,
    /// The database the model reads: the whole one, a file's copy without what is left out,
    /// or a server's database behind a fence of names (`model_view::prepare`).
    pub model_view: Fenced<Rc<D>>,
    pub session: Session,
    /// Names given to hide that the database does not have (or cannot hide), with why.
    pub unresolved: Vec<Unresolved>,
}

impl Opened {
    /// Opens `path` with `notes` (a notes file's knowledge, or none) and the tables and columns
    /// `hide` names (`customers.email`, `payments`: the page's `?hide=`).
    pub fn open(path: &Path, notes: &Knowledge, hide: &[String]) -> Result<Opened, OpeningError> {
        let whole = RusqliteDb::open(path).map_err(OpeningError::Database)?;
        // A file is copied like the page's file in memory.
        let copy = async |_: &RusqliteDb, script: &str| {
            let copy = RusqliteDb::derived(path, script)
                .map_err(|why| DbError::Unavailable(why.to_string()))?;
            let schema = schema::load(&copy, &COUNT_LIMITS).await?;
            Ok((copy, schema))
        };
        Opened::settle(whole, path, notes, hide, DatabaseKind::InMemory, copy)
    }
}

impl Opened<DatasetteDatabase<NativeTransport>> {
    /// Opens the database at the Datasette `address` (`http://host/dbname`), `token` sent to
    /// that server only. Nothing can be taken away from a server: askdb's knowledge tables on it
    /// are fenced off by name for the model (`model_view::knowledge_fence`), as in the page.
    pub fn served(
        address: &str,
        token: Option<String>,
        notes: &Knowledge,
    ) -> Result<Self, OpeningError> {
        let parsed = DatasetteAddress::parse(address).map_err(OpeningError::Address)?;
        let label = std::path::PathBuf::from(parsed.database_url());
        let whole = DatasetteDatabase::new(parsed, token, NativeTransport);
        block_on(whole.identify()).map_err(|why| OpeningError::Schema {
            path: label.clone(),
            why,
        })?;
        let never = async |_: &DatasetteDatabase<NativeTransport>, _: &str| {
            Err(DbError::Unavailable(
                "a server's database is never copied".into(),
            ))
        };
        Opened::settle(whole, &label, notes, &[], DatabaseKind::Datasette, never)
    }
}

impl<D: Database> Opened<D> {
    /// What the model sees of `whole`, a database of `kind` (named `path` in messages), decided
    /// as in the page (`model_view::prepare`, with `copy` making a copy when the plan needs
    /// one), with the knowledge from every source.
    fn settle(
        whole: D,
        path: &Path,
        notes: &Knowledge,
        hide: &[String],
        kind: DatabaseKind,
        copy: impl AsyncFnOnce(&D, &str) -> Result<(D, Schema), DbError>,
    ) -> Result<Opened<D>, OpeningError> {
        let schema_error = |why| OpeningError::Schema {
            path: path.to_path_buf(),
            why,
        };
        let whole = Rc::new(whole);
        let full_schema = block_on(schema::load(&*whole, &COUNT_LIMITS)).map_err(schema_error)?;

        // What `hide` names and the knowledge tables (not the person's choice) are kept from
        // the model, so that no query of the model can read a golden question's answer.
        let (hidden, unresolved) = Hidden::resolve(&full_schema, hide);
        let prepared = block_on(model_view::prepare(
            &whole,
            &full_schema,
            &hidden,
            &kind.hiding(),
            copy,
        ))
        .map_err(schema_error)?;
        let (model_view, read_schema) = match prepared {
            Prepared::Ready {
                database, schema, ..
            } => (database, schema),
            Prepared::Refused(refusal) => {
                return Err(schema_error(DbError::Unavailable(
                    present::hiding::refusal(&refusal),
                )))
            }
        };

        // As the page does it: merged and validated against the whole database (what its schema
        // panel shows), then the model view of it (`ModelView::new`).
        let (in_file, mut problems) = block_on(in_database::read(&*whole)).map_err(schema_error)?;
        let (merged, more) = Knowledge::merged([in_file, notes.clone()]).validated(&full_schema);
        problems.extend(more);
        let view = ModelView::new(read_schema, merged, &hidden);
        problems.extend(view.left_out.iter().cloned());
        for problem in &problems {
            eprintln!("{}: knowledge: {problem}", path.display());
        }
        // The values a question may name, read from the database the model reads, as the page
        // does once its model view is ready.
        let mut session = Session::for_view(view);
        let values = block_on(values::build(
            &model_view,
            session.schema(),
            &selection::value_plan(kind),
            &Bounds::default(),
            &SystemClock::new(),
        ));
        session.set_values(Arc::new(values));
        Ok(Opened {
            whole: Fenced::open(whole),
            model_view,
            session,
            unresolved,
        })
    }
}

/// The database's identity as the page records it when the file is opened: its file name, size
/// and the SHA-256 of its bytes.
pub fn identity(path: &Path) -> Result<DatabaseIdentity, OpeningError> {
    let digest = digest_file(path).map_err(|why| {
        OpeningError::Database(OpenError {
            path: path.to_path_buf(),
            why: why.to_string(),
        })
    })?;
    Ok(DatabaseIdentity::new(
        &digest.name,
        &Identity::Bytes {
            size: digest.size,
            sha256: digest.sha256,
        },
    ))
}

/// The names of `--hide`, split at commas as the page splits `?hide=`.
pub fn hidden_names(hide: &[String]) -> Vec<String> {
    let params: Vec<(String, String)> = hide.iter().map(|h| ("hide".into(), h.clone())).collect();
    crate::settings::address::hidden_names(&params)
}

/// The knowledge in the notes file at `path` (the page's `?notes=`), its problems written to
/// stderr.
pub fn read_notes(path: &Path) -> Result<Knowledge, OpeningError> {
    let fail = |why: String| OpeningError::Notes {
        path: path.to_path_buf(),
        why,
    };
    let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| fail("it is not UTF-8 text".into()))?;
    let (notes, problems) = sidecar::read(&text).map_err(|e| fail(e.to_string()))?;
    for problem in &problems {
        eprintln!("{}: {problem}", path.display());
    }
    Ok(notes)
}

/// Why a database could not be opened as the page opens it.
#[derive(Debug)]
pub enum OpeningError {
    /// The file is missing, unreadable or not a SQLite database.
    Database(OpenError),
    /// Its schema, or the model's view of it, cannot be read.
    Schema { path: PathBuf, why: DbError },
    /// The text is not the address of a database on a Datasette server.
    Address(DatasetteProblem),
    /// The notes file cannot be read as askdb's notes.
    Notes { path: PathBuf, why: String },
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Database(error) => write!(f, "{error}"),
            OpeningError::Schema { path, why } => {
                write!(f, "cannot read the schema of {}: {why}", path.display())
            }
            OpeningError::Address(why) => write!(f, "{why}"),
            OpeningError::Notes { path, why } => {
                write!(
                    f,
                    "cannot read the knowledge file {}: {why}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for OpeningError {}
