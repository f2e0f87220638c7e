//! Settings from the page's address: `?provider=`, `?base_url=`, `?model=`, `?mode=safe`,
//! `?endpoint=` (a demo's endpoint that holds the author's key: [`super::demo_endpoint`]),
//! `?candidates=N` (candidate answers per question, 1 to 5), `?budget=MB` (what a question may read from a remote database; 0: no budget), and `?q=` for a question to fill in; [`start_files`] reads `?db=` and `?replay=`, the files to
//! open at start; `?hide=` names tables and columns hidden from the model (see
//! [`hidden_names`]). A link can set up the model but never carries a key: an address ends up
//! in histories, logs and chats, so a key in it is ignored and the person is told so.
//!
//! How the page shows itself comes from the address too ([`presentation`]): `?embed=1`, the
//! compact page for an iframe, and `?theme=light|dark`.

use super::{check_base_url, check_candidates, check_model, ModelSettings};
use crate::agent::Mode;
use crate::llm::ProviderKind;
use crate::text::cut_chars;
use crate::tr;

/// A value quoted back to the person is cut to this many characters, so that a long address
/// cannot flood the panel.
const SHOWN_CHARS: usize = 40;

/// A question from the address is cut to this many characters.
const MAX_QUESTION_CHARS: usize = 4_000;

/// Parameter names that look like someone put a key in the address.
const KEY_PARAMETERS: [&str; 5] = ["key", "api_key", "apikey", "api-key", "token"];

/// What the address asked for, apart from the settings it changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FromAddress {
    /// `?q=`, to fill the question box (never asked by itself).
    pub question: Option<String>,
    /// Parameters that were not used, and why, for the settings panel to show.
    pub ignored: Vec<String>,
}

/// Applies the address parameters (already decoded, in order) to `settings`.
///
/// A provider without a base URL goes to its own address, not to the one saved for another
/// provider. Invalid values are left out and reported in [`FromAddress::ignored`].
pub fn apply(settings: &mut ModelSettings, params: &[(String, String)]) -> FromAddress {
    let mut found = FromAddress::default();
    let last = |name: &str| last(params, name);

    if let Some(name) = last("provider") {
        match ProviderKind::named(name) {
            Some(kind) => settings.choose_provider(kind),
            None => found.ignored.push(tr!(
                "settings-address-provider",
                value = cut_chars(name, SHOWN_CHARS),
                providers = ProviderKind::ids()
            )),
        }
    }
    if let Some(url) = last("base_url") {
        match check_base_url(url) {
            Ok(url) if url.is_empty() => {}
            Ok(url) => settings.base_url = url,
            Err(why) => found
                .ignored
                .push(tr!("settings-address-base-url", why = why)),
        }
    }
    if let Some(model) = last("model") {
        match check_model(model) {
            Ok(model) if model.is_empty() => {}
            Ok(model) => settings.model = model,
            Err(why) => found.ignored.push(tr!("settings-address-model", why = why)),
        }
    }
    if let Some(mode) = last("mode") {
        // A link may turn safe mode on, never off: a person who chose it keeps it.
        match mode.trim().to_ascii_lowercase().as_str() {
            "safe" => settings.mode = Mode::Safe,
            "sql" if settings.mode == Mode::Sql => {}
            "sql" => found.ignored.push(tr!("settings-address-mode-sql")),
            _ => found.ignored.push(tr!(
                "settings-address-mode",
                value = cut_chars(mode, SHOWN_CHARS)
            )),
        }
    }
    if let Some(candidates) = last("candidates") {
        match candidates
            .trim()
            .parse()
            .map_err(|_| ())
            .and_then(|n| check_candidates(n).map_err(|_| ()))
        {
            Ok(n) => settings.candidates = n,
            Err(()) => found.ignored.push(tr!(
                "settings-address-candidates",
                value = cut_chars(candidates, SHOWN_CHARS),
                most = crate::agent::candidates::MAX_CANDIDATES
            )),
        }
    }
    if let Some(budget) = last("budget") {
        match budget
            .trim()
            .parse()
            .map_err(|_| ())
            .and_then(|n| super::check_read_budget_mb(n).map_err(|_| ()))
        {
            Ok(mb) => settings.read_budget_mb = mb,
            // The largest as a link writes it (no thousands separator).
            Err(()) => found.ignored.push(tr!(
                "settings-address-budget",
                value = cut_chars(budget, SHOWN_CHARS),
                most = super::READ_BUDGET_RANGE_MB.end().to_string()
            )),
        }
    }
    if let Some(Err(why)) = endpoint(params) {
        found
            .ignored
            .push(tr!("settings-address-endpoint", why = why));
    }
    if let Some(question) = last("q") {
        let question: String = question.trim().chars().take(MAX_QUESTION_CHARS).collect();
        found.question = Some(question).filter(|q| !q.is_empty());
    }
    found.ignored.extend(presentation(params).1);
    if params.iter().any(|(key, _)| is_key_parameter(key)) {
        found.ignored.push(tr!("settings-address-key"));
    }
    found
}

