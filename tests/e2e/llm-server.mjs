// A scripted LLM for the end-to-end tests: an HTTP server on 127.0.0.1 (random free port)
// that answers the three wire formats the page speaks, replaying model turns a test gives:
//
//   POST {base}/chat/completions                  OpenAI Chat Completions (base: url + "/v1")
//   POST {base}/messages                          Anthropic Messages      (base: url + "/v1")
//   POST {base}/models/{model}:generateContent    Gemini                  (base: url + "/v1beta")
//
// A turn is provider-neutral:
//   { text: "..." }                               the model answers in words
//   { toolCalls: [{ name, args }], text? }        the model calls tools (args: an object)
//   { status, body, headers? }                    a raw HTTP answer, e.g. 429 or 500
// A request that asks for a stream (`"stream": true`; Gemini's `:streamGenerateContent`) gets the
// turn as its provider's server-sent events, the text and arguments in pieces of `pieceChars`
// characters (8), `pieceDelayMs` apart (0); `whole: true` answers it whole anyway (a server that
// does not stream). Asked whole, a turn with `pieceDelayMs` answers after the time its stream
// would have taken (a slow model is as slow either way).
// and may carry `delayMs` to answer late and `usage: { input, output, cached, cacheWrite }` to
// report other token counts than the default (`cached`: prompt tokens read from the provider's
// cache, `cacheWrite`: written to it, Anthropic only; both are part of `input`). Each model request takes the next turn; when the script is used up
// the server answers 500 with a message saying so.
//
// Every request is recorded (method, path, headers, body parsed as JSON when it is JSON, and the
// body exactly as received with its size in bytes), CORS preflights included, and so is the body
// of each answer the server gave (`responseText`, `responseBytes`); `aborted` turns true when the client hangs up before the answer.
// Any GET answers a 1x1 PNG and is also recorded in `hits`, so a test can tell whether the
// page loaded an image that a model's answer pointed at.

import { createServer } from 'node:http';

const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'x-api-key',
  'anthropic-version',
  'anthropic-dangerous-direct-browser-access',
  'x-goog-api-key',
];

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': ALLOWED_HEADERS.join(', '),
  'access-control-expose-headers': 'retry-after, retry-after-ms',
  'access-control-max-age': '600',
};

const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Which wire format a POST path asks for, or null. */
export function providerOf(path) {
  if (/\/chat\/completions$/.test(path)) return 'openai';
  if (/\/messages$/.test(path)) return 'anthropic';
  if (/\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(path)) return 'gemini';
  return null;
}

/** Whether a request asks for its reply as a stream, in its provider's way. */
export function asksForStream(record) {
  if (record.provider === 'gemini') return /:streamGenerateContent$/.test(record.path);
  return record.body?.stream === true;
}

/**
 * Starts the server with an optional first script. Returns:
 *   url        "http://127.0.0.1:PORT" (no trailing slash)
 *   requests   every request, in order: { method, path, query, headers, body, provider,
 *              rawBody, bytes, responseText, responseBytes }
 *   modelRequests()  only the POSTs that took a turn
 *   hits       every GET: { path, query, headers }
 *   script(turns)    appends turns to the script
 *   remaining()      how many turns are left
 *   close()
 */
