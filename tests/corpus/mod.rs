//! A generated corpus of SQL texts for judging the guard against SQLite: known tricks, random
//! mutations of real and hostile queries, and statements generated token by token from
//! SQLite's grammar, with hostile tokens and odd whitespace mixed in. The same seed gives the
//! same texts, natively (`tests/guard_oracle.rs`, rusqlite) and in the browser
//! (`tests/web_worker.rs`, sql.js).
//!
//! Names come from the demo database (`shop.db`: customers, products, orders), so that many
//! generated statements reach SQLite's execution, not only its parser.
#![allow(dead_code)] // each test binary uses its own part of this module

/// The seed the test suite uses, natively and in the browser.
pub const DEFAULT_SEED: u64 = 0xA5DB_5EED;

/// A small, fixed-seed random source (SplitMix64). A crate would add a dependency to two test
/// binaries for twelve lines of arithmetic whose output must never change between versions.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// [`Rng::pick`] for lists of texts, giving the text itself.
    pub fn pick_str(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }
}

/// Texts written by hand to hit each known way of reading SQL differently from SQLite. Every
/// one must be refused, or be exactly what SQLite runs.
pub const TRICKS: &[&str] = &[
    // Parameter tokens whose `(…)` suffix holds a quote or a comment opener.
    "SELECT $a(') ; DELETE FROM orders; SELECT (')",
    "SELECT $a(--) ; DELETE FROM orders",
    "SELECT $a(/*) ; DELETE FROM orders --*/)",
    "SELECT 1 FROM orders WHERE id = $x(') OR load_extension('y') --')",
    "SELECT @a::b(') ; DELETE FROM orders",
    "SELECT :a(\") ; DROP TABLE orders ; SELECT (\")",
    "SELECT #a(') ; DELETE FROM orders",
    "SELECT ?1; DELETE FROM orders",
    // Whitespace only SQLite knows.
    "SELECT \u{FEFF}load_extension('x')",
    "SELECT 1;\u{FEFF}DELETE FROM orders",
    "\u{FEFF}DELETE FROM orders",
    "SELECT \u{FEFF}fts3_tokenizer('simple')",
    "SELECT 1 \x0b; DELETE FROM orders",
    "SELECT\x0bload_extension('x')",
    "SELECT 1\0; DELETE FROM orders",
    "SELECT '\0'; DELETE FROM orders",
    // Pragma functions that are not reads.
    "SELECT * FROM pragma_optimize",
    "SELECT * FROM pragma_optimize(0x10002)",
    "SELECT * FROM pragma_user_version(7)",
    "SELECT * FROM pragma_journal_mode('off')",
    "SELECT * FROM pragma_wal_checkpoint",
    "SELECT * FROM pragma_integrity_check",
    "SELECT * FROM \"pragma_application_id\"(9)",
    "SELECT * FROM [pragma_schema_version](3)",
    "SELECT * FROM main.pragma_optimize",
    "SELECT * FROM pragma_table_info('orders')",
    "SELECT * FROM pragma_index_list('orders')",
    "SELECT * FROM pragma_foreign_key_list('orders') JOIN pragma_table_xinfo('orders')",
    // Quoting, comments and statement ends.
    "SELECT 'a'';DELETE FROM orders;--'",
    "SELECT \"a\"\";DELETE FROM orders;--\" FROM orders",
    "SELECT [a;DELETE FROM orders] FROM orders",
    "SELECT `a``;DELETE FROM orders` FROM orders",
    "SELECT 1 /* ; DELETE FROM orders */",
    "SELECT 1 -- ; \n; DELETE FROM orders",
    "SELECT 1 /* unterminated ; DELETE FROM orders",
    "SELECT X'41' ; DELETE FROM orders",
    "SELECT x'4' ; DELETE FROM orders",
    "SELECT 1e ; DELETE FROM orders",
    "SELECT 0x ; DELETE FROM orders",
    "SELECT 1_000, 1__0, 0x_1, 1._5",
    "SELECT 1 AS \"x\" FROM orders WHERE 1 = 1;;;",
    "SELECT 1 FROM orders WINDOW w AS (ORDER BY id)",
    "SELECT 'x' -> '$.a', 'y' ->> '$'",
    // Prefixes and nesting.
    "EXPLAIN SELECT 1",
    "EXPLAIN QUERY PLAN SELECT * FROM orders",
    "EXPLAIN EXPLAIN SELECT 1",
    "EXPLAIN DELETE FROM orders",
    "WITH x AS (SELECT 1) DELETE FROM orders",
    "WITH x AS (DELETE FROM orders) SELECT 1",
    "WITH x AS (SELECT 1) WITH y AS (SELECT 2) SELECT 3",
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n LIMIT 5",
    "VALUES (1), (2); DELETE FROM orders",
    "SELECT * FROM orders RETURNING *",
    "SELECT 1 UNION SELECT load_extension('x')",
    "SELECT \"load_extension\"('x')",
    "SELECT [load_extension]('x')",
    "SELECT `load_extension` ('x')",
    "SELECT main.load_extension('x')",
    "SELECT load_extension\u{FEFF}('x')",
    // Every function the oracle's judge says acts outside the query (tests/judge), called
    // plainly: each must be refused by name.
    "SELECT fts3_tokenizer('simple')",
    "SELECT readfile('/etc/passwd')",
    "SELECT writefile('x.txt', 'y')",
    "SELECT edit('x')",
    "SELECT eval('DELETE FROM orders')",
    "SELECT fileio_read('x')",
    "SELECT fileio_write('x', 'y')",
    "SELECT * FROM fsdir('.')",
    "SELECT name FROM zipfile('x.zip')",
    "SELECT * FROM fileio_ls('.')",
    "SELECT sqlite_compileoption_used('ENABLE_FTS5'), sqlite_version(), changes()",
    "SELECT * FROM json_each('[1,2]') JOIN json_tree('{\"a\":1}')",
    "SELECT * FROM generate_series(1, 5)",
    "SELECT * FROM sqlite_schema",
    "SELECT * FROM sqlite_dbpage",
    "SELECT * FROM dbstat",
    "SELECT randomblob(4), zeroblob(4), unlikely(1), likelihood(1, 0.5)",
    "SELECT printf('%s', name) FROM customers",
];

