//! The `query` tool's description and JSON Schema, generated from the catalog: the tables, their
//! fields with kinds, the operators of each kind and the enumerations' values, within
//! [`SPEC_BYTES`]. When the whole catalog does not fit, enumerations are listed shorter, then
//! tables by name only (`describe_table` and the tool's own refusals still name everything).

use super::fields::{Catalog, FieldKind, Operator, TableFields};
use super::{Function, MAX_LIMIT};
use crate::agent::values::table_size_text;
use crate::llm::ToolSpec;
use crate::text::cut_chars;
use serde_json::{json, Value as Json};
use std::fmt::Write;

/// The most the tool's description and schema together may weigh, in bytes (about 4,000
/// tokens): sent with every model call, so a big database must not crowd out the question.
pub const SPEC_BYTES: usize = 16 * 1024;
/// Enumeration values listed per field, from most detail to least.
const VALUES_LISTED: [usize; 3] = [usize::MAX, 10, 0];
/// Enumeration values are cut to this many characters in the description.
const VALUE_CHARS: usize = 40;
/// Table names go into the schema's `enum` up to this many.
const ENUM_TABLES: usize = 200;

pub fn spec(name: &str, catalog: &Catalog) -> ToolSpec {
    let parameters = parameters(catalog);
    let room = SPEC_BYTES.saturating_sub(parameters.to_string().len() + name.len());
    ToolSpec {
        name: name.to_string(),
        description: description(catalog, room),
        parameters,
    }
}

fn parameters(catalog: &Catalog) -> Json {
    let mut table = json!({ "type": "string", "description": "The table to query." });
    if catalog.tables.len() <= ENUM_TABLES {
        let names: Vec<&str> = catalog.tables.iter().map(|t| t.name.as_str()).collect();
        table["enum"] = json!(names);
    }
    let field_list =
        |what: &str| json!({ "type": "array", "items": { "type": "string" }, "description": what });
    let scalar = json!({ "anyOf": [{ "type": "string" }, { "type": "number" }] });
    let functions: Vec<&str> = Function::ALL.iter().map(|f| f.name()).collect();
    let operators: Vec<&str> = Operator::ALL.iter().map(|op| op.name()).collect();
    json!({
        "type": "object",
        "properties": {
            "table": table,
            "fields": field_list("Fields to return; all of the table's when empty and nothing is aggregated."),
            "aggregates": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "function": { "type": "string", "enum": functions },
                        "field": { "type": "string", "description": "Leave out for count(*)." },
                    },
                    "required": ["function"],
                },
            },
            "filters": {
                "type": "array",
                "description": "All must hold.",
                "items": {
                    "type": "object",
                    "properties": {
                        "field": { "type": "string" },
                        "op": { "type": "string", "enum": operators },
                        "value": {
                            "description": "A value; a list for in, [from, to] for between; none for is_null and not_null.",
                            "anyOf": [scalar.clone(), { "type": "array", "items": scalar }],
                        },
                    },
                    "required": ["field", "op"],
                },
            },
            "group_by": field_list("Fields to group by; with aggregates, every returned field must be here."),
            "order_by": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "by": { "type": "string", "description": "A field, or a result column such as sum(quantity) or count(*)." },
                        "direction": { "type": "string", "enum": ["asc", "desc"] },
                    },
                    "required": ["by"],
                },
            },
            "limit": { "type": "integer", "minimum": 1, "maximum": MAX_LIMIT },
        },
        "required": ["table"],
    })
}

/// The description, at most `room` bytes: how to use the tool, then the tables and fields at
/// the most detail that fits.
fn description(catalog: &Catalog, room: usize) -> String {
    let mut text = how_to(catalog);
    let left = room.saturating_sub(text.len());
    let mut tables = String::new();
    for listed in VALUES_LISTED {
        tables = tables_part(catalog, listed, left);
        if tables.len() <= left && !tables.contains(OTHER_TABLES) {
            break;
        }
    }
    text.push_str(&tables);
    text
}

