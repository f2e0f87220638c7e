// Every write attempt in tests/fixtures/write_attempts.txt is refused in the page's console,
// and the database's bytes are the demo file's afterwards (apart from header fields that
// SQLite rewrites when it writes a database out, see databaseDifferences).

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  databaseDifferences, expectRows, expectSqlError, exportedBytes, openDemo, ROOT, sessionForFile,
  shopDbBytes,
} from './harness.mjs';

const FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'write_attempts.txt');

/** One statement per line; a literal backslash-n stands for a newline. */
function writeAttempts() {
  assert.ok(existsSync(FIXTURE), `${FIXTURE} is missing (it comes with the SQL guard)`);
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replaceAll('\\n', '\n'));
}

/**
 * The guard's refusals (src/sql/guard.rs, `Refusal`'s messages): not a read, several statements,
 * a forbidden function, a pragma function that is not a read, a parameter, or text that is not
 * SQL. A message from SQLite itself would mean the statement got past the guard.
 */
const REFUSED = new RegExp(
  [
    /^only a single read-only statement can run; this is an? \S.*: write one SELECT/,
    /^only a single read-only statement can run; this text has \d+ statements/,
    /^the function \w+\(\) is not allowed/,
    /^pragma_\w+ is not allowed: of SQLite's pragma functions only these plain reads can run/,
    /^`[^`]+` is a parameter, and nothing here binds parameters/,
    /^the SQL cannot be read: /,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
);

const session = sessionForFile();

test('each write attempt is refused and the database stays byte-identical', async () => {
  const attempts = writeAttempts();
  assert.ok(attempts.length >= 10, `only ${attempts.length} write attempts listed`);
  const page = await session.open();
  await openDemo(page);

  for (const [index, attempt] of attempts.entries()) {
    // A good query first, so that the error seen next belongs to this attempt.
    await expectRows(page, `SELECT ${index + 1}`, [[String(index + 1)]]);
    const message = await expectSqlError(page, attempt);
    assert.match(message, REFUSED, `not refused by the guard: ${attempt}`);
  }

  const changed = databaseDifferences(await exportedBytes(page), await shopDbBytes());
  assert.deepEqual(changed, [], 'bytes of the database that differ from shop.db');
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  assert.deepEqual(page.problems, []);
});
