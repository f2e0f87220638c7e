//! Excel workbooks (`.xlsx`) with calamine: one table per sheet, named after the sheet. A
//! workbook is a zip archive, read with random access, so its bytes are held (compressed, as
//! the file is) while its sheets are read one at a time; each sheet's cells are then gone
//! through twice like a CSV's rows (kinds, then values). Excel keeps every number as a float:
//! a whole one counts as an integer. Dates become ISO text (`2024-01-31`,
//! `2024-01-31 12:30:00`), error cells their text (`#DIV/0!`).

use super::error::{ImportError, MAX_COLUMNS};
use super::header::HeaderDecision;
use super::infer::{ColumnFold, Kind, SqlType};
use super::places::Places;
use super::report::{PlaceKind, TableReport};
use super::source::ByteSource;
use super::table::{Columns, Context, ROWS_PER_TICK};
use super::two_pass::{
    headed_columns, import_table, Findings, Surveyed, Target, TwoPass, WriteRow,
};
use crate::engine::Value;
use calamine::{Data, Reader, Xlsx};
use std::io::{Cursor, Read};

/// Whole floats up to 2^53 are integers (beyond, a float has lost digits already).
const EXACT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// Each sheet of the workbook `file` as a table; the names of the empty sheets left out.
pub fn import(
    file: &str,
    source: &dyn ByteSource,
    cx: &mut Context,
) -> Result<(Vec<TableReport>, Vec<String>), ImportError> {
    let read_error = |e: std::io::Error| ImportError::Read {
        file: file.to_string(),
        message: e.to_string(),
    };
    let mut bytes = Vec::with_capacity(source.size() as usize);
    source
        .open()
        .map_err(read_error)?
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    let workbook_error = |e: calamine::XlsxError| ImportError::Workbook {
        file: file.to_string(),
        message: e.to_string(),
    };
    let mut book: Xlsx<_> =
        calamine::open_workbook_from_rs(Cursor::new(bytes)).map_err(workbook_error)?;
    let sheets = book.sheet_names();
    let share = source.size() / (sheets.len().max(1) as u64);
    let (mut tables, mut empty) = (Vec::new(), Vec::new());
    for sheet in sheets {
        let range = book.worksheet_range(&sheet).map_err(workbook_error)?;
        if range.is_empty() {
            empty.push(sheet);
            cx.pass_done(2 * share);
            continue;
        }
        tables.push(import_sheet(file, &sheet, &range, share, cx)?);
    }
    Ok((tables, empty))
}

fn import_sheet(
    file: &str,
    sheet: &str,
    range: &calamine::Range<Data>,
    share: u64,
    cx: &mut Context,
) -> Result<TableReport, ImportError> {
    let width = range.width();
    if width > MAX_COLUMNS {
        return Err(ImportError::TooManyColumns {
            file: format!("{file} (sheet {sheet})"),
            columns: width,
        });
    }
    let target = Target {
        file,
        name: sheet,
        fallback: "sheet",
        sheet: Some(sheet),
        pass_bytes: share,
    };
    import_table(Sheet { range, share }, target, cx)
}

/// A sheet's rows, its share of the workbook's bytes counting for each pass's progress.
struct Sheet<'a> {
    range: &'a calamine::Range<Data>,
    share: u64,
}

impl Sheet<'_> {
    /// How far a pass is after `done` of the sheet's rows, in its share of bytes.
    fn read(&self, done: u64) -> u64 {
        self.share * done / (self.range.height() as u64).max(1)
    }
}

impl TwoPass for Sheet<'_> {
    /// The kinds.
    fn survey(&mut self, cx: &mut Context) -> Result<Surveyed, ImportError> {
        let mut rows = self.range.rows();
        let first: Vec<(Kind, String)> = rows
            .next()
            .map(|r| r.iter().map(cell_kind).collect())
            .unwrap_or_default();
        let mut folds = vec![ColumnFold::default(); self.range.width()];
        let mut below = 0u64;
        for row in rows {
            for (fold, cell) in folds.iter_mut().zip(row) {
                let (kind, text) = cell_kind(cell);
                fold.add(kind, &text);
            }
            below += 1;
            if below.is_multiple_of(ROWS_PER_TICK) {
                cx.tick(self.read(below), ROWS_PER_TICK);
            }
        }
        cx.tick(self.read(self.range.height() as u64), below % ROWS_PER_TICK);
        Ok(headed_columns(&first, folds, below))
    }

    /// The values.
    fn write_rows(
        &mut self,
        columns: &Columns,
        header: &HeaderDecision,
        write: &mut WriteRow,
    ) -> Result<(), ImportError> {
        let width = columns.names.len();
        let mut values: Vec<Value> = Vec::with_capacity(width);
        let rows = self.range.rows().skip(usize::from(header.taken()));
        for (written, row) in (1..).zip(rows) {
            values.clear();
            values.extend(row.iter().zip(&columns.types).map(|(c, t)| convert(c, *t)));
            values.resize(width, Value::Null);
            write(&values, self.read(written))?;
        }
        Ok(())
    }

    fn findings(self) -> Findings {
        Findings {
            places: PlaceKind::Row,
            ragged: Places::default(),
            undecodable: Places::default(),
            duplicate_keys: Places::default(),
        }
    }
}