/// `?endpoint=`, checked (the last one counts, like a setting's); `None` when there is none.
pub fn endpoint(params: &[(String, String)]) -> Option<Result<String, String>> {
    last(params, "endpoint")
        .filter(|url| !url.trim().is_empty())
        .map(super::demo_endpoint::check_endpoint)
}

/// Whether the address turns safe mode on (`?mode=safe`): the page says so beside the question
/// box, since a reader cannot turn it off.
pub fn safe_mode_in_address(params: &[(String, String)]) -> bool {
    last(params, "mode").is_some_and(|mode| mode.trim().eq_ignore_ascii_case("safe"))
}

/// The value of the last parameter called `name`, if any (a later one overrides).
fn last<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params
        .iter()
        .rev()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

fn is_key_parameter(name: &str) -> bool {
    KEY_PARAMETERS.contains(&name.to_ascii_lowercase().as_str())
}

/// Light or dark colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    /// `light` or `dark` (any case, blanks around), as the address or a host page says it.
    pub fn named(name: &str) -> Option<Theme> {
        match name.trim().to_ascii_lowercase().as_str() {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    /// The name in the address, and on the page's root element (`data-theme`) for the styles.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// How the page shows itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presentation {
    /// `?embed=1`: the compact page for an iframe in documentation.
    pub embed: bool,
    /// `?theme=light|dark`; `None` follows the preference of the system (or of the host page).
    pub theme: Option<Theme>,
}

/// Reads `?embed=` and `?theme=` (the last of each). A value it cannot read is left out, and
/// the second part says why, for the person to see.
pub fn presentation(params: &[(String, String)]) -> (Presentation, Vec<String>) {
    let mut shown = Presentation::default();
    let mut ignored = Vec::new();
    if let Some(value) = last(params, "embed") {
        match value.trim().to_ascii_lowercase().as_str() {
            // `?embed` alone means yes, as it would in a person's reading.
            "" | "1" | "true" | "yes" => shown.embed = true,
            "0" | "false" | "no" => shown.embed = false,
            _ => ignored.push(tr!(
                "settings-address-embed",
                value = cut_chars(value, SHOWN_CHARS)
            )),
        }
    }
    if let Some(value) = last(params, "theme") {
        match (
            Theme::named(value),
            value.trim().to_ascii_lowercase().as_str(),
        ) {
            (Some(theme), _) => shown.theme = Some(theme),
            // The default, said out loud.
            (None, "" | "auto" | "system") => shown.theme = None,
            _ => ignored.push(tr!(
                "settings-address-theme",
                value = cut_chars(value, SHOWN_CHARS)
            )),
        }
    }
    (shown, ignored)
}

/// The parameters of the full page that shows what an embedded page shows, for its "Open in
/// askdb" link: the same ones in the same order, without `embed`, and never a key (the page
/// would not use it, and a link must not spread it).
pub fn full_page_parameters(params: &[(String, String)]) -> Vec<(String, String)> {
    params
        .iter()
        .filter(|(name, _)| name != "embed" && !is_key_parameter(name))
        .cloned()
        .collect()
}

/// The files the address asks to open at start, in the order they open: the database, then
/// the conversation to replay on it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StartFiles {
    /// `?db=`: a database's URL.
    pub db: Option<String>,
    /// `?replay=`: a saved conversation's URL (relative to the page, or absolute).
    pub replay: Option<String>,
    /// `?notes=`: a notes file's URL (relative, same origin or https; see [`check_notes_url`]).
    pub notes: Option<String>,
    /// `?datasette=`: a database on a Datasette server (`https://host/dbname`), opened through
    /// its JSON API instead of `?db=`.
    pub datasette: Option<String>,
    /// `?csv=`, `?tsv=`, `?json=`, `?xlsx=`: data files downloaded whole and imported together
    /// into one database (`import`), in the order given.
    pub data: Vec<String>,
}

