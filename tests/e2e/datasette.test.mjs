// A database on a Datasette server, opened in the page through its JSON API
// (PageDatabase::Datasette), as a person would: the form beside "Open a file" or
// `?datasette=`. Against the pinned Datasette 0.65.5 (tests/datasette/serve.sh: 1 s per query,
// 100 rows per answer), started by this file on 127.0.0.1, one server with --cors and one
// without:
// - the schema, the console (what each query cost in requests), an agent question answered
//   through the server (its log shows the agent's queries), the evidence re-run, the requests
//   per question (in its step, its usage line and the ledger's "Read from the database") and
//   the session's beside the ledger;
// - knowledge tables on the server (the `knowing` database: askdb_notes, askdb_checks and two
//   views over them): the notes reach the model, "Check the model" asks the golden question,
//   and the model's reads of the table by any spelling and through the views are refused
//   before any request (model_view::knowledge_fence);
// - safe mode: the app's compiled query goes with its bound values as named parameters;
// - the server's limits and refusals, each with its message: a runaway query stopped by its
//   time limit, a result cut at its row cap ("more than 100 rows"), allow_sql off, CORS off, a
//   wrong address, hidden columns refused;
// - an API token goes to that server only, and into no address, storage, saved conversation or
//   ledger;
// - writes never reach the server, and its files are byte-identical after the whole file.

import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  chooseFile, dataset, expectRows, expectSqlError, expectTable, schemaNames, sessionForFile, sidewaysSpills, visibleText, waitForOpen, waitUntil,
} from './harness.mjs';
import {
  ask, bodyText, call, closedPort, configureFor, expectAnswerRows, finalAnswer, openWatched, scriptedLlm, steps,
  waitForAnswer,
} from './chat-support.mjs';
import { startDatasette } from './datasette-support.mjs';

const session = sessionForFile();
let served;
let withoutCors;
const before_ = {};

before(async () => {
  [served, withoutCors] = await Promise.all([startDatasette(), startDatasette({ cors: false })]);
  for (const name of ['shop', 'chinook', 'knowing']) before_[name] = served.sha256(name);
});

after(async () => {
  // Nothing the page sent changed the server's files.
  if (served) {
    for (const name of ['shop', 'chinook', 'knowing']) assert.equal(served.sha256(name), before_[name], `${name}.db changed`);
  }
  await served?.stop();
  await withoutCors?.stop();
});

const TOKEN = 'dstok_askdb-e2e-marker-7f1e93c2';
const ENDLESS = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r';

/** Types `address` into the Datasette form (with `token`, if any) and opens it. */
async function openServed(page, address, { token, remember = false } = {}) {
  await page.getByTestId('datasette-address').fill(address);
  if (token !== undefined) {
    await page.locator('.datasette-token summary').click();
    await page.getByTestId('datasette-token').fill(token);
    if (remember) await page.getByTestId('datasette-remember').check();
  }
  await page.getByTestId('datasette-open').click();
}

/** The open error in the status line, once the open has ended. */
async function openError(page) {
  return waitUntil(
    'the open to fail with its message',
    async () => ({
      ready: await page.getByTestId('db-status').getAttribute('data-ready'),
      text: await visibleText(page, 'db-status'),
    }),
    ({ ready, text }) => ready === 'true' && /Could not open/.test(text ?? ''),
  ).then(({ text }) => text);
}

