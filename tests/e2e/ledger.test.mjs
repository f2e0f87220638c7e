// "Sent to the model": after a question, the ledger lists every request the scripted LLM server
// received, each body exactly as the server got it and each answer exactly as it sent it; the
// totals are the sums of those bytes and of the tokens the server reported; bodies download as
// they are; the key shows nowhere; cached tokens show in the usage line. Screenshots at 1280 px
// and 400 px go to $ASKDB_SCREENSHOTS (default: askdb-ledger-screenshots in the system's temporary
// folder, overwritten at each run) for a person to look at.

import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sessionForFile, STEP_TIMEOUT_MS, visibleText, waitUntil } from './harness.mjs';
import {
  API_KEY,
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  calls,
  call,
  demoWithLlm,
  expectAnswerRows,
  finalAnswer,
  modelRequestsReach,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

const QUESTION = 'Which customers live in Tokyo?';

/** Three steps; from the second on, the provider reports the prompt read from its cache. */
const EPISODE = [
  calls([['list_tables', {}], ['describe_table', { table: 'customers' }]], {
    usage: { input: 1500, output: 7, cacheWrite: 1400 },
  }),
  call('run_sql', { sql: TOKYO_SQL }, { usage: { input: 1800, output: 8, cached: 1400, cacheWrite: 300 } }),
  finalAnswer('Alice and Evan live in Tokyo.', TOKYO_SQL, '', { usage: { input: 1900, output: 9, cached: 1700 } }),
];

const grouped = (n) => n.toLocaleString('en-US');

/** Opens the ledger panel (folded by default) and waits for `count` entries, all finished. */
async function openLedger(page, count) {
  const ledger = page.getByTestId('ledger');
  if (!(await ledger.locator('details.ledger-details').evaluate((d) => d.open))) {
    await ledger.locator('details.ledger-details > summary').click();
  }
  await waitUntil(
    `${count} finished ledger entries`,
    () => page.$$eval('[data-testid="ledger-entry"] .ledger-summary', (rows) => rows.map((r) => r.textContent)),
    (rows) => rows.length === count && rows.every((row) => !row.includes('waiting')),
  );
  return ledger;
}

/** The bodies the ledger shows for each entry, oldest first (the panel lists newest first). */
async function ledgerBodies(page) {
  const entries = page.getByTestId('ledger-entry');
  const count = await entries.count();
  const bodies = [];
  for (let i = 0; i < count; i++) {
    const entry = entries.nth(i);
    await entry.locator('summary').click();
    const request = entry.getByTestId('ledger-request');
    const response = entry.getByTestId('ledger-response');
    await response.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    const assembled = entry.getByTestId('ledger-assembled');
    bodies.push({
      request: await request.textContent(),
      response: await response.textContent(),
      assembled: (await assembled.count()) ? await assembled.textContent() : null,
      summary: await entry.locator('.ledger-summary').textContent(),
      endpoint: await entry.getByTestId('ledger-endpoint').textContent(),
    });
  }
  return bodies.reverse();
}

for (const provider of ['anthropic', 'openai']) {
  test(`${provider}: the ledger's totals and bodies are what the server received and sent, byte for byte`, async (t) => {
    const { llm, page } = await demoWithLlm(t, session, EPISODE, provider);
    assert.equal(await visibleText(page, 'ledger-totals'), 'nothing yet');
    await ask(page, QUESTION);
    await waitForAnswer(page);
    await expectAnswerRows(page, TOKYO_ROWS);

    const received = llm.modelRequests();
    assert.equal(received.length, 3);
    await openLedger(page, 3);

    const bytesSent = received.reduce((sum, r) => sum + r.bytes, 0);
    const bytesReceived = received.reduce((sum, r) => sum + r.responseBytes, 0);
    const totals = await visibleText(page, 'ledger-totals');
    // 1,500 + 1,800 + 1,900 in, 1,400 + 1,700 cached; only Anthropic reports cache writes.
    const cache = provider === 'anthropic' ? '3,100 cached, 1,700 written to cache' : '3,100 cached';
    assert.equal(
      totals,
      `3 requests · ${grouped(bytesSent)} bytes sent · ${grouped(bytesReceived)} bytes received · ` +
        `5,200 in (${cache}) / 24 out tokens`,
    );

    const bodies = await ledgerBodies(page);
    assert.equal(bodies.length, 3);
    bodies.forEach((shown, i) => {
      assert.equal(shown.request, received[i].rawBody, `request ${i + 1}: byte for byte`);
      assert.equal(shown.response, received[i].responseText, `response ${i + 1}: byte for byte`);
      // Streamed (the default): the events as they came, and the reply they make.
      assert.ok(received[i].streamed?.length > 1, `response ${i + 1} was streamed`);
      assert.ok(shown.assembled, `response ${i + 1}: put together`);
      JSON.parse(shown.assembled);
      assert.match(shown.summary, /^\d\d:\d\d:\d\d · 200 · /);
      assert.ok(shown.summary.includes(`${grouped(received[i].bytes)} bytes sent`), shown.summary);
      assert.equal(shown.endpoint, `POST ${llm.url}${received[i].path}`);
    });
    assert.match(bodies[2].assembled, /Alice and Evan live in Tokyo\./, 'the last reply, whole');
    // The usage line shows what the cache saved for this question.
    assert.match((await visibleText(page, 'usage')) ?? '', /5,200 in \(3,100 cached/);

    if (provider === 'anthropic') {
      // The system prompt and the last tool are cache breakpoints in every request.
      for (const { body } of received) {
        assert.deepEqual(body.system.at(-1).cache_control, { type: 'ephemeral' });
        assert.deepEqual(body.tools.at(-1).cache_control, { type: 'ephemeral' });
      }
    }

    // A body downloads exactly as shown.
    const newest = page.getByTestId('ledger-entry').first();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      newest.getByTestId('ledger-request-download').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'askdb-request-3.json');
    const saved = await readFile(await download.path(), 'utf8');
    assert.equal(saved, received[2].rawBody);

    // The key went to the server, and shows nowhere in the page.
    const keyHeader = provider === 'openai' ? 'authorization' : 'x-api-key';
    assert.ok(received[0].headers[keyHeader].includes(API_KEY));
    const pageText = await page.evaluate(() => document.body.innerText + document.body.innerHTML);
    assert.ok(!pageText.includes(API_KEY.slice(0, 12)), 'no trace of the key in the page');
    assert.deepEqual(page.problems, []);
  });
}

test('a request stopped before its answer, and one refused, stay in the ledger as such', async (t) => {
  const refused = { status: 429, body: { error: { message: 'slow down' } } };
  const late = { ...finalAnswer('TOO LATE', TOKYO_SQL), delayMs: 15_000 };
  // A 429 is tried again: the retry is the request that Stop interrupts.
  const { llm, page } = await demoWithLlm(t, session, [refused, late], 'openai');
  await ask(page, QUESTION);
  await modelRequestsReach(llm, 2);
  await page.getByTestId('stop').click();
  await openLedger(page, 2);
  const summaries = await page.$$eval('[data-testid="ledger-entry"] .ledger-summary', (rows) =>
    rows.map((row) => row.textContent),
  );
  // Newest first: the stopped one, then the refused one (its answer's bytes counted).
  assert.match(summaries[0], / · stopped before the answer · /);
  const refusedBytes = llm.modelRequests()[0].responseBytes;
  assert.match(summaries[1], new RegExp(` · HTTP 429 · [\\d,]+ bytes sent · ${grouped(refusedBytes)} bytes received`));
  const failed = await page.$$eval('[data-testid="ledger-entry"]', (rows) => rows.map((row) => row.classList.contains('failed')));
  assert.deepEqual(failed, [false, true]);
});

test('the ledger at 1280 px and 400 px: screenshots, and nothing spills sideways', async (t) => {
  const folder = process.env.ASKDB_SCREENSHOTS ?? path.join(tmpdir(), 'askdb-ledger-screenshots');
  await mkdir(folder, { recursive: true });
  for (const width of [1280, 400]) {
    const { llm, page } = await demoWithLlm(t, session, EPISODE, 'anthropic');
    await page.setViewportSize({ width, height: 900 });
    await ask(page, QUESTION);
    await waitForAnswer(page);
    await openLedger(page, llm.modelRequests().length);
    const newest = page.getByTestId('ledger-entry').first();
    await newest.locator('summary').click();
    await newest.getByTestId('ledger-response').waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    const ledger = page.getByTestId('ledger');
    await ledger.scrollIntoViewIfNeeded();
    const file = path.join(folder, `ledger-${width}.png`);
    await ledger.screenshot({ path: file });
    console.log(`screenshot: ${file}`);
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(wider <= 0, `the page scrolls sideways by ${wider} px at ${width} px`);
  }
});
