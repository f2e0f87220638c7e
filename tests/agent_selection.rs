//! Schema selection per question, end to end in the agent: on a database too large to send
//! whole (Sakila, Northwind, Chinook and Mondial merged into one file of 86 tables with
//! prefixes, `tests/support/merge_databases.py`), the first request of each question carries
//! the columns of the tables it needs, and the values it names beside their columns; the system
//! prompt stays the same bytes from question to question; nothing hidden and none of askdb's
//! knowledge tables is ever shown.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::selection::values::{self, Bounds, IndexPlan};
use askdb::agent::{EventKind, SchemaSent, Session};
use askdb::clock::SystemClock;
use askdb::knowledge::{Knowledge, Note, Source, Term};
use askdb::llm::{ChatRequest, Message};
use askdb::search::values::ValueIndex;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use support::scripted_llm::{ask, calls, final_answer, session, Episode};
use support::{RusqliteDb, TempFile};

/// The merged database, made once per test run in the build folder's scratch space for
/// integration tests (a static outlives every test, so no guard could remove it: there it is
/// replaced by the next run instead of piling up in the temp directory).
fn merged() -> &'static PathBuf {
    static MERGED: OnceLock<PathBuf> = OnceLock::new();
    MERGED.get_or_init(|| {
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("askdb-merged.db");
        let _ = std::fs::remove_file(&out);
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/support/merge_databases.py");
        let status = std::process::Command::new("python3")
            .arg(script)
            .arg(&out)
            .args([
                format!("sk_={}", support::dataset("sakila/sakila.db").display()),
                format!(
                    "nw_={}",
                    support::dataset("northwind/northwind.db").display()
                ),
                format!(
                    "ch_={}",
                    support::dataset("chinook/Chinook_Sqlite.sqlite").display()
                ),
                format!("mo_={}", support::dataset("mondial/mondial.db").display()),
            ])
            .status()
            .expect("python3 runs the merge script");
        assert!(status.success(), "the merge script failed");
        out
    })
}

fn values_of(db: &RusqliteDb, session: &Session) -> Arc<ValueIndex> {
    Arc::new(support::value_index(db, session.schema()))
}

/// The question's own message in the first request (the question, then what goes with it).
fn first_message(episode: &Episode) -> &str {
    match episode.requests[0].messages.last() {
        Some(Message::User { text }) => text,
        other => panic!("the first request ends with {other:?}"),
    }
}

fn schema_event(episode: &Episode) -> &SchemaSent {
    episode
        .events
        .iter()
        .find_map(|event| match &event.kind {
            EventKind::Schema(sent) => Some(sent),
            _ => None,
        })
        .expect("a schema event")
}

fn picked(episode: &Episode) -> Vec<String> {
    schema_event(episode)
        .tables
        .iter()
        .map(|t| t.name.clone())
        .collect()
}

fn answered(sql: &str) -> Vec<support::scripted_llm::Turn> {
    vec![calls(vec![final_answer("c1", "answered", sql)])]
}

fn system(request: &ChatRequest) -> &str {
    &request.system
}

