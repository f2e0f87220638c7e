//! Data files made into a database: CSV, TSV, JSON and Excel files (one or several, opened,
//! dropped or named in `?csv=` and its like) are handed to the import worker (`import::client`,
//! a wasm of its own, fetched only now), which writes them into a new SQLite database, one
//! table per file or sheet, with progress and Stop; the database it makes is then opened like a
//! `.db` file (read-only, in memory: the guard, the deadline, hiding, knowledge, replay and
//! identity all apply), and the person may download it ("Download as .db") to reopen it later.

use super::opening::open_database;
use super::state::{AppState, ImportedFile, Loading, Reopening};
use crate::import::client::{ImportEvent, ImportJob};
use crate::tr;
use futures::channel::oneshot;
use futures::future::{select, Either};
use leptos::prelude::*;
use web_sys::File;

/// What the page calls the database made of `files`: "orders.csv", "orders.csv + customers.csv".
fn label_of(files: &[File]) -> String {
    let names: Vec<String> = files.iter().map(File::name).collect();
    match names.len() {
        0..=3 => names.join(" + "),
        n => tr!(
            "open-import-label-others",
            first = &names[0],
            others = n as u64 - 1
        ),
    }
}

/// The name "Download as .db" gives the database: the first file's name without its extension.
fn database_file_name(files: &[File]) -> String {
    let first = files.first().map(File::name).unwrap_or_default();
    let stem = first
        .rsplit_once('.')
        .map_or(first.as_str(), |(stem, _)| stem);
    format!("{}.db", if stem.is_empty() { "imported" } else { stem })
}

/// Imports `files` into one database and opens it; the reason when it cannot be done (the
/// importer's words, or "stopped").
pub async fn import(state: AppState, files: Vec<File>) -> Result<(), String> {
    let label = label_of(&files);
    let page = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let mut job = ImportJob::start(&page, &files)?;
    let (stop, stopped) = oneshot::channel::<()>();
    state.import_stop.set_value(Some(stop));
    state.importing.set(true);
    let mut stopped = stopped;
    let outcome = loop {
        let next = Box::pin(job.next());
        match select(next, &mut stopped).await {
            Either::Left((Some(ImportEvent::Progress(progress)), _)) => {
                state.loading.set(Some(Loading {
                    label: tr!(
                        "open-import-progress",
                        files = &label,
                        rows = progress.rows_read
                    ),
                    fraction: Some(progress.fraction),
                }))
            }
            Either::Left((Some(ImportEvent::Done(imported)), _)) => break Ok(imported),
            Either::Left((Some(ImportEvent::Failed(why)), _)) => break Err(why),
            Either::Left((None, _)) => break Err(tr!("open-import-worker-stopped")),
            // Stop, or the page's state let go of the sender.
            Either::Right(_) => {
                break Err(tr!("open-import-stopped"));
            }
        }
    };
    state.importing.set(false);
    state.import_stop.set_value(None);
    // Stopped or done: its worker is terminated now, and what it read let go.
    drop(job);
    let imported = outcome?;
    let name = tr!("open-import-name", files = label);
    let bytes = Reopening::Bytes(imported.database.clone());
    open_database(state, &name, imported.database.clone(), None, bytes).await?;
    state.imported.set(Some(ImportedFile {
        opened_as: name,
        file_name: database_file_name(&files),
        database: imported.database,
        sentences: imported.sentences,
    }));
    Ok(())
}

/// Stops the import that runs, if one does.
pub fn stop(state: AppState) {
    if let Some(stop) = state.import_stop.try_update_value(Option::take).flatten() {
        let _ = stop.send(());
    }
}
