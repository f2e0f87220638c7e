// What askdb-proxy adds to a reader's wait, and what it holds in memory (issue 38).
//
//   node bench/proxy_overhead.mjs [--streams 50] [--rounds 10] [--chunks 10] [--chunk-ms 10]
//
// A scripted upstream on 127.0.0.1 answers OpenAI-style chat completions as a stream: `chunks`
// events `chunk-ms` apart, then the usage and [DONE]. Rounds of `streams` concurrent requests go
// to it directly and through the proxy, alternated (so that drift on the machine hits both), and
// each request's time to first byte and to the end is kept. It prints the medians and p99s of
// both, what the proxy adds (proxy minus direct), the same for whole (not streamed) replies, and
// the proxy's memory: resident at rest, and at most (VmHWM) after the load.
//
// The proxy is the `server` profile's build (cargo build --profile server -p askdb-proxy), or
// ASKDB_PROXY=path. Every server listens on 127.0.0.1 only; every loop is bounded.

import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const STREAMS = option('streams', 50);
const ROUNDS = option('rounds', 10);
const CHUNKS = option('chunks', 10);
const CHUNK_MS = option('chunk-ms', 10);
const KEY = 'sk-bench-0000000000000000';
const ORIGIN = 'http://bench.localhost';

// A request shaped as askdb sends one (a system prompt of askdb's size, tools, a question).
const SYSTEM = { role: 'system', content: 'You answer questions about a SQLite database. '.repeat(120) };
const TOOLS = ['list_tables', 'describe_table', 'run_sql', 'cross_check', 'final_answer'].map((name) => ({
  type: 'function',
  function: {
    name,
    description: `The ${name} tool. `.repeat(20),
    parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
  },
}));
const body = (stream) =>
  JSON.stringify({
    model: 'bench-model',
    messages: [SYSTEM, { role: 'user', content: 'How many customers live in Tokyo?' }],
    tools: TOOLS,
    max_tokens: 256,
    temperature: 0.2,
    ...(stream ? { stream: true } : {}),
  });

/** serde_json's `to_string` of a `Value`: compact, keys sorted. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
const sha256 = (text) => createHash('sha256').update(text).digest('hex');

function upstream() {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', async () => {
      const stream = JSON.parse(text).stream === true;
      const usage = { prompt_tokens: 900, completion_tokens: CHUNKS, total_tokens: 900 + CHUNKS };
      if (!stream) {
        await new Promise((r) => setTimeout(r, CHUNKS * CHUNK_MS));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({
          id: 'x', object: 'chat.completion', model: 'bench-model',
          choices: [{ index: 0, message: { role: 'assistant', content: 'word '.repeat(CHUNKS) }, finish_reason: 'stop' }],
          usage,
        }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < CHUNKS; i++) {
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'word ' } }] })}\n\n`);
        await new Promise((r) => setTimeout(r, CHUNK_MS));
      }
      res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function proxyBinary() {
  if (process.env.ASKDB_PROXY) return process.env.ASKDB_PROXY;
  execFileSync('cargo', ['build', '--quiet', '--profile', 'server', '-p', 'askdb-proxy'], { cwd: ROOT, stdio: 'inherit' });
  return path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target'), 'server', 'askdb-proxy');
}

async function startProxy(upstreamUrl, dir) {
  const config = path.join(dir, 'askdb-proxy.toml');
  writeFileSync(config, `listen = "127.0.0.1:0"
state = "${path.join(dir, 'state.sqlite')}"
max_body_bytes = 1048576
global_tokens_per_day = 1000000000000

[demo.bench]
provider = "openai"
upstream = "${upstreamUrl}/v1"
key_env = "BENCH_PROXY_KEY"
models = ["bench-model"]
max_tokens = 1024
origins = ["${ORIGIN}"]
pins = [{ system_sha256 = "${sha256(canonical(SYSTEM))}", tools_sha256 = "${sha256(canonical(TOOLS))}" }]

[demo.bench.limits]
reader_burst = 1000000
reader_per_minute = 1000000
reader_per_day = 1000000000
requests_per_day = 1000000000
tokens_per_day = 1000000000000
`);
  const child = spawn(proxyBinary(), ['serve', '--config', config], {
    env: { ...process.env, BENCH_PROXY_KEY: KEY },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the proxy did not start in 30 s')), 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the proxy exited (${code})`)));
  });
  return { child, url };
}

/** One request: [ms to the first byte of the body, ms to its end]. */
function timed(url, payload) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let first = null;
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', origin: ORIGIN, 'content-length': Buffer.byteLength(payload) },
    }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
      res.on('data', () => { first ??= performance.now() - start; });
      res.on('end', () => resolve([first ?? performance.now() - start, performance.now() - start]));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const memory = (pid, field) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field));
  return Number(line.split(/\s+/)[1]) / 1024;
};

async function measure(directUrl, proxyUrl, stream) {
  const payload = body(stream);
  const times = { direct: { first: [], end: [] }, proxy: { first: [], end: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of round % 2 ? [['proxy', proxyUrl], ['direct', directUrl]] : [['direct', directUrl], ['proxy', proxyUrl]]) {
      const results = await Promise.all(Array.from({ length: STREAMS }, () => timed(url, payload)));
      for (const [first, end] of results) {
        times[name].first.push(first);
        times[name].end.push(end);
      }
    }
  }
  const signed = (ms) => `${ms >= 0 ? '+' : '−'}${Math.abs(ms).toFixed(1)}`;
  const row = (what, key) => {
    const [d50, p50] = [quantile(times.direct[key], 0.5), quantile(times.proxy[key], 0.5)];
    const [d99, p99] = [quantile(times.direct[key], 0.99), quantile(times.proxy[key], 0.99)];
    console.log(
      `| ${stream ? 'stream' : 'whole'} | ${what} | ${d50.toFixed(1)} | ${p50.toFixed(1)} | ${signed(p50 - d50)} | ${d99.toFixed(1)} | ${p99.toFixed(1)} | ${signed(p99 - d99)} |`,
    );
  };
  row('first byte', 'first');
  row('end', 'end');
}

const dir = mkdtempSync(path.join(tmpdir(), 'askdb-proxy-bench-'));
const server = await upstream();
const upstreamUrl = `http://127.0.0.1:${server.address().port}`;
const { child, url } = await startProxy(upstreamUrl, dir);
try {
  const atRest = memory(child.pid, 'VmRSS');
  console.log(`askdb-proxy overhead: ${STREAMS} concurrent requests x ${ROUNDS} rounds, ${CHUNKS} events ${CHUNK_MS} ms apart (load average ${(await import('node:os')).loadavg()[0].toFixed(2)})`);
  console.log('| reply | until | direct median ms | proxy median ms | added | direct p99 ms | proxy p99 ms | added |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  await measure(`${upstreamUrl}/v1/chat/completions`, `${url}/demo/bench/chat/completions`, true);
  await measure(`${upstreamUrl}/v1/chat/completions`, `${url}/demo/bench/chat/completions`, false);
  console.log(`proxy memory: ${atRest.toFixed(1)} MB resident at rest, ${memory(child.pid, 'VmHWM').toFixed(1)} MB at most under load`);
} finally {
  child.kill();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
