//! A structured query checked against the catalog: every table, field, key, operator and value
//! it names resolved into a [`Plan`] (what to read, through which joins, under which
//! conditions), or refused with what would be accepted: the tables, the fields, the operators
//! for that field, the values that occur. [`super::compile`] writes the plan as SQL.

use super::fields::{Catalog, Field, FieldKind, Operator, TableFields};
use super::values;
use super::{Aggregate, Filter, Function, StructuredQuery};
use crate::engine::Value;
use crate::sql::ident;

/// The largest `limit` a query may ask for.
pub const MAX_LIMIT: u64 = 100_000;

/// A query whose every name and value was checked: what [`super::compile`] writes.
pub(super) struct Plan {
    /// The table the query reads, as SQL names it.
    pub base: String,
    /// The result's columns, in order: the groups, the plain fields, the aggregates.
    pub columns: Vec<Column>,
    pub joins: Vec<Join>,
    pub conditions: Vec<Condition>,
    /// The expressions the rows are grouped by.
    pub groups: Vec<String>,
    pub order: Vec<OrderKey>,
    pub limit: Option<u64>,
}

/// A column of the result: as the result names it, and as SQL reads it.
pub(super) struct Column {
    pub label: String,
    pub expression: String,
}

/// A table joined through a key: `LEFT JOIN table AS alias ON alias.to_column = base.key_column`.
pub(super) struct Join {
    pub key_column: String,
    pub alias: String,
    pub table: String,
    pub to_column: String,
}

/// One filter: the expression it tests, and how.
pub(super) struct Condition {
    pub expression: String,
    pub test: Test,
}

/// What a condition asks of its expression, with its values (bound, never written into SQL).
pub(super) enum Test {
    IsNull,
    NotNull,
    /// `=`, `<>`, `<`, `<=`, `>`, `>=`.
    Compare {
        sign: &'static str,
        value: Value,
    },
    /// A `LIKE` pattern, its wildcards escaped with `\`.
    Like {
        pattern: String,
    },
    In(Vec<Value>),
    Between {
        from: Value,
        to: Value,
    },
    /// A date compared by its prefix (`on 2024-03` is the whole month): the first as many
    /// characters as the value has.
    Prefix {
        sign: &'static str,
        value: Value,
    },
    /// Dates between two prefixes, each compared on its own length.
    PrefixBetween {
        from: Value,
        to: Value,
    },
}

pub(super) struct OrderKey {
    pub expression: String,
    pub descending: bool,
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
    list: Vec<Join>,
}

impl<'c> Joins<'c> {
    /// The alias of the table the key `column` points at, joined once.
    fn alias_for(&mut self, column: &str, table: &str, to_column: &str) -> String {
        if let Some(join) = self.list.iter().find(|join| join.key_column == column) {
            return join.alias.clone();
        }
        let taken = |name: &str| {
            name.eq_ignore_ascii_case(&self.base.name)
                || self
                    .list
                    .iter()
                    .any(|join| join.alias.eq_ignore_ascii_case(name))
        };
        let alias = if taken(table) {
            format!("{table}_via_{column}")
        } else {
            table.to_string()
        };
        self.list.push(Join {
            key_column: column.to_string(),
            alias: alias.clone(),
            table: table.to_string(),
            to_column: to_column.to_string(),
        });
        alias
    }
}

/// Checks `query` against `catalog`: the plan, or the first mistake with what would do.
pub(super) fn check(catalog: &Catalog, query: &StructuredQuery) -> Result<Plan, String> {
    let base = base_table(catalog, &query.table)?;
    // Joins are made in the order their keys are first named: filters, groups, aggregates,
    // fields, then the order.
    let mut joins = Joins {
        base,
        list: Vec::new(),
    };

    let mut conditions = Vec::new();
    for filter in &query.filters {
        let resolved = resolve(catalog, &mut joins, &filter.field)?;
        conditions.push(condition(resolved, filter)?);
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

    let mut columns = plain_columns(catalog, &mut joins, query, &groups, grouped)?;
    columns.extend(aggregates);
    let order = order_keys(catalog, &mut joins, query, &columns, grouped)?;

    if let Some(limit) = query.limit {
        if limit == 0 || limit > MAX_LIMIT {
            return Err(format!("`limit` goes from 1 to {MAX_LIMIT}"));
        }
    }

    Ok(Plan {
        base: base.name.clone(),
        columns,
        joins: joins.list,
        conditions,
        groups: groups.into_iter().map(|g| g.expression).collect(),
        order,
        limit: query.limit,
    })
}

/// The table the query reads, or a refusal that lists the tables there are.
fn base_table<'c>(catalog: &'c Catalog, name: &str) -> Result<&'c TableFields, String> {
    catalog.table(name).ok_or_else(|| {
        let names: Vec<&str> = catalog.tables.iter().map(|t| t.name.as_str()).collect();
        format!(
            "there is no table `{}`; the tables are: {}",
            crate::text::cut_chars(name, 60),
            names.join(", ")
        )
    })
}

