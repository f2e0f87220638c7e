// The API key: typed into the settings, kept in memory, sent only to the chosen endpoint.
// It must not appear in the address, in storage (unless "remember" is ticked), in a CSV
// export, or in any request to anywhere else.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { expectTable, openDemo, sessionForFile, waitUntil } from './harness.mjs';
import {
  API_KEY,
  PROVIDERS,
  TOKYO_SQL,
  ask,
  baseUrl,
  configureFor,
  finalAnswer,
  openSettings,
  openWatched,
  scriptedLlm,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

/**
 * Every request the page's context makes: url, all headers, body. A request whose headers can
 * no longer be read (it started as the context closed, after the test looked) is left out
 * rather than left to reject unhandled.
 */
function recordRequests(context) {
  const seen = [];
  context.on('request', (request) => {
    seen.push(
      request.allHeaders().then(
        (headers) => ({ url: request.url(), headers, body: request.postData() ?? '' }),
        () => null,
      ),
    );
  });
  return async () => (await Promise.all(seen)).filter(Boolean);
}

/** Everything the page keeps: both storages and cookies, as one string. */
async function stored(page) {
  const storage = await page.evaluate(() => {
    const dump = (store) =>
      Object.fromEntries(Array.from({ length: store.length }, (_, i) => [store.key(i), store.getItem(store.key(i))]));
    return { local: dump(localStorage), session: dump(sessionStorage) };
  });
  const cookies = await page.context().cookies();
  return JSON.stringify({ ...storage, cookies });
}

for (const provider of PROVIDERS) {
  test(`${provider}: the key goes to the chosen endpoint only, and nowhere else`, async (t) => {
    const llm = await scriptedLlm(t, [finalAnswer('Alice and Evan', TOKYO_SQL)]);
    const page = await openWatched(t, session);
    const requests = recordRequests(page.context());
    await openDemo(page);
    await configureFor(page, llm, provider);
    await ask(page, 'Which customers live in Tokyo?');
    await waitForAnswer(page);

    assert.ok(!page.url().includes(API_KEY), `the address has no key: ${page.url()}`);
    assert.ok(!(await stored(page)).includes(API_KEY), 'no storage holds the key');

    const all = await requests();
    const carrying = all.filter((r) => JSON.stringify(r).includes(API_KEY));
    assert.ok(carrying.length > 0, 'the model requests carry the key');
    const endpoint = baseUrl(llm, provider);
    for (const request of carrying) {
      assert.ok(request.url.startsWith(`${endpoint}/`), `the key went to ${request.url}, not only to ${endpoint}`);
      assert.ok(!request.url.includes(API_KEY), `the key is in an address: ${request.url}`);
      assert.ok(!request.body.includes(API_KEY), 'the key is in a header, not the body');
    }

    // A CSV export of a query result, the answer's or the console's, holds the data, not the key.
    const [evidence] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('answer').locator('[data-testid$="csv-download"]').click(),
    ]);
    const evidenceCsv = await readFile(await evidence.path(), 'utf8');
    assert.match(evidenceCsv, /Evan/);
    assert.ok(!evidenceCsv.includes(API_KEY), "the answer's CSV has no key");
    const everyone = 'SELECT name, prefecture FROM customers ORDER BY id';
    await expectTable(page, everyone, ({ rows }) => rows.length === 6, '6 rows');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-download').click()]);
    const csv = await readFile(await download.path(), 'utf8');
    assert.match(csv, /Alice/);
    assert.ok(!csv.includes(API_KEY), 'the CSV has no key');

    // Without "remember", a reload forgets the key.
    await page.reload();
    await page.getByTestId('db-file').waitFor({ state: 'attached' });
    await openSettings(page);
    assert.equal(await page.getByTestId('api-key').inputValue(), '', 'the key is gone after a reload');
    assert.ok(!(await stored(page)).includes(API_KEY));
  });
}

test('a key in a link is ignored: keys are typed, never read from the address', async (t) => {
  const page = await openWatched(t, session, `?provider=openai&api_key=${API_KEY}&key=${API_KEY}`);
  await openSettings(page);
  assert.equal(await page.getByTestId('api-key').inputValue(), '', 'keys are typed, never read from links');
  assert.ok(!(await stored(page)).includes(API_KEY));
});

test('"remember" keeps the key on this device; "forget" removes it', async (t) => {
  const llm = await scriptedLlm(t, [finalAnswer('Alice and Evan', TOKYO_SQL)]);
  const page = await openWatched(t, session);
  await configureFor(page, llm, 'anthropic');
  assert.ok(!(await stored(page)).includes(API_KEY), 'not kept before "remember" is ticked');
  await page.getByTestId('remember-key').check();
  await waitUntil('the key to be kept', () => stored(page), (text) => text.includes(API_KEY));

  await page.reload();
  await page.getByTestId('db-file').waitFor({ state: 'attached' });
  await openSettings(page);
  assert.equal(await page.getByTestId('api-key').inputValue(), API_KEY, 'the key is back after a reload');
  await openDemo(page);
  await ask(page, 'Which customers live in Tokyo?');
  await waitForAnswer(page);
  assert.equal(llm.modelRequests()[0].headers['x-api-key'], API_KEY);

  await page.getByTestId('forget-keys').click();
  await waitUntil('the kept key to go', () => stored(page), (text) => !text.includes(API_KEY));
  assert.ok(!page.url().includes(API_KEY));
});

test('a key typed for one endpoint is not sent to another one', async (t) => {
  const first = await scriptedLlm(t, [finalAnswer('Alice and Evan', TOKYO_SQL)]);
  const second = await scriptedLlm(t, [finalAnswer('Alice and Evan', TOKYO_SQL)]);
  const page = await openWatched(t, session);
  await openDemo(page);
  await configureFor(page, first, 'openai');
  await page.getByTestId('base-url').fill(baseUrl(second, 'openai'));
  await ask(page, 'Which customers live in Tokyo?');
  await waitUntil(
    'an answer or an error',
    async () => (await page.getByTestId('answer').isVisible()) || (await page.getByTestId('agent-error').isVisible()),
    Boolean,
  );
  assert.equal(first.requests.length, 0, 'nothing went to the first endpoint');
  assert.ok(!JSON.stringify(second.requests).includes(API_KEY), 'the other endpoint never saw the key');
  assert.ok(!(await stored(page)).includes(API_KEY));
});
