//! "Run the model", built once for the chat and "Check the model": whether the model may be
//! asked now ([`crate::settings::readiness`] decides, from the facts gathered here), and the
//! connection a run uses (through a demo's endpoint, with no key, while one answers:
//! `ui::demo_endpoint`): the database the model sees, the model over `fetch` with every
//! exchange in the "Sent to the model" ledger, and the agent's settings with the console's query
//! limits.

use super::settings::ModelChoice;
use super::state::AppState;
use crate::agent::AgentConfig;
use crate::browser::BrowserClock;
use crate::engine::page::ModelDatabase;
use crate::engine::QueryLimits;
use crate::llm::http::GlooHttp;
use crate::llm::ledger::RecordedHttp;
use crate::llm::HttpProvider;
use crate::settings::readiness::{may_ask, Asking, Facts, NotReady};
use crate::settings::ModelSettings;
use leptos::prelude::*;
use std::rc::Rc;

/// The model as the page calls it.
pub type PageModel = HttpProvider<RecordedHttp<GlooHttp, BrowserClock>>;

/// Everything one run of the model needs.
pub struct Connection {
    /// The database the model's queries run on: the copy without what is hidden, when
    /// something is.
    pub db: Rc<ModelDatabase>,
    pub llm: PageModel,
    /// The model settings and the console's query deadline, met here.
    pub config: AgentConfig,
    /// The settings as chosen, for a saved conversation's record.
    pub settings: ModelSettings,
    /// The console's limits, under which the answer's SQL is run again.
    pub limits: QueryLimits,
}

/// The database the model sees, if `asking` may go ahead now. When it may not, why; a missing
/// model or key also opens Settings at that field.
pub fn ready(
    app: AppState,
    model: ModelChoice,
    asking: Asking,
) -> Result<Rc<ModelDatabase>, NotReady> {
    let question = model.for_question_untracked();
    let (settings, key) = (&question.settings, &question.key);
    let facts = Facts {
        asking,
        database_open: app.open.with_untracked(Option::is_some),
        model_view: app
            .assistant
            .hiding
            .with_untracked(|h| h.model_view.readiness()),
        settings,
        key,
        demo_endpoint: question.demo_not_ready.as_deref(),
    };
    if let Err(not_ready) = may_ask(&facts) {
        if let Some(field) = not_ready.field() {
            model.show_field(field);
        }
        return Err(not_ready);
    }
    // A ready view has its engine; never the whole database in place of the copy.
    app.model_view_database()
        .ok_or(NotReady::ModelViewPreparing)
}

/// The model connected for `asking`, if it may go ahead now (see [`ready`]).
pub fn connect(app: AppState, model: ModelChoice, asking: Asking) -> Result<Connection, NotReady> {
    let db = ready(app, model, asking)?;
    let question = model.for_question_untracked();
    let settings = question.settings;
    let limits = app.limits.get_untracked();
    let endpoint = settings.endpoint(&question.key);
    // Every exchange goes into the "Sent to the model" ledger (without the key).
    let http = RecordedHttp::new(
        GlooHttp,
        app.assistant.sent.ledger(),
        endpoint.kind,
        BrowserClock,
    );
    let llm = HttpProvider::new(endpoint, http).streaming(settings.stream);
    Ok(Connection {
        db,
        llm: if question.through_demo {
            llm.through_demo_endpoint()
        } else {
            llm
        },
        config: settings.agent_config().with_query_limits(&limits),
        settings,
        limits,
    })
}
