//! The command line, and the API key from the environment (never from an argument: arguments
//! end up in shell histories and process lists).

use super::error::EvalError;
use super::key::key_variables;
use askdb::agent::{AgentConfig, Mode};
use askdb::llm::ProviderKind;
use askdb::settings::{self, ModelSettings};
use clap::{Parser, ValueEnum};
use std::path::PathBuf;

/// Ask a model golden questions about SQLite databases, with the same agent as the askdb page,
/// and judge each answer's SQL by its result against the expected SQL's.
///
/// The API key is read from ASKDB_API_KEY, or else from the provider's own variable
/// (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY). Writes report.md and report.json into
/// --out.
const SUBCOMMANDS: &str = "For documentation that embeds askdb, two more commands:
  askdb-eval record --help        record questions as conversation files the page replays
  askdb-eval replay-check --help  check that a recording still replays on its database";

#[derive(Debug, Parser)]
#[command(name = "askdb-eval", version, after_help = SUBCOMMANDS)]
pub struct Args {
    /// The SQLite database every question is asked about (opened read-only).
    #[arg(long, value_name = "PATH", conflicts_with = "db_dir")]
    pub db: Option<PathBuf>,

    /// A folder of databases, for question sets over many (Spider): a question's `db` is found
    /// as DIR/<db>/<db>.sqlite or .db, or DIR/<db>.sqlite or .db.
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,

    /// The questions: a JSON list [{db, question, gold_sql, also_accepted?}], or a knowledge
    /// file's golden questions (`checks`). Without it: the golden questions kept in the
    /// database (askdb_checks) and in --notes.
    #[arg(long, value_name = "PATH")]
    pub questions: Option<PathBuf>,

    /// A knowledge file (askdb's notes sidecar) to give the agent with every question.
    #[arg(long, value_name = "PATH")]
    pub notes: Option<PathBuf>,

    #[command(flatten)]
    pub model: ModelArgs,

    /// Skip this many questions first.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: usize,

    /// Ask at most this many questions.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Draw N candidate answers per question (1 to 5), as the page does with Candidates: the
    /// report adds the accuracy of the agreed answer and, per agreement level, how many
    /// questions and how many right.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub candidates: usize,

    /// The folder the reports are written to (created if needed).
    #[arg(long, value_name = "DIR", default_value = "eval-report")]
    pub out: PathBuf,
}

/// The model and how it is asked: the same for an evaluation and a recording.
#[derive(Debug, clap::Args)]
pub struct ModelArgs {
    /// Which wire format the endpoint speaks: openai (and compatible servers), anthropic, gemini.
    #[arg(long, value_name = "NAME", default_value = "openai", value_parser = parse_provider)]
    pub provider: ProviderKind,

    /// Where the provider's API lives (default: the provider's own address), e.g.
    /// http://127.0.0.1:11434/v1 for Ollama.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// The model's name, as the provider spells it.
    #[arg(long)]
    pub model: String,

    /// sql: the model writes read-only SQL; safe: it asks structured queries only.
    #[arg(long, value_enum, default_value_t = ModeArg::Sql)]
    pub mode: ModeArg,

    /// Model turns per question.
    #[arg(long, value_name = "N", default_value_t = AgentConfig::default().max_steps)]
    pub max_steps: u32,

    /// Sampling temperature.
    #[arg(long, value_name = "T", default_value_t = AgentConfig::default().temperature)]
    pub temperature: f32,

    /// Send no API key: for local servers that need none (Ollama, LM Studio).
    #[arg(long)]
    pub no_key: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Sql,
    Safe,
}

fn parse_provider(name: &str) -> Result<ProviderKind, String> {
    ProviderKind::named(name)
        .ok_or_else(|| format!("unknown provider; choose one of {}", ProviderKind::ids()))
}

impl Args {
    /// The model settings these arguments choose (see [`ModelArgs::model_settings`]), with
    /// the candidates per question.
    pub fn model_settings(&self) -> Result<ModelSettings, EvalError> {
        let mut chosen = self.model.model_settings()?;
        chosen.candidates = settings::check_candidates(self.candidates)
            .map_err(|why| EvalError::BadArgument(format!("--candidates: {why}")))?;
        Ok(chosen)
    }

    /// The API key from the environment (see [`ModelArgs::api_key`]).
    pub fn api_key(&self, read: impl Fn(&str) -> Option<String>) -> Result<String, EvalError> {
        self.model.api_key(read)
    }
}