#[test]
fn on_a_database_too_large_to_send_whole_each_question_brings_its_tables_and_values() {
    let db = RusqliteDb::open(merged());
    let mut session = session(&db);
    assert_eq!(session.schema().tables.len(), 86);
    session.set_values(values_of(&db, &session));

    let horror = ask(
        &db,
        &mut session,
        "Which horror films were rented most often?",
        answered("SELECT 1"),
    );
    let message = first_message(&horror);
    // The system prompt names the tables; the columns come with the question.
    assert!(!system(&horror.requests[0]).contains("rental_rate"));
    assert!(system(&horror.requests[0]).contains("sk_film ("));
    for table in ["sk_film", "sk_category", "sk_rental"] {
        assert!(
            picked(&horror).contains(&table.to_string()),
            "{table} not picked: {:?}",
            picked(&horror)
        );
        assert!(message.contains(&format!("\n{table} (")), "{message}");
    }
    // The table between film and rental comes along its keys.
    assert!(picked(&horror).contains(&"sk_inventory".to_string()));
    assert!(message.contains("rental_rate"), "film's columns are there");
    assert!(
        message.contains("sk_category.name has 'Horror'"),
        "{message}"
    );
    assert!(
        !picked(&horror).iter().any(|t| t.starts_with("nw_")),
        "{:?}",
        picked(&horror)
    );
    // Why each table was picked, for the transcript.
    let sent = schema_event(&horror);
    assert!(!sent.whole);
    assert!(sent.tables.iter().all(|t| !t.why.is_empty()));
    assert!(sent.first_request_bytes > sent.bytes && sent.bytes == sent_bytes(message));

    // A value the question names picks its table, written as the data writes it.
    let shipped = ask(
        &db,
        &mut session,
        "How many orders did Speedy Express ship?",
        answered("SELECT 1"),
    );
    let message = first_message(&shipped);
    assert!(
        message.contains("nw_Shippers.CompanyName has 'Speedy Express'"),
        "{message}"
    );
    assert!(picked(&shipped).contains(&"nw_Shippers".to_string()));
    assert!(picked(&shipped).contains(&"nw_Orders".to_string()));

    // The system prompt is the same bytes for both questions (providers cache it).
    assert_eq!(
        system(&horror.requests[0]),
        system(&shipped.requests[0]),
        "the system prompt changed with the question"
    );
}

/// The bytes of what went after the question in its message.
fn sent_bytes(message: &str) -> usize {
    message
        .find("\n\n---\nSchema")
        .map_or(0, |at| message.len() - at)
}

#[test]
fn notes_and_the_glossary_lead_a_question_in_another_language_to_english_tables() {
    let db = RusqliteDb::open(merged());
    let mut session = session(&db);
    session.set_knowledge(Knowledge {
        notes: vec![Note {
            table: "ch_Genre".into(),
            column: None,
            text: "音楽のジャンル（ジャズ、ロック、クラシック）".into(),
            source: Source::Person,
        }],
        glossary: vec![Term {
            term: "grenzen".into(),
            meaning: "Nachbarländer stehen in mo_borders (Country1, Country2)".into(),
            source: Source::Person,
        }],
        ..Knowledge::default()
    });
    let japanese = ask(
        &db,
        &mut session,
        "ジャンルごとの曲数は？",
        answered("SELECT 1"),
    );
    assert!(
        picked(&japanese).contains(&"ch_Genre".to_string()),
        "{:?}",
        picked(&japanese)
    );
    assert!(first_message(&japanese).contains("\nch_Genre ("));
    let german = ask(
        &db,
        &mut session,
        "Welche Länder grenzen an Polen?",
        answered("SELECT 1"),
    );
    assert!(
        picked(&german).contains(&"mo_borders".to_string()),
        "{:?}",
        picked(&german)
    );
    // Positive control: without the glossary the same question finds no border table.
    session.set_knowledge(Knowledge::default());
    let bare = ask(
        &db,
        &mut session,
        "Welche Länder grenzen an Polen?",
        answered("SELECT 1"),
    );
    assert!(!picked(&bare).contains(&"mo_borders".to_string()));
}

#[test]
fn selection_never_shows_a_hidden_table_or_a_hidden_column() {
    let db = RusqliteDb::open(merged());
    let whole = session(&db);
    // Hidden: Northwind's employees, and the names of its shippers: the model reads the copy
    // without them, made as the page makes it.
    let derived = support::hiding::derive(
        merged(),
        &["nw_Employees", "nw_Shippers.CompanyName"],
        "selection",
    );
    let copy = RusqliteDb::open(&derived.copy.0);
    let mut seen = session(&copy);
    assert!(seen.schema().table("nw_Employees").is_none(), "control");
    // The index built on the whole database, as a page that forgot the copy would: the
    // session keeps it within what the model sees.
    seen.set_values(values_of(&db, &whole));
    let question = "Which employees shipped with Speedy Express?";
    let episode = ask(&copy, &mut seen, question, answered("SELECT 1"));
    let after = &first_message(&episode)[question.len()..];
    assert!(!picked(&episode).contains(&"nw_Employees".to_string()));
    assert!(!after.contains("nw_Employees ("), "{after}");
    assert!(!after.contains("Speedy Express"), "{after}");
    assert!(!after.contains("CompanyName TEXT NOT NULL"), "{after}");
    assert!(!system(&episode.requests[0]).contains("nw_Employees"));
    // Positive control: on the whole database the same question brings both.
    let mut open = whole.clone();
    open.set_values(values_of(&db, &whole));
    let control = ask(&db, &mut open, question, answered("SELECT 1"));
    let after = &first_message(&control)[question.len()..];
    assert!(picked(&control).contains(&"nw_Employees".to_string()));
    assert!(after.contains("has 'Speedy Express'"), "{after}");
}

