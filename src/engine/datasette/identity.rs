//! What identifies a database on a Datasette server: its address and what the server reports
//! of its file in `/-/databases.json` (size, and for a file served immutable (`-i`) the SHA-256
//! of its bytes, which Datasette computes at start).
//!
//! A SHA-256 names the bytes wherever they are, so a database with one is the same as a file
//! read whole with the same SHA-256, and as the same file on another server (a replica).
//! Without one (a mutable file) only the address and the size can be compared.

use super::{DatasetteAddress, DatasetteProblem};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetteIdentity {
    /// The database's address (`server/route`), without any token.
    pub address: String,
    /// The file's size in bytes, as the server reported it.
    pub size: u64,
    /// Lower-case hex SHA-256 of the file, when the server reported one (immutable files).
    pub sha256: Option<String>,
}

impl DatasetteIdentity {
    /// True when both name the same database: the same SHA-256 when both have one; the same
    /// address and size when neither has (a mutable file). Otherwise nothing comparable.
    pub fn same_as(&self, other: &DatasetteIdentity) -> Option<bool> {
        match (&self.sha256, &other.sha256) {
            (Some(a), Some(b)) => Some(a.eq_ignore_ascii_case(b)),
            (None, None) => Some(self.address == other.address && self.size == other.size),
            _ => None,
        }
    }
}

fn named<'a>(entry: &'a Json, key: &str) -> Option<&'a str> {
    entry.get(key).and_then(Json::as_str)
}

/// Finds the database at `address` in the server's `/-/databases.json` (by its route, or its
/// name for a server that lists no routes).
pub fn read_databases(
    body: &str,
    address: &DatasetteAddress,
) -> Result<DatasetteIdentity, DatasetteProblem> {
    let not_datasette = || DatasetteProblem::NotDatasette {
        status: 200,
        what: "a list of databases this page cannot read".into(),
    };
    // A list in 0.65; `{"ok": true, "databases": [...]}` in 1.0.
    let list: Vec<Json> = match serde_json::from_str(body).map_err(|_| not_datasette())? {
        Json::Array(list) => list,
        Json::Object(mut object) => match object.remove("databases") {
            Some(Json::Array(list)) => list,
            _ => return Err(not_datasette()),
        },
        _ => return Err(not_datasette()),
    };
    let entry = list
        .iter()
        .find(|e| named(e, "route") == Some(address.database.as_str()))
        .or_else(|| {
            list.iter().find(|e| {
                named(e, "route").is_none() && named(e, "name") == Some(address.database.as_str())
            })
        })
        .ok_or_else(|| DatasetteProblem::NoSuchDatabase {
            database: address.database.clone(),
            server: address.server.clone(),
        })?;
    let size = entry
        .get("size")
        .and_then(Json::as_u64)
        .ok_or_else(not_datasette)?;
    let sha256 = entry
        .get("hash")
        .and_then(Json::as_str)
        .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_ascii_lowercase);
    Ok(DatasetteIdentity {
        address: address.database_url(),
        size,
        sha256,
    })
}
