// What www/lazy-worker.js refuses on its own, whatever the page sends it, in Node (no browser:
// the worker's script runs in this process with the real sqlite-wasm, as in lazy-cache.test.mjs, by lazy-node.mjs):
// - the second wall: raw texts sent straight to "run" (no guard in front) that write, or would
//   turn query_only off, attach or detach a database, are refused by SQLite itself, and the
//   database is as it was; what the guard lets through (a SELECT, its pragma functions,
//   sqlite_dbpage) runs;
// - behind the authorizer, each wall still holds: the limit on attached databases, query_only,
//   and the read-only open;
// - a remote file is read only as pinned at open: one with neither ETag nor Last-Modified is
//   refused, and an answer whose length, ETag or Last-Modified is not the pinned one (another,
//   or missing) fails the query as "changed". The reads go to tests/e2e/range-server.mjs through
//   a synchronous XMLHttpRequest stand-in (a helper thread fetches while this one waits, as a
//   browser worker's XHR blocks).

import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { after, test } from 'node:test';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { dataset, DATASETS } from './harness.mjs';
import { diskFile, loadWorker } from './lazy-node.mjs';

const SAKILA = dataset('sakila/sakila.db');
const SAKILA_NAME = 'sakila/sakila.db';
const CHINOOK_NAME = 'chinook/Chinook_Sqlite.sqlite';
dataset(CHINOOK_NAME);

// The range server and the fetches of the XHR stand-in run in a helper thread: this one blocks
// in Atomics.wait while a read is under way, so it could answer nothing itself.
const REPLY_BYTES = 16 * 1024 * 1024; // more than the largest read-ahead (1 MiB) and a read
const HELPER = `
const { parentPort, workerData } = require('node:worker_threads');
const { shared, serverModule, root } = workerData;
const state = new Int32Array(shared, 0, 4); // [done, head length, body length]
const bytes = new Uint8Array(shared, 16);
import(serverModule).then(async ({ startRangeServer }) => {
  const server = await startRangeServer(root);
  parentPort.postMessage({ url: server.url });
  parentPort.on('message', async ({ url, headers }) => {
    let head;
    let body = new Uint8Array(0);
    try {
      const response = await fetch(url, { headers });
      body = new Uint8Array(await response.arrayBuffer());
      head = { status: response.status, headers: Object.fromEntries(response.headers) };
    } catch (error) {
      head = { error: String((error && error.cause && error.cause.message) || error) };
    }
    let json = new TextEncoder().encode(JSON.stringify(head));
    if (json.length + body.length > bytes.length) {
      json = new TextEncoder().encode(JSON.stringify({ error: 'the answer is larger than REPLY_BYTES' }));
      body = new Uint8Array(0);
    }
    bytes.set(json, 0);
    bytes.set(body, json.length);
    state[1] = json.length;
    state[2] = body.length;
    Atomics.store(state, 0, 1);
    Atomics.notify(state, 0);
  });
});
`;
const shared = new SharedArrayBuffer(16 + REPLY_BYTES);
const helper = new Worker(HELPER, {
  eval: true,
  workerData: {
    shared,
    serverModule: new URL('./range-server.mjs', import.meta.url).href,
    root: DATASETS,
  },
});
after(() => helper.terminate());
const SERVER = await new Promise((resolve, reject) => {
  helper.once('message', ({ url }) => resolve(url));
  helper.once('error', reject);
});

