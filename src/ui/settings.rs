//! The model settings panel: provider (and presets for OpenAI-compatible servers), base URL,
//! model, API key, temperature, step limit, safe mode. The rules live in [`crate::settings`]; this module
//! shows them and keeps them in `localStorage`.
//!
//! The key is held in memory, per endpoint, and written to `localStorage` only when the person
//! ticks "remember on this device". It is never put in the address, a log or the transcript.

use super::app_state;
use super::demo_endpoint::DemoEndpoint;
use super::number_input::NumberInput;
use crate::agent::Mode;
use crate::browser::{focus_element, storage, StorageRefused};
use crate::llm::{Caching, ProviderKind};
use crate::settings::keys::KeyRing;
use crate::settings::readiness::MissingField;
use crate::settings::{
    check_base_url, check_model, model_placeholder, ModelSettings, CANDIDATE_RANGE,
    DEFAULT_READ_BUDGET_MB, KEYS_STORAGE_KEY, OPENAI_COMPATIBLE_PRESETS, READ_BUDGET_RANGE_MB,
    SETTINGS_STORAGE_KEY, STEP_RANGE, TEMPERATURE_RANGE,
};
use crate::tr;
use crate::ui::language::tr_live;
use crate::ui::lazy::{on_first_use, when_here};
use leptos::ev;
use leptos::prelude::*;

const PANEL_ID: &str = "model-settings";
const BUTTON_ID: &str = "settings-button";

/// The chosen model and the keys, shared by the panel and the chat.
#[derive(Clone, Copy)]
pub struct ModelChoice {
    pub settings: RwSignal<ModelSettings>,
    /// Keys typed in this tab, by endpoint; gone when the tab closes.
    keys: RwSignal<KeyRing>,
    /// The keys kept on this device (what `localStorage` holds).
    saved_keys: RwSignal<KeyRing>,
    /// Whether keys typed now are kept on this device.
    remember: RwSignal<bool>,
    pub panel_open: RwSignal<bool>,
    /// Address parameters that were not used, and why (said when the page started).
    ignored: RwSignal<Vec<String>>,
    /// A base URL or model that was typed but not taken, and why.
    problem: RwSignal<Option<String>>,
    /// The browser refused to keep the settings or keys.
    storage_refused: RwSignal<bool>,
    /// `?endpoint=`: a demo's endpoint that answers with the author's key, until the reader
    /// chooses a model of their own here.
    pub demo: Option<DemoEndpoint>,
}

/// What one question is asked with.
pub struct ForQuestion {
    pub settings: ModelSettings,
    /// Empty through a demo's endpoint (it holds the author's key) or when there is none.
    pub key: String,
    /// Why the demo's endpoint cannot answer yet, when the question would go there.
    pub demo_not_ready: Option<String>,
    /// The question goes through a demo's endpoint: its failures are said as the endpoint's.
    pub through_demo: bool,
}

impl ModelChoice {
    /// The saved settings with the address's on top, and the question `?q=` asks to fill in.
    pub fn load() -> (ModelChoice, Option<String>) {
        let mut settings = storage::read(SETTINGS_STORAGE_KEY)
            .map(|json| ModelSettings::from_json(&json))
            .unwrap_or_default();
        let from_address = crate::ui::the_address().apply_model_settings(&mut settings);
        let saved_keys = storage::read(KEYS_STORAGE_KEY)
            .map(|json| KeyRing::from_json(&json))
            .unwrap_or_default();
        let choice = ModelChoice {
            settings: RwSignal::new(settings),
            keys: RwSignal::new(saved_keys.clone()),
            remember: RwSignal::new(!saved_keys.is_empty()),
            saved_keys: RwSignal::new(saved_keys),
            panel_open: RwSignal::new(!from_address.ignored.is_empty()),
            ignored: RwSignal::new(from_address.ignored),
            problem: RwSignal::new(None),
            storage_refused: RwSignal::new(false),
            demo: DemoEndpoint::from_address(),
        };
        (choice, from_address.question)
    }