/// The parameters that name a data file to import.
pub const DATA_PARAMETERS: [&str; 4] = ["csv", "tsv", "json", "xlsx"];

/// `?db=` and `?replay=` (the first of each; blank ones are left out).
pub fn start_files(params: &[(String, String)]) -> StartFiles {
    let first = |name: &str| {
        params
            .iter()
            .find(|(key, value)| key == name && !value.trim().is_empty())
            .map(|(_, value)| value.trim().to_string())
    };
    StartFiles {
        db: first("db"),
        replay: first("replay"),
        notes: first("notes"),
        datasette: first("datasette"),
        data: params
            .iter()
            .filter(|(key, value)| {
                DATA_PARAMETERS.contains(&key.as_str()) && !value.trim().is_empty()
            })
            .map(|(_, value)| value.trim().to_string())
            .collect(),
    }
}

/// Whether the page may read a notes file (`?notes=`) from `resolved`, the address already
/// resolved against the page's: one on the page's own origin, or on https. Anything else
/// (`http:` elsewhere, `data:`, `javascript:`, `file:`) is refused with the reason, so that a
/// link cannot make the page fetch from a plain-text origin or run a scheme of its own.
pub fn check_notes_url(resolved: &str, page_origin: &str) -> Result<(), String> {
    let same_origin = !page_origin.is_empty()
        && resolved
            .strip_prefix(page_origin)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
    let https = resolved
        .get(..8)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"));
    if same_origin || https {
        Ok(())
    } else {
        Err(tr!(
            "settings-address-notes",
            value = cut_chars(resolved, SHOWN_CHARS)
        ))
    }
}

/// At most this many names are read from `?hide=`, each cut to [`MAX_HIDDEN_NAME_CHARS`].
const MAX_HIDDEN_NAMES: usize = 500;
const MAX_HIDDEN_NAME_CHARS: usize = 200;

/// The names in `?hide=table,table.column,…` (the parameter may come more than once), for a
/// demo published with something hidden from the model. Empty entries are skipped; the page
/// reads the names against the open database's schema.
pub fn hidden_names(params: &[(String, String)]) -> Vec<String> {
    params
        .iter()
        .filter(|(key, _)| key == "hide")
        .flat_map(|(_, value)| value.split(','))
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .take(MAX_HIDDEN_NAMES)
        .map(|name| name.chars().take(MAX_HIDDEN_NAME_CHARS).collect())
        .collect()
}

/// The page's address, read once when the page starts and handed to every part of the page
/// that needs it: each reads what is its own from here, never the query string itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageAddress {
    /// The parameters as decoded, in order: the model's settings are applied from them
    /// ([`PageAddress::apply_model_settings`]) and an embedded page links to the full one with
    /// them ([`PageAddress::full_page_parameters`]).
    params: Vec<(String, String)>,
    /// `?embed=`, `?theme=`.
    pub presentation: Presentation,
    /// `?db=`, `?replay=`, `?notes=`, `?datasette=`.
    pub start: StartFiles,
    /// `?hide=`.
    pub hidden: Vec<String>,
    /// `?mode=safe`.
    pub safe_mode: bool,
    /// `?endpoint=`, when it is a web address (else [`apply`] reports it).
    pub endpoint: Option<String>,
}

