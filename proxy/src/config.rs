//! `askdb-proxy.toml`, read and checked once at start (docs/live-demos.md, "The config"). What
//! comes out is ready to use: addresses parsed, the key read, paths made absolute. Anything
//! wrong is a [`ConfigError`] that names the field, so that the author can fix it.

use askdb::llm::ProviderKind;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

/// The checked config.
#[derive(Debug)]
pub struct Config {
    pub listen: SocketAddr,
    pub state: PathBuf,
    pub max_body_bytes: usize,
    pub global_tokens_per_day: u64,
    pub trusted_proxies: Vec<IpAddr>,
    /// Lowercase, as `http::HeaderMap` looks names up.
    pub forwarded_header: Option<String>,
    pub demos: BTreeMap<String, Demo>,
}

/// One demo, `[demo.NAME]`.
#[derive(Debug)]
pub struct Demo {
    pub name: String,
    pub provider: ProviderKind,
    /// Without a trailing slash: the provider's path is appended.
    pub upstream: String,
    pub key: Key,
    pub models: Vec<String>,
    pub max_tokens: u64,
    pub origins: Vec<String>,
    pub paid_by: String,
    /// The pins given in the config; those made from `database` are added at start.
    pub pins: Vec<Pin>,
    /// What to pin from at start, if anything.
    pub database: Option<PinSource>,
    pub limits: Limits,
}

/// The database a demo's pins are made from, as the embed shows it.
#[derive(Debug, Clone)]
pub struct PinSource {
    pub database: PathBuf,
    pub notes: Option<PathBuf>,
    pub hide: Vec<String>,
}

/// The SHA-256 (hex) of a system prompt and of a tool list that go together.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pin {
    pub system_sha256: String,
    pub tools_sha256: String,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub reader_burst: u32,
    pub reader_per_minute: u32,
    pub reader_per_day: u64,
    pub requests_per_day: u64,
    pub tokens_per_day: u64,
}

/// The provider key: read once at start, sent only upstream. It has no `Display`, and its
/// `Debug` hides it, so that no log line or error can carry it by accident.
pub struct Key(String);

impl Key {
    pub fn new(text: &str) -> Key {
        Key(text.trim().to_string())
    }

    /// The key itself, for the upstream request's header and for redacting it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(hidden)")
    }
}

/// Why the config cannot be used: each names the field and says what would do.
#[derive(Debug)]
pub enum ConfigError {
    Unreadable { path: PathBuf, error: String },
    Syntax { path: PathBuf, error: String },
    Field { field: String, problem: String },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Unreadable { path, error } => {
                write!(f, "cannot read the config {}: {error}", path.display())
            }
            ConfigError::Syntax { path, error } => {
                write!(f, "the config {} is not valid: {error}", path.display())
            }
            ConfigError::Field { field, problem } => write!(f, "config `{field}`: {problem}"),
        }
    }
}

impl std::error::Error for ConfigError {}

fn field_error(field: impl Into<String>, problem: impl Into<String>) -> ConfigError {
    ConfigError::Field {
        field: field.into(),
        problem: problem.into(),
    }
}

// The file as written. Unknown fields are errors: a misspelt limit must not go unnoticed.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default = "default_listen")]
    listen: String,
    #[serde(default = "default_state")]
    state: PathBuf,
    #[serde(default = "default_max_body_bytes")]
    max_body_bytes: usize,
    global_tokens_per_day: u64,
    #[serde(default)]
    trusted_proxies: Vec<String>,
    #[serde(default)]
    forwarded_header: Option<String>,
    #[serde(default)]
    demo: BTreeMap<String, RawDemo>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDemo {
    #[serde(default)]
    database: Option<PathBuf>,
    #[serde(default)]
    notes: Option<PathBuf>,
    #[serde(default)]
    hide: Vec<String>,
    provider: String,
    #[serde(default)]
    upstream: Option<String>,
    #[serde(default)]
    key_env: Option<String>,
    #[serde(default)]
    key_file: Option<PathBuf>,
    models: Vec<String>,
    max_tokens: u64,
    origins: Vec<String>,
    #[serde(default = "default_paid_by")]
    paid_by: String,
    #[serde(default)]
    pins: Vec<Pin>,
    limits: Limits,
}

