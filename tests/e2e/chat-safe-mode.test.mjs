// Safe mode in the page: the model gets no SQL tool, asks structured queries, and the page shows
// the SQL the app compiled with its bound values, re-run. Turned on in Settings or by
// `?mode=safe` (which a link can set but not unset).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectRows, openDemo, sessionForFile, visibleText, waitUntil } from './harness.mjs';
import {
  ask,
  bodyText,
  call,
  chatAddress,
  configureFor,
  demoWithLlm,
  expectAnswerRows,
  openSettings,
  openWatched,
  scriptedLlm,
  steps,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

const toolNames = (request) => (request.body.tools ?? []).map((tool) => tool.function.name).sort();

const TOKYO_QUERY = {
  table: 'customers',
  fields: ['name'],
  filters: [{ field: 'prefecture', op: 'eq', value: 'Tokyo' }],
  order_by: [{ by: 'name' }],
};

test('ticked in Settings: a question is answered through query alone, its SQL and values shown and re-run', async (t) => {
  const { llm, page } = await demoWithLlm(t, session, [
    call('query', TOKYO_QUERY),
    call('final_answer', { answer: 'Alice and Evan live in Tokyo.', query: 1 }),
  ]);
  await openSettings(page);
  const safeMode = page.getByTestId('safe-mode');
  assert.equal(await safeMode.isChecked(), false, 'safe mode is off by default');
  await safeMode.check();
  await ask(page, 'Which customers live in Tokyo?');
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, [['Alice'], ['Evan']]);

  const sql = await visibleText(page, 'answer-sql');
  assert.match(sql, /WHERE customers\.prefecture = \?1/);
  assert.doesNotMatch(sql, /Tokyo/, 'the value is bound, not written into the SQL');
  assert.match(await visibleText(page, 'answer-values'), /\?1 = 'Tokyo'/);
  const [step] = await steps(page);
  assert.equal(step.tool, 'query');
  assert.match(step.text, /Values: \?1 = "Tokyo"/);

  const requests = llm.modelRequests();
  assert.deepEqual(toolNames(requests[0]), ['describe_table', 'final_answer', 'list_tables', 'query']);
  const queryTool = requests[0].body.tools.find((tool) => tool.function.name === 'query').function;
  assert.match(queryTool.description, /prefecture enum \["Fukuoka","Hokkaido","Osaka","Tokyo"\]/);
  assert.doesNotMatch(bodyText(requests[0]), /run_sql|cross_check/);
  await page.screenshot({ path: 'target/e2e-safe-mode-answer.png', fullPage: true });

  // "Open in the console" writes the values in, where the person can run it.
  await page.getByTestId('answer-to-console').click();
  const consoleSql = await page.getByTestId('sql-input').inputValue();
  assert.match(consoleSql, /customers\.prefecture = 'Tokyo'/);
  await expectRows(page, consoleSql, [['Alice'], ['Evan']]);
});

test('?mode=safe: run_sql is refused, a wrong value is answered with the values that occur, and a hostile value is only a value', async (t) => {
  const hostile = "'); DROP TABLE customers; --";
  const llm = await scriptedLlm(t, [
    call('run_sql', { sql: 'SELECT count(*) FROM customers' }),
    call('query', { ...TOKYO_QUERY, filters: [{ field: 'prefecture', op: 'eq', value: '東京都' }] }),
    call('query', { table: 'customers', aggregates: [{ function: 'count' }], filters: [{ field: 'name', op: 'eq', value: hostile }] }),
    call('final_answer', { answer: 'Nobody has that name.', query: 1 }),
  ]);
  const page = await openWatched(t, session, `${chatAddress(llm, 'openai')}&mode=safe`);
  await openDemo(page);
  await configureFor(page, llm, 'openai');
  assert.equal(await page.getByTestId('safe-mode').isChecked(), true, 'the address turned safe mode on');
  await ask(page, 'How many customers are called that?');
  await waitForAnswer(page);
  await expectAnswerRows(page, [['0']]);

  const shown = await steps(page);
  assert.deepEqual(shown.map((s) => s.tool), ['run_sql', 'query', 'query', 'final_answer']);
  assert.match(shown[0].text, /there is no tool `run_sql`; the tools are list_tables, describe_table, query, final_answer/);
  assert.match(shown[1].text, /'東京都' does not occur in `prefecture`; the values that occur are: 'Fukuoka', 'Hokkaido', 'Osaka', 'Tokyo'/);
  const requests = llm.modelRequests();
  for (const request of requests) assert.deepEqual(toolNames(request), ['describe_table', 'final_answer', 'list_tables', 'query']);
  assert.match(bodyText(requests[1]), /there is no tool `run_sql`/, 'the refusal went back to the model');

  assert.doesNotMatch(await visibleText(page, 'answer-sql'), /DROP/);
  await expectRows(page, 'SELECT count(*) FROM customers', [['6']]);
  await page.screenshot({ path: 'target/e2e-safe-mode-refusals.png', fullPage: true });
});

test('a link cannot turn safe mode off once the person turned it on', async (t) => {
  const llm = await scriptedLlm(t);
  const page = await openWatched(t, session);
  await openDemo(page);
  await configureFor(page, llm, 'openai');
  await page.getByTestId('safe-mode').check();
  await page.goto(`${page.url().split('?')[0]}?mode=sql`);
  // A parameter that was not used opens the panel by itself, saying why.
  const notice = () => page.evaluate(() => document.querySelector('#model-settings:not([hidden]) .notice')?.textContent);
  await waitUntil('the panel to say why mode=sql was not used', notice, (text) =>
    /a link can turn safe mode on, not off/.test(text ?? ''));
  assert.equal(await page.getByTestId('safe-mode').isChecked(), true);
});
