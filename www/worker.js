// askdb's SQLite engine: sql.js in a Web Worker, so the page thread never runs SQL.
//
// A thin shim. Every rule about what may run lives in Rust (src/sql/guard.rs); this file only
// keeps the connection read-only (PRAGMA query_only=1), steps rows and reports them.
// The page stops a runaway query by terminating this worker (sql.js has no interrupt).
//
// Messages in:  {id, type: "init", base}    always first; base: absolute URL of worker.js, with
//                                           rows.js, sql-wasm.js and sql-wasm.wasm beside it
//               {id, type: "open", bytes}   bytes: Uint8Array of a whole database file
//               {id, type: "run", sql, params, maxRows, countBudgetMs}
//                                           params: the values of ?1 ?2 … (the guard checked
//                                           that the statement takes exactly these)
//               {id, type: "export"}
//               {id, type: "derive", bytes, script}  applies script to a writable copy of bytes
//                                           (not the open database) and answers the copy's bytes
//               {id, type: "crash"}        (tests: fails as an abort inside sql.js would)
// Messages out: {id, ok: result} | {id, error: message} | {id, crashed: message}
//               | {id, tooLarge: limitBytes} | {id, unavailable: message}
//               ("crashed": the wasm module aborted and this worker must be replaced;
//                "unavailable": sql.js did not load, so this worker can run nothing;
//                "tooLarge": the rows to send would pass MAX_RESULT_BYTES)
"use strict";

let sqlReady = null; // Promise of the sql.js module, started by "init"
let db = null; // the open SQL.Database

// A failure (sql-wasm.js or sql-wasm.wasm missing) is kept in the promise, so every later
// request reports it instead of retrying from a wrong place. `base` comes from the page because
// a worker built from a blob: URL (tests) cannot find the files from its own address.
function loadSqlJs(base) {
  return Promise.resolve().then(() => {
    // rows.js: how rows are collected (the limits), shared with lazy-worker.js.
    importScripts(new URL("rows.js", base).href, new URL("sql-wasm.js", base).href);
    return initSqlJs({ locateFile: (file) => new URL(file, base).href });
  });
}

function openDatabase(SQL, bytes) {
  const next = new SQL.Database(bytes);
  try {
    next.exec("PRAGMA query_only=1");
    // sql.js opens lazily: read the schema once so that "file is not a database" shows now.
    next.exec("SELECT count(*) FROM sqlite_schema");
  } catch (e) {
    next.close();
    throw e;
  }
  // Only a database that opened replaces the one that was open.
  if (db) db.close();
  db = next;
  return null;
}

class SqlJsUnavailable extends Error {}

// Integers come back as BigInt (exact, and told apart from reals); the page turns them into i64.
function run(sql, params, maxRows, countBudgetMs) {
  if (!db) throw new Error("no database is open");
  const started = Date.now();
  const statement = db.prepare(sql);
  try {
    // Bound by SQLite: a value is never part of the statement's text.
    if (params && params.length > 0) statement.bind(params);
    const columns = statement.getColumnNames();
    const collected = collectRows(
      () => statement.step(),
      () => statement.get(null, { useBigInt: true }),
      maxRows,
      countBudgetMs,
      started,
    );
    return { columns, ...collected };
  } finally {
    statement.free();
  }
}

function exportDatabase() {
  if (!db) throw new Error("no database is open");
  const bytes = db.export();
  // sql.js 1.17 exports through SQLite's backup API, but older versions closed and reopened
  // the connection inside export(): stay read-only whatever the version does.
  db.exec("PRAGMA query_only=1");
  return bytes;
}

// The copy the agent gets when the person hides tables or columns: the script (written in Rust,
// src/engine/hidden) runs on a database of its own, which is closed and freed before answering.
function derive(SQL, bytes, script) {
  const copy = new SQL.Database(bytes);
  try {
    copy.exec(script);
    return copy.export();
  } finally {
    copy.close();
  }
}

// An abort inside the wasm module (out of memory, a trap) leaves sql.js unusable.
function isFatal(e) {
  return (
    (typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError) ||
    (e && typeof e.message === "string" && e.message.startsWith("Aborted("))
  );
}

async function handle(message) {
  if (message.type === "init") {
    sqlReady = loadSqlJs(message.base);
  }
  let SQL;
  try {
    SQL = await sqlReady;
  } catch (e) {
    // Without sql.js this worker can do nothing: say so, rather than blame the file.
    const why = e && e.message ? e.message : String(e);
    throw new SqlJsUnavailable(`sql.js (rows.js, sql-wasm.js, sql-wasm.wasm beside worker.js) did not load: ${why}`);
  }
  switch (message.type) {
    case "init":
      return null;
    case "open":
      return openDatabase(SQL, message.bytes);
    case "run":
      return run(message.sql, message.params, message.maxRows, message.countBudgetMs);
    case "export":
      return exportDatabase();
    case "derive":
      return derive(SQL, message.bytes, message.script);
    case "crash":
      // For tests (WorkerDatabase::simulate_crash): fail the way an abort inside sql.js does.
      throw new WebAssembly.RuntimeError("Aborted(a crash asked for by a test)");
    default:
      throw new Error("unknown request: " + message.type);
  }
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    const ok = await handle(message);
    self.postMessage({ id: message.id, ok });
  } catch (e) {
    const text = e && e.message ? e.message : String(e);
    // ResultTooLarge comes with rows.js, which may be what failed to load.
    if (typeof ResultTooLarge !== "undefined" && e instanceof ResultTooLarge) {
      self.postMessage({ id: message.id, tooLarge: MAX_RESULT_BYTES });
    } else if (e instanceof SqlJsUnavailable) {
      self.postMessage({ id: message.id, unavailable: text });
    } else if (isFatal(e)) {
      self.postMessage({ id: message.id, crashed: text });
    } else {
      self.postMessage({ id: message.id, error: text });
    }
  }
};