fn default_listen() -> String {
    "127.0.0.1:8787".into()
}
fn default_state() -> PathBuf {
    "askdb-proxy-state.sqlite".into()
}
fn default_max_body_bytes() -> usize {
    512 * 1024
}
fn default_paid_by() -> String {
    "the author".into()
}

impl Config {
    /// Reads and checks the config at `path`. Relative paths in it (state, database, notes,
    /// key file) are taken from the config's own folder, wherever the proxy is started from.
    /// Keys are read from `environment` (the process's, except in tests).
    pub fn load(
        path: &Path,
        environment: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Unreadable {
            path: path.to_path_buf(),
            error: error.to_string(),
        })?;
        let raw: RawConfig = toml::from_str(&text).map_err(|error| ConfigError::Syntax {
            path: path.to_path_buf(),
            error: error.to_string(),
        })?;
        let folder = path.parent().unwrap_or(Path::new("."));
        Config::check(raw, folder, environment)
    }

    fn check(
        raw: RawConfig,
        folder: &Path,
        environment: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let listen = raw.listen.parse().map_err(|_| {
            field_error(
                "listen",
                format!("`{}` is not an address such as 127.0.0.1:8787", raw.listen),
            )
        })?;
        let trusted_proxies = raw
            .trusted_proxies
            .iter()
            .map(|text| {
                text.parse().map_err(|_| {
                    field_error("trusted_proxies", format!("`{text}` is not an IP address"))
                })
            })
            .collect::<Result<Vec<IpAddr>, _>>()?;
        let forwarded_header = match raw.forwarded_header {
            Some(name) => {
                axum::http::HeaderName::try_from(name.as_str()).map_err(|_| {
                    field_error("forwarded_header", format!("`{name}` is not a header name"))
                })?;
                Some(name.to_ascii_lowercase())
            }
            None => None,
        };
        if forwarded_header.is_some() == trusted_proxies.is_empty() {
            return Err(field_error(
                "forwarded_header",
                "give both `trusted_proxies` and `forwarded_header`, or neither",
            ));
        }
        if raw.max_body_bytes == 0 {
            return Err(field_error("max_body_bytes", "must be more than 0"));
        }
        if raw.demo.is_empty() {
            return Err(field_error(
                "demo",
                "no demo is configured: add a [demo.NAME] table",
            ));
        }
        let mut demos = BTreeMap::new();
        for (name, demo) in raw.demo {
            let demo = check_demo(&name, demo, folder, environment)?;
            demos.insert(name, demo);
        }
        Ok(Config {
            listen,
            state: folder.join(raw.state),
            max_body_bytes: raw.max_body_bytes,
            global_tokens_per_day: raw.global_tokens_per_day,
            trusted_proxies,
            forwarded_header,
            demos,
        })
    }
}