    /// The settings and key a question asked now goes with: the demo's endpoint's while it is
    /// in use, else the reader's own.
    pub fn for_question_untracked(&self) -> ForQuestion {
        let own = self.settings.get_untracked();
        match self.demo.and_then(|demo| demo.settings_untracked(&own)) {
            Some(Ok(settings)) => ForQuestion {
                settings,
                key: String::new(),
                demo_not_ready: None,
                through_demo: true,
            },
            Some(Err(why)) => ForQuestion {
                settings: own,
                key: String::new(),
                demo_not_ready: Some(why),
                through_demo: true,
            },
            None => ForQuestion {
                key: self.key_untracked(),
                settings: own,
                demo_not_ready: None,
                through_demo: false,
            },
        }
    }

    /// The reader chose a model of their own (provider, address, model or key): it answers
    /// from now on, not the demo's endpoint.
    fn choose_own_model(&self) {
        if let Some(demo) = self.demo {
            demo.readers_own.set(true);
        }
    }

    /// [`ModelChoice::edit`] of the model itself: the reader's choice then answers.
    fn edit_model(&self, change: impl FnOnce(&mut ModelSettings)) {
        self.choose_own_model();
        self.edit(change);
    }

    /// Opens the panel with `field` focused, so the person can fill it in at once.
    pub fn show_field(&self, field: MissingField) {
        self.panel_open.set(true);
        let id = match field {
            MissingField::Model => "model",
            MissingField::ApiKey => "api-key",
        };
        // Once the panel is shown.
        request_animation_frame(move || focus_element(id));
    }

    /// The key for the chosen endpoint (empty when there is none), for one question.
    pub fn key_untracked(&self) -> String {
        let settings = self.settings.get_untracked();
        self.keys
            .with_untracked(|keys| keys.get(&settings).unwrap_or_default().to_string())
    }

    /// Changes the settings the way the person did, and saves them (never the key).
    fn edit(&self, change: impl FnOnce(&mut ModelSettings)) {
        self.settings.update(change);
        self.problem.set(None);
        let json = self.settings.with_untracked(ModelSettings::to_json);
        self.report(storage::write(SETTINGS_STORAGE_KEY, &json));
    }

    fn key(&self) -> String {
        let settings = self.settings.get();
        self.keys
            .with(|keys| keys.get(&settings).unwrap_or_default().to_string())
    }

    fn set_key(&self, key: &str) {
        self.choose_own_model();
        let settings = self.settings.get_untracked();
        self.keys.update(|keys| keys.set(&settings, key));
        if self.remember.get_untracked() {
            self.saved_keys.update(|saved| saved.set(&settings, key));
            self.save_keys();
        }
    }

    fn set_remember(&self, remember: bool) {
        self.remember.set(remember);
        let settings = self.settings.get_untracked();
        if remember {
            let key = self.key_untracked();
            self.saved_keys.update(|saved| saved.set(&settings, &key));
        } else {
            self.saved_keys.update(|saved| saved.remove(&settings));
        }
        self.save_keys();
    }

    /// Removes every saved key from this device, and from this tab.
    fn forget_saved_keys(&self) {
        self.saved_keys.set(KeyRing::default());
        self.keys.set(KeyRing::default());
        self.remember.set(false);
        self.save_keys();
    }

    fn save_keys(&self) {
        let saved = self.saved_keys.get_untracked();
        let written = if saved.is_empty() {
            storage::remove(KEYS_STORAGE_KEY)
        } else {
            storage::write(KEYS_STORAGE_KEY, &saved.to_json())
        };
        self.report(written);
    }

    fn report(&self, written: Result<(), StorageRefused>) {
        self.storage_refused.set(written.is_err());
    }
}

