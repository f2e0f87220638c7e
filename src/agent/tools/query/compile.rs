//! A structured query, checked against the catalog and compiled to one SQL statement whose
//! values are parameters `?1`, `?2`, … (never written into its text). Every mistake is refused
//! with what would be accepted: the tables, the fields, the operators for that field, the values
//! that occur.

use super::fields::{Catalog, Field, FieldKind, Operator, TableFields};
use super::values;
use super::{Aggregate, Filter, Function, StructuredQuery};
use crate::engine::Value;
use crate::sql::{ident, quote_ident};
use serde::Serialize;

/// The largest `limit` a query may ask for.
pub const MAX_LIMIT: u64 = 100_000;

/// A compiled query: the statement, and the values bound to its parameters in order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Compiled {
    pub sql: String,
    pub values: Vec<Value>,
}

/// A field the query names, resolved: where it is read from and what it holds.
struct Resolved<'c> {
    /// As the result names it: `status`, `customer_id.prefecture`.
    label: String,
    /// As SQL reads it: `orders.status`, `customers.prefecture`.
    expression: String,
    field: &'c Field,
}

/// The joins a query needs: one per key it follows, in the order first used.
struct Joins<'c> {
    base: &'c TableFields,
    /// (key column, alias, joined table, joined column)
    list: Vec<(String, String, String, String)>,
}

impl<'c> Joins<'c> {
    /// The alias of the table the key `column` points at, joined once.
    fn alias_for(&mut self, column: &str, table: &str, to_column: &str) -> String {
        if let Some((_, alias, _, _)) = self.list.iter().find(|(key, ..)| key == column) {
            return alias.clone();
        }
        let taken = |name: &str| {
            name.eq_ignore_ascii_case(&self.base.name)
                || self
                    .list
                    .iter()
                    .any(|(_, alias, ..)| alias.eq_ignore_ascii_case(name))
        };
        let alias = if taken(table) {
            format!("{table}_via_{column}")
        } else {
            table.to_string()
        };
        self.list.push((
            column.to_string(),
            alias.clone(),
            table.to_string(),
            to_column.to_string(),
        ));
        alias
    }
}

