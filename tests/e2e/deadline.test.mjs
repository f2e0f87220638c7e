// Runaway queries stop at their deadline (set low in the page's settings) with an error,
// and the console keeps working on the same database afterwards.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  databaseDifferences, expectRows, expectSqlError, exportedBytes, openDemo, runSql,
  setDeadlineSeconds, shopDbBytes, startSession, visibleText, waitUntil,
} from './harness.mjs';

const RUNAWAYS = [
  'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r',
  'SELECT zeroblob(1500000000)',
  "SELECT printf('%.*c', 2000000000, 'x')",
];

let session;
before(async () => {
  session = await startSession();
});
after(() => session?.close());

for (const sql of RUNAWAYS) {
  test(`stops ${sql} and answers the next query`, async () => {
    const page = await session.open();
    await openDemo(page);
    await setDeadlineSeconds(page, 2);
    await expectRows(page, 'SELECT 1', [['1']]);
    const started = Date.now();
    // Generous bound: the deadline is 2 s; this only catches a query that never stops.
    const message = await expectSqlError(page, sql, { timeout: 60_000 });
    console.log(`  stopped after ${Date.now() - started} ms: ${message}`);
    await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
    const changed = databaseDifferences(await exportedBytes(page), await shopDbBytes());
    assert.deepEqual(changed, [], 'the database is the same after the query was stopped');
    assert.deepEqual(page.problems, []);
  });
}

test('the Stop button ends a running query at once, and the next query works', async () => {
  const page = await session.open();
  await openDemo(page);
  // A deadline far away: what ends the query here must be the button, not the deadline.
  await setDeadlineSeconds(page, 120);
  await runSql(page, RUNAWAYS[0]);
  const stop = page.getByTestId('sql-stop');
  await waitUntil('Stop to be enabled', () => stop.isEnabled(), Boolean);
  const started = Date.now();
  await stop.click();
  const message = await waitUntil(
    'the stopped message',
    async () => visibleText(page, 'sql-error'),
    (text) => Boolean(text),
    60_000,
  );
  console.log(`  stopped ${Date.now() - started} ms after the click: ${message}`);
  assert.match(message, /was stopped/);
  assert.doesNotMatch(message, /deadline/);
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  assert.deepEqual(page.problems, []);
});
