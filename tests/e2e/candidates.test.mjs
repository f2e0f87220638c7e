// Candidate answers in the page (?candidates=N or Settings): three candidates that agree give
// one answer saying so; a 2–1 split shows both results with their SQL and counts, takes
// neither, and the person's choice is what a follow-up remembers; Stop ends all of them; a
// candidate whose model fails is counted apart; a conversation with candidates is saved and
// replays with the same split and choice, calling no model. Each
// candidate's steps are folded, the ledger has their requests and the usage line their tokens.
// Screenshots of the agreement and of the split go to $ASKDB_SCREENSHOTS (default: the
// system's temporary directory).

import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readFile, writeFile } from 'node:fs/promises';
import { chooseFile, openDemo, resultTable, sessionForFile, tempDir, visibleText, waitUntil } from './harness.mjs';
import {
  API_KEY,
  ask,
  bodyText,
  configureFor,
  finalAnswer,
  isIdle,
  modelRequestsReach,
  openSettings,
  openWatched,
  scriptedLlm,
} from './chat-support.mjs';

const session = sessionForFile();
const SHOTS = process.env.ASKDB_SCREENSHOTS ?? os.tmpdir();

const ORDERS = 'SELECT count(*) FROM orders';
const ORDERS_BY_ID = 'SELECT count(id) FROM orders';
const CUSTOMERS = 'SELECT count(*) FROM customers';

/** The demo open, the chat on a scripted model with `turns`, at `search`. */
async function ready(t, turns, search = '?candidates=3') {
  const llm = await scriptedLlm(t, turns);
  const page = await openWatched(t, session, search);
  await openDemo(page);
  await configureFor(page, llm, 'openai');
  return { llm, page };
}

const agreement = (page) =>
  waitUntil('the candidates to agree or disagree', () => visibleText(page, 'agreement'), Boolean);

