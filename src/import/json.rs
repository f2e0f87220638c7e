//! JSON files with serde_json: an array of objects, or one value per line (NDJSON). Each object
//! is a row; the columns are the union of the keys in the order first seen. Streamed in two
//! passes like CSV: each element is read as raw text (`RawValue`), so a nested object or array
//! is kept as the JSON text it was written as, and nothing but one element is held at a time.
//! An element that is not an object goes into a column `value`.

use super::decode::{self, Encoding};
use super::error::{ImportError, MAX_COLUMNS};
use super::header::HeaderDecision;
use super::infer::{ColumnFold, Kind, SqlType};
use super::names::{self, Namer};
use super::places::Places;
use super::report::{PlaceKind, TableReport};
use super::sniff::JsonShape;
use super::source::{ByteSource, Counted};
use super::table::{Columns, Context, ROWS_PER_TICK};
use super::two_pass::{import_table, Findings, Surveyed, Target, TwoPass, WriteRow};
use crate::engine::Value;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, BufReader};

/// The column a non-object element goes into.
const VALUE_KEY: &str = "value";

/// The file `file` (its name), from `source`, as one table.
pub fn import(
    file: &str,
    source: &dyn ByteSource,
    shape: JsonShape,
    encoding: Encoding,
    cx: &mut Context,
) -> Result<TableReport, ImportError> {
    let reader = Elements {
        file,
        source,
        shape,
        encoding,
        index: HashMap::new(),
        duplicates: Places::default(),
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

/// A JSON file's elements, and what its first pass found of their keys.
struct Elements<'a> {
    file: &'a str,
    source: &'a dyn ByteSource,
    shape: JsonShape,
    encoding: Encoding,
    /// Each key's column.
    index: HashMap<String, usize>,
    /// Elements with a key twice.
    duplicates: Places,
}

impl Elements<'_> {
    fn each(&self, each: &mut OnElement) -> Result<(u64, u64), ImportError> {
        each_element(self.file, self.source, self.shape, self.encoding, each)
    }

    fn changed(&self) -> ImportError {
        ImportError::Changed {
            file: self.file.to_string(),
        }
    }
}

impl TwoPass for Elements<'_> {
    /// The keys and their values' kinds.
    fn survey(&mut self, cx: &mut Context) -> Result<Surveyed, ImportError> {
        let file = self.file;
        let (mut keys, mut folds): (Vec<String>, Vec<ColumnFold>) = Default::default();
        let mut rows: u64 = 0;
        let mut seen_in_row: Vec<u64> = Vec::new();
        let (index, duplicates) = (&mut self.index, &mut self.duplicates);
        let (bytes_pass1, _elements) = each_element(
            file,
            self.source,
            self.shape,
            self.encoding,
            &mut |place, raw, bytes| {
                rows += 1;
                let object = object_of(raw).map_err(|e| json_error(file, place, &e))?;
                for (key, value) in &object {
                    let i = match index.get(key.as_str()) {
                        Some(&i) => i,
                        None => {
                            if keys.len() == MAX_COLUMNS {
                                return Err(ImportError::TooManyColumns {
                                    file: file.to_string(),
                                    columns: keys.len() + 1,
                                });
                            }
                            index.insert(key.clone(), keys.len());
                            keys.push(key.clone());
                            folds.push(ColumnFold::default());
                            seen_in_row.push(0);
                            keys.len() - 1
                        }
                    };
                    if seen_in_row[i] == rows {
                        duplicates.add(place);
                    }
                    seen_in_row[i] = rows;
                    let (kind, text) = kind_of(value.get());
                    folds[i].add(kind, text);
                }
                if rows.is_multiple_of(ROWS_PER_TICK) {
                    cx.tick(bytes, ROWS_PER_TICK);
                }
                Ok(())
            },
        )?;
        // `[]`, or only whitespace: no column to make a table of.
        if keys.is_empty() {
            return Err(ImportError::Empty {
                file: file.to_string(),
            });
        }
        cx.tick(bytes_pass1, rows % ROWS_PER_TICK);
        let mut namer = Namer::default();
        let names: Vec<String> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| namer.unique(k, &format!("column_{}", i + 1)))
            .collect();
        Ok(Surveyed {
            columns: Columns::new(names, keys, folds),
            rows_read: rows,
            header: HeaderDecision::Keys,
        })
    }

    /// The rows, each object's values in its keys' columns.
    fn write_rows(
        &mut self,
        columns: &Columns,
        _header: &HeaderDecision,
        write: &mut WriteRow,
    ) -> Result<(), ImportError> {
        let mut row = vec![Value::Null; columns.names.len()];
        self.each(&mut |place, raw, bytes| {
            let object = object_of(raw).map_err(|e| json_error(self.file, place, &e))?;
            row.iter_mut().for_each(|v| *v = Value::Null);
            for (key, value) in &object {
                let i = *self.index.get(key.as_str()).ok_or_else(|| self.changed())?;
                row[i] = convert(value.get(), columns.types[i]).ok_or_else(|| self.changed())?;
            }
            write(&row, bytes)
        })?;
        Ok(())
    }

    fn findings(self) -> Findings {
        Findings {
            places: match self.shape {
                JsonShape::Array => PlaceKind::Element,
                JsonShape::Lines => PlaceKind::Line,
            },
            ragged: Places::default(),
            undecodable: Places::default(),
            duplicate_keys: self.duplicates,
        }
    }
}

