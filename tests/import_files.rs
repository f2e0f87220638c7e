//! The importer (src/import) on real bytes, written into rusqlite: each kind of file becomes
//! tables with the types and values a person expects, and the report says what happened. Each
//! test is named for the break it catches.
#![cfg(not(target_arch = "wasm32"))]

use askdb::import::header::HeaderDecision;
use askdb::import::infer::SqlType;
use askdb::import::native::RusqliteSink;
use askdb::import::report::Format;
use askdb::import::{describe, import_files, ImportError, ImportReport, InputFile};
use rusqlite::types::Value as Sql;
use rusqlite::Connection;

fn import(files: &[(&str, &[u8])]) -> Result<(Connection, ImportReport), ImportError> {
    let conn = Connection::open_in_memory().unwrap();
    let sources: Vec<Vec<u8>> = files.iter().map(|(_, b)| b.to_vec()).collect();
    let inputs: Vec<InputFile> = files
        .iter()
        .zip(&sources)
        .map(|((name, _), bytes)| InputFile {
            name: name.to_string(),
            source: bytes,
        })
        .collect();
    let mut last = 0.0;
    let report = {
        let mut sink = RusqliteSink::new(&conn);
        import_files(&inputs, &mut sink, &mut |p| {
            assert!(p.fraction >= last - 1e-9 && p.fraction <= 1.0, "{p:?}");
            last = p.fraction;
        })?
    };
    for file in &report.files {
        for t in &file.tables {
            assert_eq!(t.rows_read, t.rows_written, "{t:?}");
            let n: i64 = conn
                .query_row(&format!("SELECT count(*) FROM \"{}\"", t.table), [], |r| {
                    r.get(0)
                })
                .unwrap();
            assert_eq!(n as u64, t.rows_written);
        }
    }
    Ok((conn, report))
}

