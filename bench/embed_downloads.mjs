// What a reader's browser downloads for askdb demos on a documentation page (docs/embed.md):
// one demo, three demos on one page (all scrolled to), and three with only the first in view.
// The page and askdb are served as a documentation host would serve them: gzip (level 6, as
// most hosts) and cacheable (max-age), so a file a second demo needs again comes from the
// browser's cache. What the server sent is counted, file by file; each case starts with an
// empty cache. Prints a Markdown table for docs/benchmarks.md.
//
//   trunk build --offline --release && node bench/embed_downloads.mjs

import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = process.env.ASKDB_DIST ? path.resolve(process.env.ASKDB_DIST) : path.join(ROOT, 'dist');
const CHROMIUM = process.env.ASKDB_CHROMIUM ?? '/usr/bin/chromium';
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.wasm': 'application/wasm',
};

const DEMOS = [
  ['demo/shop.db', 'examples/shop.askdb.json', 'How many orders did customers in 東京都 place?'],
  ['examples/chinook/Chinook_Sqlite.sqlite', 'examples/chinook.askdb.json', 'Which five genres have sold the most tracks?'],
  ['demo/shop.db', 'examples/shop.askdb.json', 'How many orders did customers in 東京都 place?'],
];

/** A documentation page at /docs/NAME.html with `count` demos, `gap` px of text between them. */
function hostPage(count, gap) {
  const demos = DEMOS.slice(0, count).map(([db, replay, q], i) => `
<h2>Demo ${i + 1}</h2>
<askdb-demo id="demo-${i}" db="../askdb/${db}" replay="../askdb/${replay}" q="${q}"></askdb-demo>
<div style="height: ${gap}px"></div>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Docs</title></head>
<body><h1>Documentation</h1>${demos}
<script src="../askdb/askdb-embed.js"></script></body></html>`;
}

/** Serves dist/ at /askdb/ and the host pages at /docs/; counts what it sends. */
async function startServer(pages) {
  const sent = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://x');
    let body;
    let type;
    if (url.pathname.startsWith('/docs/')) {
      body = Buffer.from(pages[path.basename(url.pathname)] ?? '');
      type = TYPES['.html'];
    } else if (url.pathname.startsWith('/askdb/')) {
      const file = path.join(DIST, path.normalize(decodeURIComponent(url.pathname.slice('/askdb/'.length))));
      if (!file.startsWith(DIST) || !(await stat(file).catch(() => null))?.isFile()) {
        response.writeHead(404);
        response.end();
        return;
      }
      body = await readFile(file);
      type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    }
    if (!body) {
      response.writeHead(404);
      response.end();
      return;
    }
    const zipped = gzipSync(body, { level: 6 });
    sent.push({ path: url.pathname, raw: body.length, gzip: zipped.length });
    response.writeHead(200, {
      'content-type': type,
      'content-encoding': 'gzip',
      'content-length': zipped.length,
      'cache-control': 'public, max-age=3600',
    });
    response.end(zipped);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, sent, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

/** Opens `page` in a fresh context, brings demos `shown` into view, waits for their replays. */
async function measure(browser, server, page, shown) {
  server.sent.length = 0;
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const tab = await context.newPage();
  await tab.goto(`${server.url}/docs/${page}`);
  for (const index of shown) {
    const demo = tab.locator(`#demo-${index}`);
    await demo.scrollIntoViewIfNeeded();
    const frame = await (await tab.waitForSelector(`#demo-${index} iframe`)).contentFrame();
    await frame.waitForFunction(() => /finished/.test(document.querySelector('[data-testid="replay-state"]')?.textContent ?? ''), null, { timeout: 60_000 });
  }
  await tab.waitForLoadState('networkidle');
  await context.close();
  const files = server.sent.filter((s) => !s.path.startsWith('/docs/'));
  return {
    requests: files.length,
    raw: files.reduce((n, f) => n + f.raw, 0),
    gzip: files.reduce((n, f) => n + f.gzip, 0),
    files,
  };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;

const pages = { 'one.html': hostPage(1, 200), 'three.html': hostPage(3, 1500) };
const server = await startServer(pages);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const cases = [
    ['one demo', 'one.html', [0]],
    ['three demos, all scrolled to', 'three.html', [0, 1, 2]],
    ['three demos, only the first in view', 'three.html', [0]],
  ];
  console.log('| page | requests | on the wire (gzip) | uncompressed |\n| --- | ---: | ---: | ---: |');
  const details = [];
  for (const [label, page, shown] of cases) {
    const result = await measure(browser, server, page, shown);
    console.log(`| ${label} | ${result.requests} | ${kb(result.gzip)} | ${kb(result.raw)} |`);
    details.push([label, result]);
  }
  for (const [label, result] of details) {
    console.log(`\n${label}:\n`);
    const byFile = new Map();
    for (const file of result.files) {
      const name = file.path.replace('/askdb/', '');
      const seen = byFile.get(name) ?? { times: 0, gzip: 0 };
      byFile.set(name, { times: seen.times + 1, gzip: seen.gzip + file.gzip });
    }
    for (const [name, { times, gzip }] of [...byFile].sort((a, b) => b[1].gzip - a[1].gzip)) {
      console.log(`- ${name.split('?')[0]}${times > 1 ? ` (${times} times)` : ''}: ${kb(gzip)}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