/// Valid queries on the demo database, written as a person or a model would.
pub const QUERIES: &[&str] = &[
    "SELECT * FROM customers",
    "SELECT name, prefecture FROM customers WHERE prefecture = 'Tokyo' ORDER BY name",
    "SELECT prefecture, COUNT(*) AS n FROM customers GROUP BY prefecture HAVING n > 1",
    "SELECT c.name, SUM(o.quantity * p.price) AS total FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id GROUP BY c.id ORDER BY total DESC LIMIT 5",
    "SELECT category, AVG(price) FROM products GROUP BY category",
    "SELECT strftime('%Y-%m', ordered_at) AS month, COUNT(*) FROM orders GROUP BY month",
    "WITH t AS (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) SELECT AVG(n) FROM t",
    "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)",
    "SELECT name FROM products WHERE price BETWEEN 100 AND 1000 AND category IN ('Books', 'Games')",
    "SELECT COUNT(DISTINCT customer_id) FROM orders WHERE ordered_at >= '2024-01-01'",
    "SELECT CASE WHEN price > 1000 THEN 'high' ELSE 'low' END AS band, COUNT(*) FROM products GROUP BY band",
    "SELECT name, ROW_NUMBER() OVER (PARTITION BY category ORDER BY price DESC) FROM products",
    "SELECT * FROM orders WHERE customer_id IS NULL",
    "SELECT name || ' (' || prefecture || ')' FROM customers LIMIT 3 OFFSET 1",
    "SELECT EXISTS (SELECT 1 FROM orders WHERE quantity > 10)",
    "SELECT name FROM customers WHERE name LIKE 'A%' ESCAPE '\\' COLLATE NOCASE",
    "VALUES (1, 'a'), (2, 'b')",
    "EXPLAIN QUERY PLAN SELECT * FROM orders WHERE id = 3",
    "SELECT typeof(joined_at), date(joined_at, '+1 month') FROM customers",
    "SELECT p.name FROM products AS p LEFT JOIN orders AS o ON o.product_id = p.id WHERE o.id IS NULL",
    "SELECT * FROM pragma_table_info('orders')",
    "SELECT total(quantity), group_concat(id, ';') FROM orders",
];

