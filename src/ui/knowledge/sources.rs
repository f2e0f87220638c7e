//! The readers of the four sources, as the page calls them: the one place that names the
//! `knowledge` module's readers and writer, so that the rest of the page deals only in
//! [`Knowledge`], [`Problem`]s and messages a person reads.

use crate::engine::{Database, Schema};
use crate::knowledge::sidecar::{self, DatabaseRef};
use crate::knowledge::{in_database, Knowledge, Problem};

/// The database's own knowledge (`knowledge::in_database`). A failure is the reason, for the
/// person to read; the database stays open all the same.
pub async fn from_file<D: Database + ?Sized>(db: &D) -> Result<(Knowledge, Vec<Problem>), String> {
    in_database::read(db).await.map_err(|e| e.to_string())
}

/// Reads a notes file's text; why not, in the page's language.
pub fn read_sidecar(text: &str) -> Result<(Knowledge, Vec<Problem>), String> {
    sidecar::read(text).map_err(|e| e.for_person())
}

/// Writes `knowledge` as a notes file for the database called `name` with `sha256`.
pub fn write_sidecar(knowledge: &Knowledge, name: &str, sha256: Option<&str>) -> String {
    let database = DatabaseRef {
        name: Some(name.to_string()),
        sha256: sha256.map(str::to_string),
    };
    sidecar::write_for(knowledge, Some(&database))
}

/// The sources in rising priority, merged and validated against `schema`.
pub fn combine(parts: Vec<Knowledge>, schema: &Schema) -> (Knowledge, Vec<Problem>) {
    Knowledge::merged(parts).validated(schema)
}
