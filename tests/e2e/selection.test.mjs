// Schema selection in the page, on a database too large to send whole: Sakila, Northwind,
// Chinook and Mondial merged into one file of 86 tables with prefixes
// (tests/support/merge_databases.py), opened from the file input. The schema panel says what
// the value index holds once it is read; a question to the scripted model goes with the
// columns of the tables it needs and the values it names, after it in its message (the system
// prompt lists the tables' names only, the same bytes for every question); the transcript says
// which tables were picked and why. Screenshots go to tests/e2e/.artifacts.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  ROOT, chooseFile, dataset, sidewaysSpills, startSession, tempDir, visibleText, waitForOpen, waitUntil,
} from './harness.mjs';
import { ask, configureFor, finalAnswer, openWatched, scriptedLlm, waitForAnswer } from './chat-support.mjs';

const ARTIFACTS = path.join(ROOT, 'tests', 'e2e', '.artifacts');
let session;
let temp;
let merged;

before(async () => {
  temp = await tempDir('selection');
  merged = path.join(temp.dir, 'merged.db');
  execFileSync('python3', [
    path.join(ROOT, 'tests', 'support', 'merge_databases.py'),
    merged,
    `sk_=${dataset('sakila/sakila.db')}`,
    `nw_=${dataset('northwind/northwind.db')}`,
    `ch_=${dataset('chinook/Chinook_Sqlite.sqlite')}`,
    `mo_=${dataset('mondial/mondial.db')}`,
  ]);
  session = await startSession();
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await session?.close();
  await temp?.remove();
});

/** The OpenAI-style request's system prompt and its last user message. */
function parts(request) {
  const messages = request.body.messages;
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const user = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  return { system, user };
}

test('on 86 merged tables a question goes with the tables it needs and the values it names, and the transcript says why', async (t) => {
  const llm = await scriptedLlm(t, [
    finalAnswer('Horror films, most rented first.', 'SELECT 1'),
    finalAnswer('Speedy Express shipped them.', 'SELECT 1'),
  ]);
  const page = await openWatched(t, session);
  await chooseFile(page, merged);
  await waitForOpen(page, 'merged.db', 60_000);
  // The value index is read after the open has settled, and the panel says what it holds.
  const line = await waitUntil(
    'the value index',
    () => visibleText(page, 'value-index'),
    (text) => text !== null && text.startsWith('Values a question may name:'),
    60_000,
  );
  assert.match(line, /values of \d+ columns/);
  await configureFor(page, llm, 'openai');

  await ask(page, 'Which horror films were rented most often?');
  await waitForAnswer(page);
  const [first] = llm.modelRequests();
  const { system, user } = parts(first);
  assert.ok(system.includes('The database has 86 tables and views'), 'names only in the system prompt');
  assert.ok(!system.includes('rental_rate'), 'no columns in the system prompt');
  for (const table of ['sk_film', 'sk_category', 'sk_rental', 'sk_inventory']) {
    assert.ok(user.includes(`\n${table} (`), `${table}'s columns go with the question:\n${user}`);
  }
  assert.ok(user.includes("sk_category.name has 'Horror'"), user);
  assert.ok(!/\nnw_\w+ \(/.test(user), `no Northwind table: ${user}`);

  // The transcript: one line before the steps, opening onto each table and why.
  const picked = page.getByTestId('schema-picked');
  const summary = await picked.locator('summary').innerText();
  assert.match(summary, /^Schema: \d+ tables picked for this question, 1 value it names · \d+(\.\d)? KB$/);
  await picked.locator('summary').click();
  const details = await picked.locator('li').allInnerTexts();
  assert.ok(details.some((d) => /^sk_film: .*the word 'films?'/.test(d)), details.join('\n'));
  assert.ok(details.some((d) => /^sk_inventory: on the join path/.test(d)), details.join('\n'));
  assert.ok(details.includes("Value: sk_category.name has 'Horror'"), details.join('\n'));
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(ARTIFACTS, `selection-${width}.png`), fullPage: true });
    // The opened line's long table names and reasons wrap: nothing spills sideways.
    if (width === 400) assert.deepEqual(await sidewaysSpills(page), []);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // A second question: other tables, its value, and the same system prompt.
  await page.getByTestId('new-conversation').click();
  await ask(page, 'How many orders did Speedy Express ship?');
  await waitUntil('the second answer', () => llm.modelRequests().length, (n) => n >= 2);
  const second = parts(llm.modelRequests()[1]);
  assert.equal(second.system, system, 'the system prompt is the same bytes');
  assert.ok(second.user.includes("nw_Shippers.CompanyName has 'Speedy Express'"), second.user);
  assert.ok(second.user.includes('\nnw_Orders ('), second.user);
  assert.deepEqual(page.problems, []);
});
