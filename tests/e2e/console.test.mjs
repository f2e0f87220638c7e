// The SQL console on the demo database: opening it, the schema, running queries with the
// button and with Ctrl+Enter, how NULL and empty values look, numbers and long text, the number
// settings, and the CSV download.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import {
  expectRows, expectTable, openDemo, schemaNames, sessionForFile, visibleText, waitUntil,
} from './harness.mjs';

const session = sessionForFile();

test('the demo opens, shows its tables and counts the orders by button and by Ctrl+Enter', async () => {
  const page = await session.open();
  const status = await openDemo(page);
  assert.match(status, /(?<!\d)3 tables\b/, 'the status gives the table count');
  const names = await schemaNames(page);
  for (const wanted of ['customers', 'orders', 'products']) {
    assert.ok(names.includes(wanted), `the schema lists ${wanted} (it lists ${names})`);
  }

  const table = await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  assert.deepEqual(table.columns, ['count(*)']);
  assert.match(await visibleText(page, 'result-rowcount'), /\b1\b/);
  assert.match(await visibleText(page, 'result-elapsed'), /\d/);

  // Another result in between, so that the Ctrl+Enter run has to change what is shown.
  await expectRows(page, 'SELECT count(*) FROM products', [['5']]);
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']], { keys: true });
  assert.deepEqual(page.problems, []);
});

test('NULL, the text NULL and the empty string look different', async () => {
  const page = await session.open();
  await openDemo(page);
  await expectTable(
    page,
    "SELECT NULL AS a, 'NULL' AS b, '' AS c",
    ({ rows }) => rows.length === 1 && rows[0][1] === 'NULL' && rows[0][2] === '',
    "one row: NULL, 'NULL', ''",
  );
  const cells = await page.$$eval('[data-testid="result"] tbody td', (tds) =>
    tds.map((td) => {
      const style = getComputedStyle(td);
      const inner = td.firstElementChild ? getComputedStyle(td.firstElementChild) : style;
      return {
        html: td.outerHTML,
        text: td.textContent.trim(),
        look: [style.color, style.fontStyle, style.opacity, inner.color, inner.fontStyle, inner.opacity].join('|'),
      };
    }),
  );
  assert.equal(cells.length, 3, `one row of three cells (got ${JSON.stringify(cells)})`);
  const [nullCell, textCell, emptyCell] = cells;
  assert.equal(textCell.text, 'NULL');
  assert.equal(emptyCell.text, '');
  // A person must be able to tell them apart: by text or by look, not only by markup.
  const seen = (cell) => `${cell.text}#${cell.look}`;
  assert.notEqual(seen(nullCell), seen(textCell), 'NULL and the text NULL look the same');
  assert.notEqual(seen(nullCell), seen(emptyCell), "NULL and '' look the same");
  assert.notEqual(seen(textCell), seen(emptyCell));
});

test('numbers are right-aligned; long text is clipped with a button that shows it whole', async () => {
  const page = await session.open();
  await openDemo(page);
  // 300 characters, with its end marked so that "whole" can be checked.
  const sql = "SELECT 42 AS n, 2.5 AS r, 'short' AS t, printf('%.*c', 297, 'x') || 'END' AS long";
  await expectTable(page, sql, ({ rows }) => rows.length === 1, 'one row');
  const cells = () =>
    page.$$eval('[data-testid="result"] tbody td', (tds) =>
      tds.map((td) => ({ align: getComputedStyle(td).textAlign, text: td.textContent.trim() })),
    );
  const [n, r, t, long] = await cells();
  assert.equal(n.align, 'right', 'an integer is right-aligned');
  assert.equal(r.align, 'right', 'a real is right-aligned');
  assert.notEqual(t.align, 'right', 'text is not right-aligned');
  assert.ok(!long.text.includes('END'), `long text is clipped (${long.text.length} characters shown)`);

  const button = page.locator('[data-testid="result"] tbody td button').first();
  assert.match(await button.textContent(), /show all 300 characters/);
  await button.click();
  await waitUntil('the whole text to show', async () => (await cells())[3].text, (text) => text.includes('x'.repeat(297) + 'END'));
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  await button.click();
  await waitUntil('the text to be clipped again', async () => (await cells())[3].text, (text) => !text.includes('END'));
});

test('a number setting outside its range puts back the value that stands; one inside is taken', async () => {
  const page = await session.open();
  await openDemo(page);
  await page.getByTestId('settings').click();
  const cases = [
    ['setting-row-cap', '0', '50'],
    ['setting-deadline', '-3', '5'],
    ['temperature', '9', '0.7'],
    ['step-limit', '51', '12'],
  ];
  for (const [id, outside, inside] of cases) {
    const input = page.getByTestId(id);
    const standing = await input.inputValue();
    await input.fill(outside);
    await input.dispatchEvent('change');
    assert.equal(await input.inputValue(), standing, `${id}: ${outside} is refused`);
    await input.fill(inside);
    await input.dispatchEvent('change');
    assert.equal(await input.inputValue(), inside, `${id}: ${inside} is taken`);
  }
  // The row cap taken is the one the console uses.
  const sql = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 80) SELECT x FROM r';
  const table = await expectTable(page, sql, ({ rows }) => rows.length > 0, 'rows');
  assert.equal(table.rows.length, 50);
  assert.match(await visibleText(page, 'result-rowcount'), /first 50 of 80 rows/);
});

test('the CSV download quotes commas, quotes and newlines (RFC 4180) and is UTF-8', async () => {
  const page = await session.open();
  await openDemo(page);
  const sql = `SELECT 'a,b' AS "x,y", 'say "hi"' AS q, 'line1' || char(10) || 'line2' AS nl,
    NULL AS n, '' AS e, '日本語 café' AS u
    UNION ALL SELECT 'plain', 'x', 'y', 1, 2.5, 'z'`;
  await expectTable(page, sql, ({ rows }) => rows.length === 2, 'two rows');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('csv-download').click(),
  ]);
  assert.match(download.suggestedFilename(), /\.csv$/);
  const bytes = await readFile(await download.path());
  let text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); // throws on bad UTF-8
  text = text.replace(/^\uFEFF/, '');
  assert.ok(text.includes('"say ""hi"""'), 'quotes are doubled inside a quoted field');
  assert.deepEqual(parseCsv(text), [
    ['x,y', 'q', 'nl', 'n', 'e', 'u'],
    ['a,b', 'say "hi"', 'line1\nline2', '', '', '日本語 café'],
    ['plain', 'x', 'y', '1', '2.5', 'z'],
  ]);
});

/** A strict RFC 4180 reader (records end in CRLF or LF; a last line ending is optional). */
function parseCsv(text) {
  const records = [];
  let record = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i += 1;
        assert.ok(i === text.length || ',\r\n'.includes(text[i]), `text after a closing quote at ${i}`);
      } else {
        field += c;
        i += 1;
      }
    } else if (c === '"') {
      assert.equal(field, '', `a quote inside an unquoted field at ${i}`);
      quoted = true;
      i += 1;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i += 1;
    } else if (c === '\r' || c === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      assert.ok(!'\r\n'.includes(c));
      field += c;
      i += 1;
    }
  }
  assert.ok(!quoted, 'an unclosed quoted field');
  if (field !== '' || record.length) {
    record.push(field);
    records.push(record);
  }
  return records;
}
