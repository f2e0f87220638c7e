// askdb's engine for databases read on demand: the official SQLite WebAssembly build
// (@sqlite.org/sqlite-wasm, in sqlite-wasm/ beside this file) in a Web Worker, with a VFS of
// its own that reads only the bytes SQLite asks for: from a local File (FileReaderSync on a
// slice; the File is never copied) or from a web server (synchronous XHR with a Range header).
// Nothing of the file is read at open but its first bytes, its schema and a few sampled pages.
//
// Like worker.js a thin shim: what may run is decided in Rust (src/sql/guard.rs). This file
// keeps the connection read-only (SQLITE_OPEN_READONLY, an immutable file, PRAGMA
// query_only=1, and an authorizer that refuses ATTACH, DETACH and every pragma given a value
// but the schema reads: the wall behind the guard, which this worker never sees), prepares only
// the first statement of a text, steps rows under the same limits as worker.js (rows.js), and
// counts every byte it reads. The page loads this worker only when a database needs it
// (src/engine/lazy.rs): a first visit never downloads SQLite twice.
//
// Messages in:  {id, type: "init", base}   always first; base: absolute URL of this file, with
//                                          rows.js and sqlite-wasm/ (index.mjs, sqlite3.wasm)
//                                          beside it
//               {id, type: "openFile", file, cacheBytes?, readAheadBytes?, samplePages?}
//                                          file: a File (structured-cloned: a handle, no copy)
//               {id, type: "openUrl", url, size, etag, lastModified, first, cacheBytes?,
//                readAheadBytes?, samplePages?}
//                                          what the page's first ranged GET of url (absolute)
//                                          found, pinned for as long as it is open: size (a
//                                          Number, from Content-Range), etag and lastModified
//                                          (strings, or null: at least one is needed), first
//                                          (a Uint8Array, may be empty: the bytes from offset
//                                          0 it brought, which enter the cache and count as
//                                          one request of the open's)
//                 cacheBytes: the page cache's size (default 64 MiB; at least 4 read-aheads);
//                 readAheadBytes: the largest read-ahead (default 4 MiB for a file, 1 MiB for
//                 a URL); samplePages: pages hashed for the identity (default 8 for a file, 0
//                 for a URL, whose ETag or Last-Modified tells a new version)
//               {id, type: "run", sql, params, maxRows, countBudgetMs, deadlineMs, byteBudget}
//                                          byteBudget: bytes this query may read from the file
//                                          or server (cache hits are free), or null
//               {id, type: "stats"}        the reads since the open ({bytes, requests}) and
//                                          the cache: cacheHeld (the bytes its chunks hold),
//                                          cacheChunks (how many), cacheBytes (its size)
//               {id, type: "crash"}        (tests: fails as an abort inside SQLite would)
// Messages out: {id, ok: value, reads?}
//               | {id, error: message, kind, reads?, ...details}
//               | {id, tooLarge: limitBytes} | {id, unavailable: message} | {id, crashed: message}
//   reads: {bytes, requests}: what the last "run" (or open) fetched from the file or server.
//   kind: "sqlite" (SQLite's message, or a malformed message's), "notADatabase",
//         "interrupted" (the deadline passed and the progress handler stopped the statement;
//         the worker is fine),
//         "budget" {limitBytes, readBytes}: the query would have read past byteBudget,
//         "changed": the file or the server's copy is not the one opened (a local file that was
//                    modified, moved or deleted; another length, or an ETag or Last-Modified
//                    pinned at open that is another or missing now),
//         "readFailed": a read failed for another reason (network, server error),
//         "remote" {problem: {kind: "noValidator", size}}: the URL came with neither an ETag
//                    nor a Last-Modified (at open; whether a URL can be read in parts at all
//                    is the page's to find out, src/engine/remote.rs).
// Open results: {size, header (Uint8Array, the first 100 bytes), pageSize, pageCount,
//               sampledPages (page numbers), sampleSha256 (hex of their bytes, or null),
//               etag, lastModified (remote: as pinned at open, or null), cacheBytes}
//
// The page cache lives in this worker: when the page terminates it (a deadline passed while a
// read was blocked, a Stop) and opens the database again in a fresh one, the cache starts
// empty; reopening costs the header, the schema and the sampled pages again, nothing more.
"use strict";

