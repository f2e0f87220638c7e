//! The golden run ("Check the model" in the page): the open database's golden questions
//! asked of the chosen model, each in a fresh conversation, and judged by [`crate::eval`] (the
//! model's SQL against the expected SQL, by their results). The same model, key, settings and
//! "Sent to the model" ledger as the chat; the report downloads as Markdown and JSON.
//!
//! Shown only in the full page (an embedded demo's readers have no key), and only when the
//! open database has golden questions.

mod golden;
mod view;

pub use view::{GoldenRunButton, GoldenRunPanel};

use super::connection::{connect, Connection};
use super::lazy::on_first_use;
use super::settings::ModelChoice;
use super::state::AppState;
use super::task::{Started, Task};
use crate::agent::Session;
use crate::browser::{describe, now_iso, save_file, BrowserClock};
use crate::engine::fenced::Fenced;
use crate::engine::page::PageDatabase;
use crate::eval::report;
use crate::eval::run::{run_golden, Candidate, Report};
use crate::knowledge::GoldenQuestion;
use crate::model_view::ModelView;
use crate::present::readiness::not_ready as not_ready_sentence;
use crate::settings::readiness::{Asking, NotReady};
use crate::tr;
use leptos::prelude::*;
use std::rc::Rc;

/// The report's two files.
#[derive(Clone, Copy)]
pub enum DownloadAs {
    Markdown,
    Json,
}

/// The panel's state; cheap to copy into handlers.
#[derive(Clone, Copy)]
pub struct GoldenRunState {
    app: AppState,
    model: ModelChoice,
    /// The open database's golden questions.
    pub golden: Signal<Vec<GoldenQuestion>>,
    pub open: RwSignal<bool>,
    /// The run, which Stop stops.
    pub task: Task,
    /// The results so far (all of them once the run is over), with the totals.
    pub report: RwSignal<Option<Report>>,
    /// How many questions the current or last run asks.
    pub asking: RwSignal<usize>,
    /// Why the run could not start, or why a download failed.
    pub error: RwSignal<Option<String>>,
}

fn golden_run_state() -> GoldenRunState {
    expect_context::<GoldenRunState>()
}

impl GoldenRunState {
    /// The state for the chat's model choice; provided as context for the button and panel.
    pub fn provide(app: AppState, model: ModelChoice) {
        let state = GoldenRunState {
            app,
            model,
            golden: golden::golden_questions(app),
            open: RwSignal::new(false),
            task: Task::new(),
            report: RwSignal::new(None),
            asking: RwSignal::new(0),
            error: RwSignal::new(None),
        };
        // Another database: the old run stops and its results go.
        Effect::watch(
            move || app.open.track(),
            move |_, _, _| {
                state.task.stop();
                state.report.set(None);
                state.error.set(None);
                state.open.set(false);
            },
            false,
        );
        provide_context(state);
    }

    /// Asks every golden question, unless something is missing (then says what).
    pub fn run(&self) {
        if self.task.running_untracked() {
            return;
        }
        let golden_questions = self.golden.get_untracked();
        let connection = match connect(
            self.app,
            self.model,
            Asking::GoldenQuestions(golden_questions.len()),
        ) {
            Ok(connection) => connection,
            Err(not_ready) => {
                self.error.set(Some(not_ready_sentence(&not_ready)));
                return;
            }
        };
        // What the model sees (`model_view`), for a fresh session; and the whole database,
        // on which the expected SQL runs.
        let (Some(view), Some(reference)) =
            (super::knowledge::model_view(self.app), self.app.database())
        else {
            self.error
                .set(Some(not_ready_sentence(&NotReady::ModelViewPreparing)));
            return;
        };
        let Some(started) = self.task.start() else {
            return;
        };
        self.error.set(None);
        self.asking.set(golden_questions.len());
        let run = *self;
        leptos::task::spawn_local(async move {
            let asked =
                ask_all_in_chunk(run, golden_questions, view, reference, connection, started);
            if let Err(not_loaded) = asked.await {
                run.error.set(Some(not_loaded.to_string()));
            }
        });
    }

    async fn ask_all(
        self,
        golden_questions: Vec<GoldenQuestion>,
        view: ModelView,
        reference: Rc<PageDatabase>,
        connection: Connection,
        started: Started,
    ) {
        // The same type as the model's database (nothing fenced: the expected SQL reads all).
        let whole = Fenced::open(reference.clone());
        let candidate = Candidate {
            db: &*connection.db,
            reference: &whole,
            llm: &connection.llm,
            clock: &BrowserClock,
            config: connection.config,
        };
        let mut session = Session::for_view(view);
        if let Some(values) = self.app.assistant.values.with_untracked(|v| v.index()) {
            session.set_values(values);
        }
        self.report.set(Some(Report {
            model: candidate.config.model.clone(),
            ..Report::default()
        }));
        let report = self.report;
        // Each golden question (its expected SQL, the model's queries and evidence) has the
        // read budget of one question, started again after each. A database with a budget (one
        // read from a server) is never copied for the model: the model's queries run on it too.
        let budget_limit = connection.settings.read_budget_bytes();
        let budget = reference.question_budget(budget_limit);
        let app = self.app;
        let mut reads_before = reference.total_reads();
        let mut show = |result: &crate::eval::run::GoldenResult| {
            budget.restart(budget_limit);
            app.note_question_reads(&result.question, &reference, reads_before);
            reads_before = reference.total_reads();
            report.update(|report| {
                if let Some(report) = report {
                    report.add(result.clone());
                }
            })
        };
        let stopped = started.stopped.clone();
        let finished =
            run_golden(&candidate, &session, &golden_questions, &mut show, stopped).await;
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
        let run = *self;
        leptos::task::spawn_local(async move {
            if let Err(not_loaded) = save_report_in_chunk(run, report, format).await {
                run.error.set(Some(not_loaded.to_string()));
            }
        });
    }

    /// Writes `report` as `format` and hands it to the browser to save.
    fn save_report(&self, report: Report, format: DownloadAs) {
        let (text, mime, extension) = match format {
            DownloadAs::Markdown => (
                report::markdown(&report),
                "text/markdown;charset=utf-8",
                "md",
            ),
            DownloadAs::Json => (report::json(&report), "application/json", "json"),
        };
        let name = report::file_name(&now_iso(), extension);
        let saved =
            save_file(&name, mime, &text).map_err(|e| tr!("golden-not-saved", why = describe(&e)));
        self.error.set(saved.err());
    }
}

on_first_use! {
    golden_run =>
    /// Asks every golden question (see [`GoldenRunState::ask_all`]): the golden run, and the
    /// agent it asks, are downloaded with the first run.
    fn ask_all_in_chunk(
        run: GoldenRunState,
        golden_questions: Vec<GoldenQuestion>,
        view: ModelView,
        reference: Rc<PageDatabase>,
        connection: Connection,
        started: Started,
    ) -> () {
        run.ask_all(golden_questions, view, reference, connection, started).await
    }
}

on_first_use! {
    golden_run =>
    /// Saves the report (see [`GoldenRunState::save_report`]), written by the golden run's
    /// chunk.
    fn save_report_in_chunk(run: GoldenRunState, report: Report, format: DownloadAs) -> () {
        run.save_report(report, format)
    }
}
