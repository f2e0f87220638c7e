//! Replaying a saved conversation: each recorded question is asked again through the agent,
//! with the recorded model turns in place of a model and the tools running live on the open
//! database. A banner says it is a replay (model, date), sets its pace, and says plainly where
//! the open database or a result is not what was recorded.

use super::super::connection::ready;
use super::super::lazy::on_first_use;
use super::super::task::Started;
use super::marked;
use super::runner::{QuestionRun, Ran};
use super::transcript::Transcript;
use super::{chat_state, ChatState, Exchange};
use crate::agent::Session;
use crate::browser::BrowserClock;
use crate::conversation::replay::{DEFAULT_PACE_MS, SLOWEST_PACE_MS};
use crate::conversation::{
    CandidateReplay, ConversationFile, Difference, RecordedQuestion, ReplayLlm,
};
use crate::engine::page::ModelDatabase;
use crate::llm::ProviderKind;
use crate::present::marked::data;
use crate::present::readiness::not_ready as not_ready_sentence;
use crate::present::replay::{self as replay_said, other_agreement, other_database};
use crate::present::transcript::StepDifference;
use crate::settings::readiness::{Asking, NotReady};
use crate::tr;
use crate::ui::language::tr_live;
use leptos::prelude::*;
use std::rc::Rc;
use std::sync::Arc;

/// Paces a person can choose (ms per step), slowest first.
const SPEEDS: [u32; 3] = [SLOWEST_PACE_MS / 2, DEFAULT_PACE_MS, DEFAULT_PACE_MS / 3];

/// What the speed menu calls the pace at `index` of [`SPEEDS`].
fn speed_label(index: usize) -> String {
    match index {
        0 => tr!("chat-replay-speed-slow"),
        1 => tr!("chat-replay-speed-normal"),
        _ => tr!("chat-replay-speed-fast"),
    }
}

/// The replay on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayInfo {
    pub model: String,
    pub provider: ProviderKind,
    /// When it was recorded, as the file says (shown as text).
    pub recorded_at: String,
    /// Why the open database is not the recorded one, if it is not.
    pub other_database: Option<String>,
    /// Tool results that differ from the recording so far.
    pub differences: u32,
    pub questions: usize,
    pub playing: bool,
    pub stopped: bool,
}

impl ChatState {
    /// Replays the conversation waiting in the shared state, once a database is open and the
    /// model's view of it ready (the chat follows each open and each change of the view,
    /// `chat::FOLLOWS`, and runs this again then).
    pub(super) fn replay_pending(&self) {
        if self
            .app
            .assistant
            .pending_replay
            .with_untracked(Option::is_none)
        {
            return;
        }
        let db = match ready(self.app, self.model, Asking::Replay) {
            Ok(db) => db,
            Err(NotReady::NoDatabase | NotReady::ModelViewPreparing) => return,
            Err(not_ready) => {
                self.error.set(Some(not_ready_sentence(&not_ready)));
                self.app.assistant.pending_replay.set(None);
                return;
            }
        };
        if self.task.running_untracked() {
            self.error.set(Some(tr!("chat-replay-question-running")));
            self.app.assistant.pending_replay.set(None);
            return;
        }
        if self.session.with_value(Option::is_none) {
            return;
        }
        let Some(started) = self.task.start() else {
            return;
        };
        let Some(file) = self
            .app
            .assistant
            .pending_replay
            .try_update(Option::take)
            .flatten()
        else {
            return;
        };
        let other_database = match self.app.database_record() {
            Some(open) => other_database(&file.database, &open),
            None => Some(tr!("chat-replay-open-unidentified")),
        };
        self.exchanges.set(Vec::new());
        self.error.set(None);
        self.limit_reached.set(None);
        self.recording.set(Some(file.clone()));
        self.recorded_with
            .set_value(Some((file.model.clone(), file.settings.clone())));
        self.replay.set(Some(ReplayInfo {
            model: file.model.name.clone(),
            provider: file.model.provider,
            recorded_at: file.recorded_at.clone(),
            other_database,
            differences: 0,
            questions: file.questions.len(),
            playing: true,
            stopped: false,
        }));
        let generation = self.generation.get_value();
        let chat = *self;
        leptos::task::spawn_local(async move {
            if let Err(not_loaded) = replay_in_chunk(chat, file, generation, db, started).await {
                chat.error.set(Some(not_loaded.to_string()));
                chat.replay
                    .update(|r| r.iter_mut().for_each(|r| r.playing = false));
            }
        });
    }

