// The page for every person: on a 400 px screen nothing spills sideways, the keyboard alone
// gets from opening the demo to an answer, and the colours follow the system's light or dark
// preference.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectTable, openDemo, sessionForFile, sidewaysSpills, waitForOpen, waitUntil } from './harness.mjs';
import {
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  call,
  chatAddress,
  configure,
  expectAnswerRows,
  finalAnswer,
  scriptedLlm,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

test('on a 400 px screen, the console, settings, transcript and answer fit the width', async (t) => {
  const llm = await scriptedLlm(t, [
    call('run_sql', { sql: "SELECT name FROM customers WHERE prefecture = '東京都'" }),
    call('run_sql', { sql: TOKYO_SQL }),
    finalAnswer('**Alice** and **Evan** live in Tokyo.', TOKYO_SQL, 'Prefectures are stored in English.'),
  ]);
  const page = await session.open({
    search: chatAddress(llm, 'openai'),
    context: { viewport: { width: 400, height: 800 } },
    closeAfter: t,
  });
  assert.deepEqual(await sidewaysSpills(page), [], 'before a database is open');
  await openDemo(page);
  // A wide result: every column of the widest table.
  const everything =
    'SELECT * FROM orders JOIN customers ON customers.id = orders.customer_id JOIN products ON products.id = orders.product_id';
  await expectTable(page, everything, ({ rows }) => rows.length > 0, 'rows');
  await configure(page, { apiKey: 'sk-layout' });
  await ask(page, 'Which customers live in Tokyo?');
  await waitForAnswer(page);
  await expectAnswerRows(page, TOKYO_ROWS);
  // Open every step, so that its details are measured too.
  for (const summary of await page.locator('[data-testid="step"] summary').all()) {
    if (!(await summary.evaluate((s) => s.parentElement.open))) await summary.click();
  }
  assert.deepEqual(await sidewaysSpills(page), []);
  assert.deepEqual(page.problems, []);
});

test('the keyboard alone opens the demo, runs SQL, asks a question and opens a step', async (t) => {
  const llm = await scriptedLlm(t, [call('run_sql', { sql: TOKYO_SQL }), finalAnswer('Alice and Evan', TOKYO_SQL)]);
  const page = await session.open({ search: chatAddress(llm, 'openai'), closeAfter: t });
  const focused = () =>
    page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName.toLowerCase());

  /** Presses Tab until the element with test id `id` has the focus; fails after 60 presses. */
  async function tabTo(id) {
    const seen = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const now = await focused();
      if (now === id) return;
      seen.push(now);
    }
    assert.fail(`Tab never reached ${id}; it went through ${seen.join(', ')}`);
  }

  await tabTo('db-demo');
  await page.keyboard.press('Enter');
  await waitForOpen(page, 'shop.db');

  await tabTo('sql-input');
  await page.keyboard.type('SELECT count(*) FROM orders');
  await page.keyboard.press('Control+Enter');
  await waitUntil('the count', () => page.locator('[data-testid="result"] tbody td').first().textContent(), (text) => text?.trim() === '12');

  await tabTo('settings');
  await page.keyboard.press('Enter');
  await tabTo('api-key');
  await page.keyboard.type('sk-keyboard');

  await tabTo('question');
  await page.keyboard.type('Which customers live in Tokyo?');
  await page.keyboard.press('Shift+Enter'); // a new line, not a send
  await page.keyboard.type('Names only.');
  assert.equal(await page.getByTestId('question').inputValue(), 'Which customers live in Tokyo?\nNames only.');
  assert.equal(llm.modelRequests().length, 0, 'Shift+Enter does not send');
  await page.keyboard.press('Enter');
  await waitForAnswer(page);
  await expectAnswerRows(page, TOKYO_ROWS);

  // A step card opens and closes from the keyboard.
  const step = page.locator('[data-testid="step"][data-tool="run_sql"] details').first();
  const wasOpen = await step.evaluate((details) => details.open);
  await step.locator('summary').focus();
  await page.keyboard.press('Enter');
  await waitUntil('the step to toggle', () => step.evaluate((details) => details.open), (open) => open !== wasOpen);
  assert.deepEqual(page.problems, []);
});

test('the colours follow the light or dark preference of the system', async (t) => {
  const colours = async (colorScheme) => {
    const page = await session.open({ context: { colorScheme }, closeAfter: t });
    await openDemo(page);
    return page.evaluate(() => {
      const style = (selector) => getComputedStyle(document.querySelector(selector));
      return { background: style('body').backgroundColor, text: style('body').color, console: style('[data-testid="sql-input"]').backgroundColor };
    });
  };
  const light = await colours('light');
  const dark = await colours('dark');
  const brightness = (css) => {
    const [r, g, b] = css.match(/[\d.]+/g).map(Number);
    return (r * 299 + g * 587 + b * 114) / 1000;
  };
  assert.ok(brightness(light.background) > 160, `a light background in light mode (${light.background})`);
  assert.ok(brightness(dark.background) < 90, `a dark background in dark mode (${dark.background})`);
  assert.ok(brightness(light.text) < brightness(light.background) - 100, 'dark text on light');
  assert.ok(brightness(dark.text) > brightness(dark.background) + 100, 'light text on dark');
  assert.notEqual(light.console, dark.console, 'the console follows too');
});
