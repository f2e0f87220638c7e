//! Question sets: the datasets' JSON lists (`[{db, question, gold_sql, also_accepted?}]`, as in
//! `tests/datasets` and `evals/`) or a knowledge file's golden questions, cut to
//! `--offset`/`--limit` and put in batches, one per database.

use super::error::EvalError;
use askdb::knowledge::{sidecar, GoldenQuestion, Source};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One golden question and the database it is about (`None`: the one given with --db).
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub db: Option<String>,
    pub golden: GoldenQuestion,
}

/// The questions of a file, with those left out because their expected SQL is known not to run.
#[derive(Debug, Default)]
pub struct QuestionSet {
    pub questions: Vec<Question>,
    /// Items marked `"gold_executes": false` (the German Spider set has 52: an unquoted `alter`).
    pub skipped_broken: usize,
}

/// An item of a dataset list. Other fields (`id`, `trap`, `question_en`…) are kept for people
/// and ignored here.
#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    db: Option<String>,
    question: String,
    #[serde(alias = "sql")]
    gold_sql: String,
    #[serde(default)]
    also_accepted: Vec<String>,
    #[serde(default = "yes")]
    gold_executes: bool,
}

fn yes() -> bool {
    true
}

/// Reads a questions file's text: a JSON list of items, or a knowledge file (a JSON object)
/// whose golden questions are asked.
pub fn read(text: &str) -> Result<QuestionSet, String> {
    let text = text.trim_start_matches('\u{feff}');
    if text.trim_start().starts_with('{') {
        let (knowledge, _problems) = sidecar::read(text).map_err(|e| e.to_string())?;
        let questions = knowledge
            .golden_questions
            .into_iter()
            .map(|golden| Question { db: None, golden })
            .collect();
        return Ok(QuestionSet {
            questions,
            skipped_broken: 0,
        });
    }
    let items: Vec<Item> = serde_json::from_str(text).map_err(|e| {
        format!("{e}; expected a JSON list of {{\"question\", \"gold_sql\"}} items, or a knowledge file")
    })?;
    let mut set = QuestionSet::default();
    for item in items {
        if !item.gold_executes {
            set.skipped_broken += 1;
            continue;
        }
        set.questions.push(Question {
            db: item.db.filter(|name| !name.trim().is_empty()),
            golden: GoldenQuestion {
                question: item.question,
                sql: item.gold_sql,
                also_accepted: item.also_accepted,
                source: Source::Sidecar,
            },
        });
    }
    Ok(set)
}

/// `--offset` questions skipped, then at most `--limit` kept.
pub fn select(questions: Vec<Question>, offset: usize, limit: Option<usize>) -> Vec<Question> {
    questions
        .into_iter()
        .skip(offset)
        .take(limit.unwrap_or(usize::MAX))
        .collect()
}

/// Where the databases are: one file for every question, or a folder of them by name.
pub enum Databases {
    One(PathBuf),
    Folder(PathBuf),
}

/// Questions on one database, asked in one session.
#[derive(Debug, PartialEq)]
pub struct Batch {
    pub db: PathBuf,
    /// The database's name in the question set (shown before each question when there are
    /// several).
    pub name: Option<String>,
    pub golden_questions: Vec<GoldenQuestion>,
}

/// The questions in batches of consecutive questions on the same database, in their order.
pub fn batches(questions: Vec<Question>, databases: &Databases) -> Result<Vec<Batch>, EvalError> {
    let mut batches: Vec<Batch> = Vec::new();
    for question in questions {
        let db = match databases {
            Databases::One(path) => path.clone(),
            Databases::Folder(folder) => {
                let Some(name) = &question.db else {
                    return Err(EvalError::BadArgument(format!(
                        "the question {:?} names no database: give --db FILE instead of --db-dir",
                        question.golden.question
                    )));
                };
                find_database(folder, name)?
            }
        };
        match batches.last_mut() {
            Some(last) if last.db == db => last.golden_questions.push(question.golden),
            _ => batches.push(Batch {
                db,
                name: question.db,
                golden_questions: vec![question.golden],
            }),
        }
    }
    Ok(batches)
}

