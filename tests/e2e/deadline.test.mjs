// Runaway queries stop at their deadline (set low in the page's settings) with the deadline's
// message, not before it and long before a generous bound, and the console keeps working on the
// same database afterwards; an endless result shows its first rows and "more than" as many as
// could be counted in time; Stop ends a query at once.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  databaseDifferences, expectRows, expectSqlError, expectTable, exportedBytes, openDemo, runSql,
  sessionForFile, setDeadlineSeconds, shopDbBytes, visibleText, waitForSqlError, waitUntil,
} from './harness.mjs';

const ENDLESS = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r)';

// Each of these runs for minutes or forever: none can end on its own within the bound below,
// and none fails at once (as a value over SQLite's size limit would).
const RUNAWAYS = [
  // Endless rows, counted.
  `${ENDLESS} SELECT count(*) FROM r`,
  // Endless rows, each with a 100 KB value made and measured.
  `${ENDLESS} SELECT sum(length(randomblob(100000))) FROM r`,
  // A cross join of the largest table with itself, ten times: 12^10 (62 billion) rows to count.
  `SELECT count(*) FROM ${Array.from({ length: 10 }, (_, i) => `orders o${i}`).join(', ')}`,
];

const DEADLINE_S = 2;
/** The deadline's own message (DbError::Timeout), as the console shows it. */
const DEADLINE_MESSAGE = new RegExp(`stopped after ${DEADLINE_S} s`);
/** Generous: ten times the deadline. A query that is never stopped fails here. */
const BOUND_MS = 10 * DEADLINE_S * 1000;

const session = sessionForFile();

for (const sql of RUNAWAYS) {
  test(`stops ${sql} at the deadline and answers the next query`, async () => {
    const page = await session.open();
    await openDemo(page);
    await setDeadlineSeconds(page, DEADLINE_S);
    await expectRows(page, 'SELECT 1', [['1']]);
    const started = Date.now();
    const message = await expectSqlError(page, sql, { timeout: BOUND_MS });
    const took = Date.now() - started;
    console.log(`  stopped after ${took} ms: ${message}`);
    assert.match(message, DEADLINE_MESSAGE);
    // Not before the deadline: an error that comes sooner is not the deadline's.
    assert.ok(took >= DEADLINE_S * 1000 - 100, `the error came after ${took} ms, before the ${DEADLINE_S} s deadline`);
    assert.ok(took < BOUND_MS, `stopped only after ${took} ms`);
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
  const sql = `${ENDLESS} SELECT x FROM r`;
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
  const took = Date.now() - started;
  console.log(`  stopped ${took} ms after the click: ${message}`);
  assert.match(message, /was stopped/);
  assert.doesNotMatch(message, /deadline|stopped after/);
  // Generous for "at once", and far below the 120 s deadline it must not have waited for.
  assert.ok(took < 10_000, `Stop took ${took} ms`);
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  assert.deepEqual(page.problems, []);
});
