// The page offline (issue 40, part 3). Once a database has opened, the page registers a service
// worker (www/sw.js, from src/browser/offline.rs) that keeps this build of the page: with the
// server gone, a reload shows the page, opens a local file and runs a query. A first visit and
// an embedded page register none. A new build is picked up on the next visit (or the reload of
// the only page open) and said once, while a page already open keeps the build it started
// with; a build that cannot be downloaded as listed is never used.
//
// A service worker belongs to an origin in a browser context, so each test has a server and a
// context of its own; the server's folder is a copy of the test page where a test changes it
// (a new build) and the server is closed where a test needs the network gone. Each test names
// the mutation it was seen to fail on (docs/testing.md, "The page offline").

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFile, cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  DIST,
  ROOT,
  STEP_TIMEOUT_MS,
  chooseFile,
  expectRows,
  launchChromium,
  openDemo,
  tempDir,
  visibleText,
  waitForOpen,
  waitUntil,
} from './harness.mjs';
import { startStaticServer } from './static-server.mjs';

let browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

/** A server of the test page (or of `folder`), closed when test `t` ends if still open. */
async function serve(t, folder = DIST) {
  const server = await startStaticServer(folder);
  let open = true;
  server.stop = async () => {
    if (open) await server.close();
    open = false;
  };
  t.after(() => server.stop());
  return server;
}

/** A copy of the test page that a test may change (a new build), removed when `t` ends. */
async function pageCopy(t) {
  const { dir, remove } = await tempDir('offline');
  t.after(remove);
  await cp(DIST, dir, { recursive: true });
  return dir;
}

/**
 * A browser context of its own, closed when `t` ends, that keeps the name of every file asked
 * for in it: by its pages and by its service worker (Playwright reports both to the context).
 */
async function newContext(t) {
  // The harness's contexts block service workers; these tests are about the page's own.
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  t.after(() => context.close());
  context.seen = [];
  context.on('request', (request) => {
    const from = request.serviceWorker() ? 'service worker' : 'page';
    context.seen.push({ name: new URL(request.url()).pathname.slice(1), from });
  });
  return context;
}

/** A new page of `context` at `url`, once the page is up (its database status is shown). */
async function visit(context, url) {
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  await page.goto(url);
  await page.getByTestId('db-status').waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS });
  return page;
}

/**
 * The version of the service worker that serves `page` (it says so when asked), or null (none,
 * or no answer within two seconds).
 */
function servedVersion(page) {
  return page.evaluate(() => {
    const controller = navigator.serviceWorker.controller;
    if (!controller) return null;
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      controller.postMessage({ type: 'askdb:version' }, [channel.port2]);
      setTimeout(() => resolve(null), 2000);
    });
  });
}

function waitUntilServed(page) {
  return waitUntil('a service worker to serve the page', () => servedVersion(page), Boolean);
}

/** How many service workers are registered for the page's origin, as the page sees it. */
function registrations(page) {
  return page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
}