/** XMLHttpRequest as HttpSource uses it: synchronous GETs, an ArrayBuffer response. */
globalThis.XMLHttpRequest = class {
  open(method, url, async) {
    assert.equal(async, false, 'the worker reads synchronously');
    this.url = url;
    this.requestHeaders = {};
  }
  setRequestHeader(name, value) {
    this.requestHeaders[name] = value;
  }
  send() {
    const state = new Int32Array(shared, 0, 4);
    Atomics.store(state, 0, 0);
    helper.postMessage({ url: this.url, headers: this.requestHeaders });
    if (Atomics.wait(state, 0, 0, 30_000) === 'timed-out') throw new Error('no answer from the range server in 30 s');
    const bytes = new Uint8Array(shared, 16);
    const head = JSON.parse(new TextDecoder().decode(bytes.slice(0, state[1])));
    // A network failure: a browser's send() throws too.
    if (head.error) throw new Error(head.error);
    this.status = head.status;
    this.headers = head.headers; // names in lower case, as fetch gives them
    this.response = bytes.slice(state[1], state[1] + state[2]).buffer;
  }
  getResponseHeader(name) {
    return this.headers[name.toLowerCase()] ?? null;
  }
};

const ask = await loadWorker();
assert.ok('ok' in (await ask({ type: 'init', base: 'http://127.0.0.1/lazy-worker.js' })));

function run(sql) {
  return ask({ type: 'run', sql, params: [], maxRows: 100, countBudgetMs: 60_000, deadlineMs: 60_000, byteBudget: null });
}

/** The rows of `sql`, which must run. */
async function rows(sql) {
  const reply = await run(sql);
  assert.ok(reply.ok, `${sql}: ${reply.error}`);
  return reply.ok.rows.map((row) => row.map((value) => (typeof value === 'bigint' ? Number(value) : value)));
}

async function openSakila() {
  const disk = diskFile(SAKILA);
  const opened = await ask({ type: 'openFile', file: disk.file });
  assert.ok(opened.ok, opened.error);
  return { disk, opened: opened.ok };
}

/** A reply in a line: that it succeeded, or its failure. */
const said = (reply) => (reply.ok ? 'it succeeded' : `${reply.kind}: ${reply.error}`);

/** Asserts that `sql` is refused by SQLite with a message matching `message`. */
async function assertRefused(sql, message) {
  const reply = await run(sql);
  assert.ok(!reply.ok, `${sql} ran (${JSON.stringify(reply.ok?.rows)})`);
  assert.equal(reply.kind, 'sqlite', `${sql}: ${said(reply)}`);
  assert.match(reply.error, message, `${sql}: refused with "${reply.error}"`);
}

// The authorizer's refusal, and the read-only connection's (query_only, or the read-only open).
const NOT_AUTHORIZED = /^not authorized$/;
const READ_ONLY = /^attempt to write a readonly database$/;

