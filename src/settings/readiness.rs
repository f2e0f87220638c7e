//! "May we ask?": whether the model may be asked now, and if not, why ([`NotReady`], which
//! `present::readiness` puts in words). One answer for the chat's questions, "Check the model"
//! and a replay. Pure: the page gathers the facts ([`Facts`]), this decides, in one order, with
//! one reason.

use super::ModelSettings;

/// What is about to be asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asking<'a> {
    /// A question typed in the chat.
    Question(&'a str),
    /// The open database's golden questions ("Check the model"): this many.
    GoldenQuestions(usize),
    /// A recorded conversation, played back: no model is asked, so none needs to be chosen.
    Replay,
}

/// Where the model view of the open database stands. The page decides it (hiding may have to
/// make a copy first); this module only reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelViewReadiness {
    /// The model's queries can run.
    Ready,
    /// The copy without what is hidden is still being made.
    Preparing,
    /// The copy could not be made, for this reason.
    Failed(String),
    /// Something must be kept from the model and this kind of database cannot do it
    /// (`model_view`), for this reason: the model is not asked rather than shown it all.
    Refused(String),
}

/// What the page knows when someone asks.
#[derive(Clone, Debug)]
pub struct Facts<'a> {
    pub asking: Asking<'a>,
    pub database_open: bool,
    pub model_view: ModelViewReadiness,
    /// The model the person chose.
    pub settings: &'a ModelSettings,
    /// The key for that model's endpoint; empty when there is none.
    pub key: &'a str,
    /// Why the demo's endpoint, which the questions go to, cannot answer yet (its card is still
    /// being read, or could not be); `None` when it can, or when there is none.
    pub demo_endpoint: Option<&'a str>,
}

/// Why the model cannot be asked now; `present::readiness::not_ready` says what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotReady {
    NoQuestion,
    NoDatabase,
    NoGoldenQuestions,
    ModelViewPreparing,
    ModelViewFailed(String),
    ModelViewRefused(String),
    /// The questions go to a demo's endpoint that cannot answer yet: why, as a sentence.
    DemoEndpoint(String),
    NoModel,
    /// No key for a provider's own address, which answers nothing without one.
    NoKey {
        provider: &'static str,
    },
}

/// A settings field the person must fill in, when that is what is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissingField {
    Model,
    ApiKey,
}

impl NotReady {
    /// The settings field to show, when the person must fill one in.
    pub fn field(&self) -> Option<MissingField> {
        match self {
            NotReady::NoModel => Some(MissingField::Model),
            NotReady::NoKey { .. } => Some(MissingField::ApiKey),
            _ => None,
        }
    }
}

/// Whether the model may be asked, checked in the order a person fixes things: what to ask,
/// the database, the model view of it, then the model and its key.
pub fn may_ask(facts: &Facts) -> Result<(), NotReady> {
    if let Asking::Question(question) = facts.asking {
        if question.trim().is_empty() {
            return Err(NotReady::NoQuestion);
        }
    }
    if !facts.database_open {
        return Err(NotReady::NoDatabase);
    }
    if facts.asking == Asking::GoldenQuestions(0) {
        return Err(NotReady::NoGoldenQuestions);
    }
    match &facts.model_view {
        ModelViewReadiness::Ready => {}
        ModelViewReadiness::Preparing => return Err(NotReady::ModelViewPreparing),
        ModelViewReadiness::Failed(why) => return Err(NotReady::ModelViewFailed(why.clone())),
        ModelViewReadiness::Refused(why) => return Err(NotReady::ModelViewRefused(why.clone())),
    }
    if facts.asking == Asking::Replay {
        return Ok(());
    }
    if let Some(why) = facts.demo_endpoint {
        return Err(NotReady::DemoEndpoint(why.to_string()));
    }
    if facts.settings.model.trim().is_empty() {
        return Err(NotReady::NoModel);
    }
    if needs_key(facts.settings) && facts.key.trim().is_empty() {
        return Err(NotReady::NoKey {
            provider: facts.settings.provider.label(),
        });
    }
    Ok(())
}

