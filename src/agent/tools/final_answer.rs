//! `final_answer(answer, sql, notes)`: the answer, with the query that proves it. The query must
//! pass the guard and run; when it does not, the model is told why and may fix it a couple of
//! times, after which the answer is taken as it is, marked as without evidence.
//!
//! In safe mode the model writes no SQL here either: `final_answer(answer, query, notes)` names
//! the structured query (by the number its result carried) whose compiled SQL, with its bound
//! values, becomes the evidence.

use super::args::Args;
use super::query::Compiled;
use super::{spec, text_parameter, Mode, Offer, Tool, ToolOutput, Toolbox};
use crate::agent::traps::explain_error;
use crate::engine::{Database, Value};
use crate::llm::ToolSpec;
use serde::Serialize;
use serde_json::json;

/// Refusals of evidence SQL before the answer is taken without it.
const REFUSALS_ALLOWED: u32 = 2;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AcceptedAnswer {
    pub answer: String,
    pub sql: Option<String>,
    /// The values bound to `sql`'s parameters (a structured query's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
    pub notes: Option<String>,
    /// True when `sql` passed the guard and ran.
    pub verified: bool,
}

/// `final_answer(answer, sql, notes)`, or in safe mode `final_answer(answer, query, notes)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FinalAnswer {
    /// Not empty.
    pub answer: String,
    /// As the model wrote it; empty when no query can answer (and always in safe mode).
    pub sql: String,
    /// In safe mode: the number of the structured query that proves the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<usize>,
    /// `None` when absent or blank.
    pub notes: Option<String>,
}

const ANSWER: &str = "The answer, in the language of the question.";
const NOTES: &str = "Optional: interpretations you chose, caveats.";

impl Tool for FinalAnswer {
    const NAME: &'static str = "final_answer";

    fn spec(offer: &Offer) -> ToolSpec {
        let description = "Gives the answer to the person and ends the question. Call it once \
                           you have the result.";
        let parameters = match offer.mode {
            Mode::Sql => json!({
                "type": "object",
                "properties": {
                    "answer": text_parameter(ANSWER),
                    "sql": text_parameter("The one query whose result proves the answer; it is \
                                 shown to the person and run again. Empty only when no query can \
                                 answer."),
                    "notes": text_parameter(NOTES),
                },
                "required": ["answer", "sql"],
            }),
            Mode::Safe => json!({
                "type": "object",
                "properties": {
                    "answer": text_parameter(ANSWER),
                    "query": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "The number of the query (its result says \"query\": n) \
                                        whose result proves the answer; its SQL is shown to the \
                                        person and run again. Leave it out only when no query \
                                        can answer.",
                    },
                    "notes": text_parameter(NOTES),
                },
                "required": ["answer"],
            }),
        };
        spec(Self::NAME, description, parameters)
    }

    fn read(args: &Args, mode: Mode) -> Result<Self, String> {
        let answer = args.text("answer")?;
        let (sql, query) = match mode {
            Mode::Sql => (args.text("sql")?, None),
            Mode::Safe => {
                if args
                    .optional_text("sql")?
                    .is_some_and(|sql| !sql.trim().is_empty())
                {
                    return Err(
                        "SQL cannot be given in this mode: give `query`, the number of \
                                the query whose result proves the answer"
                            .into(),
                    );
                }
                (String::new(), args.optional_count("query")?)
            }
        };
        let notes = args
            .optional_text("notes")?
            .filter(|notes| !notes.trim().is_empty());
        if answer.trim().is_empty() {
            return Err("the argument `answer` is empty: write the answer for the person".into());
        }
        Ok(FinalAnswer {
            answer,
            sql,
            query,
            notes,
        })
    }

    async fn run<D: Database + ?Sized>(
        &self,
        toolbox: &mut Toolbox<'_, D>,
    ) -> Result<ToolOutput, String> {
        let FinalAnswer {
            answer,
            sql,
            query,
            notes,
        } = self.clone();
        let evidence = match query {
            Some(number) => Some(toolbox.query_run(number)?),
            None => {
                let sql = crate::sql::tidy::tidy(&sql);
                (!sql.is_empty()).then_some(Compiled {
                    sql,
                    values: Vec::new(),
                })
            }
        };
        check_evidence(toolbox, answer, evidence, notes).await
    }
}

/// Takes the answer when its SQL runs (or there is none); refuses it a few times when the SQL
/// does not run. `Err` is a message for the model.
async fn check_evidence<D: Database + ?Sized>(
    toolbox: &mut Toolbox<'_, D>,
    answer: String,
    evidence: Option<Compiled>,
    notes: Option<String>,
) -> Result<ToolOutput, String> {
    let Some(evidence) = evidence else {
        return Ok(accepted(answer, None, notes, false));
    };
    // An answer proven from askdb's notes (a golden question's SQL, say) proves nothing.
    super::refuse_knowledge_tables(&evidence.sql)?;
    match toolbox
        .data()
        .query_bound(&evidence.sql, &evidence.values, 1)
        .await
    {
        Ok(_) => Ok(accepted(answer, Some(evidence), notes, true)),
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
    evidence: Option<Compiled>,
    notes: Option<String>,
    verified: bool,
) -> ToolOutput {
    let (sql, values) = match evidence {
        Some(Compiled { sql, values }) => (Some(sql), values),
        None => (None, Vec::new()),
    };
    ToolOutput::Answer(AcceptedAnswer {
        answer,
        sql,
        values,
        notes,
        verified,
    })
}
