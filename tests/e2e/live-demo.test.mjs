// A live demo (issue 38, docs/live-demos.md): <askdb-demo endpoint=…> on a documentation page
// of another origin, the REAL askdb-proxy (target/debug/askdb-proxy) holding the author's key,
// and a scripted OpenAI-compatible upstream behind it. A reader with no key asks their own
// question and gets a live answer; the line beside the question box says who pays and how many
// calls are left; the reader's daily limit runs out and the page says so in one sentence and
// offers the recording, which plays. The key is never in the page.
//
// Mutations each assertion catches (the first was tried: the test then fails waiting for the
// limit to be said, the page sitting out the proxy's Retry-After as a provider's rate limit):
// - the proxy's 429 read as a provider's rate limit (no `refusal_in` in wire::parse_response):
//   no `demo-limit`, an `agent-error` that speaks of rate limiting instead;
// - the card not read again after a question (no `refresh` in ChatState::ask): the line keeps
//   "2 model calls left today";
// - the reader's key, or none at all, sent with the endpoint's settings: the upstream sees the
//   page's key or the page asks for one (Settings opens), and the answer never comes;
// - the recording not kept (`recording` never set in replay_pending): no `watch-recording`.
//
// Screenshots: /tmp/shots/live-*.png (1280 and 400 px wide).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, expectAnswerRows, finalAnswer, scriptedLlm, TOKYO_ROWS, TOKYO_SQL, waitForAnswer } from './chat-support.mjs';
import { ROOT, startSession, STEP_TIMEOUT_MS, tempDir, visibleText, waitForOpen, waitUntil } from './harness.mjs';
import { proxyBinary } from './native-tools.mjs';

const SHOTS = process.env.ASKDB_SHOTS ?? '/tmp/shots';
/** The author's key: a string nothing else contains, so finding it anywhere is a leak. */
const AUTHOR_KEY = 'sk-author-live-demo-7c1e94a0d25b';
const MODEL = 'gpt-scripted';
const PAID_BY = 'the shop docs';
/** Model calls one reader may make a day: one question of two calls (run_sql, final_answer). */
const PER_DAY = 2;

let askdb; // the page's origin
let host; // the documentation's origin
let scratch;

