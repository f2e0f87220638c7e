// What went with a question, on the demo database (which keeps notes, a glossary and worked
// examples in its askdb_* tables): the transcript says it in one line that opens onto the
// glossary terms and the examples' questions, and the model's requests carry exactly that —
// the notes in the system prompt, the matching term and example after the question.

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, sessionForFile, waitUntil } from './harness.mjs';
import { ask, bodyText, demoWithLlm, finalAnswer, waitForAnswer } from './chat-support.mjs';

const session = sessionForFile();
const SHOTS = path.join(ROOT, 'tests', 'e2e', '.artifacts');

const TOKYO_COUNT = "SELECT count(*) FROM customers WHERE prefecture = 'Tokyo'";

/** The knowledge line's summary and details, once it shows. */
async function knowledgeLine(page) {
  return waitUntil(
    'the knowledge line in the transcript',
    () =>
      page.evaluate(() => {
        const line = document.querySelector('[data-testid="knowledge"]');
        if (!line) return null;
        return {
          summary: line.querySelector('summary')?.textContent ?? line.textContent,
          details: [...line.querySelectorAll('.knowledge-details li')].map((item) => item.textContent),
          beforeFirstStep: !line.previousElementSibling,
        };
      }),
    (line) => line !== null,
  );
}

test('a Japanese question goes with its term and example, and the transcript says so', async (t) => {
  const { llm, page } = await demoWithLlm(t, session, [finalAnswer('2人です。', TOKYO_COUNT)]);
  await ask(page, '東京都に住む顧客は何人？');
  await waitForAnswer(page);

  const line = await knowledgeLine(page);
  assert.match(line.summary, /^Knowledge: \d+ notes, 1 term, 1 example · \d\.\d of 10 KB$/);
  assert.ok(line.beforeFirstStep, 'the line comes before the steps');
  assert.equal(line.details.length, 2);
  assert.equal(line.details[0], 'Term: 東京都');
  assert.match(line.details[1], /^Example \(0\.\d\d\): 東京都の顧客は何人？$/);

  const [request] = llm.modelRequests();
  const body = bodyText(request);
  assert.ok(body.includes('compare with >= and <'), 'a note is in the system prompt');
  assert.ok(body.includes("customers.prefecture = 'Tokyo' (prefectures are stored in English)"), 'the term went');
  assert.ok(body.includes('Question: 東京都の顧客は何人？'), 'the example went');
  assert.ok(!body.includes('repeat customer'), 'a term the question does not use stays out');
  assert.ok(!body.toLowerCase().includes('askdb_'), 'no knowledge table is named');

});

test('an English question: its term and example; screenshots opened, light and dark', async (t) => {
  const sql =
    "SELECT p.category, sum(p.price * o.quantity) FROM orders o JOIN products p ON p.id = o.product_id WHERE o.ordered_at >= '2024-03-01' AND o.ordered_at < '2024-04-01' GROUP BY p.category";
  const { page } = await demoWithLlm(t, session, [finalAnswer('Electronics first.', sql)]);
  await ask(page, 'What was the revenue by category in March 2024?');
  await waitForAnswer(page);
  const line = await knowledgeLine(page);
  assert.match(line.summary, /^Knowledge: \d+ notes, 1 term, 1 example · \d\.\d of 10 KB$/);
  assert.equal(line.details.length, 2);
  assert.equal(line.details[0], 'Term: revenue');
  assert.match(line.details[1], /^Example \(0\.\d\d\): Revenue by category$/);

  await page.locator('[data-testid="knowledge"] summary').click();
  await mkdir(SHOTS, { recursive: true });
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('.transcript').screenshot({ path: path.join(SHOTS, `chat-knowledge-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SHOTS, 'chat-knowledge-phone.png'), fullPage: true });
});

test('a question that matches no term or example goes alone; the notes still go', async (t) => {
  const { llm, page } = await demoWithLlm(t, session, [
    finalAnswer('The Bottle.', 'SELECT name FROM products ORDER BY price LIMIT 1'),
  ]);
  await ask(page, 'Which product is the cheapest?');
  await waitForAnswer(page);
  const line = await knowledgeLine(page);
  assert.match(line.summary, /^Knowledge: \d+ notes, 0 terms, 0 examples · \d\.\d of 10 KB$/);
  assert.deepEqual(line.details, []);
  const body = bodyText(llm.modelRequests()[0]);
  assert.ok(!body.includes('Knowledge for this question'), body);
});
