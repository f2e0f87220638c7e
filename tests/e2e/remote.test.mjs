// Databases on a web server, as a person opens them: `?db=https://…` (an absolute address) and
// the address field beside "Open a file". The first ranged GET decides (engine::on_demand::remote::route):
// a file under 16 MiB is downloaded whole and read in memory, a larger one read on demand
// (PageDatabase::OnDemand). Each server is a range-server.mjs on 127.0.0.1 (another origin than
// the page); the tests of reading on demand make the page take every file as large
// (`onDemand`: the test page's `askdb-test-read-whole-below` set to 0 before it starts):
// - a small file on a server that serves ranges: downloaded whole after the first answer (one
//   request for a file under 64 KiB, two for the rest), hidden by a copy, counted exactly;
// - one that serves ranges with CORS, read on demand: the status says where it is read from, a
//   lookup reads a few pages (counted by the server too), the console says what each query read;
// - one that ignores Range: the whole file it sends is used, with a one-line note; past the
//   limit, one sentence, what to set folded under it, and nothing offered;
// - one whose CORS hides Content-Range: one sentence, what to expose folded, the offer works;
// - a file that changes on the server mid-session: the next query stops and says so (pinned by
//   its ETag, or by Last-Modified alone); one whose server sends no validator is not read in
//   parts (a small one is read whole, in one answer, and cannot change under the page);
// - the read budget per question (?budget=): what a question runs stays within it, the model
//   and the person are told; the console has none.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  ROOT, dataset, expectRows, expectSqlError, expectTable, resultTable, settledStatus, startSession,
  tempDir, visibleText, waitForOpen, waitUntil,
} from './harness.mjs';
import { ask, bodyText, call, configureFor, finalAnswer, scriptedLlm, steps, waitForAnswer } from './chat-support.mjs';
import { startRangeServer } from './range-server.mjs';

const ARTIFACTS = path.join(ROOT, 'tests', 'e2e', '.artifacts');
const SAKILA = 'sakila.db';
const SHOP = 'shop.db';
const LOOKUP = 'SELECT first_name, last_name FROM actor WHERE actor_id = 1';
let session;
let server;
let temp;

before(async () => {
  temp = await tempDir('remote');
  // The notes file of the "Check the model" test is served beside the page (?notes=files/…).
  session = await startSession({ mounts: { files: temp.dir } });
  copyFileSync(dataset('sakila/sakila.db'), path.join(temp.dir, SAKILA));
  copyFileSync(dataset('shop/shop.db'), path.join(temp.dir, SHOP));
  // Past the whole-download limit (512 MiB), and costing no disk: a sparse file.
  const huge = path.join(temp.dir, 'huge.db');
  copyFileSync(dataset('sakila/sakila.db'), huge);
  truncateSync(huge, 600 * 1024 * 1024);
  server = await startRangeServer(temp.dir);
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await server?.close();
  await session?.close();
  await temp?.remove();
});

const at = (mode, name = SAKILA) => `${server.url}/${mode}/${name}`;
const dbAddress = (url) => `?db=${encodeURIComponent(url)}`;
const host = () => new URL(server.url).host;
/** Opens every remote file on demand, whatever its size (see this file's header). */
const onDemand = (page) => page.addInitScript(() => localStorage.setItem('askdb-test-read-whole-below', '0'));
/** The disclosure under a refused address: what to set on the server. */
const serverHelp = async (page) => {
  const help = page.getByTestId('db-server-help');
  await help.locator('summary').click();
  return help.innerText();
};

/** Waits until the open fails; its message (the error's line, without what is folded under it). */
async function failedStatus(page, url) {
  await waitUntil(
    `the open of ${url} to fail`,
    () => settledStatus(page),
    (text) => text !== null && text.includes('Could not open'),
    60_000,
  );
  return page.locator('[data-testid="db-status"] .status-line.error').innerText();
}

