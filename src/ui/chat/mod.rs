//! "Ask the database": the agent in the page.
//!
//! A question goes to [`crate::agent::Agent`] with the open database (the same
//! [`crate::engine::Database`] the console uses), the model from the settings panel over
//! `fetch`, and the browser's clock. Its events fill the transcript as they come; its answer's
//! SQL is run again by the page. One [`Session`] per open database holds the conversation.
//!
//! Every question, asked or replayed, of one model or of candidates, runs through one
//! [`QuestionRun`] (`runner`), which owns what they share (the session, the totals, the end).
//! Each live question is recorded at the model's boundary ([`Recorder`]) so that the
//! conversation can be saved (`save`); a saved one is replayed (`replay`) through the same
//! runner with the recorded model turns.

mod announce;
mod answer;
mod candidates;
pub mod kept;
mod question;
mod replay;
mod runner;
mod save;
mod setup_line;
mod transcript;

use super::connection::{connect, Connection};
use super::follow::follower::Follower;
use super::lazy::{on_first_use, when_here, NotLoaded};
use super::result_table::QueryOutcome;
use super::settings::{ModelChoice, SettingsButton, SettingsPanel};
use super::state::AppState;
use super::task::{Started, Task};
use super::{app_state, markdown_view::MarkdownView};
use crate::agent::{Answer, Failure, Session};
use crate::browser::BrowserClock;
use crate::conversation::ConversationFile;
use crate::conversation::{ModelInfo, Pace, RecordedQuestion, Recorder, RunSettings};
use crate::engine::page::ModelDatabase;
use crate::engine::ReadStats;
use crate::engine::Schema;
use crate::llm::Usage;
use crate::present::failure::agent_error;
use crate::present::readiness::not_ready as not_ready_sentence;
use crate::settings::readiness::{Asking, NotReady};
use crate::tr;
use crate::ui::language::tr_live;
pub(crate) use crate::ui::marked::marked;
use candidates::CandidateRun;
use leptos::prelude::*;
use replay::ReplayInfo;
use runner::QuestionRun;
use std::cell::Cell;
use std::sync::Arc;
use transcript::{Transcript, TranscriptView};

/// One question asked, and what became of it.
#[derive(Clone, Copy)]
pub struct Exchange {
    question: StoredValue<String>,
    transcript: Transcript,
    outcome: RwSignal<Option<Result<Answer, Failure>>>,
    /// The answer's SQL as the page ran it.
    evidence: RwSignal<Option<QueryOutcome>>,
    /// What the model said and was told, to be saved (in a replay: the recording's own).
    recording: StoredValue<Option<RecordedQuestion>>,
    /// Played from a saved conversation rather than asked.
    replayed: bool,
    /// What the question read from a database read on demand (its queries, trap inspections
    /// and the answer's re-run), once it is over; `None` in memory.
    reads: RwSignal<Option<ReadStats>>,
    /// Asked of several candidates: theirs steps and results.
    candidates: Option<CandidateRun>,
}

impl Exchange {
    fn new(question: String) -> Exchange {
        Exchange {
            question: StoredValue::new(question),
            transcript: Transcript::new(),
            outcome: RwSignal::new(None),
            evidence: RwSignal::new(None),
            recording: StoredValue::new(None),
            replayed: false,
            reads: RwSignal::new(None),
            candidates: None,
        }
    }

    /// A question asked of `candidates` candidates (one is a plain question).
    fn asked(question: String, candidates: usize) -> Exchange {
        Exchange {
            candidates: (candidates > 1).then(|| CandidateRun::new(candidates)),
            ..Exchange::new(question)
        }
    }

    fn replayed(recorded: &RecordedQuestion) -> Exchange {
        let candidates = recorded.candidates.as_ref().map(|c| c.drawn.len());
        Exchange {
            recording: StoredValue::new(Some(recorded.clone())),
            replayed: true,
            candidates: candidates.map(CandidateRun::new),
            ..Exchange::new(recorded.question.clone())
        }
    }

    /// How many models it is asked of: one, or one per candidate.
    fn models(&self) -> usize {
        self.candidates.map_or(1, |run| run.count())
    }