/// The button that opens and closes the panel.
#[component]
pub fn SettingsButton() -> impl IntoView {
    let choice = expect_context::<ModelChoice>();
    view! {
        <button
            id=BUTTON_ID
            class="button"
            data-testid="settings"
            aria-controls=PANEL_ID
            aria-expanded=move || choice.panel_open.get().to_string()
            on:click=move |_| choice.panel_open.update(|open| *open = !*open)
            on:pointerenter=move |_| fetch_fields_ahead()
            on:focus=move |_| fetch_fields_ahead()
        >
            {tr_live("settings-button")}
        </button>
    }
}

/// The model settings: the provider and its address, the key, the limits of a question, safe
/// mode; with what the address asked for and could not be used. Its contents are drawn when it
/// is first opened, by code downloaded then (or when the pointer or the keyboard reaches the
/// button), and kept afterwards.
#[component]
pub fn SettingsPanel() -> impl IntoView {
    let choice = expect_context::<ModelChoice>();
    let close_on_escape = move |event: ev::KeyboardEvent| {
        if event.key() == "Escape" {
            choice.panel_open.set(false);
            focus_element(BUTTON_ID);
        }
    };
    let ever_open = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(false) || choice.panel_open.get()
    });
    view! {
        <section
            id=PANEL_ID
            class="panel settings-panel"
            aria-label=tr_live("settings-panel-label")
            hidden=move || !choice.panel_open.get()
            on:keydown=close_on_escape
        >
            {move || ever_open.get().then(|| when_here(fields_in_chunk()))}
        </section>
    }
}

on_first_use! {
    settings, preload(preload_settings) =>
    /// The panel's fields (see [`SettingsPanel`]).
    fn fields_in_chunk() -> AnyView {
        fields().into_any()
    }
}

/// The pointer or the keyboard reached the button: its panel's fields are downloaded now, so
/// that the click draws them at once.
fn fetch_fields_ahead() {
    leptos::task::spawn_local(async {
        let _ = preload_settings().await;
    });
}

fn fields() -> impl IntoView {
    let choice = expect_context::<ModelChoice>();
    let state = app_state();
    view! {
            <h3>{tr_live("settings-model")}</h3>
            {move || {
                let ignored = choice.ignored.get();
                (!ignored.is_empty()).then(|| {
                    let items = ignored.into_iter().map(|why| view! { <li>{why}</li> }).collect_view();
                    view! {
                        <div class="notice">
                            <p>{tr_live("settings-address-ignored")}</p>
                            <ul>{items}</ul>
                        </div>
                    }
                })
            }}
            <DemoEndpointNote/>
            <ProviderFields/>
            <KeyField/>
            <QuestionLimits/>
            <SafeModeField/>
            <p class="hint">
                {move || tr!(
                    "settings-query-deadline",
                    deadline = crate::text::format_seconds(state.limits.get().deadline_ms)
                )}
            </p>
            {move || choice.problem.get().map(|why| view! { <p class="field-error" role="alert">{why}</p> })}
            {move || choice.storage_refused.get().then(|| view! {
                <p class="field-error" role="alert">{tr_live("settings-storage-refused")}</p>
            })}
            <p class="hint">{tr_live("settings-saved-where")}</p>
    }
}

/// While a demo's endpoint answers: that choosing a model here makes the reader's answer.
#[component]
fn DemoEndpointNote() -> impl IntoView {
    let choice = expect_context::<ModelChoice>();
    move || {
        choice.demo.filter(DemoEndpoint::in_use).map(|_| {
            view! {
                <p class="notice" data-testid="settings-demo-endpoint">
                    {tr_live("settings-demo-endpoint-note")}
                </p>
            }
        })
    }
}