    /// Plays every recorded question in turn on `db`, the database the model sees; the replayed
    /// ones become the conversation. Stop ends the question playing and the replay.
    async fn play(
        self,
        file: Arc<ConversationFile>,
        generation: u64,
        db: Rc<ModelDatabase>,
        started: Started,
    ) {
        // None when another database was opened meanwhile.
        if self.generation.get_value() != generation || self.session.with_value(Option::is_none) {
            return;
        }
        self.session
            .update_value(|session| session.iter_mut().for_each(Session::forget_conversation));
        let clock = BrowserClock;
        let config = file.settings.replay_config(&file.model.name);
        let limits = file.settings.evidence_limits();
        for recorded in &file.questions {
            let exchange = self
                .owner
                .with_value(|owner| owner.with(|| Exchange::replayed(recorded)));
            self.exchanges.update(|list| list.push(exchange));
            let models = self.recorded_models(recorded, exchange, &clock);
            let run = QuestionRun::new(self, exchange, generation, started.stopped.clone());
            let Some(ran) = run.ask(&db, &models, config.clone(), limits).await else {
                return; // another database was opened: this replay is over
            };
            run.show_evidence(&ran, &db, &limits).await;
            let candidates = recorded.candidates.as_ref();
            if let (Some(candidates), Ran::Several { drawn, .. }) = (candidates, &ran) {
                if let (Some(why), Some(run)) =
                    (other_agreement(candidates, drawn), exchange.candidates)
                {
                    run.recorded_otherwise(why);
                    self.replay
                        .update(|r| r.iter_mut().for_each(|r| r.differences += 1));
                }
            }
            if ran.stopped() {
                self.replay
                    .update(|r| r.iter_mut().for_each(|r| r.stopped = true));
                break;
            }
            if let Some(chosen) = candidates.and_then(|c| c.chosen) {
                self.take_choice(exchange, chosen);
            }
        }
        self.replay
            .update(|r| r.iter_mut().for_each(|r| r.playing = false));
    }

    /// The recorded models of `recorded` (one, or one per candidate), at the replay's pace;
    /// each tool result that differs from the recording is marked at its step.
    fn recorded_models<'a>(
        &self,
        recorded: &RecordedQuestion,
        exchange: Exchange,
        clock: &'a BrowserClock,
    ) -> Vec<ReplayLlm<'a>> {
        let (owner, replay, pace) = (self.owner.get_value(), self.replay, self.pace.get_value());
        let on_difference = move |difference: &Difference| {
            if let Some(transcript) = exchange.transcript_of(difference.candidate) {
                owner.with(|| mark(transcript, replay, difference));
            }
        };
        match &recorded.candidates {
            Some(candidates) => {
                CandidateReplay::new(candidates, clock, &pace, on_difference).into_models()
            }
            None => {
                vec![ReplayLlm::new(recorded.turns.clone(), clock, pace)
                    .on_difference(on_difference)]
            }
        }
    }
}

on_first_use! {
    replay =>
    /// Plays a conversation (see [`ChatState::play`]): the agent comes with it, but not the
    /// providers, so that a documentation page's demo downloads only what a replay needs.
    fn replay_in_chunk(
        chat: ChatState,
        file: Arc<ConversationFile>,
        generation: u64,
        db: Rc<ModelDatabase>,
        started: Started,
    ) -> () {
        super::super::markdown_view::install_reader();
        chat.play(file, generation, db, started).await
    }
}

/// Marks the step a difference belongs to, and counts it at the top.
fn mark(transcript: Transcript, replay: RwSignal<Option<ReplayInfo>>, difference: &Difference) {
    transcript.mark_difference(
        &difference.call_id,
        StepDifference {
            message: replay_said::difference(difference),
            recorded: difference.recorded_quote(),
        },
    );
    replay.update(|r| r.iter_mut().for_each(|r| r.differences += 1));
}

