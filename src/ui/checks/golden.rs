//! The open database's golden questions, and the knowledge the model gets while they are asked.
//!
//! Stand-in until the page's knowledge loading (`ui/knowledge`, reading every source) is on
//! this branch: the golden questions are read from the file's `askdb_checks(question, sql)`
//! table, and the model gets no other knowledge. Replaced by the merged knowledge then.

use super::super::state::AppState;
use crate::engine::{query, QueryLimits, Value};
use crate::knowledge::{Check, Knowledge, Source};
use leptos::prelude::*;

/// At most this many golden questions are read.
const MAX_CHECKS: usize = 500;

/// The golden questions of the database that is open (none while none is), read again when
/// another one opens.
pub fn golden_questions(app: AppState) -> Signal<Vec<Check>> {
    let read = LocalResource::new(move || {
        let opened = app.open.with(|open| open.as_ref().map(|o| o.name.clone()));
        async move {
            opened?;
            let limits = QueryLimits {
                max_rows: MAX_CHECKS,
                deadline_ms: 3_000,
            };
            let db = app.database();
            // No such table (most databases) is no golden questions.
            let rows = query(&*db, "SELECT question, sql FROM askdb_checks", &limits)
                .await
                .ok()?;
            Some(rows.rows.iter().filter_map(|row| check(row)).collect())
        }
    });
    Signal::derive(move || read.get().flatten().unwrap_or_default())
}

fn check(row: &[Value]) -> Option<Check> {
    match row {
        [Value::Text(question), Value::Text(sql)] => Some(Check {
            question: question.clone(),
            sql: sql.clone(),
            also_accepted: Vec::new(),
            source: Source::Database,
        }),
        _ => None,
    }
}

/// What the model knows of the data while the golden questions are asked (the runner takes the
/// golden questions out of it).
pub fn knowledge(_app: AppState) -> Knowledge {
    Knowledge::default()
}