export async function startLlmServer(turns = []) {
  const queue = [...turns];
  const requests = [];
  const hits = [];
  let counter = 0;

  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://x');
    const bytes = await readBody(request);
    const raw = bytes.toString('utf8');
    const record = {
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body: parseJson(raw),
      rawBody: raw,
      bytes: bytes.length,
      provider: request.method === 'POST' ? providerOf(url.pathname) : null,
    };
    // Everything answered with a body goes through here, so the record has what was sent back.
    const answer = (status, headers, text) => {
      record.responseText = text;
      record.responseBytes = Buffer.byteLength(text);
      response.writeHead(status, headers);
      response.end(text);
    };
    const answerJson = (status, value) =>
      answer(status, { ...CORS, 'content-type': 'application/json' }, JSON.stringify(value));
    requests.push(record);
    response.on('close', () => {
      if (!response.writableFinished) record.aborted = true;
    });

    if (request.method === 'OPTIONS') {
      response.writeHead(204, CORS);
      response.end();
      return;
    }
    if (request.method === 'GET') {
      hits.push({ path: url.pathname, query: record.query, headers: request.headers });
      response.writeHead(200, { ...CORS, 'content-type': 'image/png', 'cache-control': 'no-store' });
      response.end(PIXEL_PNG);
      return;
    }
    if (request.method !== 'POST' || !record.provider) {
      answerJson(404, { error: { message: `llm-server: no route for ${request.method} ${url.pathname}` } });
      return;
    }
    const turn = queue.shift();
    if (!turn) {
      answerJson(500, { error: { message: 'llm-server: the script has no turn left for this request' } });
      return;
    }
    if (turn.delayMs) await answerLate(turn.delayMs, response);
    if (response.destroyed) return; // the client hung up meanwhile: nobody to answer
    if (turn.status !== undefined) {
      const body = typeof turn.body === 'string' ? turn.body : JSON.stringify(turn.body ?? {});
      const type = typeof turn.body === 'string' ? 'text/plain' : 'application/json';
      answer(turn.status, { ...CORS, 'content-type': type, ...(turn.headers ?? {}) }, body);
      return;
    }
    counter += 1;
    const model = record.body?.model ?? url.pathname.match(/\/models\/([^/:]+)/)?.[1] ?? 'scripted';
    if (asksForStream(record) && !turn.whole) {
      await stream(record, response, STREAMS[record.provider](turn, model, counter, record.body), turn);
      return;
    }
    if (turn.pieceDelayMs) {
      // A slow model takes as long to write its reply whole as it would streamed.
      const events = STREAMS[record.provider](turn, model, counter, record.body);
      await answerLate(events.length * turn.pieceDelayMs, response);
      if (response.destroyed) return;
    }
    answerJson(200, FORMATS[record.provider](turn, model, counter));
  });

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hits,
    modelRequests: () => requests.filter((r) => r.method === 'POST' && r.provider),
    script: (more) => queue.push(...more),
    remaining: () => queue.length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/**
 * Answers `events` as a server-sent event stream, one event a write, `turn.pieceDelayMs` apart
 * (0 by default); stops writing when the client hangs up (the record then says `aborted`).
 * `record.streamed` lists when each event went out (ms since the first).
 */
async function stream(record, response, events, turn) {
  response.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  record.responseText = '';
  record.streamed = [];
  const started = Date.now();
  record.streamStartedAt = started;
  for (const event of events) {
    if (response.destroyed) return;
    record.responseText += event;
    record.streamed.push(Date.now() - started);
    response.write(event);
    if (turn.pieceDelayMs) await answerLate(turn.pieceDelayMs, response);
  }
  record.responseBytes = Buffer.byteLength(record.responseText);
  if (!response.destroyed) response.end();
}

