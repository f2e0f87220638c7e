//! [`DatasetteDatabase`]: a database on a Datasette server behind the [`Database`] trait, over
//! a [`Transport`] that makes one GET (ureq natively, `fetch` in the page).
//!
//! Only a [`ReadOnlySql`] reaches [`Database::run`], so the guard has accepted every statement
//! before its request is built: a write never leaves. A redirect is followed once, and only on
//! the same server (Datasette 1.0's alphas send `/<db>.json?sql=` on to their query endpoint),
//! so a token goes nowhere else. The model's database on a server is this one behind a fence of
//! names (`engine::fenced`), which keeps it from askdb's knowledge tables.

use super::address::origin_of;
use super::identity::{read_databases, DatasetteIdentity};
use super::transport::{Transport, WebAnswer};
use super::{answer, request, DatasetteAddress, DatasetteProblem};
use crate::engine::{Database, DbError, QueryLimits, QueryResult, ReadOnlySql, ReadStats, Value};
use std::cell::Cell;

/// The server's own time limit ends a query; the transport waits this much longer for its
/// answer before it gives up.
const GRACE_MS: u32 = 5_000;

/// Reading the list of databases is quick; this bounds it.
const IDENTIFY_TIMEOUT_MS: u32 = 15_000;

/// A database on a Datasette server.
pub struct DatasetteDatabase<T> {
    address: DatasetteAddress,
    /// Sent only to this server (`Authorization: Bearer`), never in an address.
    token: Option<String>,
    transport: T,
    /// Every request made since it was created: how many, the bytes of their answers, and how
    /// long they were waited for.
    sent: Cell<ReadStats>,
}

impl<T: Transport> DatasetteDatabase<T> {
    pub fn new(address: DatasetteAddress, token: Option<String>, transport: T) -> Self {
        DatasetteDatabase {
            address,
            token,
            transport,
            sent: Cell::new(ReadStats {
                waited_ms: Some(0),
                ..ReadStats::default()
            }),
        }
    }

    /// Every request made to the server since it was created (identifying it included).
    pub fn total_requests(&self) -> ReadStats {
        self.sent.get()
    }

    pub fn address(&self) -> &DatasetteAddress {
        &self.address
    }

    /// What tells this database from another: its address and what the server reports of its
    /// file (`/-/databases.json`: size, and the SHA-256 of an immutable one).
    ///
    /// The list is asked for without the token first: a public server gives it to anyone, and a
    /// browser cannot send a token there (Datasette's `/-/` pages refuse the CORS preflight an
    /// `Authorization` header needs, with 405). Only a server that refuses it is asked again
    /// with the token.
    pub async fn identify(&self) -> Result<DatasetteIdentity, DbError> {
        let url = self.address.databases_url();
        let mut answer = self
            .get_following(url.clone(), None, IDENTIFY_TIMEOUT_MS)
            .await?;
        if matches!(answer.status, 401 | 403) && self.token.is_some() {
            answer = self
                .get_following(url, self.token.as_deref(), IDENTIFY_TIMEOUT_MS)
                .await?;
        }
        if matches!(answer.status, 401 | 403) {
            return Err(DbError::Datasette(DatasetteProblem::SqlNotAllowed {
                database: self.address.database.clone(),
                status: answer.status,
            }));
        }
        read_databases(&answer.body, &self.address).map_err(DbError::Datasette)
    }

    /// GETs `url` (with `token`, this server's, if given), following one redirect on the same
    /// server.
    async fn get_following(
        &self,
        url: String,
        token: Option<&str>,
        timeout_ms: u32,
    ) -> Result<WebAnswer, DbError> {
        let mut url = url;
        for _ in 0..2 {
            let answer = self
                .transport
                .get(&url, token, timeout_ms)
                .await
                .inspect(|answer| self.count(answer))
                .map_err(|failure| {
                    DbError::Datasette(DatasetteProblem::Unreachable {
                        server: self.address.server.clone(),
                        why: failure.why,
                        cors: failure.cors,
                    })
                })?;
            if !(300..400).contains(&answer.status) {
                return Ok(answer);
            }
            let to = answer.location.clone().unwrap_or_default();
            let next = resolve(&url, &to);
            if to.is_empty() || origin_of(&next) != self.address.origin() || next == url {
                return Err(DbError::Datasette(DatasetteProblem::Redirect { to }));
            }
            url = next;
        }
        Err(DbError::Datasette(DatasetteProblem::Redirect {
            to: "a second redirect".into(),
        }))
    }
}

impl<T> DatasetteDatabase<T> {
    fn count(&self, answer: &WebAnswer) {
        self.sent.set(
            self.sent.get()
                + ReadStats {
                    bytes: answer.body.len() as u64,
                    requests: 1,
                    waited_ms: Some(answer.elapsed_ms.round() as u64),
                },
        );
    }
}

/// `location` (absolute, or a path on the same server) as an absolute address, from `base`.
fn resolve(base: &str, location: &str) -> String {
    if location.contains("://") {
        location.to_string()
    } else if location.starts_with("//") {
        let scheme = base.split("://").next().unwrap_or("https");
        format!("{scheme}:{location}")
    } else if location.starts_with('/') {
        format!("{}{location}", origin_of(base))
    } else {
        // Relative to the current path: Datasette sends absolute paths; anything else is
        // resolved against the folder of `base`.
        let path_end = base.find('?').unwrap_or(base.len());
        let folder = &base[..base[..path_end].rfind('/').map_or(path_end, |i| i + 1)];
        format!("{folder}{location}")
    }
}