test('SQLite itself refuses writes, attaching, detaching and setting pragmas, with no guard in front', async () => {
  const { disk, opened } = await openSakila();
  try {
    const [[actors]] = await rows('SELECT count(*) FROM actor');
    assert.equal(actors, 200);
    const refused = [
      ['CREATE TEMP TABLE t(x)', READ_ONLY],
      ['CREATE TEMP VIEW v AS SELECT 1', READ_ONLY],
      ["ATTACH ':memory:' AS m", NOT_AUTHORIZED],
      ["ATTACH 'file:other.db' AS o", NOT_AUTHORIZED],
      ['PRAGMA query_only=0', NOT_AUTHORIZED],
      ['CREATE TEMP TABLE t2(x)', READ_ONLY],
      // An empty value turns query_only off as well as 0 does.
      ["PRAGMA query_only=''", NOT_AUTHORIZED],
      ['PRAGMA main.QUERY_ONLY = false', NOT_AUTHORIZED],
      ["INSERT INTO actor(first_name,last_name) VALUES('a','b')", READ_ONLY],
      ['DELETE FROM actor', READ_ONLY],
      ['UPDATE sqlite_dbpage SET data = zeroblob(4096) WHERE pgno = 2', READ_ONLY],
      ['PRAGMA writable_schema=1', NOT_AUTHORIZED],
      ['DETACH main', NOT_AUTHORIZED],
      ['CREATE TABLE z(x)', READ_ONLY],
      ['BEGIN IMMEDIATE', READ_ONLY],
      // VACUUM attaches its target itself, and is told "authorization denied".
      ["VACUUM INTO 'file:copy.db'", /^authorization denied$/],
    ];
    for (const [sql, message] of refused) await assertRefused(sql, message);

    // The database is as it was: the same rows, no temporary object, nothing attached, the
    // connection still query-only and its schema not writable.
    assert.deepEqual(await rows('SELECT count(*) FROM actor'), [[actors]]);
    assert.deepEqual(await rows('SELECT count(*) FROM temp.sqlite_schema'), [[0]]);
    const databases = (await rows('SELECT name FROM pragma_database_list')).map(([name]) => name);
    assert.ok(databases.includes('main'), JSON.stringify(databases));
    assert.deepEqual(databases.filter((name) => name !== 'main' && name !== 'temp'), [], 'attached');
    assert.deepEqual(await rows('PRAGMA query_only'), [[1]]);
    assert.deepEqual(await rows('PRAGMA writable_schema'), [[0]]);

    // Positive controls: what the guard lets through runs. Every pragma function the guard
    // allows (READ_ONLY_PRAGMAS in src/sql/guard.rs), with an argument where it takes one.
    assert.deepEqual(await rows('SELECT first_name FROM actor WHERE actor_id = 1'), [['PENELOPE']]);
    const pragmaFunctions = [
      "pragma_table_info('actor')",
      "pragma_table_xinfo('actor')",
      "pragma_table_list('actor')",
      "pragma_index_list('actor')",
      "pragma_index_info('idx_actor_last_name')",
      "pragma_index_xinfo('idx_actor_last_name')",
      "pragma_foreign_key_list('film_actor')",
      'pragma_collation_list',
      'pragma_function_list',
      'pragma_module_list',
      'pragma_pragma_list',
      'pragma_database_list',
    ];
    for (const call of pragmaFunctions) {
      const [[count]] = await rows(`SELECT count(*) FROM ${call}`);
      assert.ok(count > 0, `${call} gave no row`);
    }
    assert.deepEqual(
      (await rows("SELECT name FROM pragma_table_info('actor')")).map(([name]) => name),
      ['actor_id', 'first_name', 'last_name', 'last_update'],
    );
    // The statement too, however it is written (SQLite reads pragma names in any case).
    assert.equal((await rows('PRAGMA Table_Info(actor)')).length, 4);
    // sqlite_dbpage is in this build, and may be read (the fence in Rust keeps the model from it).
    assert.deepEqual(await rows('SELECT count(*) FROM sqlite_dbpage'), [[opened.pageCount]]);
    const [[page1]] = await rows("SELECT data FROM sqlite_dbpage('main') WHERE pgno = 1");
    assert.deepEqual(Buffer.from(page1), readFileSync(SAKILA).subarray(0, opened.pageSize));
  } finally {
    disk.close();
  }
});

test('behind the authorizer, the attach limit, query_only and the read-only open each still hold', async () => {
  const { disk } = await openSakila();
  try {
    const sqlite3 = await vm.runInThisContext('ready');
    const { pDb } = vm.runInThisContext('session');
    // The first wall gone, as if the authorizer had a hole.
    assert.equal(sqlite3.capi.sqlite3_set_authorizer(pDb, 0, 0), 0);
    await assertRefused("ATTACH ':memory:' AS m", /^too many attached databases - max 0$/);
    await assertRefused('CREATE TEMP TABLE t(x)', READ_ONLY);
    // With nothing to refuse it (control: the authorizer was what did) query_only goes off...
    assert.deepEqual(await rows('PRAGMA query_only=0'), []);
    assert.deepEqual(await rows('PRAGMA query_only'), [[0]]);
    // ...and the file is still opened read-only.
    await assertRefused("INSERT INTO actor(first_name,last_name) VALUES('a','b')", READ_ONLY);
    await assertRefused('DELETE FROM actor', READ_ONLY);
    await assertRefused('CREATE TABLE z(x)', READ_ONLY);
    assert.deepEqual(await rows('SELECT count(*) FROM actor'), [[200]]);
  } finally {
    disk.close();
  }
});

