//! One evaluation: the questions asked database by database with `askdb::eval::run_golden` (the
//! same agent and comparison as the page's "Check the model"), progress on stderr, the report
//! written as `report.md` and `report.json`.

use super::args::Args;
use super::error::EvalError;
use super::questions::{self, Batch, Databases};
use super::watch::WatchedModel;
use askdb::agent::AgentConfig;
use askdb::clock::{Clock, SystemClock};
use askdb::count::grouped;
use askdb::engine::Database;
use askdb::eval::report;
use askdb::eval::run::{run_golden, Candidate, GoldenResult, Report};
use askdb::knowledge::{GoldenQuestion, Knowledge};
use askdb::llm::http::NativeHttp;
use askdb::llm::{HttpProvider, LlmProvider};
use askdb::opened::{read_notes, Opened};
use askdb::present::time::elapsed;
use askdb::text::cut_chars;
use futures::executor::block_on;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a finished run wrote.
pub struct Finished {
    pub report: Report,
    pub markdown: PathBuf,
    pub json: PathBuf,
}

/// Runs the evaluation `args` describe, with the environment's variables read by `env`.
pub fn run(args: &Args, env: impl Fn(&str) -> Option<String>) -> Result<Finished, EvalError> {
    let settings = args.model_settings()?;
    let key = args.api_key(&env)?;
    let databases = match &args.datasette {
        // The questions' own `db` names are not looked up: every one is asked of the server's.
        Some(address) => Databases::One(PathBuf::from(address)),
        None => databases(args)?,
    };
    for (option, path) in [("--questions", &args.questions), ("--notes", &args.notes)] {
        if let Some(path) = path {
            must_exist(option, path)?;
        }
    }
    let notes = match &args.notes {
        Some(path) => read_notes(path)?,
        None => Knowledge::default(),
    };
    let (batches, skipped) = plan(args, &databases)?;
    if skipped > 0 {
        eprintln!(
            "skipped {skipped} questions whose expected SQL does not run (\"gold_executes\": false)"
        );
    }

    let config = settings.agent_config();
    let http = NativeHttp::new(Duration::from_millis(u64::from(config.deadline_ms)));
    let model = WatchedModel::new(HttpProvider::new(settings.endpoint(&key), http));
    let clock = SystemClock::new();
    let started = clock.now_ms();
    let names: BTreeSet<&String> = batches.iter().filter_map(|b| b.name.as_ref()).collect();
    let several = names.len() > 1;
    let mut total = Report {
        model: config.model.clone(),
        ..Report::default()
    };
    let mut progress = Progress {
        planned: batches.iter().map(|b| b.golden_questions.len()).sum(),
        done: 0,
        key: &key,
    };
    for batch in &batches {
        let report = match &args.datasette {
            Some(address) => {
                let token = datasette_token(&env);
                let opened = Opened::served(address, token, &notes)?;
                ask_batch(&opened, args, batch, &model, &clock, &config, &mut progress)?
            }
            None => {
                let opened = Opened::open(&batch.db, &notes, &[])?;
                ask_batch(&opened, args, batch, &model, &clock, &config, &mut progress)?
            }
        };
        for mut result in report.results {
            if let (true, Some(name)) = (several, &batch.name) {
                result.question = format!("{name}: {}", result.question);
            }
            total.add(result);
        }
        if report.stopped || model.failure().is_some() {
            total.stopped = true;
            break;
        }
    }
    total.elapsed_ms = clock.now_ms() - started;

    let written = write_reports(&args.out, &total, skipped, &key)?;
    match model.failure() {
        Some(error) => Err(EvalError::Model(error)),
        None => Ok(Finished {
            report: total,
            markdown: written.0,
            json: written.1,
        }),
    }
}

/// The questions in batches per database, and how many the set marks as broken. Without
/// --questions, one empty batch: the golden questions kept with the database are read once it
/// is open.
fn plan(args: &Args, databases: &Databases) -> Result<(Vec<Batch>, usize), EvalError> {
    let Some(path) = &args.questions else {
        return match databases {
            Databases::One(db) => Ok((
                vec![Batch {
                    db: db.clone(),
                    name: None,
                    golden_questions: Vec::new(),
                }],
                0,
            )),
            Databases::Folder(_) => Err(EvalError::BadArgument(
                "--db-dir needs --questions FILE, whose questions name their databases".into(),
            )),
        };
    };
    let unreadable = |why| EvalError::Questions {
        path: path.clone(),
        why,
    };
    let set = questions::read(&read_text(path).map_err(unreadable)?).map_err(unreadable)?;
    let in_file = set.questions.len();
    let chosen = questions::select(set.questions, args.offset, args.limit);
    if chosen.is_empty() {
        return Err(EvalError::NoQuestions(format!(
            "{} has {in_file} questions to ask, none of them after --offset {}",
            path.display(),
            args.offset
        )));
    }
    Ok((questions::batches(chosen, databases)?, set.skipped_broken))
}

/// The API token for a private Datasette server, from the environment (never an argument).
pub const DATASETTE_TOKEN_VARIABLE: &str = "ASKDB_DATASETTE_TOKEN";

