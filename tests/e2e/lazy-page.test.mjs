// Local files read on demand in the page (PageDatabase::OnDemand), chosen through "Open a file"
// as a person would:
// - a file past 4 GiB (mostly one large zero blob, its zeros turned into holes on disk so that
//   it costs little disk) opens on demand; its schema shows, and the console reads a table
//   whose pages all lie past the 4 GiB mark; hiding a column is refused with the reason;
// - a small file opened on demand (the threshold lowered by the test page's hook): the console,
//   a scripted agent question and its evidence re-run work; Stop and the deadline stop a
//   runaway query and the next query answers; a file changed or deleted on disk gives its
//   message and the page goes on;
// - below the threshold, a file still opens in memory (the control).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  chooseFile, dataset, expectRows, expectSqlError, expectTable, runSql, schemaNames, setDeadlineSeconds, startSession,
  tempDir, visibleText, waitForOpen, waitForSqlError, waitUntil,
} from './harness.mjs';
import {
  ask, bodyText, configureFor, expectAnswerRows, finalAnswer, call, scriptedLlm, steps, waitForAnswer,
} from './chat-support.mjs';
import { makeFilePast4GiB } from './lazy-support.mjs';

const FOUR_GIB = 4 * 1024 ** 3;
const ENDLESS = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r';
let session;
let temp;

before(async () => {
  session = await startSession();
  temp = await tempDir('lazy-page');
});

after(async () => {
  await session?.close();
  await temp?.remove();
});

/** The status line's "read on demand" part, or null when the database is in memory. */
const reading = (page) => visibleText(page, 'db-reading');

test('a file past 4 GiB opens on demand in the page: schema, a table past 4 GiB, hiding refused', { timeout: 900_000 }, async (t) => {
  const file = path.join(temp.dir, 'past-4-gib.db');
  const farOffset = makeFilePast4GiB(file, 100_000);
  t.after(() => rmSync(file, { force: true }));
  const size = statSync(file).size;
  // Positive control: the file and the table are where this test says.
  assert.ok(size > FOUR_GIB + 100 * 1024 ** 2, `the file is ${size} bytes`);
  assert.ok(farOffset > FOUR_GIB, `far's root page is at ${farOffset}`);

  const page = await session.open({ closeAfter: t });
  await chooseFile(page, file);
  await waitForOpen(page, 'past-4-gib.db', 120_000);
  assert.match(await reading(page), /^4\.\d GB, read on demand from the file$/);
  assert.deepEqual((await schemaNames(page)).sort(), ['far', 'pad']);
  await expectRows(
    page,
    "SELECT count(*), min(name), max(id), sum(id), sum(length(filler)) FROM far WHERE name LIKE 'row %'",
    [['100000', 'row 1', '100000', '5000050000', '9000000']],
    { timeout: 60_000 },
  );
  // What the scan of far read (pages the open had not read) is shown beside its time.
  assert.match(await visibleText(page, 'result-reads'), /^read [\d.]+ (KB|MB) in [1-9]\d* reads?$/);
  await expectRows(page, 'SELECT name FROM far WHERE id = 4321', [['row 4321']]);

  // Hiding needs a copy, which a file read on demand does not get: refused, and the page says
  // why, never showing the model everything instead.
  await page.locator('[data-name="far"] .column[data-name="name"] [data-testid="hide-column"]').click();
  const line = await waitUntil(
    'the hidden line to give the refusal',
    () => visibleText(page, 'hidden-line'),
    (text) => text !== null && /cannot be asked/.test(text),
  );
  assert.match(line, /far\.name/);
  assert.match(line, /the model cannot be asked: this file is read on demand \(files of 512 MiB and more are\), not copied into memory/);
  assert.deepEqual(page.problems, []);
});

/** A copy of the demo in the temporary folder, opened on demand in a new page. */
async function shopOnDemand(t, name) {
  const file = path.join(temp.dir, name);
  copyFileSync(dataset('shop/shop.db'), file);
  const page = await session.open({ closeAfter: t });
  await page.evaluate(() => window.askdbOpenOnDemandFrom(0));
  await chooseFile(page, file);
  await waitForOpen(page, name);
  assert.match(await reading(page), /read on demand from the file/);
  return { page, file };
}

test('below the threshold a file opens in memory (the control)', async (t) => {
  const page = await session.open({ closeAfter: t });
  await chooseFile(page, dataset('shop/shop.db'));
  await waitForOpen(page, 'shop.db');
  assert.equal(await reading(page), null);
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  // In memory, reading costs nothing and is not shown.
  assert.equal(await visibleText(page, 'result-reads'), null);
});

