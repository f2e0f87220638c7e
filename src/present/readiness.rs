//! Why the model cannot be asked now (`settings::readiness::NotReady`), as a person reads it:
//! what to do first.

use crate::settings::readiness::NotReady;
use crate::tr;

/// What the person reads, and what to do.
pub fn not_ready(reason: &NotReady) -> String {
    match reason {
        NotReady::NoQuestion => tr!("open-ready-no-question"),
        NotReady::NoDatabase => tr!("open-ready-no-database"),
        NotReady::NoGoldenQuestions => tr!("open-ready-no-golden-questions"),
        NotReady::ModelViewPreparing => tr!("open-ready-model-view-preparing"),
        NotReady::ModelViewFailed(why) => tr!("open-ready-model-view-failed", why = why),
        NotReady::ModelViewRefused(why) => tr!("open-ready-model-view-refused", why = why),
        NotReady::DemoEndpoint(why) => why.clone(),
        NotReady::NoModel => tr!("open-ready-no-model"),
        NotReady::NoKey { provider } => tr!("open-ready-no-key", provider = *provider),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mutation: the reason left out of a failed or refused copy's sentence (`({why})` or
    /// `{why}` dropped), or a demo endpoint's own sentence replaced.
    #[test]
    fn each_reason_says_what_to_do_with_its_why() {
        assert_eq!(
            not_ready(&NotReady::ModelViewFailed("out of memory".into())),
            "The model cannot be asked: the copy without what is hidden could not be made (out \
             of memory). Show the hidden items again, or open the database again."
        );
        assert_eq!(
            not_ready(&NotReady::ModelViewRefused("it is read on demand".into())),
            "The model cannot be asked on this database: it is read on demand."
        );
        let down = "This demo's endpoint could not be reached (HTTP 502).";
        assert_eq!(not_ready(&NotReady::DemoEndpoint(down.into())), down);
        assert!(not_ready(&NotReady::NoModel).starts_with("Choose a model first"));
        assert_eq!(
            not_ready(&NotReady::NoKey {
                provider: "Anthropic"
            }),
            "Enter your API key first: Anthropic answers nothing without one (Settings, API key)."
        );
    }
}
