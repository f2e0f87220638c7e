// Test only (tests/web_guard.rs): a *writable* sql.js database in a worker of the test's own,
// so that the guard is the only wall between a text and the bytes, as in tests/guard_oracle.rs.
// The page's worker (www/worker.js) has no way to open a database writable for queries; this
// file is never served with the page. It runs as a blob: worker whose first line imports
// sql-wasm.js from the built page (see tests/web_guard.rs).
//
// Messages in:  {type: "open", base, bytes}  base: the built page's address (sql-wasm.wasm)
//               {type: "judge", sql, maxRows}
// Messages out: {ok: value} | {error: message}
"use strict";

let sqlReady = null;
let db = null;

// What a statement could change besides the main file's bytes: rows (SQLite's own count),
// attached databases and the temp schema.
function state() {
  const [row] = db.exec(
    "SELECT total_changes(), (SELECT count(*) FROM pragma_database_list), " +
      "(SELECT count(*) FROM temp.sqlite_schema)",
  )[0].values;
  return row.map(Number);
}

// Prepares the first statement of `sql` as the page's worker does (sql.js prepares one, SQLite
// leaves the rest as its tail), steps up to maxRows rows, and reports what happened.
function judge(sql, maxRows) {
  const before = state();
  const statements = db.iterateStatements(sql);
  const verdict = { prepared: false, tail: "", rows: 0, ending: "refused", error: null };
  try {
    const first = statements.next();
    if (!first.done) {
      verdict.prepared = true;
      verdict.tail = statements.getRemainingSQL();
      verdict.ending = "rowCap";
      try {
        while (verdict.rows < maxRows) {
          if (!first.value.step()) {
            verdict.ending = "done";
            break;
          }
          verdict.rows += 1;
        }
      } catch (e) {
        verdict.ending = "failed";
        verdict.error = String((e && e.message) || e);
      }
    }
  } catch (e) {
    verdict.error = String((e && e.message) || e);
  } finally {
    statements.return();
  }
  verdict.before = before;
  verdict.after = state();
  verdict.bytes = db.export();
  return verdict;
}

async function handle(message) {
  switch (message.type) {
    case "open": {
      sqlReady =
        sqlReady || initSqlJs({ locateFile: (file) => new URL(file, message.base).href });
      const SQL = await sqlReady;
      if (db) db.close();
      db = new SQL.Database(message.bytes);
      return db.export();
    }
    case "judge":
      return judge(message.sql, message.maxRows);
    default:
      throw new Error("unknown request: " + message.type);
  }
}

self.onmessage = async (event) => {
  try {
    self.postMessage({ ok: await handle(event.data) });
  } catch (e) {
    self.postMessage({ error: String((e && e.message) || e) });
  }
};
