// Recent databases (issue 40): a file the person keeps is copied into the origin's private file
// system and reopens from the landing after a reload, with its hidden choices, and the model
// is shown the same schema; a database opened from its address is listed as that address;
// Forget and Forget all remove the bytes; a browser that keeps nothing, or whose storage is
// full, says so in one line and lists nothing; two tabs open the same kept copy.
//
// The mutations each test is proven by are in docs/testing.md ("Issue 40").

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import {
  ROOT, chooseFile, expectRows, sessionForFile, tempDir, visibleText, waitForOpen, waitUntil,
} from './harness.mjs';
import { ask, configureFor, finalAnswer, scriptedLlm, waitForAnswer } from './chat-support.mjs';

const DEMO_FILE = path.join(ROOT, 'www', 'demo', 'shop.db');
const session = sessionForFile({ mounts: { files: path.join(ROOT, 'www', 'demo') } });

/** The names of the files in the private file system's folder of kept copies. */
async function keptCopies(page) {
  return page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    let folder;
    try {
      folder = await root.getDirectoryHandle('askdb-kept');
    } catch (error) {
      if (error.name === 'NotFoundError') return [];
      throw error;
    }
    const names = [];
    for await (const name of folder.keys()) names.push(name);
    return names.sort();
  });
}

/** The list as the page keeps it in localStorage. */
const keptList = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('askdb.recent') ?? '[]'));

/** The recent entries as shown: "name | line" each. */
async function recentEntries(page) {
  return page.$$eval('[data-testid="recent-entry"]', (items) =>
    items.map((item) => [item.querySelector('.recent-name'), item.querySelector('.recent-line')]
      .map((part) => part.textContent.trim()).join(' | ')));
}

/** Keeps the open database and waits until the page says it is kept. */
async function keep(page) {
  await page.getByTestId('keep-db').click();
  await page.getByTestId('kept').waitFor({ timeout: 30_000 });
}

/** Reopens the recent entry named `name` and waits for it to open. */
async function reopen(page, name) {
  await page.getByTestId('recent-reopen').filter({ hasText: name }).click();
  return waitForOpen(page, name);
}

const systemPrompt = (request) => request.body.messages[0].content;

test('a kept file reopens after a reload from Recent databases, hidden choices kept, and the model sees the same schema', async (t) => {
  const llm = await scriptedLlm(t, [
    finalAnswer('Six customers.', 'SELECT COUNT(*) FROM customers'),
    finalAnswer('Six customers.', 'SELECT COUNT(*) FROM customers'),
  ]);
  const page = await session.open({ closeAfter: t });
  assert.equal(await visibleText(page, 'recent'), null, 'nothing listed on a first visit');
  await chooseFile(page, DEMO_FILE);
  await waitForOpen(page, 'shop.db');
  // Not listed until the person keeps it.
  assert.deepEqual(await keptList(page), []);
  await page.locator('[data-name="products"] [data-testid="hide-table"]').click();
  await waitUntil('products to be hidden', () => visibleText(page, 'hidden-line'), (text) => text?.includes('products'));
  await configureFor(page, llm, 'openai');
  await ask(page, 'How many customers?');
  await waitForAnswer(page);

  await keep(page);
  const copies = await keptCopies(page);
  assert.equal(copies.length, 1, `one copy: ${copies}`);
  assert.match(copies[0], /^db-[0-9a-f]{64}\.sqlite$/);

  await page.reload();
  await page.getByTestId('recent').waitFor({ timeout: 30_000 });
  const [entry] = await recentEntries(page);
  assert.match(entry, /^shop\.db \| \d+(\.\d)? KB · 3 tables · a copy kept here · opened just now/);
  await reopen(page, 'shop.db');
  await waitUntil('products to be hidden again', () => visibleText(page, 'hidden-line'), (text) => text?.includes('products'));
  assert.ok(await visibleText(page, 'kept'), 'the open database is said to be kept');
  await expectRows(page, 'SELECT COUNT(*) FROM customers', [['6']]);

  await configureFor(page, llm, 'openai');
  await ask(page, 'How many customers?');
  await waitForAnswer(page);
  const [before, after] = llm.modelRequests();
  assert.ok(systemPrompt(before).includes('customers'), 'the positive control: the schema is in the prompt');
  assert.equal(systemPrompt(after), systemPrompt(before), 'the model sees the same schema');
  assert.deepEqual(page.problems, []);
});

