// Which engine reads a large local file on demand: the page's lazy worker (www/lazy-worker.js,
// @sqlite.org/sqlite-wasm with askdb's VFS) and, when a build is given, sql.js rebuilt from source
// with Emscripten's WORKERFS (a File mounted read-only, read with FileReaderSync). For each, on
// the same file chosen through a file input: the time to open it and read the schema, an indexed
// lookup, a full-scan aggregate, and the browser's memory (resident, all its processes) above
// the blank page; beside them Python's sqlite3 on the same file.
//
//   node bench/lazy_engines.mjs --db /work/bigdata/big-1100m.db [--sqljs-build DIR]
//
// DIR holds sql-wasm-lazy.js and raw.wasm (how they were built: docs/benchmarks.md). Needs the
// built page (trunk build --release). Prints a Markdown table for docs/benchmarks.md.

import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startSession } from '../tests/e2e/harness.mjs';
import { browserRssMb } from './memory.mjs';
import { lazyPage, openFile, run } from '../tests/e2e/lazy-support.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    'sqljs-build': { type: 'string' },
    repeat: { type: 'string', default: '3' },
  },
});
if (!values.db) throw new Error('--db FILE is required');
const REPEAT = Number(values.repeat);
const LOOKUP = 'SELECT o.id, o.status, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.customer_id = 4242';
const SCAN = 'SELECT status, count(*), sum(length(ordered_at)) FROM orders GROUP BY status';

function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function python(sql) {
  const script = `
import sqlite3, sys, time
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
db.execute("SELECT count(*) FROM sqlite_schema").fetchall()
times = []
for _ in range(int(sys.argv[3])):
    t = time.perf_counter(); db.execute(sys.argv[2]).fetchall(); times.append((time.perf_counter() - t) * 1000)
times.sort(); print(times[len(times) // 2])`;
  return Number(execFileSync('python3', ['-c', script, values.db, sql, String(REPEAT)]).toString());
}

async function timed(page, sql) {
  const times = [];
  for (let i = 0; i < REPEAT; i++) {
    const reply = await run(page, sql);
    if (!reply.ok) throw new Error(`${sql}: ${reply.error}`);
    times.push(reply.elapsedMs);
  }
  return median(times);
}

async function measureLazy(session) {
  const page = await lazyPage(session);
  const blank = browserRssMb();
  const opened = await openFile(page, values.db);
  if (!opened.ok) throw new Error(`open: ${opened.error}`);
  const schema = await run(page, 'SELECT name, sql FROM sqlite_schema');
  if (!schema.ok) throw new Error(schema.error);
  const openMs = opened.elapsedMs + schema.elapsedMs;
  const openMemoryMb = browserRssMb() - blank;
  const lookupMs = await timed(page, LOOKUP);
  const scanMs = await timed(page, SCAN);
  const memoryMb = browserRssMb() - blank;
  await page.context().close();
  return { openMs, lookupMs, scanMs, openMemoryMb, memoryMb, openBytes: opened.reads.bytes };
}

async function measureSqlJs(session) {
  const build = path.resolve(values['sqljs-build']);
  const page = await lazyPage(session);
  const blank = browserRssMb();
  await page.setInputFiles('#file', values.db);
  const base = `${session.url}/sqljs-build/`;
  const openMs = await page.evaluate(async (base) => {
    const started = performance.now();
    const source = `
      importScripts(${JSON.stringify(base + 'sql-wasm-lazy.js')});
      let db;
      onmessage = async (event) => {
        const { id, file, sql } = event.data;
        try {
          if (file) {
            const SQL = await initSqlJs({ locateFile: () => ${JSON.stringify(base + 'raw.wasm')} });
            SQL.FS.mkdir('/w');
            SQL.FS.mount(SQL.FS.filesystems.WORKERFS, { files: [file] }, '/w');
            db = new SQL.Database(null, '/w/' + file.name);
            postMessage({ id, ok: db.exec('SELECT name, sql FROM sqlite_schema').length });
          } else {
            postMessage({ id, ok: db.exec(sql)[0]?.values.length ?? 0 });
          }
        } catch (e) { postMessage({ id, error: String(e) }); }
      };`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    let next = 0;
    window.sqljs = (message) => new Promise((resolve) => {
      const id = ++next;
      worker.onmessage = (event) => event.data.id === id && resolve(event.data);
      worker.postMessage({ ...message, id });
    });
    const reply = await window.sqljs({ file: document.getElementById('file').files[0] });
    if (reply.error) throw new Error(reply.error);
    return performance.now() - started;
  }, base);
  const openMemoryMb = browserRssMb() - blank;
  const time = async (sql) => {
    const times = [];
    for (let i = 0; i < REPEAT; i++) {
      const reply = await page.evaluate(async (sql) => {
        const started = performance.now();
        const answer = await window.sqljs({ sql });
        return { ...answer, elapsedMs: performance.now() - started };
      }, sql);
      if (reply.error) throw new Error(reply.error);
      times.push(reply.elapsedMs);
    }
    return median(times);
  };
  const lookupMs = await time(LOOKUP);
  const scanMs = await time(SCAN);
  const memoryMb = browserRssMb() - blank;
  await page.context().close();
  return { openMs, lookupMs, scanMs, openMemoryMb, memoryMb, build };
}

const sizeMb = statSync(values.db).size / 1e6;
const mounts = values['sqljs-build'] ? { 'sqljs-build': values['sqljs-build'] } : {};
const session = await startSession({ mounts });
const rows = [];
try {
  rows.push(['sqlite-wasm + askdb VFS (www/lazy-worker.js)', await measureLazy(session)]);
  if (values['sqljs-build']) rows.push(['sql.js rebuilt, WORKERFS', await measureSqlJs(session)]);
} finally {
  await session.close();
}
const py = { lookupMs: python(LOOKUP), scanMs: python(SCAN) };

const f = (x) => (x === undefined ? '' : x.toFixed(x < 1 ? 2 : x < 10 ? 1 : 0));
console.log(`File: ${path.basename(values.db)}, ${sizeMb.toFixed(0)} MB; median of ${REPEAT} runs.\n`);
console.log('| engine | open + schema (ms) | indexed lookup (ms) | full-scan aggregate (ms) | memory above the blank page after the open / after the scan (MB) |');
console.log('| --- | --- | --- | --- | --- |');
for (const [name, m] of rows) {
  console.log(`| ${name} | ${f(m.openMs)} | ${f(m.lookupMs)} | ${f(m.scanMs)} | ${f(m.openMemoryMb)} / ${f(m.memoryMb)} |`);
}
console.log(`| Python sqlite3 (same file) | | ${f(py.lookupMs)} | ${f(py.scanMs)} | |`);
