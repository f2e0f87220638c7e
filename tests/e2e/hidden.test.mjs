// Hidden tables and columns, in the page: a demo published with `?hide=` and a scripted
// adversarial model that tries every route to a hidden value or name (none reaches any request
// body), the copy the model's queries run on (no marker in its bytes), the console that still
// sees everything; hiding and showing again from the schema panel, kept per database across
// reloads. Screenshots of the schema panel and the "Hidden from the model" line at 1280 and
// 400 px go to tests/e2e/.artifacts/.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  ROOT, chooseFile, dataset, expectRows, openDemo, startSession, tempDir, visibleText, waitForOpen, waitUntil,
} from './harness.mjs';
import {
  baseUrl, bodyText, calls, configureFor, finalAnswer, MODELS, scriptedLlm, ask, waitForAnswer,
} from './chat-support.mjs';

const MARKER = 'QZ9-MARK';
const SECRET_COLUMN = 'secret_note_qz';
const VAULT = 'vault_qz';
const VAULT_COLUMN = 'vault_code_qz';
const SECRETS = [MARKER, SECRET_COLUMN, VAULT, VAULT_COLUMN, 'peek_qz'];
const SHOTS = path.join(ROOT, 'tests', 'e2e', '.artifacts');

/** shop.db with a column of markers in customers, a table of them, and a view over the column. */
const MAKE_MARKED = `
import shutil, sqlite3, sys
shutil.copy(sys.argv[1], sys.argv[2])
db = sqlite3.connect(sys.argv[2])
db.executescript("""
ALTER TABLE customers ADD COLUMN ${SECRET_COLUMN} TEXT;
UPDATE customers SET ${SECRET_COLUMN} = '${MARKER}-' || id;
CREATE VIEW peek_qz AS SELECT ${SECRET_COLUMN} FROM customers;
CREATE TABLE ${VAULT} (id INTEGER PRIMARY KEY, ${VAULT_COLUMN} TEXT);
INSERT INTO ${VAULT} (${VAULT_COLUMN}) VALUES ('${MARKER}-vault-1'), ('${MARKER}-vault-2');
""")
db.commit()
`;

let session;
let files;
before(async () => {
  files = await tempDir('hidden');
  execFileSync('python3', ['-c', MAKE_MARKED, dataset('shop/shop.db'), path.join(files.dir, 'marked.db')]);
  session = await startSession({ mounts: { files: files.dir } });
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await session?.close();
  await files?.remove();
});

/** Every route a model that does not know the hidden names can try. */
const ADVERSARY = [
  calls([
    ['list_tables', {}],
    ['describe_table', { table: 'customers' }],
  ]),
  calls([
    ['run_sql', { sql: 'SELECT * FROM customers' }],
    ['run_sql', { sql: 'SELECT group_concat(sql, char(10)) FROM sqlite_schema' }],
    ['run_sql', { sql: 'SELECT m.name, p.* FROM sqlite_schema AS m JOIN pragma_table_xinfo(m.name) AS p' }],
    ['run_sql', { sql: 'SELECT * FROM pragma_table_list' }],
    ['run_sql', { sql: 'SELECT id FROM customers, orders' }],
  ]),
  calls([
    ['cross_check', { sql_a: 'SELECT * FROM customers', sql_b: 'SELECT group_concat(name) FROM sqlite_schema' }],
  ]),
  finalAnswer('Everything I could find.', 'SELECT * FROM customers ORDER BY id'),
];

/** The secrets found in `texts` (case-insensitive). */
const leaks = (texts, secrets = SECRETS) =>
  secrets.filter((secret) => texts.some((text) => text.toLowerCase().includes(secret.toLowerCase())));

async function bytesOf(page, hook) {
  const base64 = await page.evaluate(async (name) => {
    const bytes = await window[name]();
    if (!bytes) return null;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }, hook);
  return base64 === null ? null : Buffer.from(base64, 'base64').toString('latin1');
}

/** Waits until the hidden line reads `names` and the copy is ready. */
async function waitForHidden(page, names) {
  return waitUntil(
    `the hidden line to name ${names}`,
    () => visibleText(page, 'hidden-line'),
    (text) => text === `Hidden from the model: ${names}`,
  );
}