test('Forget removes one kept copy, Forget all every one; a database imported from data files is kept too', async (t) => {
  const page = await session.open({ closeAfter: t });
  const csv = await tempDir('kept-csv');
  t.after(csv.remove);
  const file = path.join(csv.dir, 'cities.csv');
  await writeFile(file, 'city,people\nTokyo,14000000\nOsaka,2700000\n');

  await chooseFile(page, DEMO_FILE);
  await waitForOpen(page, 'shop.db');
  await keep(page);
  await chooseFile(page, file);
  await waitForOpen(page, 'cities.csv (imported)');
  await keep(page);
  assert.equal((await keptCopies(page)).length, 2, 'two copies kept');

  await page.reload();
  await page.getByTestId('recent').waitFor({ timeout: 30_000 });
  const entries = await recentEntries(page);
  assert.equal(entries.length, 2);
  assert.match(entries[0], /^cities\.csv \(imported\) \| .* · 1 table · a copy kept here/);
  await reopen(page, 'cities.csv (imported)');
  await expectRows(page, 'SELECT city FROM cities ORDER BY people DESC', [['Tokyo'], ['Osaka']]);

  await page.getByRole('button', { name: 'Forget shop.db' }).click();
  await waitUntil('one copy to be left', () => keptCopies(page), (names) => names.length === 1);
  assert.deepEqual((await keptList(page)).map((entry) => entry.name), ['cities.csv (imported)']);

  await page.getByTestId('recent-forget-all').click();
  await waitUntil('every copy to be removed', () => keptCopies(page), (names) => names.length === 0);
  assert.deepEqual(await keptList(page), []);
  assert.equal(await visibleText(page, 'recent'), null, 'the list is gone');
  assert.deepEqual(page.problems, []);
});

test('a database opened from its address is listed as that address, and reopens from it', async (t) => {
  const page = await session.open({ search: '?db=files/shop.db', closeAfter: t });
  await waitForOpen(page, 'shop.db');
  await page.getByTestId('recent').waitFor({ timeout: 30_000 });
  assert.equal(await visibleText(page, 'keep-db'), null, 'nothing to copy: it comes back from its address');
  const [kept] = await keptList(page);
  assert.deepEqual(kept.reopen, { kind: 'address', url: `${session.url}/files/shop.db` });
  assert.deepEqual(await keptCopies(page), [], 'no bytes kept');

  // The demo (beside the page, always one click away) is not listed.
  await page.getByTestId('db-demo').click();
  await waitForOpen(page, 'shop.db (demo)');
  assert.equal((await keptList(page)).length, 1);

  await page.goto(session.url);
  await page.getByTestId('recent').waitFor({ timeout: 30_000 });
  assert.match((await recentEntries(page))[0], /^shop\.db \| .*3 tables · at 127\.0\.0\.1:\d+ · opened just now/);
  await reopen(page, 'shop.db');
  await expectRows(page, 'SELECT COUNT(*) FROM customers', [['6']]);
  assert.deepEqual(page.problems, []);
});

test('a browser that keeps no files says so in one line, and lists nothing', async (t) => {
  const page = await session.open({
    closeAfter: t,
    // What a private window or storage turned off looks like to the page: no private file system.
    beforeLoad: (page) => page.addInitScript(() => { delete StorageManager.prototype.getDirectory; }),
  });
  await chooseFile(page, DEMO_FILE);
  await waitForOpen(page, 'shop.db');
  await page.getByTestId('keep-db').click();
  const note = await waitUntil('the note', () => visibleText(page, 'recent-note'), Boolean);
  assert.match(note, /^Not kept: this browser keeps no files for this page \(a private window, or storage turned off\)/);
  assert.deepEqual(await keptList(page), []);
  assert.equal(await visibleText(page, 'recent'), null);
  assert.deepEqual(page.problems, []);
});

test('a full storage refuses the copy: said, nothing half-written is left, nothing listed', async (t) => {
  const page = await session.open({ closeAfter: t });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: session.url, quotaSize: 4_096 });
  await chooseFile(page, DEMO_FILE);
  await waitForOpen(page, 'shop.db');
  await page.getByTestId('keep-db').click();
  const note = await waitUntil('the note', () => visibleText(page, 'recent-note'), Boolean);
  assert.match(note, /^Not kept: this browser's storage for this page is full/);
  assert.deepEqual(await keptCopies(page), [], 'the half-written copy is removed');
  assert.deepEqual(await keptList(page), []);
  assert.deepEqual(page.problems, []);
});

