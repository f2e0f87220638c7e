// A file server on 127.0.0.1 (a free port) for the tests of databases read on demand
// (www/lazy-worker.js). It serves the files of one folder in five manners, and counts what it
// sends:
//
//   /range/NAME          answers Range requests (206 + Content-Range), with CORS that exposes
//                        Content-Range, ETag and Last-Modified: what a good static host does
//   /ignore-range/NAME   always 200 with the whole file (a server without Range support)
//   /hidden/NAME         answers Range requests, but its CORS exposes no header beyond the safe
//                        list, so a page on another origin cannot read Content-Range
//   /lm-only/NAME        answers Range requests with no ETag, its CORS exposing Content-Range,
//                        Content-Length and Last-Modified: a host that pins by Last-Modified alone
//   /no-validators/NAME  answers Range requests with neither ETag nor Last-Modified: a host on
//                        which a new version of the file cannot be told from the old
//   /stats               {bytes, requests, ranges}: what it sent since the last /reset
//   /reset               sets the counts to zero
//   /touch/NAME          the file now has another ETag and Last-Modified (as after a new upload)
//   /replace/NAME?with=OTHER
//                        from now on NAME, in every manner, is the file OTHER (a path in the
//                        folder): its bytes, its length, and another ETag and Last-Modified, as
//                        after a new upload of OTHER's bytes under NAME
//   /restore/NAME        NAME is its own file again, as after one more upload (its ETag and
//                        Last-Modified change again)
//   /delay?ms=N          each answer to a range request waits N ms first (a slow server)
//   /sse?b=BASE64        those bytes as a text/event-stream, whole, then the end of it
//
// Every answer allows any origin and carries a cross-origin resource policy, so that the wasm
// tests (on the test runner's cross-origin isolated origin) can read it.

import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

const MODES = new Set(['range', 'ignore-range', 'hidden', 'lm-only', 'no-validators']);