type Entries = Vec<(String, Box<RawValue>)>;

/// An element's entries in their order; a non-object is one entry under `value`.
fn object_of(raw: &RawValue) -> Result<Entries, serde_json::Error> {
    if raw.get().trim_start().starts_with('{') {
        let mut de = serde_json::Deserializer::from_str(raw.get());
        de.deserialize_map(EntriesVisitor)
    } else {
        Ok(vec![(VALUE_KEY.to_string(), raw.to_owned())])
    }
}

struct EntriesVisitor;

impl<'de> Visitor<'de> for EntriesVisitor {
    type Value = Entries;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry::<String, Box<RawValue>>()? {
            entries.push(entry);
        }
        Ok(entries)
    }
}

/// A raw JSON value's kind, and the text the fold keeps as an example.
fn kind_of(raw: &str) -> (Kind, &str) {
    let kind = match raw.as_bytes().first() {
        Some(b'n') => Kind::Empty,
        Some(b't' | b'f') => Kind::Boolean,
        Some(b'"' | b'{' | b'[') => Kind::Text,
        _ if raw.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) => Kind::Real,
        // A whole number beyond i64 would lose digits as REAL: kept as written, as text.
        _ if raw.parse::<i64>().is_ok() => Kind::Integer,
        _ => Kind::Text,
    };
    (kind, raw)
}

/// A raw JSON value as its column stores it; None when it does not fit (the file changed).
fn convert(raw: &str, ty: SqlType) -> Option<Value> {
    let first = *raw.as_bytes().first()?;
    Some(match (first, ty) {
        (b'n', _) => Value::Null,
        (b'"', SqlType::Text) => Value::Text(serde_json::from_str(raw).ok()?),
        // Nested values and numbers in a text column: as written.
        (_, SqlType::Text) => Value::Text(raw.to_string()),
        (b't', _) => Value::Integer(1),
        (b'f', _) => Value::Integer(0),
        (_, SqlType::Integer) => Value::Integer(raw.parse().ok()?),
        (_, SqlType::Real) => Value::Real(raw.parse().ok()?),
    })
}

fn json_error(file: &str, place: u64, e: &serde_json::Error) -> ImportError {
    ImportError::Json {
        file: file.to_string(),
        line: if e.line() > 1 {
            place + e.line() as u64 - 1
        } else {
            place
        },
        message: e.to_string(),
    }
}

type OnElement<'c> = dyn FnMut(u64, &RawValue, u64) -> Result<(), ImportError> + 'c;