/// Pieces inserted at random places: each one a way to make two readers disagree.
const FRAGMENTS: &[&str] = &[
    "'",
    "\"",
    "`",
    "[",
    "]",
    "--",
    "/*",
    "*/",
    ";",
    "\n",
    "(",
    ")",
    "$a(",
    "$a('",
    "$a(--)",
    "$a(/*)",
    ":x",
    "@y",
    "#z",
    "?",
    "?1",
    " = ?1",
    "?2",
    "?01",
    "::",
    "\u{FEFF}",
    "\u{A0}",
    "\u{2028}",
    "\x0b",
    " \x0b",
    "\x0c",
    "\r",
    "\t",
    "\0",
    "x'",
    "X'00'",
    "0x",
    "1e",
    ".",
    "_",
    "\\",
    "!",
    "{",
    "''",
    "\"\"",
    "; DELETE FROM orders",
    " DELETE FROM orders ",
    "; DROP TABLE customers --",
    " load_extension('x') ",
    " pragma_optimize ",
    " pragma_user_version(7) ",
    " pragma_table_info('orders') ",
    " (SELECT 1) ",
    " WITH a AS (SELECT 1) ",
    "EXPLAIN ",
    " CREATE TABLE z(a) ",
    " ATTACH 'x' AS y ",
    " INSERT INTO orders(id) VALUES(999) ",
    " RETURNING * ",
    " || ",
    " ->> ",
    " UNION SELECT ",
    " 顧客 ",
    " sänger ",
    "/*;*/",
    "--;\n",
    "';'",
    "\";\"",
];

/// The demo database's tables and columns, which the grammar draws names from.
const SCHEMA: &[(&str, &[&str])] = &[
    ("customers", &["id", "name", "prefecture", "joined_at"]),
    ("products", &["id", "name", "category", "price"]),
    (
        "orders",
        &["id", "customer_id", "product_id", "quantity", "ordered_at"],
    ),
];
/// Functions with the number of arguments they take (the forbidden ones included: the guard
/// must refuse them wherever the grammar puts them).
const FUNCTIONS: &[(&str, usize)] = &[
    ("count", 1),
    ("sum", 1),
    ("avg", 1),
    ("max", 1),
    ("abs", 1),
    ("length", 1),
    ("lower", 1),
    ("upper", 1),
    ("substr", 2),
    ("coalesce", 2),
    ("ifnull", 2),
    ("typeof", 1),
    ("date", 1),
    ("round", 1),
    ("group_concat", 1),
    ("total", 1),
    ("instr", 2),
    ("replace", 3),
    ("load_extension", 1),
    ("fts3_tokenizer", 1),
    ("readfile", 1),
    ("LOAD_EXTENSION", 1),
    ("\"load_extension\"", 1),
    ("[load_extension]", 1),
];
const LITERALS: &[&str] = &[
    "1",
    "0",
    "-3",
    "2.5",
    ".5",
    "1e3",
    "0x1F",
    "1_000",
    "NULL",
    "'Tokyo'",
    "'O''Brien'",
    "'東京都'",
    "X'CAFE'",
    "CURRENT_DATE",
    "'2024-01-01'",
    "''",
    "'--'",
    "'/*'",
    "';'",
];
const OPERATORS: &[&str] = &[
    "=", "==", "!=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "||", "AND", "OR", "IS",
    "IS NOT", "LIKE", "GLOB", "&", "|", "<<", ">>", "->", "->>",
];
/// What goes between two generated tokens: mostly a space, sometimes what only SQLite knows.
const TRIVIA: &[&str] = &[
    " ",
    " ",
    " ",
    " ",
    " ",
    " ",
    "\n",
    "\t",
    " /* c */ ",
    " -- c\n",
    " \u{FEFF}",
    " \x0b",
    "\r\n",
    "\x0c",
    "/**/",
];

/// The kinds of text the corpus mixes, in turn.
#[derive(Clone, Copy, Debug)]
pub enum Source {
    Trick,
    Mutation,
    Grammar,
}

/// An endless, reproducible stream of SQL texts.
pub struct Corpus {
    rng: Rng,
    seeds: Vec<String>,
    count: usize,
}

impl Corpus {
    /// `extra_seeds` are further real queries to mutate (e.g. gold queries of other datasets).
    pub fn new(seed: u64, extra_seeds: &[String]) -> Corpus {
        let mut seeds: Vec<String> = TRICKS
            .iter()
            .chain(QUERIES)
            .map(|s| s.to_string())
            .collect();
        seeds.extend(extra_seeds.iter().cloned());
        Corpus {
            rng: Rng::new(seed),
            seeds,
            count: 0,
        }
    }

