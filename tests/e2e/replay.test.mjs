// Conversations saved and replayed: a question asked of the scripted LLM is saved (the
// download), then replayed in a fresh page where a scripted model is set up with a key: same
// answer, same evidence rows, every step shown, and not one request to that model (which the
// follow-up then reaches, with the replayed question). Against another database the difference
// is said; a link with ?db= and ?replay= plays the answer by itself, without calling the model
// whose key is kept; a recording whose steps write meets the guard at each of them and leaves the
// database's bytes as they were; hostile files are refused and run nothing. No test ends with an
// error on the page (a panic of the app included).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import {
  chooseFile,
  databaseDifferences,
  dataset,
  exportedBytes,
  openDemo,
  ROOT,
  schemaNames,
  sessionForFile,
  settledStatus,
  shopDbBytes,
  visibleText,
  waitForOpen,
  waitUntil,
} from './harness.mjs';
import {
  API_KEY,
  chatAddress,
  openSettings,
  questionOf,
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  call,
  configureFor,
  cspViolations,
  demoWithLlm,
  expectAnswerRows,
  finalAnswer,
  openWatched,
  scriptedLlm,
  stepTools,
  steps,
  waitForAnswer,
} from './chat-support.mjs';

// Conversation files are served from here at /conv/ (for ?replay=).
const CONVERSATIONS = mkdtempSync(path.join(tmpdir(), 'askdb-replay-'));
after(() => rmSync(CONVERSATIONS, { recursive: true, force: true }));
// ?db=data/shop.db serves the demo the recordings are made on (www/demo: the shop with its notes).
const DEMO = path.join(ROOT, 'www', 'demo');
const session = sessionForFile({ mounts: { conv: CONVERSATIONS, data: DEMO } });

const QUESTION = 'Which customers live in Tokyo?';

