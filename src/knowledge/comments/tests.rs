use super::*;

fn notes(kind: ObjectKind, name: &str, sql: &str) -> Vec<(Option<String>, String)> {
    let entry = CatalogueEntry {
        kind,
        name: name.into(),
        table: name.into(),
        sql: Some(sql.into()),
    };
    from_catalogue(&[entry])
        .into_iter()
        .map(|note| {
            assert_eq!(note.table, name);
            assert_eq!(note.source, Source::Schema);
            (note.column, note.text)
        })
        .collect()
}

fn table(sql: &str) -> Vec<(Option<String>, String)> {
    notes(ObjectKind::Table, "orders", sql)
}

fn note(column: Option<&str>, text: &str) -> (Option<String>, String) {
    (column.map(str::to_string), text.to_string())
}

#[test]
fn trailing_comments_before_or_after_the_comma_note_their_column() {
    let found = table(
        "CREATE TABLE orders ( -- one row per order
            id INTEGER PRIMARY KEY,
            amount INTEGER -- in cents,
            , quantity INTEGER, /* units */
            customer_id INTEGER REFERENCES customers(id) -- the buyer
        )",
    );
    assert_eq!(
        found,
        [
            note(None, "one row per order"),
            note(Some("amount"), "in cents,"),
            note(Some("quantity"), "units"),
            note(Some("customer_id"), "the buyer"),
        ]
    );
}

#[test]
fn a_comment_on_its_own_line_notes_the_column_below_it() {
    let found = table(
        "CREATE TABLE orders (
            -- the table
            id INTEGER PRIMARY KEY,
            /*
             * the buyer;
             * JOIN customers
             */
            customer_id INTEGER,
            status TEXT
                -- 'open' or 'paid'
        )",
    );
    assert_eq!(
        found,
        [
            note(None, "the table"),
            note(Some("customer_id"), "the buyer; JOIN customers"),
            note(Some("status"), "'open' or 'paid'"),
        ]
    );
}

#[test]
fn comments_in_the_head_and_tail_note_the_table_and_constraints_note_nothing() {
    let found = table(
        "CREATE TABLE IF NOT EXISTS orders /* the head */ (
            id INTEGER, -- the id
            PRIMARY KEY (id) -- about the key
        ) /* the tail */ WITHOUT ROWID",
    );
    assert_eq!(
        found,
        [note(None, "the head the tail"), note(Some("id"), "the id"),]
    );
}

#[test]
fn comment_like_text_in_strings_and_names_is_no_comment() {
    let found = table(
        "CREATE TABLE orders (
            \"a -- b\" TEXT DEFAULT '-- not a note /* */',
            c TEXT CHECK (c <> '/*') -- real
        )",
    );
    assert_eq!(found, [note(Some("c"), "real")]);
}

#[test]
fn odd_names_map_to_the_column_as_sqlite_names_it() {
    let found = notes(
        ObjectKind::Table,
        "Order Details",
        "CREATE TABLE [Order Details](
           [OrderID]INTEGER NOT NULL, -- the order
           \"Unit \"\"Price\"\"\" NUMERIC NOT NULL DEFAULT 0, -- in dollars
           `sänger_id` INT, -- 歌手
           顧客 TEXT, -- 顧客の名前
            PRIMARY KEY (\"OrderID\",\"ProductID\"),
            CHECK ([Discount]>=(0) AND [Discount]<=(1))
        )",
    );
    assert_eq!(
        found,
        [
            note(Some("OrderID"), "the order"),
            note(Some("Unit \"Price\""), "in dollars"),
            note(Some("sänger_id"), "歌手"),
            note(Some("顧客"), "顧客の名前"),
        ]
    );
}

#[test]
fn empty_comments_and_rulers_make_no_note_and_a_minus_sign_stays() {
    let found = table(
        "CREATE TABLE orders (
            -- ----------------
            a INTEGER, --
            b INTEGER, /**/
            c INTEGER -- -1 means unknown
        )",
    );
    assert_eq!(found, [note(Some("c"), "-1 means unknown")]);
}

#[test]
fn a_view_has_notes_on_itself_and_on_its_plain_output_columns() {
    let found = notes(
        ObjectKind::View,
        "buyers",
        "CREATE VIEW buyers AS
         -- customers with at least one order
         SELECT DISTINCT c.name, -- as registered
                count(o.id) AS orders, -- all time
                c.prefecture place, -- may be NULL
                o.quantity * 2 -- no name: no note
         FROM customers c JOIN orders o ON o.customer_id = c.id -- not a note
         GROUP BY c.id",
    );
    assert_eq!(
        found,
        [
            note(None, "customers with at least one order"),
            note(Some("name"), "as registered"),
            note(Some("orders"), "all time"),
            note(Some("place"), "may be NULL"),
        ]
    );
}

#[test]
fn a_view_with_a_column_list_and_a_with_clause_names_by_position() {
    let found = notes(
        ObjectKind::View,
        "totals",
        "CREATE VIEW totals (who, total) -- per customer
         AS WITH t AS (SELECT 1 /* inside */) SELECT customer_id, -- the buyer
                  sum(quantity) -- units
         FROM orders GROUP BY 1",
    );
    assert_eq!(
        found,
        [
            note(None, "per customer inside"),
            note(Some("who"), "the buyer"),
            note(Some("total"), "units"),
        ]
    );
}

#[test]
fn knowledge_tables_indexes_and_unreadable_text_make_no_notes() {
    let entry = |kind, name: &str, sql: &str| CatalogueEntry {
        kind,
        name: name.into(),
        table: name.into(),
        sql: Some(sql.into()),
    };
    let catalogue = [
        entry(
            ObjectKind::Table,
            "askdb_notes",
            "CREATE TABLE askdb_notes (note TEXT -- x\n)",
        ),
        entry(ObjectKind::Index, "i", "CREATE INDEX i ON t (a) -- x"),
        entry(ObjectKind::Table, "t", "CREATE TABLE t (a -- x\n, b '"),
        entry(
            ObjectKind::Table,
            "s",
            "CREATE TABLE s AS SELECT 1 AS a -- the a",
        ),
        CatalogueEntry {
            sql: None,
            ..entry(ObjectKind::Table, "u", "")
        },
    ];
    assert_eq!(from_catalogue(&catalogue), Vec::new());
}

#[test]
fn a_table_made_from_a_select_keeps_its_head_comment() {
    assert_eq!(
        table("CREATE TABLE orders -- a copy\n AS SELECT 1 AS a -- not read"),
        [note(None, "a copy")]
    );
}
