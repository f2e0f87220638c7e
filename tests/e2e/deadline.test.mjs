// Runaway queries stop at their deadline (set low in the page's settings) with an error,
// and the console keeps working on the same database afterwards; an endless result shows its
// first rows and "more than" as many as could be counted in time.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  databaseDifferences, expectRows, expectSqlError, expectTable, exportedBytes, openDemo, runSql,
  sessionForFile, setDeadlineSeconds, shopDbBytes, visibleText, waitForSqlError, waitUntil,
} from './harness.mjs';

const RUNAWAYS = [
  'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r',
  'SELECT zeroblob(1500000000)',
  "SELECT printf('%.*c', 2000000000, 'x')",
  // A cross join of the largest table with itself, eight times: 12^8 rows to count.
  `SELECT count(*) FROM ${Array.from({ length: 8 }, (_, i) => `orders o${i}`).join(', ')}`,
];

const session = sessionForFile();

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

test('an endless result shows its first 1,000 rows, says there are more, and the page goes on', async () => {
  const page = await session.open();
  await openDemo(page);
  await setDeadlineSeconds(page, 2);
  const sql = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT x FROM r';
  const table = await expectTable(page, sql, ({ rows }) => rows.length > 0, 'rows', { timeout: 60_000 });
  assert.equal(table.rows.length, 1000, 'the page receives at most 1,000 rows');
  assert.deepEqual(table.rows.at(-1), ['1000']);
  // Counting an endless result cannot finish: it stops at the deadline and says "more than"
  // as many as it counted by then.
  const count = await visibleText(page, 'result-rowcount');
  const counted = Number(count.match(/more than ([\d,]+)/)?.[1]?.replaceAll(',', ''));
  assert.ok(counted >= 1000, `the row count says "more than" at least 1,000: "${count}"`);
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  assert.deepEqual(page.problems, []);
});

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
  const message = await waitForSqlError(page, 60_000, 'the stopped message');
  console.log(`  stopped ${Date.now() - started} ms after the click: ${message}`);
  assert.match(message, /was stopped/);
  assert.doesNotMatch(message, /deadline/);
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  assert.deepEqual(page.problems, []);
});
