// The agent in conversation: a literal that is not in the data (東京都) is caught by the tool
// and corrected by the model; a follow-up question carries the earlier question and answer;
// "new conversation" forgets them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionForFile, visibleText, waitUntil } from './harness.mjs';
import {
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  bodyText,
  call,
  demoWithLlm,
  expectAnswerRows,
  finalAnswer,
  questionOf,
  stepTools,
  steps,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

test('東京都: the empty result names the values that exist, and the model retries with Tokyo', async (t) => {
  const wrongSql = "SELECT name FROM customers WHERE prefecture = '東京都'";
  const { llm, page } = await demoWithLlm(t, session, [
    call('run_sql', { sql: wrongSql }),
    call('run_sql', { sql: TOKYO_SQL }),
    finalAnswer('Alice and Evan', TOKYO_SQL),
  ]);
  await ask(page, '東京都に住んでいる顧客は誰ですか？');
  const answer = await waitForAnswer(page);
  assert.match(answer, /Alice and Evan/);
  await expectAnswerRows(page, TOKYO_ROWS);

  const [first, second, third] = llm.modelRequests();
  assert.ok(!first.body.messages.some((m) => m.role === 'tool'));
  const result = second.body.messages.filter((m) => m.role === 'tool');
  assert.equal(result.length, 1);
  assert.match(result[0].content, /東京都/, 'the result names the literal it checked');
  assert.match(result[0].content, /Tokyo/, 'the result lists the values that do occur');
  assert.match(third.body.messages.filter((m) => m.role === 'tool')[1].content, /Alice.*Evan/s);

  const tools = await stepTools(page);
  assert.deepEqual(tools.filter((tool) => tool === 'run_sql').length, 2, `steps: ${tools}`);
  const shown = (await steps(page)).filter((step) => step.tool === 'run_sql').map((step) => step.text);
  assert.ok(shown[0].includes('東京都'), 'the first run_sql step shows its SQL as sent');
});

test('a follow-up question carries the earlier question and answer; new conversation forgets them', async (t) => {
  const first = 'Which customers live in Tokyo?';
  const followUp = 'How many orders did they place?';
  const ordersSql =
    'SELECT count(*) AS orders FROM orders JOIN customers ON customers.id = orders.customer_id ' +
    "WHERE customers.prefecture = 'Tokyo'";
  const { llm, page } = await demoWithLlm(t, session, [
    finalAnswer('Alice and Evan', TOKYO_SQL),
    finalAnswer('They placed 4 orders.', ordersSql),
  ]);

  await ask(page, first);
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, TOKYO_ROWS);

  await ask(page, followUp);
  await waitUntil('the follow-up answer', () => visibleText(page, 'answer'), (text) => /4 orders/.test(text ?? ''));
  await expectAnswerRows(page, [['4']]);
  const messages = llm.modelRequests()[1].body.messages;
  const user = messages.filter((m) => m.role === 'user').map((m) => m.content);
  // The earlier question is remembered bare; the follow-up may carry the demo's knowledge.
  assert.deepEqual([user[0], questionOf(user[1])], [first, followUp], 'the earlier question, then the follow-up');
  const earlier = messages.find((m) => m.role === 'assistant');
  assert.match(earlier.content, /Alice and Evan/, 'the earlier answer');
  assert.ok(messages.indexOf(earlier) < messages.findIndex((m) => m.content.startsWith(followUp)));

  await page.getByTestId('new-conversation').click();
  await waitUntil(
    'the transcript and answer to clear',
    async () => ({ steps: (await steps(page)).length, answer: await visibleText(page, 'answer') }),
    (state) => state.steps === 0 && !state.answer,
  );
  llm.script([finalAnswer('There are 12 orders.', 'SELECT count(*) FROM orders')]);
  await ask(page, 'How many orders are there?');
  await waitUntil('the fresh answer', () => visibleText(page, 'answer'), (text) => /12 orders/.test(text ?? ''));
  await expectAnswerRows(page, [['12']]);
  const fresh = llm.modelRequests()[2];
  assert.ok(!bodyText(fresh).includes(first), 'the earlier question is forgotten');
  assert.ok(!bodyText(fresh).includes('Alice and Evan'), 'the earlier answer is forgotten');
  assert.deepEqual(fresh.body.messages.filter((m) => m.role !== 'system').map((m) => m.role), ['user']);
});
