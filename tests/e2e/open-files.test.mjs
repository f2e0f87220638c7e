// Opening databases: files that are not SQLite databases are refused with a clear reason
// while the open database stays; a large generated database opens from the file input and
// from ?db=<a file beside the page>, and, from a server that cannot serve parts, downloaded
// whole at the person's request with its progress shown; a file dropped onto the page opens; a
// ?db=<url> that cannot be fetched says why. (Databases read on demand from a server:
// remote.test.mjs.)

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  chooseFile, databaseDifferences, dataset, expectRows, exportedBytes, openDemo, schemaNames,
  settledStatus, shopDbBytes, startSession, tempDir, visibleText, waitForOpen, waitUntil,
} from './harness.mjs';

/** Deterministic noise, so a failure can be reproduced. */
function noise(length) {
  const bytes = Buffer.alloc(length);
  let state = 12345;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = state >> 16;
  }
  return bytes;
}

const BIG_ORDERS = 175_000; // about 26 MB with make_big.py

/** The address part that makes the page open the database at `url` when it starts. */
const dbAddress = (url) => `?db=${encodeURIComponent(url)}`;

let session;
let big;
before(async () => {
  big = await tempDir('big');
  execFileSync('python3', [dataset('big/make_big.py'), path.join(big.dir, 'big.db'), '--orders', String(BIG_ORDERS)]);
  session = await startSession({ mounts: { files: big.dir } });
});
after(async () => {
  await session?.close();
  await big?.remove();
});

test('files that are not SQLite databases are refused and the open database stays', async () => {
  const shop = await shopDbBytes();
  const bad = [
    // Text named as a database (a .csv of this is imported as data: import.test.mjs).
    { name: 'people.db', mimeType: 'application/octet-stream', buffer: Buffer.from('name,age\nAda,36\nAlan,41\n'.repeat(20)), reason: /text file|SQLite header/i },
    { name: 'noise.db', mimeType: 'application/octet-stream', buffer: noise(8192), reason: /SQLite header/i },
    { name: 'empty.db', mimeType: 'application/octet-stream', buffer: Buffer.alloc(0), reason: /empty/i },
    { name: 'cut.db', mimeType: 'application/octet-stream', buffer: shop.subarray(0, 10_000), reason: /truncated/i },
  ];
  const page = await session.open();
  const demoStatus = await openDemo(page);
  for (const file of bad) {
    await chooseFile(page, file);
    const status = await waitUntil(
      `the error for ${file.name}`,
      () => settledStatus(page),
      (text) => text !== null && text !== demoStatus,
    );
    assert.match(status, file.reason, `the reason given for ${file.name}`);
    await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
    const changed = databaseDifferences(await exportedBytes(page), shop);
    assert.deepEqual(changed, [], `the demo is still open after ${file.name}`);
    await openDemo(page); // so that the next file's error is a new status
  }
  assert.deepEqual(page.problems, []);
});

const BIG_QUERY = 'SELECT count(*) FROM orders';

test('a 25 MB database opens from the file input and answers', async () => {
  const page = await session.open();
  await chooseFile(page, path.join(big.dir, 'big.db'));
  assert.match(await waitForOpen(page, 'big.db', 120_000), /(?<!\d)5 tables\b/);
  assert.deepEqual((await schemaNames(page)).sort(), ['customers', 'order_items', 'orders', 'products', 'regions']);
  await expectRows(page, BIG_QUERY, [[String(BIG_ORDERS)]], { timeout: 60_000 });
  assert.deepEqual(page.problems, []);
});

test('?db=<a file beside the page> opens a database when the page starts', async () => {
  const page = await session.open({ search: dbAddress('files/big.db') });
  assert.match(await waitForOpen(page, 'big.db', 120_000), /(?<!\d)5 tables\b/);
  await expectRows(page, BIG_QUERY, [[String(BIG_ORDERS)]], { timeout: 60_000 });
  assert.deepEqual(page.problems, []);
});

