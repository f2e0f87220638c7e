// The lazy engine's worker (www/lazy-worker.js) run in this Node process, for the tests that
// prove what it does on its own (lazy-cache.test.mjs, lazy-walls.test.mjs): its script with the
// real sqlite-wasm (Node's build) and rows.js, and a File stand-in over a file on disk that
// counts the slices read from it.

import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { ROOT } from './harness.mjs';

/** The worker's script in this process; `ask(message)` answers as its postMessage would. */
export async function loadWorker() {
  globalThis.self = globalThis;
  globalThis.location ??= { origin: 'http://127.0.0.1' };
  globalThis.importScripts = () => vm.runInThisContext(readFileSync(path.join(ROOT, 'www', 'rows.js'), 'utf8'));
  globalThis.__askdbSqlite = await import(
    path.join(ROOT, 'node_modules', '@sqlite.org', 'sqlite-wasm', 'dist', 'node.mjs')
  );
  const source = readFileSync(path.join(ROOT, 'www', 'lazy-worker.js'), 'utf8');
  const dynamicImport = 'await import(new URL("sqlite-wasm/index.mjs", base).href)';
  assert.ok(source.includes(dynamicImport), 'the worker loads SQLite another way now');
  let replies = [];
  globalThis.postMessage = (message) => replies.push(message);
  vm.runInThisContext(source.replace(dynamicImport, 'globalThis.__askdbSqlite'));
  let id = 0;
  return async (message) => {
    replies = [];
    await globalThis.onmessage({ data: { ...message, id: ++id } });
    return replies[0];
  };
}

/** A File stand-in over a file on disk, counting the slices read from it. */
export function diskFile(file) {
  const fd = openSync(file, 'r');
  const counts = { reads: 0, bytes: 0 };
  class Slice {
    constructor(start, end) {
      this.start = start;
      this.end = end;
      this.size = end - start;
      this.name = path.basename(file);
    }
    slice(a, b) {
      return new Slice(this.start + a, this.start + Math.min(b, this.size));
    }
  }
  globalThis.FileReaderSync = class {
    readAsArrayBuffer(slice) {
      counts.reads += 1;
      counts.bytes += slice.size;
      const buffer = Buffer.alloc(slice.size);
      readSync(fd, buffer, 0, slice.size, slice.start);
      return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + slice.size);
    }
  };
  return { file: new Slice(0, statSync(file).size), counts, close: () => closeSync(fd) };
}

