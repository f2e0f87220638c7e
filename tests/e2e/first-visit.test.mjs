// The page's first visit downloads only its main part, and what only some visits need comes in
// chunks on first use (src/ui/lazy.rs, scripts/build-page-wasm.sh): SQLite's worker and the
// opening code when the person is about to open something, the agent with the first question.
// A chunk that cannot be downloaded is said where it was needed, nothing crashes, and the next
// try downloads it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDemo, recordRequests, sessionForFile, STEP_TIMEOUT_MS, waitUntil, dbStatus } from './harness.mjs';
import { ask, demoWithLlm, finalAnswer, TOKYO_SQL, waitForAnswer, waitForAgentError } from './chat-support.mjs';

const session = sessionForFile();

const isChunk = (name) => /^(split|chunk)_.*\.wasm$/.test(name);
const isSqlite = (name) => /^(worker\.js|rows\.js|sql-wasm\.(js|wasm))$/.test(name);

/** Waits until the network has been quiet (no new request) for a second. */
async function quiet(page) {
  let count = -1;
  while (count !== page.requestsSeen.length) {
    count = page.requestsSeen.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

test('the first visit downloads the main part only; pointing at the database panel starts SQLite and the database chunk', async (t) => {
  const workers = [];
  const page = await session.open({
    closeAfter: t,
    beforeLoad: (page) => {
      recordRequests(page);
      page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname.split('/').pop()));
    },
  });
  await quiet(page);
  const first = [...page.requestsSeen];
  assert.ok(first.includes('askdb_bg.wasm'), `the main wasm is among the first requests: ${first}`);
  assert.deepEqual(first.filter(isChunk), [], 'no chunk on the first visit');
  // A worker's thread starts at the page's first quiet moment (`AppState::rest_spare`), with
  // sql.js's scripts and not its wasm.
  assert.deepEqual(
    first.filter(isSqlite).sort(),
    ['rows.js', 'sql-wasm.js', 'worker.js'],
    "no SQLite on the first visit, only its worker's scripts",
  );

  // The control: the same recording sees them as soon as the person is about to open a file.
  await page.locator('section.database').hover();
  // Moving about the panel says "about to open" again and again, before SQLite has loaded:
  // SQLite loads in that one worker, and no other starts.
  await page.getByTestId('db-demo').focus();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('Tab');
  await page.locator('section.database h2').hover();
  await page.locator('section.database').hover();
  await waitUntil(
    'the database chunk and sql.js to be fetched',
    () => page.requestsSeen.slice(first.length),
    (later) => later.includes('split_database.wasm') && later.includes('sql-wasm.wasm'),
  );
  await quiet(page);
  assert.deepEqual(workers, ['worker.js'], 'one spare SQLite worker, however often the person moves about the panel');
  await openDemo(page);
  assert.deepEqual(page.problems, []);
});

test('a first open whose chunk cannot be downloaded says so, and the next try opens', async (t) => {
  const page = await session.open({ beforeLoad: recordRequests, closeAfter: t });
  let refused = 0;
  await page.route('**/split_database.wasm', (route) => {
    refused += 1;
    return route.abort('internetdisconnected');
  });
  await page.getByTestId('db-demo').click();
  const status = await waitUntil(
    'the open to fail',
    () => dbStatus(page),
    (text) => /Could not open/.test(text),
  );
  assert.match(status, /Could not open shop\.db \(demo\)\. A part of askdb could not be downloaded/);
  assert.ok(refused >= 1, 'the chunk was asked for and refused');
  assert.deepEqual(page.problems, [], 'no page error: the failed download is not a crash');

  await page.unroute('**/split_database.wasm');
  await openDemo(page);
});

test('a question whose chunk cannot be downloaded is said so and not lost; asked again, it is answered', async (t) => {
  // Without a service worker: once the demo has opened, the page's own (src/browser/offline.rs)
  // would hold the chunk this test refuses on the network, and answer with it.
  const noServiceWorker = { serviceWorkers: 'block' };
  const turns = [finalAnswer('Alice and Evan live in Tokyo.', TOKYO_SQL)];
  const { page } = await demoWithLlm(t, session, turns, 'openai', noServiceWorker);
  await page.route('**/split_assistant.wasm', (route) => route.abort('internetdisconnected'));
  await ask(page, 'Which customers live in Tokyo?');
  const error = await waitForAgentError(page);
  assert.match(error, /A part of askdb could not be downloaded/);
  assert.equal(await page.getByTestId('question').inputValue(), 'Which customers live in Tokyo?', 'the question stays in its box');
  assert.ok(await page.getByTestId('ask').isEnabled({ timeout: STEP_TIMEOUT_MS }), 'Ask is offered again');

  await page.unroute('**/split_assistant.wasm');
  await page.getByTestId('ask').click();
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  assert.deepEqual(page.problems, []);
});

test("Settings' fields come with the panel's first opening; a refused download is said in the panel, and Try again draws them", async (t) => {
  const page = await session.open({ beforeLoad: recordRequests, closeAfter: t });
  await quiet(page);
  assert.deepEqual(page.requestsSeen.filter(isChunk), [], 'no chunk before the panel opens');
  assert.equal(await page.getByTestId('api-key').count(), 0, 'the fields are not drawn before the panel opens');

  let refused = 0;
  await page.route('**/split_settings.wasm', (route) => {
    refused += 1;
    return route.abort('internetdisconnected');
  });
  await page.getByTestId('settings').click();
  const panel = page.locator('#model-settings');
  const said = panel.getByTestId('part-not-loaded');
  await said.waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.match(await said.innerText(), /A part of askdb could not be downloaded/);
  assert.ok(refused >= 1, 'the chunk was asked for and refused');
  assert.equal(await panel.getByTestId('api-key').count(), 0);

  // The control: the same panel draws its fields once the chunk can be had.
  await page.unroute('**/split_settings.wasm');
  await said.getByRole('button', { name: 'Try again' }).click();
  await panel.getByTestId('api-key').waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.ok(page.requestsSeen.includes('split_settings.wasm'));
  assert.equal(await said.count(), 0, 'the message is gone');
  assert.deepEqual(page.problems, [], 'no page error: the failed download is not a crash');
});