/// Calls `each(place, element, bytes_read)` for each element (place: the element's number in
/// an array, its line in NDJSON); answers the bytes read and the number of elements.
fn each_element(
    file: &str,
    source: &dyn ByteSource,
    shape: JsonShape,
    encoding: Encoding,
    each: &mut OnElement,
) -> Result<(u64, u64), ImportError> {
    let read_error = |e: std::io::Error| ImportError::Read {
        file: file.to_string(),
        message: e.to_string(),
    };
    let (counted, bytes) = Counted::new(source.open().map_err(read_error)?);
    // UTF-16 is transcoded; bad units become U+FFFD (JSON files are rarely UTF-16).
    let text =
        decode::utf8_reader(Box::new(counted), encoding, Default::default()).map_err(read_error)?;
    let reader = BufReader::with_capacity(256 * 1024, text);
    let mut elements = 0u64;
    match shape {
        JsonShape::Lines => {
            let mut line_no = 0u64;
            for line in reader.lines() {
                let line = line.map_err(|e| ImportError::Json {
                    file: file.to_string(),
                    line: line_no + 1,
                    message: e.to_string(),
                })?;
                line_no += 1;
                if line.trim().is_empty() {
                    continue;
                }
                let raw: Box<RawValue> =
                    serde_json::from_str(&line).map_err(|e| ImportError::Json {
                        file: file.to_string(),
                        line: line_no,
                        message: e.to_string(),
                    })?;
                elements += 1;
                each(line_no, &raw, bytes.get())?;
            }
        }
        JsonShape::Array => {
            let mut de = serde_json::Deserializer::from_reader(reader);
            let mut failure = None;
            let visitor = ArrayVisitor {
                each,
                failure: &mut failure,
                bytes: &bytes,
                count: &mut elements,
            };
            let parsed = de.deserialize_seq(visitor).and_then(|()| de.end());
            if let Some(failure) = failure {
                return Err(failure);
            }
            parsed.map_err(|e| ImportError::Json {
                file: file.to_string(),
                line: e.line() as u64,
                message: e.to_string(),
            })?;
        }
    }
    Ok((bytes.get(), elements))
}

struct ArrayVisitor<'v, 'c> {
    each: &'v mut OnElement<'c>,
    /// A failure of `each` (not a JSON error), kept while serde unwinds.
    failure: &'v mut Option<ImportError>,
    bytes: &'v std::rc::Rc<std::cell::Cell<u64>>,
    count: &'v mut u64,
}

impl<'de> Visitor<'de> for ArrayVisitor<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of objects")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(raw) = seq.next_element::<Box<RawValue>>()? {
            *self.count += 1;
            if let Err(e) = (self.each)(*self.count, &raw, self.bytes.get()) {
                *self.failure = Some(e);
                return Err(serde::de::Error::custom("stopped"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_values_are_classified_by_their_json_type() {
        assert_eq!(kind_of("12").0, Kind::Integer);
        assert_eq!(kind_of("1.5").0, Kind::Real);
        assert_eq!(kind_of("1e3").0, Kind::Real);
        assert_eq!(kind_of("\"12\"").0, Kind::Text);
        assert_eq!(kind_of("true").0, Kind::Boolean);
        assert_eq!(kind_of("null").0, Kind::Empty);
        assert_eq!(kind_of("{\"a\":1}").0, Kind::Text);
        assert_eq!(kind_of("123456789012345678901").0, Kind::Text);
    }

    #[test]
    fn nested_values_are_kept_as_the_json_text_written() {
        assert_eq!(
            convert("{\"b\": [1, 2]}", SqlType::Text),
            Some(Value::Text("{\"b\": [1, 2]}".into()))
        );
        assert_eq!(
            convert("\"a\\\"b\"", SqlType::Text),
            Some(Value::Text("a\"b".into()))
        );
        assert_eq!(convert("true", SqlType::Integer), Some(Value::Integer(1)));
    }

    #[test]
    fn keys_keep_their_order() {
        let raw: Box<RawValue> = serde_json::from_str("{\"z\":1,\"a\":2}").unwrap();
        let keys: Vec<String> = object_of(&raw)
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(keys, ["z", "a"]);
    }
}
