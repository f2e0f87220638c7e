//! askdb's Datasette client (`engine::datasette`) against the pinned Datasette itself
//! (`tests/datasette/serve.sh`): every answer it reads here is the real server's, and the same
//! query on the same file through rusqlite is the judge of what it should read.
#![cfg(not(target_arch = "wasm32"))] // rusqlite and the server, through tests/support

mod support;

use askdb::engine::datasette::native::NativeTransport;
use askdb::engine::datasette::{DatasetteAddress, DatasetteDatabase, DatasetteProblem};
use askdb::engine::hidden::Hidden;
use askdb::engine::identity::{same_database, Identity, Sameness};
use askdb::engine::kind::DatabaseKind;
use askdb::engine::{query, query_bound, schema, DbError, QueryLimits, RowCount, Value};
use askdb::knowledge::tables;
use askdb::model_view::{plan, without_fenced, Enforcement, ModelView};
use futures::executor::block_on;
use sha2::{Digest, Sha256};
use support::datasette::DatasetteServer;
use support::{dataset, RusqliteDb};

fn served(server: &DatasetteServer, database: &str) -> DatasetteDatabase<NativeTransport> {
    let address = DatasetteAddress::parse(&server.database(database)).unwrap();
    DatasetteDatabase::new(address, None, NativeTransport)
}

fn limits(max_rows: usize, deadline_ms: u32) -> QueryLimits {
    QueryLimits {
        max_rows,
        deadline_ms,
    }
}

/// Queries whose answers cover every type Datasette sends, duplicate names, no rows.
const SAME_AS_THE_FILE: &[(&str, &str)] = &[
    (
        "chinook",
        "SELECT TrackId, Name, Milliseconds / 60000.0 AS minutes, Composer, UnitPrice \
         FROM Track WHERE TrackId IN (1, 2, 3, 63) ORDER BY TrackId",
    ),
    (
        "chinook",
        "SELECT g.Name, count(*) AS n, round(avg(t.UnitPrice), 4) AS price FROM Track t \
         JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name ORDER BY n DESC LIMIT 5",
    ),
    (
        "shop",
        "SELECT id, name, prefecture, joined_at FROM customers ORDER BY id",
    ),
    (
        "shop",
        "SELECT 1 AS a, 2 AS a, NULL AS empty, x'00ff10' AS bytes, 9007199254740993 AS big, \
         -0.5 AS half, 2.0 AS two, '東京 \"q\" \\ 😀' AS text",
    ),
    ("shop", "SELECT id, name FROM customers WHERE id < 0"),
];

/// Each of [`SAME_AS_THE_FILE`] gives through `server` what it gives on the file.
fn assert_same_as_the_file(server: &DatasetteServer) {
    for (database, sql) in SAME_AS_THE_FILE {
        let file = match *database {
            "chinook" => RusqliteDb::open(&dataset("chinook/Chinook_Sqlite.sqlite")),
            _ => RusqliteDb::shop(),
        };
        let local = block_on(query(&file, sql, &limits(1_000, 10_000))).unwrap();
        let remote = block_on(query(
            &served(server, database),
            sql,
            &limits(1_000, 10_000),
        ))
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
        assert_eq!(remote.columns, local.columns, "{sql}");
        assert_eq!(remote.rows, local.rows, "{sql}");
        assert_eq!(remote.total_rows, local.total_rows, "{sql}");
        assert!(!remote.truncated, "{sql}");
    }
    // The control: every query above reached the server.
    let requests = server.requests();
    for (_, sql) in SAME_AS_THE_FILE {
        assert!(
            requests.iter().any(|r| r.contains(sql)),
            "{sql} not in {requests:#?}"
        );
    }
}

#[test]
fn answers_read_as_the_same_rows_as_the_file_gives() {
    assert_same_as_the_file(&DatasetteServer::start());
}

