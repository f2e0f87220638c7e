//! The knowledge a database keeps about itself, read in one place for the page and
//! `askdb-eval`: its schema comments, then its `askdb_*` tables (which win for the same note).

use super::{comments, tables, Knowledge, Problem};
use crate::engine::hidden::load_catalogue;
use crate::engine::{Database, DbError};

/// What `db` says about its own data, merged, and what of its tables could not be read.
pub async fn read<D: Database + ?Sized>(db: &D) -> Result<(Knowledge, Vec<Problem>), DbError> {
    let catalogue = load_catalogue(db).await?;
    let from_comments = Knowledge {
        notes: comments::from_catalogue(&catalogue),
        ..Knowledge::default()
    };
    let (from_tables, problems) = tables::load(db).await?;
    Ok((Knowledge::merged([from_comments, from_tables]), problems))
}