    /// The next text and where it came from: every trick once, then mutations and generated
    /// statements, one to two.
    pub fn next_text(&mut self) -> (Source, String) {
        self.count += 1;
        if let Some(trick) = TRICKS.get(self.count - 1) {
            return (Source::Trick, trick.to_string());
        }
        if self.count.is_multiple_of(3) {
            (Source::Mutation, self.mutation())
        } else {
            (Source::Grammar, self.generated())
        }
    }

    /// A seed with one to four random edits.
    fn mutation(&mut self) -> String {
        let mut text = self.rng.pick(&self.seeds).clone();
        for _ in 0..=self.rng.below(4) {
            let at = self.boundary(&text);
            match self.rng.below(6) {
                0 | 1 => text.insert_str(at, self.rng.pick_str(FRAGMENTS)),
                2 => {
                    let end = self.boundary_after(&text, at);
                    text.replace_range(at..end, "");
                }
                3 => {
                    let end = self.boundary_after(&text, at);
                    let copy = text[at..end].to_string();
                    text.insert_str(end, &copy);
                }
                4 => {
                    // Splice: this text's start with another seed's end.
                    let other = self.rng.pick(&self.seeds).clone();
                    let from = self.boundary(&other);
                    text = format!("{}{}", &text[..at], &other[from..]);
                }
                _ => {
                    let wrapper = *self.rng.pick(&[
                        "EXPLAIN ",
                        "EXPLAIN QUERY PLAN ",
                        "WITH w AS (SELECT 1) ",
                        "SELECT * FROM (",
                    ]);
                    text = format!(
                        "{wrapper}{text}{}",
                        if wrapper.ends_with('(') { ")" } else { "" }
                    );
                }
            }
        }
        text
    }

