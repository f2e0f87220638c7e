//! `query(table, fields, aggregates, filters, group_by, order_by, limit)`: a structured query,
//! for safe mode, where the model writes no SQL. The app checks it against the fields of the
//! database ([`Catalog`]: each field's kind and the operators it allows) and compiles it to one
//! statement with bound values ([`compile`]), which runs through the same guard
//! (`guard::check_bound`), limits and engine as any other query.

mod compile;
mod fields;
mod plan;
mod spec;
mod values;

pub use compile::{compile, Compiled};
pub use fields::{Catalog, Field, FieldKind, Operator, TableFields, ENUMERATION_VALUES};
pub use plan::MAX_LIMIT;
pub use spec::SPEC_BYTES;

use super::args::Args;
use super::run_sql::SqlRun;
use super::{Mode, Offer, Tool, ToolOutput, Toolbox};
use crate::agent::traps::explain_error;
use crate::agent::values::value_json;
use crate::engine::Database;
use crate::llm::ToolSpec;
use crate::text::cut_chars;
use serde::Serialize;
use serde_json::Value as Json;

/// Values shown back to the model beside the SQL are cut to this many characters.
const SHOWN_VALUE_CHARS: usize = 200;
/// Lists (fields, filters, …) longer than this are refused: no real question needs more.
const MAX_LIST: usize = 50;

/// `query(...)`, as the model asked it (checked against the database when it runs).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StructuredQuery {
    pub table: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aggregates: Vec<Aggregate>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<Filter>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub group_by: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub order_by: Vec<Order>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Aggregate {
    pub function: Function,
    /// `None` only for `count`, which then counts rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Function {
    Count,
    CountDistinct,
    Sum,
    Avg,
    Min,
    Max,
}

impl Function {
    pub const ALL: [Function; 6] = [
        Function::Count,
        Function::CountDistinct,
        Function::Sum,
        Function::Avg,
        Function::Min,
        Function::Max,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Function::Count => "count",
            Function::CountDistinct => "count_distinct",
            Function::Sum => "sum",
            Function::Avg => "avg",
            Function::Min => "min",
            Function::Max => "max",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Filter {
    pub field: String,
    /// As written; checked against the field's operators when the query is compiled.
    pub op: String,
    /// As written (null when absent); read for the field's kind when compiled.
    pub value: Json,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Order {
    /// A field, or a column of the result such as `sum(quantity)`.
    pub by: String,
    pub descending: bool,
}

impl Tool for StructuredQuery {
    const NAME: &'static str = "query";

    fn spec(offer: &Offer) -> ToolSpec {
        spec::spec(Self::NAME, offer.catalog)
    }

    fn read(args: &Args, _: Mode) -> Result<Self, String> {
        Ok(StructuredQuery {
            table: args.text("table")?,
            fields: texts(args, "fields")?,
            aggregates: list(args, "aggregates", aggregate)?,
            filters: list(args, "filters", filter)?,
            group_by: texts(args, "group_by")?,
            order_by: list(args, "order_by", order)?,
            limit: args.optional_count("limit")?.map(|n| n as u64),
        })
    }

    async fn run<D: Database + ?Sized>(
        &self,
        toolbox: &mut Toolbox<'_, D>,
    ) -> Result<ToolOutput, String> {
        let compiled = compile(toolbox.catalog, self)?;
        let rows = toolbox.data().config().rows_to_model;
        match toolbox
            .data()
            .query_bound(&compiled.sql, &compiled.values, rows)
            .await
        {
            Ok(result) => {
                let mut run = SqlRun::new(compiled.sql.clone(), &result, Vec::new());
                run.values = compiled
                    .values
                    .iter()
                    .map(|value| value_json(value, SHOWN_VALUE_CHARS))
                    .collect();
                toolbox.queries_run.push(compiled);
                run.number = Some(toolbox.queries_run.len());
                Ok(ToolOutput::Rows(run))
            }
            Err(error) => Ok(ToolOutput::error(explain_error(
                toolbox.data().schema(),
                &error,
            ))),
        }
    }
}

/// A list argument, each item read by `item`; absent is empty. A single item stands for a list
/// of one (models write that).
fn list<T>(
    args: &Args,
    name: &str,
    item: fn(&Json) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let items = match args.get(name) {
        None => return Ok(Vec::new()),
        Some(Json::Array(items)) => items.as_slice(),
        Some(one) => std::slice::from_ref(one),
    };
    if items.len() > MAX_LIST {
        return Err(format!("`{name}` takes at most {MAX_LIST} items"));
    }
    items
        .iter()
        .map(item)
        .collect::<Result<_, _>>()
        .map_err(|why| format!("in `{name}`: {why}"))
}

fn texts(args: &Args, name: &str) -> Result<Vec<String>, String> {
    list(args, name, |item| match item {
        Json::String(text) => Ok(text.clone()),
        other => Err(format!("a field name is text, not {}", short(other))),
    })
}

fn short(value: &Json) -> String {
    cut_chars(&value.to_string(), 80)
}

/// The text of `key` in an item object; `None` when absent.
fn member<'j>(object: &'j Json, key: &str) -> Result<Option<&'j str>, String> {
    match object.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(text)) => Ok(Some(text)),
        Some(other) => Err(format!("`{key}` must be text, not {}", short(other))),
    }
}