test('on demand: the console, an agent question and its evidence re-run work', async (t) => {
  const sql = 'SELECT count(*) FROM orders';
  const llm = await scriptedLlm(t, [
    call('run_sql', { sql }),
    finalAnswer('There are 12 orders.', sql),
  ]);
  const { page } = await shopOnDemand(t, 'agent-shop.db');
  await expectRows(page, "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name", [['Alice'], ['Evan']]);
  // What the query read from the file is shown beside its time.
  assert.match(await visibleText(page, 'result-reads'), /^read [\d.]+ (B|KB|MB) in \d+ reads?$/);
  await configureFor(page, llm, 'openai');
  await ask(page, 'How many orders are there?');
  assert.match(await waitForAnswer(page), /12 orders/);
  await expectAnswerRows(page, [['12']]);
  // The model's query says what it read, in its step.
  const sqlStep = (await steps(page)).find((step) => step.tool === 'run_sql');
  assert.match(sqlStep.text, /ms, read [\d.]+ (B|KB|MB) in \d+ reads?/);
  // And the question, in all (its queries and the answer's re-run), once it is over.
  await waitUntil(
    "the question's reads in the usage line",
    () => visibleText(page, 'usage'),
    (text) => text !== null && /This question: .*, read [\d.]+ (B|KB|MB) in \d+ reads? from the database/.test(text),
  );
  // The model's tool ran on this database: its result went back to the model.
  assert.ok(llm.modelRequests().map(bodyText).some((body) => body.includes('count(*)') && body.includes('12')));

  // Hiding is refused on it, with the reason, and the model is not asked instead.
  await page.locator('[data-name="customers"] .column[data-name="prefecture"] [data-testid="hide-column"]').click();
  await waitUntil(
    'the hidden line to give the refusal',
    () => visibleText(page, 'hidden-line'),
    (text) => text !== null && /customers\.prefecture \(the model cannot be asked: this file is read on demand/.test(text),
  );
  assert.deepEqual(page.problems, []);
});

test("on demand with askdb's knowledge tables: the notes reach the model, which reads none of the tables", async (t) => {
  // The shop with knowledge tables, views over them and a memo (the Datasette tests' fixture),
  // read on demand: it cannot be copied without them, so they are fenced off by name.
  const file = path.join(temp.dir, 'knowing.db');
  copyFileSync(dataset('shop/shop.db'), file);
  execFileSync('python3', ['-c', 'import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.executescript(open(sys.argv[2]).read()); db.commit()',
    file, path.join(import.meta.dirname, '..', 'datasette', 'knowing.sql')]);
  // A legacy sqlite_stat3 (SQLite no longer makes one, and refuses the name in CREATE: made as
  // another table, then renamed in the catalogue). Its samples would be the indexed values.
  execFileSync('python3', ['-c', `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE legacy_stat3(tbl, idx, neq, nlt, ndlt, sample);
INSERT INTO legacy_stat3 VALUES ('askdb_checks', 'i', '1', '0', '0', 'STAT3-SAMPLE-Q2');
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET name = 'sqlite_stat3', tbl_name = 'sqlite_stat3',
  sql = replace(sql, 'legacy_stat3', 'sqlite_stat3') WHERE name = 'legacy_stat3';
""")
db.commit()
`, file]);
  const answer = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";
  const tries = [
    'SELECT * FROM [golden]', 'SELECT * FROM main."GOLDEN AGAIN"', "SELECT * FROM 'askdb_checks'",
    // The raw pages (where the golden SQL is, byte for byte) and the old statistics' samples.
    'SELECT * FROM sqlite_dbpage', "SELECT data FROM sqlite_dbpage('main') WHERE pgno = 2", 'SELECT * FROM sqlite_stat3',
  ];
  const llm = await scriptedLlm(t, [
    ...tries.map((sql) => call('run_sql', { sql })),
    call('run_sql', { sql: 'SELECT upper(note) AS shout FROM memo' }),
    finalAnswer('Alice and Evan.', answer),
  ]);
  const page = await session.open({ closeAfter: t });
  await page.evaluate(() => window.askdbOpenOnDemandFrom(0));
  await chooseFile(page, file);
  await waitForOpen(page, 'knowing.db');
  assert.match(await reading(page), /read on demand from the file/);
  const badged = page.locator('[data-testid="schema-table"]:has([data-testid="left-out-badge"])');
  const marked = await waitUntil('the views marked', () => badged.evaluateAll((rows) => rows.map((row) => row.dataset.name).sort()), (names) => names.length >= 2);
  assert.deepEqual(marked, ['Golden Again', 'golden']);
  await configureFor(page, llm, 'openai');
  await ask(page, 'Which customers live in Tokyo?');
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, [['Alice'], ['Evan']]);
  const bodies = llm.modelRequests().map(bodyText);
  // The positive controls: the file's notes went with the question, the memo's value after it
  // was read; nothing of the golden question did, and each try was fenced off.
  assert.ok(bodies[0].includes('NOTE-K7'), 'the note from askdb_notes reached the model');
  assert.ok(bodies.at(-1).includes('MEMO-MARKER-K5'), "an ordinary table's value reached the model");
  for (const body of bodies) {
    assert.ok(!body.includes('golden_answer_k9'), 'the golden SQL reached the model');
    assert.ok(!body.includes('STAT3-SAMPLE-Q2'), "sqlite_stat3's sample reached the model");
  }
  assert.equal(bodies.at(-1).split('may not read it').length - 1, tries.length, bodies.at(-1));
  // The console still reads them: they are the person's (and what the model would have read).
  await expectRows(page, 'SELECT count(*) FROM golden', [['1']]);
  await expectRows(page, 'SELECT sample FROM sqlite_stat3', [['STAT3-SAMPLE-Q2']]);
  await expectTable(page, 'SELECT count(*) FROM sqlite_dbpage', (table) => Number(table.rows[0][0]) > 2, 'the pages');
  await expectRows(page, "SELECT instr(data, CAST('golden_answer_k9' AS BLOB)) > 0 FROM sqlite_dbpage('main') WHERE instr(data, CAST('golden_answer_k9' AS BLOB)) > 0 LIMIT 1", [['1']]);
  assert.deepEqual(page.problems, []);
});