const VFS_NAME = "askdb-lazy";
// The cache and read-ahead unit; a multiple of every page size up to 4096 and a divisor of the
// larger ones, so a page never straddles two units but in 64 KiB-page files (then it is two).
const BLOCK = 4096;
// What the page cache may hold unless the open says otherwise: a full scan streams through it,
// so more does not make one faster; it serves the pages a conversation comes back to.
const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
// Read-ahead: a miss right where the previous read from the source ended is a scan going on, so
// each such read asks for twice as much as the one before, from 64 KiB up to these.
const READ_AHEAD_MIN = 64 * 1024;
const READ_AHEAD_MAX = { file: 4 * 1024 * 1024, url: 1024 * 1024 };
// Pages hashed for a local file's identity (page 1 and others spread over the file).
const DEFAULT_SAMPLE_PAGES = 8;
// The progress handler looks at the clock every this many SQLite instructions.
const PROGRESS_STEPS = 1000;

let ready = null; // Promise of {sqlite3} once "init" came
let session = null; // the open database: {pDb, reader, deadline}
let lastReads = null; // the reads of the last open or run, sent with its reply

class Failure extends Error {
  constructor(kind, message, details = {}) {
    super(message);
    this.kind = kind;
    this.details = details;
  }
}
class EngineUnavailable extends Error {}

// ---------------------------------------------------------------------------------------------
// Sources: where the bytes are. read(offset, length) returns exactly `length` bytes or throws a
// Failure; offsets are Numbers (exact up to 2^53: files past 4 GiB are fine).

class FileSource {
  constructor(file) {
    this.file = file;
    this.size = file.size;
    this.reader = new FileReaderSync();
  }
  read(offset, length) {
    let buffer;
    try {
      buffer = this.reader.readAsArrayBuffer(this.file.slice(offset, offset + length));
    } catch (e) {
      // Chromium throws NotReadableError once the file on disk is not the one chosen.
      throw new Failure(
        "changed",
        `the file ${JSON.stringify(this.file.name)} cannot be read any more (${e && e.name}): ` +
          "it was changed, moved or deleted since it was opened. Open it again to read it as it is now.",
      );
    }
    if (buffer.byteLength !== length) {
      throw new Failure(
        "changed",
        `the file ${JSON.stringify(this.file.name)} is shorter than when it was opened: ` +
          "it was changed since. Open it again to read it as it is now.",
      );
    }
    return new Uint8Array(buffer);
  }
}

// `pinned`: what the page's first GET found ({size, etag, lastModified}, see pinnedOf); every
// response must agree.
class HttpSource {
  constructor(url, pinned) {
    this.url = url;
    this.size = pinned.size;
    this.pinned = pinned;
  }
  read(offset, length) {
    const xhr = new XMLHttpRequest();
    xhr.open("GET", this.url, false);
    xhr.responseType = "arraybuffer";
    xhr.setRequestHeader("Range", `bytes=${offset}-${offset + length - 1}`);
    try {
      xhr.send();
    } catch (e) {
      throw new Failure(
        "readFailed",
        `the server could not be reached to read the database (${e && e.message ? e.message : e})`,
      );
    }
    if (xhr.status === 200) {
      throw new Failure(
        "changed",
        "the server sent the whole file instead of the part asked for: it no longer answers " +
          "range requests as it did when the database was opened. Open it again.",
      );
    }
    if (xhr.status !== 206) {
      throw new Failure("readFailed", `the server answered ${xhr.status} to a read of the database`);
    }
    const range = parseContentRange(xhr.getResponseHeader("Content-Range"));
    const changed = (what, was, now) =>
      new Failure(
        "changed",
        `the file on the server changed since it was opened (its ${what} was ${was}, now ${now}): ` +
          "open it again to read the new version.",
      );
    if (range && range.total !== this.size) throw changed("length", this.size, range.total ?? "not told");
    // Strict: a validator that was pinned must come back the same. One that went missing may
    // hide a new version as well as another one would.
    for (const [what, pinned] of [
      ["ETag", this.pinned.etag],
      ["Last-Modified", this.pinned.lastModified],
    ]) {
      const now = xhr.getResponseHeader(what);
      if (pinned !== null && now !== pinned) throw changed(what, pinned, now === null ? "none is sent" : now);
    }
    const bytes = new Uint8Array(xhr.response);
    if (!range || range.start !== offset || bytes.byteLength !== length) {
      throw new Failure(
        "readFailed",
        `the server sent other bytes than asked for (bytes ${offset}-${offset + length - 1}, ` +
          `got ${xhr.getResponseHeader("Content-Range") || "no Content-Range"}, ${bytes.byteLength} bytes)`,
      );
    }
    return bytes;
  }
}

