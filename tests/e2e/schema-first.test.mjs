// A large file opens schema first (www/worker.js, "The schema first"): the worker reads page 1
// and the pages of sqlite_schema's b-tree, opens them alone, and answers the page's schema
// statements there while the whole file is read. The walk over the b-tree imitates SQLite's
// file format, so SQLite is the judge, in Node (the worker's script runs in this process with
// sql.js's Node build, the file as a Blob over the file on disk):
// - on every layout tests/e2e/schema-layouts.py makes (page sizes 512-65536, interior pages,
//   overflow chains, schema pages past the first MiB, reserved bytes), the walk's buffer holds
//   each schema page dbstat lists, byte for byte, and the open answers schema first;
// - the schema statements answer there what SQLite answers on the whole file;
// - on those files mutated (bytes of their schema pages changed at random), whatever the walk
//   makes of them, every statement answers what SQLite answers on the whole mutated file, or
//   fails where SQLite fails: a preview that cannot be trusted is never what the page sees.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openAsBlob, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, test } from 'node:test';
import vm from 'node:vm';
import { ROOT, tempDir } from './harness.mjs';

const require = createRequire(import.meta.url);
const initSqlJs = require(path.join(ROOT, 'node_modules', 'sql.js', 'dist', 'sql-wasm.js'));
const SQL = await initSqlJs();

/** The statements the page names as reading the schema only (src/engine/schema.rs). */
function schemaOnlyQueries() {
  const source = readFileSync(path.join(ROOT, 'src', 'engine', 'schema.rs'), 'utf8');
  const block = source.match(/pub const SCHEMA_ONLY_QUERIES: \[&str; 3\] = \[([\s\S]*?)\n\];/);
  assert.ok(block, 'SCHEMA_ONLY_QUERIES is in src/engine/schema.rs');
  const literals = [...block[1].matchAll(/"((?:[^"\\]|\\[\s\S])*)"/g)].map(([, body]) =>
    body.replace(/\\\n\s*/g, '').replace(/\\(["\\])/g, '$1'),
  );
  assert.equal(literals.length, 3);
  return literals;
}
const STATEMENTS = schemaOnlyQueries();

const WORKER = readFileSync(path.join(ROOT, 'www', 'worker.js'), 'utf8');
let rowsLoaded = false;
globalThis.self = globalThis;
// rows.js once: its declarations are this context's, as in a worker's.
globalThis.importScripts = () => {
  if (!rowsLoaded) vm.runInThisContext(readFileSync(path.join(ROOT, 'www', 'rows.js'), 'utf8'));
  rowsLoaded = true;
};
globalThis.initSqlJs = () => initSqlJs();
let replies = [];
globalThis.postMessage = (message) => replies.push(message);

/**
 * A fresh run of the worker's script in this process (its own state, as a new worker has):
 * `ask(message)` answers as its postMessage would; `state()` reads its `preview`, whether its
 * warm-up is done and how many requests it is answering;
 * `readSchemaPages` is its walk.
 */
function loadWorker() {
  const script = vm.runInThisContext(
    `(function () {\n${WORKER}\nreturn { onmessage: self.onmessage, state: () => ({ preview, warmedUp, inFlight }), readSchemaPages };\n})`,
  )();
  let id = 0;
  script.ask = async (message) => {
    replies = [];
    await script.onmessage({ data: { ...message, id: ++id } });
    return replies.find((reply) => !('progress' in reply));
  };
  return script;
}

/** Rows as the worker sends them, BigInt integers as text, for comparing. */
const plain = (rows) => JSON.stringify(rows, (_, value) => (typeof value === 'bigint' ? `${value}` : value));

/** What SQLite answers `sql` on the whole file `bytes`: its rows, or its error. */
function judge(bytes, sql) {
  let db;
  try {
    db = new SQL.Database(bytes);
    const statement = db.prepare(sql);
    const rows = [];
    while (statement.step()) rows.push(statement.get(null, { useBigInt: true }));
    statement.free();
    return { rows: plain(rows) };
  } catch (e) {
    return { error: String(e.message ?? e) };
  } finally {
    db?.close();
  }
}

/** Opens `file` in a fresh worker state, schema first when it can; then each statement. */
async function openAndAsk(file) {
  // A fresh worker each time: the script again, in this same process.
  const worker = loadWorker();
  await worker.ask({ type: 'init', base: 'http://127.0.0.1/worker.js' });
  const opened = await worker.ask({ type: 'open', source: await openAsBlob(file), previewSql: STATEMENTS });
  const answers = [];
  let previewHeld = true;
  for (const sql of STATEMENTS) {
    const reply = await worker.ask({ type: 'run', sql, params: [], maxRows: 100_000, countBudgetMs: 60_000 });
    // Still there after the statement: it ran on the schema's pages, not the whole file.
    previewHeld &&= worker.state().preview !== null;
    answers.push('ok' in reply ? { rows: plain(reply.ok.rows) } : { error: reply.error ?? reply.crashed ?? reply.unavailable });
  }
  // Any other statement waits for the whole file: the schema's pages let go of then.
  const data = await worker.ask({ type: 'run', sql: 'SELECT count(*) FROM parent', params: [], maxRows: 10, countBudgetMs: 60_000 });
  const released = worker.state().preview === null;
  return { opened, answers, previewHeld, data, released };
}

const { dir, remove } = await tempDir('schema-layouts');
after(remove);
execFileSync('python3', [path.join(ROOT, 'tests', 'e2e', 'schema-layouts.py'), dir]);
const LAYOUTS = JSON.parse(readFileSync(path.join(dir, 'layouts.json'), 'utf8'));

test("the walk finds every page of the schema that SQLite's dbstat lists, in every layout", async () => {
  let beyondHead = 0;
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    const bytes = readFileSync(layout.file);
    const buffer = await loadWorker().readSchemaPages(await openAsBlob(layout.file));
    assert.ok(buffer, `${name}: the walk gave up`);
    for (const page of layout.schemaPages) {
      const at = (page - 1) * layout.pageSize;
      assert.ok(
        Buffer.from(buffer.subarray(at, at + layout.pageSize)).equals(bytes.subarray(at, at + layout.pageSize)),
        `${name}: schema page ${page} is not in the walk's buffer as it is in the file`,
      );
      if (at >= 1024 * 1024) beyondHead += 1;
    }
  }
  assert.ok(beyondHead > 0, 'some layouts have schema pages past the first MiB (read one by one)');
});

