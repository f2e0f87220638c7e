use super::*;
use crate::search::values::Added;

#[test]
fn declared_types_are_read_by_sqlites_affinity_rules() {
    for text in [
        "TEXT",
        "VARCHAR(20)",
        "CHAR(20)",
        "CLOB",
        "NVARCHAR(40)",
        "VARCHAR2(4)",
    ] {
        assert!(text_like(text), "{text}");
    }
    for other in ["", "STRING", "BLOB SUB_TYPE TEXT"] {
        assert!(text_like(other), "{other}");
    }
    for number in [
        "INTEGER",
        "INT",
        "SMALLINT",
        "NUMBER",
        "NUMERIC(10,2)",
        "DECIMAL(4,2)",
        "REAL",
        "DOUBLE",
        "FLOAT",
        "BLOB",
        "DATE",
        "DATETIME",
        "TIMESTAMP",
        "BOOLEAN",
    ] {
        assert!(!text_like(number), "{number}");
    }
}

#[test]
fn within_keeps_only_what_the_schema_shows() {
    let mut index = ValueIndex::default();
    for (table, column) in [
        ("category", "name"),
        ("staff", "password"),
        ("secret", "name"),
    ] {
        let added = index.add_column(table, column, &["Horror".into()], usize::MAX);
        assert_eq!(added, Added::Column);
    }
    assert_eq!(index.hits("horror", 10).len(), 3);
    let mut staff = Table::of_text_columns("Staff", TableKind::Table, &["first_name"]);
    staff.columns[0].name = "first_name".into();
    let schema = Schema {
        tables: vec![
            Table::of_text_columns("CATEGORY", TableKind::Table, &["Name"]),
            staff,
        ],
    };
    let seen = within(&index, &schema);
    let shown: Vec<String> = seen
        .hits("horror", 10)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(shown, ["category.name has 'Horror'"]);
    assert_eq!(seen.len(), 1);
    assert!(seen.bytes() < index.bytes());
}

#[cfg(not(target_arch = "wasm32"))]
mod on_files {
    use super::*;
    use crate::agent::selection::values::build as build_index;
    use crate::agent::selection::values::seek::{
        seek_sql, seekable_columns, Seekable, LEADING_COLUMNS_SQL, NO_STATISTICS,
    };
    use crate::engine::native::RusqliteDb;
    use crate::engine::{schema, ReadOnlySql, ReadStats};
    use crate::search::values::{ValueHit, ASSUMED_BYTES_PER_SEEK};
    use futures::executor::block_on;
    use futures::future::LocalBoxFuture;
    use std::cell::Cell;
    use std::path::{Path, PathBuf};

    /// A clock that moves `step` milliseconds each time it is read.
    struct Ticking {
        now: Cell<f64>,
        step: f64,
    }

    impl Ticking {
        fn still() -> Ticking {
            Ticking::by(0.0)
        }

        fn by(step: f64) -> Ticking {
            Ticking {
                now: Cell::new(0.0),
                step,
            }
        }
    }

    impl Clock for Ticking {
        fn now_ms(&self) -> f64 {
            let now = self.now.get();
            self.now.set(now + self.step);
            now
        }