/** Asks QUESTION of a scripted LLM and saves the conversation; returns { text, file, llm }. */
async function recordTokyo(t) {
  const { llm, page } = await demoWithLlm(t, session, [
    call('run_sql', { sql: TOKYO_SQL }, { text: 'Looking at the customers.' }),
    finalAnswer('**Alice and Evan** live in Tokyo.', TOKYO_SQL, 'Customers with no prefecture are left out.'),
  ]);
  await ask(page, QUESTION);
  await waitForAnswer(page);
  await expectAnswerRows(page, TOKYO_ROWS);
  const liveSteps = await stepTools(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-conversation').click()]);
  const text = await readFile(await download.path(), 'utf8');
  const file = path.join(CONVERSATIONS, `tokyo-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, text);
  await llm.close();
  return { text, file, liveSteps, llmUrl: llm.url, name: download.suggestedFilename() };
}

/** What reached the scripted server `llm`, one line per request. */
const received = (llm) => llm.requests.map((r) => `${r.method} ${r.path}`);

/** A fresh page that records every request it makes. */
async function watchedPage(t, search = '') {
  const page = await openWatched(t, session, search);
  page.requests = [];
  page.on('request', (request) => page.requests.push({ method: request.method(), url: request.url() }));
  return page;
}

async function waitForReplayEnd(page) {
  return waitUntil('the replay to finish', () => visibleText(page, 'replay-state'), (text) => /finished|stopped/.test(text ?? ''));
}

test('a saved conversation replays in a fresh page with a model set up, calling none: same answer, same rows, every step', async (t) => {
  const recorded = await recordTokyo(t);
  const saved = JSON.parse(recorded.text);
  assert.equal(saved.format, 'askdb-conversation/1');
  assert.match(recorded.name, /^askdb-shop.*\.json$/);
  assert.equal(saved.database.sha256, createHash('sha256').update(await shopDbBytes()).digest('hex'));
  assert.equal(saved.model.name, 'gpt-scripted');
  assert.equal(saved.questions[0].question, QUESTION);
  assert.equal(saved.questions[0].turns.length, 2);
  assert.match(saved.questions[0].turns[0].results[0].content, /Alice/);
  assert.ok(!recorded.text.includes(API_KEY), 'the key is never saved');

  const page = await watchedPage(t);
  await openDemo(page);
  // A model is set up, key and all, before the replay: the replay still calls no model. The
  // follow-up below is the positive control that this set-up reaches the model.
  const ordersSql =
    "SELECT count(*) FROM orders JOIN customers ON customers.id = orders.customer_id WHERE customers.prefecture = 'Tokyo'";
  const llm = await scriptedLlm(t, [finalAnswer('They placed 4 orders.', ordersSql)]);
  await configureFor(page, llm, 'openai');
  await chooseFile(page, recorded.file);
  await page.getByTestId('replay-banner').waitFor({ timeout: 30_000 });
  // Paced: the answer is not there the moment the replay starts.
  assert.equal(await visibleText(page, 'answer'), null);
  assert.equal(await visibleText(page, 'replay-model'), 'gpt-scripted');
  assert.match(await visibleText(page, 'replay-date'), /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, TOKYO_ROWS);
  await waitForReplayEnd(page);
  assert.deepEqual(await stepTools(page), recorded.liveSteps, 'every step of the recording');
  assert.equal(await visibleText(page, 'replay-differences'), null);
  assert.equal(await visibleText(page, 'replay-other-database'), null);
  assert.equal(await page.getByTestId('step-difference').count(), 0);
  const elsewhere = page.requests.filter((r) => !r.url.startsWith(session.url) && !r.url.startsWith('blob:'));
  assert.deepEqual(elsewhere, [], 'no request leaves the page');
  assert.ok(!page.requests.some((r) => r.url.startsWith(recorded.llmUrl)), 'none to the model');
  assert.ok(!page.requests.some((r) => r.method === 'POST'), 'nothing is posted');
  assert.deepEqual(received(llm), [], 'the configured model got no request, not even a preflight');

  // A follow-up with one's own key goes to that model and sees the replayed question and answer.
  await ask(page, 'How many orders did they place?');
  await waitUntil('the follow-up answer', () => visibleText(page, 'answer'), (text) => /4 orders/.test(text ?? ''));
  assert.equal(llm.modelRequests().length, 1);
  assert.equal(llm.modelRequests()[0].headers.authorization, `Bearer ${API_KEY}`);
  const messages = llm.modelRequests()[0].body.messages;
  // The follow-up's message may carry the demo's knowledge after the question; the remembered one is bare.
  assert.deepEqual(messages.filter((m) => m.role === 'user').map((m) => questionOf(m.content)), [QUESTION, 'How many orders did they place?']);
  assert.match(messages.find((m) => m.role === 'assistant').content, /Alice and Evan/);
  assert.deepEqual(page.problems, []);
});

test('replayed on another database, the page says so at the top and at the step, and finishes', async (t) => {
  const recorded = await recordTokyo(t);
  const page = await watchedPage(t);
  await chooseFile(page, dataset('shop_ja/shop_ja.db'));
  await waitForOpen(page, 'shop_ja.db');
  const llm = await scriptedLlm(t);
  await configureFor(page, llm, 'openai');
  await chooseFile(page, recorded.file);
  await waitForReplayEnd(page);
  assert.deepEqual(received(llm), [], 'the configured model got no request');
  assert.match(await visibleText(page, 'replay-other-database'), /not the database the conversation was recorded on.*shop\.db.*shop_ja\.db/s);
  assert.match(await visibleText(page, 'replay-differences'), /1 tool result differs from the recording/);
  const marked = await page.getByTestId('step-difference').first().textContent();
  assert.match(marked, /live result of run_sql differs from the recording/);
  assert.match(marked, /Alice/, 'the recorded result can be read beside the live one');
  assert.deepEqual(page.problems, []);
});

test('?db= and ?replay= together open the database and play the recorded answer, all at once on request, calling no model', async (t) => {
  const recorded = await recordTokyo(t);
  // The model the link names has a key kept on this device ("remember"): a replay that called a
  // model would reach it with that key.
  const llm = await scriptedLlm(t);
  const setUp = await watchedPage(t);
  await configureFor(setUp, llm, 'openai');
  await setUp.getByTestId('remember-key').check();
  await waitUntil('the key to be kept', () => setUp.evaluate(() => JSON.stringify(localStorage)), (text) => text.includes(API_KEY));
  const replay = encodeURIComponent(`conv/${path.basename(recorded.file)}`);
  const search = `${chatAddress(llm, 'openai')}&db=data/shop.db&replay=${replay}`;
  await setUp.goto(`${session.url}/${search}`);
  const page = setUp;
  page.requests.length = 0;
  await page.getByTestId('replay-banner').waitFor({ timeout: 30_000 });
  await openSettings(page);
  assert.equal(await page.getByTestId('api-key').inputValue(), API_KEY, 'the kept key is there for this endpoint');
  await page.getByTestId('replay-speed').selectOption({ label: 'slow' });
  await page.getByTestId('replay-all').click();
  assert.match(await waitForAnswer(page, 5_000), /Alice and Evan/);
  await expectAnswerRows(page, TOKYO_ROWS);
  assert.equal(await visibleText(page, 'replay-other-database'), null);
  await waitForReplayEnd(page);
  assert.deepEqual(page.requests.filter((r) => r.method === 'POST'), []);
  assert.deepEqual(received(llm), [], 'the model the link names got no request');
  assert.deepEqual(page.problems, []);
});

/** What identifies a local file read on demand in a conversation file (`engine::on_demand::LazyIdentity`). */
const ON_DEMAND = {
  header: Buffer.from('SQLite format 3\0').toString('hex'),
  sampled_pages: [1, 500, 1000],
  sample_sha256: 'ab'.repeat(32),
};

test('a recording made on a database read on demand plays on the demo, said to be not comparable', async (t) => {
  // A file the page writes when the database was read on demand (its size, header and sampled
  // pages).
  const onDemand = conversation((f) => {
    f.database = { name: 'big.db', size: 4_500_000_000, on_demand: ON_DEMAND };
  });
  const page = await watchedPage(t);
  await openDemo(page);
  await openConversationText(page, 'on-demand.json', JSON.stringify(onDemand));
  await expectAnswerRows(page, [['12']]);
  await waitForReplayEnd(page);
  const why = await visibleText(page, 'replay-other-database');
  assert.match(why, /cannot be compared with the one the conversation was recorded on/);
  assert.match(why, /big\.db \(4500000000 bytes, sampled pages' SHA-256 abababababab…\).*shop\.db \(demo\) \(\d+ bytes, SHA-256 [0-9a-f]{12}…\) is open/s);
  assert.ok(!/not the database/.test(why), why);
});

/** A minimal conversation file (one question answered by final_answer), then changed by `edit`. */
function conversation(edit = () => {}) {
  const answer = { answer: 'Twelve orders.', sql: 'SELECT count(*) FROM orders', notes: null };
  const file = {
    format: 'askdb-conversation/1',
    recorded_at: '2026-12-01T09:30:00.000Z',
    database: { name: 'shop.db', size: 16384, sha256: '0'.repeat(64) },
    model: { provider: 'openai', name: 'm', base_url: 'https://api.example/v1' },
    settings: { temperature: 0.2, max_steps: 10, max_tokens: 4096, deadline_ms: 120000, query_deadline_ms: 10000, rows_to_model: 50, row_cap: 1000 },
    questions: [
      {
        question: 'How many orders?',
        turns: [
          {
            text: null,
            tool_calls: [{ id: 'c1', name: 'final_answer', arguments: JSON.stringify(answer) }],
            usage: { input_tokens: 1, output_tokens: 1 },
            elapsed_ms: 1,
            results: [],
          },
        ],
        answer: { text: answer.answer, sql: answer.sql, notes: null, verified: true, usage: { input_tokens: 1, output_tokens: 1 }, steps: 1 },
        error: null,
        elapsed_ms: 1,
      },
    ],
  };
  edit(file);
  return file;
}

async function openConversationText(page, name, text) {
  await chooseFile(page, { name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

test('hostile, corrupt, truncated and wrong-version files are refused with a clear message and run nothing', async (t) => {
  const valid = JSON.stringify(conversation());
  const hostile = [
    ['huge.json', JSON.stringify(conversation((f) => (f.questions[0].answer.text = 'x'.repeat(200_000)))), /answer of 200,000 bytes; at most/],
    [
      'steps.json',
      JSON.stringify(conversation((f) => (f.questions[0].turns = Array(10_000).fill(f.questions[0].turns[0])))),
      /10,000 model turns/,
    ],
    ['tool.json', JSON.stringify(conversation((f) => (f.questions[0].turns[0].tool_calls[0].name = 'write_file'))), /does not have.*write_file/],
    ['types.json', JSON.stringify(conversation((f) => (f.settings.max_steps = 'many'))), /damaged: invalid type/],
    ['cut.json', valid.slice(0, valid.length / 2), /cut short/],
    ['v9.json', JSON.stringify(conversation((f) => (f.format = 'askdb-conversation/9'))), /askdb-conversation\/9/],
    // It names askdb's format, so it is read as a conversation (other JSON is imported as data).
    ['html.json', '{"format": "askdb-conversation/1", <script>alert(1)</script>', /not valid JSON/],
    // Format 2: a grouping for four candidates where two were drawn.
    [
      'grouping.json',
      JSON.stringify(
        conversation((f) => {
          f.format = 'askdb-conversation/2';
          const [q] = f.questions;
          const candidate = (approach) => ({ approach, turns: q.turns, answer: q.answer, error: null, elapsed_ms: 1 });
          q.candidates = {
            drawn: [candidate('as_asked'), candidate('in_parts')],
            agreement: { candidates: 4, groups: [[0, 1]], without_result: [] },
          };
          q.turns = [];
        }),
      ),
      /groups the 2 candidates of question 1 wrongly/,
    ],
    // A database must be identified exactly one way.
    ['nameless.json', JSON.stringify(conversation((f) => delete f.database.sha256)), /exactly one is needed/],
    [
      'twice.json',
      JSON.stringify(conversation((f) => (f.database.on_demand = ON_DEMAND))),
      /exactly one is needed/,
    ],
  ];
  const page = await watchedPage(t);
  await openDemo(page);
  for (const [name, text, expected] of hostile) {
    await openConversationText(page, name, text);
    const status = await waitUntil(`the refusal of ${name}`, () => settledStatus(page), (s) => s?.includes(name));
    assert.match(status, new RegExp(`Could not replay ${name.replace('.', '\\.')}: `));
    assert.match(status, expected);
    assert.match(status, /Nothing of it was run/);
    assert.equal(await page.getByTestId('replay-banner').count(), 0, `${name}: no replay`);
    assert.equal(await page.getByTestId('step').count(), 0, `${name}: no step`);
  }
  assert.deepEqual(page.dialogs, []);
  assert.deepEqual(page.requests.filter((r) => r.method === 'POST'), []);
  assert.deepEqual(page.problems, []);
});

/** The guard's refusal of a statement that is not one read (src/sql/guard.rs, `Refusal`). */
const NOT_A_READ = /only a single read-only statement can run; this is an? [^:]+: write one SELECT/;

test('a well-formed recording whose steps write is refused by the guard at each such step, and the database is unchanged', async (t) => {
  const writes = [
    'DELETE FROM orders',
    "ATTACH DATABASE 'file:stolen?mode=memory' AS stolen",
    'PRAGMA writable_schema = 1',
  ];
  // Each write recorded as if it had run (an empty result), then an answer that counts orders.
  const file = conversation((f) => {
    const answerTurn = f.questions[0].turns[0];
    const writeTurns = writes.map((sql, i) => ({
      text: null,
      tool_calls: [{ id: `w${i}`, name: 'run_sql', arguments: JSON.stringify({ sql }) }],
      usage: { input_tokens: 1, output_tokens: 1 },
      elapsed_ms: 1,
      results: [{ call_id: `w${i}`, name: 'run_sql', content: '{"kind":"rows","rows":[]}', is_error: false }],
    }));
    f.questions[0].turns = [...writeTurns, answerTurn];
    f.questions[0].answer.steps = writeTurns.length + 1;
  });
  const llm = await scriptedLlm(t);
  const page = await watchedPage(t);
  // A database without knowledge tables: the model's queries run on the very database the
  // test hook exports, not on a copy.
  const shop = dataset('shop/shop.db');
  await chooseFile(page, shop);
  await waitForOpen(page, 'shop.db');
  assert.equal(await page.evaluate(() => window.askdbAgentCopyBytes()), null, 'no copy for the model');
  await configureFor(page, llm, 'openai');
  const before = await exportedBytes(page);
  await openConversationText(page, 'writes.json', JSON.stringify(file));
  await waitForReplayEnd(page);

  const shown = await steps(page);
  const run = shown.filter((step) => step.tool === 'run_sql');
  assert.equal(run.length, writes.length, JSON.stringify(shown));
  for (const [i, step] of run.entries()) {
    assert.match(step.text, NOT_A_READ, `step ${i + 1} (${writes[i]}) is the guard's refusal: ${step.text}`);
  }
  assert.match(await visibleText(page, 'replay-differences'), /3 tool results differ from the recording/);
  // The evidence re-run on the same database: the rows are all there.
  await expectAnswerRows(page, [['12']]);
  const after = await exportedBytes(page);
  assert.ok(after.equals(before), 'the exported database is the same before and after the replay');
  assert.deepEqual(databaseDifferences(after, await readFile(shop)), [], 'and it is the file that was opened');
  assert.deepEqual(received(llm), [], 'no model was called');
  assert.deepEqual(page.problems, []);
});

