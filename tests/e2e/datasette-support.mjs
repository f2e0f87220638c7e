// The pinned Datasette (scripts/setup.sh, setup_datasette) for the end-to-end tests: each test
// file starts its own servers (tests/datasette/serve.sh, over copies of the test datasets in a
// folder of its own), on 127.0.0.1, and stops them by their process id.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, tempDir, waitUntil } from './harness.mjs';

/** `%XX` and `+` (a space in a query string) decoded; the text as it is when it does not decode. */
function decode(text) {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * Starts a Datasette server (`--no-cors` when `cors` is false) over shop, chinook and nosql
 * (shop with SQL turned off), with a time limit of 1 s and 100 rows per answer. Returns
 * { url, database(name), requests(), sha256(name), stop() }.
 */
export async function startDatasette({ cors = true } = {}) {
  const temp = await tempDir('datasette');
  const dir = path.join(temp.dir, 'served');
  const child = spawn(path.join(ROOT, 'tests/datasette/serve.sh'), [dir, ...(cors ? [] : ['--no-cors'])], {
    stdio: 'ignore',
  });
  const log = (name) => {
    try {
      return readFileSync(path.join(dir, name), 'utf8');
    } catch {
      return '';
    }
  };
  const url = await waitUntil(
    'Datasette to listen',
    () => log('server.log').match(/http:\/\/127\.0\.0\.1:\d+/)?.[0] ?? null,
    Boolean,
    60_000,
  );
  return {
    url,
    database: (name) => `${url}/${name}`,
    /** The decoded paths (with their query strings) of the requests it answered, in order. */
    requests: () =>
      log('access.log')
        .split('\n')
        .map((line) => line.split('"')[1])
        .filter((request) => request?.startsWith('GET '))
        .map((request) => decode(request.slice(4).replace(/ HTTP\/[\d.]+$/, ''))),
    /** The SHA-256 of the file it serves as `name`. */
    sha256: (name) => createHash('sha256').update(readFileSync(path.join(dir, `${name}.db`))).digest('hex'),
    async stop() {
      child.kill();
      await temp.remove();
    },
  };
}