// What the page's first ranged GET found, as "openUrl" brings it. Without an ETag or a
// Last-Modified a file replaced on the server would go on being read, its pages mixed with the
// old version's in the cache: such a file is refused.
function pinnedOf(message) {
  const { url, size, first } = message;
  if (typeof url !== "string" || !/^https?:\/\//i.test(url)) {
    throw new Error(`openUrl needs url, an absolute http(s) address (got ${JSON.stringify(url)})`);
  }
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new Error(`openUrl needs size, the file's length in bytes from the first GET's Content-Range (got ${size})`);
  }
  if (first !== undefined && first !== null && !(first instanceof Uint8Array && first.length <= size)) {
    throw new Error(`openUrl's first must be the file's first bytes, a Uint8Array of at most size (${size}) bytes`);
  }
  // An empty header tells no version from another.
  const validator = (value) => (typeof value === "string" && value !== "" ? value : null);
  const pinned = { size, etag: validator(message.etag), lastModified: validator(message.lastModified) };
  if (pinned.etag === null && pinned.lastModified === null) {
    throw new Failure(
      "remote",
      "the server sends neither an ETag nor a Last-Modified for this file, so a change to it could not " +
        "be told while it is open: a file without them cannot be read in parts safely",
      { problem: { kind: "noValidator", size } },
    );
  }
  return pinned;
}

function parseContentRange(value) {
  const match = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(value || "");
  if (!match) return null;
  return {
    start: Number(match[1]),
    end: Number(match[2]),
    total: match[3] === "*" ? null : Number(match[3]),
  };
}

// ---------------------------------------------------------------------------------------------
// The reader: a bounded LRU cache of chunks read from a source, with read-ahead, counting what
// it fetches, and refusing a fetch that would pass the query's byte budget.

class CachedReader {
  constructor(source, { cacheBytes, readAheadMax }) {
    this.source = source;
    this.size = source.size;
    this.readAheadMax = readAheadMax;
    // Room for at least a few read-aheads, whatever was asked.
    this.capacity = Math.max(cacheBytes, 4 * readAheadMax);
    this.chunks = new Map(); // start offset -> Uint8Array, least recently used first
    this.blockIndex = new Map(); // block number -> start offset of the chunk holding it
    this.held = 0;
    this.lastFetchEnd = -1;
    this.window = 0;
    this.total = { bytes: 0, requests: 0 };
    this.query = { bytes: 0, requests: 0 };
    this.budget = null;
    this.deadline = Infinity;
    this.error = null; // the Failure behind the last SQLITE_IOERR
  }

  startQuery(budget, deadline) {
    this.query = { bytes: 0, requests: 0 };
    this.budget = budget;
    this.deadline = deadline;
    this.error = null;
  }

  endQuery() {
    this.budget = null;
    this.deadline = Infinity;
  }

  // Fills `dest` with the bytes at `offset`; past the end of the file, zeros, and false.
  read(offset, dest) {
    const end = Math.min(offset + dest.length, this.size);
    let position = offset;
    while (position < end) {
      let chunkStart = this.blockIndex.get(Math.floor(position / BLOCK));
      let chunk = chunkStart === undefined ? undefined : this.chunks.get(chunkStart);
      if (chunk === undefined || position - chunkStart >= chunk.length) {
        chunkStart = this.fetch(position, end);
        chunk = this.chunks.get(chunkStart);
      } else {
        // Most recently used now.
        this.chunks.delete(chunkStart);
        this.chunks.set(chunkStart, chunk);
      }
      const from = position - chunkStart;
      const count = Math.min(end - position, chunk.length - from);
      dest.set(chunk.subarray(from, from + count), position - offset);
      position += count;
    }
    if (end - offset < dest.length) {
      dest.fill(0, Math.max(0, end - offset));
      return false;
    }
    return true;
  }

