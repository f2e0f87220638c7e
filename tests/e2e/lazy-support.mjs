// Drives www/lazy-worker.js straight (its message protocol, no page UI) in headless Chromium, on
// the built page's origin: for the tests and benchmarks of databases read on demand that need
// files on disk (a local file past 4 GiB, a file changed while open), which only a file input
// can hand to a page.

import { execFileSync } from 'node:child_process';
import { STEP_TIMEOUT_MS } from './harness.mjs';

// Five blobs of 900 MB of zeros (64 KiB pages), each committed and its zeros made holes
// (`fallocate --dig-holes`) so that the file takes a few hundred MB of disk; then `far`,
// created after them so that its root page and its rows lie past them. Prints the offset of
// `far`'s root page.
const MAKE_PAST_4_GIB = `
import sqlite3, subprocess, sys
db = sqlite3.connect(sys.argv[1])
rows = int(sys.argv[2])
db.executescript("PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                 "CREATE TABLE pad(b BLOB);")
for _ in range(5):
    db.execute("INSERT INTO pad VALUES (zeroblob(900000000))")
    db.commit()
    subprocess.run(["fallocate", "--dig-holes", sys.argv[1]], check=True)
db.execute("CREATE TABLE far(id INTEGER PRIMARY KEY, name TEXT, filler TEXT)")
db.executemany("INSERT INTO far VALUES (?, ?, ?)", ((i, f"row {i}", "x" * 90) for i in range(1, rows + 1)))
db.commit()
root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'far'").fetchone()[0]
print((root - 1) * 65536)
`;

/**
 * Makes `file`: a database of about 4.5 GB whose table `far` (`rows` rows of id, `row N` and 90
 * x's) lies past the 4 GiB mark. Returns the byte offset of `far`'s root page.
 */
export function makeFilePast4GiB(file, rows) {
  return Number(execFileSync('python3', ['-c', MAKE_PAST_4_GIB, file, String(rows)]).toString().trim());
}

/**
 * A blank page on the served page's origin with one file input, and in it a lazy worker
 * (`window.lazy`). `session` comes from harness.mjs's startSession.
 */
export async function lazyPage(session, test) {
  const context = await session.browser.newContext();
  test?.after(() => context.close());
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  // Any address of the server gives its origin; the page itself is ours.
  await page.goto(`${session.url}/lazy-test-page`);
  await page.setContent('<input type="file" id="file">');
  await page.evaluate(() => {
    const worker = new Worker('/lazy-worker.js');
    let next = 0;
    const waiting = new Map();
    worker.onmessage = (event) => {
      const resolve = waiting.get(event.data.id);
      waiting.delete(event.data.id);
      resolve?.(event.data);
    };
    window.lazy = {
      worker,
      ask(message) {
        const id = ++next;
        return new Promise((resolve) => {
          waiting.set(id, resolve);
          worker.postMessage({ ...message, id });
        });
      },
    };
  });
  const init = await ask(page, { type: 'init', base: `${session.url}/lazy-worker.js` });
  if (!('ok' in init)) throw new Error(`the lazy worker did not start: ${JSON.stringify(init)}`);
  return page;
}

/**
 * Posts one message to the page's lazy worker; its reply, with BigInts as Numbers, and
 * `elapsedMs`: the time from posting to the reply, measured in the page.
 */
export async function ask(page, message) {
  return page.evaluate(async (message) => {
    const started = performance.now();
    const reply = await window.lazy.ask(message);
    const elapsedMs = performance.now() - started;
    const plain = JSON.parse(JSON.stringify(reply, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
    return { ...plain, elapsedMs };
  }, message);
}

/** Chooses `path` in the page's file input and opens it in the worker; the reply. */
export async function openFile(page, path, options = {}) {
  await page.setInputFiles('#file', path, { timeout: STEP_TIMEOUT_MS });
  return page.evaluate(async (options) => {
    const file = document.getElementById('file').files[0];
    const started = performance.now();
    const reply = await window.lazy.ask({ type: 'openFile', file, ...options });
    reply.elapsedMs = performance.now() - started;
    if (reply.ok) reply.ok.header = Array.from(reply.ok.header);
    return reply;
  }, options);
}

/**
 * Opens `url` in the worker as the page does (engine::on_demand::web_file::first_get, then openUrl with
 * what it pinned): one ranged GET of the first 64 KiB, its length and validators, its bytes.
 * The reply, with `elapsedMs` from the GET to the open's reply.
 */
export async function openUrl(page, url, options = {}) {
  return page.evaluate(async ({ url, options }) => {
    const started = performance.now();
    const response = await fetch(url, { headers: { Range: 'bytes=0-65535' }, cache: 'no-store' });
    const range = /^bytes 0-\d+\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
    if (response.status !== 206 || !range) throw new Error(`${url} answered ${response.status} without a length`);
    const first = new Uint8Array(await response.arrayBuffer());
    const reply = await window.lazy.ask({
      type: 'openUrl',
      url,
      size: Number(range[1]),
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
      first,
      ...options,
    });
    reply.elapsedMs = performance.now() - started;
    if (reply.ok) reply.ok.header = Array.from(reply.ok.header);
    return reply;
  }, { url, options });
}

/** Runs `sql` in the worker with generous limits (and `options` over them); the reply. */
export async function run(page, sql, options = {}) {
  return ask(page, {
    type: 'run',
    sql,
    params: [],
    maxRows: 1000,
    countBudgetMs: 60_000,
    deadlineMs: 120_000,
    byteBudget: null,
    ...options,
  });
}