test('the form opens a database on the server: schema, console, what each query cost', async (t) => {
  const page = await openWatched(t, session);
  await openServed(page, served.database('shop'));
  await waitForOpen(page, served.database('shop'));
  assert.match(await visibleText(page, 'db-reading'), /asked through a Datasette server/);
  assert.deepEqual((await schemaNames(page)).sort(), ['customers', 'orders', 'products']);
  const tokyo = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";
  await expectRows(page, tokyo, [['Alice'], ['Evan']]);
  assert.match(await visibleText(page, 'result-reads'), /^1 request to the server \([\d.]+ (B|KB), \d+ ms\)$/);
  assert.ok(served.requests().some((r) => r.includes(tokyo)), 'the console query reached the server');

  // A write is refused by the guard before any request leaves.
  const write = 'DELETE FROM orders';
  assert.match(await expectSqlError(page, write), /read/i);
  assert.ok(!served.requests().some((r) => /DELETE/i.test(r)), 'the write never reached the server');

  // Hiding a column is refused, with why and what to do.
  await page.locator('[data-name="customers"] .column[data-name="prefecture"] [data-testid="hide-column"]').click();
  await waitUntil(
    'the hidden line to give the refusal',
    () => visibleText(page, 'hidden-line'),
    (text) =>
      text !== null &&
      /customers\.prefecture \(the model cannot be asked: .*cannot take tables or columns away from a server: serve a copy without them/.test(text),
  );
  assert.deepEqual(page.problems, []);
});

test('a question answered through the server: its queries in the server log, requests per question', async (t) => {
  const sql = "SELECT name, prefecture FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";
  const llm = await scriptedLlm(t, [call('run_sql', { sql }), finalAnswer('Alice and Evan live in Tokyo.', sql)]);
  const page = await openWatched(t, session, `?datasette=${encodeURIComponent(served.database('shop'))}`);
  await waitForOpen(page, served.database('shop'));
  await configureFor(page, llm, 'openai');
  await ask(page, 'Which customers live in Tokyo?');
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, [['Alice', 'Tokyo'], ['Evan', 'Tokyo']]);
  assert.ok(served.requests().some((r) => r.includes(sql)), "the agent's query reached the server");
  const sqlStep = (await steps(page)).find((step) => step.tool === 'run_sql');
  assert.match(sqlStep.text, /ms, 1 request to the server \(/);
  await waitUntil(
    "the question's requests in the usage line",
    () => visibleText(page, 'usage'),
    (text) => text !== null && /This question: .*, \d+ requests? to the server \([\d.]+ (B|KB), \d+ ms\)/.test(text),
  );
  await page.getByTestId('ledger').locator('summary').first().click();
  assert.match(await visibleText(page, 'ledger-server'), /Asked of the Datasette server since it opened: \d+ requests to the server/);
  // The question's own requests, beside the model's, in the ledger.
  assert.match(
    await visibleText(page, 'ledger-reads-question'),
    /^“Which customers live in Tokyo\?” read [\d.]+ (B|KB) in [2-9]\d* requests to the Datasette server, [\d,]+ ms$/,
  );
  assert.match(await visibleText(page, 'ledger-reads-total'), /^1 question read .* requests to the Datasette server, [\d,]+ ms$/);
  assert.ok(llm.modelRequests().map(bodyText).some((body) => body.includes('Evan')), "the server's rows went to the model");
  await page.screenshot({ path: 'target/e2e-datasette-answer.png', fullPage: true });
  await page.getByTestId('ledger').screenshot({ path: 'target/e2e-datasette-ledger-1280.png' });
  // On a narrow screen, what each step cost wraps: nothing spills sideways.
  await page.setViewportSize({ width: 400, height: 900 });
  assert.deepEqual(await sidewaysSpills(page), []);
  await page.getByTestId('ledger').screenshot({ path: 'target/e2e-datasette-ledger-400.png' });
  assert.deepEqual(page.problems, []);
});

test("knowledge tables on the server: its notes reach the model, its golden question is asked, the model reads none of it", async (t) => {
  const answer = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";
  // The model tries the golden questions by name (the agent's own check refuses it), then in
  // other spellings and through the views over them (the fence refuses them), then reads an
  // ordinary table (the positive control) and answers.
  const tries = ['SELECT * FROM askdb_checks', 'SELECT sql FROM main."ASKDB_Checks"', 'SELECT * FROM [golden]', 'SELECT * FROM main."GOLDEN AGAIN"'];
  const llm = await scriptedLlm(t, [
    ...tries.map((sql) => call('run_sql', { sql })),
    call('run_sql', { sql: 'SELECT upper(note) AS shout FROM memo' }),
    finalAnswer('Alice and Evan.', answer),
  ]);
  const page = await openWatched(t, session, `?datasette=${encodeURIComponent(served.database('knowing'))}`);
  await waitForOpen(page, served.database('knowing'));
  // The schema panel shows the data's tables and views; the knowledge tables are the notes'.
  assert.ok((await schemaNames(page)).includes('memo'));
  assert.ok(!(await schemaNames(page)).includes('askdb_checks'));
  // The views over the golden questions are listed for the console, and marked as not the model's.
  const badged = page.locator('[data-testid="schema-table"]:has([data-testid="left-out-badge"])');
  const marked = await waitUntil('the views marked', () => badged.evaluateAll((rows) => rows.map((row) => row.dataset.name).sort()), (names) => names.length >= 2);
  assert.deepEqual(marked, ['Golden Again', 'golden'], "the two views over askdb_checks, and nothing else (memo is the model's)");
  await configureFor(page, llm, 'openai');
  await page.getByTestId('settings').click();
  const button = page.getByTestId('checks-button');
  await button.waitFor({ state: 'visible' });
  assert.match(await button.textContent(), /Check the model\s*1/);
  const before = served.requests().length;
  await button.click();
  await page.getByTestId('checks-run').click();
  const summary = await waitUntil(
    'the checks summary',
    () => visibleText(page, 'checks-summary'),
    (text) => Boolean(text) && text.includes('correct') && !text.includes('Asking'),
  );
  assert.match(summary, /^1 of 1 correct/);

  const bodies = llm.modelRequests().map(bodyText);
  assert.equal(bodies.length, tries.length + 2);
  // The positive controls: the server's notes went with the question, the memo's value with
  // the step after it was read.
  assert.ok(bodies[0].includes('NOTE-K7'), 'the note from askdb_notes reached the model');
  assert.ok(bodies.at(-1).includes('MEMO-MARKER-K5'), "an ordinary table's value reached the model");
  for (const body of bodies) assert.ok(!body.includes('golden_answer_k9'), 'the golden SQL reached the model');
  // By name the agent's own check refused the first two; the fence refused the views, before
  // any request.
  const last = bodies.at(-1);
  assert.equal(last.split('holds askdb\'s notes about the data, not data;').length - 1, 2, last);
  assert.equal(last.split('may not read it').length - 1, 2, last);
  // The server was asked the expected SQL and the control, none of the model's tries.
  const asked = served.requests().slice(before);
  assert.ok(asked.some((r) => r.includes('golden_answer_k9')), 'the expected SQL ran on the server');
  assert.ok(asked.some((r) => r.includes('upper(note)')), "the control reached the server");
  for (const sql of tries) assert.ok(!asked.some((r) => r.includes(sql)), `${sql} reached the server`);
  // The golden question's requests in the ledger.
  await page.getByTestId('ledger').locator('summary').first().click();
  assert.match(await visibleText(page, 'ledger-reads-question'), /^“Which customers live in Tokyo\?” read .* requests to the Datasette server, [\d,]+ ms$/);
  assert.deepEqual(page.problems, []);
});

test('safe mode: the compiled query goes to the server with its values as named parameters', async (t) => {
  const llm = await scriptedLlm(t, [
    call('query', {
      table: 'customers',
      fields: ['name'],
      filters: [{ field: 'prefecture', op: 'eq', value: 'Tokyo' }],
      order_by: [{ by: 'name' }],
    }),
    call('final_answer', { answer: 'Alice and Evan live in Tokyo.', query: 1 }),
  ]);
  const page = await openWatched(t, session, `?mode=safe&datasette=${encodeURIComponent(served.database('shop'))}`);
  await waitForOpen(page, served.database('shop'));
  await configureFor(page, llm, 'openai');
  await ask(page, 'Which customers live in Tokyo?');
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, [['Alice'], ['Evan']]);
  assert.match(await visibleText(page, 'answer-values'), /\?1 = 'Tokyo'/);
  const bound = served.requests().filter((r) => r.includes('= :askdb_p1') && r.includes('askdb_p1=Tokyo'));
  assert.ok(bound.length >= 1, `the value went as a named parameter: ${served.requests().slice(-4).join('\n')}`);
  assert.deepEqual(page.problems, []);
});