fn datasette_token(env: impl Fn(&str) -> Option<String>) -> Option<String> {
    env(DATASETTE_TOKEN_VARIABLE)
        .map(|token| token.trim().to_string())
        .filter(|token| !token.is_empty())
}

/// Asks `batch`'s questions (or, without --questions, the golden questions kept with the
/// database and in --notes).
fn ask_batch<D: Database, L: LlmProvider>(
    opened: &Opened<D>,
    args: &Args,
    batch: &Batch,
    model: &WatchedModel<L>,
    clock: &SystemClock,
    config: &AgentConfig,
    progress: &mut Progress<'_>,
) -> Result<Report, EvalError> {
    let golden_questions = if args.questions.is_some() {
        batch.golden_questions.clone()
    } else {
        let kept = kept_golden_questions(opened);
        let kept = questions::select(kept, args.offset, args.limit);
        progress.planned += kept.len();
        kept.into_iter().map(|q| q.golden).collect()
    };
    if golden_questions.is_empty() {
        return Err(EvalError::NoQuestions(format!(
            "{} has no golden questions (askdb_checks) and --notes gives none: pass \
             --questions FILE",
            batch.db.display()
        )));
    }
    Ok(ask(
        opened,
        model,
        clock,
        config,
        &golden_questions,
        progress,
    ))
}

/// The golden questions kept with the database and in --notes.
fn kept_golden_questions<D>(opened: &Opened<D>) -> Vec<questions::Question> {
    opened
        .session
        .knowledge()
        .golden_questions
        .iter()
        .map(|golden| questions::Question {
            db: None,
            golden: golden.clone(),
        })
        .collect()
}

fn ask<D: Database, L: LlmProvider>(
    opened: &Opened<D>,
    model: &WatchedModel<L>,
    clock: &SystemClock,
    config: &AgentConfig,
    golden_questions: &[GoldenQuestion],
    progress: &mut Progress<'_>,
) -> Report {
    let candidate = Candidate {
        db: &opened.model_view,
        reference: &opened.whole,
        llm: model,
        clock,
        config: config.clone(),
    };
    let mut show = |result: &GoldenResult| progress.show(result);
    block_on(run_golden(
        &candidate,
        &opened.session,
        golden_questions,
        &mut show,
        model.stopped(),
    ))
}

/// One line per question on stderr, as it comes; the key cut out of what the server said.
struct Progress<'k> {
    planned: usize,
    done: usize,
    key: &'k str,
}

impl Progress<'_> {
    fn show(&mut self, result: &GoldenResult) {
        self.done += 1;
        let tokens = result.usage.input_tokens + result.usage.output_tokens;
        eprintln!(
            "[{}/{}] {:<12} {} steps, {} tokens, {}: {}",
            self.done,
            self.planned,
            result.outcome.label(),
            result.steps,
            grouped(tokens),
            elapsed(result.elapsed_ms),
            cut_chars(&without_key(&one_line(&result.question), self.key), 100),
        );
        if let Some(why) = result.outcome.why() {
            let why = without_key(&one_line(&why), self.key);
            eprintln!("        {}", cut_chars(&why, 300));
        }
    }
}

pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The database argument: one file, or a folder of them.
fn databases(args: &Args) -> Result<Databases, EvalError> {
    match (&args.db, &args.db_dir) {
        (Some(db), _) => {
            must_exist("--db", db)?;
            Ok(Databases::One(db.clone()))
        }
        (None, Some(folder)) => {
            must_exist("--db-dir", folder)?;
            Ok(Databases::Folder(folder.clone()))
        }
        (None, None) => Err(EvalError::BadArgument(
            "which database? Give --db FILE, or --db-dir DIR for a question set over many".into(),
        )),
    }
}

pub fn must_exist(option: &'static str, path: &Path) -> Result<(), EvalError> {
    if path.exists() {
        Ok(())
    } else {
        Err(EvalError::MissingFile {
            option,
            path: path.to_path_buf(),
        })
    }
}

pub fn read_text(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".into())
}

/// Writes `report.md` and `report.json` into `out`. The key is cut out of both, in case a
/// server quoted it in an error message.
fn write_reports(
    out: &Path,
    report: &Report,
    skipped: usize,
    key: &str,
) -> Result<(PathBuf, PathBuf), EvalError> {
    let write_error = |path: &Path, why| EvalError::Write {
        path: path.to_path_buf(),
        why,
    };
    std::fs::create_dir_all(out).map_err(|why| write_error(out, why))?;
    let mut markdown = report::markdown(report);
    if skipped > 0 {
        markdown.push_str(&format!(
            "\n{skipped} questions of the set were not asked: their expected SQL does not run \
             (marked \"gold_executes\": false).\n"
        ));
    }
    let files = [
        (out.join("report.md"), markdown),
        (out.join("report.json"), report::json(report)),
    ];
    for (path, text) in &files {
        std::fs::write(path, without_key(text, key)).map_err(|why| write_error(path, why))?;
    }
    let [(markdown, _), (json, _)] = files;
    Ok((markdown, json))
}

/// `text` with every copy of `key` replaced.
pub fn without_key(text: &str, key: &str) -> String {
    if key.is_empty() {
        text.to_string()
    } else {
        text.replace(key, "[API key]")
    }
}