impl PageAddress {
    /// Reads the parameters (already decoded, in order). What cannot be used is reported by
    /// [`PageAddress::apply_model_settings`], which the settings panel shows.
    pub fn read(params: Vec<(String, String)>) -> PageAddress {
        PageAddress {
            presentation: presentation(&params).0,
            start: start_files(&params),
            hidden: hidden_names(&params),
            safe_mode: safe_mode_in_address(&params),
            endpoint: endpoint(&params).and_then(Result::ok),
            params,
        }
    }

    /// Applies what the address says of the model to `settings` (see [`apply`]).
    pub fn apply_model_settings(&self, settings: &mut ModelSettings) -> FromAddress {
        apply(settings, &self.params)
    }

    /// See [`full_page_parameters`].
    pub fn full_page_parameters(&self) -> Vec<(String, String)> {
        full_page_parameters(&self.params)
    }

    /// Whether the address opens a database at start.
    pub fn opens_a_database(&self) -> bool {
        self.start.db.is_some() || self.start.datasette.is_some() || !self.start.data.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_files_named_in_the_address_are_imported_together_in_their_order() {
        let params: Vec<(String, String)> = [
            ("csv", "a.csv"),
            ("q", "x"),
            ("json", " "),
            ("xlsx", "b.xlsx"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(start_files(&params).data, ["a.csv", "b.xlsx"]);
    }

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_link_sets_provider_address_model_and_question() {
        let mut settings = ModelSettings::default();
        let found = apply(
            &mut settings,
            &params(&[
                ("db", "demo/shop.db"),
                ("provider", "openai"),
                ("base_url", "http://127.0.0.1:9999/v1"),
                ("model", "test"),
                ("q", " How many orders? "),
            ]),
        );
        assert_eq!(settings.provider, ProviderKind::OpenAi);
        assert_eq!(settings.base_url, "http://127.0.0.1:9999/v1");
        assert_eq!(settings.model, "test");
        assert_eq!(found.question.as_deref(), Some("How many orders?"));
        assert!(found.ignored.is_empty(), "{:?}", found.ignored);
    }

    #[test]
    fn a_link_sets_the_read_budget_in_mb_and_nothing_else() {
        let mut settings = ModelSettings::default();
        assert_eq!(
            settings.read_budget_bytes(),
            Some(100_000_000),
            "the default"
        );
        let found = apply(&mut settings, &params(&[("budget", " 5 ")]));
        assert_eq!(settings.read_budget_bytes(), Some(5_000_000));
        assert!(found.ignored.is_empty(), "{:?}", found.ignored);
        apply(&mut settings, &params(&[("budget", "0")]));
        assert_eq!(settings.read_budget_bytes(), None, "0: no budget");
        for wrong in ["-1", "5MB", "1e3", "100001"] {
            let mut settings = ModelSettings::default();
            let found = apply(&mut settings, &params(&[("budget", wrong)]));
            assert_eq!(settings.read_budget_mb, 100, "{wrong}");
            assert_eq!(
                found.ignored,
                vec![format!(
                    "budget \"{wrong}\" is not a whole number of MB from 0 (no budget) to 100000"
                )]
            );
        }
        let saved = ModelSettings {
            read_budget_mb: 7,
            ..ModelSettings::default()
        };
        assert_eq!(ModelSettings::from_json(&saved.to_json()).read_budget_mb, 7);
    }

    #[test]
    fn a_link_asks_for_one_to_five_candidates_and_nothing_else() {
        let mut settings = ModelSettings::default();
        assert_eq!(settings.candidates, 1, "one answer unless asked");
        let found = apply(&mut settings, &params(&[("candidates", " 3 ")]));
        assert_eq!(settings.candidates, 3);
        assert!(found.ignored.is_empty(), "{:?}", found.ignored);
        assert_eq!(settings.agent_config().candidates, 3, "the agent gets it");
        for wrong in ["0", "6", "two", "-1", "2.5"] {
            let mut settings = ModelSettings::default();
            let found = apply(&mut settings, &params(&[("candidates", wrong)]));
            assert_eq!(settings.candidates, 1, "{wrong}");
            assert_eq!(
                found.ignored,
                [format!(
                    "candidates \"{wrong}\" is not a whole number from 1 to 5"
                )]
            );
        }
        // Saved settings out of range fall back to one.
        let saved = ModelSettings {
            candidates: 9,
            ..ModelSettings::default()
        };
        assert_eq!(ModelSettings::from_json(&saved.to_json()).candidates, 1);
        let saved = ModelSettings {
            candidates: 5,
            ..ModelSettings::default()
        };
        assert_eq!(ModelSettings::from_json(&saved.to_json()).candidates, 5);
    }

    #[test]
    fn a_provider_alone_goes_to_its_own_address() {
        let mut settings = ModelSettings {
            base_url: "http://127.0.0.1:11434/v1".into(),
            ..ModelSettings::default()
        };
        apply(&mut settings, &params(&[("provider", "anthropic")]));
        assert_eq!(settings.provider, ProviderKind::Anthropic);
        assert_eq!(settings.base_url, "https://api.anthropic.com");
    }

    #[test]
    fn nothing_in_the_address_leaves_the_settings_as_they_were() {
        let saved = ModelSettings {
            provider: ProviderKind::Gemini,
            base_url: "https://proxy.example/v1beta".into(),
            model: "gemini-x".into(),
            ..ModelSettings::default()
        };
        let mut settings = saved.clone();
        let found = apply(&mut settings, &params(&[("db", "x.db"), ("q", "  ")]));
        assert_eq!(settings, saved);
        assert_eq!(found, FromAddress::default());
    }

    #[test]
    fn bad_values_are_ignored_and_said_so() {
        let mut settings = ModelSettings::default();
        let found = apply(
            &mut settings,
            &params(&[("provider", "mistral"), ("base_url", "javascript:alert(1)")]),
        );
        assert_eq!(settings, ModelSettings::default());
        assert_eq!(found.ignored.len(), 2, "{:?}", found.ignored);
        assert!(found.ignored[0].contains("mistral"));
        assert!(found.ignored[1].starts_with("base_url"));
    }

    #[test]
    fn a_link_turns_safe_mode_on_but_never_off() {
        let mut settings = ModelSettings::default();
        let found = apply(&mut settings, &params(&[("mode", "safe")]));
        assert_eq!(settings.mode, Mode::Safe);
        assert!(found.ignored.is_empty());
        assert_eq!(settings.agent_config().mode, Mode::Safe);

        assert!(safe_mode_in_address(&params(&[("mode", " SAFE ")])));
        assert!(!safe_mode_in_address(&params(&[
            ("mode", "safe"),
            ("mode", "sql")
        ])));
        assert!(!safe_mode_in_address(&params(&[("q", "safe")])));

        let found = apply(&mut settings, &params(&[("mode", "sql")]));
        assert_eq!(settings.mode, Mode::Safe);
        assert_eq!(
            found.ignored,
            ["mode=sql: a link can turn safe mode on, not off; untick it in Settings"]
        );

        let mut settings = ModelSettings::default();
        assert!(apply(&mut settings, &params(&[("mode", "sql")]))
            .ignored
            .is_empty());
        let found = apply(&mut settings, &params(&[("mode", "paranoid")]));
        assert_eq!(settings.mode, Mode::Sql);
        assert_eq!(found.ignored, ["mode \"paranoid\" is not safe or sql"]);
    }

    #[test]
    fn a_key_in_the_address_is_never_read() {
        let mut settings = ModelSettings::default();
        let found = apply(
            &mut settings,
            &params(&[("api_key", "sk-secret"), ("model", "m")]),
        );
        let everything = format!("{settings:?} {found:?}");
        assert!(!everything.contains("sk-secret"), "{everything}");
        assert_eq!(found.ignored.len(), 1);
        assert!(found.ignored[0].contains("API key"));
    }

    #[test]
    fn a_link_names_a_database_and_a_conversation_to_replay_on_it() {
        let files = start_files(&params(&[
            ("replay", "docs/march.json"),
            ("db", " demo/shop.db "),
            ("db", "other.db"),
        ]));
        assert_eq!(files.db.as_deref(), Some("demo/shop.db"));
        assert_eq!(files.replay.as_deref(), Some("docs/march.json"));
        assert_eq!(files.notes, None);
        assert_eq!(files.datasette, None);
        let served = start_files(&params(&[("datasette", " http://127.0.0.1:8001/shop ")]));
        assert_eq!(
            served.datasette.as_deref(),
            Some("http://127.0.0.1:8001/shop")
        );
        assert_eq!(
            start_files(&params(&[("replay", " ")])),
            StartFiles::default()
        );
    }

    #[test]
    fn an_endpoint_is_read_like_a_base_url_and_changes_no_setting() {
        let given = params(&[
            ("db", "demo/shop.db"),
            ("endpoint", " https://proxy.example/demo/shop/ "),
        ]);
        let address = PageAddress::read(given.clone());
        assert_eq!(
            address.endpoint.as_deref(),
            Some("https://proxy.example/demo/shop")
        );
        let mut settings = ModelSettings::default();
        let found = address.apply_model_settings(&mut settings);
        assert_eq!(settings, ModelSettings::default(), "saved settings stay");
        assert!(found.ignored.is_empty(), "{:?}", found.ignored);
        assert_eq!(
            address.full_page_parameters(),
            given,
            "the full page asks the same endpoint"
        );

        let wrong = params(&[("endpoint", "javascript:alert(1)")]);
        assert_eq!(PageAddress::read(wrong.clone()).endpoint, None);
        let found = apply(&mut settings, &wrong);
        assert_eq!(
            found.ignored,
            ["endpoint: the endpoint must start with http:// or https://"]
        );
        assert_eq!(
            PageAddress::read(params(&[("endpoint", " ")])).endpoint,
            None
        );
    }

    #[test]
    fn long_questions_are_cut() {
        let mut settings = ModelSettings::default();
        let long = "x".repeat(10_000);
        let found = apply(&mut settings, &params(&[("q", &long)]));
        assert_eq!(found.question.unwrap().chars().count(), MAX_QUESTION_CHARS);
    }

    #[test]
    fn embed_and_theme_are_read_and_bad_values_said_so() {
        let read = |pairs: &[(&str, &str)]| presentation(&params(pairs));
        assert_eq!(read(&[]), (Presentation::default(), vec![]));
        let (shown, ignored) = read(&[("embed", "1"), ("theme", "Dark")]);
        assert_eq!(
            shown,
            Presentation {
                embed: true,
                theme: Some(Theme::Dark)
            }
        );
        assert!(ignored.is_empty());
        assert!(read(&[("embed", "")]).0.embed, "?embed alone");
        assert!(
            !read(&[("embed", "1"), ("embed", "0")]).0.embed,
            "the last one counts"
        );
        assert_eq!(read(&[("theme", "light")]).0.theme, Some(Theme::Light));
        assert_eq!(
            read(&[("theme", "auto")]),
            (Presentation::default(), vec![])
        );

        let (shown, ignored) = read(&[("embed", "maybe"), ("theme", "<b>blue</b>")]);
        assert_eq!(shown, Presentation::default());
        assert_eq!(
            ignored,
            [
                "embed \"maybe\" is not 1 or 0",
                "theme \"<b>blue</b>\" is not light or dark"
            ]
        );
    }

    #[test]
    fn the_settings_panel_hears_of_a_bad_theme() {
        let mut settings = ModelSettings::default();
        let found = apply(&mut settings, &params(&[("theme", "blue")]));
        assert_eq!(found.ignored, ["theme \"blue\" is not light or dark"]);
    }

    #[test]
    fn the_full_page_gets_every_parameter_but_embed_and_a_key() {
        let given = params(&[
            ("db", "demo/shop.db"),
            ("embed", "1"),
            ("q", "How many orders?"),
            ("API_KEY", "sk-secret"),
            ("theme", "dark"),
            ("replay", "examples/shop.askdb.json"),
        ]);
        assert_eq!(
            full_page_parameters(&given),
            params(&[
                ("db", "demo/shop.db"),
                ("q", "How many orders?"),
                ("theme", "dark"),
                ("replay", "examples/shop.askdb.json"),
            ])
        );
    }

    #[test]
    fn hidden_names_come_from_every_hide_parameter() {
        let names = hidden_names(&params(&[
            ("hide", "customers.email, payments,,"),
            ("q", "x"),
            ("hide", " Order Details "),
        ]));
        assert_eq!(names, ["customers.email", "payments", "Order Details"]);
        assert!(hidden_names(&params(&[("db", "x.db")])).is_empty());
    }

    #[test]
    fn a_flood_of_hidden_names_is_cut() {
        let long = vec!["x".repeat(1_000); 2_000].join(",");
        let names = hidden_names(&params(&[("hide", &long)]));
        assert_eq!(names.len(), MAX_HIDDEN_NAMES);
        assert_eq!(names[0].chars().count(), MAX_HIDDEN_NAME_CHARS);
    }

    #[test]
    fn a_notes_file_comes_from_this_site_or_https() {
        let page = "http://127.0.0.1:8080";
        let files = start_files(&params(&[("notes", " notes/shop.json ")]));
        assert_eq!(files.notes.as_deref(), Some("notes/shop.json"));
        for allowed in [
            "http://127.0.0.1:8080/notes/shop.json",
            "http://127.0.0.1:8080",
            "https://docs.example/shop.askdb-notes.json",
            "HTTPS://docs.example/x.json",
        ] {
            assert_eq!(check_notes_url(allowed, page), Ok(()), "{allowed}");
        }
        for refused in [
            "http://127.0.0.1:8081/notes.json",
            "http://127.0.0.1:8080.evil.example/notes.json",
            "http://docs.example/notes.json",
            "data:application/json,{}",
            "javascript:alert(1)",
            "file:///etc/passwd",
        ] {
            let why = check_notes_url(refused, page).unwrap_err();
            assert!(why.contains("https address"), "{refused}: {why}");
        }
        assert!(check_notes_url("http://x/notes.json", "").is_err());
    }

    #[test]
    fn the_page_address_is_each_reading_of_the_same_parameters() {
        let given = params(&[
            ("embed", "1"),
            ("theme", "dark"),
            ("db", "https://example.org/x.db"),
            ("replay", "r.json"),
            ("hide", "orders.total,customers"),
            ("mode", "safe"),
            ("model", "m1"),
            ("api_key", "sk-x"),
            ("q", "How many?"),
        ]);
        let address = PageAddress::read(given.clone());
        assert_eq!(address.presentation, presentation(&given).0);
        assert!(address.presentation.embed);
        assert_eq!(address.start, start_files(&given));
        assert_eq!(address.hidden, ["orders.total", "customers"]);
        assert!(address.safe_mode);
        assert!(address.opens_a_database());
        assert_eq!(address.full_page_parameters(), full_page_parameters(&given));
        let mut settings = ModelSettings::default();
        let found = address.apply_model_settings(&mut settings);
        assert_eq!(settings.model, "m1");
        assert_eq!(found.question.as_deref(), Some("How many?"));
        assert!(found.ignored.iter().any(|why| why.contains("API key")));
        assert!(!PageAddress::read(Vec::new()).opens_a_database());
    }
}