fn aggregate(item: &Json) -> Result<Aggregate, String> {
    let names = || {
        let names: Vec<&str> = Function::ALL.iter().map(|f| f.name()).collect();
        names.join(", ")
    };
    let (function, field) = match item {
        // "count" alone counts rows.
        Json::String(name) => (name.as_str(), None),
        Json::Object(_) => (
            member(item, "function")?.ok_or_else(|| {
                format!(
                    "each aggregate is {{\"function\": one of {}, \"field\": a field}}; got {}",
                    names(),
                    short(item)
                )
            })?,
            member(item, "field")?,
        ),
        other => return Err(format!("an aggregate is an object, not {}", short(other))),
    };
    let function = Function::ALL
        .into_iter()
        .find(|f| f.name().eq_ignore_ascii_case(function.trim()))
        .ok_or_else(|| {
            format!(
                "`{}` is not an aggregate; the aggregates are: {}",
                cut_chars(function, 30),
                names()
            )
        })?;
    let field = field
        .map(str::trim)
        .filter(|f| !f.is_empty() && *f != "*")
        .map(String::from);
    Ok(Aggregate { function, field })
}

fn filter(item: &Json) -> Result<Filter, String> {
    let shape = || {
        format!(
            "each filter is {{\"field\", \"op\", \"value\"}}; got {}",
            short(item)
        )
    };
    if !item.is_object() {
        return Err(shape());
    }
    Ok(Filter {
        field: member(item, "field")?.ok_or_else(shape)?.to_string(),
        op: member(item, "op")?.ok_or_else(shape)?.to_string(),
        value: item.get("value").cloned().unwrap_or(Json::Null),
    })
}

fn order(item: &Json) -> Result<Order, String> {
    let (by, direction) = match item {
        Json::String(by) => (by.as_str(), None),
        Json::Object(_) => (
            member(item, "by")?.ok_or_else(|| {
                format!(
                    "each order is {{\"by\": a field or result column, \"direction\": \"asc\" or \
                     \"desc\"}}; got {}",
                    short(item)
                )
            })?,
            member(item, "direction")?,
        ),
        other => return Err(format!("an order is an object, not {}", short(other))),
    };
    let descending = match direction.map(|d| d.trim().to_ascii_lowercase()).as_deref() {
        None | Some("asc") => false,
        Some("desc") => true,
        Some(other) => {
            return Err(format!(
                "the direction is \"asc\" or \"desc\", not {:?}",
                cut_chars(other, 20)
            ))
        }
    };
    Ok(Order {
        by: by.to_string(),
        descending,
    })
}