#[test]
fn a_datasette_1_alpha_is_followed_to_its_query_endpoint_and_read_the_same_way() {
    let server = DatasetteServer::start_alpha();
    assert_same_as_the_file(&server);
    // Each query went to 0.65's endpoint, and on to 1.0's where the server sent it.
    let requests = server.requests();
    let first = requests
        .iter()
        .position(|r| r.starts_with("/shop.json?sql="));
    let then = requests
        .iter()
        .position(|r| r.starts_with("/shop/-/query.json?sql="));
    assert!(
        matches!((first, then), (Some(a), Some(b)) if a < b),
        "{requests:#?}"
    );
    let remote = served(&server, "chinook");
    let error = block_on(query(
        &remote,
        "SELECT * FROM no_such_table",
        &limits(10, 10_000),
    ))
    .unwrap_err();
    assert_eq!(
        error,
        DbError::Sqlite("no such table: no_such_table".into())
    );
    let runaway = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) \
                   SELECT count(*) FROM c";
    let stopped = block_on(query(&remote, runaway, &limits(10, 300))).unwrap_err();
    assert!(
        matches!(&stopped, DbError::Datasette(DatasetteProblem::TimeLimit { message })
            if message.starts_with("SQL query took too long")),
        "{stopped:?}"
    );
    let capped = block_on(query(
        &remote,
        "SELECT TrackId FROM Track",
        &limits(1_000, 10_000),
    ))
    .unwrap();
    assert!(capped.truncated);
    assert_eq!(
        capped.total_rows,
        RowCount::MoreThan(capped.rows.len() as u64)
    );
    let shop = block_on(served(&server, "shop").identify()).unwrap();
    assert_eq!(shop.size, 16_384);
    assert!(shop.sha256.is_some());
}

#[test]
fn bound_values_are_sent_as_named_parameters_of_their_type() {
    let server = DatasetteServer::start();
    let file = RusqliteDb::open(&dataset("chinook/Chinook_Sqlite.sqlite"));
    let remote = served(&server, "chinook");
    let sql = "SELECT TrackId, Name, ?3 AS label, ?4 AS empty, typeof(?1), typeof(?2) \
               FROM Track WHERE AlbumId = ?1 AND UnitPrice < ?2 AND Name <> ?3 ORDER BY TrackId";
    let values = [
        Value::Integer(1),
        Value::Real(1.5),
        Value::Text("x' OR 1=1 --".into()),
        Value::Null,
    ];
    let local = block_on(query_bound(&file, sql, &values, &limits(100, 10_000))).unwrap();
    let answer = block_on(query_bound(&remote, sql, &values, &limits(100, 10_000))).unwrap();
    assert_eq!(answer.rows, local.rows);
    assert_eq!(answer.rows.len(), 10, "{:?}", answer.rows);
    assert_eq!(answer.rows[0][4], Value::Text("integer".into()));
    assert_eq!(answer.rows[0][5], Value::Text("real".into()));
    // The value travelled beside the text, never in it.
    let requests = server.wait_for_request("askdb_p3=x' OR 1=1 --");
    let sent = requests.iter().find(|r| r.contains("askdb_p3=")).unwrap();
    assert!(sent.contains("Name <> :askdb_p3"), "{sent}");
}

#[test]
fn the_servers_row_cap_is_more_than_n_rows_never_a_silent_cut() {
    let server = DatasetteServer::start();
    let remote = served(&server, "chinook");
    // The server cuts its answers (serve.sh: max_returned_rows 100, which Datasette 0.65 makes
    // 101 when it equals its page size) and says it did: as many rows as it sent, "more than".
    let capped = block_on(query(
        &remote,
        "SELECT TrackId FROM Track ORDER BY TrackId",
        &limits(1_000, 10_000),
    ))
    .unwrap();
    assert_eq!(capped.rows.len(), 101);
    assert!(capped.truncated);
    assert_eq!(capped.total_rows, RowCount::MoreThan(101));
    assert_eq!(capped.total_rows.to_string(), "more than 101");
    // Exactly as many rows as it sends at most, and no more: not cut, counted exactly.
    let all = block_on(query(
        &remote,
        "SELECT TrackId FROM Track ORDER BY TrackId LIMIT 101",
        &limits(1_000, 10_000),
    ))
    .unwrap();
    assert_eq!(all.rows.len(), 101);
    assert!(!all.truncated);
    assert_eq!(all.total_rows, RowCount::Exact(101));
    // Under the server's cap, the page's own: cut, and counted exactly.
    let cut = block_on(query(
        &remote,
        "SELECT TrackId FROM Track ORDER BY TrackId LIMIT 50",
        &limits(10, 10_000),
    ))
    .unwrap();
    assert_eq!(cut.rows.len(), 10);
    assert!(cut.truncated);
    assert_eq!(cut.total_rows, RowCount::Exact(50));
    // And nothing said when nothing was cut.
    let whole = block_on(query(&remote, "SELECT 1", &limits(10, 10_000))).unwrap();
    assert!(!whole.truncated);
    assert_eq!(whole.total_rows, RowCount::Exact(1));
}