impl ModelArgs {
    /// The model settings these arguments choose, checked by the page's own rules.
    pub fn model_settings(&self) -> Result<ModelSettings, EvalError> {
        let bad = |what: &str, why: String| EvalError::BadArgument(format!("{what}: {why}"));
        let base_url = match &self.base_url {
            Some(url) => settings::check_base_url(url).map_err(|why| bad("--base-url", why))?,
            None => String::new(),
        };
        let model = settings::check_model(&self.model).map_err(|why| bad("--model", why))?;
        if model.is_empty() {
            return Err(bad("--model", "give the model's name".into()));
        }
        let mut chosen = ModelSettings::default();
        chosen.choose_provider(self.provider);
        if !base_url.is_empty() {
            chosen.base_url = base_url;
        }
        chosen.model = model;
        chosen.temperature = settings::check_temperature(self.temperature)
            .map_err(|why| bad("--temperature", why))?;
        chosen.max_steps =
            settings::check_max_steps(self.max_steps).map_err(|why| bad("--max-steps", why))?;
        chosen.mode = match self.mode {
            ModeArg::Sql => Mode::Sql,
            ModeArg::Safe => Mode::Safe,
        };
        Ok(chosen)
    }

    /// The API key from the environment (`read` looks a variable up), or why there is none.
    pub fn api_key(&self, read: impl Fn(&str) -> Option<String>) -> Result<String, EvalError> {
        if self.no_key {
            return Ok(String::new());
        }
        key_variables(self.provider)
            .iter()
            .filter_map(|name| read(name))
            .map(|key| key.trim().to_string())
            .find(|key| !key.is_empty())
            .ok_or(EvalError::NoKey {
                provider: self.provider,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Args {
        Args::try_parse_from(line.split_whitespace()).unwrap()
    }

    #[test]
    fn the_key_comes_from_askdb_api_key_first_then_the_providers_variable() {
        let a = args("askdb-eval --db x.db --model m --provider anthropic");
        let env = |name: &str| match name {
            "ANTHROPIC_API_KEY" => Some("ant".to_string()),
            "ASKDB_API_KEY" => Some("  ".to_string()),
            _ => None,
        };
        assert_eq!(a.api_key(env).unwrap(), "ant");
        let env = |name: &str| (name == "ASKDB_API_KEY").then(|| "own".to_string());
        assert_eq!(a.api_key(env).unwrap(), "own");
        let missing = a.api_key(|_| None).unwrap_err().to_string();
        assert!(missing.contains("ANTHROPIC_API_KEY"), "{missing}");
        let local = args("askdb-eval --db x.db --model m --no-key");
        assert_eq!(local.api_key(|_| None).unwrap(), "");
    }

    #[test]
    fn settings_follow_the_pages_rules() {
        let chosen = args(
            "askdb-eval --db x.db --model qwen --base-url http://127.0.0.1:11434/v1/ --mode safe",
        )
        .model_settings()
        .unwrap();
        assert_eq!(chosen.endpoint_url(), "http://127.0.0.1:11434/v1");
        assert_eq!(chosen.agent_config().mode, Mode::Safe);
        let gemini = args("askdb-eval --db x.db --model g --provider GEMINI")
            .model_settings()
            .unwrap();
        assert_eq!(
            gemini.endpoint_url(),
            ProviderKind::Gemini.default_base_url()
        );
        let bad = args("askdb-eval --db x.db --model m --base-url ftp://x").model_settings();
        assert!(bad.unwrap_err().to_string().contains("http://"));
        let steps = args("askdb-eval --db x.db --model m --max-steps 0").model_settings();
        assert!(steps.unwrap_err().to_string().starts_with("--max-steps"));
        let one = args("askdb-eval --db x.db --model m")
            .model_settings()
            .unwrap();
        assert_eq!(one.agent_config().candidates, 1, "one unless asked");
        let three = args("askdb-eval --db x.db --model m --candidates 3").model_settings();
        assert_eq!(three.unwrap().agent_config().candidates, 3);
        let six = args("askdb-eval --db x.db --model m --candidates 6").model_settings();
        assert!(six.unwrap_err().to_string().starts_with("--candidates"));
    }

    #[test]
    fn db_and_db_dir_exclude_each_other_and_providers_are_named() {
        let both =
            Args::try_parse_from(["askdb-eval", "--db", "a", "--db-dir", "b", "--model", "m"]);
        assert!(both.is_err());
        let unknown = Args::try_parse_from(["askdb-eval", "--provider", "x", "--model", "m"]);
        assert!(unknown
            .unwrap_err()
            .to_string()
            .contains("openai, anthropic, gemini"));
    }
}