    /// The transcript of `candidate`'s steps (of the question's, with no candidates).
    fn transcript_of(&self, candidate: Option<usize>) -> Option<Transcript> {
        match self.candidates {
            Some(run) => run.transcript(candidate.unwrap_or_default()),
            None => Some(self.transcript),
        }
    }

    fn answer(&self) -> Option<Answer> {
        self.outcome
            .with(|outcome| outcome.as_ref().and_then(|o| o.as_ref().ok().cloned()))
    }
}

/// What the questions on this database have cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    pub questions: u32,
    pub usage: Usage,
    pub elapsed_ms: f64,
}

impl Totals {
    fn add(&mut self, usage: Usage, elapsed_ms: f64) {
        self.questions += 1;
        self.usage += usage;
        self.elapsed_ms += elapsed_ms;
    }
}

/// The chat's state; cheap to copy into handlers.
#[derive(Clone, Copy)]
pub struct ChatState {
    app: AppState,
    model: ModelChoice,
    pub question: RwSignal<String>,
    /// Oldest first; the last one is the current question.
    exchanges: RwSignal<Vec<Exchange>>,
    /// The question (or replay) running, which Stop stops.
    pub task: Task,
    /// Why the last question got no answer, or why it could not be asked.
    pub error: RwSignal<Option<String>>,
    pub totals: RwSignal<Totals>,
    /// Taken out while a question runs (the agent needs it mutably across awaits).
    session: StoredValue<Option<Session>>,
    /// Counts databases opened: a question that outlives its database must not bring back
    /// the old session.
    generation: StoredValue<u64>,
    owner: StoredValue<Owner>,
    /// The model and settings of the last question, for a saved conversation.
    recorded_with: StoredValue<Option<(ModelInfo, RunSettings)>>,
    /// The replay on screen, if any.
    replay: RwSignal<Option<ReplayInfo>>,
    /// The replay's pace, which its speed control changes while it plays.
    pace: StoredValue<Pace, LocalStorage>,
    /// What a screen reader has been told, oldest first (see `announce`).
    announcements: RwSignal<Vec<String>>,
    /// The demo's endpoint ran out of one of its limits: the sentence that says which and
    /// when it comes back (shown instead of an error, with the recording on offer).
    pub limit_reached: RwSignal<Option<String>>,
    /// The conversation last replayed here, to be watched again (`replay::WatchRecording`).
    recording: RwSignal<Option<Arc<ConversationFile>>>,
    /// The id the conversation on screen is kept under in this browser (`kept`), once its
    /// first question ended.
    kept_as: StoredValue<Option<String>>,
    /// The conversations kept for the open database, newest first.
    kept: RwSignal<Vec<crate::conversation::kept::KeptConversation>>,
    /// Why a conversation was not kept, or could not be opened.
    kept_note: RwSignal<Option<String>>,
}

fn chat_state() -> ChatState {
    expect_context::<ChatState>()
}

impl ChatState {
    fn new(app: AppState, model: ModelChoice, question: String) -> ChatState {
        ChatState {
            app,
            model,
            question: RwSignal::new(question),
            exchanges: RwSignal::new(Vec::new()),
            task: Task::new(),
            error: RwSignal::new(None),
            totals: RwSignal::new(Totals::default()),
            session: StoredValue::new(None),
            generation: StoredValue::new(0),
            owner: StoredValue::new(Owner::current().unwrap_or_default()),
            recorded_with: StoredValue::new(None),
            replay: RwSignal::new(None),
            pace: StoredValue::new_local(Pace::default()),
            announcements: RwSignal::new(Vec::new()),
            limit_reached: RwSignal::new(None),
            recording: RwSignal::new(None),
            kept_as: StoredValue::new(None),
            kept: RwSignal::new(Vec::new()),
            kept_note: RwSignal::new(None),
        }
    }

