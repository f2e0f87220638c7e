// What a visit downloads before the person does anything, and what each first action adds
// (issue 28: the first visit under 700 KB gzipped). Each case is a fresh browser context (an
// empty cache) on a page built by Trunk, served cacheable as hosts do (a file asked for again
// comes from the browser's cache, and is not counted again); every file the server sends is
// counted at its size gzipped with `gzip -9` (what a host that compresses sends).
//
// Cases:
//   first visit      the page at /, until the network has been quiet for 1.5 s
//   about to open    then the pointer over the database panel (SQLite's worker and the opening
//                    code start), quiet again
//   demo open        then "Open the demo", until the tables and their notes have settled
//   first visit, browser in Japanese
//                    the first visit with navigator.languages ja-JP (the catalogue fetched)
//   docs embed       ?embed=1 with the demo and its recorded conversation, until the replay has
//                    answered (what a reader of a documentation page downloads for one demo)
//
//   trunk build --offline --release && node bench/first_visit.mjs [--dist DIR ...]
//
// Several --dist (a build of another commit, say) print one column each.

import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.ASKDB_CHROMIUM ?? '/usr/bin/chromium';
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.wasm': 'application/wasm',
};
const QUIET_MS = 1500;
const EMBED = '?embed=1&db=demo/shop.db&replay=examples/shop.askdb.json';

function distsFromArgs(argv) {
  const dists = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dist') dists.push(path.resolve(argv[++i]));
  }
  return dists.length ? dists : [path.join(ROOT, 'dist')];
}

/** Serves `dist`; each file sent is counted in `sent` (name, gzip -9 bytes). */
async function startServer(dist) {
  const sizes = new Map();
  const sent = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://x');
    const name = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname).slice(1);
    const file = path.join(dist, path.normalize(name));
    if (!file.startsWith(dist) || !(await stat(file).catch(() => null))?.isFile()) {
      response.writeHead(404);
      response.end();
      return;
    }
    const body = await readFile(file);
    if (!sizes.has(name)) sizes.set(name, gzipSync(body, { level: 9 }).length);
    sent.push({ name, gzip: sizes.get(name) });
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      // As a documentation host serves files: a file asked for again comes from the cache.
      'cache-control': 'public, max-age=3600',
    });
    response.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, sent, close: () => server.close() };
}

/** Waits until no response has arrived for QUIET_MS. */
async function quiet(sent) {
  let count = -1;
  while (count !== sent.length) {
    count = sent.length;
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  }
}

function total(files) {
  return files.reduce((sum, file) => sum + file.gzip, 0);
}

async function measure(browser, dist) {
  const server = await startServer(dist);
  const cases = {};
  try {
    // First visit, then the pointer over the database panel, then the demo.
    {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.getByTestId('db-demo').waitFor();
      await quiet(server.sent);
      cases['first visit'] = server.sent.splice(0);
      await page.locator('section.database').hover();
      await quiet(server.sent);
      cases['about to open'] = server.sent.splice(0);
      await page.getByTestId('db-demo').click();
      await page.locator('[data-testid="db-status"][data-ready="true"]').waitFor();
      await quiet(server.sent);
      cases['demo open'] = server.sent.splice(0);
      await context.close();
    }
    // The first visit of a reader whose browser asks for Japanese (issue 41): the page fetches
    // its catalogue before it is drawn.
    {
      const context = await browser.newContext({ locale: 'ja-JP' });
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.getByTestId('db-demo').waitFor();
      await quiet(server.sent);
      cases['first visit, browser in Japanese'] = server.sent.splice(0);
      await context.close();
    }
    // The documentation embed: a recorded conversation replayed on the demo.
    {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/${EMBED}`);
      await page.locator('[data-testid="answer"]').waitFor({ timeout: 60_000 });
      await quiet(server.sent);
      cases['docs embed (replay)'] = server.sent.splice(0);
      await context.close();
    }
  } finally {
    server.close();
  }
  return cases;
}

const dists = distsFromArgs(process.argv.slice(2));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const results = [];
for (const dist of dists) results.push(await measure(browser, dist));
await browser.close();

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
console.log(`| case | ${dists.map((d) => path.relative(process.cwd(), d) || '.').join(' | ')} |`);
console.log(`| --- | ${dists.map(() => '---:').join(' | ')} |`);
for (const name of Object.keys(results[0])) {
  const cells = results.map((r) => `${r[name].length} files, ${kb(total(r[name]))}`);
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
for (const [i, dist] of dists.entries()) {
  console.log(`\n${dist}: files by case (gzip -9)`);
  for (const [name, files] of Object.entries(results[i])) {
    const list = files.map((f) => `${f.name} ${kb(f.gzip)}`).join(', ');
    console.log(`- ${name}: ${list}`);
  }
}
