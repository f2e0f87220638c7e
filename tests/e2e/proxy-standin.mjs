// A stand-in for askdb-proxy (docs/live-demos.md), for developing the page's side while the
// real proxy (proxy/) is being written: one demo, OpenAI format, the card, the refusal JSON,
// CORS for the demo's origins and a per-day count of model calls. tests/e2e/live-demo.test.mjs
// uses the real binary; this is used only when ASKDB_PROXY_STANDIN=1 says so.

import { createServer } from 'node:http';

export async function startProxyStandin({ name, upstream, key, origins, model, paidBy, perDay }) {
  let used = 0;
  const resetsAt = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1)).toISOString().replace('.000Z', 'Z');
  const server = createServer(async (request, response) => {
    const origin = request.headers.origin;
    const cors = origins.includes(origin)
      ? { 'access-control-allow-origin': origin, 'access-control-allow-headers': 'content-type, accept',
          'access-control-expose-headers': 'retry-after', vary: 'origin' }
      : {};
    const refuse = (status, reason, message, extra = {}) => {
      response.writeHead(status, { ...cors, 'content-type': 'application/json', ...(extra.headers ?? {}) });
      response.end(JSON.stringify({ error: { type: 'askdb_proxy', reason, message, ...(extra.error ?? {}) } }));
    };
    const base = `/demo/${name}`;
    const url = new URL(request.url, 'http://x');
    if (origin && !cors['access-control-allow-origin']) return refuse(403, 'origin', 'not an origin of this demo');
    if (request.method === 'OPTIONS') { response.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET, POST' }); return response.end(); }
    if (request.method === 'GET' && url.pathname === base) {
      response.writeHead(200, { ...cors, 'content-type': 'application/json' });
      return response.end(JSON.stringify({ askdb_proxy: 1, demo: name, provider: 'openai', model, models: [model],
        max_tokens: 1024, paid_by: paidBy, left_today: Math.max(perDay - used, 0), resets_at: resetsAt }));
    }
    if (request.method !== 'POST' || url.pathname !== `${base}/chat/completions`) return refuse(404, 'path', 'no such path');
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    if (used >= perDay) {
      const wait = Math.ceil((Date.parse(resetsAt) - Date.now()) / 1000);
      return refuse(429, 'reader_per_day', `This reader has asked ${perDay} times today, the most this demo allows.`,
        { headers: { 'retry-after': String(wait) }, error: { resets_at: resetsAt, retry_after_s: wait } });
    }
    used += 1;
    const answer = await fetch(`${upstream}/chat/completions`, { method: 'POST', body: Buffer.concat(chunks),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } });
    response.writeHead(answer.status, { ...cors, 'content-type': 'application/json' });
    response.end(await answer.text());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}