/// The provider, presets for OpenAI-compatible servers, the base URL and the model.
#[component]
fn ProviderFields() -> impl IntoView {
    let choice = expect_context::<ModelChoice>();
    let settings = choice.settings;
    let on_base_url = move |event: ev::Event| match check_base_url(&event_target_value(&event)) {
        Ok(url) => choice.edit_model(|s| s.base_url = url),
        Err(why) => choice.problem.set(Some(tr!(
            "settings-base-url-kept",
            why = why,
            url = settings.get_untracked().endpoint_url()
        ))),
    };
    let on_model = move |event: ev::Event| match check_model(&event_target_value(&event)) {
        Ok(model) => choice.edit_model(|s| s.model = model),
        Err(why) => choice.problem.set(Some(why)),
    };
    let provider_options = ProviderKind::ALL
        .iter()
        .map(|&kind| {
            view! {
                <option value=kind.id() prop:selected=move || settings.with(|s| s.provider == kind)>
                    {move || provider_label(kind)}
                </option>
            }
        })
        .collect_view();
    let presets = OPENAI_COMPATIBLE_PRESETS
        .iter()
        .map(|preset| {
            view! {
                <button
                    type="button"
                    class="button small"
                    translate="no"
                    title=move || tr!("settings-preset-title", url = preset.base_url)
                    on:click=move |_| choice.edit_model(|s| s.choose_preset(preset))
                >
                    {preset.label}
                </button>
            }
        })
        .collect_view();

    view! {
            <div class="field">
                <label for="provider">{tr_live("settings-provider")}</label>
                <select
                    id="provider"
                    data-testid="provider"
                    on:change=move |event| {
                        if let Some(kind) = ProviderKind::named(&event_target_value(&event)) {
                            choice.edit_model(|s| s.choose_provider(kind));
                        }
                    }
                >
                    {provider_options}
                </select>
                <p class="hint" data-testid="provider-caching">
                    {move || settings.with(|s| caching_hint(s.provider))}
                </p>
            </div>
            <div class="field presets" role="group" aria-label=tr_live("settings-presets-label")>
                <span class="muted">{tr_live("settings-presets-lead")}</span>
                {presets}
            </div>
            <div class="field">
                <label for="base-url">{tr_live("settings-base-url")}</label>
                <input
                    id="base-url"
                    type="url"
                    data-testid="base-url"
                    spellcheck="false"
                    autocomplete="off"
                    prop:value=move || settings.with(|s| s.base_url.clone())
                    on:change=on_base_url
                />
            </div>
            <div class="field">
                <label for="model">{tr_live("settings-model")}</label>
                <input
                    id="model"
                    data-testid="model"
                    spellcheck="false"
                    autocomplete="off"
                    placeholder=move || settings.with(model_placeholder)
                    prop:value=move || settings.with(|s| s.model.clone())
                    on:change=on_model
                />
            </div>
    }
}

/// The API key, whether it is remembered, and forgetting the saved ones.
#[component]
fn KeyField() -> impl IntoView {
    let choice = expect_context::<ModelChoice>();
    let settings = choice.settings;
    view! {
            <div class="field">
                <label for="api-key">{tr_live("settings-api-key")}</label>
                <input
                    id="api-key"
                    type="password"
                    data-testid="api-key"
                    spellcheck="false"
                    autocomplete="off"
                    placeholder=tr_live("settings-api-key-placeholder")
                    prop:value=move || choice.key()
                    on:input=move |event| choice.set_key(&event_target_value(&event))
                />
                <p class="hint">
                    {move || {
                        let endpoint = settings.with(|s| s.endpoint_url());
                        if choice.remember.get() {
                            tr!("settings-key-kept-in-browser", endpoint = endpoint)
                        } else {
                            tr!("settings-key-kept-in-tab", endpoint = endpoint)
                        }
                    }}
                    {tr_live("settings-key-per-address")}
                </p>
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="remember-key"
                        prop:checked=move || choice.remember.get()
                        on:change=move |event| choice.set_remember(event_target_checked(&event))
                    />
                    " "{tr_live("settings-remember-key")}
                </label>
                {move || {
                    (!choice.saved_keys.with(KeyRing::is_empty)).then(|| view! {
                        <button
                            type="button"
                            class="button small"
                            data-testid="forget-keys"
                            on:click=move |_| choice.forget_saved_keys()
                        >
                            {tr_live("settings-forget-keys")}
                        </button>
                    })
                }}
            </div>
    }
}

