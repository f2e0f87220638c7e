//! `final_answer(answer, sql, notes)`: the answer, with the query that proves it. The query must
//! pass the guard and run; when it does not, the model is told why and may fix it a couple of
//! times, after which the answer is taken as it is, marked as without evidence.

use super::args::Args;
use super::{ToolOutput, Toolbox};
use crate::agent::checks::explain_error;
use crate::engine::Database;
use serde::Serialize;

/// Refusals of evidence SQL before the answer is taken without it.
const REFUSALS_ALLOWED: u32 = 2;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AcceptedAnswer {
    pub answer: String,
    pub sql: Option<String>,
    pub notes: Option<String>,
    /// True when `sql` passed the guard and ran.
    pub verified: bool,
}

/// Checks the answer's arguments and evidence. `Err` is a message for the model.
pub(crate) async fn final_answer<D: Database + ?Sized>(
    toolbox: &mut Toolbox<'_, D>,
    args: &Args,
) -> Result<ToolOutput, String> {
    let answer = args.text("answer")?;
    let sql = args.text("sql")?;
    let notes = args
        .optional_text("notes")?
        .filter(|notes| !notes.trim().is_empty());
    if answer.trim().is_empty() {
        return Err("the argument `answer` is empty: write the answer for the person".into());
    }
    let sql = crate::sql::tidy::tidy(&sql);
    if sql.is_empty() {
        return Ok(accepted(answer, None, notes, false));
    }
    match toolbox.data().query(&sql, 1).await {
        Ok(_) => Ok(accepted(answer, Some(sql), notes, true)),
        Err(error) if toolbox.refused_answers < REFUSALS_ALLOWED => {
            toolbox.refused_answers += 1;
            Err(format!(
                "not accepted, because the evidence SQL does not run: {}. Fix the SQL and call \
                 final_answer again.",
                explain_error(toolbox.data().schema(), &error)
            ))
        }
        Err(error) => {
            let why = format!("The evidence SQL did not run: {error}");
            let notes = Some(match notes {
                Some(notes) => format!("{notes}\n{why}"),
                None => why,
            });
            Ok(accepted(answer, None, notes, false))
        }
    }
}

fn accepted(
    answer: String,
    sql: Option<String>,
    notes: Option<String>,
    verified: bool,
) -> ToolOutput {
    ToolOutput::Answer(AcceptedAnswer {
        answer,
        sql,
        notes,
        verified,
    })
}
