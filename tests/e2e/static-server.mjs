// A small static file server on 127.0.0.1 (random free port) for the end-to-end tests:
// serves the built page (dist/) at "/" and, optionally, other folders under a prefix
// (for example generated databases under "/files/").

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm', // needed for WebAssembly.instantiateStreaming
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.sql': 'text/plain; charset=utf-8',
};

/**
 * Starts the server. `root` is served at "/", each `mounts[prefix]` folder at "/prefix/".
 * Returns { url, close() }; `url` has no trailing slash.
 */
export async function startStaticServer(root, mounts = {}) {
  const server = createServer((request, response) => {
    serve(root, mounts, request, response).catch((error) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

async function serve(root, mounts, request, response) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD' });
    response.end();
    return;
  }
  const urlPath = decodeURIComponent(new URL(request.url, 'http://x').pathname);
  let base = path.resolve(root);
  let rest = urlPath;
  for (const [prefix, folder] of Object.entries(mounts)) {
    if (urlPath.startsWith(`/${prefix}/`)) {
      base = path.resolve(folder);
      rest = urlPath.slice(prefix.length + 1);
    }
  }
  if (rest.endsWith('/')) rest += 'index.html';
  const file = path.join(base, path.normalize(rest));
  // path.normalize keeps ".." from climbing above `base`, but check anyway.
  if (!file.startsWith(base + path.sep)) {
    response.writeHead(403);
    response.end();
    return;
  }
  let info;
  try {
    info = await stat(file);
  } catch {
    info = null;
  }
  if (!info || !info.isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end(`not found: ${urlPath}`);
    return;
  }
  response.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': 'no-store',
    // The wasm tests run on the test runner's own (cross-origin isolated) origin and load the
    // worker, sql.js and the demo from here: they need CORS and a cross-origin resource policy.
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file).pipe(response);
}

// Run as a program (`node tests/e2e/static-server.mjs DIR [URL_FILE]`): serves DIR until killed,
// prints its URL on the first line of standard output and, when URL_FILE is given, writes the
// URL there once the server listens. scripts/test.sh uses it for the wasm tests, which read
// that file at run time (tests/web_worker.rs).
if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  const [root = 'dist', urlFile] = process.argv.slice(2);
  const { url } = await startStaticServer(root);
  if (urlFile) await writeFile(urlFile, `${url}/\n`);
  console.log(url);
}
