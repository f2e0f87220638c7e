//! The open database's tables and views: columns with types, keys, row counts.

use super::app_state;
use crate::engine::schema::{Column, Table};
use crate::engine::TableKind;
use crate::present::count::rows;
use leptos::prelude::*;

/// Small schemas start unfolded; larger ones start as a list of names.
const UNFOLD_UP_TO: usize = 4;

#[component]
pub fn SchemaView() -> impl IntoView {
    let state = app_state();
    move || {
        let open = state.open.get()?;
        let tables = open.schema.tables;
        let unfold = tables.len() <= UNFOLD_UP_TO;
        let list = if tables.is_empty() {
            view! { <p class="muted">"This database has no tables."</p> }.into_any()
        } else {
            view! {
                <ul class="schema-tables">
                    {tables
                        .into_iter()
                        .map(|table| view! { <TableEntry table=table unfold=unfold/> })
                        .collect_view()}
                </ul>
            }
            .into_any()
        };
        Some(view! {
            <section class="panel schema" aria-labelledby="schema-heading">
                <h2 id="schema-heading">"Schema"</h2>
                {list}
            </section>
        })
    }
}

#[component]
fn TableEntry(table: Table, unfold: bool) -> impl IntoView {
    let state = app_state();
    let select_all = format!(
        "SELECT * FROM {} LIMIT 100;",
        crate::sql::quote_ident(&table.name)
    );
    let columns = table
        .columns
        .iter()
        .map(|column| column_entry(&table, column))
        .collect_view();
    let kind = (table.kind == TableKind::View).then(|| view! { <span class="badge">"view"</span> });
    view! {
        <li class="schema-table" data-testid="schema-table" data-name=table.name.clone()>
            <details open=unfold>
                <summary>
                    <span class="table-name">{table.name.clone()}</span>
                    {kind}
                    <span class="row-count">{row_count_text(&table)}</span>
                </summary>
                <ul class="columns">{columns}</ul>
                <button
                    class="link-button"
                    title=select_all.clone()
                    on:click=move |_| state.sql.set(select_all.clone())
                >
                    "Query this table"
                </button>
            </details>
        </li>
    }
}

fn column_entry(table: &Table, column: &Column) -> impl IntoView {
    let primary = (column.primary_key > 0)
        .then(|| view! { <span class="badge key" title="primary key">"PK"</span> });
    let references = references_of(table, &column.name).map(|target| {
        view! { <span class="badge fk" title="foreign key">"→ "{target}</span> }
    });
    let not_null = column
        .not_null
        .then(|| view! { <span class="badge quiet">"not null"</span> });
    view! {
        <li class="column">
            <span class="column-name">{column.name.clone()}</span>
            <span class="column-type">{column.decl_type.clone()}</span>
            {primary}
            {references}
            {not_null}
        </li>
    }
}

/// "customers.id" when `column` is (part of) a foreign key; "customers" when the key refers to
/// the other table's primary key implicitly.
fn references_of(table: &Table, column: &str) -> Option<String> {
    table.foreign_keys.iter().find_map(|key| {
        let position = key.from_columns.iter().position(|c| c == column)?;
        Some(match key.to_columns.get(position) {
            Some(to) => format!("{}.{}", key.to_table, to),
            None => key.to_table.clone(),
        })
    })
}

fn row_count_text(table: &Table) -> String {
    match (table.kind, table.row_count) {
        (_, Some(count)) => rows(count),
        (TableKind::View, None) => String::new(),
        (TableKind::Table, None) => "rows not counted".into(),
    }
}
