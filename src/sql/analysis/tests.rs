//! The analysis on SQL as LLMs write it, and on SQL that is cut off or garbage.

use super::*;

fn table(name: &str, alias: Option<&str>) -> TableRef {
    TableRef {
        name: name.into(),
        alias: alias.map(Into::into),
    }
}

fn column(qualifier: Option<&str>, name: &str) -> ColumnRef {
    ColumnRef {
        qualifier: qualifier.map(Into::into),
        name: name.into(),
    }
}

fn text(s: &str) -> Literal {
    Literal::Text(s.into())
}

/// Each comparison as `qualifier.column op literals`, for compact assertions.
fn compared(sql: &str) -> Vec<(String, ComparisonOp, bool, Vec<Literal>)> {
    Query::read(sql)
        .literal_comparisons()
        .into_iter()
        .map(|c| {
            let name = match c.column.qualifier {
                Some(q) => format!("{q}.{}", c.column.name),
                None => c.column.name,
            };
            (name, c.op, c.negated, c.literals)
        })
        .collect()
}

#[test]
fn a_qualified_comparison_and_its_scope() {
    let found = Query::read("SELECT name FROM customers c WHERE c.prefecture = '東京都'")
        .literal_comparisons();
    assert_eq!(
        found,
        vec![LiteralComparison {
            column: column(Some("c"), "prefecture"),
            op: ComparisonOp::Equals,
            negated: false,
            literals: vec![text("東京都")],
            scope: vec![table("customers", Some("c"))].into(),
        }]
    );
}

#[test]
fn every_kind_of_comparison() {
    use ComparisonOp::*;
    let sql = "SELECT * FROM products p JOIN \"Order Details\" AS od ON od.product_id = p.id \
               WHERE category IN ('家電', 'furniture') AND p.price >= 1000 AND 5 < stock \
               AND name NOT LIKE '%son' AND \"unit price\" BETWEEN 1.5 AND 2 \
               AND sku GLOB 'A*' AND [kind] != 'x' AND code <> -3 AND flag IS NOT 'y' \
               AND brand IS 'z' AND grade NOT IN (1, 2) AND id NOT BETWEEN 3 AND 4 \
               AND note == 'n' COLLATE NOCASE AND label LIKE 'a!%' ESCAPE '!' \
               AND od.qty IS NOT NULL AND od.qty = od.min_qty";
    assert_eq!(
        compared(sql),
        vec![
            (
                "category".into(),
                In,
                false,
                vec![text("家電"), text("furniture")]
            ),
            (
                "p.price".into(),
                Ordering(Order::GreaterOrEqual),
                false,
                vec![Literal::Integer(1000)]
            ),
            (
                "stock".into(),
                Ordering(Order::Greater),
                false,
                vec![Literal::Integer(5)]
            ),
            ("name".into(), Like, true, vec![text("%son")]),
            (
                "unit price".into(),
                Between,
                false,
                vec![Literal::Real(1.5), Literal::Integer(2)]
            ),
            ("sku".into(), Glob, false, vec![text("A*")]),
            ("kind".into(), NotEquals, false, vec![text("x")]),
            ("code".into(), NotEquals, false, vec![Literal::Integer(-3)]),
            ("flag".into(), NotEquals, false, vec![text("y")]),
            ("brand".into(), Equals, false, vec![text("z")]),
            (
                "grade".into(),
                In,
                true,
                vec![Literal::Integer(1), Literal::Integer(2)]
            ),
            (
                "id".into(),
                Between,
                true,
                vec![Literal::Integer(3), Literal::Integer(4)]
            ),
            ("note".into(), Equals, false, vec![text("n")]),
            ("label".into(), Like, false, vec![text("a!%")]),
        ]
    );
    let scope = Query::read(sql).literal_comparisons()[0].scope.to_vec();
    assert_eq!(
        scope,
        vec![
            table("products", Some("p")),
            table("Order Details", Some("od"))
        ]
    );
}

#[test]
fn expressions_are_not_mistaken_for_columns() {
    for sql in [
        "SELECT * FROM t WHERE a + b = 5",
        "SELECT * FROM t WHERE a = 5 + b",
        "SELECT * FROM t WHERE lower(name) = 'x'",
        "SELECT * FROM t WHERE a = 'x' || b",
        "SELECT * FROM t WHERE a = b",
        "SELECT * FROM t WHERE a IN (1, b)",
        "SELECT * FROM t WHERE a IN (SELECT b FROM u)",
        "SELECT * FROM t WHERE CASE WHEN x THEN 1 END = 1",
        "SELECT * FROM t WHERE x BETWEEN 1 AND y = 5",
        "SELECT * FROM t WHERE x IS NULL AND y IS NOT NULL",
        "SELECT * FROM t WHERE 'a' = 'a'",
        "SELECT * FROM t WHERE a.b.c.d = 1",
    ] {
        assert_eq!(compared(sql), vec![], "{sql}");
    }
}