test('two tabs open the same kept copy, and both query it', async (t) => {
  const first = await session.open({ closeAfter: t });
  await chooseFile(first, DEMO_FILE);
  await waitForOpen(first, 'shop.db');
  await keep(first);
  const second = await first.context().newPage();
  await second.goto(session.url);
  await second.getByTestId('recent').waitFor({ timeout: 30_000 });
  await first.reload();
  await first.getByTestId('recent').waitFor({ timeout: 30_000 });
  await Promise.all([reopen(first, 'shop.db'), reopen(second, 'shop.db')]);
  await expectRows(first, 'SELECT name FROM customers ORDER BY name LIMIT 2', [['Alice'], ['Bob']]);
  await expectRows(second, 'SELECT COUNT(*) FROM orders', [['12']]);
});

/** Puts `bytes` in the private file system's root as `name`: the file the stubbed picker gives. */
async function placeFile(page, name, bytes) {
  await page.evaluate(async ([name, data]) => {
    const root = await navigator.storage.getDirectory();
    const writable = await (await root.getFileHandle(name, { create: true })).createWritable();
    await writable.write(new Uint8Array(data));
    await writable.close();
  }, [name, [...bytes]]);
}

/** How many handles the page keeps in IndexedDB. */
const keptHandles = (page) => page.evaluate(() => new Promise((resolve, reject) => {
  const open = indexedDB.open('askdb-handles');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains('handles')) { db.close(); resolve(0); return; }
    const count = db.transaction('handles').objectStore('handles').count();
    count.onsuccess = () => { db.close(); resolve(count.result); };
  };
}));

test('a file too large to copy is listed by its handle, reopens through it after a reload, and a change to it is said', async (t) => {
  // The browser's picker, which a headless browser cannot show, gives a handle to a file in
  // the private file system: the same kind of handle, kept and asked the same way.
  const page = await session.open({
    closeAfter: t,
    beforeLoad: (page) => page.addInitScript(() => {
      window.showOpenFilePicker = async () => [await (await navigator.storage.getDirectory()).getFileHandle('picked.db')];
    }),
  });
  const { readFile } = await import('node:fs/promises');
  await placeFile(page, 'picked.db', await readFile(DEMO_FILE));
  // Files from 1 KB are "too large to copy" here: read on demand, as a 600 MB one would be.
  const smallOnDemand = async () => {
    await page.waitForFunction(() => typeof window.askdbOpenOnDemandFrom === 'function');
    await page.evaluate(() => window.askdbOpenOnDemandFrom(1000));
  };
  await smallOnDemand();
  await page.locator('label.file-button').click();
  await waitForOpen(page, 'picked.db');
  await page.getByTestId('recent').waitFor({ timeout: 30_000 });
  assert.match((await recentEntries(page))[0], /^picked\.db \| 33 KB · 3 tables · the file on this computer \(the browser asks first\) · opened just now$/);
  assert.equal(await visibleText(page, 'keep-db'), null, 'too large to copy: no Keep button');
  assert.equal(await keptHandles(page), 1);

  await page.reload();
  await smallOnDemand();
  await reopen(page, 'picked.db');
  await expectRows(page, 'SELECT COUNT(*) FROM customers', [['6']]);
  assert.equal(await visibleText(page, 'recent-note'), null, 'unchanged: nothing said');
  assert.equal(await keptHandles(page), 1, 'the same file keeps one handle');

  // The file changes on disk between two visits.
  await placeFile(page, 'picked.db', Buffer.concat([await readFile(DEMO_FILE), Buffer.alloc(4096)]));
  await page.reload();
  await smallOnDemand();
  await reopen(page, 'picked.db');
  const note = await waitUntil('the change to be said', () => visibleText(page, 'recent-note'), Boolean);
  assert.match(note, /^picked\.db changed since it was last opened here \(it was 33 KB and is 37 KB now\): it is opened as it is now/);
  assert.equal((await recentEntries(page)).length, 1, 'still one entry');

  await page.getByTestId('recent-forget-all').click();
  await waitUntil('the handle to be forgotten', () => keptHandles(page), (count) => count === 0);
  assert.deepEqual(page.problems, []);
});

test('a page embedded in documentation keeps nothing: neither the database it opened nor its conversation', async (t) => {
  const llm = await scriptedLlm(t, [finalAnswer('Six customers.', 'SELECT COUNT(*) FROM customers')]);
  // The same address the full page lists (the test above): here, embedded, it is not.
  const page = await session.open({ closeAfter: t });
  await page.goto(`${session.url}/?embed=1&db=files/shop.db`);
  await waitForOpen(page, 'shop.db');
  await configureFor(page, llm, 'openai');
  await ask(page, 'How many customers?');
  await waitForAnswer(page);
  // The conversation would be kept as the question ends; a moment for a write that must not come.
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(await page.evaluate(() => localStorage.getItem('askdb.recent')), null, 'no recent database');
  const databases = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
  assert.deepEqual(databases, [], 'no conversation kept');
  assert.deepEqual(page.problems, []);
});
