//! `askdb-eval record`: questions asked of a model with the same agent, database view and
//! knowledge as the askdb page, each written as the conversation file the page's "Save
//! conversation" writes (`askdb-conversation/1`), so that a documentation pipeline can record
//! its demos again when the data changes. The page replays them with no key.

use super::args::ModelArgs;
use super::error::EvalError;
use super::run::{must_exist, one_line, read_text, without_key};
use super::watch::WatchedModel;
use askdb::agent::{Agent, AgentConfig, Session};
use askdb::clock::SystemClock;
use askdb::conversation::{
    self, ConversationFile, DatabaseIdentity, ModelInfo, RecordedQuestion, Recorder, RunSettings,
    FORMAT,
};
use askdb::count::grouped;
use askdb::engine::fenced::Fenced;
use askdb::engine::native::RusqliteDb;
use askdb::engine::QueryLimits;
use askdb::knowledge::Knowledge;
use askdb::llm::http::NativeHttp;
use askdb::llm::{HttpProvider, LlmProvider};
use askdb::opened::{self, read_notes, Opened};
use askdb::text::cut_chars;
use clap::Parser;
use futures::executor::block_on;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Ask questions of a model with the same agent as the askdb page and write each as a
/// conversation file that the page replays without a key (the format "Save conversation"
/// writes). The key is read from the environment, as for an evaluation.
#[derive(Debug, Parser)]
#[command(name = "askdb-eval record", bin_name = "askdb-eval record", version)]
pub struct RecordArgs {
    /// The SQLite database the questions are about (opened read-only). Publish this very file
    /// beside the recordings: a replay compares its SHA-256.
    #[arg(long, value_name = "PATH")]
    pub db: PathBuf,

    /// The questions: a text file with one question a line (blank lines and lines starting
    /// with # are skipped), or a JSON list of questions (strings, or objects with a "question").
    #[arg(long, value_name = "PATH")]
    pub questions: PathBuf,

    /// A notes file (askdb's knowledge sidecar), as the page's ?notes= gives it.
    #[arg(long, value_name = "PATH")]
    pub notes: Option<PathBuf>,

    /// Tables and columns hidden from the model, as the page's ?hide= (customers.email,payments).
    /// The page that replays the recording must hide the same.
    #[arg(long, value_name = "NAMES")]
    pub hide: Vec<String>,

    #[command(flatten)]
    pub model: ModelArgs,

    /// The folder to write one conversation per question into, as NN-<question>.askdb.json
    /// (created if needed).
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "one_file",
        conflicts_with = "one_file"
    )]
    pub out: Option<PathBuf>,

    /// Write all the questions into this one file instead, as one conversation: each question
    /// is a follow-up of the ones before it, as in the page.
    #[arg(long, value_name = "FILE")]
    pub one_file: Option<PathBuf>,
}

/// Where a recording is written: clap lets one of `--out` and `--one-file` through.
enum Destination<'a> {
    /// A conversation per question, in this folder.
    Folder(&'a Path),
    /// One conversation of every question, in this file.
    OneFile(&'a Path),
}

impl RecordArgs {
    fn destination(&self) -> Result<Destination<'_>, EvalError> {
        match (&self.out, &self.one_file) {
            (_, Some(file)) => Ok(Destination::OneFile(file)),
            (Some(folder), None) => Ok(Destination::Folder(folder)),
            // Arguments made without clap.
            (None, None) => Err(EvalError::BadArgument(
                "--out or --one-file: where to write the recording".into(),
            )),
        }
    }
}

/// What a finished recording wrote.
pub struct Recorded {
    pub files: Vec<PathBuf>,
    /// Questions that got no answer (their files are written all the same), with why.
    pub unanswered: Vec<(usize, String)>,
}

