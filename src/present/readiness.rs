//! Why the model cannot be asked now (`settings::readiness::NotReady`), as a person reads it:
//! what to do first.

use crate::settings::readiness::NotReady;

/// What the person reads, and what to do.
pub fn not_ready(reason: &NotReady) -> String {
    match reason {
        NotReady::NoQuestion => "Type a question first.".into(),
        NotReady::NoDatabase => "Open a database first (or try the demo).".into(),
        NotReady::NoGoldenQuestions => "This database has no golden questions.".into(),
        NotReady::ModelViewPreparing => "The copy of the database without what is hidden is \
                                         still being made: ask again in a moment."
            .into(),
        NotReady::ModelViewFailed(why) => format!(
            "The model cannot be asked: the copy without what is hidden could not be made \
             ({why}). Show the hidden items again, or open the database again."
        ),
        NotReady::ModelViewRefused(why) => {
            format!("The model cannot be asked on this database: {why}.")
        }
        NotReady::DemoEndpoint(why) => why.clone(),
        NotReady::NoModel => {
            "Choose a model first: open Settings and enter the model's name.".into()
        }
        NotReady::NoKey { provider } => format!(
            "Enter your API key first: {provider} answers nothing without one (Settings, API \
             key)."
        ),
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
