//! A database's errors as a person reads them. `DbError`'s `Display` is what the model is told
//! (and what logs say): what to change in the query. A person is told what happened and what
//! they can do in the page, which is sometimes something else (a setting, the console).

use crate::engine::stopped::AfterStop;
use crate::engine::DbError;
use crate::text::format_bytes;

/// `error` for the person who ran the query or opened the database.
pub fn for_person(error: &DbError) -> String {
    match error {
        DbError::Timeout { .. } => format!(
            "{error}: the query ran past its deadline. The database was reopened and is ready; \
             raise the deadline to give a query longer."
        ),
        DbError::ByteBudget {
            limit_bytes,
            read_bytes,
        } => format!(
            "stopped: this query would read more from the database's server than the read \
             budget of {} allows ({} read against it so far). Raise the budget (Settings: read \
             budget per question), or ask for less: a filter on an indexed column reads a few \
             pages, a whole-table count or sort reads them all",
            format_bytes(*limit_bytes),
            format_bytes(*read_bytes)
        ),
        DbError::Fenced(name) => format!(
            "{name} holds askdb's notes about the data (or reads them): the model may not read \
             it on this database; the console may"
        ),
        other => other.to_string(),
    }
}

/// What stopping a query left of the database, for the person who stopped it.
pub fn after_stop(after: AfterStop) -> String {
    match after {
        AfterStop::Ready => "The database is ready for the next one.".into(),
        AfterStop::Reopens { cache_bytes } => format!(
            "This database is read on demand: its worker was stopped, and the next query opens \
             the file again (a few pages) with its page cache (up to {}) empty, so it may read \
             more of the file than it would have.",
            format_bytes(cache_bytes)
        ),
        AfterStop::LeftToServer => "The query was left to the Datasette server, whose own time \
                                    limit ends it; the page asks nothing more of it."
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Mutation: `for_person` returning `error.to_string()` for every error fails each line.
    #[test]
    fn a_person_is_told_what_they_can_do_where_the_model_is_told_what_to_query() {
        let budget = DbError::ByteBudget {
            limit_bytes: 10_000_000,
            read_bytes: 9_500_000,
        };
        assert!(for_person(&budget).contains("Raise the budget (Settings"));
        assert!(!budget.to_string().contains("Settings"), "{budget}");
        let fenced = DbError::Fenced("askdb_notes".into());
        assert!(for_person(&fenced).ends_with("the console may"));
        assert!(fenced.to_string().contains("Query the data's own tables"));
        let timeout = DbError::Timeout { after_ms: 10_000 };
        assert!(for_person(&timeout).contains("raise the deadline"));
        // The rest read the same for both.
        let sqlite = DbError::Sqlite("no such table: x".into());
        assert_eq!(for_person(&sqlite), sqlite.to_string());
    }

    /// Mutation: the page cache's size left out of what a stop costs a database read on
    /// demand (`(up to {})` dropped).
    #[test]
    fn a_stop_says_what_it_cost_each_kind_of_database() {
        assert_eq!(
            after_stop(AfterStop::Ready),
            "The database is ready for the next one."
        );
        assert_eq!(
            after_stop(AfterStop::Reopens {
                cache_bytes: 64 * 1024 * 1024
            }),
            "This database is read on demand: its worker was stopped, and the next query opens \
             the file again (a few pages) with its page cache (up to 67 MB) empty, so it may \
             read more of the file than it would have."
        );
        assert!(after_stop(AfterStop::LeftToServer).starts_with("The query was left to the"));
    }
}