/** Fails if a service worker is registered at any time in the next three seconds. */
async function noneRegisteredFor3s(page, what) {
  const end = Date.now() + 3000;
  while (Date.now() < end) {
    assert.equal(await registrations(page), 0, `${what}: no service worker is registered`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The version a built page's offline-files.js gives (scripts/offline-files.py). */
async function builtVersion(folder) {
  const listing = await readFile(path.join(folder, 'offline-files.js'), 'utf8');
  return listing.match(/"version": "([0-9a-f]+)"/)[1];
}

/**
 * A new build in `folder`: boot.js changed (a file index.html names without a hash of its
 * own), and the list of files and the version written again.
 */
async function rebuild(folder, marker) {
  await appendFile(path.join(folder, 'boot.js'), `\n// ${marker}\n`);
  execFileSync('python3', [path.join(ROOT, 'scripts', 'offline-files.py'), folder]);
}

/** The text of `file` as the page gets it (from its service worker, when one serves it). */
function fetchedText(page, file) {
  return page.evaluate(async (name) => (await fetch(name)).text(), file);
}

/** Waits until the requests seen in `context` have been quiet for a second. */
async function quiet(context) {
  let count = -1;
  while (count !== context.seen.length) {
    count = context.seen.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const isChunkOrSqlite = (name) =>
  /^(split|chunk)_.*\.wasm$/.test(name) || /^(worker\.js|rows\.js|sql-wasm\.(js|wasm)|lazy-worker\.js|sqlite-wasm\/.*)$/.test(name);

// Mutations: `crate::browser::offline::register(false)` called from `ui::mount` (at the page's
// start, not after an open): the first visit has a service worker, which downloads every chunk;
// scripts/offline-files.py leaving nothing out (`LEFT_OUT`): the embed script and the example
// are downloaded.
test('a first visit registers no service worker and downloads no chunk; opening a database registers one, which downloads the rest', async (t) => {
  const server = await serve(t);
  const context = await newContext(t);
  const page = await visit(context, `${server.url}/`);
  await quiet(context);
  const first = context.seen.map(({ name }) => name);
  assert.ok(first.includes('askdb_bg.wasm'), `the main wasm is among the first requests: ${first}`);
  // A worker's thread is started at the page's first quiet moment, with sql.js's scripts and
  // not its wasm (`AppState::rest_spare`).
  assert.deepEqual(
    first.filter(isChunkOrSqlite).sort(),
    ['rows.js', 'sql-wasm.js', 'worker.js'],
    "no chunk and no SQLite on a first visit, only its worker's scripts",
  );
  assert.equal(await registrations(page), 0, 'no service worker on a first visit');

  // The control: the same recording and the same question see the service worker once a
  // database has opened, and it downloads what the page has not asked for (yet).
  await openDemo(page);
  await waitUntilServed(page);
  assert.equal(await registrations(page), 1);
  const bySw = () => context.seen.filter(({ from }) => from === 'service worker').map(({ name }) => name);
  await waitUntil(
    'the service worker to download the chunks the page has not used',
    bySw,
    (names) => names.includes('split_assistant.wasm') && names.includes('askdb-import-worker_bg.wasm'),
  );
  // Only the page's own files: nothing for documentation pages (scripts/offline-files.py).
  const forDocs = bySw().filter((name) => /^(examples\/|embed-example\.html$|askdb-embed\.js$)/.test(name));
  assert.deepEqual(forDocs, [], 'the documentation example and the embed script are not kept');
  assert.deepEqual(page.problems, []);
});

// Mutations: the registration call removed from `ui::opening::show_database` (no service
// worker serves the page: "a service worker to serve the page" times out); sql-wasm.wasm left
// out of offline-files.js (the open with the server gone fails: SQLite cannot start).
test('after a database opened, a service worker serves the page; with the server gone, a reload shows the page, opens a local file and runs a query', async (t) => {
  const server = await serve(t);
  const context = await newContext(t);
  const page = await visit(context, `${server.url}/?db=demo%2Fshop.db`);
  await waitForOpen(page, 'shop.db');
  assert.equal(await waitUntilServed(page), await builtVersion(DIST), "the service worker is this build's");

  await server.stop();
  await page.reload();
  // The address's ?db= opens the demo again, from the service worker's copy.
  await waitForOpen(page, 'shop.db');
  // The control: the network is gone for whatever the service worker does not keep.
  const unkept = await page.evaluate(() => fetch('askdb-embed.js').then((r) => `status ${r.status}`, (e) => e.name));
  assert.equal(unkept, 'TypeError', 'a file the service worker does not keep cannot be downloaded');

  const { dir, remove } = await tempDir('offline-db');
  t.after(remove);
  const file = path.join(dir, 'field-notes.db');
  execFileSync('python3', [
    '-c',
    `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("CREATE TABLE notes (id INTEGER PRIMARY KEY, note TEXT); INSERT INTO notes (note) VALUES ('no network'), ('still works');")
db.commit()`,
    file,
  ]);
  await chooseFile(page, file);
  await waitForOpen(page, 'field-notes.db');
  await expectRows(page, 'SELECT id, note FROM notes ORDER BY id', [
    ['1', 'no network'],
    ['2', 'still works'],
  ]);
  assert.deepEqual(page.problems, []);
});

// Mutation: `register` in src/browser/offline.rs ignoring its `embedded` argument (the address's
// `?embed=`, as `ui::opening` passes it).
test('with the server gone, a database kept in this browser reopens from Recent databases and the console queries it', async (t) => {
  const server = await serve(t);
  const context = await newContext(t);
  const page = await visit(context, server.url);
  await chooseFile(page, path.join(ROOT, 'www', 'demo', 'shop.db'));
  await waitForOpen(page, 'shop.db');
  await page.getByTestId('keep-db').click();
  await page.getByTestId('kept').waitFor({ timeout: STEP_TIMEOUT_MS });
  await waitUntilServed(page);

  await server.stop();
  await page.reload();
  await page.getByTestId('recent-reopen').first().click();
  await waitForOpen(page, 'shop.db');
  // The control: the network is gone for whatever the service worker does not keep.
  const unkept = await page.evaluate(() => fetch('askdb-embed.js').then((r) => `status ${r.status}`, (e) => e.name));
  assert.equal(unkept, 'TypeError');
  await expectRows(page, 'SELECT COUNT(*) FROM customers', [['6']]);
  assert.deepEqual(page.problems, []);
});

test('?embed=1 registers no service worker, even after a database opened', async (t) => {
  const server = await serve(t);
  const context = await newContext(t);
  const embedded = await visit(context, `${server.url}/?embed=1&db=demo%2Fshop.db`);
  await waitForOpen(embedded, 'shop.db');
  await noneRegisteredFor3s(embedded, 'the embedded page opened a database');

  // The control: the full page of the same origin, in the same context, registers one.
  const full = await visit(context, `${server.url}/?db=demo%2Fshop.db`);
  await waitForOpen(full, 'shop.db');
  await waitUntil('a service worker to be registered', () => registrations(full), (count) => count === 1);
  assert.deepEqual([...embedded.problems, ...full.problems], []);
});

// Mutation: `register` in src/browser/offline.rs ignoring `in_a_frame()`.
test('the page inside another site’s iframe registers no service worker, even after a database opened', async (t) => {
  const server = await serve(t);
  const { dir, remove } = await tempDir('offline-host');
  t.after(remove);
  await writeFile(
    path.join(dir, 'host.html'),
    `<!doctype html><title>host</title><iframe src="${server.url}/" width="1000" height="800"></iframe>`,
  );
  const host = await serve(t, dir);
  const context = await newContext(t);
  const page = await context.newPage();
  await page.goto(`${host.url}/host.html`);
  const frame = await waitUntil('the framed page', () => page.frames().find((f) => f.url().startsWith(server.url)), Boolean);
  await frame.getByTestId('db-demo').waitFor({ timeout: STEP_TIMEOUT_MS });
  await openDemo(frame);
  await noneRegisteredFor3s(frame, 'the framed page opened a database');

  // The control: the same page, not framed, in the same context, registers one.
  const full = await visit(context, `${server.url}/`);
  await openDemo(full);
  await waitUntil('a service worker to be registered', () => registrations(full), (count) => count === 1);
});

// Mutations: `skipWaiting()` at the end of sw.js's install (the new build takes over the page
// already open: "the open page keeps its build" fails); www/boot.js no longer keeping the
// version it saw (`localStorage.setItem` removed: the note never comes, nothing to compare).
test('a new build is picked up on the next visit and said once; the page already open keeps its build', async (t) => {
  const folder = await pageCopy(t);
  const server = await serve(t, folder);
  const context = await newContext(t);
  const first = await visit(context, `${server.url}/`);
  await openDemo(first);
  const old = await waitUntilServed(first);
  await first.close();

  // The visit after: the service worker serves this build, and the page remembers it.
  const MARKER = 'the second build';
  await rebuild(folder, MARKER);
  const fresh = await builtVersion(folder);
  assert.notEqual(fresh, old, 'a new build is a new version');
  const open = await visit(context, `${server.url}/`);
  assert.equal(await servedVersion(open), old);
  // Visiting checks for a new build: it is found, downloaded, and waits (or, were it to take
  // over at once, serves this page from then on: the next assertion would say so).
  await waitUntil(
    'the new build to be installed',
    async () => ({
      waiting: await open.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null),
      served: await servedVersion(open),
    }),
    ({ waiting, served }) => waiting === 'installed' || served !== old,
  );
  assert.equal(await servedVersion(open), old, 'the open page keeps its build');
  assert.ok(!(await fetchedText(open, 'boot.js')).includes(MARKER), "the open page keeps its build's files");
  await openDemo(open);
  await expectRows(open, 'SELECT COUNT(*) FROM customers', [['6']]);
  assert.equal(await visibleText(open, 'update-note'), null, 'nothing said: this page runs the build it ran before');
  await open.close();

  // The next visit: the new build, said in one line.
  const next = await visit(context, `${server.url}/`);
  assert.equal(await servedVersion(next), fresh);
  assert.ok((await fetchedText(next, 'boot.js')).includes(MARKER), "the new build's files");
  const note = await waitUntil('the update to be said', () => visibleText(next, 'update-note'), Boolean);
  assert.equal(note, 'askdb was updated.');
  assert.equal(await next.getByTestId('update-note').getAttribute('role'), 'status');
  await next.close();

  // Said once: the visit after that says nothing (its service worker was asked, as before).
  const later = await visit(context, `${server.url}/`);
  assert.equal(await servedVersion(later), fresh);
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(await visibleText(later, 'update-note'), null, 'said once');
  assert.deepEqual([...open.problems, ...next.problems, ...later.problems], []);
});

// Mutations: sw.js's `takeOver` not counting the pages open (`alone` always true: with a second
// page open, the reload takes the new build, and the other page is served by it);
// www/boot.js never asking to take over (the reload of the only page keeps the old build).
test('a reload picks up a new build only when no other page of the old one is open', async (t) => {
  const folder = await pageCopy(t);
  const server = await serve(t, folder);
  const context = await newContext(t);
  const other = await visit(context, `${server.url}/`);
  await openDemo(other);
  const old = await waitUntilServed(other);
  const page = await visit(context, `${server.url}/`);
  assert.equal(await servedVersion(page), old);

  await rebuild(folder, 'the second build');
  const fresh = await builtVersion(folder);
  await page.reload();
  await waitUntil(
    'the new build to be installed',
    () => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null),
    (state) => state === 'installed',
  );
  // Another page of the old build is open: the reload keeps the old build, for both.
  await page.reload();
  await page.getByTestId('db-status').waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS });
  assert.equal(await servedVersion(page), old, 'the reloaded page keeps the old build while another page runs it');
  assert.equal(await servedVersion(other), old, 'the other page keeps its build');
  await openDemo(other);
  await expectRows(other, 'SELECT COUNT(*) FROM customers', [['6']]);
  await other.close();

  // The only page left: its reload takes the new build, the page starts again from it (a
  // second load: counted from outside, as the page is not asked anything while it reloads)
  // and says so.
  let loads = 0;
  page.on('load', () => (loads += 1));
  await page.reload();
  await waitUntil('the page to start again from the new build', () => loads, (count) => count >= 2);
  await page.getByTestId('db-status').waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS });
  assert.equal(await servedVersion(page), fresh);
  const note = await waitUntil('the update to be said', () => visibleText(page, 'update-note'), Boolean);
  assert.equal(note, 'askdb was updated.');
  await openDemo(page);
  await expectRows(page, 'SELECT COUNT(*) FROM customers', [['6']]);
  assert.deepEqual(page.problems, []);
});