fn check_demo(
    name: &str,
    raw: RawDemo,
    folder: &Path,
    environment: &dyn Fn(&str) -> Option<String>,
) -> Result<Demo, ConfigError> {
    let field = |leaf: &str| format!("demo.{name}.{leaf}");
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(field_error(
            format!("demo.{name}"),
            "a demo's name is its address (/demo/NAME): letters, digits, - and _ only",
        ));
    }
    let provider = ProviderKind::named(&raw.provider).ok_or_else(|| {
        field_error(
            field("provider"),
            format!(
                "unknown provider `{}`, expected one of {}",
                raw.provider,
                ProviderKind::ids()
            ),
        )
    })?;
    let upstream = raw
        .upstream
        .unwrap_or_else(|| provider.default_base_url().to_string());
    if !(upstream.starts_with("https://") || upstream.starts_with("http://")) {
        return Err(field_error(
            field("upstream"),
            format!("`{upstream}` is not an http(s) address"),
        ));
    }
    let key = read_key(name, &raw.key_env, &raw.key_file, folder, environment)?;
    if raw.models.is_empty() || raw.models.iter().any(|model| model.trim().is_empty()) {
        return Err(field_error(
            field("models"),
            "name at least one model, none of them empty",
        ));
    }
    if raw.max_tokens == 0 {
        return Err(field_error(field("max_tokens"), "must be more than 0"));
    }
    check_origins(&raw.origins, &field)?;
    for pin in &raw.pins {
        if !is_sha256_hex(&pin.system_sha256) || !is_sha256_hex(&pin.tools_sha256) {
            return Err(field_error(
                field("pins"),
                "each hash is 64 hex digits (from `askdb-proxy pin`)",
            ));
        }
    }
    let database = match raw.database {
        Some(path) => Some(pin_source(
            folder.join(path),
            raw.notes,
            raw.hide,
            folder,
            &field,
        )?),
        None if raw.pins.is_empty() => {
            return Err(field_error(
                field("database"),
                "give the demo's `database` (its prompt is pinned from it) or its `pins`",
            ))
        }
        None => None,
    };
    let limits = raw.limits;
    if limits.reader_burst == 0 || limits.reader_per_minute == 0 {
        return Err(field_error(
            field("limits"),
            "reader_burst and reader_per_minute must be more than 0",
        ));
    }
    Ok(Demo {
        name: name.to_string(),
        provider,
        upstream: upstream.trim_end_matches('/').to_string(),
        key,
        models: raw.models,
        max_tokens: raw.max_tokens,
        origins: raw.origins,
        paid_by: raw.paid_by,
        pins: raw.pins,
        database,
        limits,
    })
}

/// The origins a demo answers: at least one, each `scheme://host[:port]`.
fn check_origins(origins: &[String], field: &dyn Fn(&str) -> String) -> Result<(), ConfigError> {
    if origins.is_empty() {
        return Err(field_error(
            field("origins"),
            "name the docs' origin, e.g. https://docs.example.com",
        ));
    }
    for origin in origins {
        if !is_origin(origin) {
            return Err(field_error(
                field("origins"),
                format!("`{origin}` is not an origin (scheme://host[:port], no path)"),
            ));
        }
    }
    Ok(())
}

/// What a demo's prompt is pinned from: its SQLite `database`, its notes file if any (beside
/// the configuration, as `folder` holds it) and what it hides.
fn pin_source(
    database: PathBuf,
    notes: Option<PathBuf>,
    hide: Vec<String>,
    folder: &Path,
    field: &dyn Fn(&str) -> String,
) -> Result<PinSource, ConfigError> {
    if !is_sqlite_file(&database) {
        return Err(field_error(
            field("database"),
            format!("{} is not a SQLite file", database.display()),
        ));
    }
    let notes = notes.map(|notes| folder.join(notes));
    if let Some(notes) = &notes {
        if !notes.is_file() {
            return Err(field_error(
                field("notes"),
                format!("{} is not a file", notes.display()),
            ));
        }
    }
    Ok(PinSource {
        database,
        notes,
        hide,
    })
}

fn read_key(
    demo: &str,
    key_env: &Option<String>,
    key_file: &Option<PathBuf>,
    folder: &Path,
    environment: &dyn Fn(&str) -> Option<String>,
) -> Result<Key, ConfigError> {
    let key = match (key_env, key_file) {
        (Some(variable), None) => environment(variable).ok_or_else(|| {
            field_error(
                format!("demo.{demo}.key_env"),
                format!("the environment variable {variable} is not set"),
            )
        })?,
        (None, Some(file)) => {
            let file = folder.join(file);
            std::fs::read_to_string(&file).map_err(|error| {
                field_error(
                    format!("demo.{demo}.key_file"),
                    format!("cannot read {}: {error}", file.display()),
                )
            })?
        }
        _ => {
            return Err(field_error(
                format!("demo.{demo}.key_env"),
                "give exactly one of `key_env` and `key_file`",
            ))
        }
    };
    let key = Key::new(&key);
    if key.expose().is_empty() {
        return Err(field_error(format!("demo.{demo}"), "the key is empty"));
    }
    Ok(key)
}

