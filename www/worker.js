// askdb's SQLite engine: sql.js in a Web Worker, so the page thread never runs SQL.
//
// A thin shim. Every rule about what may run lives in Rust (src/sql/guard.rs); this file only
// keeps the connection read-only (PRAGMA query_only=1), steps rows and reports them.
// The page stops a runaway query by terminating this worker (sql.js has no interrupt).
//
// Messages in:  {id, type: "init", base}    always first; base: absolute URL of worker.js, with
//                                           rows.js, sql-wasm.js and sql-wasm.wasm beside it (loaded at
//                                           the first request that needs SQLite)
//               {id, type: "open", source, oneReadBytes, previewSql}
//                                           source: a Blob (a File) of a whole database file,
//                                           read here (into this worker's memory only): in one
//                                           call up to oneReadBytes, else in parts, with progress.
//                                           previewSql (optional): statements that read the
//                                           schema only; with them the open may answer
//                                           {preview: true} once the schema is read, before the
//                                           whole file (see "The schema first" below); the
//                                           answer's sqliteMs: how long it waited for sql.js
//               {id, type: "run", sql, params, maxRows, countBudgetMs}
//                                           params: the values of ?1 ?2 … (the guard checked
//                                           that the statement takes exactly these)
//               {id, type: "prepare"}      loads sql.js's scripts, not its wasm (23 KB against
//                                           336 KB gzipped), so that the first open need not
//                                           fetch them one after the other first
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
// While a file opened schema first is read whole: {db, sql} (the schema's own database, and the
// statements that may run there), and the promise of the whole open.
let preview = null;
let whole = null; // () => the promise of the whole open (started by the first call)

// A failure (sql-wasm.js or sql-wasm.wasm missing) is kept in the promise, so every later
// request reports it instead of retrying from a wrong place. `base` comes from the page because
// a worker built from a blob: URL (tests) cannot find the files from its own address.
function loadSqlJs(base) {
  return Promise.resolve().then(() => {
    loadScripts(base);
    return initSqlJs({ locateFile: (file) => new URL(file, base).href });
  });
}

