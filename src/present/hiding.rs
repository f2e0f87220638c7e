//! What hiding says to people: why a database cannot be copied for the model, why the model
//! cannot be asked when something must be hidden from such a database, and why a name given
//! in the address is not hidden. The core's types carry the facts (`engine::kind::NoCopy`,
//! `model_view::Refusal`, `engine::hidden::Unresolved`); the sentences are here, in the page's
//! language (English natively).

use crate::engine::hidden::{Unresolved, UnresolvedReason};
use crate::engine::kind::NoCopy;
use crate::model_view::Refusal;
use crate::tr;

/// Why a database of this kind is not copied, ending without a full stop.
pub fn no_copy(why: NoCopy) -> String {
    match why {
        NoCopy::ReadOnDemand { from_bytes } => {
            tr!("hide-no-copy-on-demand", mib = from_bytes / (1024 * 1024))
        }
        NoCopy::ReadFromServer => tr!("hide-no-copy-from-server"),
        NoCopy::OnServer => tr!("hide-no-copy-on-server"),
    }
}

/// Why the model is not asked: "this file is read on demand …; customers.email must be hidden
/// from the model".
pub fn refusal(refusal: &Refusal) -> String {
    tr!(
        "hide-refusal",
        why = no_copy(refusal.no_copy),
        hidden = refusal.hidden.join(", ")
    )
}

/// Why a name the address asked to hide is not hidden: "nosuch: this database has no such
/// table or column". `Unresolved`'s `Display` says the same for the native tools.
pub fn unresolved(unresolved: &Unresolved) -> String {
    let name = unresolved.name.as_str();
    match unresolved.reason {
        UnresolvedReason::NotFound => tr!("hide-unresolved-not-found", name = name),
        UnresolvedReason::ViewColumn => tr!("hide-unresolved-view-column", name = name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reason_says_what_cannot_be_done_and_the_server_one_what_to_do_instead() {
        let on_demand = no_copy(NoCopy::ReadOnDemand {
            from_bytes: 512 * 1024 * 1024,
        });
        assert!(
            on_demand.contains("files of 512 MiB and more"),
            "{on_demand}"
        );
        assert!(no_copy(NoCopy::ReadFromServer).contains("on demand from its server"));
        assert!(no_copy(NoCopy::OnServer).contains("serve a copy without them"));
        let said = refusal(&Refusal {
            no_copy: NoCopy::ReadFromServer,
            hidden: vec!["customers.email".into(), "payments".into()],
        });
        assert!(
            said.ends_with("; customers.email, payments must be hidden from the model"),
            "{said}"
        );
    }

    /// The page says in English what the native tools say (`Unresolved`'s `Display`).
    /// Mutation: a word changed in `hide-unresolved-view-column` in en.ftl fails it.
    #[test]
    fn a_name_not_hidden_is_said_as_the_native_tools_say_it() {
        for reason in [UnresolvedReason::NotFound, UnresolvedReason::ViewColumn] {
            let name_not_hidden = Unresolved {
                name: "mailing.email".into(),
                reason,
            };
            assert_eq!(
                unresolved(&name_not_hidden),
                name_not_hidden.to_string(),
                "{reason:?}"
            );
        }
    }
}