/// askdb's own tables are never data: on the shop with knowledge tables in it, and a value index
/// built on every table of the file (as a page that forgot the model's schema would hand it
/// over), a question that names values those tables hold (`askdb_checks`' question, the table
/// name `askdb_notes` holds) brings none of them, only the data's 'Tokyo'. The control: the
/// index does hold the knowledge tables' values the question names. Mutation:
/// `Session::set_values` keeping the index as given (no `within`) fails it
/// ("askdb_checks.question has 'Which customers live in Tokyo?'").
#[test]
fn selection_never_names_a_value_of_a_knowledge_table() {
    let knowing_file = TempFile::new("selection-knowing");
    let file = &knowing_file.0;
    std::fs::copy(support::dataset("shop/shop.db"), file).expect("a copy");
    let sql = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/datasette/knowing.sql"),
    )
    .expect("knowing.sql");
    rusqlite::Connection::open(file)
        .and_then(|c| c.execute_batch(&sql))
        .expect("the knowledge tables");
    let knowing = RusqliteDb::open(file);
    let everything = futures::executor::block_on(askdb::engine::schema::load(
        &knowing,
        &askdb::engine::QueryLimits::default(),
    ))
    .expect("schema");
    assert!(
        everything.tables.iter().any(|t| t.name == "askdb_checks"),
        "control"
    );
    let every_value = Arc::new(futures::executor::block_on(values::build(
        &knowing,
        &everything,
        &IndexPlan::Sample {
            rows_per_table: 1_000,
        },
        &Bounds::default(),
        &SystemClock::new(),
    )));
    // The golden question of askdb_checks, word for word; askdb_notes names the customers table.
    let question = "Which customers live in Tokyo?";
    let named: Vec<String> = every_value
        .hits(question, 20)
        .iter()
        .map(|hit| hit.to_string())
        .collect();
    for knowledge in [
        "askdb_checks.question has 'Which customers live in Tokyo?'",
        "askdb_notes.table_name has 'customers'",
    ] {
        assert!(named.iter().any(|n| n == knowledge), "control: {named:?}");
    }
    let mut session = Session::new(everything);
    session.set_values(every_value);
    let episode = ask(&knowing, &mut session, question, answered("SELECT 1"));
    let after = &first_message(&episode)[question.len()..];
    assert!(!after.contains("askdb_"), "{after}");
    assert!(!after.contains("golden"), "{after}");
    assert!(
        after.contains("customers.prefecture has 'Tokyo'"),
        "{after}"
    );
}

/// Tables of the value plans' tests: each with an indexed text column of 200 values
/// (`zone<table>x<value>`, two rows each) that `sqlite_stat1` knows, so that seeking all of
/// them takes about 2,400 seeks, between what the budgets of a remote file (512 seeks of
/// 4 KiB, 2 MiB) and of a local file read on demand (4,096, 16 MiB) allow; and a text column
/// without an index, which only a sample reads.
const PLAN_TABLES: usize = 12;
const PLAN_VALUES: usize = 200;

fn plan_database(label: &str) -> TempFile {
    let file = TempFile::new(&format!("selection-plan-{label}"));
    let conn = rusqlite::Connection::open(&file.0).unwrap();
    let mut sql = String::from("BEGIN;");
    for t in 1..=PLAN_TABLES {
        sql.push_str(&format!(
            "CREATE TABLE zones{t} (id INTEGER PRIMARY KEY, zone TEXT, remark TEXT);\
             CREATE INDEX zones{t}_zone ON zones{t}(zone);"
        ));
        for v in 0..PLAN_VALUES * 2 {
            let v = v / 2;
            sql.push_str(&format!(
                "INSERT INTO zones{t} (zone, remark) VALUES ('zone{t}x{v}', 'unindexed remark');"
            ));
        }
    }
    sql.push_str("COMMIT; ANALYZE;");
    conn.execute_batch(&sql).unwrap();
    file
}

