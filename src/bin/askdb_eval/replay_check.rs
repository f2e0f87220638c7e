//! `askdb-eval replay-check`: a published recording replayed natively on its database with no
//! model (`conversation::check_replay`), as a reader's page would replay it. The report says
//! which question and step no longer give the recorded result, with what was recorded and what
//! the database gives now; the exit status is 1 when anything differs, so that a documentation
//! build stops before it publishes answers the data no longer gives.

use super::error::EvalError;
use super::run::{must_exist, read_text};
use askdb::clock::SystemClock;
use askdb::conversation::{self, check_replay, ReplayCheck};
use askdb::knowledge::Knowledge;
use askdb::opened::{self, read_notes, Opened};
use clap::Parser;
use futures::executor::block_on;
use std::path::{Path, PathBuf};

/// Replay recorded conversations on a database with no model, and fail when the database no
/// longer gives the recorded results (or is not the database they were recorded on).
///
/// Exit status: 0 when every recording replays as recorded, 1 when one does not (the report on
/// stdout says where), 2 when an argument or a file needs fixing.
#[derive(Debug, Parser)]
#[command(
    name = "askdb-eval replay-check",
    bin_name = "askdb-eval replay-check",
    version
)]
pub struct ReplayCheckArgs {
    /// The conversation files (askdb-conversation/1, or /2 with candidates: saved by the page
    /// or written by `askdb-eval record`).
    #[arg(value_name = "RECORDING", required = true)]
    pub recordings: Vec<PathBuf>,

    /// The database the readers' page opens with them.
    #[arg(long, value_name = "PATH")]
    pub db: PathBuf,

    /// The notes file the page is given (?notes=), if any.
    #[arg(long, value_name = "PATH")]
    pub notes: Option<PathBuf>,

    /// What the page hides from the model (?hide=customers.email,payments), if anything.
    #[arg(long, value_name = "NAMES")]
    pub hide: Vec<String>,
}

/// Checks each recording; the reports, and whether all of them matched.
pub fn run(args: &ReplayCheckArgs) -> Result<(Vec<String>, bool), EvalError> {
    must_exist("--db", &args.db)?;
    for recording in &args.recordings {
        must_exist("RECORDING", recording)?;
    }
    if let Some(notes) = &args.notes {
        must_exist("--notes", notes)?;
    }
    let notes = match &args.notes {
        Some(path) => read_notes(path)?,
        None => Knowledge::default(),
    };
    let hide = opened::hidden_names(&args.hide);
    let identity = opened::identity(&args.db)?;
    let mut reports = Vec::new();
    let mut all_match = true;
    for recording in &args.recordings {
        let check = check_one(recording, &args.db, &notes, &hide, &identity)?;
        all_match &= check.matches();
        reports.push(check.report(
            &recording.display().to_string(),
            &args.db.display().to_string(),
        ));
    }
    Ok((reports, all_match))
}

/// One recording, on a database opened afresh as a reader's page opens it.
fn check_one(
    recording: &Path,
    db: &Path,
    notes: &Knowledge,
    hide: &[String],
    identity: &conversation::DatabaseIdentity,
) -> Result<ReplayCheck, EvalError> {
    let unreadable = |why: String| EvalError::Recording {
        path: recording.to_path_buf(),
        why,
    };
    let text = read_text(recording).map_err(unreadable)?;
    // The page's own reader, with every limit it checks before a replay starts.
    let file = conversation::read(&text).map_err(|why| unreadable(why.to_string()))?;
    let mut opened = Opened::open(db, notes, hide)?;
    if let Some(unresolved) = opened.unresolved.first() {
        return Err(EvalError::BadArgument(format!("--hide: {unresolved}")));
    }
    let clock = SystemClock::new();
    let model_view_db = &opened.model_view;
    Ok(block_on(check_replay(
        &file,
        identity,
        model_view_db,
        &mut opened.session,
        &clock,
    )))
}
