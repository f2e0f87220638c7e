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
use super::header::HeaderDecision;
use super::infer::{classify, convert_text, ColumnFold, Kind};
use super::names;
use super::places::Places;
use super::report::{PlaceKind, TableReport};
use super::source::{ByteSource, Counted};
use super::table::{Columns, Context, ROWS_PER_TICK};
use super::two_pass::{
    headed_columns, import_table, Findings, Surveyed, Target, TwoPass, WriteRow,
};
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
    let reader = Delimited {
        file,
        source,
        delimiter,
        encoding,
        bad: BadLines::default(),
        ragged: Places::default(),
    };
    let name = names::table_name_of_file(file);
    let target = Target {
        file,
        name: &name,
        fallback: "data",
        sheet: None,
        pass_bytes: source.size(),
    };
    import_table(reader, target, cx)
}

/// A delimited file's rows, and what its first pass noticed of them.
struct Delimited<'a> {
    file: &'a str,
    source: &'a dyn ByteSource,
    delimiter: u8,
    encoding: Encoding,
    /// Lines with bytes that are not text in `encoding` (pass 1's).
    bad: BadLines,
    /// Lines with another number of fields than the first.
    ragged: Places,
}

impl Delimited<'_> {
    fn read_error(&self, e: impl ToString) -> ImportError {
        ImportError::Read {
            file: self.file.to_string(),
            message: e.to_string(),
        }
    }

    fn changed(&self) -> ImportError {
        ImportError::Changed {
            file: self.file.to_string(),
        }
    }
}

impl TwoPass for Delimited<'_> {
    fn survey(&mut self, cx: &mut Context) -> Result<Surveyed, ImportError> {
        let (mut reader, bytes) =
            open(self.source, self.delimiter, self.encoding, self.bad.clone())
                .map_err(|e| self.read_error(e))?;
        let mut record = csv::ByteRecord::new();
        let mut first: Option<Vec<(Kind, String)>> = None;
        let mut folds: Vec<ColumnFold> = Vec::new();
        let mut rows: u64 = 0;
        while reader
            .read_byte_record(&mut record)
            .map_err(|e| self.read_error(e))?
        {
            let line = line_of(&record);
            if record.len() > MAX_COLUMNS {
                return Err(ImportError::TooManyColumns {
                    file: self.file.to_string(),
                    columns: record.len(),
                });
            }
            if folds.len() < record.len() {
                folds.resize(record.len(), ColumnFold::default());
            }
            let Some(head) = &first else {
                let cells = record.iter().map(|f| {
                    let text = field_text(f, line, Some(&self.bad)).into_owned();
                    (classify(&text), text)
                });
                first = Some(cells.collect());
                continue;
            };
            rows += 1;
            if record.len() != head.len() {
                self.ragged.add(line);
            }
            for (fold, field) in folds.iter_mut().zip(record.iter()) {
                let text = field_text(field, line, Some(&self.bad));
                fold.add(classify(&text), &text);
            }
            if rows.is_multiple_of(ROWS_PER_TICK) {
                cx.tick(bytes.get(), ROWS_PER_TICK);
            }
        }
        let Some(head) = first else {
            return Err(ImportError::Empty {
                file: self.file.to_string(),
            });
        };
        cx.tick(bytes.get(), rows % ROWS_PER_TICK);
        Ok(headed_columns(&head, folds, rows))
    }

    fn write_rows(
        &mut self,
        columns: &Columns,
        header: &HeaderDecision,
        write: &mut WriteRow,
    ) -> Result<(), ImportError> {
        let (mut reader, bytes) = open(
            self.source,
            self.delimiter,
            self.encoding,
            Default::default(),
        )
        .map_err(|e| self.read_error(e))?;
        let width = columns.names.len();
        let mut record = csv::ByteRecord::new();
        let mut row: Vec<Value> = Vec::with_capacity(width);
        let mut skip_first = header.taken();
        while reader
            .read_byte_record(&mut record)
            .map_err(|e| self.read_error(e))?
        {
            if std::mem::take(&mut skip_first) {
                continue;
            }
            if record.len() > width {
                return Err(self.changed());
            }
            row.clear();
            for (field, ty) in record.iter().zip(&columns.types) {
                let text = field_text(field, 0, None);
                row.push(convert_text(&text, *ty).ok_or_else(|| self.changed())?);
            }
            row.resize(width, Value::Null);
            write(&row, bytes.get())?;
        }
        Ok(())
    }

    fn findings(self) -> Findings {
        let undecodable = self.bad.borrow().clone();
        Findings {
            places: PlaceKind::Line,
            ragged: self.ragged,
            undecodable,
            duplicate_keys: Places::default(),
        }
    }
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