fn how_to(catalog: &Catalog) -> String {
    let example = key_example(catalog);
    format!(
        "Runs a structured read-only query on one table. In this mode you cannot write SQL: the \
         query is compiled to one SQLite statement with its values bound, and the result shows \
         that SQL, its values, the first rows and the query's number, which final_answer takes \
         as its evidence.\n\
         - aggregates: count without a field counts rows; the result names each as \
         function(field), e.g. sum(quantity) or count(*).\n\
         - A field of a table that a key points to is written key.field (one key deep){example}.\n\
         Operators by kind: text: eq ne contains starts_with in; enum: eq ne in (only the values \
         listed occur); number: eq ne lt lte gt gte between; date: on before after between, with \
         a date in the field's shape, or a month (2024-03) or a year (2024), taken whole; every \
         kind: is_null not_null (no value). between takes [from, to], both included; in takes a \
         list; contains and starts_with ignore case; ne leaves out NULL.\n\
         Tables (rows) and their fields (name kind; -> the table a key points to):\n"
    )
}

/// `, e.g. customer_id.prefecture from orders`, from the first key in the catalog.
fn key_example(catalog: &Catalog) -> String {
    catalog
        .tables
        .iter()
        .find_map(|table| {
            table.fields.iter().find_map(|field| {
                let (to, to_column) = field.key_to.as_ref()?;
                let other = catalog.table(to)?;
                // A field other than the key's own column says more.
                let shown = other
                    .fields
                    .iter()
                    .find(|f| f.key_to.is_none() && f.name != *to_column)
                    .or(other.fields.first())?;
                Some(format!(
                    ", e.g. {}.{} from {}",
                    field.name, shown.name, table.name
                ))
            })
        })
        .unwrap_or_default()
}

const OTHER_TABLES: &str = "Other tables (describe_table shows their fields):";

/// One line per table while they fit in `room`, with at most `listed` values per enumeration;
/// then the other tables by name.
fn tables_part(catalog: &Catalog, listed: usize, room: usize) -> String {
    let mut text = String::new();
    let mut rest = Vec::new();
    for table in &catalog.tables {
        let line = table_line(table, listed);
        if rest.is_empty() && text.len() + line.len() < room {
            text.push_str(&line);
            text.push('\n');
        } else {
            rest.push(table.name.as_str());
        }
    }
    if rest.is_empty() {
        return text;
    }
    text.push_str(OTHER_TABLES);
    let mut shown = 0;
    for name in &rest {
        if text.len() + name.len() + 40 > room {
            break;
        }
        let _ = write!(text, " {name}");
        shown += 1;
    }
    if shown < rest.len() {
        let _ = write!(
            text,
            " … and {} more (list_tables has them all)",
            rest.len() - shown
        );
    }
    text
}

/// `orders (12): id number, customer_id number -> customers, status enum ["a","b"], …`
fn table_line(table: &TableFields, listed: usize) -> String {
    let rows = table_size_text(table.kind, table.rows);
    let fields: Vec<String> = table
        .fields
        .iter()
        .map(|field| {
            let mut part = format!("{} {}", field.name, field.kind.label());
            match &field.kind {
                FieldKind::Enumeration { values } => {
                    let shown: Vec<String> = values
                        .iter()
                        .take(listed)
                        .map(|v| cut_chars(v, VALUE_CHARS))
                        .collect();
                    if shown.len() < values.len() {
                        let _ = write!(
                            part,
                            " ({} values{}{})",
                            values.len(),
                            if shown.is_empty() { "" } else { ", first: " },
                            if shown.is_empty() {
                                String::new()
                            } else {
                                json!(shown).to_string()
                            }
                        );
                    } else {
                        let _ = write!(part, " {}", json!(shown));
                    }
                }
                FieldKind::Date {
                    shape,
                    first,
                    last,
                    whole_table,
                } => {
                    let _ = if *whole_table {
                        write!(part, " {shape} from {first} to {last}")
                    } else {
                        write!(part, " {shape}, e.g. {first}")
                    };
                }
                FieldKind::Text | FieldKind::Number => {}
            }
            if let Some((to, _)) = &field.key_to {
                let _ = write!(part, " -> {to}");
            }
            part
        })
        .collect();
    format!("{} ({rows}): {}", table.name, fields.join(", "))
}