        fn sleep(&self, _ms: u32) -> LocalBoxFuture<'static, ()> {
            Box::pin(async {})
        }
    }

    fn dataset(relative: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/datasets")
            .join(relative)
    }

    fn open(relative: &str) -> RusqliteDb {
        RusqliteDb::open(&dataset(relative)).expect("the dataset opens")
    }

    fn schema_of<D: Database>(db: &D) -> Schema {
        block_on(schema::load(db, &QueryLimits::default())).expect("the schema loads")
    }

    const SAMPLE: IndexPlan = IndexPlan::Sample {
        rows_per_table: 10_000,
    };

    fn build_with<D: Database>(
        db: &D,
        plan: &IndexPlan,
        bounds: &Bounds,
        clock: &Ticking,
    ) -> ValueIndex {
        block_on(build_index(db, &schema_of(db), plan, bounds, clock))
    }

    fn build<D: Database>(db: &D, plan: &IndexPlan) -> ValueIndex {
        build_with(db, plan, &Bounds::default(), &Ticking::still())
    }

    fn shown(index: &ValueIndex, question: &str) -> Vec<String> {
        index
            .hits(question, 10)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn columns_of(index: &ValueIndex) -> Vec<String> {
        index
            .columns()
            .iter()
            .map(|(t, c)| format!("{t}.{c}"))
            .collect()
    }

    /// A file in the temporary directory, removed when dropped.
    struct TempFile(PathBuf);

    impl TempFile {
        fn new(name: &str) -> TempFile {
            let path =
                std::env::temp_dir().join(format!("askdb-values-{}-{name}.db", std::process::id()));
            let _ = std::fs::remove_file(&path);
            TempFile(path)
        }

        /// A database made by `script`, opened read-only.
        fn made_by(name: &str, script: &str) -> (TempFile, RusqliteDb) {
            let file = TempFile::new(name);
            let writer = rusqlite::Connection::open(&file.0).expect("a temporary database");
            writer.execute_batch(script).expect("the script runs");
            drop(writer);
            let db = RusqliteDb::open(&file.0).expect("it opens");
            (file, db)
        }

        /// A copy of a dataset with `ANALYZE` run on it, opened read-only.
        fn analyzed(relative: &str, name: &str) -> (TempFile, RusqliteDb) {
            let file = TempFile::new(name);
            std::fs::copy(dataset(relative), &file.0).expect("the dataset copies");
            let writer = rusqlite::Connection::open(&file.0).expect("the copy opens");
            writer.execute_batch("ANALYZE").expect("ANALYZE runs");
            drop(writer);
            let db = RusqliteDb::open(&file.0).expect("it opens");
            (file, db)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn sakilas_categories_and_padded_languages_are_found() {
        let index = build(&open("sakila/sakila.db"), &SAMPLE);
        assert_eq!(
            shown(&index, "How many Horror films are in English?"),
            [
                "language.name has 'English             '",
                "category.name has 'Horror'"
            ]
        );
        let Coverage::Full(scanned) = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert!(scanned.unreadable.is_empty());
        // Views are not read; titles are too many, descriptions too long, years numbers.
        let columns = columns_of(&index);
        for left_out in [
            "film.title",
            "film.description",
            "film.release_year",
            "customer.email",
            "film_list.category",
        ] {
            assert!(
                !columns.contains(&left_out.to_string()),
                "{left_out}: {columns:?}"
            );
        }
        assert!(columns.contains(&"film.rating".to_string()), "{columns:?}");
    }

    #[test]
    fn a_value_shared_by_two_columns_gives_a_hit_for_each() {
        let index = build(&open("northwind/northwind.db"), &SAMPLE);
        assert_eq!(
            shown(
                &index,
                "Which suppliers in Germany ship to customers in Germany?"
            ),
            // Smaller tables first, where the values are alike.
            [
                "Suppliers.Country has 'Germany'",
                "Customers.Country has 'Germany'",
                "Orders.ShipCountry has 'Germany'"
            ]
        );
        assert_eq!(
            shown(&index, "orders shipped by speedy express"),
            ["Shippers.CompanyName has 'Speedy Express'"]
        );
    }

    #[test]
    fn tokyo_is_found_in_english_and_in_japanese() {
        let english = build(&open("shop/shop.db"), &SAMPLE);
        assert_eq!(
            shown(&english, "How many customers are in Tokyo?"),
            ["customers.prefecture has 'Tokyo'"]
        );
        let japanese = build(&open("shop_ja/shop_ja.db"), &SAMPLE);
        assert_eq!(
            shown(&japanese, "東京都の顧客は何人？"),
            ["customers.prefecture has '東京都'"]
        );
    }

    #[test]
    fn only_short_text_values_of_columns_with_few_of_them_are_indexed() {
        let (_file, db) = TempFile::made_by(
            "rules",
            "CREATE TABLE t (kind TEXT, long_text TEXT, many TEXT, level INTEGER, \
                 digits TEXT, loose, loose_numbers, picture BLOB, label STRING); \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) \
             INSERT INTO t SELECT CASE i % 2 WHEN 0 THEN 'Alpha' ELSE 'Beta' END, \
                 CASE i WHEN 7 THEN 'Gamma ' || printf('%.60c', 'x') ELSE 'Gamma' END, \
                 'Item ' || i, CASE i % 2 WHEN 0 THEN 'Low' ELSE 'High' END, \
                 CAST(i % 3 AS TEXT), CASE i % 2 WHEN 0 THEN 'Red' ELSE 'Blue' END, \
                 i % 2, CAST('Pink' AS BLOB), 'Lime' FROM n; \
             CREATE VIEW v AS SELECT kind AS shade FROM t;",
        );
        let index = build(&db, &SAMPLE);
        assert_eq!(columns_of(&index), ["t.kind", "t.loose", "t.label"]);
        assert_eq!(
            shown(&index, "alpha or red lime, gamma high item 7 pink"),
            [
                "t.kind has 'Alpha'",
                "t.label has 'Lime'",
                "t.loose has 'Red'"
            ]
        );
    }

    #[test]
    fn a_table_that_cannot_be_read_is_left_out_and_said() {
        let db = open("shop/shop.db");
        let mut schema = schema_of(&db);
        // Read first (it looks the smallest), so that the build is seen to go on after it.
        let mut gone = Table::of_text_columns("gone", TableKind::Table, &["name"]);
        gone.row_count = Some(crate::engine::RowCount::Exact(0));
        schema.tables.push(gone);
        let index = block_on(build_index(
            &db,
            &schema,
            &SAMPLE,
            &Bounds::default(),
            &Ticking::still(),
        ));
        let Coverage::Full(scanned) = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(scanned.unreadable.len(), 1, "{scanned:?}");
        assert_eq!(scanned.unreadable[0].table, "gone");
        assert!(
            scanned.unreadable[0].why.starts_with("SQLite error"),
            "{scanned:?}"
        );
        assert_eq!(
            shown(&index, "customers in Tokyo"),
            ["customers.prefecture has 'Tokyo'"]
        );
    }

    #[test]
    fn sampled_tables_are_named_in_the_coverage() {
        let index = build(
            &open("sakila/sakila.db"),
            &IndexPlan::Sample {
                rows_per_table: 500,
            },
        );
        let Coverage::Sampled {
            rows_per_table: 500,
            sampled,
            ..
        } = index.coverage()
        else {
            panic!("{:?}", index.coverage());
        };
        for big in ["address", "city", "customer", "film"] {
            assert!(sampled.contains(&big.to_string()), "{big}: {sampled:?}");
        }
        assert!(!sampled.contains(&"category".to_string()));
    }

    #[test]
    fn the_time_bound_stops_the_build_and_says_where() {
        let db = open("sakila/sakila.db");
        let bounds = Bounds {
            time_ms: 6.0,
            ..Bounds::default()
        };
        // One millisecond a query: the sixth does not start.
        let index = build_with(&db, &SAMPLE, &bounds, &Ticking::by(1.0));
        let Coverage::CutShort {
            by,
            at,
            left,
            before,
        } = index.coverage()
        else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(*by, Cut::Time { ms: 6.0 });
        assert!(*left > 0);
        let Coverage::Full(read) = before.as_ref() else {
            panic!("{before:?}");
        };
        assert!(read.tables > 0 && !index.is_empty());
        // Nothing of the table it stopped at, nor after it.
        assert!(index.columns().iter().all(|(t, _)| t != at), "{at}");
        let whole = build(&db, &SAMPLE);
        assert!(whole.len() > index.len());
    }

    #[test]
    fn the_byte_bound_stops_the_build_and_says_where() {
        let db = open("sakila/sakila.db");
        let whole = build(&db, &SAMPLE);
        let bounds = Bounds {
            bytes: whole.bytes() / 2,
            ..Bounds::default()
        };
        let index = build_with(&db, &SAMPLE, &bounds, &Ticking::still());
        let Coverage::CutShort { by, at, .. } = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(
            *by,
            Cut::IndexBytes {
                bytes: bounds.bytes
            }
        );
        assert!(index.bytes() <= bounds.bytes && index.bytes() > 0);
        assert!(!columns_of(&index).contains(at), "{at}");
        assert!(at.contains('.'), "a table and its column: {at}");
    }

    #[test]
    fn indexed_only_without_statistics_is_skipped_with_why() {
        let index = build(
            &open("sakila/sakila.db"),
            &IndexPlan::IndexedOnly {
                byte_budget: 1_000_000,
            },
        );
        assert!(index.is_empty());
        assert_eq!(index.coverage(), &Coverage::Skipped(NO_STATISTICS.into()));
    }

    #[test]
    fn indexed_only_seeks_the_indexed_columns_with_few_values() {
        let (_file, db) = TempFile::analyzed("mondial/mondial.db", "seeks");
        let plan = IndexPlan::IndexedOnly {
            byte_budget: 100_000_000,
        };
        let index = build(&db, &plan);
        assert_eq!(
            shown(&index, "Which Buddhist countries are in Europe?"),
            [
                "Religion.Name has 'Buddhist'",
                "Continent.Name has 'Europe'"
            ]
        );
        let Coverage::IndexedOnly {
            seeks,
            bytes_read: None,
            scanned,
        } = index.coverage()
        else {
            panic!("{:?}", index.coverage());
        };
        // Each column sought once per value, and once more to find the end: the five continents
        // in six seeks.
        let continents: Vec<ValueHit> = index
            .hits("Africa, America, Asia, Australia/Oceania, Europe", 10)
            .into_iter()
            .filter(|hit| hit.table == "Continent")
            .collect();
        assert_eq!(continents.len(), 5, "{continents:?}");
        let columns = columns_of(&index);
        assert!(*seeks as usize >= index.len() + columns.len(), "{seeks}");
        assert_eq!(scanned.columns, columns.len());
        // Not even sought: thousands of cities by the statistics.
        let leading = block_on(query(&db, LEADING_COLUMNS_SQL, &QueryLimits::default())).unwrap();
        let sought: Vec<String> = seekable_columns(&schema_of(&db), &leading)
            .into_iter()
            .map(|s| format!("{}.{}", s.table, s.column))
            .collect();
        assert!(sought.contains(&"Religion.Name".to_string()), "{sought:?}");
        assert!(!sought.contains(&"City.Name".to_string()), "{sought:?}");
        assert!(!columns.contains(&"City.Name".to_string()), "{columns:?}");

        // A seek reads the index, not the table.
        let seek = seek_sql(&Seekable {
            table: "Religion".into(),
            column: "Name".into(),
            collation: "BINARY",
        });
        let plan: String = db
            .connection()
            .prepare(&format!("EXPLAIN QUERY PLAN {seek}"))
            .unwrap()
            .query_map(["x"], |row| row.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(plan.contains("USING COVERING INDEX"), "{plan}");
        assert!(plan.contains("Name>?"), "{plan}");
    }

    #[test]
    fn an_indexed_column_with_more_values_than_its_statistics_say_is_left_out() {
        // Statistics that put 300 names at 100 (out of date, or written by hand).
        let (_file, db) = TempFile::made_by(
            "stale",
            "CREATE TABLE people (name TEXT, team TEXT); \
             CREATE INDEX people_name ON people (name); \
             CREATE INDEX people_team ON people (team); \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) \
             INSERT INTO people SELECT 'Person ' || i, 'Team ' || (i % 3) FROM n; \
             ANALYZE; \
             UPDATE sqlite_stat1 SET stat = '300 3' WHERE idx = 'people_name';",
        );
        let index = build(
            &db,
            &IndexPlan::IndexedOnly {
                byte_budget: u64::MAX,
            },
        );
        assert_eq!(columns_of(&index), ["people.team"]);
        let Coverage::IndexedOnly { seeks, .. } = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        // Team: three values and the end; name: one more than the limit, then given up.
        assert_eq!(*seeks, 4 + MAX_DISTINCT as u64 + 1);
    }

    /// A database that reports `bytes` read by each query, as one read on demand does.
    struct Reporting {
        db: RusqliteDb,
        bytes: u64,
    }

    impl Database for Reporting {
        async fn run(
            &self,
            sql: &ReadOnlySql,
            values: &[Value],
            limits: &QueryLimits,
        ) -> Result<QueryResult, DbError> {
            let mut result = self.db.run(sql, values, limits).await?;
            result.reads = Some(ReadStats {
                bytes: self.bytes,
                requests: 1,
                waited_ms: None,
            });
            Ok(result)
        }
    }

    #[test]
    fn indexed_only_stops_at_its_read_budget() {
        let (_file, db) = TempFile::analyzed("mondial/mondial.db", "budget");
        let reporting = Reporting { db, bytes: 1_000 };
        let plan = IndexPlan::IndexedOnly {
            byte_budget: 20_000,
        };
        let index = build(&reporting, &plan);
        let Coverage::CutShort { by, at, before, .. } = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(*by, Cut::ReadBytes { bytes: 20_000 });
        assert!(at.contains('.'), "{at}");
        let Coverage::IndexedOnly {
            seeks,
            bytes_read: Some(20_000),
            ..
        } = before.as_ref()
        else {
            panic!("{before:?}");
        };
        // Two queries find the statistics; each seek reads 1 KB.
        assert_eq!(*seeks, 18);

        // Without reports, the same budget is counted in seeks of 4 KB.
        let Reporting { db, .. } = reporting;
        let plan = IndexPlan::IndexedOnly {
            byte_budget: 10 * ASSUMED_BYTES_PER_SEEK,
        };
        let index = build(&db, &plan);
        let Coverage::CutShort { by, before, .. } = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(*by, Cut::Seeks { seeks: 10 });
        assert!(matches!(
            before.as_ref(),
            Coverage::IndexedOnly { seeks: 10, .. }
        ));
    }

    #[test]
    fn a_plan_to_skip_is_said() {
        let index = build(
            &open("shop/shop.db"),
            &IndexPlan::Skip("a Datasette server".into()),
        );
        assert!(index.is_empty());
        assert_eq!(
            index.coverage(),
            &Coverage::Skipped("a Datasette server".into())
        );
    }
}