#[test]
fn subqueries_and_ctes_have_their_own_scope() {
    let sql = "WITH recent AS (SELECT * FROM orders o WHERE o.ordered_at >= '2024-01-01') \
               SELECT c.name FROM customers c JOIN recent r ON r.customer_id = c.id \
               WHERE c.region = 'north' AND EXISTS (SELECT 1 FROM returns x \
               WHERE x.order_id = r.id AND x.reason = 'broken') \
               UNION SELECT name FROM suppliers WHERE city = 'Kyoto'";
    let found = Query::read(sql).literal_comparisons();
    let scopes: Vec<(String, Vec<TableRef>)> = found
        .iter()
        .map(|c| (c.column.name.clone(), c.scope.to_vec()))
        .collect();
    let outer = vec![table("customers", Some("c")), table("recent", Some("r"))];
    let mut inner = vec![table("returns", Some("x"))];
    inner.extend(outer.clone());
    assert_eq!(
        scopes,
        vec![
            ("ordered_at".into(), vec![table("orders", Some("o"))]),
            ("region".into(), outer),
            ("reason".into(), inner),
            ("city".into(), vec![table("suppliers", None)]),
        ]
    );
    assert_eq!(
        Query::read(sql).tables(),
        vec![
            table("orders", Some("o")),
            table("customers", Some("c")),
            table("returns", Some("x")),
            table("suppliers", None),
        ]
    );
}

#[test]
fn tables_in_reads_every_from_and_join() {
    let sql = "SELECT * FROM main.orders AS o, customers \
               LEFT OUTER JOIN (SELECT id FROM products p) AS sub ON sub.id = o.product_id \
               NATURAL JOIN \"Order Details\" CROSS JOIN pragma_table_info('orders') AS info \
               JOIN (shops s JOIN staff USING (shop_id)) ON s.id = o.shop_id \
               WHERE o.id NOT IN (SELECT order_id FROM [returns]) \
               AND 1 IS NOT DISTINCT FROM 1";
    assert_eq!(
        Query::read(sql).tables(),
        vec![
            table("orders", Some("o")),
            table("customers", None),
            table("products", Some("p")),
            table("Order Details", None),
            table("shops", Some("s")),
            table("staff", None),
            table("returns", None),
        ]
    );
    assert_eq!(Query::read("SELECT 1").tables(), vec![]);
    assert_eq!(
        Query::read("SELECT * FROM sänger JOIN 顧客 k").tables(),
        vec![table("sänger", None), table("顧客", Some("k"))]
    );
}

#[test]
fn not_in_over_a_subquery() {
    let found =
        Query::read("SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)")
            .not_in_subqueries();
    assert_eq!(
        found,
        vec![NotInSubquery {
            column: column(None, "id"),
            subquery_column: Some(column(None, "customer_id")),
            subquery_tables: vec![table("orders", None)],
        }]
    );
    let found = Query::read(
        "SELECT * FROM t WHERE t.a NOT IN (SELECT DISTINCT o.b AS x FROM o JOIN p ON 1) \
         AND c NOT IN (SELECT max(d) FROM e) AND f NOT IN (1, 2) AND g IN (SELECT h FROM i)",
    )
    .not_in_subqueries();
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].column, column(Some("t"), "a"));
    assert_eq!(found[0].subquery_column, Some(column(Some("o"), "b")));
    assert_eq!(
        found[0].subquery_tables,
        vec![table("o", None), table("p", None)]
    );
    assert_eq!(found[1].subquery_column, None);
}

#[test]
fn comparisons_with_null_as_written() {
    assert_eq!(
        Query::read(
            "SELECT * FROM t WHERE c.email = NULL OR phone<>NULL OR NULL != fax \
             OR a + b = NULL OR x IS NULL OR y IS NOT NULL"
        )
        .null_comparisons(),
        vec!["c.email = NULL", "phone<>NULL", "NULL != fax", "= NULL"]
    );
}