/// Records the questions `args` names, with the environment's variables read by `env`.
pub fn run(args: &RecordArgs, env: impl Fn(&str) -> Option<String>) -> Result<Recorded, EvalError> {
    let destination = args.destination()?;
    let settings = args.model.model_settings()?;
    let key = args.model.api_key(env)?;
    must_exist("--db", &args.db)?;
    must_exist("--questions", &args.questions)?;
    if let Some(notes) = &args.notes {
        must_exist("--notes", notes)?;
    }
    let questions = read_questions(&args.questions)?;
    let notes = match &args.notes {
        Some(path) => read_notes(path)?,
        None => Knowledge::default(),
    };
    let mut opened = Opened::open(&args.db, &notes, &opened::hidden_names(&args.hide))?;
    if let Some(unresolved) = opened.unresolved.first() {
        return Err(EvalError::BadArgument(format!("--hide: {unresolved}")));
    }
    let database = opened::identity(&args.db)?;

    // The page's question: its console limits (the defaults) give the query deadline and the
    // row cap its answer's SQL is run again with; both are recorded.
    let limits = QueryLimits::default();
    let config = settings.agent_config().with_query_limits(&limits);
    let http = NativeHttp::new(Duration::from_millis(u64::from(config.deadline_ms)));
    let model = WatchedModel::new(HttpProvider::new(settings.endpoint(&key), http));
    let header = Header {
        database,
        model: ModelInfo::new(settings.provider, &settings.model, &settings.endpoint_url()),
        settings: RunSettings::new(&config, &limits),
    };
    let asking = Asking {
        db: &opened.model_view,
        model: &model,
        clock: SystemClock::new(),
        config,
        key: &key,
        total: questions.len(),
    };

    let mut recorded = Recorded {
        files: Vec::new(),
        unanswered: Vec::new(),
    };
    let session = &mut opened.session;
    match destination {
        Destination::OneFile(file) => {
            let mut all = Vec::new();
            for (index, question) in questions.iter().enumerate() {
                let one = asking.ask(session, index, question, &mut recorded)?;
                all.push(one);
            }
            write(file, &header.file(all), &key)?;
            recorded.files.push(file.to_path_buf());
        }
        Destination::Folder(folder) => {
            create_folder(folder)?;
            for (index, question) in questions.iter().enumerate() {
                // Each file is a conversation of its own: no question sees another.
                session.forget_conversation();
                let one = asking.ask(session, index, question, &mut recorded)?;
                let path = folder.join(file_name(index, question));
                write(&path, &header.file(vec![one]), &key)?;
                recorded.files.push(path);
            }
        }
    }
    Ok(recorded)
}

/// What every file of one recording says about where and how it was recorded.
struct Header {
    database: DatabaseIdentity,
    model: ModelInfo,
    settings: RunSettings,
}

impl Header {
    fn file(&self, questions: Vec<RecordedQuestion>) -> ConversationFile {
        ConversationFile {
            format: FORMAT.into(),
            recorded_at: now_iso(),
            database: self.database.clone(),
            model: self.model.clone(),
            settings: self.settings.clone(),
            questions,
        }
    }
}

/// The model and the database the questions are asked with.
struct Asking<'a, L> {
    db: &'a Fenced<Rc<RusqliteDb>>,
    model: &'a WatchedModel<L>,
    clock: SystemClock,
    config: AgentConfig,
    key: &'a str,
    total: usize,
}

impl<L: LlmProvider> Asking<'_, L> {
    /// Asks question `index` in `session` and records it, as the page's chat does: the model
    /// behind a [`Recorder`], the agent on the model view of the database.
    fn ask(
        &self,
        session: &mut Session,
        index: usize,
        question: &str,
        recorded: &mut Recorded,
    ) -> Result<RecordedQuestion, EvalError> {
        let recorder = Recorder::new(self.model, &self.clock);
        let agent = Agent::new(self.db, &recorder, &self.clock, self.config.clone());
        let outcome = block_on(agent.ask(session, question, &mut |_| {}, self.model.stopped()));
        if let Some(error) = self.model.failure() {
            return Err(EvalError::Model(error));
        }
        let shown = cut_chars(&without_key(&one_line(question), self.key), 100);
        match &outcome {
            Ok(answer) => eprintln!(
                "[{}/{}] answered in {} steps, {} tokens: {shown}",
                index + 1,
                self.total,
                answer.steps,
                grouped(answer.usage.input_tokens + answer.usage.output_tokens),
            ),
            Err(failure) => {
                let why = without_key(&failure.to_string(), self.key);
                eprintln!(
                    "[{}/{}] NO ANSWER after {} steps: {shown}\n        {why}",
                    index + 1,
                    self.total,
                    failure.steps
                );
                recorded.unanswered.push((index + 1, why));
            }
        }
        Ok(RecordedQuestion::new(question, recorder.turns(), &outcome))
    }
}

/// Writes `file` at `path` exactly as the page saves it, after the page's own check that it
/// replays (`conversation::read`). The key is cut out, in case a server quoted it.
fn write(path: &Path, file: &ConversationFile, key: &str) -> Result<(), EvalError> {
    let text = without_key(&file.to_json(), key);
    conversation::read(&text).map_err(|why| EvalError::Recording {
        path: path.to_path_buf(),
        why: format!("the recording would not replay: {why}"),
    })?;
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_folder(folder)?;
    }
    std::fs::write(path, text).map_err(|why| EvalError::Write {
        path: path.to_path_buf(),
        why,
    })
}

