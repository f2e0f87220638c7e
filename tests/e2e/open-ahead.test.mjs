// An open with nothing before it (issue 43): a file given to the file input with no pointer
// over the database panel, no focus on its controls, no drag (ui::open_ahead, www/worker.js).
// - a worker's thread starts at the page's first quiet moment, with sql.js's scripts but not
//   its wasm, and the open with nothing before it runs there (neither the browser's start of a
//   thread nor those scripts' fetch is on its path);
// - SQLite's worker reads the file while the opening code is still downloading: held back
//   here, the code arrives after the worker has started loading SQLite;
// - a file of 16 MiB and more opens schema first: its tables are shown from its schema's
//   pages, and then its row counts and queries answer from the whole file, as SQLite does.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import {
  chooseFile,
  dataset,
  expectRows,
  recordRequests,
  schemaNames,
  sessionForFile,
  tempDir,
  waitForOpen,
  waitUntil,
} from './harness.mjs';

const session = sessionForFile();

test("a worker's thread starts at the first quiet moment without SQLite's wasm; the next open runs in it", async (t) => {
  const page = await session.open({
    closeAfter: t,
    beforeLoad: (page) => {
      recordRequests(page);
      page.workersSeen = [];
      page.on('worker', (worker) => page.workersSeen.push(worker));
    },
  });
  const resting = await waitUntil(
    "a worker's thread, with nothing before it",
    () => page.workersSeen.find((worker) => worker.url().endsWith('/worker.js')),
    (worker) => worker !== undefined,
    10_000,
  );
  // sql.js's scripts are loaded in it; its wasm waits for a sign of an open.
  await waitUntil('sql.js\'s scripts in that worker', () => resting.evaluate(() => typeof initSqlJs), (type) => type === 'function');
  assert.equal(await resting.evaluate(() => sqlReady === null), true, 'SQLite not loaded');
  assert.deepEqual(page.requestsSeen.filter((name) => /sql-wasm\.wasm|split_/.test(name)), []);
  await chooseFile(page, dataset('shop/shop.db'));
  await waitForOpen(page, 'shop.db');
  // The database is open in that thread: the open took it rather than starting another.
  assert.equal(await resting.evaluate(() => db !== null), true);
  assert.deepEqual(page.problems, []);
});

test('a file chosen with nothing before it is read by SQLite while the opening code downloads', async (t) => {
  const page = await session.open({ beforeLoad: recordRequests, closeAfter: t });
  let release;
  const released = new Promise((resolve) => (release = resolve));
  await page.route('**/split_database.wasm', async (route) => {
    await released;
    await route.continue();
  });
  await chooseFile(page, dataset('shop/shop.db'));
  try {
    await waitUntil(
      "SQLite's wasm to be fetched while the opening code is held back",
      () => page.requestsSeen,
      (seen) => seen.includes('sql-wasm.wasm'),
      10_000,
    );
    assert.ok(page.requestsSeen.includes('split_database.wasm'), 'the opening code was asked for, and is held');
  } finally {
    release();
  }
  await waitForOpen(page, 'shop.db');
  assert.deepEqual(await schemaNames(page), ['customers', 'orders', 'products']);
  assert.deepEqual(page.problems, []);
});

test('a large file opens schema first; its counts and queries answer from the whole file', async (t) => {
  const { dir, remove } = await tempDir('schema-first-page');
  t.after(remove);
  const file = path.join(dir, 'large.db');
  // 24 MiB: past SCHEMA_FIRST_FROM_BYTES (16 MiB), with tables created after the data, so that
  // some of its schema's pages sit past the first MiB.
  execFileSync('python3', [
    '-c',
    `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE readings (id INTEGER PRIMARY KEY, sensor TEXT, value REAL, raw BLOB)")
db.executemany("INSERT INTO readings (sensor, value, raw) VALUES (?, ?, randomblob(3000))", ((f"s{i % 7}", i * 0.5) for i in range(8000)))
for t in range(150):
    db.execute(f"CREATE TABLE later_{t:03} (id INTEGER PRIMARY KEY, note TEXT, " + ", ".join(f"a_long_column_name_{c:02} TEXT" for c in range(30)) + ")")
db.execute("INSERT INTO later_149 (note) VALUES ('the last table')")
db.commit()`,
    file,
  ]);
  // What the page asks its SQLite workers, and when they answer, in order: a count of rows is
  // a statement with `count(*)`.
  const page = await session.open({
    closeAfter: t,
    beforeLoad: (page) =>
      page.addInitScript(() => {
        window.__asked = [];
        const BrowserWorker = window.Worker;
        window.Worker = class extends BrowserWorker {
          constructor(url, options) {
            super(url, options);
            if (!String(url).endsWith('/worker.js')) return;
            const kinds = new Map();
            const kind = (message) => (/count\(\*\)/.test(message.sql ?? '') ? 'count' : message.type);
            const post = this.postMessage.bind(this);
            this.postMessage = (message, transfer) => {
              kinds.set(message.id, kind(message));
              window.__asked.push(`asked: ${kind(message)}`);
              return post(message, transfer);
            };
            this.addEventListener('message', (event) => {
              if (!('progress' in event.data)) window.__asked.push(`answered: ${kinds.get(event.data.id)}`);
            });
          }
        };
      }),
  });
  await chooseFile(page, file);
  await waitForOpen(page, 'large.db');
  const names = await schemaNames(page);
  assert.equal(names.length, 151);
  assert.ok(names.includes('readings') && names.includes('later_149'));
  const steps = await page.evaluate(() => window.askdbOpenSteps().map((step) => step.step));
  assert.ok(
    steps.includes("read the schema's pages and open them (worker, from the choice)"),
    `opened schema first: ${steps}`,
  );
  // The whole file answers: the row count the schema shows, and a query over the data.
  await waitUntil(
    "the readings table's row count",
    () => page.locator('[data-testid="schema-table"][data-name="readings"]').innerText(),
    (text) => /8,000/.test(text),
  );
  // The identity (the SHA-256 of the file, in a worker of its own) is taken beside the whole
  // read the row counts wait for, not after them: it is asked for before the first count is
  // answered.
  const asked = await page.evaluate(() => window.__asked);
  const firstCount = asked.indexOf('answered: count');
  assert.ok(firstCount > 0, `the rows were counted: ${asked}`);
  assert.ok(asked.slice(0, firstCount).includes('asked: digest'), `the identity asked for before the counts: ${asked}`);
  await expectRows(page, 'SELECT sensor, count(*), sum(length(raw)) FROM readings GROUP BY sensor ORDER BY sensor LIMIT 2', [
    ['s0', '1143', '3429000'],
    ['s1', '1143', '3429000'],
  ]);
  await expectRows(page, 'SELECT note FROM later_149', [['the last table']]);
  assert.deepEqual(page.problems, []);
});