    /// Another database, or another view of it for the model (`FOLLOWS`): a new session on
    /// `schema`, the one the model may see (none until it may be asked), nothing of the old
    /// one shown.
    fn start_afresh(&self, schema: Option<Schema>) {
        self.task.stop();
        self.generation.update_value(|g| *g += 1);
        self.session.set_value(schema.map(Session::new));
        self.exchanges.set(Vec::new());
        self.error.set(None);
        self.limit_reached.set(None);
        self.totals.set(Totals::default());
        self.replay.set(None);
        self.announcements.set(Vec::new());
        self.kept_as.set_value(None);
        self.kept.set(Vec::new());
        self.kept_note.set(None);
    }

    fn new_conversation(&self) {
        if self.task.running_untracked() {
            return;
        }
        self.session.update_value(|session| {
            if let Some(session) = session {
                session.forget_conversation();
            }
        });
        self.exchanges.set(Vec::new());
        self.error.set(None);
        self.replay.set(None);
        self.keep_apart();
    }

    /// Asks the question in the box, unless something is missing (then says what).
    fn ask(&self) {
        if self.task.running_untracked() {
            return;
        }
        let question = self.question.get_untracked().trim().to_string();
        let connection = match connect(self.app, self.model, Asking::Question(&question)) {
            Ok(connection) => connection,
            Err(not_ready) => {
                self.error.set(Some(not_ready_sentence(&not_ready)));
                return;
            }
        };
        // The session is made from the schema the model sees, once its view is ready.
        if self.session.with_value(Option::is_none) {
            self.error
                .set(Some(not_ready_sentence(&NotReady::NoDatabase)));
            return;
        }
        let Some(started) = self.task.start() else {
            return;
        };
        let candidates = connection.config.candidates;
        let exchange = self
            .owner
            .with_value(|owner| owner.with(|| Exchange::asked(question.clone(), candidates)));
        self.exchanges.update(|list| list.push(exchange));
        self.error.set(None);
        self.limit_reached.set(None);
        let asked = Asked {
            question,
            exchange,
            generation: self.generation.get_value(),
        };
        let chat = *self;
        leptos::task::spawn_local(async move {
            if let Err(not_loaded) = ask_in_chunk(chat, asked, connection, started).await {
                chat.not_loaded(not_loaded);
            }
            // What is left of the demo's calls today, after this question's.
            if let Some(demo) = chat.model.demo.filter(|d| !d.readers_own.get_untracked()) {
                demo.refresh();
            }
        });
    }

    /// The assistant's chunk could not be downloaded: the question was not asked.
    fn not_loaded(&self, not_loaded: NotLoaded) {
        // The last exchange is this question's (no other could start while it waited).
        self.exchanges.update(|list| {
            list.pop();
        });
        self.error.set(Some(not_loaded.to_string()));
    }

    /// Runs `asked` with the person's model (one per candidate, each recorded for a saved
    /// conversation), then records it and shows its answer's rows.
    async fn run(self, asked: Asked, connection: Connection, started: Started) {
        let Connection {
            db,
            llm,
            config,
            settings,
            limits,
        } = connection;
        // Everything the question runs, its re-run included, shares one read budget.
        let _budget = db.database().question_budget(settings.read_budget_bytes());
        let reads_before = db.database().total_reads();
        let (question, exchange) = (asked.question, asked.exchange);
        let clock = BrowserClock;
        // The same model for each candidate, recorded apart; every request goes into the ledger.
        let recorders: Vec<Recorder<'_, _>> = (0..exchange.models())
            .map(|_| Recorder::new(&llm, &clock))
            .collect();
        let run_settings = RunSettings::new(&config, &limits);
        let run = QuestionRun::new(self, exchange, asked.generation, started.stopped.clone());
        let ran = run.ask(&db, &recorders, config, limits).await;
        // The question is over: a new one may be asked while its answer's SQL runs again.
        drop(started);
        let Some(ran) = ran else {
            // Another database was opened meanwhile; what this question read still counts.
            self.note_reads(&question, exchange, &db, reads_before);
            return;
        };
        let turns = recorders.iter().map(Recorder::turns).collect();
        exchange
            .recording
            .set_value(Some(ran.recording(&question, turns)));
        let model = ModelInfo::new(settings.provider, &settings.model, &settings.endpoint_url());
        self.recorded_with.set_value(Some((model, run_settings)));
        self.keep_conversation();
        if ran.answered() && self.question.get_untracked().trim() == question {
            // The box is emptied for the next question, unless one is being typed.
            self.question.set(String::new());
        }
        run.show_evidence(&ran, &db, &limits).await;
        self.note_reads(&question, exchange, &db, reads_before);
    }