test('HTML and remote images in a replayed answer are shown as text: no script, no image request', async (t) => {
  const images = await scriptedLlm(t); // only its GET log is used: it records any image request
  const text = `<script>window.__pwned = 1</script><img src="${images.url}/tag.png"> ![chart](${images.url}/md.png) **12**`;
  const file = conversation((f) => {
    const args = JSON.parse(f.questions[0].turns[0].tool_calls[0].arguments);
    args.answer = text;
    f.questions[0].turns[0].tool_calls[0].arguments = JSON.stringify(args);
    f.questions[0].turns[0].text = `<img src="${images.url}/note.png">`;
    f.questions[0].answer.text = text;
  });
  const page = await watchedPage(t);
  await openDemo(page);
  await openConversationText(page, 'html-answer.json', JSON.stringify(file));
  const answer = await waitForAnswer(page);
  assert.match(answer, /<script>window.__pwned = 1<\/script>/, 'the HTML shows as text');
  await expectAnswerRows(page, [['12']]);
  await waitForReplayEnd(page);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('[data-testid="answer"] img, .transcript img').count(), 0);
  assert.deepEqual(images.hits, [], 'no image was requested');
  assert.ok(await visibleText(page, 'replay-other-database'), 'the made-up hash is not the demo');
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(page.problems, []);
});

