// Local files read on demand (www/lazy-worker.js), chosen through a file input as a person would:
// - a file past 4 GiB (made by lazy-support.mjs: mostly blobs, then a small table whose pages all lie past the
//   4 GiB mark) opens, and a query on that table returns its rows, reading a few pages only;
// - a file changed on disk while open gives the "changed" error for the query that meets it,
//   and the worker goes on answering.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { dataset, startSession, tempDir } from './harness.mjs';
import { ask, lazyPage, makeFilePast4GiB, openFile, run } from './lazy-support.mjs';

const FOUR_GIB = 4 * 1024 ** 3;
let session;
let temp;

before(async () => {
  session = await startSession();
  temp = await tempDir('lazy-local');
});

after(async () => {
  await session?.close();
  await temp?.remove();
});

test('a file past 4 GiB opens and a table stored past the 4 GiB mark answers', { timeout: 600_000 }, async (t) => {
  const file = path.join(temp.dir, 'past-4-gib.db');
  const farOffset = makeFilePast4GiB(file, 5_000);
  const size = statSync(file).size;
  // Positive control: the file and the table are where this test says.
  assert.ok(size > FOUR_GIB + 100 * 1024 ** 2, `the file is ${size} bytes`);
  assert.ok(farOffset > FOUR_GIB, `far's root page is at ${farOffset}`);

  const page = await lazyPage(session, t);
  const opened = await openFile(page, file);
  assert.ok(opened.ok, `open: ${opened.error}`);
  assert.equal(opened.ok.size, size);
  assert.equal(opened.ok.pageSize, 65536);
  // The open read the header, the schema and 8 sampled pages (the last one past 4 GiB), not
  // the file.
  assert.ok(opened.reads.bytes < 16 * 1024 ** 2, `the open read ${opened.reads.bytes} bytes`);
  assert.ok(opened.ok.sampledPages.at(-1) * 65536 > FOUR_GIB);

  const reply = await run(page, "SELECT count(*), min(name), max(id), sum(id), sum(length(filler)) FROM far WHERE name LIKE 'row %'");
  assert.deepEqual(reply.ok?.rows, [[5000, 'row 1', 5000, 12502500, 450000]], JSON.stringify(reply));
  const lookup = await run(page, 'SELECT name FROM far WHERE id = 777');
  assert.deepEqual(lookup.ok?.rows, [['row 777']]);
  assert.ok(reply.reads.bytes < 16 * 1024 ** 2, `the query read ${reply.reads.bytes} bytes`);
  assert.deepEqual(page.problems, []);
});

test('a file changed while open stops the query that meets it, and the worker goes on', async (t) => {
  const file = path.join(temp.dir, 'sakila.db');
  copyFileSync(dataset('sakila/sakila.db'), file);
  const page = await lazyPage(session, t);
  const opened = await openFile(page, file);
  assert.ok(opened.ok, `open: ${opened.error}`);
  // Positive control: before the change, queries read the file.
  const actors = await run(page, 'SELECT count(*) FROM actor');
  assert.deepEqual(actors.ok?.rows, [[200]]);

  // Another program writes the file (its modification time changes).
  const later = new Date(Date.now() + 5_000);
  writeFileSync(file, Buffer.alloc(4096, 1), { flag: 'r+' });
  execFileSync('touch', ['-d', later.toISOString(), file]);

  const reply = await run(page, 'SELECT count(*), sum(amount) FROM payment');
  assert.equal(reply.kind, 'changed', JSON.stringify(reply));
  assert.match(reply.error, /cannot be read any more \(NotReadableError\): it was changed, moved or deleted since it was opened/);
  // Nothing else broke: the worker answers the next message.
  const stats = await ask(page, { type: 'stats' });
  assert.ok(stats.ok.bytes > 0);
  assert.deepEqual(page.problems, []);
});