  // Reads the missing blocks from `position` on (up to `end`, or the next cached block), plus
  // read-ahead when the reads go on where the last one stopped; returns the new chunk's start.
  fetch(position, end) {
    if (Date.now() > this.deadline) throw new Failure("interrupted", "the deadline passed");
    const start = Math.floor(position / BLOCK) * BLOCK;
    let needEnd = start + BLOCK;
    while (needEnd < end && !this.blockIndex.has(needEnd / BLOCK)) needEnd += BLOCK;
    if (start === this.lastFetchEnd) {
      this.window = Math.min(this.window ? this.window * 2 : READ_AHEAD_MIN, this.readAheadMax);
    } else {
      this.window = 0;
    }
    let fetchEnd = Math.min(this.size, needEnd + this.window);
    const need = Math.min(this.size, needEnd) - start;
    if (this.budget !== null) {
      const left = this.budget - this.query.bytes;
      if (need > left) {
        throw new Failure(
          "budget",
          `this query would read more than its budget of ${this.budget} bytes from the database`,
          { limitBytes: this.budget, readBytes: this.query.bytes },
        );
      }
      // Whole blocks only (the cache's unit), and never less than what is needed.
      fetchEnd = Math.max(Math.min(fetchEnd, start + Math.floor(left / BLOCK) * BLOCK), start + need);
    }
    const bytes = this.source.read(start, fetchEnd - start);
    this.count(bytes.length);
    this.insert(start, bytes);
    this.lastFetchEnd = fetchEnd;
    return start;
  }

  count(bytes) {
    this.total.bytes += bytes;
    this.total.requests += 1;
    this.query.bytes += bytes;
    this.query.requests += 1;
  }