test("the server's limits and refusals each say what happened", async (t) => {
  const page = await openWatched(t, session);
  await openServed(page, served.database('chinook'));
  await waitForOpen(page, served.database('chinook'));
  // Its row cap: never a silent cut (Datasette 0.65 sends 101 rows when its cap of 100 equals
  // its page size).
  await expectTable(page, 'SELECT TrackId FROM Track ORDER BY TrackId', ({ rows }) => rows.length > 0, 'rows');
  assert.match(await visibleText(page, 'result-rowcount'), /^first 101 of more than 101 rows$/);
  // Its time limit stops a runaway query, with its message; the next query answers.
  assert.match(await expectSqlError(page, ENDLESS), /stopped the query at its time limit/);
  await expectRows(page, 'SELECT count(*) FROM Genre', [['25']]);

  // allow_sql off.
  await openServed(page, served.database('nosql'));
  assert.match(await openError(page), /does not run SQL on nosql for this page .*allow_sql/);
  // A server without --cors.
  await openServed(page, withoutCors.database('shop'));
  assert.match(await openError(page), /does not let other pages read its answers: start it with --cors/);
  // Nothing listens there.
  await openServed(page, `http://127.0.0.1:${await closedPort()}/shop`);
  assert.match(await openError(page), /could not be reached/);
  // Not an address of a database.
  await openServed(page, 'ftp://example.org/shop');
  assert.match(await visibleText(page, 'datasette-problem'), /not the address of a database on a Datasette server/);
  await page.screenshot({ path: 'target/e2e-datasette-error.png', fullPage: true });
});

