//! An evaluation [`Report`] as files a person keeps: Markdown to read, JSON to process
//! (`docs/eval-report.md` lists its fields). Neither holds a key, a header or a URL: the
//! report never had them.
//!
//! Everything in a report came from the model or the data, so the Markdown escapes it: text in
//! the table and the headings cannot start a link, an image, HTML or a new cell, and SQL sits in
//! code blocks whose fence is longer than any run of backticks inside.

use super::calibration::{agreed_passed, calibration, CalibrationRow};
use super::run::{GoldenResult, Outcome, Report};
use crate::count::grouped;
use crate::present::time::elapsed;
use crate::text::cut_chars;
use serde::Serialize;

/// The `format` tag of the JSON report.
pub const JSON_FORMAT: &str = "askdb-eval-report/1";
/// Questions and reasons are cut to this many characters in the table.
const CELL_CHARS: usize = 200;

/// The report as Markdown: the summary, a table with one row per question, then each question
/// that did not pass with both SQLs and why.
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let model = if report.model.is_empty() {
        "the chosen model".to_string()
    } else {
        inline(&report.model, CELL_CHARS)
    };
    out.push_str(&format!("# Golden questions asked of {model}\n\n"));
    out.push_str(&format!(
        "**{}** in {}.\n\n",
        inline(&report.summary(), CELL_CHARS),
        elapsed(report.elapsed_ms)
    ));
    if let Some((right, asked)) = agreed_passed(&report.results) {
        out.push_str(&format!(
            "The agreed answer (the result more candidates gave than any other): **{right} of \
             {asked} correct**. The result above is the first candidate's, asked as a single \
             answer is.\n\n"
        ));
        out.push_str(&calibration_table(&calibration(&report.results)));
        out.push('\n');
    }
    if let Some(line) = selection_line(&report.results) {
        out.push_str(&line);
    }
    out.push_str("| # | question | result | steps | tokens | time | schema in the first request | first request |\n");
    out.push_str("| ---: | --- | --- | ---: | ---: | ---: | --- | ---: |\n");
    for (index, result) in report.results.iter().enumerate() {
        let outcome = match result.outcome.why() {
            None => result.outcome.label().to_string(),
            Some(why) => format!("{}: {}", result.outcome.label(), inline(&why, CELL_CHARS)),
        };
        let (shown, bytes) = match &result.selection {
            Some(recall) if recall.whole => ("whole".to_string(), kb(recall.first_request_bytes)),
            Some(recall) => (
                format!(
                    "{}/{} tables, {}/{} columns",
                    recall.tables_found, recall.tables, recall.columns_found, recall.columns
                ),
                kb(recall.first_request_bytes),
            ),
            None => ("–".to_string(), "–".to_string()),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            index + 1,
            inline(&result.question, CELL_CHARS),
            outcome,
            result.steps,
            grouped(result.usage.input_tokens + result.usage.output_tokens),
            elapsed(result.elapsed_ms),
            shown,
            bytes,
        ));
    }
    let failures: Vec<(usize, &GoldenResult)> = report
        .results
        .iter()
        .enumerate()
        .filter(|(_, result)| result.outcome != Outcome::Pass)
        .collect();
    if !failures.is_empty() {
        out.push_str("\n## Not passed\n");
    }
    for (index, result) in failures {
        out.push_str(&format!(
            "\n### {}. {}\n\n",
            index + 1,
            inline(&result.question, CELL_CHARS)
        ));
        if let Some(why) = result.outcome.why() {
            out.push_str(&format!(
                "{}: {}\n\n",
                result.outcome.label(),
                inline(&why, 2_000)
            ));
        }
        out.push_str("Expected SQL:\n\n");
        out.push_str(&code_block(&result.expected_sql));
        match &result.model_sql {
            Some(sql) => {
                out.push_str("\nThe model's SQL:\n\n");
                out.push_str(&code_block(sql));
            }
            None => out.push_str("\nThe model gave no SQL.\n"),
        }
    }
    out
}