/// Checks `query` against `catalog` and compiles it.
pub fn compile(catalog: &Catalog, query: &StructuredQuery) -> Result<Compiled, String> {
    let base = catalog.table(&query.table).ok_or_else(|| {
        let names: Vec<&str> = catalog.tables.iter().map(|t| t.name.as_str()).collect();
        format!(
            "there is no table `{}`; the tables are: {}",
            crate::text::cut_chars(&query.table, 60),
            names.join(", ")
        )
    })?;
    let mut joins = Joins {
        base,
        list: Vec::new(),
    };
    let mut bound: Vec<Value> = Vec::new();

    let mut conditions = Vec::new();
    for filter in &query.filters {
        let resolved = resolve(catalog, &mut joins, &filter.field)?;
        conditions.push(condition(&resolved, filter, &mut bound)?);
    }

    let groups = query
        .group_by
        .iter()
        .map(|path| resolve(catalog, &mut joins, path))
        .collect::<Result<Vec<_>, _>>()?;
    let aggregates = query
        .aggregates
        .iter()
        .map(|aggregate| aggregate_column(catalog, &mut joins, aggregate))
        .collect::<Result<Vec<_>, _>>()?;
    let grouped = !groups.is_empty() || !aggregates.is_empty();

    // The plain columns: the groups first, then fields not among them.
    let mut columns: Vec<(String, String)> = groups
        .iter()
        .map(|g| (g.label.clone(), g.expression.clone()))
        .collect();
    let wanted: Vec<String> = if query.fields.is_empty() && !grouped {
        base.fields.iter().map(|f| f.name.clone()).collect()
    } else {
        query.fields.clone()
    };
    for path in &wanted {
        let resolved = resolve(catalog, &mut joins, path)?;
        if columns.iter().any(|(label, _)| *label == resolved.label) {
            continue;
        }
        if grouped {
            return Err(format!(
                "`{}` is neither in group_by nor aggregated: add it to group_by, or ask for an \
                 aggregate of it",
                resolved.label
            ));
        }
        columns.push((resolved.label, resolved.expression));
    }
    columns.extend(aggregates);

    let mut order = Vec::new();
    for item in &query.order_by {
        let expression = match columns
            .iter()
            .find(|(label, _)| label.eq_ignore_ascii_case(item.by.trim()))
        {
            Some((_, expression)) => expression.clone(),
            None if grouped => {
                let names: Vec<&str> = columns.iter().map(|(label, _)| label.as_str()).collect();
                return Err(format!(
                    "cannot order by `{}`: order a grouped query by one of its columns: {}",
                    crate::text::cut_chars(&item.by, 60),
                    names.join(", ")
                ));
            }
            None => resolve(catalog, &mut joins, &item.by)?.expression,
        };
        let direction = if item.descending { " DESC" } else { "" };
        order.push(format!("{expression}{direction}"));
    }

    if let Some(limit) = query.limit {
        if limit == 0 || limit > MAX_LIMIT {
            return Err(format!("`limit` goes from 1 to {MAX_LIMIT}"));
        }
    }

    let select: Vec<String> = columns
        .iter()
        .map(|(label, expression)| {
            let plain = expression.rsplit('.').next() == Some(ident(label).as_str());
            if plain {
                expression.clone()
            } else {
                format!("{expression} AS {}", quote_ident(label))
            }
        })
        .collect();
    let mut sql = format!("SELECT {}\nFROM {}", select.join(", "), ident(&base.name));
    for (column, alias, table, to_column) in &joins.list {
        let aliased = if *alias == *table {
            ident(table)
        } else {
            format!("{} AS {}", ident(table), ident(alias))
        };
        sql.push_str(&format!(
            "\nLEFT JOIN {aliased} ON {}.{} = {}.{}",
            ident(alias),
            ident(to_column),
            ident(&base.name),
            ident(column)
        ));
    }
    if !conditions.is_empty() {
        sql.push_str(&format!("\nWHERE {}", conditions.join("\n  AND ")));
    }
    if !groups.is_empty() {
        let keys: Vec<&str> = groups.iter().map(|g| g.expression.as_str()).collect();
        sql.push_str(&format!("\nGROUP BY {}", keys.join(", ")));
    }
    if !order.is_empty() {
        sql.push_str(&format!("\nORDER BY {}", order.join(", ")));
    }
    if let Some(limit) = query.limit {
        sql.push_str(&format!("\nLIMIT {limit}"));
    }
    Ok(Compiled { sql, values: bound })
}

/// `status` on the base table, or `customer_id.prefecture` through the key `customer_id`.
fn resolve<'c>(
    catalog: &'c Catalog,
    joins: &mut Joins<'c>,
    path: &str,
) -> Result<Resolved<'c>, String> {
    let base = joins.base;
    let path = path.trim();
    // A column whose name has a dot in it is read as that column.
    let parts: Vec<&str> = match base.field(path) {
        Some(_) => vec![path],
        None => path.split('.').collect(),
    };
    match parts[..] {
        [name] => {
            let field = base.field(name).ok_or_else(|| no_such_field(base, path))?;
            Ok(Resolved {
                label: field.name.clone(),
                expression: format!("{}.{}", ident(&base.name), ident(&field.name)),
                field,
            })
        }
        [key, name] => {
            let key_field = base.field(key).ok_or_else(|| no_such_field(base, path))?;
            let Some((table, to_column)) = &key_field.key_to else {
                return Err(format!(
                    "`{}` is not a key to another table, so `{path}` cannot be read; {}",
                    key_field.name,
                    keys_of(base)
                ));
            };
            let target = catalog.table(table).ok_or_else(|| {
                format!("the table `{table}` that `{key}` points at is not known")
            })?;
            let field = target.field(name).ok_or_else(|| {
                format!(
                    "`{}` has no field `{}`; its fields are: {}",
                    target.name,
                    crate::text::cut_chars(name, 60),
                    field_names(target)
                )
            })?;
            let alias = joins.alias_for(&key_field.name, &target.name, to_column);
            Ok(Resolved {
                label: format!("{}.{}", key_field.name, field.name),
                expression: format!("{}.{}", ident(&alias), ident(&field.name)),
                field,
            })
        }
        _ => Err(format!(
            "`{}`: a field follows at most one key, as in `key.field` (e.g. `{}`)",
            crate::text::cut_chars(path, 60),
            example_path(base, catalog)
        )),
    }
}

