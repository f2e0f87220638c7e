// askdb's SQLite engine: sql.js in a Web Worker, so the page thread never runs SQL.
//
// A thin shim. Every rule about what may run lives in Rust (src/sql/guard.rs); this file only
// keeps the connection read-only (PRAGMA query_only=1), steps rows and reports them.
// The page stops a runaway query by terminating this worker (sql.js has no interrupt).
//
// Messages in:  {id, type: "init", base}    always first; base: absolute URL of worker.js, with
//                                           rows.js, sql-wasm.js and sql-wasm.wasm beside it (loaded at
//                                           the first request that needs SQLite)
//               {id, type: "open", source, oneReadBytes}
//                                           source: a Blob (a File) of a whole database file,
//                                           read here (into this worker's memory only): in one
//                                           call up to oneReadBytes, else in parts, with progress
//               {id, type: "run", sql, params, maxRows, countBudgetMs}
//                                           params: the values of ?1 ?2 … (the guard checked
//                                           that the statement takes exactly these)
//               {id, type: "warm"}         loads sql.js and works it a little (warmUp), so
//                                           that the next request need not wait for either
//               {id, type: "export"}
//               {id, type: "derive", source, script}  applies script to a writable copy of the
//                                           Blob's bytes (not the open database) and answers
//                                           the copy's bytes
//               {id, type: "digest", source}  the SHA-256 of a Blob's bytes, as hex (no SQLite)
//               {id, type: "crash"}        (tests: fails as an abort inside sql.js would)
// Bytes answered (export, derive) are moved to the page, not copied.
// Messages out: {id, ok: result} | {id, error: message} | {id, crashed: message}
//               | {id, tooLarge: limitBytes} | {id, unavailable: message}
//               | {id, error: message, kind: "unreadable"}  (the file could not be read:
//                                           "open", "derive", "digest")
//               | {id, progress: fraction}  (while "open" reads the file; not an answer)
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
    // rows.js: how rows are collected (the limits), shared with lazy-worker.js.
    importScripts(new URL("rows.js", base).href, new URL("sql-wasm.js", base).href);
    return initSqlJs({ locateFile: (file) => new URL(file, base).href });
  });
}

async function openDatabase(SQL, read) {
  const bytes = await read;
  const next = new SQL.Database(new Owned(bytes.buffer));
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
class Unreadable extends Error {}

// Up to this size (unless the page says another, "open"'s oneReadBytes: a test's, through
// WorkerDatabase::read_in_parts_above) a file is read in one call, the browser's quickest way
// (305 MB: 0.41-0.43 s, against 0.55-0.81 s in the stream's chunks; docs/benchmarks.md), which
// says nothing of its progress: it takes about a second at most. A larger one is read in
// chunks, with progress.
const ONE_READ_BYTES = 512 * 1024 * 1024;

// Reads a Blob (a File) whole into one buffer, saying how far it got (`progress(fraction)`,
// now and then, for a file over `oneReadBytes`). A failure is the file's or the browser's,
// never SQLite's: a file that changed or went away since it was chosen, or one too large for
// this tab's memory.
async function readWhole(source, progress, oneReadBytes = ONE_READ_BYTES) {
  if (source.size <= oneReadBytes) return readInOneCall(source);
  let bytes;
  try {
    bytes = new Uint8Array(source.size);
  } catch (e) {
    const gb = (source.size / 1e9).toFixed(1);
    throw new Unreadable(`the file (${gb} GB) is too large to be read into this tab's memory (${e && e.message ? e.message : e})`);
  }
  try {
    const reader = source.stream().getReader();
    let done = 0;
    let said = 0;
    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      if (done + step.value.length > bytes.length) throw new Error("the file grew while it was read");
      bytes.set(step.value, done);
      done += step.value.length;
      if (progress && done - said >= bytes.length / 50) {
        said = done;
        progress(done / bytes.length);
      }
    }
    if (done !== bytes.length) throw new Error("the file shrank while it was read");
  } catch (e) {
    throw changedOrUnreadable(e);
  }
  return bytes;
}

function changedOrUnreadable(e) {
  const why = e && e.message ? e.message : String(e);
  return new Unreadable(`it changed or went away since it was chosen, or the browser may not read it (${why})`);
}

async function readInOneCall(source) {
  let buffer;
  try {
    buffer = await source.arrayBuffer();
  } catch (e) {
    throw changedOrUnreadable(e);
  }
  if (buffer.byteLength !== source.size) {
    throw new Unreadable("it changed or went away since it was chosen (it is not the size it was)");
  }
  return new Uint8Array(buffer);
}

