//! A question answered by several candidates ([`crate::agent::candidates`]): each candidate's
//! steps, folded; then what their results say. When they agree, the agreed answer is the
//! answer; on a split each distinct result is shown with its SQL and how many candidates gave
//! it, and the person chooses one or rephrases the question. Nothing is chosen for them.

use super::transcript::{Transcript, TranscriptView};
use super::{chat_state, marked, ChatState, Exchange};
use crate::agent::candidates::{Approach, Candidates};
use crate::llm::Usage;
use crate::present::candidates::{
    agreement as agreement_said, approach as approach_words, no_result,
};
use crate::present::errors::for_person_marked;
use crate::present::markdown::plain_text;
use crate::present::marked::data;
use crate::present::transcript::listed;
use crate::tr;
use crate::ui::language::tr_live;
use crate::ui::result_table::ResultView;
use leptos::prelude::*;
use std::sync::Arc;

/// The candidates of one question; cheap to copy.
#[derive(Clone, Copy)]
pub struct CandidateRun {
    /// One per candidate, in order.
    transcripts: StoredValue<Vec<Transcript>>,
    /// What they gave, once all have ended.
    drawn: RwSignal<Option<Candidates>>,
    /// From the question to the last candidate's end.
    elapsed_ms: StoredValue<Option<f64>>,
    /// The candidate whose answer the person chose on a split.
    chosen: RwSignal<Option<usize>>,
    /// In a replay: how the recording grouped the candidates, when that is not how they are
    /// grouped now.
    recorded_otherwise: RwSignal<Option<String>>,
}

impl CandidateRun {
    pub fn new(candidates: usize) -> CandidateRun {
        CandidateRun {
            transcripts: StoredValue::new((0..candidates).map(|_| Transcript::new()).collect()),
            drawn: RwSignal::new(None),
            elapsed_ms: StoredValue::new(None),
            chosen: RwSignal::new(None),
            recorded_otherwise: RwSignal::new(None),
        }
    }

    /// How many candidates there are.
    pub fn count(&self) -> usize {
        self.transcripts.with_value(Vec::len)
    }

    /// Candidate `index`'s transcript.
    pub fn transcript(&self, index: usize) -> Option<Transcript> {
        self.transcripts.with_value(|list| list.get(index).copied())
    }

    /// In a replay: the recording grouped the candidates otherwise (`why`).
    pub fn recorded_otherwise(&self, why: String) {
        self.recorded_otherwise.set(Some(why));
    }

    /// Tokens of every candidate, their time once all are done, and whether they are.
    pub fn cost(&self) -> (Usage, Option<f64>, bool) {
        if let Some(usage) = self.drawn.with(|d| d.as_ref().map(Candidates::usage)) {
            return (usage, self.elapsed_ms.get_value(), true);
        }
        let mut usage = Usage::default();
        for transcript in self.transcripts.get_value() {
            usage += transcript.usage();
        }
        (usage, None, false)
    }
}

/// The candidate whose answer the candidates agree on; none when stopped (the person stopped
/// the question: nothing is taken).
pub(super) fn agreed(drawn: &Candidates) -> Option<usize> {
    drawn.agreement.agreed().filter(|_| !drawn.stopped())
}

