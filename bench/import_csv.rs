//! The native importer's time on the benchmark CSV (bench/import_csv.py generates it):
//!
//!     python3 bench/import_csv.py generate
//!     cargo bench --bench import_csv -- /tmp/askdb-import/rows.csv
//!
//! Imports into an in-memory rusqlite database, both passes, and prints the seconds, the rows
//! and the report's sentences. Figures only; nothing is asserted.

// Native only (rusqlite): on wasm32 there is nothing to build.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use askdb::import::native::RusqliteSink;
use askdb::import::source::FileSource;
use askdb::import::{describe, import_files, InputFile};
use std::time::Instant;

fn main() {
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_else(|| "/tmp/askdb-import/rows.csv".into());
    let source = FileSource(path.clone().into());
    let conn = rusqlite::Connection::open_in_memory().expect("an in-memory database");
    let started = Instant::now();
    let report = {
        let mut sink = RusqliteSink::new(&conn);
        let name = std::path::Path::new(&path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        import_files(
            &[InputFile {
                name,
                source: &source,
            }],
            &mut sink,
            &mut |_| {},
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let seconds = started.elapsed().as_secs_f64();
    let rows: u64 = report.files[0].tables.iter().map(|t| t.rows_written).sum();
    println!(
        "native importer (rusqlite): {seconds:.2} s for {rows} rows, {:.1} MB",
        std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0) as f64 / 1e6
    );
    for line in describe(&report) {
        println!("  {line}");
    }
}