#[test]
fn a_runaway_query_is_stopped_by_the_server_with_its_message_and_the_deadline_is_sent() {
    let server = DatasetteServer::start();
    let remote = served(&server, "chinook");
    let runaway = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) \
                   SELECT count(*) FROM c";
    let error = block_on(query(&remote, runaway, &limits(10, 300))).unwrap_err();
    let DbError::Datasette(DatasetteProblem::TimeLimit { message }) = &error else {
        panic!("{error:?}");
    };
    assert!(message.starts_with("SQL query took too long."), "{message}");
    assert!(!message.contains('<'), "{message}");
    let shown = error.to_string();
    assert!(
        shown.starts_with("the Datasette server stopped the query at its time limit: SQL query"),
        "{shown}"
    );
    // The page's deadline went with it, as Datasette's _timelimit.
    let requests = server.wait_for_request("WITH RECURSIVE c(x)");
    assert!(
        requests
            .iter()
            .any(|r| r.contains("WITH RECURSIVE c(x)") && r.contains("&_timelimit=300")),
        "{requests:#?}"
    );
}

#[test]
fn a_sql_error_is_sqlites_text_as_from_a_file() {
    let server = DatasetteServer::start();
    let file = RusqliteDb::shop();
    for sql in [
        "SELECT * FROM no_such_table",
        "SELECT no_such_column FROM customers",
    ] {
        let DbError::Sqlite(local) = block_on(query(&file, sql, &limits(10, 10_000))).unwrap_err()
        else {
            panic!("{sql} fails with SQLite's error on the file");
        };
        let remote =
            block_on(query(&served(&server, "shop"), sql, &limits(10, 10_000))).unwrap_err();
        let DbError::Sqlite(remote) = remote else {
            panic!("{sql}: {remote:?}");
        };
        // The server's older SQLite (3.40) says no more than where the statement failed.
        assert!(
            !remote.is_empty() && local.starts_with(&remote),
            "{remote} / {local}"
        );
    }
}

#[test]
fn sql_turned_off_a_wrong_database_or_server_each_say_what_to_do() {
    let server = DatasetteServer::start();
    let select = "SELECT 1";
    let nosql = block_on(query(
        &served(&server, "nosql"),
        select,
        &limits(10, 10_000),
    ))
    .unwrap_err();
    assert!(
        matches!(
            nosql,
            DbError::Datasette(DatasetteProblem::SqlNotAllowed { status: 403, .. })
        ),
        "{nosql:?}"
    );
    assert!(nosql.to_string().contains("allow_sql"), "{nosql}");

    let missing =
        block_on(query(&served(&server, "nope"), select, &limits(10, 10_000))).unwrap_err();
    assert_eq!(
        missing.to_string(),
        format!(
            "the Datasette server at {0} has no database nope: check the last part of the \
             address (its list is at {0}/)",
            server.url
        )
    );

    // The address of a table: its page answers with the table's rows, not the query's.
    let table = DatasetteAddress::parse(&server.database("shop/customers")).unwrap();
    let table = DatasetteDatabase::new(table, None, NativeTransport);
    let wrong = block_on(query(&table, select, &limits(10, 10_000))).unwrap_err();
    assert!(
        wrong.to_string().contains("is it the address of a table"),
        "{wrong}"
    );
    assert!(server
        .wait_for_request("/shop/customers.json?sql=SELECT 1")
        .iter()
        .any(|r| r.starts_with("/shop/customers.json")));

    // Nothing listens on a port just given back.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let address = DatasetteAddress::parse(&format!("http://127.0.0.1:{port}/shop")).unwrap();
    let nowhere = DatasetteDatabase::new(address, None, NativeTransport);
    let unreachable = block_on(query(&nowhere, select, &limits(10, 2_000))).unwrap_err();
    let shown = unreachable.to_string();
    assert!(
        shown.starts_with(&format!(
            "the Datasette server at http://127.0.0.1:{port} could not be reached"
        )) && shown.contains("--cors"),
        "{shown}"
    );
}

