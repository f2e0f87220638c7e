//! What is hidden from the model and what it sees, as the page's state holds it: plain data,
//! apart from the work of hiding (`super`), so that the state can hold it without a circle.

use crate::engine::hidden::{Hidden, Unresolved};
use crate::engine::Schema;
use crate::settings::readiness::ModelViewReadiness;

/// What the model sees of the open database.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ModelViewState {
    /// No database is open.
    #[default]
    Closed,
    /// Nothing is hidden: the model uses the database the console uses.
    Whole(Schema),
    /// The copy without the hidden things is being made.
    Preparing,
    /// The copy is open in its own engine; this is its schema.
    Copy(Schema),
    /// Only the knowledge tables are left out, of a database that is fenced, not copied (a
    /// Datasette server's): the model reads it through the fence; this is what it is shown.
    Fenced(Schema),
    /// The copy could not be made, for this reason.
    Failed(String),
    /// Something must be left out and this database cannot do it (`model_view`), for this
    /// reason: the model is not asked.
    Refused(String),
}

impl ModelViewState {
    /// The schema the model is given, when it may be asked.
    pub fn schema(&self) -> Option<&Schema> {
        match self {
            ModelViewState::Whole(schema)
            | ModelViewState::Copy(schema)
            | ModelViewState::Fenced(schema) => Some(schema),
            _ => None,
        }
    }

    /// Whether the model's queries can run, for [`crate::settings::readiness`] (which says
    /// what to tell the person). Closed counts as not ready: nothing is open to run them on.
    pub fn readiness(&self) -> ModelViewReadiness {
        match self {
            ModelViewState::Whole(_) | ModelViewState::Copy(_) | ModelViewState::Fenced(_) => {
                ModelViewReadiness::Ready
            }
            ModelViewState::Closed | ModelViewState::Preparing => ModelViewReadiness::Preparing,
            ModelViewState::Failed(why) => ModelViewReadiness::Failed(why.clone()),
            ModelViewState::Refused(why) => ModelViewReadiness::Refused(why.clone()),
        }
    }
}

/// What is hidden from the model, and what the model sees.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hiding {
    pub hidden: Hidden,
    pub model_view: ModelViewState,
    /// Names from the address that this database cannot hide, each with the reason.
    pub unresolved: Vec<Unresolved>,
    /// Why the choice is not kept for next time, if it is not.
    pub not_kept: Option<String>,
    /// The key the open database's choice is kept under (`engine::identity`), once known.
    pub(super) key: Option<String>,
}

impl Hiding {
    /// Whether the model does not see `table` although the person did not hide it: a view that
    /// reads something hidden or askdb's notes, left out of the model's copy or fenced off.
    pub fn leaves_out(&self, table: &str) -> bool {
        !self.hidden.hides_table(table)
            && self
                .model_view
                .schema()
                .is_some_and(|seen| !seen.tables.iter().any(|t| t.name == table))
    }
}