/// The value index `value_plan` gives a database of `kind`, built on the plan database.
fn built_for(kind: askdb::engine::kind::DatabaseKind, label: &str) -> ValueIndex {
    let file = plan_database(label);
    let db = RusqliteDb::open(&file.0);
    let schema = session(&db).schema().clone();
    futures::executor::block_on(values::build(
        &db,
        &schema,
        &askdb::agent::selection::value_plan(kind),
        &Bounds {
            time_ms: 600_000.0,
            ..Bounds::default()
        },
        &SystemClock::new(),
    ))
}

fn named(index: &ValueIndex, question: &str) -> Vec<String> {
    index
        .hits(question, 5)
        .iter()
        .map(|hit| hit.to_string())
        .collect()
}

/// In memory, the values come from a sample of each table's rows, indexed or not: every table
/// read in full, the unindexed remark named. Mutation: `value_plan`'s `Reads::InMemory` branch
/// giving `IndexedOnly` fails it (no remark).
#[test]
fn value_plan_in_memory_samples_every_text_column() {
    use askdb::search::values::Coverage;
    let index = built_for(askdb::engine::kind::DatabaseKind::InMemory, "in-memory");
    assert!(
        matches!(index.coverage(), Coverage::Full(scanned) if scanned.tables == PLAN_TABLES),
        "{:?}",
        index.coverage()
    );
    let remarks = named(&index, "Which zones have an unindexed remark?");
    assert!(
        remarks
            .iter()
            .any(|n| n.ends_with(".remark has 'unindexed remark'")),
        "{remarks:?}"
    );
}

/// A local file read on demand seeks indexed columns within 16 MiB (4,096 seeks where reads
/// are not reported): all twelve columns, about 2,400 seeks, and no unindexed column.
/// Mutation: the `Reads::FilePages` branch given the remote file's 2 MiB fails it (cut short).
#[test]
fn value_plan_for_a_local_file_on_demand_seeks_every_indexed_column_within_16_mib() {
    use askdb::search::values::Coverage;
    let index = built_for(askdb::engine::kind::DatabaseKind::LocalFile, "local");
    let Coverage::IndexedOnly { seeks, scanned, .. } = index.coverage() else {
        panic!("{:?}", index.coverage());
    };
    assert_eq!(scanned.tables, PLAN_TABLES);
    assert_eq!(*seeks as usize, PLAN_TABLES * (PLAN_VALUES + 1));
    let last = format!("zone{PLAN_TABLES}x199");
    assert_eq!(
        named(&index, &format!("Who is in {last}?")),
        [format!("zones{PLAN_TABLES}.zone has '{last}'")]
    );
    assert!(named(&index, "Which zones have an unindexed remark?").is_empty());
}

/// A remote file seeks within 2 MiB (512 seeks where reads are not reported): cut short there.
/// Mutation: the `Reads::RangeRequests` branch given the local file's 16 MiB fails it (every
/// column read).
#[test]
fn value_plan_for_a_remote_file_stops_at_2_mib_of_seeks() {
    use askdb::search::values::{Coverage, Cut};
    let index = built_for(askdb::engine::kind::DatabaseKind::Remote, "remote");
    let Coverage::CutShort { by, left, .. } = index.coverage() else {
        panic!("{:?}", index.coverage());
    };
    assert_eq!(*by, Cut::Seeks { seeks: 512 });
    // 512 seeks read two columns whole (201 seeks each) and part of a third.
    assert_eq!(*left, PLAN_TABLES - 2);
}

/// On a Datasette server nothing is read for the index, and the coverage says why. Mutation:
/// the `Reads::ServerQueries` branch giving a sample fails it.
#[test]
fn value_plan_on_a_datasette_server_reads_nothing_and_says_why() {
    use askdb::search::values::Coverage;
    let index = built_for(askdb::engine::kind::DatabaseKind::Datasette, "datasette");
    let Coverage::Skipped(why) = index.coverage() else {
        panic!("{:?}", index.coverage());
    };
    assert!(why.contains("Datasette server"), "{why}");
    assert!(named(&index, "Who is in zone1x1?").is_empty());
}