test('a token goes to that server only, and is kept nowhere else', async (t) => {
  const llm = await scriptedLlm(t, [finalAnswer('Alice and Evan', "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name")]);
  const page = await openWatched(t, session);
  const seen = [];
  // A request whose headers can no longer be read (the context closing) is left out.
  page.context().on('request', (request) => seen.push(request.allHeaders().then((headers) => ({ url: request.url(), headers, body: request.postData() ?? '' }), () => null)));
  await openServed(page, served.database('shop'), { token: TOKEN });
  await waitForOpen(page, served.database('shop'));
  await configureFor(page, llm, 'openai');
  await ask(page, 'Which customers live in Tokyo?');
  await waitForAnswer(page);

  const requests = (await Promise.all(seen)).filter(Boolean);
  const carrying = requests.filter((r) => JSON.stringify(r).includes(TOKEN));
  assert.ok(carrying.length > 0, 'the token was sent');
  for (const request of carrying) {
    assert.ok(request.url.startsWith(`${served.url}/`), `the token went to ${request.url}`);
    assert.ok(!request.url.includes(TOKEN), 'not in an address');
    assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
  }
  assert.ok(!page.url().includes(TOKEN));
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-conversation').click()]);
  const saved = await readFile(await download.path(), 'utf8');
  assert.match(saved, /datasette/, 'the recording names the server');
  assert.ok(!saved.includes(TOKEN), 'the saved conversation has no token');
  assert.ok(!(await page.getByTestId('ledger').textContent()).includes(TOKEN), 'the ledger has no token');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.ok(!stored.includes(TOKEN), 'not remembered unless asked');
  // The positive control: the recent databases (issue 40) are in that storage, the server's
  // database listed by its address alone.
  const [listed] = await page.evaluate(() => JSON.parse(localStorage.getItem('askdb.recent')));
  assert.deepEqual(listed.reopen, { kind: 'datasette', address: served.database('shop') });
  assert.ok(!llm.modelRequests().map(bodyText).some((body) => body.includes(TOKEN)), 'the model never saw it');
});