fn no_such_field(base: &TableFields, path: &str) -> String {
    format!(
        "`{}` has no field `{}`; its fields are: {}; {}",
        base.name,
        crate::text::cut_chars(path, 60),
        field_names(base),
        keys_of(base)
    )
}

fn field_names(table: &TableFields) -> String {
    let names: Vec<String> = table
        .fields
        .iter()
        .map(|f| format!("{} ({})", f.name, f.kind.label()))
        .collect();
    names.join(", ")
}

/// The keys a field of `table` may follow, in a sentence.
fn keys_of(table: &TableFields) -> String {
    let keys: Vec<String> = table
        .fields
        .iter()
        .filter_map(|f| {
            let (to, _) = f.key_to.as_ref()?;
            Some(format!("{}.<field of {to}>", f.name))
        })
        .collect();
    if keys.is_empty() {
        format!("`{}` has no keys to other tables", table.name)
    } else {
        format!("fields of other tables: {}", keys.join(", "))
    }
}

fn example_path(base: &TableFields, catalog: &Catalog) -> String {
    base.fields
        .iter()
        .find_map(|f| {
            let (to, _) = f.key_to.as_ref()?;
            let other = catalog.table(to)?.fields.first()?;
            Some(format!("{}.{}", f.name, other.name))
        })
        .unwrap_or_else(|| "customer_id.name".into())
}

