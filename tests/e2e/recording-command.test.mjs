// `askdb-eval record` against the page: the same question, asked of the same scripted model,
// saved by the page ("Save conversation") and recorded by the command, gives the same file but
// for when it was made and how long each step took; and the page replays the command's file with
// no key, no model and no difference from the recording.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, sessionForFile, visibleText, waitForOpen, waitUntil } from './harness.mjs';
import {
  API_KEY,
  MODELS,
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  call,
  configureFor,
  expectAnswerRows,
  finalAnswer,
  openWatched,
  scriptedLlm,
  waitForAnswer,
} from './chat-support.mjs';
import { nativeBinary, run } from './native-tools.mjs';

// Recordings are written and served from here at /conv/; the demo database at /data/.
const CONVERSATIONS = mkdtempSync(path.join(tmpdir(), 'askdb-recording-command-'));
after(() => rmSync(CONVERSATIONS, { recursive: true, force: true }));
const DEMO = path.join(ROOT, 'www', 'demo');
const session = sessionForFile({ mounts: { conv: CONVERSATIONS, data: DEMO } });

const QUESTION = 'Which customers live in Tokyo?';
const SCRIPT = () => [
  call('describe_table', { table: 'customers' }, { text: 'Looking at the customers.' }),
  call('run_sql', { sql: TOKYO_SQL }),
  finalAnswer('**Alice and Evan** live in Tokyo.', TOKYO_SQL, 'Customers with no prefecture are left out.'),
];

let askdbEval;
before(async () => {
  askdbEval = await nativeBinary('askdb-eval');
});

/** Records QUESTION on the demo with the command, against a scripted model of its own. */
async function recordByCommand(t) {
  const llm = await scriptedLlm(t, SCRIPT());
  const questions = path.join(CONVERSATIONS, 'questions.txt');
  await writeFile(questions, `${QUESTION}\n`);
  const out = path.join(CONVERSATIONS, `command-${Date.now()}.askdb.json`);
  const env = { ...process.env, OPENAI_API_KEY: API_KEY };
  for (const proxy of ['http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY']) delete env[proxy];
  await run(askdbEval, [
    'record', '--db', path.join(DEMO, 'shop.db'), '--questions', questions,
    '--provider', 'openai', '--base-url', `${llm.url}/v1`, '--model', MODELS.openai, '--one-file', out,
  ], { env });
  assert.equal(llm.remaining(), 0, 'the command used the whole script');
  return { out, text: await readFile(out, 'utf8'), llmUrl: llm.url };
}

/**
 * The file without what differs between two recordings of the same conversation: when it was
 * made, how long each step and query took, and the port of the scripted model's address.
 */
function comparable(text, llmUrl) {
  const file = JSON.parse(text.replaceAll(llmUrl, 'http://127.0.0.1:PORT'));
  delete file.recorded_at;
  const walk = (value) => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === 'elapsed_ms' ? 0 : walk(inner)]));
    }
    if (typeof value === 'string') return value.replace(/"elapsed_ms":[-\d.e+]+/g, '"elapsed_ms":0');
    return value;
  };
  return walk(file);
}

test('the command writes what the page saves for the same question and model', async (t) => {
  const command = await recordByCommand(t);

  const llm = await scriptedLlm(t, SCRIPT());
  const page = await openWatched(t, session, '?db=data/shop.db');
  await waitForOpen(page, 'shop.db');
  await configureFor(page, llm, 'openai');
  await ask(page, QUESTION);
  await waitForAnswer(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-conversation').click()]);
  const saved = await readFile(await download.path(), 'utf8');

  assert.deepEqual(comparable(command.text, command.llmUrl), comparable(saved, llm.url));
  // Both are written the same way, down to the layout.
  assert.equal(command.text.split('\n').length, saved.split('\n').length);
  assert.ok(!command.text.includes(API_KEY), 'the key is never in the file');
});

test('the page replays a recording made by command with no key, no model and no difference', async (t) => {
  const command = await recordByCommand(t);
  const search = `?db=data/shop.db&replay=${encodeURIComponent(`conv/${path.basename(command.out)}`)}`;
  const page = await openWatched(t, session, search);
  const requests = [];
  page.on('request', (request) => requests.push(request));
  await page.getByTestId('replay-banner').waitFor({ timeout: 30_000 });
  await page.getByTestId('replay-all').click();
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, TOKYO_ROWS);
  await waitUntil('the replay to finish', () => visibleText(page, 'replay-state'), (text) => /finished/.test(text ?? ''));
  assert.equal(await visibleText(page, 'replay-differences'), null);
  assert.equal(await visibleText(page, 'replay-other-database'), null);
  assert.equal(await page.getByTestId('step-difference').count(), 0);
  assert.equal(await visibleText(page, 'replay-model'), MODELS.openai);
  assert.deepEqual(requests.filter((r) => r.method() === 'POST').map((r) => r.url()), [], 'no model is asked');
  assert.ok(!requests.some((r) => r.url().startsWith(command.llmUrl)));
});