/// `https://host[:port]` (or http), as a browser sends it in `Origin`: no path, no trailing slash.
fn is_origin(text: &str) -> bool {
    let Some(rest) = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
    else {
        return false;
    };
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(']') || rest.starts_with('[') => (host, Some(port)),
        _ => (rest, None),
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.[]:".contains(&b));
    let port_ok = port.is_none_or(|port| !port.is_empty() && port.parse::<u16>().is_ok());
    host_ok && port_ok
}

fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A SQLite file starts with these 16 bytes.
fn is_sqlite_file(path: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut header))
        .is_ok()
        && &header == b"SQLite format 3\0"
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
        global_tokens_per_day = 1000
        [demo.music]
        provider = "openai"
        key_env = "TEST_KEY"
        models = ["m"]
        max_tokens = 100
        origins = ["https://docs.example.com"]
        pins = [{ system_sha256 = "0000000000000000000000000000000000000000000000000000000000000000", tools_sha256 = "1111111111111111111111111111111111111111111111111111111111111111" }]
        [demo.music.limits]
        reader_burst = 1
        reader_per_minute = 1
        reader_per_day = 1
        requests_per_day = 1
        tokens_per_day = 1
    "#;

    fn check(text: &str) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|error| ConfigError::Syntax {
            path: "test.toml".into(),
            error: error.to_string(),
        })?;
        Config::check(raw, Path::new("/configs"), &|name| {
            (name == "TEST_KEY").then(|| "sk-secret-test".to_string())
        })
    }

    #[test]
    fn a_minimal_config_is_read_with_defaults() {
        let config = check(MINIMAL).unwrap();
        assert_eq!(config.listen.to_string(), "127.0.0.1:8787");
        assert_eq!(config.state, Path::new("/configs/askdb-proxy-state.sqlite"));
        let demo = &config.demos["music"];
        assert_eq!(demo.upstream, "https://api.openai.com/v1");
        assert_eq!(demo.paid_by, "the author");
        assert_eq!(demo.key.expose(), "sk-secret-test");
    }

    #[test]
    fn the_key_never_shows_in_debug() {
        let config = check(MINIMAL).unwrap();
        let printed = format!("{config:?}");
        assert!(!printed.contains("sk-secret-test"), "{printed}");
        assert!(printed.contains("(hidden)"));
    }

    #[test]
    fn each_mistake_names_its_field() {
        let cases = [
            (
                MINIMAL.replace("\"openai\"", "\"mistral\""),
                "demo.music.provider",
            ),
            (
                MINIMAL.replace("TEST_KEY", "UNSET_KEY"),
                "demo.music.key_env",
            ),
            (
                MINIMAL.replace("https://docs.example.com", "docs.example.com/path"),
                "demo.music.origins",
            ),
            (
                MINIMAL.replace(
                    "global_tokens_per_day = 1000",
                    "global_tokens_per_day = 1000\nlisten = \"here\"",
                ),
                "listen",
            ),
            (MINIMAL.replace("\"000", "\"zzz"), "demo.music.pins"),
            (
                MINIMAL.replace(
                    "max_tokens = 100",
                    "max_tokens = 100\ndatabase = \"/no/such.db\"",
                ),
                "demo.music.database",
            ),
            (
                MINIMAL.replace(
                    "global_tokens_per_day = 1000",
                    "global_tokens_per_day = 1000\ntrusted_proxies = [\"127.0.0.1\"]",
                ),
                "forwarded_header",
            ),
        ];
        for (text, field) in cases {
            let error = check(&text).unwrap_err().to_string();
            assert!(error.contains(&format!("`{field}`")), "{field}: {error}");
        }
        let misspelt = check(&MINIMAL.replace("reader_per_day", "reader_per_dya")).unwrap_err();
        assert!(
            misspelt.to_string().contains("reader_per_dya"),
            "{misspelt}"
        );
    }

    #[test]
    fn origins_are_scheme_host_and_port_only() {
        for good in [
            "https://docs.example.com",
            "http://127.0.0.1:8080",
            "https://a.b:443",
        ] {
            assert!(is_origin(good), "{good}");
        }
        for bad in [
            "docs.example.com",
            "https://",
            "https://a.b/",
            "https://a.b:x",
            "ftp://a.b",
            "*",
        ] {
            assert!(!is_origin(bad), "{bad}");
        }
    }
}