// ---------------------------------------------------------------------------------------------
// A remote file, pinned at open.

async function control(what) {
  const response = await fetch(`${SERVER}/${what}`);
  const text = await response.text();
  assert.equal(response.status, 200, `${what}: ${text}`);
  return JSON.parse(text);
}

/** The page's first ranged GET: what openUrl is given. */
async function firstGet(url, bytes = 64 * 1024) {
  const response = await fetch(url, { headers: { Range: `bytes=0-${bytes - 1}` } });
  assert.equal(response.status, 206, url);
  const size = Number(/\/(\d+)$/.exec(response.headers.get('content-range'))[1]);
  return {
    url,
    size,
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
    first: new Uint8Array(await response.arrayBuffer()),
  };
}

function openUrl(pinned) {
  return ask({ type: 'openUrl', ...pinned });
}

/** Asserts that `sql` fails as a read of another version than the one opened. */
async function assertChanged(sql, message) {
  const reply = await run(sql);
  assert.ok(!reply.ok, `${sql} ran on a file that is not the one opened`);
  assert.equal(reply.kind, 'changed', said(reply));
  assert.match(reply.error, message);
  assert.match(reply.error, /open it again to read the new version/);
}

test('a remote file with neither ETag nor Last-Modified is refused before any read', async () => {
  const pinned = await firstGet(`${SERVER}/no-validators/${SAKILA_NAME}`);
  assert.equal(pinned.etag, null);
  assert.equal(pinned.lastModified, null);
  await control('reset');
  const reply = await openUrl(pinned);
  assert.equal(reply.kind, 'remote', said(reply));
  assert.deepEqual(reply.problem, { kind: 'noValidator', size: pinned.size });
  assert.match(reply.error, /neither an ETag nor a Last-Modified/);
  assert.match(reply.error, /cannot be read in parts safely/);
  assert.equal((await control('stats')).requests, 0, 'the worker asked the server for something');
  // Control: the same file with a Last-Modified opens and reads.
  const opened = await openUrl(await firstGet(`${SERVER}/lm-only/${SAKILA_NAME}`));
  assert.ok(opened.ok, opened.error);
  assert.deepEqual(await rows('SELECT count(*) FROM actor'), [[200]]);
});

test("the first GET's bytes are the open's first request, and no read asks for them again", async () => {
  const pinned = await firstGet(`${SERVER}/range/${SAKILA_NAME}`);
  await control('reset');
  const opened = await openUrl(pinned);
  assert.ok(opened.ok, opened.error);
  const served = await control('stats');
  // Control: the open read past the first bytes (the schema's last pages), so it could have
  // asked for them again.
  assert.ok(served.requests > 0, JSON.stringify(served));
  assert.equal(opened.reads.requests, served.requests + 1, JSON.stringify({ reads: opened.reads, served }));
  assert.equal(opened.reads.bytes, served.bytes + pinned.first.length);
  assert.ok(
    served.ranges.every(([start]) => start >= pinned.first.length),
    `read again: ${JSON.stringify(served.ranges)}`,
  );
  assert.deepEqual(opened.ok.header, pinned.first.subarray(0, 100));
  assert.deepEqual([opened.ok.etag, opened.ok.lastModified], [pinned.etag, pinned.lastModified]);

  // A fresh worker opening the same URL again is given no bytes: it reads the header itself,
  // and counts nothing it did not ask for.
  await control('reset');
  const again = await openUrl({ ...pinned, first: new Uint8Array(0) });
  assert.ok(again.ok, again.error);
  const servedAgain = await control('stats');
  assert.equal(servedAgain.ranges[0][0], 0, JSON.stringify(servedAgain.ranges));
  assert.deepEqual(again.reads, { bytes: servedAgain.bytes, requests: servedAgain.requests });
});

