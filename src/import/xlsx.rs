//! Excel workbooks (`.xlsx`) with calamine: one table per sheet, named after the sheet. A
//! workbook is a zip archive, read with random access, so its bytes are held (compressed, as
//! the file is) while its sheets are read one at a time; each sheet's cells are then gone
//! through twice like a CSV's rows (kinds, then values). Excel keeps every number as a float:
//! a whole one counts as an integer. Dates become ISO text (`2024-01-31`,
//! `2024-01-31 12:30:00`), error cells their text (`#DIV/0!`).

use super::error::{ImportError, MAX_COLUMNS};
use super::header;
use super::infer::{ColumnFold, Kind, SqlType};
use super::names;
use super::places::Places;
use super::report::{PlaceKind, TableReport};
use super::source::ByteSource;
use super::table::{write_row, Columns, Context, ROWS_PER_TICK};
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
    let height = range.height() as u64;
    let tick =
        |cx: &mut Context, done: u64, new_rows| cx.tick(share * done / height.max(1), new_rows);

    // Pass 1: kinds.
    let mut rows = range.rows();
    let first: Vec<(Kind, String)> = rows
        .next()
        .map(|r| r.iter().map(cell_kind).collect())
        .unwrap_or_default();
    let mut folds = vec![ColumnFold::default(); width];
    let mut below = 0u64;
    for row in rows {
        for (fold, cell) in folds.iter_mut().zip(row) {
            let (kind, text) = cell_kind(cell);
            fold.add(kind, &text);
        }
        below += 1;
        if below.is_multiple_of(ROWS_PER_TICK) {
            tick(cx, below, ROWS_PER_TICK);
        }
    }
    tick(cx, height, below % ROWS_PER_TICK);
    cx.pass_done(share);
    let kinds: Vec<(Kind, &str)> = first.iter().map(|(k, t)| (*k, t.as_str())).collect();
    let decision = header::decide(&kinds, &folds, below);
    let mut rows_read = below;
    if !decision.taken() {
        rows_read += 1;
        for (fold, (kind, text)) in folds.iter_mut().zip(&first) {
            fold.add(*kind, text);
        }
    }
    let header_cells: Vec<Option<&str>> = (0..width)
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
    let table = cx.tables.unique(sheet, "sheet");
    columns.create(&table, cx.sink)?;

    // Pass 2: values.
    let mut nulls = vec![0u64; width];
    let mut values: Vec<Value> = Vec::with_capacity(width);
    let mut written = 0u64;
    for row in range.rows().skip(usize::from(decision.taken())) {
        values.clear();
        values.extend(row.iter().zip(&columns.types).map(|(c, t)| convert(c, *t)));
        values.resize(width, Value::Null);
        write_row(cx.sink, &values, &mut nulls)?;
        written += 1;
        if written.is_multiple_of(ROWS_PER_TICK) {
            tick(cx, written, 0);
        }
    }
    cx.pass_done(share);
    Ok(TableReport {
        table,
        sheet: Some(sheet.to_string()),
        header: decision,
        rows_read,
        rows_written: written,
        columns: columns.reports(&nulls),
        places: PlaceKind::Row,
        ragged: Places::default(),
        undecodable: Places::default(),
        duplicate_keys: Places::default(),
    })
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