    /// What the question read since `before`: on its exchange and in the ledger's list.
    fn note_reads(
        &self,
        question: &str,
        exchange: Exchange,
        db: &ModelDatabase,
        before: Option<ReadStats>,
    ) {
        if let (Some(before), Some(now)) = (before, db.database().total_reads()) {
            exchange.reads.set(Some(now.since(before)));
        }
        self.app
            .note_question_reads(question, db.database(), before);
    }

    /// What the current (or last) question read from a database read on demand, once over.
    fn current_reads(&self) -> Option<ReadStats> {
        let exchange = self.exchanges.with(|list| list.last().copied())?;
        exchange.reads.get()
    }

    /// The current question's tokens, its time once done, and whether it is done.
    fn current_cost(&self) -> Option<(Usage, Option<f64>, bool)> {
        let exchange = self.exchanges.with(|list| list.last().copied())?;
        if let Some(run) = exchange.candidates {
            return Some(run.cost());
        }
        Some(exchange.outcome.with(|outcome| match outcome {
            Some(Ok(answer)) => (answer.usage, Some(answer.elapsed_ms), true),
            Some(Err(failure)) => (failure.usage, Some(failure.elapsed_ms), true),
            None => (exchange.transcript.usage(), None, false),
        }))
    }
}

on_first_use! {
    assistant =>
    /// Asks `asked` (see [`ChatState::run`]): the agent, the providers and the transcript's
    /// recording are downloaded with the first question.
    fn ask_in_chunk(chat: ChatState, asked: Asked, connection: Connection, started: Started) -> () {
        super::markdown_view::install_reader();
        chat.run(asked, connection, started).await
    }
}

/// A question on its way to the agent.
struct Asked {
    question: String,
    exchange: Exchange,
    /// The database it was asked on (see [`ChatState::generation`]).
    generation: u64,
}

thread_local! {
    /// The chat on the page, for what follows an open ([`FOLLOWS`]): set as it is made.
    static ON_PAGE: Cell<Option<ChatState>> = const { Cell::new(None) };
}

/// The chat follows each open, and each change of what the model sees (`ui::follow`): a new
/// session on what the model may see, nothing of the old one on screen, and a replay that
/// waited for a database starts once it may.
pub const FOLLOWS: Follower = Follower {
    shown: None,
    forget: afresh,
    settle: |state, settled| {
        afresh(state);
        list_kept(settled.key, true);
        Box::pin(async {})
    },
    view_changes: |state, _| {
        afresh(state);
        let key = state.identity.get_untracked().storage_key();
        list_kept(
            key.unwrap_or_else(|| Err("not identified yet".into())),
            false,
        );
    },
};

/// Lists the conversations kept for the database keyed `key` (when it has one); `restore`
/// opens again the one open in this tab before a reload.
fn list_kept(key: Result<String, String>, restore: bool) {
    if let (Some(chat), Ok(key)) = (ON_PAGE.with(Cell::get), key) {
        chat.list_kept(key, restore);
    }
}

fn afresh(state: AppState) {
    let Some(chat) = ON_PAGE.with(Cell::get) else {
        return;
    };
    chat.start_afresh(model_view_schema(state));
    chat.replay_pending();
}

/// The schema the model is given, when it may be asked.
fn model_view_schema(state: AppState) -> Option<Schema> {
    state
        .assistant
        .hiding
        .with_untracked(|h| h.model_view.schema().cloned())
}