let scriptsLoaded = false;
// rows.js: how rows are collected (the limits), shared with lazy-worker.js; sql-wasm.js:
// sql.js's code around its wasm (`initSqlJs`).
function loadScripts(base) {
  if (scriptsLoaded) return;
  importScripts(new URL("rows.js", base).href, new URL("sql-wasm.js", base).href);
  scriptsLoaded = true;
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
  if (!warmedUp && !warmingAfterOpen && bytes.byteLength >= WARM_AFTER_OPEN_FROM_BYTES) {
    warmingAfterOpen = true;
    setTimeout(() => warmUp(SQL, false).catch(() => {}), 0);
  }
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
function run(sql, params, maxRows, countBudgetMs, on = db) {
  if (!on) throw new Error("no database is open");
  const started = Date.now();
  const startedPrecise = performance.now();
  const statement = on.prepare(sql);
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

// The schema first. A large file takes a while to read whole (305 MB: about 0.4 s), but its
// tables are known from a few of its pages: page 1 and the pages of the schema's b-tree
// (sqlite_schema) with their overflow pages. Those alone are read (the first MiB, which holds
// them in most files, and any other one by itself), put at their places in a buffer as long as
// the file (the rest zeros, which the browser does not back with memory until they are written)
// and opened as a database of their own. The page's statements that read the schema only (named
// in "open": sqlite_schema and the pragmas of its tables) run there while the whole file is
// read; every other request waits for the whole file. The walk follows SQLite's file format
// (https://www.sqlite.org/fileformat2.html, "B-tree Pages"); a page it cannot place or a layout
// it does not expect gives up, and the open reads the file whole first, as without a preview.
// A zero page SQLite did read after all would be an error (no b-tree page is all zeros), and a
// preview statement that fails runs again on the whole file.
const PREVIEW_HEAD_BYTES = 1024 * 1024;
// A schema on more pages than this is read with the whole file.
const PREVIEW_MOST_PAGES = 4096;

class NoPreview extends Error {}

// SQLite's variable-length integer at `at` in `bytes`: [value, its length].
function varint(bytes, at) {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = bytes[at + i];
    if (byte === undefined) throw new NoPreview("a varint runs past its page");
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return [value, i + 1];
  }
  const last = bytes[at + 8];
  if (last === undefined) throw new NoPreview("a varint runs past its page");
  return [value * 256 + last, 9];
}

function u16(bytes, at) {
  if (at + 2 > bytes.length) throw new NoPreview("past the end of a page");
  return (bytes[at] << 8) | bytes[at + 1];
}

function u32(bytes, at) {
  if (at + 4 > bytes.length) throw new NoPreview("past the end of a page");
  return bytes[at] * 0x1000000 + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
}

// A buffer as long as `source` holding its schema's pages (and its first MiB), or null when
// they cannot be told.
async function schemaPages(source) {
  try {
    return await readSchemaPages(source);
  } catch (e) {
    if (e instanceof NoPreview) return null;
    throw changedOrUnreadable(e);
  }
}

async function readSchemaPages(source) {
  const size = source.size;
  const head = new Uint8Array(await source.slice(0, Math.min(size, PREVIEW_HEAD_BYTES)).arrayBuffer());
  if (head.length < 100) throw new NoPreview("shorter than a header");
  const sizeField = u16(head, 16);
  const pageSize = sizeField === 1 ? 65536 : sizeField;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) throw new NoPreview("page size");
  const usable = pageSize - head[20];
  if (usable < 480) throw new NoPreview("usable size");
  const pageCount = Math.floor(size / pageSize);
  const buffer = new Uint8Array(size);
  buffer.set(head);
  const headPages = Math.floor(head.length / pageSize);
  const fetched = new Set();
  const page = async (number) => {
    if (!Number.isInteger(number) || number < 1 || number > pageCount) throw new NoPreview("a page outside the file");
    const offset = (number - 1) * pageSize;
    if (number > headPages && !fetched.has(number)) {
      const bytes = new Uint8Array(await source.slice(offset, offset + pageSize).arrayBuffer());
      if (bytes.length !== pageSize) throw new NoPreview("a short page");
      buffer.set(bytes, offset);
      fetched.add(number);
    }
    return buffer.subarray(offset, offset + pageSize);
  };
  const seen = new Set();
  const visit = (number) => {
    if (seen.has(number)) throw new NoPreview("a page seen twice");
    seen.add(number);
    if (seen.size > PREVIEW_MOST_PAGES) throw new NoPreview("too many pages");
  };
  // A leaf cell's payload beyond its page: its overflow pages, followed one after the other.
  const overflow = async (bytes, cell) => {
    const [payload, sizeLength] = varint(bytes, cell);
    const [, rowidLength] = varint(bytes, cell + sizeLength);
    const most = usable - 35;
    if (payload <= most) return;
    const least = Math.floor(((usable - 12) * 32) / 255) - 23;
    const spill = least + ((payload - least) % (usable - 4));
    const local = spill <= most ? spill : least;
    let next = u32(bytes, cell + sizeLength + rowidLength + local);
    for (let left = payload - local; left > 0; left -= usable - 4) {
      visit(next);
      next = u32(await page(next), 0);
    }
  };
  visit(1);
  let level = [1];
  while (level.length > 0) {
    const pages = await Promise.all(level.map(page));
    const below = [];
    for (let i = 0; i < level.length; i++) {
      const bytes = pages[i];
      const start = level[i] === 1 ? 100 : 0;
      const type = bytes[start];
      const cells = u16(bytes, start + 3);
      if (type === 0x05) {
        for (let c = 0; c < cells; c++) below.push(u32(bytes, u16(bytes, start + 12 + 2 * c)));
        below.push(u32(bytes, start + 8));
      } else if (type === 0x0d) {
        for (let c = 0; c < cells; c++) await overflow(bytes, u16(bytes, start + 8 + 2 * c));
      } else {
        throw new NoPreview("not a table b-tree page");
      }
    }
    below.forEach(visit);
    level = below;
  }
  return buffer;
}