/** Each distinct result of a split: how many gave it, its SQL, its rows. */
const splitResults = (page) =>
  page.$$eval('[data-testid="candidate-group"]', (blocks) =>
    blocks.map((block) => ({
      given: block.querySelector('[data-testid="candidate-given"]').textContent,
      sql: block.querySelector('[data-testid="candidate-sql"]').textContent,
      rows: [...block.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
    })),
  );

/** The candidates' folded steps: whether each is open, and the line that says how it went. */
const candidateSteps = (page) =>
  page.$$eval('[data-testid="candidate-steps"]', (items) =>
    items.map((item) => ({ open: item.open, summary: item.querySelector('summary').textContent })),
  );

test('three candidates that agree: one answer, "3 of 3 candidates agree", their steps folded, their requests and tokens counted', async (t) => {
  const { llm, page } = await ready(t, [
    finalAnswer('There are 12 orders.', ORDERS),
    finalAnswer('12 orders.', ORDERS_BY_ID),
    finalAnswer('Twelve.', 'SELECT COUNT(*) AS n FROM orders WHERE 1'),
  ]);
  await ask(page, 'How many orders are there?');
  assert.equal(await agreement(page), '3 of 3 candidates agree');
  const answer = await waitUntil('the agreed answer', () => visibleText(page, 'answer'), Boolean);
  assert.match(answer, /There are 12 orders/, "the first agreeing candidate's words");
  assert.equal(await visibleText(page, 'answer-sql'), ORDERS);
  const orders = await resultTable(page, 'answer-result');
  assert.deepEqual(orders.rows, [['12']], 'its result as run here');
  assert.equal(await page.getByTestId('candidate-group').count(), 0, 'no choice to make');

  const folded = await candidateSteps(page);
  assert.equal(folded.length, 3);
  assert.ok(folded.every((c) => !c.open), 'each candidate’s steps are folded');
  assert.ok(folded.every((c) => /gave a result/.test(c.summary)), JSON.stringify(folded));
  assert.match(folded[1].summary, /Candidate 2 of 3 \(in parts\)/);

  assert.equal(llm.modelRequests().length, 3, 'one request per candidate');
  const ways = llm.modelRequests().map((r) => r.body.messages.at(-1).content);
  assert.equal(new Set(ways).size, 3, 'each candidate is asked its own way');
  await page.getByTestId('ledger').locator('details.ledger-details > summary').click();
  await waitUntil('the ledger to list 3 requests', () => page.getByTestId('ledger-entry').count(), (n) => n === 3);
  // The scripted model reports 100 in / 20 out per request.
  assert.match(await visibleText(page, 'usage'), /This question: 300 in \/ 60 out tokens/);
  await page.screenshot({ path: path.join(SHOTS, 'askdb-candidates-agree.png'), fullPage: true });
});

test('a 2–1 split shows both results with their SQL and counts, takes neither; the chosen one is what a follow-up remembers', async (t) => {
  const { llm, page } = await ready(t, [
    finalAnswer('There are 12 orders.', ORDERS),
    finalAnswer('There are 8.', CUSTOMERS),
    finalAnswer('12.', ORDERS_BY_ID),
  ]);
  await ask(page, 'How many orders are there?');
  assert.match(await agreement(page), /^The candidates disagree: 3 candidates gave 2 different results$/);
  assert.ok(await visibleText(page, 'candidates-ask'), 'the person is asked to choose or rephrase');
  const results = await splitResults(page);
  assert.equal(results.length, 2, JSON.stringify(results));
  assert.match(results[0].given, /^2 of 3 candidates gave this/);
  assert.match(results[1].given, /^1 of 3 candidates gave this/);
  assert.equal(results[1].sql, CUSTOMERS, 'the lone result is the customers count, whoever gave it');
  assert.deepEqual(results[0].rows, [['12']]);
  assert.notDeepEqual(results[1].rows, results[0].rows);
  assert.equal(await visibleText(page, 'answer'), null, 'nothing is chosen for the person');
  await waitUntil('the page to be idle', () => isIdle(page), Boolean);
  await page.screenshot({ path: path.join(SHOTS, 'askdb-candidates-split.png'), fullPage: true });

  // The person takes the lone result.
  await page.getByTestId('choose-candidate').nth(1).click();
  await waitUntil('the chosen answer', () => visibleText(page, 'answer'), Boolean);
  assert.equal(await visibleText(page, 'answer-sql'), CUSTOMERS);
  assert.ok(await page.getByTestId('choose-candidate').nth(0).isDisabled(), 'one choice per question');

  llm.script([
    finalAnswer('Fine.', 'SELECT 1'),
    finalAnswer('Fine.', 'SELECT 1'),
    finalAnswer('Fine.', 'SELECT 1'),
  ]);
  await ask(page, 'And per customer?');
  const followUp = (await modelRequestsReach(llm, 4))[3];
  assert.ok(bodyText(followUp).includes(CUSTOMERS), 'the chosen answer’s SQL goes with the follow-up');
  assert.ok(!bodyText(followUp).includes(ORDERS_BY_ID), 'the one not chosen does not');
  await agreement(page);
});

test('Stop ends every candidate: their requests are cancelled and nothing is taken', async (t) => {
  const late = { delayMs: 60_000 };
  const { llm, page } = await ready(t, [
    finalAnswer('There are 12 orders.', ORDERS),
    finalAnswer('12.', ORDERS_BY_ID, '', late),
    finalAnswer('12.', ORDERS_BY_ID, '', late),
  ]);
  await ask(page, 'How many orders are there?');
  await modelRequestsReach(llm, 3);
  await page.getByTestId('stop').click();
  await waitUntil('the page to be idle after Stop', () => isIdle(page), Boolean);
  assert.match(await agreement(page), /^Stopped\./);
  assert.equal(await visibleText(page, 'answer'), null, 'no answer is taken after Stop');
  const [, second, third] = llm.modelRequests();
  await waitUntil('the two waiting requests to be cancelled', () => Boolean(second.aborted && third.aborted), Boolean);
  const steps = await candidateSteps(page);
  assert.match(steps[1].summary, /stopped/);
  assert.match(steps[2].summary, /stopped/);
});

test('the Candidates setting draws that many; one is a plain question', async (t) => {
  const { llm, page } = await ready(
    t,
    [finalAnswer('12.', ORDERS), finalAnswer('12.', ORDERS)],
    '',
  );
  await openSettings(page);
  const field = page.getByTestId('candidates');
  assert.equal(await field.inputValue(), '1', 'one unless asked');
  await ask(page, 'How many orders are there?');
  await waitUntil('the answer', () => visibleText(page, 'answer'), Boolean);
  assert.equal(await page.getByTestId('candidate-steps').count(), 0, 'a plain question has no candidates');
  assert.equal(llm.modelRequests().length, 1);

  await field.fill('2');
  await field.press('Tab');
  llm.script([finalAnswer('12.', ORDERS_BY_ID)]);
  await ask(page, 'How many orders are there?');
  assert.equal(await agreement(page), '2 of 2 candidates agree');
  assert.equal(await page.getByTestId('candidate-steps').count(), 2);
});

test('a conversation with candidates is saved (format 2) and replays in a fresh page with the same split and choice, calling no model', async (t) => {
  const { llm, page } = await ready(t, [
    finalAnswer('There are 12 orders.', ORDERS),
    finalAnswer('There are 8.', CUSTOMERS),
    finalAnswer('12.', ORDERS_BY_ID),
  ]);
  await ask(page, 'How many orders are there?');
  const recordedAgreement = await agreement(page);
  assert.match(recordedAgreement, /^The candidates disagree: 3 candidates gave 2 different results$/);
  const recordedResults = await splitResults(page);
  // The person takes the result of the two that agree.
  await page.getByTestId('choose-candidate').nth(0).click();
  await waitUntil('the chosen answer', () => visibleText(page, 'answer'), Boolean);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-conversation').click()]);
  const text = await readFile(await download.path(), 'utf8');
  const saved = JSON.parse(text);
  assert.equal(saved.format, 'askdb-conversation/2');
  const candidates = saved.questions[0].candidates;
  assert.equal(candidates.drawn.length, 3);
  assert.ok(candidates.drawn.every((c) => c.turns.length === 1 && c.evidence.sql), 'each candidate’s turns and evidence');
  assert.deepEqual(candidates.agreement.groups.map((g) => g.length), [2, 1]);
  assert.equal(candidates.chosen, candidates.agreement.groups[0][0], 'the person’s choice');
  assert.equal(saved.questions[0].answer.sql, candidates.drawn[candidates.chosen].answer.sql);
  assert.ok(!text.includes(API_KEY), 'the key is never saved');
  const folder = await tempDir('candidates-replay');
  t.after(folder.remove);
  const file = path.join(folder.dir, 'candidates.json');
  await writeFile(file, text);
  await llm.close();

  // A fresh page with a model and key set up: the replay calls none of it.
  const other = await scriptedLlm(t);
  const replay = await openWatched(t, session);
  await openDemo(replay);
  await configureFor(replay, other, 'openai');
  await chooseFile(replay, file);
  await replay.getByTestId('replay-banner').waitFor({ timeout: 30_000 });
  await replay.getByTestId('replay-all').click();
  await waitUntil('the replay to finish', () => visibleText(replay, 'replay-state'), (s) => /finished/.test(s ?? ''));
  assert.equal(await agreement(replay), recordedAgreement, 'the same agreement');
  assert.deepEqual(await splitResults(replay), recordedResults, 'the same results, SQL and counts');
  assert.equal(await visibleText(replay, 'answer-sql'), recordedResults[0].sql, 'the recorded choice is the answer');
  assert.equal(await replay.getByTestId('candidate-steps').count(), 3);
  assert.equal(await visibleText(replay, 'replay-differences'), null);
  assert.equal(await visibleText(replay, 'candidates-recorded-otherwise'), null);
  assert.deepEqual(other.requests.map((r) => `${r.method} ${r.path}`), [], 'no request to the model, not even a preflight');
  for (const width of [1280, 400]) {
    await replay.setViewportSize({ width, height: 900 });
    await replay.screenshot({ path: path.join(SHOTS, `askdb-candidates-replay-${width}.png`), fullPage: true });
  }
  assert.deepEqual(replay.problems, []);
});

test('a candidate whose model request fails is counted as failed and shown so; the other two still agree', async (t) => {
  const { page } = await ready(t, [
    finalAnswer('There are 12 orders.', ORDERS),
    { status: 401, body: { error: { message: 'Incorrect API key provided' } } },
    finalAnswer('12.', ORDERS_BY_ID),
  ]);
  await ask(page, 'How many orders are there?');
  assert.equal(await agreement(page), '2 of 3 candidates agree; 1 gave no result');
  const answer = await waitUntil('the agreed answer', () => visibleText(page, 'answer'), Boolean);
  assert.match(answer, /12 orders/);
  const steps = await candidateSteps(page);
  const failed = steps.filter((c) => /no answer: /.test(c.summary));
  assert.equal(failed.length, 1, JSON.stringify(steps));
  assert.equal(steps.filter((c) => /gave a result/.test(c.summary)).length, 2, JSON.stringify(steps));
  assert.match(failed[0].summary, /refused the key|API key|401/i);
  const without = await visibleText(page, 'candidates-without');
  assert.match(without, /^Candidate [23]: no answer: /);
  assert.equal(await page.getByTestId('candidate-group').count(), 0, 'no split to choose from');
});