#[test]
fn writes_never_reach_the_server_and_its_files_stay_byte_identical() {
    let server = DatasetteServer::start();
    let attempts = [
        "DELETE FROM Track",
        "UPDATE Track SET Name = 'x'",
        "DROP TABLE Track",
        "INSERT INTO Genre VALUES (99, 'x')",
        "SELECT 1; DELETE FROM Track",
        "ATTACH 'other.db' AS other",
        "PRAGMA writable_schema = 1",
        "VACUUM INTO 'copy.db'",
        "WITH x AS (SELECT 1) DELETE FROM Track",
    ];
    let outcomes: Vec<_> = attempts
        .iter()
        .map(|sql| block_on(query(&served(&server, "chinook"), sql, &limits(10, 5_000))))
        .collect();
    // The control: a read sent after them arrives; had any been sent, it came before.
    let marker = "SELECT 'after the writes' AS marker";
    block_on(query(
        &served(&server, "chinook"),
        marker,
        &limits(10, 5_000),
    ))
    .unwrap();
    let requests = server.wait_for_request("after the writes");
    assert_eq!(requests.len(), 1, "only the read reached it: {requests:#?}");
    // Each was refused by the guard, in the page.
    for (sql, outcome) in attempts.iter().zip(outcomes) {
        assert!(
            matches!(outcome, Err(DbError::Refused(_))),
            "{sql}: {outcome:?}"
        );
    }
    for (served_file, original) in [
        ("chinook.db", "chinook/Chinook_Sqlite.sqlite"),
        ("shop.db", "shop/shop.db"),
    ] {
        let now = std::fs::read(server.dir.join(served_file)).unwrap();
        assert!(
            now == std::fs::read(dataset(original)).unwrap(),
            "{served_file} changed"
        );
    }
}

