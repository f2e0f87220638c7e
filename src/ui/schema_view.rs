//! The open database's tables and views: columns with types, keys, row counts; for each
//! table and column its note, and whether the model may see it (a button hides it, or shows it
//! again). A count that is not exact (estimated, "more than", not counted: see
//! `engine::schema::count_rows`) says so, and "Count rows" counts that table. The knowledge tables (`askdb_notes`, …) are not listed as data: the "Knowledge"
//! section names them. With `read_only` (the embedded page) notes are shown, not edited.

use super::app_state;
use super::follow;
use super::knowledge::{KnowledgeSection, NoteView};
use super::lazy::{on_first_use, when_here};
use super::state::{AppState, OpenDatabase};
use crate::count::rows_for_person;
use crate::engine::schema::{self, Column, Table};
use crate::engine::{RowCount, TableKind};
use crate::knowledge::is_knowledge_table;
use crate::tr;
use crate::ui::language::tr_live;
use leptos::prelude::*;

/// Small schemas start unfolded; larger ones start as a list of names.
const UNFOLD_UP_TO: usize = 4;

#[component]
pub fn SchemaView(#[prop(optional)] read_only: bool) -> impl IntoView {
    let state = app_state();
    move || {
        let open = state.open.get()?;
        Some(when_here(schema_in_chunk(open, read_only)))
    }
}

on_first_use! {
    database =>
    /// The tables of `open`: drawn by the chunk that opened it, so a first visit does not
    /// download the schema panel.
    fn schema_in_chunk(open: OpenDatabase, read_only: bool) -> AnyView {
        schema_panel(open, read_only)
    }
}

