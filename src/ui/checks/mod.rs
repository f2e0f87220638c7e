//! "Check the model": the open database's golden questions asked of the chosen model, each in a
//! fresh conversation, and judged by [`crate::eval`] (the model's SQL against the expected
//! SQL, by their results). The same model, key, settings and "Sent to the model" ledger as the
//! chat; the report downloads as Markdown and JSON.
//!
//! Shown only in the full page (an embedded demo's readers have no key), and only when the
//! open database has golden questions.

mod golden;
mod view;

pub use view::{ChecksButton, ChecksPanel};

use super::settings::ModelChoice;
use super::state::AppState;
use crate::agent::Session;
use crate::browser::{describe, now_iso, save_file, BrowserClock};
use crate::eval::report;
use crate::eval::run::{run_checks, Candidate, Report};
use crate::knowledge::Check;
use crate::llm::http::GlooHttp;
use crate::llm::ledger::RecordedHttp;
use crate::llm::HttpProvider;
use futures::channel::oneshot;
use leptos::prelude::*;

/// The report's two files.
#[derive(Clone, Copy)]
pub enum DownloadAs {
    Markdown,
    Json,
}

/// The panel's state; cheap to copy into handlers.
#[derive(Clone, Copy)]
pub struct ChecksState {
    app: AppState,
    model: ModelChoice,
    /// The open database's golden questions.
    pub golden: Signal<Vec<Check>>,
    pub open: RwSignal<bool>,
    pub running: RwSignal<bool>,
    /// The results so far (all of them once the run is over), with the totals.
    pub report: RwSignal<Option<Report>>,
    /// How many questions the current or last run asks.
    pub asking: RwSignal<usize>,
    /// Why the run could not start, or why a download failed.
    pub error: RwSignal<Option<String>>,
    /// Sending (or dropping) it stops the run.
    cancel: StoredValue<Option<oneshot::Sender<()>>>,
}

fn checks_state() -> ChecksState {
    expect_context::<ChecksState>()
}

impl ChecksState {
    /// The state for the chat's model choice; provided as context for the button and panel.
    pub fn provide(app: AppState, model: ModelChoice) {
        let state = ChecksState {
            app,
            model,
            golden: golden::golden_questions(app),
            open: RwSignal::new(false),
            running: RwSignal::new(false),
            report: RwSignal::new(None),
            asking: RwSignal::new(0),
            error: RwSignal::new(None),
            cancel: StoredValue::new(None),
        };
        // Another database: the old run stops and its results go.
        Effect::watch(
            move || app.open.track(),
            move |_, _, _| {
                state.stop();
                state.report.set(None);
                state.error.set(None);
                state.open.set(false);
            },
            false,
        );
        provide_context(state);
    }

    pub fn stop(&self) {
        if let Some(cancel) = self.cancel.try_update_value(Option::take).flatten() {
            let _ = cancel.send(());
        }
    }

    /// Asks every golden question, unless something is missing (then says what).
    pub fn run(&self) {
        if self.running.get_untracked() {
            return;
        }
        let checks = self.golden.get_untracked();
        if let Err(why) = self.check_ready(&checks) {
            self.error.set(Some(why));
            return;
        }
        let (cancel, cancelled) = oneshot::channel();
        self.cancel.set_value(Some(cancel));
        self.error.set(None);
        self.asking.set(checks.len());
        self.running.set(true);
        let state = *self;
        leptos::task::spawn_local(async move {
            state.ask_all(checks, cancelled).await;
            state.cancel.set_value(None);
            state.running.set(false);
        });
    }

    fn check_ready(&self, checks: &[Check]) -> Result<(), String> {
        if self.app.open.with_untracked(Option::is_none) {
            return Err("Open a database first.".into());
        }
        if checks.is_empty() {
            return Err("This database has no golden questions.".into());
        }
        if let Some(why) = self.app.hiding.with_untracked(|h| h.view.not_ready()) {
            return Err(why);
        }
        self.model.require_model()
    }

    async fn ask_all(&self, checks: Vec<Check>, cancelled: oneshot::Receiver<()>) {
        let (Some(db), Some(view), Some(reference)) = (
            self.app.agent_database(),
            super::knowledge::model_view(self.app),
            self.app.database(),
        ) else {
            self.error.set(Some(
                "The copy of the database the model sees is not ready yet: try again in a moment."
                    .into(),
            ));
            return;
        };
        let settings = self.model.settings.get_untracked();
        let limits = self.app.limits.get_untracked();
        let endpoint = settings.endpoint(&self.model.key_untracked());
        // Every request goes into the "Sent to the model" ledger, as the chat's do.
        let http = RecordedHttp::new(
            GlooHttp,
            self.app.sent.ledger(),
            endpoint.kind,
            BrowserClock,
        );
        let llm = HttpProvider::new(endpoint, http);
        let candidate = Candidate {
            db: &*db,
            reference: &*reference,
            llm: &llm,
            clock: &BrowserClock,
            config: settings.agent_config().with_query_limits(&limits),
        };
        let session = Session::for_view(view);
        self.report.set(Some(Report {
            model: candidate.config.model.clone(),
            ..Report::default()
        }));
        let report = self.report;
        let mut show = |result: &crate::eval::run::CheckResult| {
            report.update(|report| {
                if let Some(report) = report {
                    report.add(result.clone());
                }
            })
        };
        // A dropped sender also stops the run: nobody is left to see it.
        let cancel = async move {
            let _ = cancelled.await;
        };
        let finished = run_checks(&candidate, &session, &checks, &mut show, cancel).await;
        // Unless another database was opened meanwhile (its panel starts empty).
        if self.report.with_untracked(Option::is_some) {
            self.report.set(Some(finished));
        }
    }

    /// Downloads the report.
    pub fn download(&self, format: DownloadAs) {
        let Some(report) = self.report.get_untracked() else {
            return;
        };
        let (text, mime, extension) = match format {
            DownloadAs::Markdown => (
                report::markdown(&report),
                "text/markdown;charset=utf-8",
                "md",
            ),
            DownloadAs::Json => (report::json(&report), "application/json", "json"),
        };
        let name = report::file_name(&now_iso(), extension);
        let saved = save_file(&name, mime, &text)
            .map_err(|e| format!("The browser did not save the file ({}).", describe(&e)));
        self.error.set(saved.err());
    }
}