/// Whether the endpoint surely wants a key: the provider's own address does. Any other address
/// may be a server that needs none (Ollama, LM Studio, a proxy that adds the key itself).
fn needs_key(settings: &ModelSettings) -> bool {
    settings.endpoint_url() == settings.provider.default_base_url()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ProviderKind;

    fn chosen() -> ModelSettings {
        ModelSettings {
            model: "gpt-test".into(),
            ..ModelSettings::default()
        }
    }

    fn facts<'a>(asking: Asking<'a>, settings: &'a ModelSettings) -> Facts<'a> {
        Facts {
            asking,
            database_open: true,
            model_view: ModelViewReadiness::Ready,
            settings,
            key: "sk-test",
            demo_endpoint: None,
        }
    }

    #[test]
    fn everything_in_place_may_ask() {
        let settings = chosen();
        for asking in [
            Asking::Question("How many orders?"),
            Asking::GoldenQuestions(8),
            Asking::Replay,
        ] {
            assert_eq!(may_ask(&facts(asking, &settings)), Ok(()), "{asking:?}");
        }
    }

    #[test]
    fn each_missing_thing_is_named_in_the_order_a_person_fixes_them() {
        let unchosen = ModelSettings::default();
        let nothing = Facts {
            asking: Asking::Question("  "),
            database_open: false,
            model_view: ModelViewReadiness::Preparing,
            settings: &unchosen,
            key: "",
            demo_endpoint: None,
        };
        assert_eq!(may_ask(&nothing), Err(NotReady::NoQuestion));
        let asked = Facts {
            asking: Asking::Question("How many?"),
            ..nothing.clone()
        };
        assert_eq!(may_ask(&asked), Err(NotReady::NoDatabase));
        let open = Facts {
            database_open: true,
            ..asked.clone()
        };
        assert_eq!(may_ask(&open), Err(NotReady::ModelViewPreparing));
        let failed = Facts {
            model_view: ModelViewReadiness::Failed("out of memory".into()),
            ..open.clone()
        };
        assert_eq!(
            may_ask(&failed),
            Err(NotReady::ModelViewFailed("out of memory".into()))
        );
        let ready = Facts {
            model_view: ModelViewReadiness::Ready,
            ..open.clone()
        };
        assert_eq!(may_ask(&ready), Err(NotReady::NoModel));
        let settings = chosen();
        let model = Facts {
            settings: &settings,
            ..ready
        };
        assert_eq!(
            may_ask(&model),
            Err(NotReady::NoKey {
                provider: "OpenAI or compatible"
            })
        );
    }

    #[test]
    fn the_golden_questions_need_a_database_that_has_some() {
        let settings = chosen();
        let none = facts(Asking::GoldenQuestions(0), &settings);
        assert_eq!(may_ask(&none), Err(NotReady::NoGoldenQuestions));
        let closed = Facts {
            database_open: false,
            ..none
        };
        assert_eq!(may_ask(&closed), Err(NotReady::NoDatabase));
    }

    #[test]
    fn a_replay_needs_the_model_view_but_no_model() {
        let unchosen = ModelSettings::default();
        let replay = Facts {
            key: "",
            ..facts(Asking::Replay, &unchosen)
        };
        assert_eq!(may_ask(&replay), Ok(()));
        let preparing = Facts {
            model_view: ModelViewReadiness::Preparing,
            ..replay
        };
        assert_eq!(may_ask(&preparing), Err(NotReady::ModelViewPreparing));
    }

    #[test]
    fn a_view_this_database_cannot_enforce_refuses_every_way_of_asking() {
        let settings = chosen();
        for asking in [
            Asking::Question("How many orders?"),
            Asking::GoldenQuestions(8),
            Asking::Replay,
        ] {
            let refused = Facts {
                model_view: ModelViewReadiness::Refused("it is read on demand".into()),
                ..facts(asking, &settings)
            };
            let why = may_ask(&refused).unwrap_err();
            assert_eq!(
                why,
                NotReady::ModelViewRefused("it is read on demand".into())
            );
        }
    }

    #[test]
    fn only_a_providers_own_address_needs_a_key() {
        let mut settings = chosen();
        settings.choose_provider(ProviderKind::Anthropic);
        let keyless = Facts {
            key: " \n",
            ..facts(Asking::Question("How many?"), &settings)
        };
        assert_eq!(
            may_ask(&keyless),
            Err(NotReady::NoKey {
                provider: "Anthropic"
            })
        );
        // A local server, or any other address, may need none.
        for url in [
            "http://127.0.0.1:11434/v1",
            "https://proxy.example/anthropic",
        ] {
            let mut elsewhere = settings.clone();
            elsewhere.base_url = url.into();
            let keyless = Facts {
                settings: &elsewhere,
                ..keyless.clone()
            };
            assert_eq!(may_ask(&keyless), Ok(()), "{url}");
        }
    }

    #[test]
    fn a_demos_endpoint_that_cannot_answer_is_said_instead_of_a_missing_key() {
        let unchosen = ModelSettings::default();
        let down = Facts {
            key: "",
            demo_endpoint: Some("This demo's endpoint could not be reached (HTTP 502)."),
            ..facts(Asking::Question("How many?"), &unchosen)
        };
        let why = may_ask(&down).unwrap_err();
        assert_eq!(
            why,
            NotReady::DemoEndpoint("This demo's endpoint could not be reached (HTTP 502).".into())
        );
        assert_eq!(why.field(), None, "no Settings field is opened for it");
        // A replay needs no endpoint.
        let replay = Facts {
            asking: Asking::Replay,
            ..down
        };
        assert_eq!(may_ask(&replay), Ok(()));
    }

    #[test]
    fn a_missing_model_or_key_names_the_field_to_fill_in() {
        assert_eq!(NotReady::NoModel.field(), Some(MissingField::Model));
        let no_key = NotReady::NoKey {
            provider: "Anthropic",
        };
        assert_eq!(no_key.field(), Some(MissingField::ApiKey));
        assert_eq!(NotReady::NoDatabase.field(), None);
    }
}
