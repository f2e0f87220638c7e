// The engine for databases read on demand (lazy-worker.js, sqlite-wasm/) is loaded only when a
// database needs it: a first visit that opens the demo downloads none of it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectRows, openDemo, sessionForFile } from './harness.mjs';

const session = sessionForFile();

test('opening the demo loads sql.js and nothing of the second engine', async (t) => {
  const requested = [];
  const page = await session.open({
    closeAfter: t,
    beforeLoad: (page) => page.on('request', (request) => requested.push(request.url())),
  });
  await openDemo(page);
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  // Positive control: the page's engine was fetched, so requests are seen.
  assert.ok(requested.some((url) => url.endsWith('/sql-wasm.wasm')), requested.join('\n'));
  const second = requested.filter((url) => /lazy-worker\.js|sqlite-wasm\//.test(url));
  assert.deepEqual(second, []);
  assert.deepEqual(page.problems, []);
});
