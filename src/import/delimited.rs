//! CSV, TSV and other delimited text, read with the csv crate (RFC 4180: quoted fields with
//! delimiters, quotes and line breaks inside) in two passes over the file, so that a large file
//! is streamed and never held: pass 1 folds each column's kinds (and finds the header, the width,
//! ragged rows and undecodable lines), pass 2 converts each field for its column and writes it.
//!
//! Nothing is dropped: a row shorter than the first is filled with NULL; fields beyond the
//! first row's width go into extra columns (`column_N`); both are reported with their lines.
//! (Blank lines are no rows: the csv crate skips them.)

use super::decode::{self, BadLines, Encoding};
use super::error::{ImportError, MAX_COLUMNS};
use super::header;
use super::infer::{classify, convert_text, ColumnFold, Kind};
use super::names;
use super::places::Places;
use super::report::{PlaceKind, TableReport};
use super::source::{ByteSource, Counted};
use super::table::{write_row, Columns, Context, ROWS_PER_TICK};
use crate::engine::Value;
use std::borrow::Cow;
use std::io::Read;

/// The file `file` (its name), from `source`, as one table.
pub fn import(
    file: &str,
    source: &dyn ByteSource,
    delimiter: u8,
    encoding: Encoding,
    cx: &mut Context,
) -> Result<TableReport, ImportError> {
    let read_error = |e: std::io::Error| ImportError::Read {
        file: file.to_string(),
        message: e.to_string(),
    };
    let csv_error = |e: csv::Error| ImportError::Read {
        file: file.to_string(),
        message: e.to_string(),
    };

    // Pass 1: the columns.
    let bad: BadLines = Default::default();
    let (mut reader, bytes) = open(source, delimiter, encoding, bad.clone()).map_err(read_error)?;
    let mut record = csv::ByteRecord::new();
    let mut first: Option<Vec<String>> = None;
    let mut folds: Vec<ColumnFold> = Vec::new();
    let mut first_row_fold: Vec<ColumnFold> = Vec::new();
    let mut ragged = Places::default();
    let mut rows: u64 = 0;
    while reader.read_byte_record(&mut record).map_err(csv_error)? {
        let line = line_of(&record);
        if record.len() > MAX_COLUMNS {
            return Err(ImportError::TooManyColumns {
                file: file.to_string(),
                columns: record.len(),
            });
        }
        if folds.len() < record.len() {
            folds.resize(record.len(), ColumnFold::default());
        }
        match &first {
            None => {
                let cells: Vec<String> = record
                    .iter()
                    .map(|f| field_text(f, line, Some(&bad)).into_owned())
                    .collect();
                first_row_fold = vec![ColumnFold::default(); cells.len()];
                for (fold, cell) in first_row_fold.iter_mut().zip(&cells) {
                    fold.add(classify(cell), cell);
                }
                first = Some(cells);
            }
            Some(head) => {
                rows += 1;
                if record.len() != head.len() {
                    ragged.add(line);
                }
                for (fold, field) in folds.iter_mut().zip(record.iter()) {
                    let text = field_text(field, line, Some(&bad));
                    fold.add(classify(&text), &text);
                }
                if rows.is_multiple_of(ROWS_PER_TICK) {
                    cx.tick(bytes.get(), ROWS_PER_TICK);
                }
            }
        }
    }
    let Some(head) = first else {
        return Err(ImportError::Empty {
            file: file.to_string(),
        });
    };
    cx.tick(bytes.get(), rows % ROWS_PER_TICK);
    cx.pass_done(source.size());

    let kinds: Vec<(Kind, &str)> = head.iter().map(|c| (classify(c), c.as_str())).collect();
    let decision = header::decide(&kinds, &folds, rows);
    if decision.taken() {
        // The first row's cells are names, not values.
    } else {
        rows += 1;
        for (fold, first_fold) in folds.iter_mut().zip(first_row_fold) {
            merge(fold, first_fold);
        }
    }
    let header_cells: Vec<Option<&str>> = (0..folds.len())
        .map(|i| {
            decision
                .taken()
                .then(|| head.get(i).map(String::as_str))
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
    let table = cx.tables.unique(&names::table_name_of_file(file), "data");
    columns.create(&table, cx.sink)?;

    // Pass 2: the rows.
    let (mut reader, bytes) =
        open(source, delimiter, encoding, Default::default()).map_err(read_error)?;
    let width = columns.names.len();
    let mut nulls = vec![0u64; width];
    let mut row: Vec<Value> = Vec::with_capacity(width);
    let mut written: u64 = 0;
    let mut skip_first = decision.taken();
    while reader.read_byte_record(&mut record).map_err(csv_error)? {
        if std::mem::take(&mut skip_first) {
            continue;
        }
        if record.len() > width {
            return Err(ImportError::Changed {
                file: file.to_string(),
            });
        }
        row.clear();
        for (field, ty) in record.iter().zip(&columns.types) {
            let text = field_text(field, 0, None);
            let value = convert_text(&text, *ty).ok_or_else(|| ImportError::Changed {
                file: file.to_string(),
            })?;
            row.push(value);
        }
        row.resize(width, Value::Null);
        write_row(cx.sink, &row, &mut nulls)?;
        written += 1;
        if written.is_multiple_of(ROWS_PER_TICK) {
            cx.tick(bytes.get(), 0);
        }
    }
    cx.pass_done(source.size());
    if written != rows {
        return Err(ImportError::Changed {
            file: file.to_string(),
        });
    }
    let undecodable = bad.borrow().clone();
    Ok(TableReport {
        table,
        sheet: None,
        header: decision,
        rows_read: rows,
        rows_written: written,
        columns: columns.reports(&nulls),
        places: PlaceKind::Line,
        ragged,
        undecodable,
        duplicate_keys: Places::default(),
    })
}

type Reader<'a> = csv::Reader<Box<dyn Read + 'a>>;

fn open<'a>(
    source: &'a dyn ByteSource,
    delimiter: u8,
    encoding: Encoding,
    bad: BadLines,
) -> std::io::Result<(Reader<'a>, std::rc::Rc<std::cell::Cell<u64>>)> {
    let (counted, bytes) = Counted::new(source.open()?);
    let text = decode::utf8_reader(Box::new(counted), encoding, bad)?;
    let reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .buffer_capacity(256 * 1024)
        .from_reader(text);
    Ok((reader, bytes))
}

fn line_of(record: &csv::ByteRecord) -> u64 {
    record.position().map_or(0, |p| p.line())
}

/// A field's text; bytes that are not UTF-8 replaced (and their line kept when `bad` is given).
fn field_text<'f>(field: &'f [u8], line: u64, bad: Option<&BadLines>) -> Cow<'f, str> {
    match std::str::from_utf8(field) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => {
            if let Some(bad) = bad {
                bad.borrow_mut().add(line);
            }
            String::from_utf8_lossy(field)
        }
    }
}

fn merge(into: &mut ColumnFold, from: ColumnFold) {
    into.empty += from.empty;
    into.integer += from.integer;
    into.real += from.real;
    into.boolean += from.boolean;
    into.zero_padded += from.zero_padded;
    into.text += from.text;
    if into.padded_example.is_none() {
        into.padded_example = from.padded_example;
    }
}