async function shoot(page, name) {
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Each table of a database file: its columns and its rows, in rowid order. */
const DUMP_TABLES = `
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
tables = [name for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")]
print(json.dumps({t: {'columns': [c[1] for c in db.execute('PRAGMA table_info("%s")' % t)],
                      'rows': db.execute('SELECT * FROM "%s" ORDER BY rowid' % t).fetchall()} for t in tables}))
`;

/**
 * The copy the model reads (the test hook askdbAgentCopyBytes) holds shop.db without
 * customers.prefecture: the same tables, customers without that column, every other value
 * as in the file, and none of the prefectures' names or the column's name in its bytes.
 * Mutation: the in-memory copy made without the hiding script (`engine/page.rs`
 * `InMemory::copy_for_model` deriving with "") fails it; the length the test checked before
 * did not.
 */
async function expectCopyWithoutPrefecture(page) {
  const base64 = await page.evaluate(async () => {
    const bytes = await window.askdbAgentCopyBytes();
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
  const bytes = Buffer.from(base64, 'base64');
  assert.equal(bytes.subarray(0, 16).toString('latin1'), 'SQLite format 3\0', 'the model reads a copy');
  for (const secret of ['prefecture', 'Tokyo', 'Osaka', 'Hokkaido', 'Fukuoka']) {
    assert.equal(bytes.includes(secret), false, `the copy's bytes hold ${secret}`);
  }
  const copyFile = path.join(temp.dir, 'model-copy.db');
  writeFileSync(copyFile, bytes);
  const dump = (file) => JSON.parse(execFileSync('python3', ['-c', DUMP_TABLES, file]));
  const copy = dump(copyFile);
  const file = dump(path.join(temp.dir, SHOP));
  assert.deepEqual(Object.keys(copy), Object.keys(file));
  const prefecture = file.customers.columns.indexOf('prefecture');
  assert.ok(prefecture > 0, 'control: the file has the column');
  const without = (row) => row.filter((_, i) => i !== prefecture);
  assert.deepEqual(copy.customers, { columns: without(file.customers.columns), rows: file.customers.rows.map(without) });
  for (const table of Object.keys(file).filter((name) => name !== 'customers')) {
    assert.deepEqual(copy[table], file[table], table);
  }
}

test('a small file on a server that answers Range is downloaded whole after its first answer: hidden by a copy, counted exactly', async (t) => {
  server.reset();
  const page = await session.open({ search: `${dbAddress(at('range', SHOP))}&hide=customers.prefecture`, closeAfter: t });
  await waitForOpen(page, SHOP, 60_000);
  assert.equal(
    await visibleText(page, 'db-reading'),
    `downloaded whole from ${host()} (16 KB; files under 16 MiB are, so that everything works as for a file on this computer)`,
  );
  // 16 KB: the first ranged GET brought all of it.
  assert.deepEqual(server.stats().ranges, [[0, 16383]]);
  // Hidden by a copy (not refused as on demand), and the copy has no prefecture: not its
  // column, not one of its values anywhere in the bytes; every other value is the file's.
  await waitUntil('the copy', () => visibleText(page, 'hidden-line'), (text) => text === 'Hidden from the model: customers.prefecture');
  await expectCopyWithoutPrefecture(page);
  const countOf = (table) => page.locator(`[data-testid="schema-table"][data-name="${table}"] [data-testid="row-count"]`).innerText();
  await waitUntil('exact counts', () => countOf('orders'), (text) => text === '12 rows');
  await expectRows(page, 'SELECT count(*) FROM customers', [['6']]);

  // Sakila, 4.9 MB: the first 64 KiB, then the rest in one request; every byte once.
  server.reset();
  const sakila = await session.open({ search: dbAddress(at('range')), closeAfter: t });
  await waitForOpen(sakila, SAKILA, 60_000);
  assert.match(await visibleText(sakila, 'db-reading'), /^downloaded whole from .* \(4\.9 MB;/);
  const { ranges, bytes } = server.stats();
  assert.deepEqual(ranges, [[0, 65535], [65536, 4915199]]);
  assert.equal(bytes, 4915200);
  await expectRows(sakila, LOOKUP, [['PENELOPE', 'GUINESS']]);
  await shoot(sakila, 'remote-small-whole');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(sakila.problems, []);
});

test('?db=https://… reads a large database on demand: the status names the host, a lookup reads a few pages', async (t) => {
  server.reset();
  const page = await session.open({ search: dbAddress(at('range')), beforeLoad: onDemand, closeAfter: t });
  const status = await waitForOpen(page, SAKILA, 60_000);
  assert.match(status, /(?<!\d)\d+ tables\b/);
  assert.match(
    await visibleText(page, 'db-reading'),
    new RegExp(`^4\\.\\d MB, read on demand from ${host().replaceAll('.', '\\.')} \\(each read is an HTTP range request\\)$`),
  );
  const opened = server.stats().bytes;
  assert.ok(opened < 2_000_000, `opening read ${opened} bytes of a 4.9 MB file`);

  server.reset();
  await expectRows(page, LOOKUP, [['PENELOPE', 'GUINESS']]);
  const reads = await visibleText(page, 'result-reads');
  const counted = server.stats();
  const match = /^read (.+) in (\d+) reads?$/.exec(reads);
  assert.ok(match, `the console says what the query read: ${reads}`);
  assert.equal(Number(match[2]), counted.requests, 'the page counts the requests the server answered');
  assert.ok(counted.bytes < 1_200_000, `a lookup read ${counted.bytes} bytes`);
  await shoot(page, 'remote-opened');
  assert.deepEqual(page.problems, []);
});

test('the address field beside "Open a file" opens a URL on demand, and refuses what is not one', async (t) => {
  const page = await session.open({ beforeLoad: onDemand, closeAfter: t });
  await page.getByTestId('db-address').fill('files/not-an-address.db');
  await page.getByTestId('db-address-open').click();
  const refusal = await waitUntil('the refusal', () => settledStatus(page), (text) => text?.includes('not a web address'));
  assert.match(refusal, /starts with https:\/\//);

  // Found by its visible label, as a person (or a screen reader) finds it.
  const field = page.getByLabel('Or open one from a web address');
  const label = await page.locator('label[for="db-address"]').boundingBox();
  assert.ok(label.width > 100 && label.height > 10, `the label is seen, not only read: ${JSON.stringify(label)}`);
  await field.fill(at('range'));
  await field.press('Enter');
  await waitForOpen(page, SAKILA, 60_000);
  assert.match(await visibleText(page, 'db-reading'), /read on demand from 127\.0\.0\.1:\d+/);
  await expectRows(page, LOOKUP, [['PENELOPE', 'GUINESS']]);
  assert.deepEqual(page.problems, []);
});

test('a server that ignores Range sends the whole file: the page uses it, with a one-line note, no click', async (t) => {
  server.reset();
  const page = await session.open({ search: dbAddress(at('ignore-range')), beforeLoad: onDemand, closeAfter: t });
  await waitForOpen(page, SAKILA, 60_000);
  assert.equal(await visibleText(page, 'db-reading'), `${host()} sends whole files; downloaded 4.9 MB`);
  // One request: the bytes it was already sending.
  assert.equal(server.stats().requests, 1);
  assert.equal(server.stats().bytes, 4915200);
  assert.equal(await page.getByTestId('db-download-whole').count(), 0);
  await expectRows(page, LOOKUP, [['PENELOPE', 'GUINESS']]);
  await shoot(page, 'remote-range-ignored');
  assert.deepEqual(page.problems, []);
});

test('past the whole-download limit: one sentence, what to set folded under it, nothing offered', async (t) => {
  const page = await session.open({ search: dbAddress(at('ignore-range', 'huge.db')), closeAfter: t });
  const message = await failedStatus(page, 'huge.db');
  assert.match(message, /ignores the Range header\), so the database cannot be read on demand\. At 629 MB it is too large to download whole here \(at most 537 MB\)\.$/);
  assert.doesNotMatch(message, /nginx/, 'what to set is folded, not in the sentence');
  const help = await serverHelp(page);
  assert.match(help, /nginx/);
  assert.match(help, /CloudFront/);
  assert.equal(await page.getByTestId('db-download-whole').count(), 0);
  await shoot(page, 'remote-too-large');
  assert.deepEqual(page.problems, []);
});

test('a server whose CORS hides Content-Range: one sentence, what to expose folded, and the offer works', async (t) => {
  const page = await session.open({ search: dbAddress(at('hidden')), closeAfter: t });
  const message = await failedStatus(page, at('hidden'));
  assert.match(message, /hide the Content-Range header/);
  assert.match(message, /size is not known yet: the download stops past 537 MB/);
  assert.match(await serverHelp(page), /Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified/);
  await page.getByTestId('db-download-whole').click();
  await waitForOpen(page, SAKILA, 60_000);
  assert.equal(await visibleText(page, 'db-reading'), `downloaded whole from ${host()} (4.9 MB)`);
  await expectRows(page, LOOKUP, [['PENELOPE', 'GUINESS']]);
  assert.deepEqual(page.problems, []);
});

/** `name`, a copy of Sakila, and `name`-v2: the same length, actor 1 renamed in place. */
function twoVersions(name) {
  copyFileSync(path.join(temp.dir, SAKILA), path.join(temp.dir, name));
  copyFileSync(path.join(temp.dir, SAKILA), path.join(temp.dir, `${name}-v2`));
  execFileSync('python3', ['-c', `
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE actor SET first_name = 'PENELOPX' WHERE actor_id = 1")
c.execute("UPDATE payment SET amount = amount + 1")
c.commit()
`, path.join(temp.dir, `${name}-v2`)]);
}

test('a file that changes on the server mid-session stops the next query with a clear message', async (t) => {
  const name = 'changing.db';
  copyFileSync(path.join(temp.dir, SAKILA), path.join(temp.dir, name));
  const page = await session.open({ search: dbAddress(at('range', name)), beforeLoad: onDemand, closeAfter: t });
  await waitForOpen(page, name, 60_000);
  await expectRows(page, LOOKUP, [['PENELOPE', 'GUINESS']]);
  server.touch(name);
  // Reads pages the lookup did not: the server's answers carry the new ETag.
  const error = await expectSqlError(page, 'SELECT count(*), sum(amount) FROM payment');
  assert.match(error, /the database changed: the file on the server changed since it was opened \(its ETag was/);
  assert.match(error, /open it again/i);
  // And it stays stopped: a query that needs no new page says so too, rather than mix versions.
  const again = await expectSqlError(page, 'SELECT count(*) FROM rental');
  assert.match(again, /the database changed/);
  assert.deepEqual(page.problems, []);
});

test('a file pinned by Last-Modified alone, replaced by one of the same length mid-session, is never read as two versions', async (t) => {
  const name = 'lm.db';
  twoVersions(name);
  const page = await session.open({ search: dbAddress(at('lm-only', name)), beforeLoad: onDemand, closeAfter: t });
  await waitForOpen(page, name, 60_000);
  assert.match(await visibleText(page, 'db-reading'), /read on demand from/);
  await expectRows(page, LOOKUP, [['PENELOPE', 'GUINESS']]);
  server.replace(name, `${name}-v2`);
  t.after(() => server.restore(name));
  // Pages the lookup did not read: they would come from the new version.
  const error = await expectSqlError(page, 'SELECT count(*), sum(amount) FROM payment');
  assert.match(error, /the database changed: the file on the server changed since it was opened \(its Last-Modified was/);
  const again = await expectSqlError(page, LOOKUP);
  assert.match(again, /the database changed/);
  // Positive control: the new version is what the server now sends (and differs).
  const fresh = await session.open({ search: dbAddress(at('lm-only', name)), beforeLoad: onDemand, closeAfter: t });
  await waitForOpen(fresh, name, 60_000);
  await expectRows(fresh, LOOKUP, [['PENELOPX', 'GUINESS']]);
  assert.deepEqual(page.problems, []);
});

test('a server that sends no validator: a large file is not read in parts (the whole download is offered), a small one is read whole in one answer', async (t) => {
  const name = 'unpinned.db';
  twoVersions(name);
  const refused = await session.open({ search: dbAddress(at('no-validators', name)), beforeLoad: onDemand, closeAfter: t });
  const message = await failedStatus(refused, name);
  assert.match(message, /sends neither an ETag nor a Last-Modified header/);
  assert.match(message, /downloaded whole instead \(4\.9 MB\)/);
  assert.match(await serverHelp(refused), /ETag/);

  // Small enough to read whole: the file is asked for again in one answer (the first part set
  // aside), so no two answers are mixed; replaced afterwards, the page still reads what it has.
  server.reset();
  const page = await session.open({ search: dbAddress(at('no-validators', name)), closeAfter: t });
  await waitForOpen(page, name, 60_000);
  assert.deepEqual(server.stats().ranges, [[0, 65535], [0, 4915199]]);
  server.replace(name, `${name}-v2`);
  t.after(() => server.restore(name));
  await expectRows(page, LOOKUP, [['PENELOPE', 'GUINESS']]);
  await refused.getByTestId('db-download-whole').click();
  await waitForOpen(refused, name, 60_000);
  // Positive control: what the server sends now is the new version.
  await expectRows(refused, LOOKUP, [['PENELOPX', 'GUINESS']]);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(refused.problems, []);
});

// The read budget: ?budget=1 (1 MB per question) on a make_big.py file of about 9 MB.
const SCAN = 'SELECT status, count(*), sum(length(ordered_at)) FROM orders GROUP BY status';
const NO_ROWS = "SELECT id FROM orders WHERE customer_id = 7 AND status = 'shipped'";
const LOOKUP_ORDERS = 'SELECT id, status FROM orders WHERE customer_id = 7 ORDER BY id';

test('a question on a remote database stays within its read budget: queries, diagnostics and the re-run stop, and the model is told', async (t) => {
  execFileSync('python3', [dataset('big/make_big.py'), path.join(temp.dir, 'budget.db'), '--orders', '60000']);
  const llm = await scriptedLlm(t, [
    call('run_sql', { sql: NO_ROWS }),
    call('run_sql', { sql: SCAN }),
    // Refused: its SQL does not run within the budget (final_answer runs it to check it).
    finalAnswer('Most orders are paid.', SCAN),
    finalAnswer("Customer 7's orders are listed.", LOOKUP_ORDERS),
  ]);
  const page = await session.open({ search: `${dbAddress(at('range', 'budget.db'))}&budget=1`, beforeLoad: onDemand, closeAfter: t });
  await waitForOpen(page, 'budget.db', 60_000);
  await configureFor(page, llm, 'openai');
  server.reset();
  await ask(page, 'How are orders split by status?');
  await waitForAnswer(page, 60_000);
  await waitUntil("the question's reads", () => visibleText(page, 'usage'), (text) => text !== null && /from the database/.test(text), 60_000);
  const { bytes: sent, requests } = server.stats();
  // Everything the question ran (its queries, the diagnostics of the empty result, the answer's
  // re-run) read at most the budget from the server.
  assert.ok(sent <= 1_000_000, `the question read ${sent} bytes from the server`);
  const stop = /stopped: this query would read more from the database's server than the read budget of 1\.0 MB allows/;
  // The model was told what happened and what would help.
  const told = llm.modelRequests().map(bodyText).filter((body) => stop.test(body));
  assert.ok(told.length > 0, 'the budget stop went to the model');
  assert.ok(told.some((body) => body.includes('needs an index on the column it filters')), 'with what would help');
  assert.ok(told.some((body) => body.includes('not accepted, because the evidence SQL does not run')), "the answer's check stopped too");
  // And the person: in the step; the answer's indexed SQL ran again within what was left.
  const scanStep = (await steps(page)).filter((step) => step.tool === 'run_sql')[1];
  assert.match(scanStep.text, stop);
  assert.ok((await resultTable(page, 'answer-result')).rows.length > 0, "the answer's SQL ran again");
  await shoot(page, 'remote-budget-stop');

  // The ledger says what the question read, in HTTP requests as the server counted them.
  await page.locator('.ledger-details > summary').click();
  const line = await visibleText(page, 'ledger-reads-question');
  const read = /^“How are orders split by status\?” read [\d.]+ (B|KB|MB) in (\d+) HTTP requests? from the server$/.exec(line);
  assert.ok(read, `the ledger's line: ${line}`);
  assert.equal(Number(read[2]), requests);

  // Positive control: the console has no budget, and the same scan answers there.
  server.reset();
  await expectTable(page, SCAN, (table) => table.rows.length === 3, 'three statuses', { timeout: 60_000 });
  assert.ok(server.stats().bytes > 1_000_000, `the whole scan read ${server.stats().bytes} bytes`);
  assert.deepEqual(page.problems, []);
});

test('three candidates that each scan share the one read budget of their question', async (t) => {
  execFileSync('python3', [dataset('big/make_big.py'), path.join(temp.dir, 'shared.db'), '--orders', '60000']);
  const scans = [
    SCAN,
    'SELECT count(*), sum(quantity) FROM order_items',
    'SELECT segment, count(*) FROM customers GROUP BY segment',
  ];
  // Turns go to the candidates in the order their requests come: each asks for a scan first.
  const llm = await scriptedLlm(t, [
    ...scans.map((sql) => call('run_sql', { sql })),
    ...scans.map(() => finalAnswer("Customer 7's orders.", LOOKUP_ORDERS)),
  ]);
  const search = `${dbAddress(at('range', 'shared.db'))}&budget=1&candidates=3`;
  const page = await session.open({ search, beforeLoad: onDemand, closeAfter: t });
  await waitForOpen(page, 'shared.db', 60_000);
  await configureFor(page, llm, 'openai');
  server.reset();
  await ask(page, 'What do the orders look like?');
  await waitUntil('the candidates to agree', () => visibleText(page, 'agreement'), Boolean, 120_000);
  const { bytes } = server.stats();
  // Positive control: the scans reached the server, and want far more than 1 MB together.
  assert.ok(bytes > 100_000, `the question read only ${bytes} bytes`);
  assert.ok(bytes <= 1_000_000, `three candidates read ${bytes} bytes with a budget of 1 MB`);
  const stop = /read budget of 1\.0 MB allows/;
  const told = llm.modelRequests().map(bodyText).filter((body) => stop.test(body));
  assert.ok(told.length >= 2, `the budget stopped at least two of the scans (${told.length})`);
  assert.deepEqual(page.problems, []);
});

test('row counts on a remote database never scan: sqlite_stat1 where present, else not counted, with "Count rows"', async (t) => {
  const analyzed = 'analyzed.db';
  copyFileSync(path.join(temp.dir, SAKILA), path.join(temp.dir, analyzed));
  execFileSync('python3', ['-c', 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("ANALYZE"); c.commit()', path.join(temp.dir, analyzed)]);
  const countOf = (page, table) => page.locator(`[data-testid="schema-table"][data-name="${table}"] [data-testid="row-count"]`).innerText();

  const plain = await session.open({ search: dbAddress(at('range')), beforeLoad: onDemand, closeAfter: t });
  server.reset();
  await waitForOpen(plain, SAKILA, 60_000);
  await waitUntil('the counts to settle', () => countOf(plain, 'rental'), (text) => !/counting/.test(text));
  assert.equal(await countOf(plain, 'rental'), 'rows not counted');
  assert.equal(await countOf(plain, 'actor'), 'rows not counted');
  // The person may count one: that reads the table, once asked.
  await plain.locator('[data-testid="schema-table"][data-name="actor"] details').evaluate((details) => { details.open = true; });
  await plain.locator('[data-testid="schema-table"][data-name="actor"] [data-testid="count-rows"]').click();
  await waitUntil('actor to be counted', () => countOf(plain, 'actor'), (text) => text === '200 rows');

  const withStats = await session.open({ search: dbAddress(at('range', analyzed)), beforeLoad: onDemand, closeAfter: t });
  await waitForOpen(withStats, analyzed, 60_000);
  await waitUntil('the estimate', () => countOf(withStats, 'rental'), (text) => /^about 16,0\d\d rows \(estimated\)$/.test(text));
  assert.deepEqual(plain.problems, []);
  assert.deepEqual(withStats.problems, []);
});

test('"Check the model" on a remote database: each golden question has the read budget of one question', async (t) => {
  execFileSync('python3', [dataset('big/make_big.py'), path.join(temp.dir, 'checked.db'), '--orders', '60000']);
  const notes = {
    format: 'askdb-knowledge/1',
    checks: [
      { question: 'How are orders split by status?', sql: SCAN },
      { question: "Which are customer 7's orders?", sql: LOOKUP_ORDERS },
    ],
  };
  writeFileSync(path.join(temp.dir, 'checks.json'), JSON.stringify(notes));
  const llm = await scriptedLlm(t, [finalAnswer("Customer 7's orders.", LOOKUP_ORDERS)]);
  const search = `${dbAddress(at('range', 'checked.db'))}&notes=files/checks.json&budget=1`;
  const page = await session.open({ search, beforeLoad: onDemand, closeAfter: t });
  await waitForOpen(page, 'checked.db', 60_000);
  await configureFor(page, llm, 'openai');
  await page.getByTestId('settings').click();
  server.reset();
  await page.getByTestId('checks-button').click();
  await page.getByTestId('checks-run').click();
  const results = await waitUntil(
    'both golden questions to be judged',
    () => page.$$eval('[data-testid="check-result"]', (items) => items.map((item) => item.textContent)),
    (texts) => texts.length === 2,
    90_000,
  );
  // The first one's expected SQL scans orders: it stops at the budget, and says so.
  assert.match(results[0], /read budget of 1\.0 MB/);
  // The second, asked after it, had a budget of its own: it was judged right.
  assert.doesNotMatch(results[1], /read budget/);
  const { bytes } = server.stats();
  assert.ok(bytes <= 2_000_000, `the two golden questions read ${bytes} bytes`);
  await page.locator('.ledger-details > summary').click();
  const lines = await page.$$eval('[data-testid="ledger-reads-question"]', (items) => items.map((item) => item.textContent));
  assert.equal(lines.length, 2, `the ledger lists each golden question: ${lines}`);
  assert.deepEqual(page.problems, []);
});