/** Serves `dir` on 127.0.0.1 (a free port). */
async function startFolderServer(dir) {
  const server = createServer(async (request, response) => {
    const file = path.join(dir, path.normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname)));
    const info = file.startsWith(dir) ? await stat(file).catch(() => null) : null;
    if (!info?.isFile()) {
      response.writeHead(404);
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    createReadStream(file).pipe(response);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/**
 * askdb-proxy serving the demo `shop` (www/demo/shop.db, pinned at start) for askdb's origin,
 * forwarding to `upstream` with the author's key; stopped after test `t`. Its address once it
 * says it listens.
 */
async function startProxy(t, upstream) {
  const config = path.join(scratch.dir, `proxy-${Date.now()}.toml`);
  await writeFile(config, `listen = "127.0.0.1:0"
state = ${JSON.stringify(path.join(scratch.dir, `state-${Date.now()}.sqlite`))}
max_body_bytes = 524288
global_tokens_per_day = 2000000

[demo.shop]
database = ${JSON.stringify(path.join(ROOT, 'www', 'demo', 'shop.db'))}
provider = "openai"
upstream = ${JSON.stringify(upstream)}
key_env = "ASKDB_E2E_AUTHOR_KEY"
models = [${JSON.stringify(MODEL)}]
max_tokens = 1024
origins = [${JSON.stringify(askdb.url)}]
paid_by = ${JSON.stringify(PAID_BY)}

[demo.shop.limits]
reader_burst = 10
reader_per_minute = 20
reader_per_day = ${PER_DAY}
requests_per_day = 100
tokens_per_day = 1000000
`);
  const binary = await proxyBinary();
  const child = spawn(binary, ['serve', '--config', config], {
    env: { ...process.env, ASKDB_E2E_AUTHOR_KEY: AUTHOR_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => child.kill());
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  const { url } = await waitUntil(
    'askdb-proxy to say where it listens',
    async () => ({ url: output.match(/askdb-proxy listening on (http:\/\/\S+)/)?.[1], exited: child.exitCode }),
    ({ url, exited }) => Boolean(url) || exited !== null,
  );
  if (!url) throw new Error(`askdb-proxy stopped at start:\n${output}`);
  return { url, output: () => output };
}

before(async () => {
  scratch = await tempDir('live-demo');
  const docs = path.join(scratch.dir, 'docs');
  await mkdir(docs, { recursive: true });
  await mkdir(SHOTS, { recursive: true });
  askdb = await startSession();
  host = await startFolderServer(docs);
  scratch.docs = docs;
});

after(async () => {
  await askdb?.close();
  await host?.close();
  await scratch?.remove();
});

test('a reader with no key asks the demo through the author\'s proxy, meets the daily limit, and watches the recording', async (t) => {
  const llm = await scriptedLlm(t, [
    call('run_sql', { sql: TOKYO_SQL }),
    finalAnswer('Alice and Evan live in Tokyo.', TOKYO_SQL),
  ]);
  const proxy = await startProxy(t, `${llm.url}/v1`);
  const endpoint = `${proxy.url}/demo/shop`;
  await writeFile(path.join(scratch.docs, 'live.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs</title></head>
<body style="font: 16px sans-serif; margin: 1rem">
<h1>The shop, live</h1>
<askdb-demo id="live" db="${askdb.url}/demo/shop.db" replay="${askdb.url}/examples/shop.askdb.json"
  endpoint="${endpoint}"></askdb-demo>
<script src="${askdb.url}/askdb-embed.js"></script>
</body></html>`);

  const context = await askdb.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const sent = []; // what the page sent to the endpoint, headers included
  const received = []; // what came back
  page.on('request', (request) => {
    if (request.url().startsWith(proxy.url)) sent.push({ url: request.url(), headers: request.headers(), body: request.postData() ?? '' });
  });
  page.on('response', async (response) => {
    if (response.url().startsWith(proxy.url)) received.push(await response.text().catch(() => ''));
  });
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${host.url}/live.html`);
  const iframe = await page.waitForSelector('askdb-demo#live iframe');
  const frame = await iframe.contentFrame();
  assert.equal(new URL(await iframe.getAttribute('src')).searchParams.get('endpoint'), endpoint, 'the tag passes it on');

  await waitForOpen(frame, 'shop.db');
  const replayed = await waitUntil('the recording to play first', () => visibleText(frame, 'replay-state'), (text) => /finished/.test(text ?? ''));
  assert.equal(replayed, 'Replay finished (1 question). Ask a question of your own below.', 'no Settings to open');
  const line = () => visibleText(frame, 'setup-demo-endpoint');
  await waitUntil('who pays, beside the question box', line, (text) => /2 model calls left today/.test(text ?? ''));
  assert.equal(await line(), `Live demo: Questions here are answered by ${MODEL}, paid for by ${PAID_BY} · 2 model calls left today`);

  // The reader's own question, no key, no Settings: a live answer with its rows.
  await frame.getByTestId('question').fill('Which customers live in Tokyo?');
  await frame.getByTestId('ask').click();
  await waitForAnswer(frame); // fails with the page's error, if that came instead
  await expectAnswerRows(frame, TOKYO_ROWS);
  assert.equal(await frame.getByTestId('api-key').isVisible(), false, 'Settings never opened for a key');
  await waitUntil('the calls left to be read again', line, (text) => /no model calls left today/.test(text ?? ''));
  const upstream = llm.modelRequests();
  assert.equal(upstream.length, 2, 'both calls reached the provider');
  for (const request of upstream) {
    assert.equal(request.headers.authorization, `Bearer ${AUTHOR_KEY}`, 'the proxy adds the author\'s key');
    assert.equal(request.body.model, MODEL);
  }
  await frame.locator('body').screenshot({ path: path.join(SHOTS, 'live-answer-1280.png') });
  await page.setViewportSize({ width: 400, height: 1000 });
  await page.screenshot({ path: path.join(SHOTS, 'live-answer-400.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 1000 });

  // The daily limit: one sentence (which limit, when it comes back) and the recording offered.
  await frame.getByTestId('question').fill('How many orders are there?');
  await frame.getByTestId('ask').click();
  const limit = await waitUntil('the limit to be said', async () => ({
    limit: await visibleText(frame, 'demo-limit'),
    error: await visibleText(frame, 'agent-error'),
  }), ({ limit, error }) => Boolean(limit) || Boolean(error));
  assert.equal(limit.error, null, `no error box: ${limit.error}`);
  assert.match(limit.limit, /^You have asked all the questions this demo answers for one reader a day: more come (tomorrow )?at \d\d:\d\d \(your time\)\.\s*Watch the recorded conversation$/,
    'which limit, and when it comes back (the reset is at most a day away)');
  assert.equal(llm.modelRequests().length, 2, 'the refused call never reached the provider');
  const said = await frame.getByTestId('announcements').innerText();
  assert.equal(said.split('\n').filter((l) => l.startsWith('You have asked all the questions')).length, 1, 'said once to a screen reader');
  await frame.locator('body').screenshot({ path: path.join(SHOTS, 'live-limit-1280.png') });
  await page.setViewportSize({ width: 400, height: 1000 });
  await page.screenshot({ path: path.join(SHOTS, 'live-limit-400.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 1000 });

  await frame.getByTestId('watch-recording').click();
  await waitUntil('the recording to play again', () => visibleText(frame, 'replay-state'), (text) => /finished/.test(text ?? ''), STEP_TIMEOUT_MS);
  assert.match(await visibleText(frame, 'answer'), /4 orders/);
  assert.equal(await visibleText(frame, 'demo-limit'), null, 'the limit gives way to the recording');

  // The key is never in the page: not sent, not received, not in the DOM.
  assert.ok(sent.some((r) => r.url.endsWith('/chat/completions')), 'the questions went to the endpoint');
  for (const request of sent) {
    assert.equal(request.headers.authorization, undefined, `no Authorization to ${request.url}`);
    assert.ok(!JSON.stringify(request).includes(AUTHOR_KEY));
  }
  assert.ok(received.every((text) => !text.includes(AUTHOR_KEY)), 'no answer carries the key');
  assert.ok(!(await frame.content()).includes(AUTHOR_KEY), 'not in the frame\'s DOM');
  assert.ok(!(await page.content()).includes(AUTHOR_KEY), 'not in the host page');
  assert.ok(!proxy.output().includes(AUTHOR_KEY), 'not in the proxy\'s output');
  assert.deepEqual(problems, []);
});

test('an endpoint that cannot be reached is said so, with the recording and Settings offered, never an API key', async (t) => {
  const context = await askdb.browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto(`${askdb.url}/?embed=1&db=demo/shop.db&replay=examples/shop.askdb.json&endpoint=${encodeURIComponent('http://127.0.0.1:9/demo/shop')}`);
  await waitForOpen(page, 'shop.db');
  const line = await waitUntil('the endpoint\'s line', () => visibleText(page, 'setup-demo-endpoint'), (text) => /could not be reached/.test(text ?? ''));
  assert.match(line, /^Live demo: This demo's endpoint could not be reached \(no answer: .*\): watch the recorded conversation, or use your own model \(Settings\)\./);
  assert.doesNotMatch(line, /API key/i);
  await waitUntil('the recording to be offered', () => page.getByTestId('watch-recording').count(), (n) => n > 0);
  await page.getByTestId('question').fill('How many orders?');
  await page.getByTestId('ask').click();
  const error = await waitUntil('why it cannot ask', () => visibleText(page, 'agent-error'), Boolean);
  assert.match(error, /^This demo's endpoint could not be reached/);
  assert.equal(await page.getByTestId('api-key').isVisible(), false, 'no key asked for');
});