/// One filter as SQL, its values pushed onto `values`.
fn condition(
    resolved: &Resolved,
    filter: &Filter,
    bound: &mut Vec<Value>,
) -> Result<String, String> {
    let Resolved {
        label,
        expression: e,
        field,
    } = resolved;
    let kind = &field.kind;
    let allowed: Vec<&str> = kind.operators().iter().map(|op| op.name()).collect();
    let describe = match kind {
        FieldKind::Enumeration { values } => format!("an enum of {} values", values.len()),
        FieldKind::Date { shape, .. } => format!("a date, {shape}"),
        other => format!("{} ", other.label()).trim_end().to_string(),
    };
    let op = Operator::parse(&filter.op).ok_or_else(|| {
        format!(
            "`{}` is not an operator; for `{label}` ({describe}) the operators are: {}",
            crate::text::cut_chars(&filter.op, 30),
            allowed.join(", ")
        )
    })?;
    if !kind.operators().contains(&op) {
        return Err(format!(
            "`{}` does not apply to `{label}` ({describe}); its operators are: {}",
            op.name(),
            allowed.join(", ")
        ));
    }
    let mut bind = |value: Value| {
        bound.push(value);
        format!("?{}", bound.len())
    };
    let value = &filter.value;
    let no_value = || -> Result<(), String> {
        match value {
            serde_json::Value::Null => Ok(()),
            _ => Err(format!("`{}` takes no value", op.name())),
        }
    };
    let needs_value = || -> Result<(), String> {
        match value {
            serde_json::Value::Null => Err(format!("`{}` on `{label}` needs a value", op.name())),
            _ => Ok(()),
        }
    };
    if !matches!(op, Operator::IsNull | Operator::NotNull) {
        needs_value()?;
    }
    let date_prefix = |text: &Value| match text {
        Value::Text(text) => text.chars().count(),
        _ => 0,
    };
    Ok(match op {
        Operator::IsNull => {
            no_value()?;
            format!("{e} IS NULL")
        }
        Operator::NotNull => {
            no_value()?;
            format!("{e} IS NOT NULL")
        }
        Operator::Eq
        | Operator::Ne
        | Operator::Lt
        | Operator::Lte
        | Operator::Gt
        | Operator::Gte => {
            let sign = match op {
                Operator::Eq => "=",
                Operator::Ne => "<>",
                Operator::Lt => "<",
                Operator::Lte => "<=",
                Operator::Gt => ">",
                _ => ">=",
            };
            let p = bind(values::one(label, kind, value)?);
            format!("{e} {sign} {p}")
        }
        Operator::Contains | Operator::StartsWith => {
            let text = values::one(label, kind, value)?.to_string();
            // LIKE, so that case does not matter (for ASCII); its wildcards are escaped.
            let escaped = text
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_");
            let pattern = match op {
                Operator::Contains => format!("%{escaped}%"),
                _ => format!("{escaped}%"),
            };
            let p = bind(Value::Text(pattern));
            format!("{e} LIKE {p} ESCAPE '\\'")
        }
        Operator::In => {
            let list: Vec<String> = values::list(label, kind, value)?
                .into_iter()
                .map(&mut bind)
                .collect();
            format!("{e} IN ({})", list.join(", "))
        }
        Operator::Between if matches!(kind, FieldKind::Date { .. }) => {
            let (from, to) = values::pair(label, kind, value)?;
            let (from_chars, to_chars) = (date_prefix(&from), date_prefix(&to));
            let (from, to) = (bind(from), bind(to));
            format!("substr({e}, 1, {from_chars}) >= {from} AND substr({e}, 1, {to_chars}) <= {to}")
        }
        Operator::Between => {
            let (from, to) = values::pair(label, kind, value)?;
            let (from, to) = (bind(from), bind(to));
            format!("{e} BETWEEN {from} AND {to}")
        }
        Operator::On | Operator::Before | Operator::After => {
            // A date compares by its prefix: `on 2024-03` is the whole month, and `before`
            // a day leaves out the times of that day.
            let date = values::one(label, kind, value)?;
            let chars = date_prefix(&date);
            let sign = match op {
                Operator::On => "=",
                Operator::Before => "<",
                _ => ">",
            };
            let p = bind(date);
            format!("substr({e}, 1, {chars}) {sign} {p}")
        }
    })
}

/// One aggregate as (label, expression): `sum(quantity)` → `sum(orders.quantity)`.
fn aggregate_column<'c>(
    catalog: &'c Catalog,
    joins: &mut Joins<'c>,
    aggregate: &Aggregate,
) -> Result<(String, String), String> {
    let function = aggregate.function;
    let Some(path) = &aggregate.field else {
        return match function {
            Function::Count => Ok(("count(*)".into(), "count(*)".into())),
            _ => Err(format!("`{}` needs a field to aggregate", function.name())),
        };
    };
    let resolved = resolve(catalog, joins, path)?;
    let numeric = matches!(resolved.field.kind, FieldKind::Number);
    if matches!(function, Function::Sum | Function::Avg) && !numeric {
        return Err(format!(
            "`{}` needs a number field; `{}` is {}",
            function.name(),
            resolved.label,
            resolved.field.kind.label()
        ));
    }
    let e = &resolved.expression;
    let expression = match function {
        Function::Count => format!("count({e})"),
        Function::CountDistinct => format!("count(DISTINCT {e})"),
        Function::Sum => format!("sum({e})"),
        Function::Avg => format!("avg({e})"),
        Function::Min => format!("min({e})"),
        Function::Max => format!("max({e})"),
    };
    Ok((
        format!("{}({})", function.name(), resolved.label),
        expression,
    ))
}
