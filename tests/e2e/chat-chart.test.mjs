// An answer whose evidence has the shape of a chart (a label and a number per row) offers
// one: the bars are the result's rows.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionForFile, waitUntil } from './harness.mjs';
import {
  ask,
  demoWithLlm,
  expectAnswerRows,
  finalAnswer,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

test('customers per prefecture: the answer offers a bar chart of its rows', async (t) => {
  const sql =
    'SELECT prefecture, count(*) AS customers FROM customers WHERE prefecture IS NOT NULL ' +
    'GROUP BY prefecture ORDER BY prefecture';
  const { page } = await demoWithLlm(t, session, [finalAnswer('Tokyo has the most customers (2).', sql)], 'gemini');
  await ask(page, 'How many customers are there per prefecture?');
  await waitForAnswer(page);
  const rows = [['Fukuoka', '1'], ['Hokkaido', '1'], ['Osaka', '1'], ['Tokyo', '2']];
  await expectAnswerRows(page, rows);

  const answer = page.getByTestId('answer');
  assert.equal(await answer.getByTestId('chart').count(), 0, 'the table shows first');
  await answer.getByTestId('show-chart').click();
  const chart = answer.getByTestId('chart');
  await chart.waitFor({ state: 'visible' });
  const bars = await waitUntil(
    'four bars',
    () =>
      chart
        .locator('rect')
        .evaluateAll((rects) => rects.map((r) => r.querySelector('title')?.textContent ?? '').filter(Boolean)),
    (titles) => titles.length === 4,
  );
  for (const [label, count] of rows) {
    assert.ok(bars.some((title) => title.includes(label) && title.includes(count)), `a bar for ${label}: ${bars}`);
  }
  const heights = await chart
    .locator('rect:has(title)')
    .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))));
  assert.ok(heights[3] > heights[0] * 1.9, `Tokyo's bar is twice as tall: ${heights}`);

  await answer.getByTestId('show-table').click();
  await expectAnswerRows(page, rows);
  assert.equal(await answer.getByTestId('chart').count(), 0);
});