test('?replay= names a conversation: a JSON file that is not one is refused in one sentence, and the database named by ?db= stays open', async (t) => {
  // Issue 42: before, `identify` guessed from the bytes, so a `.json` file that named no askdb
  // format was imported as a data table that replaced the database `?db=` named, and nothing
  // said the replay had failed. Mutation: `Source::address` for `?replay=` (the guess) imports
  // rows.json and geo.json and fails the table and status checks.
  const files = [
    // Malformed: askdb's format, cut short.
    ['malformed.json', '{"format": "askdb-conversation/1", "questions": [{"question": "How m', /cut short/],
    // Hostile: markup and a write where a format and a question go; shown as text, run nowhere.
    [
      'hostile.json',
      JSON.stringify({ format: '<img src=x onerror=alert(1)>', questions: [{ question: 'DROP TABLE orders' }] }),
      /not a conversation saved by askdb \(its "format" is "<img src=x onerror=alert\(1\)>"/,
    ],
    // Foreign: another program's JSON, rows a data import would make a table of.
    ['rows.json', JSON.stringify([{ id: 1, name: 'junk' }, { id: 2, name: 'more junk' }]), /not a conversation saved by askdb/],
    ['geo.json', JSON.stringify({ type: 'FeatureCollection', features: [] }), /not a conversation saved by askdb/],
  ];
  for (const [name, text] of files) await writeFile(path.join(CONVERSATIONS, name), text);
  for (const [name, , expected] of files) {
    const page = await watchedPage(t, `?db=data/shop.db&replay=${encodeURIComponent(`conv/${name}`)}`);
    const status = await waitUntil(`the refusal of ${name}`, () => settledStatus(page), (s) => s?.includes(name));
    assert.match(status, new RegExp(`^Could not replay ${name.replace('.', '\\.')}: `));
    assert.match(status, expected);
    assert.match(status, /Nothing of it was run\. shop\.db is still open\.$/, status);
    // Positive control: the database named by ?db= is the one open, with the demo's tables.
    const tables = await schemaNames(page);
    assert.ok(tables.includes('orders') && tables.includes('customers'), `${name}: ${tables}`);
    assert.ok(!tables.some((table) => /rows|geo|junk/.test(table)), `${name}: nothing imported: ${tables}`);
    assert.equal(await page.getByTestId('replay-banner').count(), 0, `${name}: no replay`);
    assert.equal(await page.locator('.status-line img').count(), 0, `${name}: markup shown as text`);
    assert.deepEqual(page.dialogs, []);
    assert.deepEqual(page.requests.filter((r) => r.method === 'POST'), []);
    assert.deepEqual(page.problems, []);
  }
});