export async function startRangeServer(root) {
  const base = path.resolve(root);
  const versions = new Map(); // name -> how many times it was touched, replaced or restored
  const replacements = new Map(); // name -> the path (in the folder) whose bytes it has now
  let counts = { bytes: 0, requests: 0, ranges: [] };
  let delayMs = 0;

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });

  const EXPOSED = {
    range: 'Content-Range, Content-Length, ETag, Last-Modified',
    'ignore-range': 'Content-Range, Content-Length, ETag, Last-Modified',
    'lm-only': 'Content-Range, Content-Length, Last-Modified',
    'no-validators': 'Content-Range, Content-Length',
  };

  function cors(mode) {
    const headers = {
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'cache-control': 'no-store',
    };
    if (EXPOSED[mode]) headers['access-control-expose-headers'] = EXPOSED[mode];
    return headers;
  }

  /** The file at `name` in the folder, or null when the name leaves it. */
  function inFolder(name) {
    const file = path.join(base, path.normalize(name));
    return file.startsWith(base + path.sep) ? file : null;
  }

  function newVersion(name) {
    versions.set(name, (versions.get(name) ?? 0) + 1);
    return versions.get(name);
  }

  /**
   * From now on `name` serves the bytes of `other` (a path in the folder), as a new upload.
   * Synchronous, like touch: the next request already sees it.
   */
  function replace(name, other) {
    if (typeof other !== 'string' || other === '') {
      throw new Error(`cannot replace ${name}: name the file whose bytes it gets, as /replace/NAME?with=OTHER`);
    }
    const file = inFolder(other);
    if (!file || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      throw new Error(`cannot replace ${name} with ${other}: no such file in ${base}`);
    }
    replacements.set(name, other);
    return newVersion(name);
  }

  function restore(name) {
    replacements.delete(name);
    return newVersion(name);
  }

  async function handle(request, response) {
    const url = new URL(request.url, 'http://x');
    const [, first, ...rest] = decodeURIComponent(url.pathname).split('/');
    if (first === 'stats') return json(response, counts);
    if (first === 'reset') {
      counts = { bytes: 0, requests: 0, ranges: [] };
      return json(response, counts);
    }
    if (first === 'delay') {
      delayMs = Number(url.searchParams.get('ms')) || 0;
      return json(response, { delayMs });
    }
    if (first === 'touch') {
      const name = rest.join('/');
      return json(response, { name, version: newVersion(name) });
    }
    if (first === 'replace') {
      const name = rest.join('/');
      const other = url.searchParams.get('with');
      try {
        return json(response, { name, with: other, version: replace(name, other) });
      } catch (error) {
        return badRequest(response, error.message);
      }
    }
    if (first === 'restore') {
      const name = rest.join('/');
      return json(response, { name, version: restore(name) });
    }
    if (first === 'sse') {
      // The bytes of `b` (base64) as an event stream, then the end: for the browser's own
      // EventSource to read, the judge of askdb's reader (tests/web_sse.rs).
      response.writeHead(200, { ...cors('range'), 'content-type': 'text/event-stream' });
      response.end(Buffer.from(url.searchParams.get('b') ?? '', 'base64'));
      return;
    }
    if (!MODES.has(first)) return notFound(response, url.pathname);
    const mode = first;
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        ...cors(mode),
        'access-control-allow-methods': 'GET, HEAD',
        'access-control-allow-headers': 'Range',
      });
      return response.end();
    }
    const name = rest.join('/');
    const file = inFolder(replacements.get(name) ?? name);
    if (!file) return notFound(response, url.pathname);
    let info;
    try {
      info = await stat(file);
    } catch {
      return notFound(response, url.pathname);
    }
    if (!info.isFile()) return notFound(response, url.pathname);

    const version = versions.get(name) ?? 0;
    // Each version a second after the one before, counted from NAME's own file (when there is
    // one) whatever it is replaced with: no two versions share a Last-Modified.
    const own = replacements.has(name) ? await stat(inFolder(name) ?? file).catch(() => info) : info;
    const headers = {
      ...cors(mode),
      'content-type': 'application/octet-stream',
      'accept-ranges': mode === 'ignore-range' ? 'none' : 'bytes',
    };
    if (mode !== 'lm-only' && mode !== 'no-validators') {
      headers.etag = `"${info.size}-${Math.floor(info.mtimeMs)}-v${version}"`;
    }
    if (mode !== 'no-validators') {
      headers['last-modified'] = new Date(Math.floor(own.mtimeMs / 1000) * 1000 + version * 1000).toUTCString();
    }
    let start = 0;
    let end = info.size - 1;
    let status = 200;
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
    if (range && mode !== 'ignore-range') {
      start = Number(range[1]);
      end = range[2] === '' ? info.size - 1 : Math.min(Number(range[2]), info.size - 1);
      if (start >= info.size || end < start) {
        response.writeHead(416, { ...headers, 'content-range': `bytes */${info.size}` });
        return response.end();
      }
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${info.size}`;
      if (delayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        // The client gave up meanwhile (its worker was terminated): nothing is sent or counted.
        if (request.socket.destroyed) return undefined;
      }
    }
    const length = end - start + 1;
    headers['content-length'] = length;
    response.writeHead(status, headers);
    counts.requests += 1;
    if (request.method === 'HEAD') return response.end();
    counts.ranges.push([start, end]);
    const stream = createReadStream(file, { start, end });
    stream.on('data', (chunk) => {
      counts.bytes += chunk.length;
    });
    // A client that stops reading (it saw a 200 and gave up) ends the stream: count no more.
    response.on('close', () => stream.destroy());
    stream.pipe(response);
  }

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => counts,
    reset: () => {
      counts = { bytes: 0, requests: 0, ranges: [] };
    },
    touch: (name) => newVersion(name),
    replace,
    restore,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

function json(response, value) {
  response.writeHead(200, {
    'content-type': 'application/json',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(value));
}

function badRequest(response, why) {
  response.writeHead(400, {
    'content-type': 'text/plain',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  });
  response.end(why);
}

function notFound(response, what) {
  response.writeHead(404, {
    'content-type': 'text/plain',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  });
  response.end(`not found: ${what}`);
}

// Run as a program (`node tests/e2e/range-server.mjs DIR [URL_FILE]`): serves DIR until killed,
// prints its URL and, when URL_FILE is given, writes it there once the server listens.
// scripts/test.sh starts it for the wasm tests (tests/web_lazy.rs).
if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  const [root = 'tests/datasets', urlFile] = process.argv.slice(2);
  const { url } = await startRangeServer(root);
  if (urlFile) await writeFile(urlFile, `${url}/\n`);
  console.log(url);
}