/// What one question may take: temperature, steps, candidates, and bytes read from a server.
#[component]
fn QuestionLimits() -> impl IntoView {
    let choice = expect_context::<ModelChoice>();
    let settings = choice.settings;
    view! {
            <div class="field-row">
                <label>
                    {tr_live("settings-temperature")}" "
                    <NumberInput
                        testid="temperature"
                        range=TEMPERATURE_RANGE
                        step="0.1"
                        value=Signal::derive(move || settings.with(|s| s.temperature.to_string()))
                        set=move |t| choice.edit(|s| s.temperature = t)
                    />
                </label>
                <label>
                    {tr_live("settings-step-limit")}" "
                    <NumberInput
                        testid="step-limit"
                        range=STEP_RANGE
                        step="1"
                        value=Signal::derive(move || settings.with(|s| s.max_steps.to_string()))
                        set=move |n| choice.edit(|s| s.max_steps = n)
                    />
                </label>
                <label title=tr_live("settings-candidates-title")>
                    {tr_live("settings-candidates")}" "
                    <NumberInput
                        testid="candidates"
                        range=CANDIDATE_RANGE
                        step="1"
                        value=Signal::derive(move || settings.with(|s| s.candidates.to_string()))
                        set=move |n| choice.edit(|s| s.candidates = n)
                    />
                </label>
            </div>
            <label class="check" title=tr_live("settings-stream-title")>
                <input
                    type="checkbox"
                    data-testid="stream-replies"
                    prop:checked=move || settings.with(|s| s.stream)
                    on:change=move |event| {
                        let stream = event_target_checked(&event);
                        choice.edit(|s| s.stream = stream)
                    }
                />
                " "{tr_live("settings-stream")}
            </label>
            <div class="field-row">
                <label title=tr_live("settings-read-budget-title")>
                    {tr_live("settings-read-budget")}" "
                    <NumberInput
                        testid="read-budget"
                        range=READ_BUDGET_RANGE_MB
                        step="1"
                        value=Signal::derive(move || settings.with(|s| s.read_budget_mb.to_string()))
                        set=move |n| choice.edit(|s| s.read_budget_mb = n)
                    />
                    " MB"
                </label>
            </div>
            <p class="hint">
                {move || match settings.with(|s| s.read_budget_bytes()) {
                    Some(bytes) => tr!(
                        "settings-read-budget-hint",
                        budget = crate::text::format_bytes(bytes),
                        default = DEFAULT_READ_BUDGET_MB
                    ),
                    None => tr!("settings-read-budget-none"),
                }}
            </p>
    }
}

/// Safe mode: the model picks from a list and the page writes the SQL.
#[component]
fn SafeModeField() -> impl IntoView {
    let choice = expect_context::<ModelChoice>();
    let settings = choice.settings;
    view! {
            <div class="field">
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="safe-mode"
                        prop:checked=move || settings.with(|s| s.mode == Mode::Safe)
                        on:change=move |event| {
                            let mode = if event_target_checked(&event) { Mode::Safe } else { Mode::Sql };
                            choice.edit(|s| s.mode = mode);
                        }
                    />
                    " "{tr_live("settings-safe-mode")}
                </label>
                <p class="hint">{tr_live("settings-safe-mode-hint")}</p>
            </div>
    }
}

/// A provider's name in the panel: OpenAI's says that compatible servers speak its format too;
/// the others are names.
fn provider_label(kind: ProviderKind) -> String {
    match kind {
        ProviderKind::OpenAi => tr!("settings-provider-openai"),
        other => other.label().to_string(),
    }
}

/// What the provider's prompt caching means for the person.
fn caching_hint(provider: ProviderKind) -> String {
    let name = provider_label(provider);
    match provider.descriptor().caching {
        Caching::ByItself => tr!("settings-caching-by-itself", provider = name),
        Caching::Marked => tr!("settings-caching-marked", provider = name),
    }
}
