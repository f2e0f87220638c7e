//! `final_answer(answer, sql, notes)`: the answer, with the query that proves it. The query must
//! pass the guard and run; when it does not, the model is told why and may fix it a couple of
//! times, after which the answer is taken as it is, marked as without evidence.

use super::args::Args;
use super::{spec, text_parameter, Tool, ToolOutput, Toolbox};
use crate::agent::checks::explain_error;
use crate::engine::Database;
use crate::llm::ToolSpec;
use serde::Serialize;
use serde_json::json;

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

/// `final_answer(answer, sql, notes)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FinalAnswer {
    /// Not empty.
    pub answer: String,
    /// As the model wrote it; empty when no query can answer.
    pub sql: String,
    /// `None` when absent or blank.
    pub notes: Option<String>,
}

impl Tool for FinalAnswer {
    const NAME: &'static str = "final_answer";

    fn spec() -> ToolSpec {
        spec(
            Self::NAME,
            "Gives the answer to the person and ends the question. Call it once you have the \
             result.",
            json!({
                "type": "object",
                "properties": {
                    "answer": text_parameter("The answer, in the language of the question."),
                    "sql": text_parameter("The one query whose result proves the answer; it is \
                                 shown to the person and run again. Empty only when no query can \
                                 answer."),
                    "notes": text_parameter("Optional: interpretations you chose, caveats."),
                },
                "required": ["answer", "sql"],
            }),
        )
    }

    fn read(args: &Args) -> Result<Self, String> {
        let answer = args.text("answer")?;
        let sql = args.text("sql")?;
        let notes = args
            .optional_text("notes")?
            .filter(|notes| !notes.trim().is_empty());
        if answer.trim().is_empty() {
            return Err("the argument `answer` is empty: write the answer for the person".into());
        }
        Ok(FinalAnswer { answer, sql, notes })
    }

    async fn run<D: Database + ?Sized>(
        &self,
        toolbox: &mut Toolbox<'_, D>,
    ) -> Result<ToolOutput, String> {
        let FinalAnswer { answer, sql, notes } = self.clone();
        check_evidence(toolbox, answer, &sql, notes).await
    }
}

/// Takes the answer when its SQL runs (or there is none); refuses it a few times when the SQL
/// does not run. `Err` is a message for the model.
async fn check_evidence<D: Database + ?Sized>(
    toolbox: &mut Toolbox<'_, D>,
    answer: String,
    sql: &str,
    notes: Option<String>,
) -> Result<ToolOutput, String> {
    let sql = crate::sql::tidy::tidy(sql);
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