/// "Schema in the first request: 45 of 50 tables (90 %) and 120 of 140 columns (86 %) of the
/// expected SQL; first requests 412.0 KB in all, 8.2 KB on average." — `None` when no question
/// reached the model.
fn selection_line(results: &[GoldenResult]) -> Option<String> {
    let recalls: Vec<_> = results
        .iter()
        .filter_map(|r| r.selection.as_ref())
        .collect();
    if recalls.is_empty() {
        return None;
    }
    let (tables_found, tables, columns_found, columns, bytes) =
        super::selection::totals(recalls.iter().copied());
    Some(format!(
        "Schema in the first request: {tables_found} of {tables} tables ({}) and \
         {columns_found} of {columns} columns ({}) of the expected SQL; first requests {} in \
         all, {} on average.\n\n",
        share(tables_found, tables),
        share(columns_found, columns),
        kb(bytes),
        kb(bytes / recalls.len()),
    ))
}

/// `8.2 KB`.
fn kb(bytes: usize) -> String {
    format!("{:.1} KB", bytes as f64 / 1000.0)
}

/// Whether agreement predicts correctness, as a Markdown table: per agreement level, the
/// questions and how many had their agreed answer right.
pub fn calibration_table(rows: &[CalibrationRow]) -> String {
    let mut out = String::from(
        "| candidates agreeing | questions | agreed answer right | share right |\n\
         | --- | ---: | ---: | ---: |\n",
    );
    for row in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            row.label(),
            row.questions,
            row.right,
            share(row.right, row.questions)
        ));
    }
    out
}

/// "67 %", or "–" of nothing.
pub fn share(part: usize, whole: usize) -> String {
    match whole {
        0 => "–".into(),
        _ => format!("{} %", (part * 100 + whole / 2) / whole),
    }
}

/// The report as pretty JSON: `{"format": "askdb-eval-report/1", "summary": …, …}` with the
/// fields of [`Report`] (and with candidates, `agreed_passed`, `agreed_total` and
/// `calibration`).
pub fn json(report: &Report) -> String {
    #[derive(Serialize)]
    struct File<'r> {
        format: &'static str,
        summary: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        agreed_passed: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        agreed_total: Option<usize>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        calibration: Vec<CalibrationRow>,
        #[serde(flatten)]
        report: &'r Report,
    }
    let agreed = agreed_passed(&report.results);
    let file = File {
        format: JSON_FORMAT,
        summary: report.summary(),
        agreed_passed: agreed.map(|(right, _)| right),
        agreed_total: agreed.map(|(_, asked)| asked),
        calibration: calibration(&report.results),
        report,
    };
    serde_json::to_string_pretty(&file).expect("a report always serializes")
}

/// "askdb-eval-2026-12-01T05-09" + extension: a file name from an ISO time.
pub fn file_name(iso_time: &str, extension: &str) -> String {
    let stamp: String = iso_time
        .chars()
        .take(16)
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("askdb-eval-{stamp}.{extension}")
}

/// Text on one line, cut, with every ASCII punctuation mark backslash-escaped: CommonMark then
/// shows it as it is (no emphasis, link, HTML, entity or table cell starts inside it).
fn inline(text: &str, max_chars: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut escaped = String::with_capacity(one_line.len());
    for c in cut_chars(&one_line, max_chars).chars() {
        if c.is_ascii_punctuation() {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// SQL in a fenced block that nothing inside can close.
fn code_block(sql: &str) -> String {
    let longest_run = sql.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run.max(2) + 1);
    format!("{fence}sql\n{}\n{fence}\n", sql.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_text_cannot_start_markup() {
        assert_eq!(
            inline("a | b <img src=x> [x](y)\n*z*", 100),
            r"a \| b \<img src\=x\> \[x\]\(y\) \*z\*"
        );
        assert_eq!(inline("東京都", 2), "東京…");
    }

    #[test]
    fn code_blocks_outlast_backticks_inside() {
        assert_eq!(code_block("SELECT 1"), "```sql\nSELECT 1\n```\n");
        let block = code_block("SELECT '````' AS x");
        assert!(block.starts_with("`````sql\n"), "{block}");
        assert!(block.ends_with("\n`````\n"), "{block}");
    }

    #[test]
    fn file_names_come_from_the_time() {
        assert_eq!(
            file_name("2026-12-01T05:09:33.123Z", "md"),
            "askdb-eval-2026-12-01T05-09.md"
        );
    }
}
