//! The import of one or more files into one database: each file sniffed, read by its reader
//! into a table (a workbook: a table per sheet), all in one transaction, with progress.

use super::decode::Encoding;
use super::error::ImportError;
use super::report::{FileReport, Format, ImportReport};
use super::sink::Sink;
use super::sniff::{self, JsonShape, Sniffed, SNIFF_BYTES};
use super::source::{first_bytes, ByteSource};
use super::table::{Context, Progress};
use super::{delimited, json, xlsx};

/// One file to import: its name (which names its table) and its bytes.
pub struct InputFile<'a> {
    pub name: String,
    pub source: &'a dyn ByteSource,
}

/// Imports `files` into `sink`, one table per file (per sheet for a workbook), calling
/// `progress` now and then; commits at the end. On an error nothing is committed.
pub fn import_files(
    files: &[InputFile],
    sink: &mut dyn Sink,
    progress: &mut dyn FnMut(Progress),
) -> Result<ImportReport, ImportError> {
    if files.is_empty() {
        return Err(ImportError::NoFiles);
    }
    let total: u64 = files.iter().map(|f| 2 * f.source.size()).sum();
    let mut cx = Context::new(sink, total, progress);
    let mut reports = Vec::new();
    for file in files {
        reports.push(import_file(file, &mut cx)?);
    }
    cx.sink
        .commit()
        .map_err(|message| ImportError::Write { message })?;
    Ok(ImportReport { files: reports })
}

fn import_file(file: &InputFile, cx: &mut Context) -> Result<FileReport, ImportError> {
    let name = file.name.as_str();
    let first = first_bytes(file.source, SNIFF_BYTES).map_err(|e| ImportError::Read {
        file: name.to_string(),
        message: e.to_string(),
    })?;
    let blank = super::decode::preview(&first).trim().is_empty();
    if blank && first.len() < SNIFF_BYTES {
        return Err(ImportError::Empty {
            file: name.to_string(),
        });
    }
    let text_report = |format, encoding: Encoding, delimiter: Option<u8>, tables| FileReport {
        name: name.to_string(),
        format,
        encoding: Some(encoding),
        delimiter: delimiter.map(char::from),
        tables,
        empty_sheets: Vec::new(),
    };
    Ok(match sniff::data_format(name, &first) {
        Sniffed::SqliteDatabase => {
            return Err(ImportError::NotForImporter {
                file: name.to_string(),
            })
        }
        Sniffed::Unrecognised { why } => {
            return Err(ImportError::Unrecognised {
                file: name.to_string(),
                why,
            })
        }
        Sniffed::Delimited {
            delimiter,
            encoding,
        } => {
            let table = delimited::import(name, file.source, delimiter, encoding, cx)?;
            text_report(Format::Delimited, encoding, Some(delimiter), vec![table])
        }
        Sniffed::Json { shape, encoding } => {
            let table = json::import(name, file.source, shape, encoding, cx)?;
            let format = match shape {
                JsonShape::Array => Format::JsonArray,
                JsonShape::Lines => Format::JsonLines,
            };
            text_report(format, encoding, None, vec![table])
        }
        Sniffed::Xlsx => {
            let (tables, empty_sheets) = xlsx::import(name, file.source, cx)?;
            FileReport {
                name: name.to_string(),
                format: Format::Xlsx,
                encoding: None,
                delimiter: None,
                tables,
                empty_sheets,
            }
        }
    })
}