test('an answer without the ETag or Last-Modified pinned at open is a changed file', async () => {
  // The same bytes and dates from a server that stopped sending the ETag (its /lm-only face).
  const pinned = await firstGet(`${SERVER}/range/${SAKILA_NAME}`);
  assert.ok(pinned.etag && pinned.lastModified);
  let opened = await openUrl({ ...pinned, url: `${SERVER}/lm-only/${SAKILA_NAME}`, first: new Uint8Array(0) });
  assert.equal(opened.kind, 'changed', said(opened));
  assert.match(opened.error, new RegExp(`its ETag was ${pinned.etag}, now none is sent`));
  // Pinned by Last-Modified alone, and a server that stopped sending it.
  opened = await openUrl({
    ...pinned,
    etag: null,
    url: `${SERVER}/no-validators/${SAKILA_NAME}`,
    first: new Uint8Array(0),
  });
  assert.equal(opened.kind, 'changed', said(opened));
  assert.match(opened.error, /its Last-Modified was .+ GMT, now none is sent/);
  // Control: the same pins, where the server still sends them, open.
  opened = await openUrl({ ...pinned, etag: null, url: `${SERVER}/lm-only/${SAKILA_NAME}`, first: new Uint8Array(0) });
  assert.ok(opened.ok, opened.error);
});

test('pinned by Last-Modified alone, a file touched or replaced on the server fails the next read', async () => {
  const url = `${SERVER}/lm-only/${SAKILA_NAME}`;
  try {
    const pinned = await firstGet(url);
    assert.equal(pinned.etag, null);
    const opened = await openUrl(pinned);
    assert.ok(opened.ok, opened.error);
    assert.deepEqual(await rows('SELECT count(*) FROM actor'), [[200]]);
    await control(`touch/${SAKILA_NAME}`);
    // A table not read yet: its pages come from the server.
    await assertChanged('SELECT count(*) FROM payment', /its Last-Modified was .+ GMT, now .+ GMT/);

    // Replaced by another file: another length (told first), and another date.
    const reopened = await openUrl(await firstGet(url));
    assert.ok(reopened.ok, reopened.error);
    await control(`replace/${SAKILA_NAME}?with=${encodeURIComponent(CHINOOK_NAME)}`);
    await assertChanged('SELECT count(*) FROM rental', new RegExp(`its length was ${pinned.size}, now 1007616`));
    // What the server sends now is the other file's bytes, at the same address.
    const replaced = await firstGet(url, 4096);
    assert.equal(replaced.size, statSync(dataset(CHINOOK_NAME)).size);
    assert.deepEqual(Buffer.from(replaced.first), readFileSync(dataset(CHINOOK_NAME)).subarray(0, 4096));
    assert.notEqual(replaced.lastModified, pinned.lastModified);
  } finally {
    await control(`restore/${SAKILA_NAME}`);
  }
  // Restored, and opened again with its new pins: Sakila's rows again.
  const restored = await firstGet(url);
  assert.ok((await openUrl(restored)).ok);
  assert.deepEqual(await rows('SELECT count(*) FROM actor'), [[200]]);
});

test('pinned by ETag, a new version on the server (the same length) fails the next read', async () => {
  const url = `${SERVER}/range/${SAKILA_NAME}`;
  const pinned = await firstGet(url);
  assert.ok((await openUrl(pinned)).ok);
  assert.deepEqual(await rows('SELECT count(*) FROM actor'), [[200]]);
  await control(`touch/${SAKILA_NAME}`);
  const now = (await firstGet(url, 1)).etag;
  assert.notEqual(now, pinned.etag);
  await assertChanged('SELECT count(*) FROM payment', new RegExp(`its ETag was ${pinned.etag}, now ${now}`));
});