  // `start` is a multiple of BLOCK.
  insert(start, bytes) {
    this.chunks.set(start, bytes);
    this.held += bytes.length;
    for (let block = start / BLOCK; block * BLOCK < start + bytes.length; block++) {
      this.blockIndex.set(block, start);
    }
    for (const [oldStart, old] of this.chunks) {
      if (this.held <= this.capacity || oldStart === start) break;
      this.chunks.delete(oldStart);
      this.held -= old.length;
      for (let block = oldStart / BLOCK; block * BLOCK < oldStart + old.length; block++) {
        // A later chunk may hold this block now.
        if (this.blockIndex.get(block) === oldStart) this.blockIndex.delete(block);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The VFS: SQLite's file calls, answered from the reader of the database being opened.

function installVfs(sqlite3) {
  const { capi, wasm } = sqlite3;
  const files = new Map(); // sqlite3_file pointer -> CachedReader
  const ioMethods = new capi.sqlite3_io_methods();
  ioMethods.$iVersion = 1;
  const io = {
    xClose(pFile) {
      files.delete(pFile);
      return 0;
    },
    xRead(pFile, pDest, n, offset64) {
      const reader = files.get(pFile);
      try {
        // Straight into SQLite's buffer: reading calls nothing in the wasm module, so the
        // memory cannot grow (and this view go stale) meanwhile.
        const dest = wasm.heap8u().subarray(Number(pDest), Number(pDest) + n);
        return reader.read(Number(offset64), dest) ? 0 : capi.SQLITE_IOERR_SHORT_READ;
      } catch (e) {
        reader.error = e instanceof Failure ? e : new Failure("readFailed", String(e && e.message ? e.message : e));
        return capi.SQLITE_IOERR_READ;
      }
    },
    xWrite() {
      return capi.SQLITE_READONLY;
    },
    xTruncate() {
      return capi.SQLITE_READONLY;
    },
    xSync() {
      return 0;
    },
    xFileSize(pFile, pSize) {
      wasm.poke64(pSize, BigInt(files.get(pFile).size));
      return 0;
    },
    xLock() {
      return 0;
    },
    xUnlock() {
      return 0;
    },
    xCheckReservedLock(pFile, pOut) {
      wasm.poke32(pOut, 0);
      return 0;
    },
    xFileControl() {
      return capi.SQLITE_NOTFOUND;
    },
    xSectorSize() {
      return BLOCK;
    },
    // The file does not change while open (SQLite then takes no locks and looks for no journal).
    xDeviceCharacteristics() {
      return capi.SQLITE_IOCAP_IMMUTABLE;
    },
  };
  sqlite3.vfs.installVfs({ io: { struct: ioMethods, methods: io } });

  const vfs = new capi.sqlite3_vfs();
  const defaultVfs = new capi.sqlite3_vfs(capi.sqlite3_vfs_find(null));
  vfs.$iVersion = 2;
  vfs.$szOsFile = capi.sqlite3_file.structInfo.sizeof;
  vfs.$mxPathname = 1024;
  vfs.$xRandomness = defaultVfs.$xRandomness;
  vfs.$xSleep = defaultVfs.$xSleep;
  defaultVfs.dispose();
  let opening = null; // the reader the next main-database open binds to
  const methods = {
    xOpen(pVfs, zName, pFile, flags, pOutFlags) {
      // Only the main database, read-only: no journal, WAL or temporary file is ever made here
      // (temporary tables and sorts stay in memory: this build's SQLITE_TEMP_STORE=2).
      if (!(flags & capi.SQLITE_OPEN_MAIN_DB) || !opening) return capi.SQLITE_CANTOPEN;
      files.set(pFile, opening);
      const file = new capi.sqlite3_file(pFile);
      file.$pMethods = ioMethods.pointer;
      file.dispose();
      wasm.poke32(pOutFlags, capi.SQLITE_OPEN_READONLY);
      return 0;
    },
    xDelete() {
      return capi.SQLITE_IOERR_DELETE;
    },
    xAccess(pVfs, zName, flags, pOut) {
      wasm.poke32(pOut, 0);
      return 0;
    },
    xFullPathname(pVfs, zName, nOut, pOut) {
      return wasm.cstrncpy(pOut, zName, nOut) < nOut ? 0 : capi.SQLITE_CANTOPEN;
    },
    xGetLastError() {
      return 0;
    },
    xCurrentTime(pVfs, pOut) {
      wasm.poke(pOut, 2440587.5 + Date.now() / 864e5, "double");
      return 0;
    },
    xCurrentTimeInt64(pVfs, pOut) {
      wasm.poke(pOut, 0xbfc83e532200n + BigInt(Date.now()), "i64");
      return 0;
    },
  };
  sqlite3.vfs.installVfs({ vfs: { struct: vfs, methods, name: VFS_NAME } });

  // Opens the reader's database read-only through this VFS; returns the sqlite3* pointer.
  return function openReader(reader) {
    const stack = wasm.pstack.pointer;
    opening = reader;
    try {
      const ppDb = wasm.pstack.allocPtr();
      const flags = capi.SQLITE_OPEN_READONLY | capi.SQLITE_OPEN_URI | capi.SQLITE_OPEN_EXRESCODE;
      const rc = capi.sqlite3_open_v2("file:askdb.db?immutable=1", ppDb, flags, VFS_NAME);
      const pDb = wasm.peekPtr(ppDb);
      if (rc !== 0) {
        const why = pDb ? capi.sqlite3_errmsg(pDb) : capi.sqlite3_errstr(rc);
        if (pDb) capi.sqlite3_close_v2(pDb);
        throw reader.error || new Failure("sqlite", why);
      }
      return pDb;
    } finally {
      opening = null;
      wasm.pstack.restore(stack);
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Statements.

// Runs `sql` on the session's connection; throws a Failure that says why when it fails.
function exec(sqlite3, pDb, sql) {
  const rc = sqlite3.capi.sqlite3_exec(pDb, sql, 0, 0, 0);
  if (rc !== 0) throw sqliteFailure(sqlite3, pDb);
}

function sqliteFailure(sqlite3, pDb) {
  // SQLite's "disk I/O error" hides the reason the reader knows.
  if (session && session.reader.error) return session.reader.error;
  if (session && session.interrupted) return new Failure("interrupted", "the deadline passed");
  return new Failure("sqlite", sqlite3.capi.sqlite3_errmsg(pDb));
}

// Prepares the first statement of `sql` (the rest of the text is never compiled: only the
// first statement can run, whatever follows it).
function prepareFirst(sqlite3, pDb, sql) {
  const { capi, wasm } = sqlite3;
  const [pSql, length] = wasm.allocCString(sql, true);
  const stack = wasm.pstack.pointer;
  try {
    const ppStmt = wasm.pstack.allocPtr();
    const rc = capi.sqlite3_prepare_v2(pDb, pSql, length, ppStmt, null);
    if (rc !== 0) throw sqliteFailure(sqlite3, pDb);
    const pStmt = wasm.peekPtr(ppStmt);
    if (!pStmt) throw new Failure("sqlite", "the text holds no statement");
    return pStmt;
  } finally {
    wasm.pstack.restore(stack);
    wasm.dealloc(pSql);
  }
}

// Values as worker.js binds them: BigInt as integers, numbers as reals, strings, bytes, null.
function bindAll(sqlite3, pStmt, params) {
  const { capi, wasm } = sqlite3;
  params.forEach((value, i) => {
    const index = i + 1;
    let rc;
    // The raw export: the wrapper's sqlite3_bind_null returns undefined in 3.54.1.
    if (value === null || value === undefined) rc = wasm.exports.sqlite3_bind_null(pStmt, index);
    else if (typeof value === "bigint") rc = capi.sqlite3_bind_int64(pStmt, index, value);
    else if (typeof value === "number") rc = capi.sqlite3_bind_double(pStmt, index, value);
    else if (typeof value === "string") {
      // Allocated here: the wrapper's own string path is broken in 3.54.1 (a ReferenceError).
      const [pText, length] = wasm.allocCString(value, true);
      rc = capi.sqlite3_bind_text(pStmt, index, pText, length, capi.SQLITE_WASM_DEALLOC);
    } else if (value instanceof Uint8Array) {
      rc = capi.sqlite3_bind_blob(pStmt, index, value, value.byteLength, capi.SQLITE_WASM_DEALLOC);
    } else throw new Failure("sqlite", `a value of an unknown kind for ?${index}`);
    if (rc !== 0) throw sqliteFailure(sqlite3, capi.sqlite3_db_handle(pStmt));
  });
}

function readRow(sqlite3, pStmt, count) {
  const { capi, wasm } = sqlite3;
  const row = new Array(count);
  for (let i = 0; i < count; i++) {
    switch (capi.sqlite3_column_type(pStmt, i)) {
      case capi.SQLITE_INTEGER:
        row[i] = BigInt(capi.sqlite3_column_int64(pStmt, i));
        break;
      case capi.SQLITE_FLOAT:
        row[i] = capi.sqlite3_column_double(pStmt, i);
        break;
      case capi.SQLITE_TEXT:
        row[i] = capi.sqlite3_column_text(pStmt, i);
        break;
      case capi.SQLITE_BLOB: {
        const length = capi.sqlite3_column_bytes(pStmt, i);
        const pBlob = Number(capi.sqlite3_column_blob(pStmt, i));
        row[i] = length ? wasm.heap8u().slice(pBlob, pBlob + length) : new Uint8Array(0);
        break;
      }
      default:
        row[i] = null;
    }
  }
  return row;
}

function run(sqlite3, message) {
  if (!session) throw new Failure("sqlite", "no database is open");
  const { capi } = sqlite3;
  const { pDb, reader } = session;
  const started = Date.now();
  const deadline = message.deadlineMs ? started + message.deadlineMs : Infinity;
  const budget = typeof message.byteBudget === "number" ? message.byteBudget : null;
  reader.startQuery(budget, deadline);
  session.deadline = deadline;
  session.interrupted = false;
  let pStmt = 0;
  try {
    pStmt = prepareFirst(sqlite3, pDb, message.sql);
    if (message.params && message.params.length > 0) bindAll(sqlite3, pStmt, message.params);
    const count = capi.sqlite3_column_count(pStmt);
    const columns = [];
    for (let i = 0; i < count; i++) columns.push(capi.sqlite3_column_name(pStmt, i));
    const collected = collectRows(
      () => {
        const rc = capi.sqlite3_step(pStmt);
        if (rc === capi.SQLITE_ROW) return true;
        if (rc === capi.SQLITE_DONE) return false;
        throw sqliteFailure(sqlite3, pDb);
      },
      () => readRow(sqlite3, pStmt, count),
      message.maxRows,
      message.countBudgetMs,
      started,
    );
    return { columns, ...collected };
  } finally {
    if (pStmt) capi.sqlite3_finalize(pStmt);
    lastReads = { ...reader.query };
    reader.endQuery();
    session.deadline = Infinity;
  }
}

// ---------------------------------------------------------------------------------------------
// Opening.

// `extra`: for a URL, what was pinned ({etag, lastModified}, reported back) and the first bytes.
async function open(sqlite3, source, message, extra) {
  const kind = source instanceof FileSource ? "file" : "url";
  const reader = new CachedReader(source, {
    cacheBytes: positive(message.cacheBytes) || DEFAULT_CACHE_BYTES,
    readAheadMax: Math.max(BLOCK, positive(message.readAheadBytes) || READ_AHEAD_MAX[kind]),
  });
  // The bytes the page's first GET brought: one request of the open's (a fresh worker opening
  // the same URL again gets none, and reads the header itself).
  if (extra.first && extra.first.length > 0) {
    reader.count(extra.first.length);
    const usable = Math.floor(extra.first.length / BLOCK) * BLOCK || extra.first.length;
    reader.insert(0, extra.first.slice(0, usable));
  }
  const header = new Uint8Array(Math.min(100, reader.size));
  reader.read(0, header);
  const result = {
    size: reader.size,
    header,
    pageSize: pageSizeOf(header),
    pageCount: 0,
    sampledPages: [],
    sampleSha256: null,
    etag: extra.etag ?? null,
    lastModified: extra.lastModified ?? null,
    cacheBytes: reader.capacity,
  };
  lastReads = { ...reader.total };
  // The page checks the header (src/engine/file_check.rs) and says what is wrong with it.
  if (!isSqliteHeader(header)) return result;
  result.pageCount = Math.floor(reader.size / result.pageSize);

  const openReader = sqlite3.askdbOpenReader;
  let pDb = 0;
  try {
    pDb = openReader(reader);
    const next = { pDb, reader, deadline: Infinity, interrupted: false };
    const previous = session;
    session = next;
    try {
      exec(sqlite3, pDb, "PRAGMA query_only=1");
      // After query_only=1, which the authorizer would refuse (it is a pragma with an argument).
      installAuthorizer(sqlite3, pDb);
      // SQLite's own ATTACH refuses past this limit, whatever the authorizer decides.
      sqlite3.capi.sqlite3_limit(pDb, sqlite3.capi.SQLITE_LIMIT_ATTACHED, 0);
      // Read the schema now, so that "file is not a database" shows at open.
      exec(sqlite3, pDb, "SELECT count(*) FROM sqlite_schema");
    } catch (e) {
      session = previous;
      throw e.kind === "sqlite" ? new Failure("notADatabase", e.message) : e;
    }
    if (previous) sqlite3.capi.sqlite3_close_v2(previous.pDb);
    installProgressHandler(sqlite3, next);
  } catch (e) {
    if (pDb && session?.pDb !== pDb) sqlite3.capi.sqlite3_close_v2(pDb);
    lastReads = { ...reader.total };
    throw e;
  }
  const pages = positive(message.samplePages) ?? DEFAULT_SAMPLE_PAGES;
  if (pages > 0) {
    const sampled = await samplePages(reader, result.pageSize, result.pageCount, pages);
    result.sampledPages = sampled.pages;
    result.sampleSha256 = sampled.sha256;
  }
  lastReads = { ...reader.total };
  return result;
}

// The pragmas the guard's pragma functions (READ_ONLY_PRAGMAS in src/sql/guard.rs) call with an
// argument: each reads the schema of the table or index it names. The guard's others take none.
const PRAGMAS_READ_WITH_ARGUMENT = new Set([
  "table_info",
  "table_xinfo",
  "table_list",
  "index_list",
  "index_info",
  "index_xinfo",
  "foreign_key_list",
]);

// The wall behind the guard, in SQLite itself (the guard is in Rust, and this worker never sees
// it): no database is attached and none detached, and no pragma is given a value but the schema
// reads, so that query_only cannot be turned off (PRAGMA query_only=0 is SQLITE_PRAGMA with
// "query_only", "0"). A pragma function reaches here as its pragma: pragma_table_info('t') is
// SQLITE_PRAGMA with "table_info", "t". Everything else is the guard's to decide.
function installAuthorizer(sqlite3, pDb) {
  const { capi } = sqlite3;
  const authorize = (_, action, name, argument) => {
    if (action === capi.SQLITE_ATTACH || action === capi.SQLITE_DETACH) return capi.SQLITE_DENY;
    // 3.54.1's wrapper passes a missing argument as 0 and an empty one as "" (and
    // PRAGMA query_only='' turns it off): only a string is an argument.
    if (action === capi.SQLITE_PRAGMA && typeof argument === "string") {
      return PRAGMAS_READ_WITH_ARGUMENT.has(String(name).toLowerCase()) ? capi.SQLITE_OK : capi.SQLITE_DENY;
    }
    return capi.SQLITE_OK;
  };
  const rc = capi.sqlite3_set_authorizer(pDb, authorize, 0);
  // Not a Failure: open() would take a "sqlite" one for a file that is not a database.
  if (rc !== 0) throw new Error(`SQLite refused askdb's authorizer (${capi.sqlite3_errstr(rc)}): nothing was opened`);
}

function installProgressHandler(sqlite3, owner) {
  sqlite3.capi.sqlite3_progress_handler(
    owner.pDb,
    PROGRESS_STEPS,
    () => {
      if (Date.now() <= owner.deadline) return 0;
      owner.interrupted = true;
      return 1;
    },
    0,
  );
}

function positive(value) {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function isSqliteHeader(header) {
  const magic = "SQLite format 3\0";
  if (header.length < 100) return false;
  for (let i = 0; i < magic.length; i++) if (header[i] !== magic.charCodeAt(i)) return false;
  return true;
}

function pageSizeOf(header) {
  if (header.length < 18) return 0;
  const raw = (header[16] << 8) | header[17];
  return raw === 1 ? 65536 : raw;
}

// Page 1 and `count - 1` pages spread evenly up to the last one, hashed together: two files
// with the same size, header and sampled pages are taken for the same database.
async function samplePages(reader, pageSize, pageCount, count) {
  if (!pageSize || !pageCount) return { pages: [], sha256: null };
  const pages = [];
  for (let i = 0; i < count; i++) {
    const page = 1 + Math.floor((i * (pageCount - 1)) / Math.max(1, count - 1));
    if (!pages.includes(page)) pages.push(page);
  }
  const joined = new Uint8Array(pages.length * pageSize);
  pages.forEach((page, i) => {
    reader.read((page - 1) * pageSize, joined.subarray(i * pageSize, (i + 1) * pageSize));
  });
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", joined));
  return { pages, sha256: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") };
}

// ---------------------------------------------------------------------------------------------
// Loading SQLite, and the messages.

// A failure (a file missing) is kept in the promise, so every later request reports it instead
// of retrying from a wrong place. `base` comes from the page because a worker built from a blob:
// URL (tests) cannot find the files from its own address.
function loadSqlite(base) {
  return Promise.resolve().then(async () => {
    importScripts(new URL("rows.js", base).href);
    const module = await import(new URL("sqlite-wasm/index.mjs", base).href);
    // Only askdb's VFS: the browser-storage ones would start on a cross-origin isolated page
    // (the OPFS one loads a script of its own) and are never used here.
    globalThis.sqlite3ApiConfig = {
      disable: { vfs: { opfs: true, "opfs-vfs": true, "opfs-sahpool": true, "opfs-wl": true, kvvfs: true } },
    };
    const sqlite3 = await module.default({ print: () => {}, printErr: () => {} });
    sqlite3.askdbOpenReader = installVfs(sqlite3);
    return sqlite3;
  });
}

function stats() {
  if (!session) throw new Failure("sqlite", "no database is open");
  const { reader } = session;
  // What the chunks hold, not the counter that eviction keeps: a chunk let go in the count but
  // kept in the map would still be memory the tab pays for.
  let held = 0;
  for (const chunk of reader.chunks.values()) held += chunk.length;
  return { ...reader.total, cacheHeld: held, cacheChunks: reader.chunks.size, cacheBytes: reader.capacity };
}

// An abort inside the wasm module (out of memory, a trap) leaves SQLite unusable.
function isFatal(e) {
  return (
    (typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError) ||
    (e && typeof e.message === "string" && e.message.startsWith("Aborted(")) ||
    (e && e.name === "WasmAllocError")
  );
}

async function handle(message) {
  if (message.type === "init") ready = loadSqlite(message.base);
  let sqlite3;
  try {
    if (!ready) throw new Error("the worker was not initialised");
    sqlite3 = await ready;
  } catch (e) {
    const why = e && e.message ? e.message : String(e);
    throw new EngineUnavailable(
      `SQLite (rows.js and sqlite-wasm/ beside lazy-worker.js) did not load: ${why}`,
    );
  }
  lastReads = null;
  switch (message.type) {
    case "init":
      return null;
    case "openFile":
      return open(sqlite3, new FileSource(message.file), message, {});
    case "openUrl": {
      const pinned = pinnedOf(message);
      const source = new HttpSource(message.url, pinned);
      // Every answer is checked against the ETag or Last-Modified, which tell a changed file:
      // no page needs hashing to tell it.
      const samplePages = message.samplePages ?? 0;
      return open(sqlite3, source, { ...message, samplePages }, { ...pinned, first: message.first });
    }
    case "run":
      return run(sqlite3, message);
    case "stats":
      return stats();
    case "crash":
      throw new WebAssembly.RuntimeError("Aborted(a crash asked for by a test)");
    default:
      throw new Error("unknown request: " + message.type);
  }
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    const ok = await handle(message);
    self.postMessage({ id: message.id, ok, reads: lastReads });
  } catch (e) {
    const text = e && e.message ? e.message : String(e);
    if (typeof ResultTooLarge !== "undefined" && e instanceof ResultTooLarge) {
      self.postMessage({ id: message.id, tooLarge: MAX_RESULT_BYTES, reads: lastReads });
    } else if (e instanceof EngineUnavailable) {
      self.postMessage({ id: message.id, unavailable: text });
    } else if (isFatal(e)) {
      self.postMessage({ id: message.id, crashed: text });
    } else if (e instanceof Failure) {
      self.postMessage({ id: message.id, error: text, kind: e.kind, reads: lastReads, ...e.details });
    } else {
      self.postMessage({ id: message.id, error: text, kind: "sqlite", reads: lastReads });
    }
  }
};
