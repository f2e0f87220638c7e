// When the model call does not go well: Stop in the middle of a call, a refused key, rate
// limits and server errors that pass (retried) or do not, and a server that is not there.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDemo, sessionForFile, visibleText, waitUntil } from './harness.mjs';
import {
  API_KEY,
  MODELS,
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  closedPort,
  configure,
  demoWithLlm,
  expectAnswerRows,
  finalAnswer,
  isIdle,
  modelRequestsReach,
  openWatched,
  waitForAgentError,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

const QUESTION = 'Which customers live in Tokyo?';
const ANSWER = finalAnswer('Alice and Evan', TOKYO_SQL);

const ready = (t, turns, provider) => demoWithLlm(t, session, turns, provider);

const status = (code, message, headers) => ({ status: code, body: { error: { message } }, headers });

test('Stop in the middle of a model call ends the question and cancels the request; the next one works', async (t) => {
  const { llm, page } = await ready(t, [{ ...finalAnswer('TOO LATE', TOKYO_SQL), delayMs: 15_000 }]);
  await ask(page, QUESTION);
  const [pending] = await modelRequestsReach(llm, 1);
  await page.getByTestId('stop').click();
  await waitUntil('the page to be idle again after Stop', () => isIdle(page), Boolean);
  await waitUntil('the page to abort its request', () => Boolean(pending.aborted), Boolean);
  assert.equal(await visibleText(page, 'answer'), null, 'no answer after Stop');

  llm.script([finalAnswer('Fresh: Alice and Evan', TOKYO_SQL)]);
  await ask(page, QUESTION);
  assert.match(await waitForAnswer(page), /Fresh: Alice and Evan/);
  assert.doesNotMatch(await page.textContent('body'), /TOO LATE/);
  assert.equal(llm.modelRequests().length, 2);
});

test('401: a clear message about the key, the question stays, no retry', async (t) => {
  const { llm, page } = await ready(t, [status(401, 'Incorrect API key provided: sk-ask****4e06.')], 'anthropic');
  await ask(page, QUESTION);
  const error = await waitForAgentError(page);
  assert.match(error, /key/i);
  assert.match(error, /401/);
  assert.ok(!error.includes(API_KEY), 'the message does not repeat the key');
  assert.equal(await page.getByTestId('question').inputValue(), QUESTION, 'the question stays in the box');
  assert.equal(llm.modelRequests().length, 1, 'a refused key is not retried');
  assert.ok(await isIdle(page), 'Ask is offered again');
});

test('429 then success: retried once, and the transcript says why', async (t) => {
  const { llm, page } = await ready(t, [status(429, 'Rate limit reached', { 'retry-after': '1' }), ANSWER], 'gemini');
  await ask(page, QUESTION);
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, TOKYO_ROWS);
  const requests = llm.modelRequests();
  assert.equal(requests.length, 2, 'one retry');
  assert.deepEqual(requests[1].body, requests[0].body, 'the same request, sent again');
  assert.match(await page.textContent('body'), /retry[^]*429/i, 'the transcript tells of the retry and why');
});

test('500 twice then success: retried until it passes', async (t) => {
  const { llm, page } = await ready(t, [status(500, 'internal error'), status(500, 'internal error'), ANSWER]);
  await ask(page, QUESTION);
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  assert.equal(llm.modelRequests().length, 3, 'two retries');
  assert.match(await page.textContent('body'), /retry 2[^]*500/i, 'the transcript tells of both retries');
  assert.equal(await visibleText(page, 'agent-error'), null);
});

test('500 every time: after the retries, a clear message that the provider is failing', async (t) => {
  const failures = Array.from({ length: 4 }, () => status(503, 'upstream overloaded'));
  const { llm, page } = await ready(t, failures);
  await ask(page, QUESTION);
  const error = await waitForAgentError(page);
  assert.match(error, /503/);
  assert.match(error, /upstream overloaded/, 'the server message is shown');
  assert.equal(llm.modelRequests().length, 4, 'the first call and three retries');
  assert.equal(await page.getByTestId('question').inputValue(), QUESTION);
});

test('an unreachable server: a clear message naming the address', async (t) => {
  const port = await closedPort();
  const page = await openWatched(t, session);
  await openDemo(page);
  const address = `http://127.0.0.1:${port}/v1`;
  await configure(page, { provider: 'openai', baseUrl: address, model: MODELS.openai });
  await ask(page, QUESTION);
  const error = await waitForAgentError(page);
  assert.match(error, /could not reach/i);
  assert.ok(error.includes(`127.0.0.1:${port}`), `the message names the address: ${error}`);
  assert.ok(!error.includes(API_KEY));
  assert.equal(await page.getByTestId('question').inputValue(), QUESTION);
  assert.ok(await isIdle(page));
});