#[test]
fn the_identity_is_the_address_and_what_the_server_reports_of_the_file() {
    let server = DatasetteServer::start();
    let file_sha256 = |path: &str| {
        let digest = Sha256::digest(std::fs::read(dataset(path)).unwrap());
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    // Served immutable: Datasette's hash is the SHA-256 of the file's bytes, so it is the same
    // database as the file read whole.
    let shop = block_on(served(&server, "shop").identify()).unwrap();
    assert_eq!(shop.address, server.database("shop"));
    assert_eq!(shop.size, 16_384);
    assert_eq!(
        shop.sha256.as_deref(),
        Some(file_sha256("shop/shop.db").as_str())
    );
    let file = Identity::Bytes {
        size: 16_384,
        sha256: file_sha256("shop/shop.db"),
    };
    let shop = Identity::Datasette(shop);
    assert_eq!(same_database(&file, &shop), Sameness::Same);
    assert_eq!(file.storage_key(), shop.storage_key());
    // Served mutable: no hash; only the address and the size tell it apart.
    let chinook = block_on(served(&server, "chinook").identify()).unwrap();
    assert_eq!(chinook.sha256, None);
    assert_eq!(chinook.size, 1_007_616);
    let chinook = Identity::Datasette(chinook);
    let chinook_file = Identity::Bytes {
        size: 1_007_616,
        sha256: file_sha256("chinook/Chinook_Sqlite.sqlite"),
    };
    assert_eq!(same_database(&chinook_file, &chinook), Sameness::CannotTell);
    assert_eq!(same_database(&chinook, &chinook), Sameness::Same);
    assert_eq!(same_database(&chinook, &shop), Sameness::CannotTell);
    let nosql = Identity::Datasette(block_on(served(&server, "nosql").identify()).unwrap());
    assert_eq!(same_database(&chinook, &nosql), Sameness::Different);
    assert_ne!(chinook.storage_key(), nosql.storage_key());
    // A database the server does not have.
    let missing = block_on(served(&server, "nope").identify()).unwrap_err();
    assert!(
        missing.to_string().contains("has no database nope"),
        "{missing}"
    );
}

#[test]
fn the_schema_reads_through_the_server_and_hidden_columns_are_refused_with_what_to_do() {
    let server = DatasetteServer::start();
    let remote = served(&server, "chinook");
    let file = RusqliteDb::open(&dataset("chinook/Chinook_Sqlite.sqlite"));
    let from_server = block_on(schema::load_tables(&remote)).unwrap();
    let from_file = block_on(schema::load_tables(&file)).unwrap();
    assert_eq!(from_server, from_file);
    assert!(from_server.table("Track").is_some());

    let names = vec!["Customer.Email".to_string()];
    let (chosen, unresolved) = Hidden::resolve(&from_server, &names);
    assert!(unresolved.is_empty(), "{unresolved:?}");
    let planned = block_on(plan(
        &remote,
        &from_server,
        &chosen,
        &DatabaseKind::Datasette.hiding(),
    ))
    .unwrap();
    let Enforcement::Refused(refusal) = planned.enforcement else {
        panic!("refused, not {:?}", planned.enforcement);
    };
    let why = askdb::present::hiding::refusal(&refusal);
    assert!(why.contains("cannot take tables or columns away"), "{why}");
    assert!(why.contains("serve a copy without them"), "{why}");
    assert!(why.contains("Customer.Email must be hidden"), "{why}");
    // Nothing hidden: the model reads the whole database on the server.
    let whole = block_on(plan(
        &remote,
        &from_server,
        &Hidden::default(),
        &DatabaseKind::Datasette.hiding(),
    ))
    .unwrap();
    assert_eq!(whole.enforcement, Enforcement::Whole);
}

#[test]
fn the_knowledge_tables_on_a_server_reach_the_model_as_notes_and_its_queries_never_read_them() {
    let server = DatasetteServer::start();
    let whole = served(&server, "knowing");
    let schema = block_on(schema::load_tables(&whole)).unwrap();
    let mechanism = DatabaseKind::Datasette.hiding();
    let planned = block_on(plan(&whole, &schema, &Hidden::default(), &mechanism)).unwrap();
    let Enforcement::Fenced { fence } = planned.enforcement else {
        panic!("fenced, not {:?}", planned.enforcement);
    };
    // The tables, the view over one, and the view over that view (from the server's catalogue).
    for name in ["askdb_notes", "askdb_checks", "golden", "Golden Again"] {
        assert!(fence.holds(name), "{name} is not fenced");
    }
    for name in ["customers", "orders", "products", "memo"] {
        assert!(!fence.holds(name), "{name} is fenced");
    }

    // The knowledge is read from the server's tables (the whole database), and goes to the
    // model with a schema that has none of what is fenced.
    let (knowledge, problems) = block_on(tables::load(&whole)).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let view = ModelView::new(
        without_fenced(schema.clone(), &fence),
        knowledge,
        &Hidden::default(),
    );
    let mut names: Vec<&str> = view.schema.tables.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["customers", "memo", "orders", "products"]);
    assert!(view
        .knowledge
        .notes
        .iter()
        .any(|n| n.text.contains("NOTE-K7")));
    assert_eq!(view.knowledge.golden_questions.len(), 1);
    assert!(view.knowledge.golden_questions[0]
        .sql
        .contains("golden_answer_k9"));

    // The model's database refuses every spelling, and what reads the tables, before sending.
    let model = askdb::engine::fenced::Fenced::new(&whole, fence);
    let before = server.requests().len();
    for sql in [
        "SELECT * FROM askdb_checks",
        "select sql from ASKDB_Checks",
        "SELECT * FROM \"askdb_checks\"",
        "SELECT * FROM main.[askdb_checks]",
        "SELECT * FROM 'askdb_checks'",
        "SELECT * FROM `main`.`AskDB_Notes`",
        "SELECT * FROM golden",
        "SELECT sql FROM \"GOLDEN again\"",
        "WITH g AS (SELECT * FROM main.golden) SELECT count(*) FROM g",
        "SELECT * FROM sqlite_stat4",
    ] {
        let outcome = block_on(query(&model, sql, &limits(10, 5_000)));
        assert!(
            matches!(outcome, Err(DbError::Fenced(_))),
            "{sql}: {outcome:?}"
        );
        let message = outcome.unwrap_err().to_string();
        assert!(message.contains("may not read it"), "{message}");
    }
    // The control: an ordinary table is read through the fence, and its request is the only
    // one since the refused ones.
    let read = block_on(query(
        &model,
        "SELECT note AS after_the_fence FROM memo",
        &limits(10, 5_000),
    ))
    .unwrap();
    assert_eq!(read.rows, vec![vec![Value::Text("memo-marker-k5".into())]]);
    let requests = server.wait_for_request("after_the_fence");
    assert_eq!(requests.len(), before + 1, "{:#?}", &requests[before..]);
    // The fenced database is the whole one: its requests are the whole one's.
    assert_eq!(model.database().total_requests(), whole.total_requests());

    // What the person hides is still refused on a server.
    let (chosen, _) = Hidden::resolve(&schema, &["memo".to_string()]);
    let refused = block_on(plan(&whole, &schema, &chosen, &mechanism)).unwrap();
    assert!(matches!(refused.enforcement, Enforcement::Refused(_)));
}