/** `text` in pieces of `size` characters (the last may be shorter). */
function pieces(text, size) {
  const chars = [...text];
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

const data = (value) => `data: ${JSON.stringify(value)}\n\n`;

/**
 * Each provider's stream for a turn, as its documentation shows it: the text and each tool
 * call's arguments in pieces of `turn.pieceChars` characters (8 by default), the usage at the end.
 */
const STREAMS = {
  openai(turn, model, n, body) {
    const size = turn.pieceChars ?? 8;
    const { input, output, cached } = usageOf(turn);
    const chunk = (delta, finish = null) =>
      data({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] });
    const events = [chunk({ role: 'assistant', content: '' })];
    for (const piece of pieces(turn.text ?? '', size)) events.push(chunk({ content: piece }));
    (turn.toolCalls ?? []).forEach((call, i) => {
      events.push(chunk({ tool_calls: [{ index: i, id: `call_${n}_${i}`, type: 'function', function: { name: call.name, arguments: '' } }] }));
      for (const piece of pieces(JSON.stringify(call.args ?? {}), size)) {
        events.push(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }));
      }
    });
    events.push(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
    if (body?.stream_options?.include_usage) {
      events.push(data({
        id: `chatcmpl-${n}`, object: 'chat.completion.chunk', model, choices: [],
        usage: {
          prompt_tokens: input, completion_tokens: output, total_tokens: input + output,
          ...(cached ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
        },
      }));
    }
    events.push('data: [DONE]\n\n');
    return events;
  },
  anthropic(turn, model, n) {
    const size = turn.pieceChars ?? 8;
    const { input, output, cached, cacheWrite } = usageOf(turn);
    const event = (name, value) => `event: ${name}\n${data({ type: name, ...value })}`;
    const usage = {
      input_tokens: input - cached - cacheWrite,
      output_tokens: 1,
      ...(cached || cacheWrite ? { cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cached } : {}),
    };
    const events = [event('message_start', { message: { id: `msg_${n}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage } })];
    let index = 0;
    if (turn.text) {
      events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      events.push(event('ping', {}));
      for (const piece of pieces(turn.text, size)) {
        events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
      }
      events.push(event('content_block_stop', { index }));
      index += 1;
    }
    (turn.toolCalls ?? []).forEach((call, i) => {
      events.push(event('content_block_start', { index, content_block: { type: 'tool_use', id: `toolu_${n}_${i}`, name: call.name, input: {} } }));
      for (const piece of pieces(JSON.stringify(call.args ?? {}), size)) {
        events.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
      events.push(event('content_block_stop', { index }));
      index += 1;
    });
    events.push(event('message_delta', { delta: { stop_reason: turn.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: output } }));
    events.push(event('message_stop', {}));
    return events;
  },
  gemini(turn, model) {
    const size = turn.pieceChars ?? 8;
    const whole = FORMATS.gemini(turn, model);
    const text = pieces(turn.text ?? '', size);
    const calls = (turn.toolCalls ?? []).map((call) => ({ functionCall: { name: call.name, args: call.args ?? {} } }));
    const chunks = [...text.map((piece) => [{ text: piece }]), ...calls.map((part) => [part])];
    if (!chunks.length) chunks.push([]);
    return chunks.map((parts, i) => {
      const last = i === chunks.length - 1;
      const candidate = { content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) };
      // Gemini ends its events with CR LF pairs.
      return `data: ${JSON.stringify({ candidates: [candidate], usageMetadata: whole.usageMetadata, modelVersion: model })}\r\n\r\n`;
    });
  },
};

/**
 * Waits `ms`, or less when the client hangs up first (a stopped question): a timer left running
 * would keep the test's process alive after its last test, for nothing.
 */
function answerLate(ms, response) {
  return new Promise((resolve) => {
    const hungUp = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      response.off('close', hungUp);
      resolve();
    }, ms);
    response.once('close', hungUp);
  });
}

const USAGE_IN = 100;
const USAGE_OUT = 20;

/** The token counts a turn reports. */
function usageOf(turn) {
  return {
    input: turn.usage?.input ?? USAGE_IN,
    output: turn.usage?.output ?? USAGE_OUT,
    cached: turn.usage?.cached ?? 0,
    cacheWrite: turn.usage?.cacheWrite ?? 0,
  };
}

/** Builds each provider's successful response body from a neutral turn. */
const FORMATS = {
  openai(turn, model, n) {
    const { input, output, cached } = usageOf(turn);
    const calls = (turn.toolCalls ?? []).map((call, i) => ({
      id: `call_${n}_${i}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
    }));
    const message = { role: 'assistant', content: turn.text ?? null };
    if (calls.length) message.tool_calls = calls;
    return {
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: calls.length ? 'tool_calls' : 'stop' }],
      usage: {
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input + output,
        ...(cached ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
      },
    };
  },
  anthropic(turn, model, n) {
    const { input, output, cached, cacheWrite } = usageOf(turn);
    const content = [];
    if (turn.text) content.push({ type: 'text', text: turn.text });
    (turn.toolCalls ?? []).forEach((call, i) =>
      content.push({ type: 'tool_use', id: `toolu_${n}_${i}`, name: call.name, input: call.args ?? {} }),
    );
    return {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: turn.toolCalls?.length ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      // Anthropic counts the cached tokens apart from `input_tokens`.
      usage: {
        input_tokens: input - cached - cacheWrite,
        output_tokens: output,
        ...(cached || cacheWrite
          ? { cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cached }
          : {}),
      },
    };
  },
  gemini(turn, model) {
    const { input, output, cached } = usageOf(turn);
    const parts = [];
    if (turn.text) parts.push({ text: turn.text });
    for (const call of turn.toolCalls ?? []) parts.push({ functionCall: { name: call.name, args: call.args ?? {} } });
    return {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: input,
        candidatesTokenCount: output,
        totalTokenCount: input + output,
        ...(cached ? { cachedContentTokenCount: cached } : {}),
      },
      modelVersion: model,
    };
  },
};

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseJson(text) {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