// The bytes of a file handed to sql.js without a copy. sql.js 1.17 writes a new database's bytes
// into its in-memory file system with `bytes.slice(0, length)`, a copy of the whole file (as
// long again as reading it); a buffer read for this alone needs none, so that slice hands back
// the buffer itself. Any other slice is an ordinary one. The connection is read-only
// (query_only), so SQLite never writes to these bytes; a copy being derived may, and the buffer
// is its own.
class Owned extends Uint8Array {
  slice(start, end) {
    if (start === 0 && end === this.length) return this;
    return super.slice(start, end);
  }
}

// Integers come back as BigInt (exact, and told apart from reals); the page turns them into i64.
function run(sql, params, maxRows, countBudgetMs) {
  if (!db) throw new Error("no database is open");
  const started = Date.now();
  const startedPrecise = performance.now();
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
    // SQLite's own time (with stepping and keeping the rows), for the benchmark's account of
    // where a query's time goes.
    const sqlMs = performance.now() - startedPrecise;
    return { columns, ...collected, sqlMs };
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
  const copy = new SQL.Database(new Owned((await readWhole(source)).buffer));
  try {
    copy.exec(script);
    return copy.export();
  } finally {
    copy.close();
  }
}

// Works SQLite's own code a little on a scratch database, in steps that let other messages in
// between (an "open" reads its file meanwhile), so that the browser has compiled its hot paths
// to optimized code before the first real query; it stops once a database is open (whose own
// queries then do the same). Without it the first queries run on the
// browser's first, quick compilation: a full scan whose one step runs the whole scan stays
// there to its end (measured in Chromium on 105 MB: a full scan's first run 460-670 ms cold,
// 210 ms after this; an indexed join's 85-166 ms cold, 24-42 ms after). About 0.2 s of one
// core, spent while the person chooses a file.
async function warmUp(SQL) {
  const scratch = new SQL.Database();
  try {
    scratch.exec(`CREATE TABLE t(a INTEGER PRIMARY KEY, b INTEGER, c TEXT);
      WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 20000)
      INSERT INTO t SELECT i, i % 97, 'x' || i FROM r;
      CREATE INDEX t_b ON t(b);`);
    const work = [
      "SELECT b, count(*), sum(a) FROM t GROUP BY b ORDER BY 3 DESC",
      "SELECT count(*), sum(y.a) FROM t x JOIN t y ON y.b = x.b WHERE x.a BETWEEN 100 AND 160",
      "SELECT count(*) FROM t WHERE c LIKE 'x1%'",
    ];
    for (let round = 0; round < 3; round++) {
      for (const sql of work) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (db) return;
        scratch.exec(sql);
      }
    }
  } finally {
    scratch.close();
  }
}

// An abort inside the wasm module (out of memory, a trap) leaves sql.js unusable.
function isFatal(e) {
  return (
    (typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError) ||
    (e && typeof e.message === "string" && e.message.startsWith("Aborted("))
  );
}

// The browser's digest holds this worker's thread while it runs (seconds for hundreds of MB):
// it runs in a worker of its own.
async function sha256Hex(source) {
  const bytes = await readWhole(source);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function handle(message, progress) {
  if (message.type === "init") {
    base = message.base;
    return null;
  }
  if (message.type === "digest") return sha256Hex(message.source);
  // The file is read while sql.js loads.
  const read = message.type === "open" ? readWhole(message.source, progress, message.oneReadBytes) : null;
  // Seen as soon as it fails, even while sql.js loads (the failure is kept in `read`).
  read?.catch(() => {});
  let SQL;
  try {
    sqlReady ??= loadSqlJs(base);
    SQL = await sqlReady;
  } catch (e) {
    // Without sql.js this worker can do nothing: say so, rather than blame the file.
    const why = e && e.message ? e.message : String(e);
    throw new SqlJsUnavailable(`sql.js (rows.js, sql-wasm.js, sql-wasm.wasm beside worker.js) did not load: ${why}`);
  }
  switch (message.type) {
    case "warm":
      // Answered at once: the work goes on between the next requests (it yields to them).
      warmUp(SQL).catch(() => {});
      return null;
    case "open":
      return openDatabase(SQL, read);
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
    const progress = (fraction) => self.postMessage({ id: message.id, progress: fraction });
    const ok = await handle(message, progress);
    self.postMessage({ id: message.id, ok }, movable(ok));
  } catch (e) {
    const text = e && e.message ? e.message : String(e);
    // ResultTooLarge comes with rows.js, which may be what failed to load.
    if (typeof ResultTooLarge !== "undefined" && e instanceof ResultTooLarge) {
      self.postMessage({ id: message.id, tooLarge: MAX_RESULT_BYTES });
    } else if (e instanceof SqlJsUnavailable) {
      self.postMessage({ id: message.id, unavailable: text });
    } else if (e instanceof Unreadable) {
      self.postMessage({ id: message.id, error: text, kind: "unreadable" });
    } else if (isFatal(e)) {
      self.postMessage({ id: message.id, crashed: text });
    } else {
      self.postMessage({ id: message.id, error: text });
    }
  }
};