fn rows(conn: &Connection, sql: &str) -> Vec<Vec<Sql>> {
    let mut st = conn.prepare(sql).unwrap();
    let n = st.column_count();
    st.query_map([], |r| (0..n).map(|i| r.get::<_, Sql>(i)).collect())
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn types(conn: &Connection, table: &str) -> Vec<(String, String)> {
    rows(
        conn,
        &format!("SELECT name, type FROM pragma_table_info('{table}')"),
    )
    .into_iter()
    .map(|r| match (&r[0], &r[1]) {
        (Sql::Text(n), Sql::Text(t)) => (n.clone(), t.clone()),
        other => panic!("{other:?}"),
    })
    .collect()
}

fn text(s: &str) -> Sql {
    Sql::Text(s.into())
}

#[test]
fn quoted_fields_keep_their_commas_quotes_and_line_breaks() {
    let csv = b"id,note\r\n1,\"a, b\"\r\n2,\"say \"\"hi\"\"\"\r\n3,\"two\nlines\"\r\n";
    let (conn, _) = import(&[("notes.csv", csv)]).unwrap();
    assert_eq!(
        rows(&conn, "SELECT id, note FROM notes ORDER BY id"),
        [
            vec![Sql::Integer(1), text("a, b")],
            vec![Sql::Integer(2), text("say \"hi\"")],
            vec![Sql::Integer(3), text("two\nlines")],
        ]
    );
}

#[test]
fn types_follow_the_values_zip_codes_and_dates_stay_text_empty_numbers_are_null() {
    let csv = b"zip,pop,share,day,ok,label\n00501,12,0.5,2024-01-31,true,x\n10001,,1e2,2024-02-01,false,\n";
    let (conn, report) = import(&[("zips.csv", csv)]).unwrap();
    assert_eq!(
        types(&conn, "zips"),
        [
            ("zip".into(), "TEXT".into()),
            ("pop".into(), "INTEGER".into()),
            ("share".into(), "REAL".into()),
            ("day".into(), "TEXT".into()),
            ("ok".into(), "INTEGER".into()),
            ("label".into(), "TEXT".into()),
        ]
    );
    assert_eq!(
        rows(
            &conn,
            "SELECT zip, pop, share, day, ok, label, typeof(pop) FROM zips"
        ),
        [
            vec![
                text("00501"),
                Sql::Integer(12),
                Sql::Real(0.5),
                text("2024-01-31"),
                Sql::Integer(1),
                text("x"),
                text("integer")
            ],
            vec![
                text("10001"),
                Sql::Null,
                Sql::Real(100.0),
                text("2024-02-01"),
                Sql::Integer(0),
                text(""),
                text("null")
            ],
        ]
    );
    let table = &report.files[0].tables[0];
    assert!(table.header.taken());
    assert_eq!(table.columns[1].nulls, 1);
    assert_eq!(
        table.columns[0].zero_padded_example.as_deref(),
        Some("00501")
    );
    let said = describe(&report).join("\n");
    assert!(said.contains("taken as the header because"), "{said}");
    assert!(said.contains("00501"), "{said}");
}

#[test]
fn a_tsv_and_a_semicolon_txt_are_split_by_their_delimiter() {
    let (conn, report) = import(&[
        ("a.tsv", b"x\ty\n1,5\t2\n"),
        ("b.txt", b"p;q\n1,5;2\n3,0;4\n"),
    ])
    .unwrap();
    assert_eq!(
        rows(&conn, "SELECT x, y FROM a"),
        [vec![text("1,5"), Sql::Integer(2)]]
    );
    assert_eq!(
        rows(&conn, "SELECT count(*), sum(q) FROM b"),
        [vec![Sql::Integer(2), Sql::Integer(6)]]
    );
    assert_eq!(report.files[1].delimiter, Some(';'));
}

#[test]
fn bom_and_utf16_files_read_the_same_and_say_their_encoding() {
    let body = "name,city\nZoë,Kraków\n";
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend(body.as_bytes());
    let mut le = vec![0xFF, 0xFE];
    le.extend(body.encode_utf16().flat_map(u16::to_le_bytes));
    let mut be = vec![0xFE, 0xFF];
    be.extend(body.encode_utf16().flat_map(u16::to_be_bytes));
    let (conn, report) = import(&[("bom.csv", &bom), ("le.csv", &le), ("be.csv", &be)]).unwrap();
    for t in ["bom", "le", "be"] {
        assert_eq!(
            rows(&conn, &format!("SELECT name, city FROM {t}")),
            [vec![text("Zoë"), text("Kraków")]],
            "{t}"
        );
    }
    let said = describe(&report).join("\n");
    assert!(said.contains("UTF-8 with a byte order mark"), "{said}");
    assert!(said.contains("UTF-16 (little-endian)"), "{said}");
    assert!(said.contains("UTF-16 (big-endian)"), "{said}");
}

#[test]
fn ragged_rows_are_padded_or_widened_and_reported_by_line_never_dropped() {
    let csv = b"a,b,c\n1,2,3\n4,5\n6,7,8,9\n";
    let (conn, report) = import(&[("r.csv", csv)]).unwrap();
    assert_eq!(
        rows(&conn, "SELECT * FROM r"),
        [
            vec![Sql::Integer(1), Sql::Integer(2), Sql::Integer(3), Sql::Null],
            vec![Sql::Integer(4), Sql::Integer(5), Sql::Null, Sql::Null],
            vec![
                Sql::Integer(6),
                Sql::Integer(7),
                Sql::Integer(8),
                Sql::Integer(9)
            ],
        ]
    );
    let t = &report.files[0].tables[0];
    assert_eq!(t.columns[3].name, "column_4");
    assert_eq!(t.ragged.first, [3, 4]);
    assert!(describe(&report).join(" ").contains("lines 3, 4"));
}

#[test]
fn undecodable_bytes_are_replaced_and_their_lines_reported() {
    let csv = b"a,b\nok,1\nbad\xff,2\nok,3\n";
    let (conn, report) = import(&[("u.csv", csv)]).unwrap();
    assert_eq!(
        rows(&conn, "SELECT a FROM u WHERE b = 2"),
        [vec![text("bad\u{FFFD}")]]
    );
    assert_eq!(report.files[0].tables[0].undecodable.first, [3]);
    assert!(describe(&report).join(" ").contains("line 3"));
}

#[test]
fn an_empty_file_is_refused_and_a_header_only_file_is_a_table_without_rows() {
    assert_eq!(
        import(&[("e.csv", b"")]).unwrap_err(),
        ImportError::Empty {
            file: "e.csv".into()
        }
    );
    assert!(matches!(
        import(&[("e.csv", b"\xEF\xBB\xBF\n")]),
        Err(ImportError::Empty { .. })
    ));
    let (conn, report) = import(&[("h.csv", b"id,name\n")]).unwrap();
    assert_eq!(types(&conn, "h").len(), 2);
    assert_eq!(report.files[0].tables[0].rows_read, 0);
    assert!(describe(&report).join(" ").contains("no rows"));
}

#[test]
fn ten_thousand_columns_are_refused_with_a_message() {
    let header: Vec<String> = (0..10_000).map(|i| format!("c{i}")).collect();
    let csv = format!("{}\n", header.join(","));
    let err = import(&[("wide.csv", csv.as_bytes())]).unwrap_err();
    assert!(matches!(
        err,
        ImportError::TooManyColumns {
            columns: 10_000,
            ..
        }
    ));
    assert!(err.to_string().contains("at most 2000"), "{err}");
}

#[test]
fn a_first_row_of_numbers_is_data_and_the_columns_get_names() {
    let (conn, report) = import(&[("n.csv", b"1,2\n3,4\n")]).unwrap();
    assert_eq!(rows(&conn, "SELECT column_1, column_2 FROM n").len(), 2);
    assert!(!report.files[0].tables[0].header.taken());
}

/// A first row read as data counts in its columns' types like any other row (the two passes'
/// `headed_columns`). Mutation: the first row's kinds not folded in when it is data fails it
/// (column_1 typed INTEGER, then its 1.5 does not fit: "the file changed").
#[test]
fn a_first_row_taken_as_data_counts_in_its_columns_types() {
    let (conn, report) = import(&[("m.csv", b"1.5,2\n3,4\n")]).unwrap();
    assert!(!report.files[0].tables[0].header.taken());
    assert_eq!(
        types(&conn, "m"),
        [
            ("column_1".into(), "REAL".into()),
            ("column_2".into(), "INTEGER".into()),
        ]
    );
    assert_eq!(report.files[0].tables[0].rows_read, 2);
}

#[test]
fn a_json_array_takes_the_union_of_keys_in_order_nested_values_as_json_text() {
    let json = br#"[{"id": 1, "tags": ["a", "b"], "ok": true},
                   {"id": 2, "extra": {"k": 1.5}, "ok": false, "price": 2.5},
                   {"id": 3, "ok": null, "price": 3}]"#;
    let (conn, report) = import(&[("items.json", json)]).unwrap();
    assert_eq!(report.files[0].format, Format::JsonArray);
    assert_eq!(
        types(&conn, "items"),
        [
            ("id".into(), "INTEGER".into()),
            ("tags".into(), "TEXT".into()),
            ("ok".into(), "INTEGER".into()),
            ("extra".into(), "TEXT".into()),
            ("price".into(), "REAL".into()),
        ]
    );
    assert_eq!(
        rows(
            &conn,
            "SELECT tags, ok, extra, price FROM items ORDER BY id"
        ),
        [
            vec![text(r#"["a", "b"]"#), Sql::Integer(1), Sql::Null, Sql::Null],
            vec![
                Sql::Null,
                Sql::Integer(0),
                text(r#"{"k": 1.5}"#),
                Sql::Real(2.5)
            ],
            vec![Sql::Null, Sql::Null, Sql::Null, Sql::Real(3.0)],
        ]
    );
    assert_eq!(report.files[0].tables[0].header, HeaderDecision::Keys);
}

#[test]
fn ndjson_lines_are_rows_and_a_broken_line_is_named() {
    let (conn, _) = import(&[("log.ndjson", b"{\"a\":1}\n\n{\"a\":2,\"b\":\"x\"}\n")]).unwrap();
    assert_eq!(
        rows(&conn, "SELECT a, b FROM log ORDER BY a"),
        [
            vec![Sql::Integer(1), Sql::Null],
            vec![Sql::Integer(2), text("x")]
        ]
    );
    let err = import(&[("bad.jsonl", b"{\"a\":1}\n{\"a\":\n")]).unwrap_err();
    assert!(matches!(err, ImportError::Json { line: 2, .. }), "{err:?}");
}

#[test]
fn a_workbook_makes_a_table_per_sheet_named_after_it() {
    let xlsx = include_bytes!("fixtures/import/two_sheets.xlsx");
    let (conn, report) = import(&[("book.xlsx", xlsx)]).unwrap();
    let file = &report.files[0];
    assert_eq!(file.format, Format::Xlsx);
    let names: Vec<&str> = file.tables.iter().map(|t| t.table.as_str()).collect();
    assert_eq!(names, ["Orders", "Customer_List"]);
    assert_eq!(file.empty_sheets, ["Empty"]);
    let t = &file.tables[0];
    let ty: Vec<SqlType> = t.columns.iter().map(|c| c.sql_type).collect();
    assert_eq!(
        ty,
        [
            SqlType::Integer,
            SqlType::Text,
            SqlType::Real,
            SqlType::Integer,
            SqlType::Text,
            SqlType::Text
        ]
    );
    assert_eq!(
        rows(
            &conn,
            "SELECT order_id, customer, amount, paid, placed_on, zip FROM Orders ORDER BY order_id"
        ),
        [
            vec![
                Sql::Integer(1),
                text("Ann"),
                Sql::Real(12.5),
                Sql::Integer(1),
                text("2024-01-31"),
                text("00501")
            ],
            vec![
                Sql::Integer(2),
                text("Bob"),
                Sql::Real(7.0),
                Sql::Integer(0),
                text("2024-02-01"),
                text("10001")
            ],
            vec![
                Sql::Integer(3),
                text("=cmd|' /C calc'!A0"),
                Sql::Null,
                Sql::Integer(1),
                text("2024-02-02 12:30:00"),
                text("02134")
            ],
        ]
    );
    assert_eq!(
        rows(&conn, "SELECT count(*) FROM Customer_List"),
        [vec![Sql::Integer(2)]]
    );
}

#[test]
fn two_imported_csvs_join_with_sql() {
    let (conn, _) = import(&[
        ("customers.csv", b"id,name\n1,Ann\n2,Bob\n"),
        (
            "orders.csv",
            b"order_id,customer_id,total\n10,1,5.5\n11,1,4.5\n12,2,1\n",
        ),
    ])
    .unwrap();
    assert_eq!(
        rows(&conn, "SELECT c.name, sum(o.total) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY c.id"),
        [vec![text("Ann"), Sql::Real(10.0)], vec![text("Bob"), Sql::Real(1.0)]]
    );
}

#[test]
fn files_with_the_same_name_get_tables_of_their_own() {
    let (_, report) = import(&[
        ("a/data.csv", b"x\n1\n"),
        ("b/data.csv", b"x\n2\n"),
        ("Data.json", b"[{\"x\":3}]"),
    ])
    .unwrap();
    let names: Vec<&str> = report
        .files
        .iter()
        .map(|f| f.tables[0].table.as_str())
        .collect();
    assert_eq!(names, ["data", "data_2", "Data_3"]);
}

/// The hostile cells both writers are tested on (`tests/fixtures/import/hostile_cells.json`,
/// also read by `tests/e2e/import.test.mjs` for the page's writer): one list per column type.
struct HostileCells {
    text: Vec<String>,
    real: Vec<String>,
    integer: Vec<String>,
}

fn hostile_cells() -> HostileCells {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/import/hostile_cells.json"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let list = |key: &str| -> Vec<String> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    };
    HostileCells {
        text: list("text"),
        real: list("real"),
        integer: list("integer"),
    }
}

/// A JSON array of one-key objects `{"v": cell}`: text cells as JSON strings, number cells
/// (`raw`) written as they are.
fn json_rows(cells: &[String], raw: bool) -> String {
    let rows: Vec<String> = cells
        .iter()
        .map(|c| {
            let v = if raw {
                c.clone()
            } else {
                serde_json::to_string(c).unwrap()
            };
            format!("{{\"v\": {v}}}")
        })
        .collect();
    format!("[{}]", rows.join(",\n"))
}

/// What a REAL column gives back for the JSON number `cell`: the nearest double (past the
/// largest, an infinity), but a zero without its sign (SQLite keeps a whole REAL as an integer
/// in the file, so -0.0 reads back 0.0).
fn stored_real(cell: &str) -> f64 {
    let r: f64 = cell.parse().unwrap();
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// Every hostile cell reads back with its type and its exact bytes (a text's UTF-8, a real's
/// 64 bits, an integer's value), in the file's order; the text cells without a NUL also from a
/// CSV file. The page's writer is held to the same cells by `tests/e2e/import.test.mjs`
/// ("every hostile cell …"). Mutation: the JSON reader's REAL conversion going through `f32`
/// (`import/json.rs` `convert`) fails it.
#[test]
fn hostile_cells_round_trip_with_their_types_and_bytes() {
    let cells = hostile_cells();
    let mut texts = cells.text.clone();
    texts.push("x".repeat(1_000_000));
    let csv_texts: Vec<String> = texts
        .iter()
        .filter(|c| !c.contains('\0'))
        .cloned()
        .collect();
    let mut csv = String::from("v\n");
    for c in &csv_texts {
        csv.push_str(&format!("\"{}\"\n", c.replace('"', "\"\"")));
    }
    let files = [
        json_rows(&texts, false),
        json_rows(&cells.real, true),
        json_rows(&cells.integer, true),
    ];
    let (conn, _) = import(&[
        ("text.json", files[0].as_bytes()),
        ("real.json", files[1].as_bytes()),
        ("integer.json", files[2].as_bytes()),
        ("csv_text.csv", csv.as_bytes()),
    ])
    .unwrap();
    let read = |table: &str| {
        rows(
            &conn,
            &format!("SELECT v, typeof(v) FROM \"{table}\" ORDER BY rowid"),
        )
    };
    let as_bytes = |table: &str| -> Vec<(Vec<u8>, Sql)> {
        read(table)
            .into_iter()
            .map(|r| match &r[0] {
                Sql::Text(t) => (t.as_bytes().to_vec(), r[1].clone()),
                other => panic!("{other:?}"),
            })
            .collect()
    };
    let want = |cells: &[String]| -> Vec<(Vec<u8>, Sql)> {
        cells
            .iter()
            .map(|c| (c.as_bytes().to_vec(), text("text")))
            .collect()
    };
    assert!(as_bytes("text") == want(&texts), "the text cells differ");
    assert!(as_bytes("csv_text") == want(&csv_texts), "the CSV's differ");
    let got: Vec<(u64, Sql)> = read("real")
        .into_iter()
        .map(|r| match &r[0] {
            Sql::Real(x) => (x.to_bits(), r[1].clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    let want: Vec<(u64, Sql)> = cells
        .real
        .iter()
        .map(|c| (stored_real(c).to_bits(), text("real")))
        .collect();
    assert_eq!(got, want);
    let want: Vec<Vec<Sql>> = cells
        .integer
        .iter()
        .map(|c| vec![Sql::Integer(c.parse().unwrap()), text("integer")])
        .collect();
    assert_eq!(read("integer"), want);
}

#[test]
fn a_sqlite_database_is_handed_back_not_imported() {
    let mut db = b"SQLite format 3\0".to_vec();
    db.resize(4096, 0);
    assert_eq!(
        import(&[("shop.csv", &db)]).unwrap_err(),
        ImportError::NotForImporter {
            file: "shop.csv".into()
        }
    );
}

#[test]
fn duplicate_and_empty_headers_get_stable_names() {
    let (conn, _) = import(&[("d.csv", b"name,Name,,select,n\na,b,c,d,1\n")]).unwrap();
    let names: Vec<String> = types(&conn, "d").into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["name", "Name_2", "column_3", "select_", "n"]);
}

#[test]
fn json_objects_with_a_key_twice_are_reported() {
    let (_, report) = import(&[("k.json", b"[{\"a\":1,\"a\":2},{\"a\":3}]")]).unwrap();
    assert_eq!(report.files[0].tables[0].duplicate_keys.first, [1]);
    assert!(describe(&report).join(" ").contains("had a key twice"));
}