fn create_folder(folder: &Path) -> Result<(), EvalError> {
    std::fs::create_dir_all(folder).map_err(|why| EvalError::Write {
        path: folder.to_path_buf(),
        why,
    })
}

/// `03-which-five-genres-sold-the-most.askdb.json` for the third question.
pub fn file_name(index: usize, question: &str) -> String {
    let mut slug = String::new();
    for c in question.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= 60 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    let slug = if slug.is_empty() { "question" } else { slug };
    format!("{:02}-{slug}.askdb.json", index + 1)
}

/// The questions of a file: JSON (a list of strings or of objects with a "question"), or text
/// with one question a line.
pub fn read_questions(path: &Path) -> Result<Vec<String>, EvalError> {
    let unreadable = |why: String| EvalError::Questions {
        path: path.to_path_buf(),
        why,
    };
    let text = read_text(path).map_err(unreadable)?;
    let questions = parse_questions(&text).map_err(unreadable)?;
    if questions.is_empty() {
        return Err(EvalError::NoQuestions(format!(
            "{} has no question",
            path.display()
        )));
    }
    Ok(questions)
}

fn parse_questions(text: &str) -> Result<Vec<String>, String> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Item {
        Text(String),
        Object { question: String },
    }
    let text = text.trim_start_matches('\u{feff}');
    let questions: Vec<String> = if text.trim_start().starts_with('[') {
        let items: Vec<Item> = serde_json::from_str(text).map_err(|e| {
            format!(
                "{e}; expected a JSON list of questions (strings, or objects with \"question\")"
            )
        })?;
        items
            .into_iter()
            .map(|item| match item {
                Item::Text(question) | Item::Object { question } => question,
            })
            .collect()
    } else {
        text.lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    Ok(questions
        .into_iter()
        .map(|q| q.trim().to_string())
        .filter(|q| !q.is_empty())
        .collect())
}

/// Now as the browser writes it (`Date.toISOString`): `2026-12-01T09:30:00.000Z`, in UTC. A
/// date crate would be more than this one format needs.
fn now_iso() -> String {
    let since_epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    iso_utc(since_epoch.as_millis() as i64)
}

/// `ms` since 1970 as `YYYY-MM-DDTHH:MM:SS.mmmZ` (days to a civil date: Howard Hinnant's
/// `civil_from_days`).
fn iso_utc(ms: i64) -> String {
    let (days, ms_of_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let (h, m, s, milli) = (
        ms_of_day / 3_600_000,
        ms_of_day / 60_000 % 60,
        ms_of_day / 1_000 % 60,
        ms_of_day % 1_000,
    );
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_the_browser_writes_them() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00.000Z");
        // new Date(Date.UTC(2026, 11, 1, 9, 30, 5, 42)).toISOString()
        assert_eq!(iso_utc(1_796_117_405_042), "2026-12-01T09:30:05.042Z");
        assert_eq!(iso_utc(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_utc(4_107_542_399_999), "2100-02-28T23:59:59.999Z");
    }

    #[test]
    fn questions_come_from_text_lines_or_a_json_list() {
        let text =
            "# the demo's questions\nHow many orders?\n\n  Which customers live in Tokyo?  \n";
        assert_eq!(
            parse_questions(text).unwrap(),
            ["How many orders?", "Which customers live in Tokyo?"]
        );
        let json = r#"["One?", {"question": "Two?", "gold_sql": "SELECT 2"}, "  "]"#;
        assert_eq!(parse_questions(json).unwrap(), ["One?", "Two?"]);
        let bad = parse_questions(r#"[{"q": 1}]"#).unwrap_err();
        assert!(bad.contains("expected a JSON list of questions"), "{bad}");
    }

    #[test]
    fn file_names_say_the_question_in_order() {
        assert_eq!(
            file_name(2, "Which five genres sold the most?"),
            "03-which-five-genres-sold-the-most.askdb.json"
        );
        assert_eq!(
            file_name(0, "東京都の注文は何件？"),
            "01-question.askdb.json"
        );
        assert_eq!(
            file_name(9, "How many orders in 東京都?"),
            "10-how-many-orders-in.askdb.json"
        );
        let long = file_name(0, &"word ".repeat(40));
        assert!(
            long.len() <= "01-".len() + 61 + ".askdb.json".len(),
            "{long}"
        );
    }
}
