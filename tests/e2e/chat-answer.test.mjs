// The answer and what stands behind it: notes and caveats, an answer without SQL marked as
// unverified, the evidence SQL put into the console; and the failures not covered elsewhere:
// an unknown model (404) and a server that refuses the page (CORS).

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { expectRows, openDemo, resultTable, sessionForFile, visibleText, waitUntil } from './harness.mjs';
import {
  API_KEY,
  MODELS,
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  call,
  configure,
  demoWithLlm,
  expectAnswerRows,
  finalAnswer,
  isIdle,
  openWatched,
  waitForAgentError,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

const ready = (t, turns, provider) => demoWithLlm(t, session, turns, provider);

const unverifiedBadge = (page) =>
  page.evaluate(() => document.querySelector('[data-testid="answer"] .unverified')?.checkVisibility() ?? false);

test('notes and caveats show as such, and a checked answer is not marked unverified', async (t) => {
  const notes = 'Two readings: by quantity sold, or by number of orders. This answer counts orders.';
  const { page } = await ready(t, [finalAnswer('Alice and Evan', TOKYO_SQL, notes)]);
  await ask(page, 'Which customers live in Tokyo?');
  await waitForAnswer(page);
  const shown = await page.evaluate(() => {
    const aside = document.querySelector('[data-testid="answer"] aside');
    return aside && aside.checkVisibility() ? aside.textContent : null;
  });
  assert.ok(shown?.includes(notes), `the notes show in their own box (got ${shown})`);
  await expectAnswerRows(page, TOKYO_ROWS);
  assert.equal(await unverifiedBadge(page), false);
});

test('an answer in words only, after the nudge, is marked unverified and has no evidence', async (t) => {
  const { llm, page } = await ready(t, [
    { text: 'I think Alice and Evan live in Tokyo.' },
    { text: 'Alice and Evan.' },
  ]);
  await ask(page, 'Which customers live in Tokyo?');
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  assert.equal(await unverifiedBadge(page), true, 'the answer is marked unverified');
  assert.match(await page.textContent('[data-testid="answer"]'), /No query backs this answer/);
  assert.equal(await visibleText(page, 'answer-sql'), null, 'no evidence SQL is shown');
  const requests = llm.modelRequests();
  assert.equal(requests.length, 2, 'one nudge, then the text is taken as the answer');
  assert.match(JSON.stringify(requests[1].body), /final_answer/, 'the nudge asks for final_answer');
});

test('"Open in the console" puts the evidence SQL in the console, where it runs', async (t) => {
  const { page } = await ready(t, [finalAnswer('Alice and Evan', TOKYO_SQL)]);
  await expectRows(page, 'SELECT count(*) FROM products', [['5']]); // something else first
  await ask(page, 'Which customers live in Tokyo?');
  await waitForAnswer(page);
  await page.getByTestId('answer-to-console').click();
  const console = page.getByTestId('sql-input');
  assert.equal(await console.inputValue(), TOKYO_SQL);
  assert.ok(await console.evaluate((element) => element === document.activeElement), 'the console has the focus');
  await console.press('Control+Enter');
  await waitUntil('the console to show the evidence rows', () => resultTable(page), (table) =>
    JSON.stringify(table?.rows) === JSON.stringify(TOKYO_ROWS));
});

test('an unknown model (404): a message about the model name and base URL, no retry', async (t) => {
  const { llm, page } = await ready(t, [
    { status: 404, body: { error: { message: 'The model `gpt-nope` does not exist' } } },
  ]);
  await ask(page, 'Which customers live in Tokyo?');
  const error = await waitForAgentError(page);
  assert.match(error, /model or URL not found/i);
  assert.match(error, /gpt-nope/, "the provider's own words are shown");
  assert.equal(llm.modelRequests().length, 1, 'a 404 is not retried');
  assert.ok(await isIdle(page));
});

test('a server that does not allow this page (CORS): says so and names OLLAMA_ORIGINS', async (t) => {
  // Answers like a model server started without OLLAMA_ORIGINS: no Access-Control-* headers.
  let seen = 0;
  const server = createServer((request, response) => {
    seen += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));
  const address = `http://127.0.0.1:${server.address().port}/v1`;

  const page = await openWatched(t, session);
  await openDemo(page);
  await configure(page, { provider: 'openai', baseUrl: address, model: MODELS.openai });
  await ask(page, 'Which customers live in Tokyo?');
  const error = await waitForAgentError(page);
  assert.match(error, /CORS/);
  assert.match(error, /OLLAMA_ORIGINS/);
  assert.ok(error.includes(address), `the message names the address: ${error}`);
  assert.ok(!error.includes(API_KEY));
  assert.ok(seen >= 1, 'the browser did reach the server (its preflight), which refused the page');
  assert.ok(await isIdle(page));
});

test('temperature and step limit from the settings reach the model call and the loop', async (t) => {
  const { llm, page } = await ready(t, [finalAnswer('Alice and Evan', TOKYO_SQL)]);
  await ask(page, 'Which customers live in Tokyo?');
  await waitForAnswer(page);
  assert.equal(llm.modelRequests()[0].body.temperature, 0.2, 'the default temperature is 0.2');

  // Temperature 0.7 and at most 2 steps; the model keeps looking and never answers.
  for (const [id, value] of [['temperature', '0.7'], ['step-limit', '2']]) {
    const input = page.getByTestId(id);
    await input.fill(value);
    await input.dispatchEvent('change');
  }
  llm.script([1, 2, 3].map((n) => call('run_sql', { sql: `SELECT ${n}` })));
  await ask(page, 'Which customers live in Osaka?');
  const error = await waitForAgentError(page);
  assert.match(error, /no answer after 2 steps/i);
  const requests = llm.modelRequests().slice(1);
  assert.equal(requests.length, 2, 'the loop stopped at the step limit');
  assert.ok(requests.every((request) => request.body.temperature === 0.7), 'the chosen temperature is sent');
});
