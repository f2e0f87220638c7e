// Data files become a database in the page (issue 27): CSV, TSV, JSON, NDJSON and Excel open
// as read-only databases with a table per file or sheet; several files open together and the
// agent joins them; a hostile CSV is shown inert; the database made can be downloaded; and the
// import worker is fetched only when a data file is opened.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import {
  ROOT,
  chooseFile,
  expectRows,
  exportedBytes,
  expectSqlError,
  resultTable,
  runSql,
  schemaNames,
  sessionForFile,
  settledStatus,
  tempDir,
  waitForOpen,
  waitUntil,
} from './harness.mjs';
import { ask, call, configureFor, expectAnswerRows, finalAnswer, openWatched, scriptedLlm, waitForAnswer } from './chat-support.mjs';

const { dir: DATA, remove: removeData } = await tempDir('import-data');
after(removeData);
const ORDERS = 'id,customer,total,zip\n1,1,12.5,00501\n2,2,7,10001\n3,1,30,00501\n';
const CUSTOMERS = 'id,name,vip\n1,Alice,true\n2,Bob,false\n';
await writeFile(path.join(DATA, 'orders.csv'), ORDERS);
await writeFile(path.join(DATA, 'customers.csv'), CUSTOMERS);
const session = sessionForFile({ mounts: { data: DATA } });

const file = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
const workerRequests = (page) => page.requestsSeen.filter((url) => url.includes('askdb-import-worker'));

async function openPage(t, search = '') {
  const page = await openWatched(t, session, search);
  page.requestsSeen = [];
  page.on('request', (request) => page.requestsSeen.push(request.url()));
  return page;
}

test('each kind of data file opens as a read-only database, its values typed as people expect', async (t) => {
  const page = await openPage(t);
  assert.deepEqual(workerRequests(page), [], 'the first visit does not fetch the importer');
  await chooseFile(page, file('orders.csv', ORDERS));
  const status = await waitForOpen(page, 'orders.csv (imported)', 60_000);
  assert.match(status, /1 table/);
  assert.ok(workerRequests(page).length > 0, 'the import worker was fetched for the CSV (the positive control)');
  assert.deepEqual(await schemaNames(page), ['orders']);
  // Zip codes keep their zeros; numbers are numbers.
  await expectRows(page, 'SELECT zip, typeof(zip), typeof(total), (SELECT sum(total) FROM orders) FROM orders WHERE id = 1', [
    ['00501', 'text', 'real', '49.5'],
  ]);
  // Read-only, exactly like a .db file.
  await expectSqlError(page, 'DELETE FROM orders');
  await expectRows(page, 'SELECT count(*) FROM orders', [['3']]);
  await page.getByTestId('import-report').click();
  const report = await page.getByTestId('import-report').textContent();
  assert.match(report, /3 rows/);
  assert.match(report, /header/i);

  for (const [name, text, table, sql, rows] of [
    ['scores.tsv', 'who\tscore\nann\t3\nbo\t4\n', 'scores', 'SELECT who, score * 2 FROM scores ORDER BY who', [['ann', '6'], ['bo', '8']]],
    ['people.json', '[{"name":"Ann","tags":["a","b"],"ok":true},{"name":"Bo","ok":false}]', 'people', 'SELECT name, tags, ok FROM people ORDER BY name', [['Ann', '["a","b"]', '1'], ['Bo', 'NULL', '0']]],
    ['events.ndjson', '{"kind":"x","n":1}\n{"kind":"y","n":2}\n', 'events', 'SELECT sum(n) FROM events', [['3']]],
    // Integers beyond 32 bits and beyond 2^53 (JavaScript's exact range) arrive exact.
    ['big.csv', 'n\n3000000000\n9007199254740993\n-9223372036854775808\n', 'big', "SELECT CAST(n AS TEXT), typeof(n) FROM big ORDER BY n", [['-9223372036854775808', 'integer'], ['3000000000', 'integer'], ['9007199254740993', 'integer']]],
  ]) {
    await chooseFile(page, file(name, text));
    await waitForOpen(page, `${name} (imported)`, 60_000);
    assert.deepEqual(await schemaNames(page), [table], name);
    await expectRows(page, sql, rows);
  }
  const workbook = await readFile(path.join(ROOT, 'tests/fixtures/import/two_sheets.xlsx'));
  await chooseFile(page, { name: 'book.xlsx', mimeType: 'application/octet-stream', buffer: workbook });
  await waitForOpen(page, 'book.xlsx (imported)', 60_000);
  const sheets = await schemaNames(page);
  assert.ok(sheets.includes('Orders') && sheets.some((name) => /^Customer/.test(name)), JSON.stringify(sheets));
  assert.deepEqual(page.dialogs, []);
});