test('a conversation recorded on the file replays against the server: same results, no difference', async (t) => {
  const sql = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";
  const llm = await scriptedLlm(t, [call('run_sql', { sql }), finalAnswer('Alice and Evan live in Tokyo.', sql)]);
  const onFile = await openWatched(t, session);
  await chooseFile(onFile, dataset('shop/shop.db'));
  await waitForOpen(onFile, 'shop.db');
  await configureFor(onFile, llm, 'openai');
  await ask(onFile, 'Which customers live in Tokyo?');
  await waitForAnswer(onFile);
  const [download] = await Promise.all([onFile.waitForEvent('download'), onFile.getByTestId('save-conversation').click()]);
  const recording = path.join(os.tmpdir(), `askdb-datasette-replay-${process.pid}.json`);
  await writeFile(recording, await readFile(await download.path()));
  t.after(() => rm(recording, { force: true }));

  const page = await openWatched(t, session, `?datasette=${encodeURIComponent(served.database('shop'))}`);
  await waitForOpen(page, served.database('shop'));
  const before = served.requests().filter((r) => r.includes(sql)).length;
  await chooseFile(page, recording);
  await page.getByTestId('replay-banner').waitFor({ timeout: 30_000 });
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, [['Alice'], ['Evan']]);
  await waitUntil('the replay to finish', () => visibleText(page, 'replay-state'), (text) => /finished|stopped/.test(text ?? ''));
  assert.equal(await visibleText(page, 'replay-differences'), null);
  assert.equal(await visibleText(page, 'replay-other-database'), null, 'the server reports the same file');
  assert.equal(await page.getByTestId('step-difference').count(), 0);
  // The replay's query ran on the server (its result compared with the recording's).
  assert.ok(served.requests().filter((r) => r.includes(sql)).length > before, 'the replay asked the server');
});

test('a remembered token is sent again after a reload, to its server only, until it is forgotten', async (t) => {
  const page = await openWatched(t, session);
  await openServed(page, served.database('shop'), { token: TOKEN, remember: true });
  await waitForOpen(page, served.database('shop'));
  const stored = () => page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.ok((await stored()).includes(TOKEN), 'remembered, as asked');

  // A link to the database finds the token remembered for its server (never one in the link).
  const seen = [];
  page.on('request', (request) => seen.push(request.allHeaders().then((headers) => ({ url: request.url(), headers }), () => null)));
  await page.goto(`${session.url}/?datasette=${encodeURIComponent(served.database('shop'))}&token=not-this-one`);
  await waitForOpen(page, served.database('shop'));
  await expectRows(page, 'SELECT count(*) FROM customers', [['6']]);
  const requests = (await Promise.all(seen)).filter(Boolean);
  const carrying = requests.filter((r) => r.headers.authorization === `Bearer ${TOKEN}`);
  assert.ok(carrying.some((r) => r.url.includes('count(*)') || r.url.includes('count%28%2A%29')), 'the query carried it');
  for (const request of requests.filter((r) => JSON.stringify(r).includes(TOKEN))) {
    assert.ok(request.url.startsWith(`${served.url}/`), `the token went to ${request.url}`);
  }
  assert.ok(!requests.some((r) => JSON.stringify(r).includes('not-this-one') && r.url.startsWith(served.url)), 'a token in the link is never sent');

  // Reopened from Recent databases (issue 40): its token, remembered for its server, goes with it.
  await page.goto(session.url);
  seen.length = 0;
  await page.getByTestId('recent-reopen').filter({ hasText: served.database('shop') }).click();
  await waitForOpen(page, served.database('shop'));
  await expectRows(page, 'SELECT count(*) FROM customers', [['6']]);
  const reopened = (await Promise.all(seen)).filter(Boolean);
  assert.ok(reopened.some((r) => r.headers.authorization === `Bearer ${TOKEN}`), 'the reopened database carried the token');

  // Forgotten: gone from storage.
  await page.locator('.datasette-token summary').click();
  await page.getByTestId('datasette-forget').click();
  assert.ok(!(await stored()).includes(TOKEN), 'forgotten');
});
