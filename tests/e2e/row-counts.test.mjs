// Row counts without scans (issue 16): a file of more than 64 MiB opened in memory is not
// counted whole. The schema panel says which counts are exact, which are estimated from
// sqlite_stat1 and where counting stopped ("more than 100,000"), and "Count rows" counts a table
// exactly; the model's request says the same. A small file is counted exactly, with no button.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, chooseFile, openDemo, startSession, tempDir, waitForOpen, waitUntil } from './harness.mjs';
import { ask, bodyText, configureFor, finalAnswer, scriptedLlm, waitForAnswer } from './chat-support.mjs';

const SHOTS = path.join(ROOT, 'tests', 'e2e', '.artifacts');

// small: 5 rows; plain: 150,000 rows never analyzed; analyzed: 150,000 rows with statistics;
// padding: 68 rows of 1 MiB, which make the file larger than 64 MiB.
const MAKE_COUNTED = `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
PRAGMA page_size = 4096;
CREATE TABLE small (id INTEGER PRIMARY KEY, v TEXT);
CREATE TABLE plain (id INTEGER PRIMARY KEY, v INTEGER);
CREATE TABLE analyzed (id INTEGER PRIMARY KEY, v INTEGER);
CREATE INDEX analyzed_v ON analyzed (v);
CREATE TABLE padding (id INTEGER PRIMARY KEY, b BLOB);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150000)
INSERT INTO plain (v) SELECT i FROM n;
INSERT INTO analyzed (v) SELECT v FROM plain;
INSERT INTO small (v) VALUES ('a'), ('b'), ('c'), ('d'), ('e');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 68)
INSERT INTO padding (b) SELECT zeroblob(1048576) FROM n;
ANALYZE analyzed;
""")
db.commit()
`;

let session;
let files;
let counted;
before(async () => {
  session = await startSession();
  files = await tempDir('counts');
  counted = path.join(files.dir, 'counted.db');
  execFileSync('python3', ['-c', MAKE_COUNTED, counted]);
});
after(async () => {
  await session?.close();
  await files?.remove();
});

/** { table: [count text, inexact?, has a count button?] } as the schema panel shows them. */
async function shownCounts(page) {
  return page.$$eval('[data-testid="schema-table"]', (tables) =>
    Object.fromEntries(
      tables.map((table) => {
        const count = table.querySelector('[data-testid="row-count"]');
        return [
          table.dataset.name,
          [count.textContent.trim(), count.classList.contains('inexact'), table.querySelector('[data-testid="count-rows"]') !== null],
        ];
      }),
    ),
  );
}

test('a large file shows which counts are exact, estimated or cut short, and counts a table on request', async (t) => {
  const page = await session.open({ closeAfter: t });
  await chooseFile(page, counted);
  await waitForOpen(page, 'counted.db', 60_000);
  assert.deepEqual(await shownCounts(page), {
    analyzed: ['about 150,000 rows (estimated)', true, true],
    padding: ['68 rows', false, false],
    plain: ['more than 100,000 rows', true, true],
    small: ['5 rows', false, false],
  });
  const plain = page.locator('[data-testid="schema-table"][data-name="plain"]');
  await plain.locator('details').evaluate((details) => { details.open = true; });
  await page.screenshot({ path: path.join(SHOTS, 'row-counts.png'), fullPage: true });
  await plain.getByTestId('count-rows').click();
  await waitUntil(
    'the exact count',
    () => plain.getByTestId('row-count').textContent(),
    (text) => text.trim() === '150,000 rows',
  );
  assert.equal(await plain.getByTestId('row-count').getAttribute('class'), 'row-count');

  // The model is told the same, with what "more than" and "about" mean.
  const llm = await scriptedLlm(t, [finalAnswer('Counted.', 'SELECT count(*) FROM small')]);
  await configureFor(page, llm, 'openai');
  await ask(page, 'How big are the tables?');
  await waitForAnswer(page);
  const body = bodyText(llm.modelRequests()[0]);
  assert.match(body, /analyzed \(about 150000, estimated\)/);
  assert.match(body, /plain \(more than 100000\)/);
  assert.match(body, /small \(5\)/);
  assert.match(body, /Row counts are exact unless written/);
});

test('a small file is counted exactly: no estimate, no count button', async (t) => {
  const page = await session.open({ closeAfter: t });
  await openDemo(page);
  const counts = await shownCounts(page);
  assert.deepEqual(Object.keys(counts).sort(), ['customers', 'orders', 'products']);
  for (const [table, [text, inexact, button]] of Object.entries(counts)) {
    assert.match(text, /^\d+ rows?$/, table);
    assert.equal(inexact, false, table);
    assert.equal(button, false, table);
  }
});
