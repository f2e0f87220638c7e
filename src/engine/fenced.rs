//! [`Fenced`]: any [`Database`] behind a fence of names, the one way a database that cannot be
//! copied keeps the model from askdb's knowledge tables (`crate::model_view::knowledge_fence`
//! draws the fence). A query that names a fenced name fails with [`DbError::Fenced`] before it
//! reaches the database (nothing is run or sent); everything else (its reads, its question's
//! budget, its identity) is the database's own, through [`Fenced::database`].
//!
//! The page wraps the database the model reads in one whatever it is (an empty fence lets
//! everything through: a copy already lacks what it must), and `askdb-eval` wraps a server's.

use super::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, Value};
use crate::sql::fence::NameFence;

/// `D` behind `fence`.
pub struct Fenced<D> {
    database: D,
    fence: NameFence,
}

impl<D: Database> Fenced<D> {
    /// `database`, whose queries may not name anything `fence` holds.
    pub fn new(database: D, fence: NameFence) -> Fenced<D> {
        Fenced { database, fence }
    }

    /// `database` with nothing fenced off (a copy made without what the model must not read,
    /// or a database with nothing to keep from it).
    pub fn open(database: D) -> Fenced<D> {
        Fenced::new(database, NameFence::default())
    }

    /// The database behind the fence, for what is not a query (its reads, its budget, its
    /// identity). A query run on it directly is not fenced.
    pub fn database(&self) -> &D {
        &self.database
    }

    /// True when something is fenced off.
    pub fn is_fenced(&self) -> bool {
        self.fence.names().next().is_some()
    }
}

impl<D: Database> Database for Fenced<D> {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        keep_out(&self.fence, sql)?;
        self.database.run(sql, values, limits).await
    }
}

/// Refuses a statement that names anything `fence` holds ([`DbError::Fenced`]).
fn keep_out(fence: &NameFence, sql: &ReadOnlySql) -> Result<(), DbError> {
    match fence.named_in(sql.as_str()) {
        Ok(None) => Ok(()),
        Ok(Some(name)) => Err(DbError::Fenced(name)),
        // Unreachable for text the guard accepted; refused all the same.
        Err(why) => Err(DbError::Fenced(format!(
            "a text the fence could not read ({why})"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{query, RowCount};
    use futures::executor::block_on;
    use std::cell::Cell;

    /// Counts the queries that reach it.
    #[derive(Default)]
    struct Counting(Cell<usize>);

    impl Database for Counting {
        async fn run(
            &self,
            _: &ReadOnlySql,
            _: &[Value],
            _: &QueryLimits,
        ) -> Result<QueryResult, DbError> {
            self.0.set(self.0.get() + 1);
            Ok(QueryResult {
                columns: vec![],
                rows: vec![],
                truncated: false,
                total_rows: RowCount::Exact(0),
                elapsed_ms: 0.0,
                reads: None,
            })
        }
    }

    // Mutation: `keep_out` returning Ok(()) lets the fenced queries through, and the count
    // becomes 3.
    #[test]
    fn a_fenced_name_never_reaches_the_database_and_the_rest_does() {
        let fenced = Fenced::new(Counting::default(), NameFence::new(["askdb_notes"]));
        let limits = QueryLimits::default();
        for sql in [
            "SELECT * FROM askdb_notes",
            "SELECT * FROM main.\"ASKDB_NOTES\"",
            "WITH n AS (SELECT * FROM [askdb_notes]) SELECT 1 FROM n",
        ] {
            let refused = block_on(query(&fenced, sql, &limits));
            assert!(matches!(refused, Err(DbError::Fenced(_))), "{sql}");
        }
        assert_eq!(fenced.database().0.get(), 0);
        block_on(query(&fenced, "SELECT * FROM customers", &limits)).expect("not fenced");
        assert_eq!(fenced.database().0.get(), 1, "the control reached it");
        assert!(fenced.is_fenced());
        assert!(!Fenced::open(Counting::default()).is_fenced());
    }
}