impl ChatState {
    /// The candidates of `exchange` have ended (`drawn`, in `elapsed_ms`): what they gave is
    /// shown and said once, and the agreed answer, if any, becomes the answer.
    pub(super) fn show_drawn(&self, exchange: Exchange, drawn: &Candidates, elapsed_ms: f64) {
        let Some(run) = exchange.candidates else {
            return;
        };
        let stopped = drawn.stopped();
        if stopped {
            let transcripts = run.transcripts.get_value();
            for (transcript, answer) in transcripts.iter().zip(&drawn.answers) {
                if answer.stopped() {
                    transcript.stopped();
                }
            }
        }
        run.elapsed_ms.set_value(Some(elapsed_ms));
        run.drawn.set(Some(drawn.clone()));
        // Said once, with the answer when they agree (on a split the person chooses one).
        let agreed = agreed(drawn);
        let summary = agreement_said(&drawn.agreement);
        let answer = agreed.and_then(|index| drawn.answers[index].answer());
        self.announce(match (stopped, answer) {
            (true, _) => tr!("chat-candidates-stopped-said", summary = summary),
            (false, Some(answer)) => tr!(
                "chat-candidates-agreed-said",
                summary = summary,
                answer = data(&plain_text(&answer.text))
            ),
            (false, None) if drawn.agreement.is_split() => {
                tr!("chat-candidates-split-said", summary = summary)
            }
            (false, None) => tr!("chat-candidates-said", summary = summary),
        });
        if let Some(index) = agreed {
            take_answer(exchange, drawn, index);
        }
    }

    /// The person chose candidate `index`'s answer on a split: it becomes the answer, and what
    /// the questions that follow remember.
    fn choose(&self, exchange: Exchange, index: usize) {
        if !self.task.running_untracked() {
            self.take_choice(exchange, index);
        }
    }

    /// Candidate `index`'s answer becomes the answer (chosen by the person, or in a replay by
    /// the recording), unless one was chosen already.
    pub(super) fn take_choice(&self, exchange: Exchange, index: usize) {
        let Some(run) = exchange.candidates else {
            return;
        };
        if run.chosen.get_untracked().is_some() {
            return;
        }
        let Some(drawn) = run.drawn.get_untracked() else {
            return;
        };
        let Some(answer) = drawn.answers.get(index).and_then(|a| a.answer().cloned()) else {
            return;
        };
        let question = exchange.question.get_value();
        self.session.update_value(|session| {
            if let Some(session) = session {
                session.remember(&question, &answer);
            }
        });
        run.chosen.set(Some(index));
        exchange
            .recording
            .update_value(|recorded| recorded.iter_mut().for_each(|r| r.choose(index)));
        take_answer(exchange, &drawn, index);
    }
}

/// Shows candidate `index`'s answer as the answer, with its result as it ran here.
fn take_answer(exchange: Exchange, drawn: &Candidates, index: usize) {
    let candidate = &drawn.answers[index];
    let Some(answer) = candidate.answer().cloned() else {
        return;
    };
    exchange.outcome.set(Some(Ok(answer)));
    if let Some(evidence) = &candidate.evidence {
        let outcome = evidence
            .clone()
            .map(Arc::new)
            .map_err(|e| for_person_marked(&e));
        exchange.evidence.set(Some(outcome));
    }
}

/// Each candidate's steps, folded under one line that says how it went.
#[component]
pub fn CandidateSteps(run: CandidateRun) -> impl IntoView {
    let transcripts = run.transcripts.get_value();
    let count = transcripts.len();
    let items = transcripts
        .into_iter()
        .enumerate()
        .map(|(index, transcript)| {
            let approach = Approach::of_candidate(index);
            let status = move || {
                run.drawn.with(|drawn| match drawn {
                    None => tr!("chat-candidate-working"),
                    Some(drawn) => match no_result(&drawn.answers[index]) {
                        None => tr!("chat-candidate-gave-result"),
                        Some(why) => why,
                    },
                })
            };
            let heading = move || {
                tr!(
                    "chat-candidate-heading",
                    number = index + 1,
                    count = count,
                    approach = approach_words(approach)
                )
            };
            view! {
                <details class="candidate-steps" data-testid="candidate-steps">
                    <summary>
                        {heading}
                        <span data-testid="candidate-status">{move || marked(&status())}</span>
                    </summary>
                    <TranscriptView transcript=transcript/>
                </details>
            }
        })
        .collect_view();
    view! { <div class="candidates" aria-label=tr_live("chat-candidates-steps")>{items}</div> }
}