// Opens the file of an "open" message schema first when it can (answering {preview: true} once
// its schema's pages, read meanwhile as `pages`, are open; the whole file opens after that), else
// whole. The whole read starts once the schema is open: before, it would share the cores with
// what the tables wait for (loading sql.js here, the page's own code).
async function openSchemaFirst(SQL, message, pages, progress) {
  const readAll = () => readWhole(message.source, progress, message.oneReadBytes);
  const buffer = await pages;
  if (!buffer) return openDatabase(SQL, readAll());
  let schema;
  try {
    schema = new SQL.Database(new Owned(buffer.buffer));
    schema.exec("PRAGMA query_only=1");
    schema.exec("SELECT count(*) FROM sqlite_schema");
  } catch (e) {
    schema?.close();
    return openDatabase(SQL, readAll());
  }
  // The whole read starts when a request needs it: the page's first after its schema
  // statements (its row counts, once the tables are drawn).
  let started = null;
  const startWhole = () => {
    started ??= openDatabase(SQL, readAll()).finally(() => {
      preview.db.close();
      preview = null;
    });
    // Its failure is said to the requests that wait for it.
    started.catch(() => {});
    return started;
  };
  preview = { db: schema, sql: new Set(message.previewSql) };
  whole = startWhole;
  return { preview: true };
}

// A schema statement on the schema's database, while the whole file is not open; null when it
// must wait for the whole file (another statement, or one that failed there).
function runOnPreview(message) {
  if (!preview || !preview.sql.has(message.sql)) return null;
  let rows = null;
  try {
    rows = run(message.sql, message.params, message.maxRows, message.countBudgetMs, preview.db);
  } catch (e) {
    return null;
  }
  return rows;
}

// Works SQLite's own code a little on a scratch database, in steps that let other messages in
// between (an "open" reads its file meanwhile), so that the browser has compiled its hot paths
// to optimized code before the first real query. Asked for ahead ("warm": `untilOpen`), it
// stops once a database (or its schema) is open, whose open it would slow down. In a worker
// whose warm-up did not finish, it runs after the open of a large file instead, a step at a
// time while no request is under way: a person's first question comes seconds after the
// tables show. Without it the first queries run on the browser's first, quick compilation: a
// full scan whose one step runs the whole scan stays there to its end (measured in Chromium on
// 105 MB: a full scan's first run 460-670 ms cold, 210 ms after this; an indexed join's 85-166
// ms cold, 24-42 ms after; after a schema-first open, whose row counts warm some of it, the
// join's first run 25-62 ms without, 19-38 ms with). About 0.2 s of one core.
let warmedUp = false;
let warmingAfterOpen = false;
// Below this a database's queries take milliseconds on any code: the warm-up after an open
// would spend its 0.2 s of a core for nothing (the same size from which a file opens schema
// first: SCHEMA_FIRST_FROM_BYTES in engine/in_memory/worker.rs).
const WARM_AFTER_OPEN_FROM_BYTES = 16 * 1024 * 1024;
// Requests received and not yet answered (the warm-up after an open waits for none).
let inFlight = 0;
async function warmUp(SQL, untilOpen) {
  if (warmedUp) return;
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
        if (untilOpen && (db || preview)) return;
        while (!untilOpen && inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        scratch.exec(sql);
      }
    }
    warmedUp = true;
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
  if (message.type === "prepare") {
    // A failure here is said by the request that needs sql.js, which tries again.
    try {
      loadScripts(base);
    } catch {}
    return null;
  }
  // The file is read while sql.js loads: whole, or its schema's pages first.
  const schemaFirst = message.type === "open" && message.previewSql && !db && !whole;
  const pages = schemaFirst ? schemaPages(message.source) : null;
  pages?.catch(() => {});
  const read = message.type === "open" && !schemaFirst ? readWhole(message.source, progress, message.oneReadBytes) : null;
  // Seen as soon as it fails, even while sql.js loads (the failure is kept in `read`).
  read?.catch(() => {});
  let SQL;
  const waited = performance.now();
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
      warmUp(SQL, true).catch(() => {});
      return null;
    case "open": {
      // How long this open waited for sql.js to load (for the page's account of an open).
      const sqliteMs = performance.now() - waited;
      const opened = schemaFirst ? await openSchemaFirst(SQL, message, pages, progress) : await openDatabase(SQL, read);
      return { ...opened, sqliteMs };
    }
    case "run": {
      const early = runOnPreview(message);
      if (early) return early;
      await whole?.();
      return run(message.sql, message.params, message.maxRows, message.countBudgetMs);
    }
    case "export":
      await whole?.();
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
  inFlight++;
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
  } finally {
    inFlight--;
  }
};
