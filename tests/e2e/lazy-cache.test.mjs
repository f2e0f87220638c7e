// The page cache and read-ahead of www/lazy-worker.js, in Node (no browser: the worker's script
// runs in this process with a File stand-in that reads a file on disk and counts its reads):
// - the cache holds at most what the open asked for, however much a query reads (SQLite's own
//   page cache, 16 MiB in this build, sits in front of it: a page SQLite keeps is not asked for),
//   counted from the chunks it really holds, not from its own tally;
// - it lets go of the least recently used chunk first (its reader, over a source of its own);
// - a scan reads ahead (fewer, larger reads than pages), a lookup does not;
// - a byte budget refuses the read that would pass it, and the query that fits it runs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import vm from 'node:vm';
import { dataset } from './harness.mjs';
import { diskFile, loadWorker } from './lazy-node.mjs';

const SAKILA = dataset('sakila/sakila.db');

const ask = await loadWorker();
assert.ok('ok' in (await ask({ type: 'init', base: 'http://127.0.0.1/lazy-worker.js' })));

function run(sql, byteBudget = null) {
  return ask({ type: 'run', sql, params: [], maxRows: 100, countBudgetMs: 60_000, deadlineMs: 60_000, byteBudget });
}

// The worker's cache and read-ahead unit (BLOCK in lazy-worker.js).
const BLOCK = 4096;

/** A source of `size` bytes, each a function of its offset, that counts the reads asked of it. */
function countingSource(size) {
  const byteAt = (offset) => Math.imul(offset, 2654435761) >>> 24;
  const expected = (offset, length) => Uint8Array.from({ length }, (_, i) => byteAt(offset + i));
  const source = {
    size,
    reads: [],
    read(offset, length) {
      source.reads.push([offset, length]);
      return expected(offset, length);
    },
  };
  return { source, expected };
}

test('the cache holds no more than asked, however much a query reads', async () => {
  const disk = diskFile(SAKILA);
  try {
    const opened = await ask({ type: 'openFile', file: disk.file, cacheBytes: 256 * 1024, readAheadBytes: 64 * 1024 });
    assert.equal(opened.ok.cacheBytes, 256 * 1024);
    const scan = await run('SELECT count(*), sum(amount) FROM payment');
    assert.equal(Number(scan.ok.rows[0][0]), 16049);
    // Positive control: the scan read more than the cache can hold.
    assert.ok(scan.reads.bytes > 256 * 1024, JSON.stringify(scan.reads));
    // What the chunks hold: a chunk the cache's tally let go of but kept would count here.
    const stats = (await ask({ type: 'stats' })).ok;
    assert.ok(stats.cacheHeld <= 256 * 1024, JSON.stringify(stats));
    // It let go of old pages only: it is nearly full.
    assert.ok(stats.cacheHeld >= 256 * 1024 - 64 * 1024, JSON.stringify(stats));
    // In chunks no larger than a read-ahead and the block it was asked for.
    assert.ok(stats.cacheChunks >= stats.cacheHeld / (64 * 1024 + BLOCK), JSON.stringify(stats));
  } finally {
    disk.close();
  }
});