test('two CSV files open together as one database, and the agent joins them', async (t) => {
  const join =
    'SELECT c.name, sum(o.total) AS spent FROM orders o JOIN customers c ON c.id = o.customer GROUP BY c.name ORDER BY c.name';
  const llm = await scriptedLlm(t, [call('run_sql', { sql: join }), finalAnswer('Alice spent 42.5, Bob 7.', join)]);
  const page = await openPage(t);
  await chooseFile(page, [file('orders.csv', ORDERS), file('customers.csv', CUSTOMERS)]);
  await waitForOpen(page, 'orders.csv + customers.csv (imported)', 60_000);
  assert.deepEqual((await schemaNames(page)).sort(), ['customers', 'orders']);
  await configureFor(page, llm, 'openai');
  await ask(page, 'How much did each customer spend?');
  assert.match(await waitForAnswer(page), /Alice spent 42\.5/);
  await expectAnswerRows(page, [
    ['Alice', '42.5'],
    ['Bob', '7.0'],
  ]);
  // The schema the model was sent names both tables.
  const sent = JSON.stringify(llm.modelRequests()[0].body);
  assert.match(sent, /customers/);
  assert.match(sent, /orders/);
});

test('?csv= links open data files from an address, imported together', async (t) => {
  const page = await openPage(t, '?csv=data/orders.csv&csv=data/customers.csv');
  await waitForOpen(page, 'orders.csv + customers.csv (imported)', 60_000);
  assert.deepEqual((await schemaNames(page)).sort(), ['customers', 'orders']);
  await expectRows(page, 'SELECT count(*) FROM orders JOIN customers ON customers.id = orders.customer', [['3']]);
});

test('a hostile CSV is stored and shown as inert text', async (t) => {
  const long = 'x'.repeat(200_000);
  const hostile =
    'formula,html,long\n' +
    `"=cmd|' /C calc'!A0","<img src=x onerror=""window.__owned=1"">","${long}"\n` +
    `"@SUM(1+1)","<script>window.__owned=2</script>",short\n`;
  const page = await openPage(t);
  await chooseFile(page, file('hostile.csv', hostile));
  await waitForOpen(page, 'hostile.csv (imported)', 60_000);
  await runSql(page, 'SELECT formula, html, length(long) FROM hostile');
  const table = await waitUntil('the rows', () => resultTable(page), (r) => r?.rows.length === 2);
  assert.deepEqual(table.rows[0], ["=cmd|' /C calc'!A0", '<img src=x onerror="window.__owned=1">', '200000']);
  assert.equal(table.rows[1][1], '<script>window.__owned=2</script>');
  assert.equal(await page.evaluate(() => window.__owned ?? null), null, 'nothing ran');
  assert.equal(await page.locator('[data-testid="result"] img, [data-testid="result"] script').count(), 0);
  // JSON that is not valid (and not one of askdb's files) is refused by the import with where
  // it broke; the imported database stays open and nothing of the file ran.
  await chooseFile(page, { name: 'html.json', mimeType: 'application/json', buffer: Buffer.from('{<script>window.__owned=3</script>') });
  const refusal = await waitUntil('the refusal of html.json', () => settledStatus(page), (s) => s?.includes('html.json'));
  assert.match(refusal, /Could not open html\.json: .*line 1/);
  assert.match(refusal, /hostile\.csv \(imported\) is still open/);
  assert.equal(await page.evaluate(() => window.__owned ?? null), null, 'nothing ran');
  assert.deepEqual(page.dialogs, []);
});

/** Each table's values as SQLite holds them: [typeof, the value's bytes] per row, in rowid
 * order: a text's UTF-8 in hex (NUL and all), a real's 64 bits in hex, an integer in decimal. */