test('on demand: Stop and the deadline stop a runaway query, and the next query answers', async (t) => {
  const { page } = await shopOnDemand(t, 'stop-shop.db');
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  await runSql(page, ENDLESS);
  await waitUntil('the query to run', () => page.getByTestId('sql-stop').isEnabled(), Boolean);
  await page.getByTestId('sql-stop').click();
  const stopped = await waitForSqlError(page);
  assert.match(stopped, /The query was stopped\. This database is read on demand: its worker was stopped, and the next query opens the file again .* with its page cache .* empty/);
  await expectRows(page, 'SELECT count(*) FROM customers', [['6']]);

  await setDeadlineSeconds(page, 2);
  const started = Date.now();
  const message = await expectSqlError(page, ENDLESS, { timeout: 20_000 });
  assert.match(message, /stopped after 2 s/);
  assert.ok(Date.now() - started < 20_000);
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  assert.deepEqual(page.problems, []);
});

/** Sakila (4.9 MB: more pages than the open reads) copied and opened on demand. */
async function sakilaOnDemand(t, name) {
  const file = path.join(temp.dir, name);
  copyFileSync(dataset('sakila/sakila.db'), file);
  const page = await session.open({ closeAfter: t });
  await page.evaluate(() => window.askdbOpenOnDemandFrom(0));
  await chooseFile(page, file);
  await waitForOpen(page, name);
  // Positive control: before the change, queries answer.
  await expectRows(page, 'SELECT count(*) FROM rental', [['16044']]);
  return { page, file };
}

const PAYMENTS = 'SELECT count(*), sum(amount) FROM payment';
const GONE = /the database changed: the file "[a-z-]+\.db" cannot be read any more \(\w+\): it was changed, moved or deleted since it was opened/;

test('on demand: a file changed, then one deleted, gives its message and the page goes on', async (t) => {
  const { page, file } = await sakilaOnDemand(t, 'changed-sakila.db');
  // Another program writes the file (its modification time changes).
  writeFileSync(file, Buffer.alloc(4096, 1), { flag: 'r+' });
  execFileSync('touch', ['-d', new Date(Date.now() + 5_000).toISOString(), file]);
  assert.match(await expectSqlError(page, PAYMENTS), GONE);

  const { page: second, file: other } = await sakilaOnDemand(t, 'deleted-sakila.db');
  rmSync(other);
  assert.match(await expectSqlError(second, PAYMENTS), GONE);
  // The page goes on: another file opens and answers.
  await chooseFile(second, dataset('shop/shop.db'));
  await waitForOpen(second, 'shop.db');
  await expectRows(second, 'SELECT count(*) FROM orders', [['12']]);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(second.problems, []);
});
