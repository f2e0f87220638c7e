// askdb's SQLite engine: sql.js in a Web Worker, so the page thread never runs SQL.
//
// A thin shim. Every rule about what may run lives in Rust (src/sql/guard.rs); this file only
// keeps the connection read-only (PRAGMA query_only=1), steps rows and reports them.
// The page stops a runaway query by terminating this worker (sql.js has no interrupt).
//
// Messages in:  {id, type: "init", base}    always first; base: absolute URL of worker.js, with
//                                           sql-wasm.js and sql-wasm.wasm beside it (loaded at
//                                           the first request that needs SQLite)
//               {id, type: "open", source, handBack}  source: a Blob (a File) of a whole
//                                           database file, read here; with handBack the bytes
//                                           read are answered (moved, not copied) once open
//               {id, type: "run", sql, params, maxRows, countBudgetMs}
//                                           params: the values of ?1 ?2 … (the guard checked
//                                           that the statement takes exactly these)
//               {id, type: "export"}
//               {id, type: "derive", source, script}  applies script to a writable copy of the
//                                           Blob's bytes (not the open database) and answers
//                                           the copy's bytes
//               {id, type: "digest", bytes}  the SHA-256 of an ArrayBuffer, as hex (no SQLite)
//               {id, type: "crash"}        (tests: fails as an abort inside sql.js would)
// Bytes answered (export, derive, open with handBack) are moved to the page, not copied.
// Messages out: {id, ok: result} | {id, error: message} | {id, crashed: message}
//               | {id, tooLarge: limitBytes} | {id, unavailable: message}
//               | {id, unreadable: message}  (the file could not be read: "open", "derive")
//               ("crashed": the wasm module aborted and this worker must be replaced;
//                "unavailable": sql.js did not load, so this worker can run nothing;
//                "tooLarge": the rows to send would pass MAX_RESULT_BYTES)
"use strict";

let base = null; // where sql.js is, from "init"
let sqlReady = null; // Promise of the sql.js module, started by the first request that needs it
let db = null; // the open SQL.Database

// A failure (sql-wasm.js or sql-wasm.wasm missing) is kept in the promise, so every later
// request reports it instead of retrying from a wrong place. `base` comes from the page because
// a worker built from a blob: URL (tests) cannot find the files from its own address.
function loadSqlJs(base) {
  return Promise.resolve().then(() => {
    importScripts(new URL("sql-wasm.js", base).href);
    return initSqlJs({ locateFile: (file) => new URL(file, base).href });
  });
}

// sql.js copies the bytes into its own file system: the buffer read is free again afterwards.
async function openDatabase(SQL, read, handBack) {
  const bytes = new Uint8Array(await read);
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
  return handBack ? bytes.buffer : null;
}

// The page copies every kept value into its own memory: a result larger than this is refused
// here, in the worker, so that one huge value (SELECT zeroblob(999999999)) cannot take the page
// down with it.
const MAX_RESULT_BYTES = 64 * 1024 * 1024;

class ResultTooLarge extends Error {}
class SqlJsUnavailable extends Error {}
class Unreadable extends Error {}

// Reads a Blob (a File) whole. A failure is the file's or the browser's, never SQLite's: a
// file that changed or went away since it was chosen, or one too large for this tab's memory.
async function readWhole(source) {
  try {
    return await source.arrayBuffer();
  } catch (e) {
    const why = e && e.message ? e.message : String(e);
    if (e instanceof RangeError) {
      const gb = (source.size / 1e9).toFixed(1);
      throw new Unreadable(`the file (${gb} GB) is too large to be read into this tab's memory (${why})`);
    }
    throw new Unreadable(`it changed or went away since it was chosen, or the browser may not read it (${why})`);
  }
}

function approximateSize(row) {
  let size = 0;
  for (const value of row) {
    if (typeof value === "string") size += value.length * 2;
    else if (value instanceof Uint8Array) size += value.byteLength;
    else size += 8;
  }
  return size;
}

// Integers come back as BigInt (exact, and told apart from reals); the page turns them into i64.
function run(sql, params, maxRows, countBudgetMs) {
  if (!db) throw new Error("no database is open");
  const started = Date.now();
  const statement = db.prepare(sql);
  try {
    // Bound by SQLite: a value is never part of the statement's text.
    if (params && params.length > 0) statement.bind(params);
    const columns = statement.getColumnNames();
    const rows = [];
    let total = 0;
    let totalExact = true;
    let size = 0;
    while (true) {
      // Past the kept rows, count on only while the budget lasts; then report "more than".
      if (rows.length >= maxRows && Date.now() - started > countBudgetMs) {
        totalExact = false;
        break;
      }
      if (!statement.step()) break;
      total += 1;
      if (rows.length < maxRows) {
        const row = statement.get(null, { useBigInt: true });
        size += approximateSize(row);
        if (size > MAX_RESULT_BYTES) throw new ResultTooLarge();
        rows.push(row);
      }
    }
    return { columns, rows, truncated: total > rows.length, total, totalExact };
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
async function derive(SQL, source, script) {
  const copy = new SQL.Database(new Uint8Array(await readWhole(source)));
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

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function handle(message) {
  if (message.type === "init") {
    base = message.base;
    return null;
  }
  if (message.type === "digest") return sha256Hex(message.bytes);
  // The file is read while sql.js loads.
  const read = message.type === "open" ? readWhole(message.source) : null;
  // Seen as soon as it fails, even while sql.js loads (the failure is kept in `read`).
  read?.catch(() => {});
  let SQL;
  try {
    sqlReady ??= loadSqlJs(base);
    SQL = await sqlReady;
  } catch (e) {
    // Without sql.js this worker can do nothing: say so, rather than blame the file.
    const why = e && e.message ? e.message : String(e);
    throw new SqlJsUnavailable(`sql.js (sql-wasm.js, sql-wasm.wasm beside worker.js) did not load: ${why}`);
  }
  switch (message.type) {
    case "open":
      return openDatabase(SQL, read, message.handBack);
    case "run":
      return run(message.sql, message.params, message.maxRows, message.countBudgetMs);
    case "export":
      return exportDatabase();
    case "derive":
      return derive(SQL, message.source, message.script);
    case "crash":
      // For tests (WorkerDatabase::simulate_crash): fail the way an abort inside sql.js does.
      throw new WebAssembly.RuntimeError("Aborted(a crash asked for by a test)");
    default:
      throw new Error("unknown request: " + message.type);
  }
}

// What of an answer is moved to the page rather than copied: the bytes of a file.
function movable(value) {
  if (value instanceof ArrayBuffer) return [value];
  if (value instanceof Uint8Array && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength) {
    return [value.buffer];
  }
  return [];
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    const ok = await handle(message);
    self.postMessage({ id: message.id, ok }, movable(ok));
  } catch (e) {
    const text = e && e.message ? e.message : String(e);
    if (e instanceof ResultTooLarge) {
      self.postMessage({ id: message.id, tooLarge: MAX_RESULT_BYTES });
    } else if (e instanceof SqlJsUnavailable) {
      self.postMessage({ id: message.id, unavailable: text });
    } else if (e instanceof Unreadable) {
      self.postMessage({ id: message.id, unreadable: text });
    } else if (isFatal(e)) {
      self.postMessage({ id: message.id, crashed: text });
    } else {
      self.postMessage({ id: message.id, error: text });
    }
  }
};