const DUMP_VALUES = `
import json, sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
db.text_factory = bytes
def held(v):
    if isinstance(v, bytes): return v.hex()
    if isinstance(v, float): return struct.pack('>d', v).hex()
    return str(v)
print(json.dumps({t: [[ty.decode(), held(v)] for v, ty in db.execute('SELECT v, typeof(v) FROM "%s" ORDER BY rowid' % t)]
                  for t in sys.argv[2:]}))
`;

/** A JSON array of `{"v": cell}` (as tests/import_files.rs writes it): text cells as JSON strings,
 * number cells (`raw`) written as they are. */
const jsonRows = (cells, raw) => `[${cells.map((cell) => `{"v": ${raw ? cell : JSON.stringify(cell)}}`).join(',\n')}]`;
/** A REAL column's double as bytes: past the largest an infinity; a zero loses its sign (SQLite keeps a whole REAL as an integer). */
const realBytes = (cell) => {
  const bytes = Buffer.alloc(8);
  const value = Number(cell);
  bytes.writeDoubleBE(value === 0 ? 0 : value);
  return bytes.toString('hex');
};

// The page's writer (src/import/worker.rs: rows as SQL text, `'` doubled; a row with a NUL bound
// instead) on the hostile cells the native importer is tested on (tests/import_files.rs
// `hostile_cells_round_trip_with_their_types_and_bytes`, tests/fixtures/import/hostile_cells.json),
// with a text longer than one batch of SQL: every value read back from the database the page
// made, with its type and bytes. It found the writer turning a JSON number past the largest
// double into NULL (`Value::sql_literal`), where the native importer keeps Infinity: such a row
// is bound now, as a NUL's is. Mutations: the NUL fallback dropped (the row batched as SQL
// text: "unrecognized token: 'nul"), or `'` not doubled in the batch ("near calc: syntax
// error"), each fail the import.
test('every hostile cell the page imports reads back with its type and bytes, as the native importer writes it', async (t) => {
  const cells = JSON.parse(await readFile(path.join(ROOT, 'tests/fixtures/import/hostile_cells.json'), 'utf8'));
  const text = [...cells.text, 'x'.repeat(1_500_000)];
  const page = await openPage(t);
  await chooseFile(page, [
    file('text.json', jsonRows(text, false)),
    file('real.json', jsonRows(cells.real, true)),
    file('integer.json', jsonRows(cells.integer, true)),
  ]);
  await waitForOpen(page, 'text.json + real.json + integer.json (imported)', 120_000);
  const scratch = await tempDir('import-hostile');
  t.after(scratch.remove);
  const made = path.join(scratch.dir, 'made.db');
  await writeFile(made, await exportedBytes(page));
  const held = JSON.parse(execFileSync('python3', ['-c', DUMP_VALUES, made, 'text', 'real', 'integer'], { maxBuffer: 64 << 20 }));
  const expected = {
    text: text.map((cell) => ['text', Buffer.from(cell, 'utf8').toString('hex')]),
    real: cells.real.map((cell) => ['real', realBytes(cell)]),
    integer: cells.integer.map((cell) => ['integer', BigInt(cell).toString()]),
  };
  for (const table of ['text', 'real', 'integer']) {
    assert.equal(held[table].length, expected[table].length, `${table}: rows`);
    held[table].forEach((value, row) => {
      const cell = table === 'text' ? JSON.stringify(text[row].slice(0, 40)) : cells[table][row];
      assert.deepEqual(value, expected[table][row], `${table} row ${row + 1} (${cell})`);
    });
  }
  assert.deepEqual(page.dialogs, []);
});

test('"Download as .db" saves the database the import made, which opens again as a database', async (t) => {
  const page = await openPage(t);
  await chooseFile(page, file('orders.csv', ORDERS));
  await waitForOpen(page, 'orders.csv (imported)', 60_000);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-download').click()]);
  assert.equal(download.suggestedFilename(), 'orders.db');
  const scratch = await tempDir('import-download');
  t.after(scratch.remove);
  const saved = path.join(scratch.dir, 'orders.db');
  await download.saveAs(saved);
  const bytes = await readFile(saved);
  assert.equal(bytes.subarray(0, 16).toString('latin1'), 'SQLite format 3\0');
  await chooseFile(page, saved);
  await waitForOpen(page, 'orders.db');
  await expectRows(page, 'SELECT count(*) FROM orders', [['3']]);
  assert.equal(await settledStatus(page).then((s) => s.includes('(imported)')), false);
});