fn whole(f: f64) -> bool {
    f.fract() == 0.0 && f.abs() < EXACT_INTEGER
}

/// A cell's kind and its text (as a header cell, or as a text column's value).
fn cell_kind(cell: &Data) -> (Kind, String) {
    match cell {
        Data::Empty => (Kind::Empty, String::new()),
        Data::Int(i) => (Kind::Integer, i.to_string()),
        Data::Float(f) if whole(*f) => (Kind::Integer, format!("{}", *f as i64)),
        Data::Float(f) => (Kind::Real, f.to_string()),
        Data::Bool(b) => (Kind::Boolean, b.to_string()),
        Data::String(s) if s.is_empty() => (Kind::Empty, String::new()),
        _ => (Kind::Text, text_of(cell)),
    }
}

fn text_of(cell: &Data) -> String {
    match cell {
        Data::DateTime(dt) if dt.is_datetime() => {
            let (y, mo, d, h, mi, s, ms) = dt.to_ymd_hms_milli();
            match (h, mi, s, ms) {
                (0, 0, 0, 0) => format!("{y:04}-{mo:02}-{d:02}"),
                (_, _, _, 0) => format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}"),
                _ => format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}.{ms:03}"),
            }
        }
        Data::DateTime(dt) => {
            // A duration, in days: as hours, minutes and seconds.
            let seconds = (dt.as_f64() * 86_400.0).round() as i64;
            format!(
                "{}:{:02}:{:02}",
                seconds / 3600,
                (seconds / 60 % 60).abs(),
                (seconds % 60).abs()
            )
        }
        Data::Float(f) if whole(*f) => format!("{}", *f as i64),
        other => other.to_string(),
    }
}

fn convert(cell: &Data, ty: SqlType) -> Value {
    match (cell, ty) {
        (Data::Empty, _) => Value::Null,
        (Data::String(s), _) if s.is_empty() => Value::Null,
        (Data::Int(i), SqlType::Integer) => Value::Integer(*i),
        (Data::Int(i), SqlType::Real) => Value::Real(*i as f64),
        (Data::Float(f), SqlType::Integer) => Value::Integer(*f as i64),
        (Data::Float(f), SqlType::Real) => Value::Real(*f),
        (Data::Bool(b), SqlType::Integer) => Value::Integer(i64::from(*b)),
        (Data::Bool(b), SqlType::Real) => Value::Real(f64::from(u8::from(*b))),
        (cell, _) => Value::Text(cell_kind(cell).1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calamine::{ExcelDateTime, ExcelDateTimeType};

    #[test]
    fn whole_floats_are_integers_and_dates_iso_text() {
        assert_eq!(cell_kind(&Data::Float(42.0)), (Kind::Integer, "42".into()));
        assert_eq!(cell_kind(&Data::Float(4.5)).0, Kind::Real);
        let date = Data::DateTime(ExcelDateTime::new(
            45943.0,
            ExcelDateTimeType::DateTime,
            false,
        ));
        assert_eq!(cell_kind(&date), (Kind::Text, "2025-10-13".into()));
        let noon = Data::DateTime(ExcelDateTime::new(
            45943.5,
            ExcelDateTimeType::DateTime,
            false,
        ));
        assert_eq!(cell_kind(&noon).1, "2025-10-13 12:00:00");
    }

    #[test]
    fn numbers_in_a_text_column_are_written_as_excel_shows_them() {
        assert_eq!(
            convert(&Data::Float(7.0), SqlType::Text),
            Value::Text("7".into())
        );
        assert_eq!(
            convert(&Data::Bool(true), SqlType::Integer),
            Value::Integer(1)
        );
    }
}
