//! What hiding says to people: why a database cannot be copied for the model, and why the
//! model cannot be asked when something must be hidden from such a database. The core's types
//! carry the facts (`engine::kind::NoCopy`, `model_view::Refusal`); the sentences are here.

use crate::engine::kind::NoCopy;
use crate::model_view::Refusal;

/// Why a database of this kind is not copied, ending without a full stop.
pub fn no_copy(why: NoCopy) -> String {
    match why {
        NoCopy::ReadOnDemand { from_bytes } => format!(
            "this file is read on demand (files of {} MiB and more are), not copied into memory, \
             and hiding works by a copy without what is hidden",
            from_bytes / (1024 * 1024)
        ),
        NoCopy::ReadFromServer => "this database is read on demand from its server, not copied \
             into memory, and hiding works by a copy without what is hidden"
            .into(),
        NoCopy::OnServer => "the model's queries run on the Datasette server, on the whole \
             database, and this page cannot take tables or columns away from a server: serve a \
             copy without them (drop them from a copy of the file with sqlite-utils or the \
             sqlite3 shell) and open that instead"
            .into(),
    }
}

/// Why the model is not asked: "this file is read on demand …; customers.email must be hidden
/// from the model".
pub fn refusal(refusal: &Refusal) -> String {
    format!(
        "{}; {} must be hidden from the model",
        no_copy(refusal.no_copy),
        refusal.hidden.join(", ")
    )
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
}
