// Drives www/lazy-worker.js straight (its message protocol, no page UI) in headless Chromium, on
// the built page's origin: for the tests and benchmarks of databases read on demand that need
// files on disk (a local file past 4 GiB, a file changed while open), which only a file input
// can hand to a page.

import { STEP_TIMEOUT_MS } from './harness.mjs';

/**
 * A blank page on the served page's origin with one file input, and in it a lazy worker
 * (`window.lazy`). `session` comes from harness.mjs's startSession.
 */
export async function lazyPage(session, test) {
  const context = await session.browser.newContext();
  test?.after(() => context.close());
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  // Any address of the server gives its origin; the page itself is ours.
  await page.goto(`${session.url}/lazy-test-page`);
  await page.setContent('<input type="file" id="file">');
  await page.evaluate(() => {
    const worker = new Worker('/lazy-worker.js');
    let next = 0;
    const waiting = new Map();
    worker.onmessage = (event) => {
      const resolve = waiting.get(event.data.id);
      waiting.delete(event.data.id);
      resolve?.(event.data);
    };
    window.lazy = {
      worker,
      ask(message) {
        const id = ++next;
        return new Promise((resolve) => {
          waiting.set(id, resolve);
          worker.postMessage({ ...message, id });
        });
      },
    };
  });
  const init = await ask(page, { type: 'init', base: `${session.url}/lazy-worker.js` });
  if (!('ok' in init)) throw new Error(`the lazy worker did not start: ${JSON.stringify(init)}`);
  return page;
}

/**
 * Posts one message to the page's lazy worker; its reply, with BigInts as Numbers, and
 * `elapsedMs`: the time from posting to the reply, measured in the page.
 */
export async function ask(page, message) {
  return page.evaluate(async (message) => {
    const started = performance.now();
    const reply = await window.lazy.ask(message);
    const elapsedMs = performance.now() - started;
    const plain = JSON.parse(JSON.stringify(reply, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
    return { ...plain, elapsedMs };
  }, message);
}

/** Chooses `path` in the page's file input and opens it in the worker; the reply. */
export async function openFile(page, path, options = {}) {
  await page.setInputFiles('#file', path, { timeout: STEP_TIMEOUT_MS });
  return page.evaluate(async (options) => {
    const file = document.getElementById('file').files[0];
    const started = performance.now();
    const reply = await window.lazy.ask({ type: 'openFile', file, ...options });
    reply.elapsedMs = performance.now() - started;
    if (reply.ok) reply.ok.header = Array.from(reply.ok.header);
    return reply;
  }, options);
}

/** Runs `sql` in the worker with generous limits (and `options` over them); the reply. */
export async function run(page, sql, options = {}) {
  return ask(page, {
    type: 'run',
    sql,
    params: [],
    maxRows: 1000,
    countBudgetMs: 60_000,
    deadlineMs: 120_000,
    byteBudget: null,
    ...options,
  });
}
