//! The two passes every reader takes over a table's rows, written once ([`import_table`]):
//! pass 1 folds each column's kinds without keeping a row ([`TwoPass::survey`]), the table is
//! made for the types found, and pass 2 reads the rows again and writes each value converted
//! for its column ([`TwoPass::write_rows`]), so that a file is streamed and never held. The
//! readers (`delimited`, `json`, `xlsx`) say only how their format's rows are read.

use super::error::ImportError;
use super::header::{self, HeaderDecision};
use super::infer::{ColumnFold, Kind};
use super::names;
use super::places::Places;
use super::report::{PlaceKind, TableReport};
use super::table::{write_row, Columns, Context, ROWS_PER_TICK};
use crate::engine::Value;

/// What pass 1 found of a table.
pub struct Surveyed {
    pub columns: Columns,
    /// Its rows of data (a header row not counted).
    pub rows_read: u64,
    pub header: HeaderDecision,
}

/// What a reader noticed besides the values, for the report.
pub struct Findings {
    pub places: PlaceKind,
    pub ragged: Places,
    pub undecodable: Places,
    pub duplicate_keys: Places,
}

/// Hands a row of values to be written, with how far the pass has read (the bytes or the
/// share of its table that progress counts).
pub type WriteRow<'w> = dyn FnMut(&[Value], u64) -> Result<(), ImportError> + 'w;

/// One format's reading of one table's rows.
pub trait TwoPass {
    /// Pass 1: every row read and folded into its columns' kinds, with progress told to `cx`
    /// (`Context::tick`) up to the pass's end.
    fn survey(&mut self, cx: &mut Context) -> Result<Surveyed, ImportError>;
    /// Pass 2: every row of data (a header row skipped) as values of `columns`' types, each
    /// handed to `write`.
    fn write_rows(
        &mut self,
        columns: &Columns,
        header: &HeaderDecision,
        write: &mut WriteRow,
    ) -> Result<(), ImportError>;
    /// What it noticed on the way.
    fn findings(self) -> Findings;
}

/// Where a table goes and how much of the import's progress each of its passes is.
pub struct Target<'t> {
    /// The file it comes from (errors name it).
    pub file: &'t str,
    /// The table's name before it is made unique; `fallback` when nothing of it is left.
    pub name: &'t str,
    pub fallback: &'t str,
    /// The workbook's sheet it comes from.
    pub sheet: Option<&'t str>,
    /// What one pass counts for in the import's progress.
    pub pass_bytes: u64,
}

/// Reads a table in `reader`'s two passes into `cx`'s sink. When the second pass finds
/// another table than the first (the file changed in between), nothing more is written.
pub fn import_table(
    mut reader: impl TwoPass,
    target: Target,
    cx: &mut Context,
) -> Result<TableReport, ImportError> {
    let changed = || ImportError::Changed {
        file: target.file.to_string(),
    };
    let Surveyed {
        columns,
        rows_read,
        header,
    } = reader.survey(cx)?;
    cx.pass_done(target.pass_bytes);
    let table = cx.tables.unique(target.name, target.fallback);
    columns.create(&table, cx.sink)?;

    let mut nulls = vec![0u64; columns.names.len()];
    let mut written = 0u64;
    reader.write_rows(&columns, &header, &mut |row, read| {
        write_row(cx.sink, row, &mut nulls)?;
        written += 1;
        if written.is_multiple_of(ROWS_PER_TICK) {
            cx.tick(read, 0);
        }
        Ok(())
    })?;
    cx.pass_done(target.pass_bytes);
    if written != rows_read {
        return Err(changed());
    }
    let findings = reader.findings();
    Ok(TableReport {
        table,
        sheet: target.sheet.map(str::to_string),
        header,
        rows_read,
        rows_written: written,
        columns: columns.reports(&nulls),
        places: findings.places,
        ragged: findings.ragged,
        undecodable: findings.undecodable,
        duplicate_keys: findings.duplicate_keys,
    })
}

/// The columns of rows whose first may name them (a CSV's, a sheet's): `first`'s cells (their
/// kinds and texts), and the kinds of the `below` rows under it folded into `folds`, one per
/// column. The first row is taken as a header or folded in as data (`header::decide`).
pub fn headed_columns(
    first: &[(Kind, String)],
    mut folds: Vec<ColumnFold>,
    below: u64,
) -> Surveyed {
    let kinds: Vec<(Kind, &str)> = first.iter().map(|(k, t)| (*k, t.as_str())).collect();
    let decision = header::decide(&kinds, &folds, below);
    let mut rows_read = below;
    if !decision.taken() {
        rows_read += 1;
        for (fold, (kind, text)) in folds.iter_mut().zip(first) {
            fold.add(*kind, text);
        }
    }
    let header_cells: Vec<Option<&str>> = (0..folds.len())
        .map(|i| {
            decision
                .taken()
                .then(|| first.get(i).map(|(_, t)| t.as_str()))
                .flatten()
        })
        .collect();
    let columns = Columns::new(
        names::column_names(&header_cells),
        header_cells
            .iter()
            .map(|c| c.unwrap_or("").to_string())
            .collect(),
        folds,
    );
    Surveyed {
        columns,
        rows_read,
        header: decision,
    }
}
