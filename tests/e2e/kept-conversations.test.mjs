// Conversations kept in this browser (issue 40): each question that ends keeps the
// conversation in IndexedDB, in the format of a saved conversation and never with the key; a
// reload brings back the conversation that was open, replayed on the database (its answer's
// SQL run again), once its database is open again; reopening a database lists its
// conversations; Forget and Forget all remove them.
//
// The mutations each test is proven by are in docs/testing.md ("Issue 40").

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, chooseFile, sessionForFile, visibleText, waitForOpen, waitUntil } from './harness.mjs';
import {
  API_KEY, ask, configureFor, expectAnswerRows, finalAnswer, scriptedLlm, waitForAnswer,
} from './chat-support.mjs';

const DEMO_FILE = path.join(ROOT, 'www', 'demo', 'shop.db');
const session = sessionForFile();

/** Every record in the page's IndexedDB store of conversations. */
async function keptConversations(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open('askdb');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('conversations')) { db.close(); resolve([]); return; }
      const all = db.transaction('conversations').objectStore('conversations').getAll();
      all.onsuccess = () => { db.close(); resolve(all.result); };
      all.onerror = () => reject(all.error);
    };
  }));
}

/** The kept conversations' titles, as the chat lists them. */
async function listed(page) {
  return page.$$eval('[data-testid="kept-conversation-open"]', (items) => items.map((item) => item.textContent.trim()));
}

/** Opens the demo's bytes from a file and keeps them, so that a reload can reopen them. */
async function openAndKeep(page) {
  await chooseFile(page, DEMO_FILE);
  await waitForOpen(page, 'shop.db');
  await page.getByTestId('keep-db').click();
  await page.getByTestId('kept').waitFor({ timeout: 30_000 });
}

async function reloadAndReopen(page) {
  await page.reload();
  await page.getByTestId('recent-reopen').first().click();
  await waitForOpen(page, 'shop.db');
}

test('a reload brings back the open conversation, replayed on the database, and the key is kept nowhere', async (t) => {
  const llm = await scriptedLlm(t, [finalAnswer('There are six customers.', 'SELECT COUNT(*) FROM customers')]);
  const page = await session.open({ closeAfter: t });
  await openAndKeep(page);
  await configureFor(page, llm, 'openai');
  await ask(page, 'How many customers are there?');
  await waitForAnswer(page);
  await waitUntil('the conversation to be kept', () => keptConversations(page), (list) => list.length === 1);

  const [kept] = await keptConversations(page);
  assert.equal(kept.title, 'How many customers are there?');
  assert.match(JSON.parse(kept.file).format, /^askdb-conversation\/1$/, 'the format of a saved conversation');
  // The positive control: the question is in what the assertion searches.
  const everything = JSON.stringify(await keptConversations(page));
  assert.ok(everything.includes('How many customers are there?'));
  assert.ok(!everything.includes(API_KEY), 'the key is not kept with it');

  await reloadAndReopen(page);
  const answer = await waitForAnswer(page);
  assert.match(answer, /six customers/);
  await expectAnswerRows(page, [['6']]);
  assert.equal(llm.modelRequests().length, 1, 'brought back from what was kept, not asked again');
  assert.deepEqual(await listed(page), ['How many customers are there?']);
  assert.deepEqual(page.problems, []);
});

test("reopening a database lists its conversations; one opens from the list; Forget and Forget all remove them", async (t) => {
  const llm = await scriptedLlm(t, [
    finalAnswer('There are six customers.', 'SELECT COUNT(*) FROM customers'),
    finalAnswer('There are twelve orders.', 'SELECT COUNT(*) FROM orders'),
  ]);
  const page = await session.open({ closeAfter: t });
  await openAndKeep(page);
  await configureFor(page, llm, 'openai');
  await ask(page, 'How many customers are there?');
  await waitForAnswer(page);
  await page.getByRole('button', { name: 'New conversation' }).click();
  await ask(page, 'How many orders are there?');
  await waitForAnswer(page);
  await waitUntil('two conversations to be kept', () => keptConversations(page), (list) => list.length === 2);

  // A new tab (no conversation open in it) lists them, newest first, and opens none by itself.
  const other = await page.context().newPage();
  await other.goto(session.url);
  await other.getByTestId('recent-reopen').first().click();
  await waitForOpen(other, 'shop.db');
  await waitUntil('the list', () => listed(other), (titles) => titles.length === 2);
  assert.deepEqual(await listed(other), ['How many orders are there?', 'How many customers are there?']);
  assert.equal(await visibleText(other, 'answer'), null, 'nothing opened by itself in another tab');
  await other.locator('[data-testid="kept-conversations"] summary').click();
  await other.getByTestId('kept-conversation-open').filter({ hasText: 'customers' }).click();
  assert.match(await waitForAnswer(other), /six customers/);
  await expectAnswerRows(other, [['6']]);

  await other.getByRole('button', { name: 'Forget the conversation How many orders are there?' }).click();
  await waitUntil('one conversation to be left', () => keptConversations(other), (list) => list.length === 1);
  await other.getByTestId('recent-forget-all').click();
  await waitUntil('every conversation to be forgotten', () => keptConversations(other), (list) => list.length === 0);
  assert.equal(await visibleText(other, 'kept-conversations'), null);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(other.problems ?? [], []);
});