    /// A random character boundary in `text`.
    fn boundary(&mut self, text: &str) -> usize {
        let mut at = self.rng.below(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    /// A character boundary a few bytes after `at`.
    fn boundary_after(&mut self, text: &str, at: usize) -> usize {
        let mut end = (at + 1 + self.rng.below(12)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        end
    }

    /// A statement generated from SQLite's grammar, its tokens joined by random trivia, with a
    /// hostile token now and then.
    fn generated(&mut self) -> String {
        let mut out = Vec::new();
        match self.rng.below(10) {
            0 => out.push("EXPLAIN".to_string()),
            1 => out.extend(["EXPLAIN", "QUERY", "PLAN"].map(String::from)),
            2 => {
                out.extend(["WITH", "c", "AS", "("].map(String::from));
                self.select(&mut out, 2);
                out.push(")".into());
            }
            _ => {}
        }
        if self.rng.chance(8) {
            out.extend(["VALUES", "("].map(String::from));
            self.expression(&mut out, &Scope::default(), 2);
            out.push(")".into());
        } else {
            self.select(&mut out, 2);
        }
        if self.rng.chance(10) {
            out.push(";".into());
        }
        // One hostile piece in a third of the statements, at a token boundary.
        let hostile_at = self.rng.chance(33).then(|| self.rng.below(out.len()));
        let mut text = String::new();
        for (i, token) in out.iter().enumerate() {
            if !text.is_empty() {
                text.push_str(self.rng.pick_str(TRIVIA));
            }
            if hostile_at == Some(i) {
                text.push_str(self.rng.pick_str(FRAGMENTS));
            }
            text.push_str(token);
        }
        text
    }

    fn select(&mut self, out: &mut Vec<String>, depth: usize) {
        self.select_columns(out, depth, 3);
    }

    /// A `SELECT` of one column, for scalar subqueries and `IN (…)`.
    fn select_one(&mut self, out: &mut Vec<String>, depth: usize) {
        self.select_columns(out, depth, 1);
    }

    fn select_columns(&mut self, out: &mut Vec<String>, depth: usize, most: usize) {
        let mut from = Vec::new();
        let scope = self.write_from(&mut from, depth);
        out.push("SELECT".into());
        if self.rng.chance(15) {
            out.push("DISTINCT".into());
        }
        for i in 0..=self.rng.below(most) {
            if i > 0 {
                out.push(",".into());
            }
            if most > 1 && !scope.tables.is_empty() && self.rng.chance(10) {
                out.push("*".into());
            } else {
                self.expression(out, &scope, depth);
                if self.rng.chance(20) {
                    out.extend(["AS".to_string(), format!("a{i}")]);
                }
            }
        }
        out.extend(from);
        if self.rng.chance(50) {
            out.push("WHERE".into());
            self.expression(out, &scope, depth);
        }
        if self.rng.chance(20) {
            out.extend(["GROUP", "BY"].map(String::from));
            self.column(out, &scope);
            if self.rng.chance(30) {
                out.push("HAVING".into());
                self.expression(out, &scope, depth);
            }
        }
        if self.rng.chance(15) && depth > 0 {
            out.push(
                self.rng
                    .pick(&["UNION", "UNION ALL", "EXCEPT", "INTERSECT"])
                    .to_string(),
            );
            self.select_columns(out, depth - 1, most);
            return;
        }
        if self.rng.chance(25) {
            out.extend(["ORDER", "BY"].map(String::from));
            self.expression(out, &scope, depth.saturating_sub(1));
            out.push(self.rng.pick(&["ASC", "DESC", "NULLS LAST"]).to_string());
        }
        if self.rng.chance(25) {
            out.extend(["LIMIT".to_string(), self.rng.below(20).to_string()]);
        }
    }

    /// `FROM …` (or nothing) into `out`; the names it brings into scope.
    fn write_from(&mut self, out: &mut Vec<String>, depth: usize) -> Scope {
        let mut scope = Scope::default();
        if self.rng.chance(10) {
            return scope;
        }
        out.push("FROM".into());
        self.table(out, &mut scope, depth, None);
        if self.rng.chance(30) {
            out.push(
                self.rng
                    .pick(&["JOIN", "LEFT JOIN", ",", "CROSS JOIN"])
                    .to_string(),
            );
            self.table(out, &mut scope, depth, Some("u"));
            if self.rng.chance(70) && out.last().is_some_and(|t| t != ",") {
                out.push("ON".into());
                self.expression(out, &scope, depth.saturating_sub(1));
            }
        }
        scope
    }

    fn table(
        &mut self,
        out: &mut Vec<String>,
        scope: &mut Scope,
        depth: usize,
        alias: Option<&str>,
    ) {
        let alias = alias
            .map(String::from)
            .or_else(|| self.rng.chance(40).then(|| "t".to_string()));
        match self.rng.below(12) {
            0 if depth > 0 => {
                out.push("(".into());
                self.select(out, depth - 1);
                out.push(")".into());
                scope.tables.push((alias.clone(), &["a0"]));
            }
            1 => {
                let (function, columns): (&str, &'static [&'static str]) = *self.rng.pick(&[
                    ("pragma_table_info('orders')", &["name", "type", "pk"][..]),
                    ("pragma_index_list('orders')", &["name", "seq"][..]),
                    ("pragma_foreign_key_list('orders')", &["table", "from"][..]),
                    ("pragma_optimize", &["optimize"][..]),
                    ("pragma_user_version(3)", &["user_version"][..]),
                    ("json_each('[1,2,3]')", &["key", "value"][..]),
                    ("generate_series(1,3)", &["value"][..]),
                ]);
                out.push(function.to_string());
                scope.tables.push((alias.clone(), columns));
            }
            _ => {
                let (name, columns) = *self.rng.pick(SCHEMA);
                out.push(self.quoted(name));
                scope.tables.push((alias.clone(), columns));
            }
        }
        if let Some(alias) = alias {
            out.push(alias);
        }
    }

    /// A column of a table in scope, qualified when the scope has an alias for it.
    fn column(&mut self, out: &mut Vec<String>, scope: &Scope) {
        if scope.tables.is_empty() {
            out.push(self.rng.pick(LITERALS).to_string());
            return;
        }
        let (alias, columns) = self.rng.pick(&scope.tables).clone();
        let column = *self.rng.pick(columns);
        let column = self.quoted(column);
        match alias {
            Some(alias) if scope.tables.len() > 1 || self.rng.chance(50) => {
                out.extend([alias, ".".to_string(), column]);
            }
            _ => out.push(column),
        }
    }

    /// `name` as written bare or in one of SQLite's four quotings.
    fn quoted(&mut self, name: &str) -> String {
        match self.rng.below(8) {
            0 => format!("\"{name}\""),
            1 => format!("[{name}]"),
            2 => format!("`{name}`"),
            3 => name.to_uppercase(),
            _ => name.to_string(),
        }
    }

    fn expression(&mut self, out: &mut Vec<String>, scope: &Scope, depth: usize) {
        let choice = if depth == 0 {
            self.rng.below(3)
        } else {
            self.rng.below(10)
        };
        match choice {
            0 => out.push(self.rng.pick(LITERALS).to_string()),
            1 | 2 => self.column(out, scope),
            3 | 4 => {
                self.expression(out, scope, depth - 1);
                out.push(self.rng.pick(OPERATORS).to_string());
                self.expression(out, scope, depth - 1);
            }
            5 => {
                let (name, arity) = *self.rng.pick(FUNCTIONS);
                out.extend([name.to_string(), "(".to_string()]);
                for i in 0..arity {
                    if i > 0 {
                        out.push(",".into());
                    }
                    self.expression(out, scope, depth - 1);
                }
                out.push(")".into());
            }
            6 => {
                out.push("(".into());
                self.select_one(out, depth - 1);
                out.push(")".into());
            }
            7 => {
                out.extend(["CASE", "WHEN"].map(String::from));
                self.expression(out, scope, depth - 1);
                out.push("THEN".into());
                self.expression(out, scope, depth - 1);
                out.push("END".into());
            }
            8 => {
                self.expression(out, scope, depth - 1);
                out.push(self.rng.pick(&["IN", "NOT IN"]).to_string());
                out.push("(".into());
                if self.rng.chance(50) {
                    self.select_one(out, depth - 1);
                } else {
                    out.extend([
                        self.rng.pick(LITERALS).to_string(),
                        ",".to_string(),
                        self.rng.pick(LITERALS).to_string(),
                    ]);
                }
                out.push(")".into());
            }
            _ => {
                out.push("(".into());
                self.expression(out, scope, depth - 1);
                out.push(")".into());
            }
        }
    }
}

/// The tables a generated `SELECT` reads: each one's alias (if any) and columns.
#[derive(Clone, Default)]
struct Scope {
    tables: Vec<(Option<String>, &'static [&'static str])>,
}

/// A text as one line of a regression file: a JSON string, so that control characters, NULs
/// and byte order marks survive.
pub fn to_line(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// The texts of a regression file (one JSON string a line; blank lines and `#` lines skipped).
pub fn from_lines(file: &str) -> Vec<String> {
    file.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Deeply nested texts of every shape the guard's, tidy's and the analysis's walks meet: each
/// at `levels` levels, and again at as many levels as fit under the guard's length cap (so
/// that the nesting itself, not only the length, is what gets refused).
pub fn deep_texts(levels: usize) -> Vec<String> {
    let cap = askdb::sql::guard::MAX_SQL_BYTES;
    let shapes: [(&str, &str, &str, &str); 9] = [
        // (before, repeated opening, middle, repeated closing)
        ("", "EXPLAIN ", "SELECT 1", ""),
        ("", "EXPLAIN QUERY PLAN ", "SELECT 1", ""),
        ("", "WITH x AS (SELECT 1) ", "SELECT 1", ""),
        ("", "WITH x AS (", "SELECT 1", ") SELECT 1"),
        ("SELECT ", "(", "1", ")"),
        ("SELECT ", "(SELECT ", "1", ")"),
        ("SELECT * FROM ", "(SELECT * FROM ", "orders", ")"),
        ("SELECT ", "CASE WHEN 1 THEN ", "1", " END"),
        ("", "```\n", "SELECT 1", "\n```"),
    ];
    let mut texts = Vec::new();
    for (before, open, middle, close) in shapes {
        let fitting = (cap - before.len() - middle.len()) / (open.len() + close.len());
        for n in [levels, fitting.min(levels)] {
            texts.push(format!(
                "{before}{}{middle}{}",
                open.repeat(n),
                close.repeat(n)
            ));
        }
    }
    texts
}

/// Every question the lints ask of a query, for tests that only care that it does not fall
/// over (no panic, no stack overflow).
pub fn analyse(sql: &str) {
    let query = askdb::sql::analysis::Query::read(sql);
    let _ = query.tables();
    let _ = query.literal_comparisons();
    let _ = query.not_in_subqueries();
    let _ = query.null_comparisons();
    let _ = query.integer_divisions(&|_, _| true);
    let _ = query.has_order_by();
}