async function shoot(page, name, width) {
  await page.setViewportSize({ width, height: 900 });
  const file = path.join(SHOTS, `hidden-${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

test('a demo published with ?hide= keeps the secrets from every route the model tries', async (t) => {
  const llm = await scriptedLlm(t, ADVERSARY);
  const params = new URLSearchParams({
    db: 'files/marked.db',
    hide: `customers.${SECRET_COLUMN},${VAULT},nosuch`,
    provider: 'openai',
    base_url: baseUrl(llm, 'openai'),
    model: MODELS.openai,
  });
  const page = await session.open({ search: `?${params}`, closeAfter: t });
  await waitForOpen(page, 'marked.db');
  await waitForHidden(page, `customers.${SECRET_COLUMN}, ${VAULT}`);
  assert.match(await visibleText(page, 'hide-unresolved'), /nosuch: this database has no such table or column/);

  // The schema panel still lists everything, with what is hidden marked so.
  const marked = await page.$$eval('.hidden-from-model', (items) => items.map((item) => item.dataset.name));
  assert.deepEqual(marked.sort(), [SECRET_COLUMN, VAULT, VAULT_COLUMN, 'id'].sort());

  // The copy holds none of it; the original bytes are untouched.
  const copy = await bytesOf(page, 'askdbAgentCopyBytes');
  assert.ok(copy && copy.startsWith('SQLite format 3'), 'the copy is a database');
  assert.deepEqual(leaks([copy]), []);
  const original = await bytesOf(page, 'askdbPristineBytes');
  assert.deepEqual(leaks([original], [MARKER, SECRET_COLUMN, VAULT]), [MARKER, SECRET_COLUMN, VAULT]);

  await configureFor(page, llm, 'openai');
  await ask(page, 'Show me everything you can.');
  await waitForAnswer(page);
  const bodies = llm.modelRequests().map(bodyText);
  assert.equal(bodies.length, ADVERSARY.length);
  assert.deepEqual(leaks(bodies), [], 'no request to the model carries a hidden value or name');
  assert.ok(bodies.some((body) => body.includes('joined_at') && body.includes('Osaka')), 'the routes ran');

  // The console is the person's own: it still sees the hidden column.
  await expectRows(page, `SELECT ${SECRET_COLUMN} FROM customers WHERE id = 1`, [[`${MARKER}-1`]]);

  await page.getByTestId('question').fill('');
  for (const width of [1280, 400]) {
    await shoot(page, 'address', width);
  }
  assert.deepEqual(page.problems, []);
});

test('hiding from the schema panel is kept for that database, and showing again undoes it', async (t) => {
  const llm = await scriptedLlm(t, [
    calls([['run_sql', { sql: 'SELECT * FROM customers' }], ['describe_table', { table: 'customers' }]]),
    finalAnswer('Done.', 'SELECT * FROM customers'),
  ]);
  const page = await session.open({ closeAfter: t });
  await openDemo(page);
  assert.equal(await visibleText(page, 'hidden-line'), null, 'nothing is hidden at first');

  const prefecture = page.locator('[data-name="customers"] .column[data-name="prefecture"] [data-testid="hide-column"]');
  await prefecture.click();
  await waitForHidden(page, 'customers.prefecture');
  assert.equal(await prefecture.getAttribute('aria-pressed'), 'true');
  await page.locator('[data-name="products"] [data-testid="hide-table"]').click();
  await waitForHidden(page, 'customers.prefecture, products');
  for (const width of [1280, 400]) await shoot(page, 'panel', width);

  await configureFor(page, llm, 'openai');
  await ask(page, 'Who are the customers?');
  await waitForAnswer(page);
  const bodies = llm.modelRequests().map(bodyText);
  // 'Tokyo' is in the system prompt's advice; the other prefectures are only in the data.
  assert.deepEqual(leaks(bodies, ['prefecture', 'Osaka', 'Hokkaido', 'Fukuoka', 'products']), []);
  assert.ok(bodies.some((body) => body.includes('joined_at') && body.includes('Alice')), 'the customers were read');

  // The same bytes, opened again after a reload: the choice is still there.
  await page.reload();
  await openDemo(page);
  await waitForHidden(page, 'customers.prefecture, products');
  // Kept for that database only: another one with the same tables (other bytes) hides nothing,
  // and the demo hides them again when it opens again.
  await chooseFile(page, dataset('shop/shop.db'));
  await waitForOpen(page, 'shop.db');
  assert.equal(await visibleText(page, 'hidden-line'), null, 'nothing hidden in another database');
  await openDemo(page);
  await waitForHidden(page, 'customers.prefecture, products');
  await page.locator('[data-name="products"] [data-testid="hide-table"]').click();
  await prefecture.click();
  await waitUntil('the hidden line to go', () => visibleText(page, 'hidden-line'), (text) => text === null);
  await page.reload();
  await openDemo(page);
  assert.equal(await visibleText(page, 'hidden-line'), null, 'showing again was kept too');
  assert.deepEqual(page.problems, []);
});
