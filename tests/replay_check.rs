//! `askdb-eval replay-check`, the built binary, on the recordings the project publishes
//! (`www/examples/*.askdb.json`): they replay on their databases (exit 0); on a copy with one
//! row changed the report names the question and the step that no longer matches, with the
//! recorded and the current result (exit 1); a copy whose data answers the same but whose bytes
//! differ fails on the database alone, as a reader's page would warn; broken input is exit 2.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn www(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("www")
        .join(relative)
}

const SHOP: (&str, &str) = ("examples/shop.askdb.json", "demo/shop.db");
const CHINOOK: (&str, &str) = (
    "examples/chinook.askdb.json",
    "examples/chinook/Chinook_Sqlite.sqlite",
);

fn replay_check(recordings: &[&Path], db: &Path, more: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_askdb-eval"))
        .arg("replay-check")
        .args(recordings)
        .arg("--db")
        .arg(db)
        .args(more)
        .output()
        .expect("run askdb-eval replay-check")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A folder of its own for one test, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(label: &str) -> Scratch {
        let path =
            std::env::temp_dir().join(format!("askdb-replay-check-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }

    /// A copy of `www/<database>`, changed by `sql` (run on a writable connection).
    fn changed(&self, database: &str, sql: &str) -> PathBuf {
        let copy = self.0.join(Path::new(database).file_name().unwrap());
        std::fs::copy(www(database), &copy).unwrap();
        let connection = rusqlite::Connection::open(&copy).unwrap();
        connection.execute_batch(sql).unwrap();
        drop(connection);
        copy
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_published_recordings_replay_on_their_databases() {
    for (recording, database) in [SHOP, CHINOOK] {
        let output = replay_check(&[&www(recording)], &www(database), &[]);
        let report = text(&output.stdout);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{report}{}",
            text(&output.stderr)
        );
        assert!(report.starts_with("ok: "), "{report}");
        assert!(report.contains("as recorded (1 question, "), "{report}");
    }
}

#[test]
fn one_changed_row_fails_at_the_step_that_reads_it_with_both_results() {
    let scratch = Scratch::new("row");
    // Order 7 was placed by Evan, in Tokyo: now by Bob, in Osaka. Tokyo has 3 orders, not 4;
    // the step that counts them is the third (describe_table, the query with 東京都, then it).
    let db = scratch.changed(SHOP.1, "UPDATE orders SET customer_id = 2 WHERE id = 7");
    let output = replay_check(&[&www(SHOP.0)], &db, &[]);
    let report = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{report}{}",
        text(&output.stderr)
    );
    assert!(report.starts_with("FAILED: "), "{report}");
    assert!(
        report.contains("  database: This is not the database"),
        "{report}"
    );
    assert!(
        report.contains("question 1 (\"How many orders did customers in 東京都 place?\")"),
        "{report}"
    );
    let steps: Vec<&str> = report
        .lines()
        .filter(|line| line.trim_start().starts_with("step "))
        .collect();
    assert_eq!(steps.len(), 1, "only the count differs: {report}");
    assert!(steps[0].contains("step 3, run_sql (call c3)"), "{report}");
    let quoted = |label: &str| {
        report
            .lines()
            .find(|line| line.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no {label} in {report}"))
            .to_string()
    };
    assert!(quoted("expected:").contains("\"rows\":[[4]]"), "{report}");
    assert!(quoted("now:").contains("\"rows\":[[3]]"), "{report}");
    assert!(
        report.contains("1 of 1 question no longer replays as recorded"),
        "{report}"
    );

    // The music store: one more Jazz track sold changes the genre totals (step 2), not the
    // table list before it.
    let db = scratch.changed(
        CHINOOK.1,
        "UPDATE InvoiceLine SET Quantity = 3 WHERE InvoiceLineId = 17",
    );
    let output = replay_check(&[&www(CHINOOK.0)], &db, &[]);
    let report = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(report.contains("step 2, run_sql (call c2)"), "{report}");
    assert!(!report.contains("    step 1,"), "{report}");
    assert!(
        quoted_contains(&report, "expected:", "[\"Jazz\",80]"),
        "{report}"
    );
    assert!(
        quoted_contains(&report, "now:", "[\"Jazz\",82]"),
        "{report}"
    );
}

fn quoted_contains(report: &str, label: &str, part: &str) -> bool {
    report
        .lines()
        .filter(|line| line.trim_start().starts_with(label))
        .any(|line| line.contains(part))
}

#[test]
fn the_same_data_in_other_bytes_fails_on_the_database_alone() {
    let scratch = Scratch::new("bytes");
    let db = scratch.changed(SHOP.1, "PRAGMA user_version = 7");
    let output = replay_check(&[&www(SHOP.0)], &db, &[]);
    let report = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(
        report.contains("  database: This is not the database"),
        "{report}"
    );
    assert!(
        !report
            .lines()
            .any(|line| line.trim_start().starts_with("step ")),
        "every result is the same: {report}"
    );
    assert!(
        report.contains("Every question replays as recorded, but on another database"),
        "{report}"
    );
}

#[test]
fn several_recordings_are_checked_in_one_run() {
    let output = replay_check(&[&www(SHOP.0), &www(SHOP.0)], &www(SHOP.1), &[]);
    let report = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{report}");
    assert_eq!(report.matches("ok: ").count(), 2, "{report}");
    // On the music store's database, the shop's recording fails; the run does too.
    let output = replay_check(&[&www(CHINOOK.0), &www(SHOP.0)], &www(CHINOOK.1), &[]);
    let report = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(report.starts_with("ok: "), "{report}");
    assert!(report.contains("FAILED: "), "{report}");
}

#[test]
fn a_file_that_is_not_a_recording_or_a_name_that_cannot_be_hidden_is_exit_2() {
    let output = replay_check(&[&www("demo/shop.sql")], &www(SHOP.1), &[]);
    assert_eq!(output.status.code(), Some(2));
    let said = text(&output.stderr);
    assert!(said.contains("shop.sql"), "{said}");

    let output = replay_check(&[&www("nope.askdb.json")], &www(SHOP.1), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("no such file"));

    let output = replay_check(&[&www(SHOP.0)], &www(SHOP.1), &["--hide", "customers.nope"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("customers.nope"));

    // Hiding a column the recording read changes what the model was shown: a difference.
    let output = replay_check(&[&www(SHOP.0)], &www(SHOP.1), &["--hide", "customers.name"]);
    let report = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(
        report.contains("step 1, describe_table (call c1)"),
        "{report}"
    );
}