/// The chat: settings, the question box, the current question and the earlier ones.
#[component]
pub fn Chat() -> impl IntoView {
    let app = app_state();
    let (model, question) = ModelChoice::load();
    provide_context(model);
    super::golden_run::GoldenRunState::provide(app, model);
    let chat = ChatState::new(app, model, question.unwrap_or_default());
    provide_context(chat);
    // From now on it follows each open (`FOLLOWS`); a database may be open already.
    ON_PAGE.with(|on_page| on_page.set(Some(chat)));
    chat.start_afresh(model_view_schema(app));
    // A conversation opened to be replayed: at once if a database is open (else once one is).
    Effect::new(move |_| {
        if app.assistant.pending_replay.with(Option::is_some) {
            untrack(|| chat.replay_pending());
        }
    });

    view! {
        <section class="panel chat" aria-labelledby="chat-heading">
            <div class="chat-head">
                <h2 id="chat-heading">{tr_live("chat-heading")}</h2>
                <div class="chat-head-actions">
                    <super::golden_run::GoldenRunButton/>
                    <SettingsButton/>
                </div>
            </div>
            <SettingsPanel/>
            <super::golden_run::GoldenRunPanel/>
            <replay::ReplayBanner/>
            <super::hiding::HiddenLine/>
            <setup_line::SetupLine/>
            <question::QuestionBox/>
            <kept::KeptConversations/>
            <announce::Announcements/>
            {move || {
                let list = chat.exchanges.get();
                let (current, earlier) = list.split_last()?;
                let earlier = earlier
                    .iter()
                    .rev()
                    .map(|e| when_here(earlier_in_chunk(*e)))
                    .collect_view();
                Some(view! {
                    {when_here(current_in_chunk(*current))}
                    <section class="earlier" aria-label=tr_live("chat-earlier")>{earlier}</section>
                })
            }}
        </section>
    }
}

on_first_use! {
    answers =>
    /// The question being asked (see [`current_view`]): the views of questions and answers are
    /// downloaded with the first question (asked or replayed), not with the first visit.
    fn current_in_chunk(exchange: Exchange) -> AnyView {
        current_view(exchange).into_any()
    }
}

on_first_use! {
    answers =>
    /// An earlier question (see [`earlier_view`]).
    fn earlier_in_chunk(exchange: Exchange) -> AnyView {
        earlier_view(exchange).into_any()
    }
}

/// The question being asked (or last asked): the whole transcript and the answer.
fn current_view(exchange: Exchange) -> impl IntoView {
    view! {
        <article class="exchange current" class:replayed=exchange.replayed>
            <p class="asked">
                {exchange.replayed.then(|| view! { <span class="badge replay">{tr_live("chat-replayed-badge")}</span>" " })}
                // The person's own words, in whatever language they wrote them.
                <span translate="no">{exchange.question.get_value()}</span>
            </p>
            // With candidates, each one has its own transcript.
            {exchange.candidates.is_none().then(|| view! { <TranscriptView transcript=exchange.transcript/> })}
            {exchange.candidates.map(|run| view! {
                <candidates::CandidateSteps run=run/>
                <candidates::CandidatesVerdict exchange=exchange run=run/>
            })}
            <answer::AnswerView exchange=exchange/>
        </article>
    }
}

/// An earlier question, folded: the answer and its SQL, without the steps.
fn earlier_view(exchange: Exchange) -> impl IntoView {
    let body = match exchange.outcome.get_untracked() {
        Some(Ok(answer)) => view! {
            <MarkdownView markdown=answer.text/>
            {answer.sql.map(|sql| view! { <pre class="sql" translate="no"><code>{sql}</code></pre> })}
        }
        .into_any(),
        Some(Err(failure)) => {
            let why = agent_error(&failure.error);
            let said = move || marked(&tr!("chat-earlier-no-answer", why = &why));
            view! { <p class="muted">{said}</p> }.into_any()
        }
        None => ().into_any(),
    };
    view! {
        <details class="exchange earlier-exchange">
            <summary translate="no">{exchange.question.get_value()}</summary>
            {body}
        </details>
    }
}

/// The reader's offset from UTC at the instant `ms` (minutes, east positive), as the browser
/// knows it (`getTimezoneOffset` counts the other way).
fn local_offset_minutes(ms: f64) -> i32 {
    -(js_sys::Date::new(&ms.into()).get_timezone_offset() as i32)
}

/// A message that starts a sentence on its own: "The model could not answer: …".
fn sentence(message: &str) -> String {
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