/// What the candidates' results say: that they agree, or each distinct result to choose from.
#[component]
pub fn CandidatesVerdict(exchange: Exchange, run: CandidateRun) -> impl IntoView {
    move || {
        let drawn = run.drawn.get()?;
        let stopped = drawn.stopped();
        let agreement = &drawn.agreement;
        let summary = match stopped {
            true => tr!(
                "chat-candidates-stopped",
                summary = agreement_said(agreement)
            ),
            false => agreement_said(agreement),
        };
        let split = agreement.is_split().then(|| {
            let groups = agreement
                .groups
                .iter()
                .map(|group| group_view(exchange, run, &drawn, group, stopped))
                .collect_view();
            view! {
                {(!stopped).then(|| view! {
                    <p class="candidates-ask" data-testid="candidates-ask">
                        {move || match run.chosen.get() {
                            None => tr!("chat-candidates-choose"),
                            Some(index) => tr!("chat-candidates-chosen", number = index + 1),
                        }}
                    </p>
                })}
                <div class="candidate-results">{groups}</div>
            }
        });
        let without: Vec<String> = agreement
            .without_result
            .iter()
            .map(|&index| {
                let why = no_result(&drawn.answers[index]).unwrap_or_default();
                tr!("chat-candidate-without", number = index + 1, why = why)
            })
            .collect();
        let without = (!without.is_empty()).then(|| {
            view! {
                <ul class="candidates-without muted" data-testid="candidates-without">
                    {without.into_iter().map(|line| view! { <li>{marked(&line)}</li> }).collect_view()}
                </ul>
            }
        });
        Some(view! {
            <section class="candidates-verdict" data-testid="candidates-verdict" aria-label=tr!("chat-candidates-verdict")>
                // Not a live region: the chat's log says it once (`announce`).
                <p class="agreement" class:split=agreement.is_split() data-testid="agreement">
                    {summary}
                </p>
                {split}
                {without}
                {run.recorded_otherwise.get().map(|why| view! {
                    <p class="replay-warning" data-testid="candidates-recorded-otherwise" role="alert">
                        {marked(&tr!("chat-candidates-recorded-otherwise", why = why))}
                    </p>
                })}
            </section>
        })
    }
}

/// One distinct result of a split: how many gave it, its SQL, its rows, and the choice.
fn group_view(
    exchange: Exchange,
    run: CandidateRun,
    drawn: &Candidates,
    group: &[usize],
    stopped: bool,
) -> impl IntoView {
    let first = group[0];
    let candidate = &drawn.answers[first];
    let sql = candidate.evidence_sql().unwrap_or_default();
    let result = RwSignal::new(candidate.result().cloned().map(|r| Ok(Arc::new(r))));
    let numbers: Vec<String> = group.iter().map(|i| (i + 1).to_string()).collect();
    let given = tr!(
        "chat-candidate-given",
        given = group.len(),
        count = drawn.answers.len(),
        numbers = listed(&numbers)
    );
    let text = candidate
        .answer()
        .map(|a| a.text.clone())
        .unwrap_or_default();
    let chat = chat_state();
    let chosen = move || run.chosen.get() == Some(first);
    view! {
        <div class="candidate-result" class:chosen=chosen data-testid="candidate-group">
            <h4 data-testid="candidate-given">{given}</h4>
            // The model's words, in the language it wrote them.
            <p class="candidate-text" translate="no">{text}</p>
            <pre class="sql" data-testid="candidate-sql" translate="no"><code>{sql}</code></pre>
            <ResultView outcome=result testid_scope="candidate"/>
            {(!stopped).then(|| view! {
                <button
                    type="button"
                    class="button small"
                    data-testid="choose-candidate"
                    disabled=move || run.chosen.get().is_some() || chat.task.running()
                    on:click=move |_| chat.choose(exchange, first)
                >
                    {move || if chosen() { tr!("chat-candidate-chosen") } else { tr!("chat-candidate-use") }}
                </button>
            })}
        </div>
    }
}