fn schema_panel(open: OpenDatabase, read_only: bool) -> AnyView {
    let tables: Vec<Table> = open
        .schema
        .tables
        .into_iter()
        .filter(|table| !is_knowledge_table(&table.name))
        .collect();
    let unfold = tables.len() <= UNFOLD_UP_TO;
    let counting = open.counting;
    let list = if tables.is_empty() {
        view! { <p class="muted">{tr_live("schema-no-tables")}</p> }.into_any()
    } else {
        view! {
            <ul class="schema-tables">
                {tables
                    .into_iter()
                    .map(|table| view! { <TableEntry table=table unfold=unfold read_only=read_only counting=counting/> })
                    .collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
        <section class="panel schema" aria-labelledby="schema-heading">
            <h2 id="schema-heading">{tr_live("schema-heading")}</h2>
            <KnowledgeSection read_only=read_only/>
            {list}
        </section>
    }
    .into_any()
}

#[component]
fn TableEntry(table: Table, unfold: bool, read_only: bool, counting: bool) -> impl IntoView {
    let state = app_state();
    let note = NoteView::new(&table.name, None, !read_only);
    let select_all = table.first_rows_sql();
    let columns = table
        .columns
        .iter()
        .map(|column| column_entry(state, &table, column, read_only))
        .collect_view();
    let kind = (table.kind == TableKind::View)
        .then(|| view! { <span class="badge">{tr_live("schema-badge-view")}</span> });
    let name = table.name.clone();
    let hidden = {
        let name = name.clone();
        Memo::new(move |_| state.assistant.hiding.with(|h| h.hidden.hides_table(&name)))
    };
    let left_out = {
        let name = name.clone();
        Memo::new(move |_| state.assistant.hiding.with(|h| h.leaves_out(&name)))
    };
    let kind_name = if table.kind == TableKind::View {
        "view"
    } else {
        "table"
    };
    let count = RowCountView::new(&table, counting);
    view! {
        <li
            class="schema-table"
            class:hidden-from-model=hidden
            data-testid="schema-table"
            data-name=table.name.clone()
        >
            <details open=unfold>
                <summary>
                    <span class="table-name" translate="no">{table.name.clone()}</span>
                    {kind}
                    {hidden_badge(hidden)}
                    {left_out_badge(left_out)}
                    {count.text}
                </summary>
                {note.body}
                <ul class="columns">{columns}</ul>
                <div class="table-actions">
                    {note.button}
                    {count.button}
                    <button
                        class="link-button"
                        title=select_all.clone()
                        on:click=move |_| state.sql.set(select_all.clone())
                    >
                        {tr_live("schema-query-table")}
                    </button>
                    <button
                        class="link-button"
                        data-testid="hide-table"
                        aria-pressed=move || hidden.get().to_string()
                        title=move || tr!("hide-table-title", kind = kind_name)
                        on:click=move |_| follow::toggle_hidden(state, &name, None)
                    >
                        {move || if hidden.get() { tr!("hide-table-show") } else { tr!("hide-table-hide") }}
                    </button>
                </div>
            </details>
        </li>
    }
}

/// "hidden" beside a name the model does not see.
fn hidden_badge(hidden: Memo<bool>) -> impl IntoView {
    move || {
        hidden.get().then(|| {
            view! {
                <span class="badge hidden-badge" title=tr_live("hide-badge-title")>
                    {tr_live("hide-badge")}
                </span>
            }
        })
    }
}

/// "not for the model" beside a table or view the model does not see although nobody hid it.
fn left_out_badge(left_out: Memo<bool>) -> impl IntoView {
    move || {
        left_out.get().then(|| {
            view! {
                <span
                    class="badge hidden-badge"
                    data-testid="left-out-badge"
                    title=tr_live("hide-left-out-title")
                >
                    {tr_live("hide-left-out")}
                </span>
            }
        })
    }
}

fn column_entry(state: AppState, table: &Table, column: &Column, read_only: bool) -> impl IntoView {
    let note = NoteView::new(&table.name, Some(&column.name), !read_only);
    let primary = (column.primary_key > 0).then(|| {
        view! {
            <span class="badge key" title=tr_live("schema-primary-key-title")>
                {tr_live("schema-primary-key")}
            </span>
        }
    });
    let references = references_of(table, &column.name).map(|target| {
        view! {
            <span class="badge fk" title=tr_live("schema-foreign-key-title")>
                "→ "<span translate="no">{target}</span>
            </span>
        }
    });
    let not_null = column
        .not_null
        .then(|| view! { <span class="badge quiet">{tr_live("schema-not-null")}</span> });
    let table_hidden = {
        let table_name = table.name.clone();
        Memo::new(move |_| {
            state
                .assistant
                .hiding
                .with(|h| h.hidden.hides_table(&table_name))
        })
    };
    let column_hidden = {
        let (table_name, column_name) = (table.name.clone(), column.name.clone());
        Memo::new(move |_| {
            state
                .assistant
                .hiding
                .with(|h| h.hidden.hides_column(&table_name, &column_name))
        })
    };
    // Within a hidden table, the table's badge and button speak for its columns.
    let own_badge = Memo::new(move |_| column_hidden.get() && !table_hidden.get());
    // A view's column cannot be left out of a copy on its own: the view is hidden whole.
    let toggle = (table.kind == TableKind::Table).then(|| {
        let (table_name, column_name) = (table.name.clone(), column.name.clone());
        move || {
            let (table_name, column_name) = (table_name.clone(), column_name.clone());
            let label = column_name.clone();
            (!table_hidden.get()).then(|| {
                view! {
                    <button
                        class="column-toggle"
                        data-testid="hide-column"
                        aria-pressed=move || column_hidden.get().to_string()
                        aria-label=move || {
                            let column = label.clone();
                            if column_hidden.get() {
                                tr!("hide-column-show-label", column = column)
                            } else {
                                tr!("hide-column-hide-label", column = column)
                            }
                        }
                        on:click=move |_| follow::toggle_hidden(state, &table_name, Some(&column_name))
                    >
                        {move || if column_hidden.get() { tr!("hide-column-show") } else { tr!("hide-column-hide") }}
                    </button>
                }
            })
        }
    });
    view! {
        <li
            class="column"
            class:hidden-from-model=move || table_hidden.get() || column_hidden.get()
            data-name=column.name.clone()
        >
            <span class="column-info">
                <span class="column-name" translate="no">{column.name.clone()}</span>
                <span class="column-type" translate="no">{column.decl_type.clone()}</span>
                {primary}
                {references}
                {not_null}
                {hidden_badge(own_badge)}
            </span>
            {note.button}
            {toggle}
            {note.body}
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

/// A table's row count as the panel shows it, and the button that counts it exactly when the
/// count shown is not exact.
struct RowCountView {
    text: AnyView,
    button: Option<AnyView>,
}

/// What counting a table gave, once asked.
#[derive(Clone, Debug, PartialEq)]
enum Counting {
    Running,
    Done(RowCount),
    Failed(String),
}

impl RowCountView {
    /// `being_counted`: the rows are being counted as the database opens.
    fn new(table: &Table, being_counted: bool) -> RowCountView {
        let state = app_state();
        let counting = RwSignal::new(None::<Counting>);
        let (kind, shown) = (table.kind, table.row_count);
        let text = move || {
            let (text, exact, title) = match counting.get() {
                Some(Counting::Done(count)) => {
                    (rows_for_person(count), true, tr!("schema-counted-now"))
                }
                Some(Counting::Failed(why)) => (
                    tr!("schema-count-failed"),
                    false,
                    tr!("schema-count-failed-title", why = why),
                ),
                Some(Counting::Running) | None if being_counted && kind == TableKind::Table => {
                    (tr!("schema-counting"), false, String::new())
                }
                Some(Counting::Running) | None => row_count_text(kind, shown),
            };
            view! {
                <span class="row-count" class:inexact=!exact data-testid="row-count" title=title>
                    {text}
                </span>
            }
        };
        let exact = matches!(shown, Some(RowCount::Exact(_)));
        let button = (kind == TableKind::Table && !exact && !being_counted).then(|| {
            let name = table.name.clone();
            let count = move |_| {
                let Some(db) = state.database() else {
                    return;
                };
                let name = name.clone();
                let limits = state.limits.get_untracked();
                counting.set(Some(Counting::Running));
                leptos::task::spawn_local(async move {
                    let outcome = schema::count_table(&*db, &name, &limits).await;
                    counting.set(Some(match outcome {
                        Ok(count) => Counting::Done(count),
                        Err(why) => Counting::Failed(why.to_string()),
                    }));
                });
            };
            view! {
                <button
                    class="link-button"
                    data-testid="count-rows"
                    title=tr_live("schema-count-rows-title")
                    disabled=move || counting.get() == Some(Counting::Running)
                    on:click=count
                >
                    {move || match counting.get() {
                        Some(Counting::Running) => tr!("schema-counting-button"),
                        _ => tr!("schema-count-rows"),
                    }}
                </button>
            }
            .into_any()
        });
        RowCountView {
            text: text.into_any(),
            button,
        }
    }
}

/// The count as the panel shows it, whether it is exact, and what it means.
fn row_count_text(kind: TableKind, count: Option<RowCount>) -> (String, bool, String) {
    match (kind, count) {
        (_, Some(count @ RowCount::Exact(_))) => (rows_for_person(count), true, String::new()),
        (_, Some(count @ RowCount::Estimated(_))) => (
            tr!("schema-rows-estimated", rows = rows_for_person(count)),
            false,
            tr!("schema-rows-estimated-title"),
        ),
        (_, Some(count)) => (
            rows_for_person(count),
            false,
            tr!("schema-rows-stopped-title"),
        ),
        (TableKind::View, None) => (String::new(), true, String::new()),
        (TableKind::Table, None) => (
            tr!("schema-rows-not-counted"),
            false,
            tr!("schema-rows-not-counted-title"),
        ),
    }
}