test('every layout opens schema first, and its schema statements answer what SQLite answers on the whole file', async () => {
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    const { opened, answers, previewHeld, data, released } = await openAndAsk(layout.file);
    assert.equal(opened.ok?.preview, true, `${name}: opened schema first`);
    assert.ok(previewHeld, `${name}: the statements ran while the whole file was not open`);
    assert.ok(released, `${name}: a statement on the data waited for the whole file`);
    assert.equal(plain(data.ok.rows), judge(readFileSync(layout.file), 'SELECT count(*) FROM parent').rows);
    const bytes = readFileSync(layout.file);
    STATEMENTS.forEach((sql, i) => assert.deepEqual(answers[i], judge(bytes, sql), `${name}: statement ${i + 1}`));
    assert.ok(JSON.parse(answers[0].rows).length > 0, `${name}: the schema lists tables (the control)`);
  }
});

test('mutated schema pages: whatever the walk makes of them, the statements answer what SQLite answers on the whole file', async () => {
  // A fixed seed: a failure names the file and bytes that made it.
  let seed = 20261206;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  let previews = 0;
  let fallbacks = 0;
  const names = Object.keys(LAYOUTS);
  for (let round = 0; round < 60; round++) {
    const layout = LAYOUTS[names[round % names.length]];
    const bytes = Buffer.from(readFileSync(layout.file));
    const changes = [];
    for (let k = 0; k < 1 + Math.floor(random() * 4); k++) {
      const page = layout.schemaPages[Math.floor(random() * layout.schemaPages.length)];
      // Mostly the b-tree's own bytes (page header, cell pointers, the start of cells): the
      // walk reads those.
      const within = random() < 0.7 ? Math.floor(random() * 64) : Math.floor(random() * layout.pageSize);
      const at = (page - 1) * layout.pageSize + (page === 1 ? 100 : 0) + within;
      if (at >= bytes.length) continue;
      bytes[at] = Math.floor(random() * 256);
      changes.push(at);
    }
    const file = path.join(dir, `mutated-${round}.db`);
    writeFileSync(file, bytes);
    const { opened, answers } = await openAndAsk(file);
    if (opened.ok?.preview) previews += 1;
    else fallbacks += 1;
    STATEMENTS.forEach((sql, i) => {
      const expected = judge(bytes, sql);
      const got = answers[i];
      if ('rows' in expected) {
        assert.deepEqual(got, expected, `${path.basename(layout.file)} with bytes ${changes} changed: statement ${i + 1}`);
      } else {
        assert.ok('error' in got || opened.error, `${path.basename(layout.file)} with bytes ${changes} changed: SQLite fails (${expected.error}), the worker answered ${JSON.stringify(got)}`);
      }
    });
  }
  // The control: both paths were taken, so the comparison above saw previews and whole opens.
  assert.ok(previews > 0 && fallbacks > 0, `previews ${previews}, whole opens ${fallbacks}`);
});

// The warm-up (worker.js, warmUp): a worker that opened a large database (16 MiB and more)
// before its warm-up was done (an open started at the choice) warms afterwards, a step at a
// time, only while it answers no request; after a small one it does not (its queries take
// milliseconds on any code). Mutations: the warm-up after an open not scheduled
// (openDatabase) → the large file's worker never warmed; no size threshold → the small
// file's worker warmed.
async function openMade(sql) {
  const made = new SQL.Database();
  made.exec(sql);
  const bytes = made.export();
  made.close();
  const worker = loadWorker();
  await worker.ask({ type: 'init', base: 'http://127.0.0.1/worker.js' });
  const opened = await worker.ask({ type: 'open', source: new Blob([bytes]) });
  assert.ok('ok' in opened, JSON.stringify(opened));
  assert.equal(worker.state().warmedUp, false, 'not warmed by the open itself');
  return { worker, size: bytes.length };
}

test('a worker that opened a large database unwarmed warms afterwards, between requests; after a small one it does not', async () => {
  const large = await openMade(
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b BLOB); WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 17) INSERT INTO t(b) SELECT zeroblob(1048576) FROM r;",
  );
  assert.ok(large.size >= 16 * 1024 * 1024, `the large file is ${large.size} bytes`);
  // Requests keep being answered while it warms; each sees the database, whole.
  const deadline = Date.now() + 10_000;
  let answered = 0;
  while (!large.worker.state().warmedUp) {
    assert.ok(Date.now() < deadline, 'warmed within 10 s of the open');
    const reply = await large.worker.ask({ type: 'run', sql: 'SELECT count(*) FROM t', params: [], maxRows: 10, countBudgetMs: 1000 });
    assert.equal(plain(reply.ok.rows), '[["17"]]');
    answered += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.ok(answered > 0);
  assert.equal(large.worker.state().inFlight, 0);

  const small = await openMade("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT); INSERT INTO t(b) VALUES ('x'), ('y');");
  // As long as the large one took to warm, and more.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal(small.worker.state().warmedUp, false, 'a small file: no warm-up after its open');
});