test('a file dropped anywhere on the page opens, and the overlay says so while dragging', async () => {
  const page = await session.open();
  const bytes = [...(await shopDbBytes())];
  // A real drag from the desktop cannot be scripted; these are the events the browser sends.
  const drag = await page.evaluateHandle((bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], 'dropped-shop.db', { type: 'application/octet-stream' }));
    return data;
  }, bytes);
  const overlayShows = () =>
    page.evaluate(() => document.querySelector('.drop-overlay')?.checkVisibility() ?? false);
  assert.equal(await overlayShows(), false, 'no overlay before a drag');
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: drag });
  await waitUntil('the drop overlay to show', overlayShows, Boolean);
  await page.dispatchEvent('body', 'dragover', { dataTransfer: drag });
  await page.dispatchEvent('body', 'drop', { dataTransfer: drag });
  assert.match(await waitForOpen(page, 'dropped-shop.db'), /(?<!\d)3 tables\b/);
  assert.equal(await overlayShows(), false, 'the overlay goes when the file is dropped');
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
  assert.ok(page.url().startsWith(session.url), 'the browser did not navigate to the dropped file');
  assert.deepEqual(page.problems, []);
});

test('?db=<url> that cannot be fetched says why: not found, or no cross-origin permission', async (t) => {
  // Another origin (its own port) that serves the database without Access-Control-Allow-Origin.
  const shop = await shopDbBytes();
  const stingy = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    response.end(shop);
  });
  await new Promise((resolve) => stingy.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => { stingy.closeAllConnections(); stingy.close(resolve); }));
  const elsewhere = `http://127.0.0.1:${stingy.address().port}/shop.db`;

  const cases = [
    { url: `${session.url}/files/missing.db`, reason: /404/ },
    { url: elsewhere, reason: /cross-origin|Access-Control-Allow-Origin/i },
  ];
  for (const { url, reason } of cases) {
    const page = await session.open({ search: dbAddress(url) });
    const status = await waitUntil(
      `an error naming ${url}`,
      () => settledStatus(page),
      (text) => text !== null && text.includes(url),
    );
    assert.match(status, reason, `the reason given for ${url}`);
    // The page stays usable: the demo still opens.
    await openDemo(page);
    await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);
    assert.deepEqual(page.problems, []);
  }
});

test('a server that ignores Range sends the whole file: the page takes it as it comes, with its progress', async (t) => {
  // Another origin that allows the page, ignores Range and sends the 25 MB file slowly, in ten
  // parts.
  const bytes = await readFile(path.join(big.dir, 'big.db'));
  const slow = createServer(async (request, response) => {
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': bytes.length,
      'access-control-allow-origin': '*',
    });
    const part = Math.ceil(bytes.length / 10);
    for (let at = 0; at < bytes.length && !response.destroyed; at += part) {
      response.write(bytes.subarray(at, at + part));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    response.end();
  });
  await new Promise((resolve) => slow.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => { slow.closeAllConnections(); slow.close(resolve); }));

  const page = await session.open({ search: dbAddress(`http://127.0.0.1:${slow.address().port}/big.db`) });
  const fractions = new Set();
  await waitUntil(
    'the database to open, with progress seen on the way',
    async () => {
      const value = await page.evaluate(() => {
        const bar = document.querySelector('[data-testid="db-status"] progress');
        return bar && bar.checkVisibility() && bar.hasAttribute('value') ? bar.value : null;
      });
      if (value !== null) fractions.add(Math.round(value * 10));
      return settledStatus(page);
    },
    (status) => status !== null && status.includes('big.db'),
    120_000,
  );
  const between = [...fractions].filter((tenth) => tenth > 0 && tenth < 10);
  assert.ok(between.length >= 3, `the bar moved through the download (tenths seen: ${[...fractions].sort((a, b) => a - b)})`);
  assert.match(await visibleText(page, 'db-reading'), /^127\.0\.0\.1:\d+ sends whole files; downloaded 2\d MB$/);
  assert.equal(await page.getByTestId('db-download-whole').count(), 0, 'nothing to click');
  await expectRows(page, BIG_QUERY, [[String(BIG_ORDERS)]], { timeout: 60_000 });
  assert.deepEqual(page.problems, []);
});