test('the cache lets go of the least recently used chunk first, and its bytes are the source\'s', () => {
  const CachedReader = vm.runInThisContext('CachedReader');
  const { source, expected } = countingSource(64 * BLOCK);
  // Room for four one-block chunks (four read-aheads of one block: the least it keeps).
  const reader = new CachedReader(source, { cacheBytes: 4 * BLOCK, readAheadMax: BLOCK });
  assert.equal(reader.capacity, 4 * BLOCK);
  const blocks = { a: 0, b: 2, c: 4, d: 6, e: 8 }; // never adjacent: a read there would read ahead
  // Each step reads 100 bytes inside a block, and says how many reads of the source it costs.
  const steps = [
    ['a', 1, 'first read'],
    ['b', 1, 'first read'],
    ['c', 1, 'first read'],
    ['d', 1, 'first read (the cache is full now)'],
    ['a', 0, 'cached: a is now the most recently used'],
    ['e', 1, 'first read: b, the least recently used, makes room'],
    ['a', 0, 'kept: it was used after b'],
    ['b', 1, 'let go of when e came: read again, and c makes room'],
    ['d', 0, 'kept'],
    ['e', 0, 'kept'],
    ['c', 1, 'let go of when b came back'],
  ];
  for (const [name, reads, why] of steps) {
    const offset = blocks[name] * BLOCK + 50;
    const before = source.reads.length;
    const dest = new Uint8Array(100);
    assert.equal(reader.read(offset, dest), true, `${name}: a read inside the file`);
    assert.deepEqual(dest, expected(offset, 100), `${name}: the bytes at ${offset}`);
    const fetched = source.reads.slice(before);
    assert.equal(fetched.length, reads, `${name}: ${why}; the source was asked for ${JSON.stringify(fetched)}`);
    // One block each time: no read-ahead blurs which chunk went.
    for (const [at, length] of fetched) assert.deepEqual([at, length], [blocks[name] * BLOCK, BLOCK]);
    const held = [...reader.chunks.values()].reduce((sum, chunk) => sum + chunk.length, 0);
    assert.ok(held <= reader.capacity, `${name}: the chunks hold ${held} bytes, past the cache's ${reader.capacity}`);
  }
});

test('the default cache keeps what a scan of a small file read', async () => {
  const disk = diskFile(SAKILA);
  try {
    const opened = await ask({ type: 'openFile', file: disk.file });
    assert.equal(opened.ok.cacheBytes, 64 * 1024 * 1024);
    const scan = await run('SELECT count(*), sum(amount) FROM payment');
    assert.ok(scan.reads.bytes > 0);
    const again = await run('SELECT count(*), sum(amount) FROM payment');
    assert.deepEqual(again.reads, { bytes: 0, requests: 0 });
    // It let go of nothing: its chunks hold every byte read since the open.
    const stats = (await ask({ type: 'stats' })).ok;
    assert.equal(stats.cacheHeld, stats.bytes, JSON.stringify(stats));
  } finally {
    disk.close();
  }
});

test('a scan reads ahead in growing reads; a lookup reads a page or two', async () => {
  const disk = diskFile(SAKILA);
  try {
    await ask({ type: 'openFile', file: disk.file });
    const before = { ...disk.counts };
    const lookup = await run('SELECT * FROM rental WHERE rental_id = 9999');
    assert.equal(lookup.ok.rows.length, 1);
    assert.ok(lookup.reads.bytes <= 4 * 4096, `a lookup read ${JSON.stringify(lookup.reads)}`);
    // The worker's count is the file's: every byte it says it read was read from the disk.
    assert.equal(disk.counts.bytes - before.bytes, lookup.reads.bytes);
    assert.equal(disk.counts.reads - before.reads, lookup.reads.requests);

    const scan = await run('SELECT count(*), sum(amount) FROM payment');
    const pages = scan.reads.bytes / 4096;
    // Read-ahead: far fewer reads than pages (each sequential miss doubles the next read).
    assert.ok(scan.reads.requests * 8 < pages, `${scan.reads.requests} reads for ${pages} pages`);
  } finally {
    disk.close();
  }
});

test('a byte budget refuses the read that would pass it, and what fits runs', async () => {
  const disk = diskFile(SAKILA);
  try {
    await ask({ type: 'openFile', file: disk.file });
    const before = disk.counts.bytes;
    const stopped = await run('SELECT count(*), sum(amount) FROM payment', 50_000);
    assert.equal(stopped.kind, 'budget', JSON.stringify(stopped));
    assert.equal(stopped.limitBytes, 50_000);
    assert.ok(stopped.readBytes <= 50_000 && stopped.reads.bytes <= 50_000, JSON.stringify(stopped));
    assert.ok(disk.counts.bytes - before <= 50_000, 'the file was read past the budget');
    // What fits in the same budget runs (and the budget is per query: it starts from zero).
    const lookup = await run('SELECT * FROM rental WHERE rental_id = 7', 50_000);
    assert.ok(lookup.ok, lookup.error);
  } finally {
    disk.close();
  }
});