/// The result's plain columns: the groups first, then the fields asked for that are not among
/// them (every field of the base table when none is asked for and nothing is grouped); a field
/// neither grouped nor aggregated is refused in a grouped query.
fn plain_columns<'c>(
    catalog: &'c Catalog,
    joins: &mut Joins<'c>,
    query: &StructuredQuery,
    groups: &[Resolved<'c>],
    grouped: bool,
) -> Result<Vec<Column>, String> {
    let mut columns: Vec<Column> = groups
        .iter()
        .map(|g| Column {
            label: g.label.clone(),
            expression: g.expression.clone(),
        })
        .collect();
    let wanted: Vec<String> = if query.fields.is_empty() && !grouped {
        joins.base.fields.iter().map(|f| f.name.clone()).collect()
    } else {
        query.fields.clone()
    };
    for path in &wanted {
        let resolved = resolve(catalog, joins, path)?;
        if columns.iter().any(|c| c.label == resolved.label) {
            continue;
        }
        if grouped {
            return Err(format!(
                "`{}` is neither in group_by nor aggregated: add it to group_by, or ask for an \
                 aggregate of it",
                resolved.label
            ));
        }
        columns.push(Column {
            label: resolved.label,
            expression: resolved.expression,
        });
    }
    Ok(columns)
}

/// The order keys: a result column by its label, or (ungrouped only) any field the query can
/// name; a grouped query is refused an order by anything but its columns.
fn order_keys<'c>(
    catalog: &'c Catalog,
    joins: &mut Joins<'c>,
    query: &StructuredQuery,
    columns: &[Column],
    grouped: bool,
) -> Result<Vec<OrderKey>, String> {
    let mut order = Vec::new();
    for item in &query.order_by {
        let expression = match columns
            .iter()
            .find(|c| c.label.eq_ignore_ascii_case(item.by.trim()))
        {
            Some(column) => column.expression.clone(),
            None if grouped => {
                let names: Vec<&str> = columns.iter().map(|c| c.label.as_str()).collect();
                return Err(format!(
                    "cannot order by `{}`: order a grouped query by one of its columns: {}",
                    crate::text::cut_chars(&item.by, 60),
                    names.join(", ")
                ));
            }
            None => resolve(catalog, joins, &item.by)?.expression,
        };
        order.push(OrderKey {
            expression,
            descending: item.descending,
        });
    }
    Ok(order)
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

/// One filter, checked: its operator applies to the field's kind, and its value is one the
/// field can hold.
fn condition(resolved: Resolved, filter: &Filter) -> Result<Condition, String> {
    let Resolved {
        label,
        expression,
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
    let value = &filter.value;
    let takes_value = !matches!(op, Operator::IsNull | Operator::NotNull);
    match (takes_value, value) {
        (true, serde_json::Value::Null) => {
            return Err(format!("`{}` on `{label}` needs a value", op.name()))
        }
        (false, serde_json::Value::Null) | (true, _) => {}
        (false, _) => return Err(format!("`{}` takes no value", op.name())),
    }
    let label = label.as_str();
    let test = match op {
        Operator::IsNull => Test::IsNull,
        Operator::NotNull => Test::NotNull,
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
            Test::Compare {
                sign,
                value: values::one(label, kind, value)?,
            }
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
            Test::Like { pattern }
        }
        Operator::In => Test::In(values::list(label, kind, value)?),
        Operator::Between if matches!(kind, FieldKind::Date { .. }) => {
            let (from, to) = values::pair(label, kind, value)?;
            Test::PrefixBetween { from, to }
        }
        Operator::Between => {
            let (from, to) = values::pair(label, kind, value)?;
            Test::Between { from, to }
        }
        Operator::On | Operator::Before | Operator::After => {
            // A date compares by its prefix: `on 2024-03` is the whole month, and `before`
            // a day leaves out the times of that day.
            let sign = match op {
                Operator::On => "=",
                Operator::Before => "<",
                _ => ">",
            };
            Test::Prefix {
                sign,
                value: values::one(label, kind, value)?,
            }
        }
    };
    Ok(Condition { expression, test })
}

/// One aggregate as a column: `sum(quantity)` → `sum(orders.quantity)`.
fn aggregate_column<'c>(
    catalog: &'c Catalog,
    joins: &mut Joins<'c>,
    aggregate: &Aggregate,
) -> Result<Column, String> {
    let function = aggregate.function;
    let Some(path) = &aggregate.field else {
        return match function {
            Function::Count => Ok(Column {
                label: "count(*)".into(),
                expression: "count(*)".into(),
            }),
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
    Ok(Column {
        label: format!("{}({})", function.name(), resolved.label),
        expression,
    })
}
