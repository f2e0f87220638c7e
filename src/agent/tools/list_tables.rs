//! `list_tables()`: the tables and views with their row and column counts.

use super::args::Args;
use super::{spec, Mode, Offer, Tool, ToolOutput, Toolbox};
use crate::agent::values::TableRows;
use crate::engine::{Database, TableKind};
use crate::llm::ToolSpec;
use serde::Serialize;
use serde_json::json;

/// `list_tables` takes no arguments.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ListTables {}

impl Tool for ListTables {
    const NAME: &'static str = "list_tables";

    fn spec(_: &Offer) -> ToolSpec {
        spec(
            Self::NAME,
            "Lists the tables and views with their row and column counts.",
            json!({ "type": "object", "properties": {} }),
        )
    }

    fn read(_: &Args, _: Mode) -> Result<Self, String> {
        Ok(ListTables {})
    }

    async fn run<D: Database + ?Sized>(
        &self,
        toolbox: &mut Toolbox<'_, D>,
    ) -> Result<ToolOutput, String> {
        let tables = toolbox
            .data()
            .schema()
            .tables
            .iter()
            .map(|table| TableSummary {
                name: table.name.clone(),
                kind: table.kind,
                rows: TableRows::of(table.kind, table.row_count),
                columns: table.columns.len(),
            })
            .collect();
        Ok(ToolOutput::Tables { tables, note: None })
    }
}

/// One line of `list_tables`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableSummary {
    pub name: String,
    #[serde(skip_serializing_if = "is_table")]
    pub kind: TableKind,
    /// A number when exact; "more than N", "about N, estimated" or "rows not counted"
    /// otherwise; none for a view.
    #[serde(skip_serializing_if = "TableRows::is_view")]
    pub rows: TableRows,
    pub columns: usize,
}

pub(super) fn is_table(kind: &TableKind) -> bool {
    *kind == TableKind::Table
}
