// The scripted LLM server itself, over plain fetch: each wire format, CORS, errors,
// recording, and the image-hit route.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { waitUntil } from './harness.mjs';
import { providerOf, startLlmServer } from './llm-server.mjs';

let llm;
before(async () => {
  llm = await startLlmServer();
});
after(() => llm.close());

async function post(path, body, headers = {}) {
  const response = await fetch(`${llm.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

test('routes each wire format by its path', () => {
  assert.equal(providerOf('/v1/chat/completions'), 'openai');
  assert.equal(providerOf('/v1/messages'), 'anthropic');
  assert.equal(providerOf('/v1beta/models/gemini-2.5-flash:generateContent'), 'gemini');
  assert.equal(providerOf('/v1/models'), null);
});

test('OpenAI: text, then tool calls with JSON-string arguments', async () => {
  llm.script([{ text: 'There are 12 orders.' }, { toolCalls: [{ name: 'run_sql', args: { sql: 'SELECT 1' } }] }]);
  const first = await post('/v1/chat/completions', { model: 'gpt-test', messages: [] }, { authorization: 'Bearer k1' });
  assert.equal(first.status, 200);
  assert.equal(first.body.model, 'gpt-test');
  assert.deepEqual(first.body.choices[0].message, { role: 'assistant', content: 'There are 12 orders.' });
  assert.equal(first.body.choices[0].finish_reason, 'stop');

  const second = await post('/v1/chat/completions', { model: 'gpt-test', messages: [] });
  const [call] = second.body.choices[0].message.tool_calls;
  assert.equal(second.body.choices[0].finish_reason, 'tool_calls');
  assert.equal(second.body.choices[0].message.content, null);
  assert.equal(call.type, 'function');
  assert.equal(call.function.name, 'run_sql');
  assert.deepEqual(JSON.parse(call.function.arguments), { sql: 'SELECT 1' });
  assert.ok(call.id);
});

test('Anthropic: text and tool_use blocks', async () => {
  llm.script([{ text: 'Looking.', toolCalls: [{ name: 'schema', args: {} }] }]);
  const { status, body } = await post('/v1/messages', { model: 'claude-test', messages: [] });
  assert.equal(status, 200);
  assert.equal(body.type, 'message');
  assert.equal(body.stop_reason, 'tool_use');
  assert.deepEqual(body.content[0], { type: 'text', text: 'Looking.' });
  assert.equal(body.content[1].type, 'tool_use');
  assert.equal(body.content[1].name, 'schema');
  assert.deepEqual(body.content[1].input, {});
});

test('Gemini: text and functionCall parts, model taken from the path', async () => {
  llm.script([{ text: 'Done.' }, { toolCalls: [{ name: 'run_sql', args: { sql: 'SELECT 2' } }] }]);
  const path = '/v1beta/models/gemini-test:generateContent';
  const first = await post(path, { contents: [] }, { 'x-goog-api-key': 'g' });
  assert.deepEqual(first.body.candidates[0].content.parts, [{ text: 'Done.' }]);
  assert.equal(first.body.modelVersion, 'gemini-test');
  const second = await post(path, { contents: [] });
  assert.deepEqual(second.body.candidates[0].content.parts, [
    { functionCall: { name: 'run_sql', args: { sql: 'SELECT 2' } } },
  ]);
});

test('raw turns answer with the given status, body and headers', async () => {
  llm.script([{ status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '2' } }]);
  const { status, headers, body } = await post('/v1/chat/completions', { model: 'm', messages: [] });
  assert.equal(status, 429);
  assert.equal(headers.get('retry-after'), '2');
  assert.equal(body.error.message, 'slow down');
});

test('delayMs answers late', async () => {
  llm.script([{ text: 'late', delayMs: 300 }]);
  const started = Date.now();
  const { body } = await post('/v1/messages', { model: 'm', messages: [] });
  assert.equal(body.content[0].text, 'late');
  assert.ok(Date.now() - started >= 290);
});

test('an exhausted script answers 500 saying so', async () => {
  assert.equal(llm.remaining(), 0);
  const { status, body } = await post('/v1/messages', { model: 'm', messages: [] });
  assert.equal(status, 500);
  assert.match(body.error.message, /no turn left/);
});

test('answers CORS preflights for the headers the clients send', async () => {
  const response = await fetch(`${llm.url}/v1/messages`, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://127.0.0.1:1',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
    },
  });
  assert.equal(response.status, 204);
  assert.equal(response.headers.get('access-control-allow-origin'), '*');
  const allowed = response.headers.get('access-control-allow-headers').split(/,\s*/);
  for (const header of ['authorization', 'content-type', 'x-api-key', 'anthropic-version',
    'anthropic-dangerous-direct-browser-access', 'x-goog-api-key']) {
    assert.ok(allowed.includes(header), `${header} is allowed`);
  }
  assert.match(response.headers.get('access-control-allow-methods'), /POST/);
});

test('records every request with its headers and JSON body', async () => {
  const before = llm.requests.length;
  llm.script([{ text: 'ok' }]);
  await post('/v1/chat/completions', { model: 'rec', messages: [{ role: 'user', content: 'hi' }] },
    { authorization: 'Bearer secret-key' });
  const [record] = llm.requests.slice(before);
  assert.equal(record.method, 'POST');
  assert.equal(record.path, '/v1/chat/completions');
  assert.equal(record.provider, 'openai');
  assert.equal(record.headers.authorization, 'Bearer secret-key');
  assert.deepEqual(record.body.messages, [{ role: 'user', content: 'hi' }]);
  assert.ok(llm.modelRequests().includes(record));
});

test('GETs are recorded as hits and answer an image', async () => {
  const response = await fetch(`${llm.url}/img/leak.png?data=secret`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await response.arrayBuffer());
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
  assert.deepEqual(llm.hits.at(-1).path, '/img/leak.png');
  assert.deepEqual(llm.hits.at(-1).query, { data: 'secret' });
});

test('unknown POST routes answer 404 and take no turn', async () => {
  llm.script([{ text: 'kept' }]);
  const { status } = await post('/v1/embeddings', {});
  assert.equal(status, 404);
  assert.equal(llm.remaining(), 1);
  await post('/v1/messages', { model: 'm', messages: [] });
  assert.equal(llm.remaining(), 0);
});

test('a turn may report its own token counts, in each format', async () => {
  llm.script([1, 2, 3].map(() => ({ text: 'counted', usage: { input: 7, output: 3 } })));
  const openai = await post('/v1/chat/completions', { model: 'm', messages: [] });
  assert.deepEqual(openai.body.usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  const anthropic = await post('/v1/messages', { model: 'm', messages: [] });
  assert.deepEqual(anthropic.body.usage, { input_tokens: 7, output_tokens: 3 });
  const gemini = await post('/v1beta/models/g:generateContent', { contents: [] });
  assert.equal(gemini.body.usageMetadata.promptTokenCount, 7);
  assert.equal(gemini.body.usageMetadata.candidatesTokenCount, 3);
});

test('cached prompt tokens are reported where each provider puts them', async () => {
  const usage = { input: 900, output: 5, cached: 600, cacheWrite: 200 };
  llm.script([1, 2, 3].map(() => ({ text: 'cached', usage })));
  const openai = await post('/v1/chat/completions', { model: 'm', messages: [] });
  assert.equal(openai.body.usage.prompt_tokens, 900);
  assert.deepEqual(openai.body.usage.prompt_tokens_details, { cached_tokens: 600 });
  const anthropic = await post('/v1/messages', { model: 'm', messages: [] });
  assert.deepEqual(anthropic.body.usage, {
    input_tokens: 100,
    output_tokens: 5,
    cache_creation_input_tokens: 200,
    cache_read_input_tokens: 600,
  });
  const gemini = await post('/v1beta/models/g:generateContent', { contents: [] });
  assert.equal(gemini.body.usageMetadata.promptTokenCount, 900);
  assert.equal(gemini.body.usageMetadata.cachedContentTokenCount, 600);
});

test('each request and each answer are recorded exactly, with their sizes in bytes', async () => {
  llm.script([{ text: 'naïve 東京' }]);
  const body = '{"model":"m","messages":[{"role":"user","content":"東京?"}]}';
  const response = await fetch(`${llm.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await response.text();
  const record = llm.requests.at(-1);
  assert.equal(record.rawBody, body);
  assert.equal(record.bytes, Buffer.byteLength(body));
  assert.ok(record.bytes > body.length, 'bytes, not characters');
  assert.equal(record.responseText, text);
  assert.equal(record.responseBytes, Buffer.byteLength(text));
});

test('a client that hangs up before the answer is recorded as aborted', async () => {
  llm.script([{ text: 'never read', delayMs: 2_000 }, { text: 'read' }]);
  const controller = new AbortController();
  const hungUp = fetch(`${llm.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: controller.signal,
  });
  await waitUntil(
    'the request to take its turn',
    () => ({ path: llm.requests.at(-1)?.path, remaining: llm.remaining() }),
    ({ path, remaining }) => path?.endsWith('/messages') && remaining === 1,
  );
  const record = llm.requests.at(-1);
  controller.abort();
  await assert.rejects(hungUp);
  await waitUntil('the hang-up to be recorded', () => record.aborted, Boolean);
  const answered = await post('/v1/messages', { model: 'm', messages: [] });
  assert.equal(answered.body.content[0].text, 'read');
  assert.equal(llm.requests.at(-1).aborted, undefined);
});
