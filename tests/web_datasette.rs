//! A database on a Datasette server opened as the page opens it (`PageDatabase::open_datasette`,
//! over `fetch`) in a real browser, against the pinned Datasette.
//!
//! Needs, as `scripts/test.sh` starts them: the built page served on 127.0.0.1 (see
//! `web_worker.rs`'s header), and two Datasette servers (`tests/datasette/serve.sh`), one with
//! `--cors` and one without, their addresses on the two lines of `tests/datasette-url.txt`.
#![cfg(target_arch = "wasm32")]

use askdb::engine::datasette::DatasetteProblem;
use askdb::engine::identity::Identity;
use askdb::engine::kind::DatabaseKind;
use askdb::engine::page::PageDatabase;
use askdb::engine::{query, query_bound, DbError, QueryLimits, RowCount, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The addresses of the server with `--cors` and of the one without.
async fn servers() -> (String, String) {
    let response = gloo_net::http::Request::get("/tests/datasette-url.txt")
        .send()
        .await
        .expect("tests/datasette-url.txt could not be read");
    assert!(
        response.ok(),
        "tests/datasette-url.txt answered {}: start the Datasette servers first (see this \
         file's header)",
        response.status()
    );
    let text = response.text().await.expect("the addresses as text");
    let mut lines = text
        .lines()
        .map(|l| l.trim().trim_end_matches('/').to_string());
    (
        lines.next().expect("the server with --cors"),
        lines.next().expect("the server without --cors"),
    )
}

fn limits() -> QueryLimits {
    QueryLimits {
        max_rows: 1_000,
        deadline_ms: 10_000,
    }
}

#[wasm_bindgen_test]
async fn a_datasette_database_opens_and_answers_like_a_file() {
    let (cors, _) = servers().await;
    let db = PageDatabase::open_datasette(&format!("{cors}/chinook"), None)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(db.kind(), DatabaseKind::Datasette);
    assert_eq!(db.size(), 1_007_616);
    let Ok(Identity::Datasette(identity)) = db.identity().await else {
        panic!("a Datasette identity");
    };
    assert_eq!(identity.address, format!("{cors}/chinook"));
    let counted = query(&db, "SELECT count(*) FROM Track", &limits())
        .await
        .unwrap();
    assert_eq!(counted.rows, vec![vec![Value::Integer(3_503)]]);
    let bound = query_bound(
        &db,
        "SELECT Name FROM Track WHERE TrackId = ?1 AND Name <> ?2",
        &[Value::Integer(1), Value::Text("x".into())],
        &limits(),
    )
    .await
    .unwrap();
    assert_eq!(
        bound.rows,
        vec![vec![Value::Text(
            "For Those About To Rock (We Salute You)".into()
        )]]
    );
    let capped = query(&db, "SELECT TrackId FROM Track", &limits())
        .await
        .unwrap();
    assert!(capped.truncated);
    assert_eq!(
        capped.total_rows,
        RowCount::MoreThan(capped.rows.len() as u64)
    );
    // The guard refuses a write in the page.
    let write = query(&db, "DELETE FROM Track", &limits())
        .await
        .unwrap_err();
    assert!(matches!(write, DbError::Refused(_)), "{write:?}");
    // Immutable: the same database as the file read whole, by its SHA-256.
    let shop = PageDatabase::open_datasette(&format!("{cors}/shop"), None)
        .await
        .unwrap();
    let Ok(Identity::Datasette(shop)) = shop.identity().await else {
        panic!("a Datasette identity");
    };
    assert_eq!(
        shop.sha256.as_deref(),
        Some("af99f629536575eae0ee868b5b50a01379ebfbc789a385b28afa16c433bec209")
    );
}

/// The page tells a server without `--cors` from one that is not there by a request whose
/// answer it may not read (for the server's stylesheet); this test runner's page is
/// cross-origin isolated (`Cross-Origin-Embedder-Policy: require-corp`), which blocks that
/// request too, so here it can only see that nothing readable came, and the message names
/// `--cors` all the same.
#[wasm_bindgen_test]
async fn a_server_without_cors_is_not_read_and_the_message_names_cors() {
    let (_, no_cors) = servers().await;
    let error = PageDatabase::open_datasette(&format!("{no_cors}/chinook"), None)
        .await
        .err()
        .expect("the page may not read its answers");
    assert!(
        matches!(
            error,
            DbError::Datasette(DatasetteProblem::Unreachable { .. })
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("--cors"), "{error}");
}

#[wasm_bindgen_test]
async fn a_wrong_address_or_sql_turned_off_says_what_to_do() {
    let (cors, _) = servers().await;
    let open = |address: String| async move {
        PageDatabase::open_datasette(&address, None)
            .await
            .err()
            .expect("not opened")
    };
    let missing = open(format!("{cors}/nope")).await;
    assert!(
        missing.to_string().contains("has no database nope"),
        "{missing}"
    );
    let nosql = open(format!("{cors}/nosql")).await;
    assert!(nosql.to_string().contains("allow_sql"), "{nosql}");
    let not_an_address = open("127.0.0.1/shop".into()).await;
    assert!(
        not_an_address.to_string().contains("https://host/dbname"),
        "{not_an_address}"
    );
    // Nothing listens there: not reachable, and not taken for a CORS problem.
    let nowhere = open("http://127.0.0.1:9/shop".into()).await;
    assert!(
        matches!(
            nowhere,
            DbError::Datasette(DatasetteProblem::Unreachable { cors: false, .. })
        ),
        "{nowhere:?}"
    );
}