/// "Replay of a recorded conversation", with its model and date, its pace, and what differs.
#[component]
pub fn ReplayBanner() -> impl IntoView {
    let chat = chat_state();
    let pending = move || {
        let file = chat.app.assistant.pending_replay.get()?;
        chat.app.open.with(Option::is_none).then(|| {
            let name = file.database.name.clone();
            view! {
                <p class="replay-pending" data-testid="replay-pending" role="status">
                    {move || marked(&tr!("chat-replay-pending", name = data(&name)))}
                </p>
            }
        })
    };
    let banner = move || {
        let info = chat.replay.get()?;
        Some(view! {
            <section class="replay-banner" data-testid="replay-banner" aria-label=tr!("chat-replay-label")>
                <p class="replay-title">
                    <strong>{tr!("chat-replay-title")}</strong>
                    " · "{tr!("chat-replay-model")}" "
                    <span data-testid="replay-model" translate="no">{info.model.clone()}</span>
                    <span translate="no">{format!(" ({})", info.provider.label())}</span>
                    " · "{tr!("chat-replay-recorded")}" "
                    <span data-testid="replay-date" translate="no">{shown_date(&info.recorded_at)}</span>
                </p>
                <p class="muted">{tr!("chat-replay-how")}</p>
                {info.other_database.clone().map(|why| view! {
                    <p class="replay-warning" data-testid="replay-other-database" role="alert">{marked(&why)}</p>
                })}
                {(info.differences > 0).then(|| view! {
                    <p class="replay-warning" data-testid="replay-differences" role="alert">
                        {tr!("chat-replay-differences", count = info.differences)}
                    </p>
                })}
                <div class="replay-controls">
                    {info.playing.then(|| view! { <SpeedControl/> })}
                    <span class="muted" data-testid="replay-state" role="status">
                        {replay_state(&info, chat.model.demo.is_some_and(|d| d.in_use()))}
                    </span>
                </div>
            </section>
        })
    };
    view! { {pending} {banner} }
}

/// "Watch the recorded conversation": plays again the one replayed here, when there is one.
#[component]
pub fn WatchRecording() -> impl IntoView {
    let chat = chat_state();
    move || {
        let file = chat.recording.get()?;
        Some(view! {
            <button
                type="button"
                class="button"
                data-testid="watch-recording"
                disabled=move || chat.task.running()
                on:click=move |_| chat.app.assistant.pending_replay.set(Some(file.clone()))
            >
                {tr_live("chat-replay-watch")}
            </button>
        })
    }
}

/// The pace of the replay, and "show all at once".
#[component]
fn SpeedControl() -> impl IntoView {
    let chat = chat_state();
    let pace = chat.pace;
    let chosen = RwSignal::new(pace.with_value(|p| p.ms()));
    let choose = move |ms: u32| {
        pace.with_value(|p| p.set(ms));
        chosen.set(ms);
    };
    let options = SPEEDS
        .iter()
        .enumerate()
        .map(|(index, ms)| {
            let ms = *ms;
            view! {
                <option value=ms.to_string() selected=move || chosen.get() == ms>
                    {move || speed_label(index)}
                </option>
            }
        })
        .collect_view();
    view! {
        <label class="replay-speed">
            {tr_live("chat-replay-speed")}" "
            <select
                data-testid="replay-speed"
                on:change=move |event| {
                    if let Ok(ms) = event_target_value(&event).parse() {
                        choose(ms);
                    }
                }
            >
                {options}
            </select>
        </label>
        <button
            type="button"
            class="button small"
            data-testid="replay-all"
            disabled=move || chosen.get() == 0
            on:click=move |_| choose(0)
        >
            {tr_live("chat-replay-all")}
        </button>
    }
}

/// `live`: a demo's endpoint answers the reader's own questions, with no Settings to open.
fn replay_state(info: &ReplayInfo, live: bool) -> String {
    let questions = info.questions;
    if info.playing {
        tr!("chat-replay-playing", questions = questions)
    } else if info.stopped {
        tr!("chat-replay-stopped")
    } else if live {
        tr!("chat-replay-finished-live", questions = questions)
    } else {
        tr!("chat-replay-finished", questions = questions)
    }
}

/// "2026-12-01 09:30 UTC" from the file's ISO date; anything else as it is.
fn shown_date(iso: &str) -> String {
    match (iso.get(..10), iso.get(11..16)) {
        (Some(day), Some(time)) if iso.ends_with('Z') => format!("{day} {time} UTC"),
        _ => iso.to_string(),
    }
}