// Mutation: no `integrity` on the service worker's downloads (sw.js `fillCache`): the build
// whose file does not match its list is installed.
test('a build whose files are not the ones listed (a server half-way through an update) is never installed', async (t) => {
  const folder = await pageCopy(t);
  const server = await serve(t, folder);
  const context = await newContext(t);
  const first = await visit(context, `${server.url}/`);
  await openDemo(first);
  const old = await waitUntilServed(first);

  // The list says one boot.js, the server has another.
  await rebuild(folder, 'listed');
  await appendFile(path.join(folder, 'boot.js'), '// not what was listed\n');
  const outcome = await first.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration.update();
    const worker = registration.installing ?? registration.waiting;
    if (!worker) return 'no new build found';
    if (worker.state !== 'installing') return worker.state;
    return new Promise((resolve) => {
      worker.addEventListener('statechange', () => {
        if (worker.state !== 'installing') resolve(worker.state);
      });
    });
  });
  assert.equal(outcome, 'redundant', 'the new build is dropped, not installed');
  await first.close();

  const next = await visit(context, `${server.url}/`);
  assert.equal(await servedVersion(next), old, 'the build that was complete still serves the page');
  await openDemo(next);
  await expectRows(next, 'SELECT COUNT(*) FROM customers', [['6']]);
  assert.deepEqual(next.problems, []);
});