#[test]
fn integer_divisions_are_found_when_both_sides_are_integers() {
    let integer_columns = |c: &ColumnRef, scope: &[TableRef]| {
        assert!(!scope.is_empty() || c.name == "n");
        ["quantity", "n", "qty"].contains(&c.name.as_str())
    };
    let divisions = |sql: &str| Query::read(sql).integer_divisions(&integer_columns);
    assert_eq!(
        divisions("SELECT SUM(quantity)/COUNT(*) FROM orders"),
        vec!["SUM(quantity)/COUNT(*)"]
    );
    assert_eq!(divisions("SELECT 1 / 2"), vec!["1 / 2"]);
    assert_eq!(
        divisions("SELECT o.qty * 100 / (SELECT 1) , -quantity / 3 FROM orders o"),
        vec!["-quantity / 3"]
    );
    assert_eq!(
        divisions("SELECT SUM(DISTINCT quantity) / count(id) * 1.0 FROM orders"),
        vec!["SUM(DISTINCT quantity) / count(id)"]
    );
    for sql in [
        "SELECT SUM(quantity) * 1.0 / COUNT(*) FROM orders",
        "SELECT 1.0 * SUM(quantity) / COUNT(*) FROM orders",
        "SELECT CAST(SUM(quantity) AS REAL) / COUNT(*) FROM orders",
        "SELECT AVG(quantity) / 2 FROM orders",
        "SELECT TOTAL(quantity) / COUNT(*) FROM orders",
        "SELECT SUM(price) / COUNT(*) FROM orders",
        "SELECT quantity / 2.0 FROM orders",
        "SELECT a - quantity / price FROM orders",
    ] {
        assert_eq!(divisions(sql), Vec::<String>::new(), "{sql}");
    }
    assert_eq!(
        divisions("SELECT CAST(price AS INTEGER) / (quantity + 1) FROM orders"),
        vec!["CAST(price AS INTEGER) / (quantity + 1)"]
    );
}

#[test]
fn order_by_only_counts_at_the_top_level() {
    assert!(Query::read("SELECT a FROM t ORDER BY a").has_order_by());
    assert!(Query::read("select a from t order\n by 1 limit 3").has_order_by());
    assert!(!Query::read("SELECT * FROM (SELECT a FROM t ORDER BY a)").has_order_by());
    assert!(!Query::read("SELECT 'ORDER BY' FROM t").has_order_by());
}

#[test]
fn never_panics_on_prefixes_or_garbage() {
    let queries = [
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 5) \
         SELECT c.name, SUM(o.qty) / COUNT(*) FROM customers c JOIN orders o ON o.cid = c.id \
         WHERE c.region IN ('a', 'b') AND o.id NOT IN (SELECT oid FROM returns) \
         AND o.at BETWEEN '2024-01-01' AND '2024-12-31' AND c.email = NULL \
         GROUP BY 1 HAVING COUNT(*) > 2 ORDER BY 2 DESC LIMIT 5",
        "SELECT (((a))) = -1, x NOT LIKE 'y' ESCAPE 'z', \"q\".\"r\" IS NOT 'x' FROM [t] t \
         WHERE EXISTS (SELECT * FROM (VALUES (1), (2)) v WHERE v.column1 / 2 = 1)",
        "SELECT 'ü', 顧客.名前 FROM 顧客 WHERE 名前 LIKE '%田%' /* c */ -- end",
    ];
    let any_column = |_: &ColumnRef, _: &[TableRef]| true;
    let run_all = |sql: &str| {
        let query = Query::read(sql);
        query.tables();
        query.literal_comparisons();
        query.not_in_subqueries();
        query.null_comparisons();
        query.integer_divisions(&any_column);
        query.has_order_by();
        date_shape(sql);
    };
    for query in queries {
        for (end, _) in query.char_indices() {
            run_all(&query[..end]);
            run_all(&query[end..]);
        }
    }
    // Random token soup, from a fixed seed so that a failure can be replayed.
    let pieces = [
        "(", ")", ",", ";", ".", "=", "/", "-", "*", "NOT", "IN", "IS", "BETWEEN", "AND", "LIKE",
        "ESCAPE", "COLLATE", "SELECT", "FROM", "JOIN", "ON", "WITH", "AS", "x", "t", "'s'", "1",
        "2.5", "NULL", "VALUES", "COUNT", "SUM", "CAST", "DISTINCT", "\"q\"",
    ];
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..3_000 {
        let mut sql = String::new();
        for _ in 0..(seed % 24) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            sql.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            sql.push(' ');
        }
        run_all(&sql);
    }
}