/// `DIR/<name>/<name>.sqlite` (Spider's layout) or `.db`, or `DIR/<name>.sqlite` or `.db`. A
/// name is one plain file name: a question set cannot point outside the folder.
fn find_database(folder: &Path, name: &str) -> Result<PathBuf, EvalError> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && Path::new(name).is_relative();
    if !plain {
        return Err(EvalError::UnknownDatabase {
            name: name.into(),
            tried: Vec::new(),
        });
    }
    let tried: Vec<PathBuf> = ["sqlite", "db"]
        .iter()
        .flat_map(|extension| {
            let file = format!("{name}.{extension}");
            [folder.join(name).join(&file), folder.join(&file)]
        })
        .collect();
    match tried.iter().find(|path| path.is_file()) {
        Some(found) => Ok(found.clone()),
        None => Err(EvalError::UnknownDatabase {
            name: name.into(),
            tried,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(relative: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
    }

    #[test]
    fn a_dataset_list_is_read_and_broken_gold_sql_is_skipped() {
        let set = read(
            r#"[{"db": "a", "question": "q1", "gold_sql": "SELECT 1", "trap": "x"},
                {"db": "b", "question": "q2", "gold_sql": "SELECT alter FROM t", "gold_executes": false},
                {"question": "q3", "sql": "SELECT 3", "also_accepted": ["SELECT 3.0"]}]"#,
        )
        .unwrap();
        assert_eq!(set.skipped_broken, 1);
        assert_eq!(set.questions.len(), 2);
        assert_eq!(set.questions[0].db.as_deref(), Some("a"));
        assert_eq!(set.questions[1].db, None);
        assert_eq!(set.questions[1].golden.also_accepted, vec!["SELECT 3.0"]);
    }

    #[test]
    fn something_else_says_what_was_expected() {
        let why = read(r#"[{"q": 1}]"#).unwrap_err();
        assert!(why.contains("expected a JSON list"), "{why}");
        assert!(read("not json").is_err());
    }

    #[test]
    fn offset_and_limit_cut_the_list() {
        let set = read(&format!(
            "[{}]",
            (0..5)
                .map(|i| format!(r#"{{"question": "q{i}", "gold_sql": "SELECT {i}"}}"#))
                .collect::<Vec<_>>()
                .join(",")
        ))
        .unwrap();
        let kept = select(set.questions, 1, Some(2));
        let asked: Vec<&str> = kept.iter().map(|q| q.golden.question.as_str()).collect();
        assert_eq!(asked, ["q1", "q2"]);
    }

    #[test]
    fn databases_are_found_by_name_in_both_layouts_and_never_outside() {
        let set = read(
            r#"[{"db": "concert_singer", "question": "a", "gold_sql": "SELECT 1"},
                {"db": "concert_singer", "question": "b", "gold_sql": "SELECT 1"},
                {"db": "pets_1", "question": "c", "gold_sql": "SELECT 1"}]"#,
        )
        .unwrap();
        let folder = Databases::Folder(repo("tests/datasets/spider_de/database"));
        let found = batches(set.questions, &folder).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].golden_questions.len(), 2);
        assert!(found[0]
            .db
            .ends_with("concert_singer/concert_singer.sqlite"));
        assert_eq!(found[1].name.as_deref(), Some("pets_1"));

        let shop = find_database(&repo("tests/datasets"), "shop_ja").unwrap();
        assert!(shop.ends_with("shop_ja/shop_ja.db"));
        for outside in ["../shop", "/etc/passwd", "..", ""] {
            let error = find_database(&repo("tests/datasets"), outside).unwrap_err();
            assert_eq!(error.exit_code(), 2);
        }
        let missing = find_database(&repo("tests/datasets"), "nope").unwrap_err();
        assert!(
            missing.to_string().contains("nope/nope.sqlite"),
            "{missing}"
        );
    }
}