impl<T: Transport> Database for DatasetteDatabase<T> {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        let (url, sent) =
            request::query_url(&self.address, sql, values, limits).map_err(DbError::Datasette)?;
        let before = self.sent.get();
        let answer = self
            .get_following(
                url,
                self.token.as_deref(),
                limits.deadline_ms.saturating_add(GRACE_MS),
            )
            .await?;
        let mut result = answer::read_answer(&answer, &sent, &self.address, limits)?;
        result.reads = Some(self.sent.get().since(before));
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::datasette::transport::TransportFailure;
    use futures::executor::block_on;
    use std::cell::RefCell;

    /// Answers every GET with a redirect to `to`, and keeps what it was asked.
    struct Redirecting {
        to: &'static str,
        asked: RefCell<Vec<(String, Option<String>)>>,
    }

    impl Transport for Redirecting {
        async fn get(
            &self,
            url: &str,
            token: Option<&str>,
            _timeout_ms: u32,
        ) -> Result<WebAnswer, TransportFailure> {
            self.asked
                .borrow_mut()
                .push((url.to_string(), token.map(str::to_string)));
            Ok(WebAnswer {
                status: 302,
                content_type: None,
                location: Some(self.to.to_string()),
                body: String::new(),
                elapsed_ms: 0.0,
            })
        }
    }

    fn asked_after_redirect_to(to: &'static str) -> (DbError, Vec<(String, Option<String>)>) {
        let db = DatasetteDatabase::new(
            DatasetteAddress::parse("http://127.0.0.1:8001/shop").unwrap(),
            Some("secret".into()),
            Redirecting {
                to,
                asked: RefCell::new(Vec::new()),
            },
        );
        let error = block_on(crate::engine::query(
            &db,
            "SELECT 1",
            &QueryLimits::default(),
        ))
        .unwrap_err();
        (error, db.transport.asked.take())
    }

    #[test]
    fn a_redirect_elsewhere_is_not_followed_and_the_token_stays_with_the_server() {
        for elsewhere in ["https://evil.example/shop/-/query.json", "//evil.example/x"] {
            let (error, asked) = asked_after_redirect_to(elsewhere);
            assert!(
                matches!(error, DbError::Datasette(DatasetteProblem::Redirect { .. })),
                "{error:?}"
            );
            assert_eq!(asked.len(), 1, "{asked:?}");
            assert!(asked[0]
                .0
                .starts_with("http://127.0.0.1:8001/shop.json?sql="));
        }
        // On the same server it is followed, once, with the token.
        let (error, asked) = asked_after_redirect_to("/shop/-/query.json?sql=SELECT%201");
        assert!(
            matches!(error, DbError::Datasette(DatasetteProblem::Redirect { .. })),
            "{error:?}"
        );
        assert_eq!(asked.len(), 2, "{asked:?}");
        assert_eq!(
            asked[1],
            (
                "http://127.0.0.1:8001/shop/-/query.json?sql=SELECT%201".to_string(),
                Some("secret".to_string())
            )
        );
    }

    /// Answers the list of databases (to anyone, or only with a token when `private`), and
    /// keeps what it was asked.
    struct Listing {
        private: bool,
        asked: RefCell<Vec<(String, Option<String>)>>,
    }

    impl Transport for Listing {
        async fn get(
            &self,
            url: &str,
            token: Option<&str>,
            _timeout_ms: u32,
        ) -> Result<WebAnswer, TransportFailure> {
            self.asked
                .borrow_mut()
                .push((url.to_string(), token.map(str::to_string)));
            let refused = self.private && token.is_none();
            Ok(WebAnswer {
                status: if refused { 403 } else { 200 },
                content_type: Some("application/json".into()),
                location: None,
                body: if refused {
                    String::new()
                } else {
                    r#"[{"name": "shop", "route": "shop", "size": 8192, "hash": null}]"#.into()
                },
                elapsed_ms: 0.0,
            })
        }
    }

    fn identified(private: bool) -> (Result<DatasetteIdentity, DbError>, Vec<Option<String>>) {
        let db = DatasetteDatabase::new(
            DatasetteAddress::parse("http://127.0.0.1:8001/shop").unwrap(),
            Some("secret".into()),
            Listing {
                private,
                asked: RefCell::new(Vec::new()),
            },
        );
        let identity = block_on(db.identify());
        let tokens = db.transport.asked.take().into_iter().map(|a| a.1).collect();
        (identity, tokens)
    }

    #[test]
    fn the_list_of_databases_is_asked_for_without_the_token_unless_the_server_wants_it() {
        // A public server: the token is not sent where a browser could not send it.
        let (identity, tokens) = identified(false);
        assert_eq!(identity.unwrap().size, 8192);
        assert_eq!(tokens, vec![None]);
        // A private one: asked again, with it.
        let (identity, tokens) = identified(true);
        assert_eq!(identity.unwrap().size, 8192);
        assert_eq!(tokens, vec![None, Some("secret".to_string())]);
    }

    #[test]
    fn redirects_resolve_against_the_server() {
        let base = "http://127.0.0.1:8001/shop.json?sql=select+1";
        assert_eq!(
            resolve(base, "/shop/-/query.json?sql=select+1"),
            "http://127.0.0.1:8001/shop/-/query.json?sql=select+1"
        );
        assert_eq!(
            resolve(base, "https://elsewhere.example/x"),
            "https://elsewhere.example/x"
        );
        assert_eq!(resolve(base, "//evil.example/x"), "http://evil.example/x");
        assert_eq!(
            resolve("http://h/a/shop.json?sql=/x", "query.json"),
            "http://h/a/query.json"
        );
    }
}
