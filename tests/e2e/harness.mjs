// Shared pieces of the end-to-end tests: the built page served on 127.0.0.1, headless
// Chromium driven by playwright-core, and helpers that speak the page's contract
// (its data-testid attributes and the window.askdbExport() test hook). The page is the one
// scripts/build-test-page.sh builds into target/test-page (with the test hooks, which the
// page people are served leaves out); ASKDB_DIST names another.

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { startStaticServer } from './static-server.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST = process.env.ASKDB_DIST ?? path.join(ROOT, 'target', 'test-page');
export const DATASETS = process.env.ASKDB_DATASETS ?? path.join(ROOT, 'tests', 'datasets');
export const CHROMIUM = process.env.ASKDB_CHROMIUM ?? '/usr/bin/chromium';

/** Generous upper bound for anything the page does on small data. */
export const STEP_TIMEOUT_MS = 30_000;

export function dataset(relative) {
  const file = path.join(DATASETS, relative);
  if (!existsSync(file)) {
    throw new Error(`dataset ${file} is missing: the datasets are expected in tests/datasets`);
  }
  return file;
}

/** The demo database's bytes, as the page serves it (the reference shop and its knowledge). */
export async function shopDbBytes() {
  return readFile(path.join(ROOT, 'www', 'demo', 'shop.db'));
}

/** A temporary folder, removed by the returned cleanup function. */
export async function tempDir(label) {
  const dir = await mkdtemp(path.join(tmpdir(), `askdb-${label}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Headless Chromium, as every test starts it. Its browser contexts block service workers
 * unless a test asks for them (`serviceWorkers: 'allow'`, offline.test.mjs): the page's own
 * (src/browser/offline.rs) would otherwise register at every open and download the whole page
 * again into its cache, about 5.6 MB per context, work that no other test looks at.
 */
export async function launchChromium() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ serviceWorkers: 'block', ...options });
  return browser;
}

/**
 * Serves dist/ (plus `mounts`, see static-server.mjs) and starts Chromium with a fresh
 * profile. Call `close()` in an `after` hook.
 */
export async function startSession({ mounts = {} } = {}) {
  if (!existsSync(path.join(DIST, 'index.html'))) {
    throw new Error(`${DIST}/index.html is missing: build the page for the tests first (scripts/build-test-page.sh)`);
  }
  const server = await startStaticServer(DIST, mounts);
  const browser = await launchChromium();
  return {
    url: server.url,
    browser,
    /**
     * A new page at "/" + `search`, in its own browser context (so nothing is shared between
     * tests) made with playwright's `context` options (viewport, colorScheme, …). `beforeLoad`
     * runs with the page before it loads; with `closeAfter` (a test), the context closes when
     * that test ends.
     */
    async open({ search = '', context: contextOptions = {}, beforeLoad, closeAfter } = {}) {
      const context = await browser.newContext({ acceptDownloads: true, ...contextOptions });
      closeAfter?.after(() => context.close());
      const page = await context.newPage();
      page.problems = [];
      page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
      await beforeLoad?.(page);
      await page.goto(`${server.url}/${search}`);
      await page.getByTestId('db-file').waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS });
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * One session (see `startSession`) for a whole test file: started before its first test and
 * closed after its last. The object returned stands for it (`open`, `url`).
 */
export function sessionForFile(options) {
  let session;
  before(async () => {
    session = await startSession(options);
  });
  after(() => session?.close());
  return {
    open: (options) => session.open(options),
    get url() {
      return session.url;
    },
  };
}

/**
 * Keeps every address `page` asks for, in order, on `page.requestsSeen` (each as its path
 * without the leading slash: `split_database.wasm`). Pass it as `open`'s `beforeLoad`.
 */
export function recordRequests(page) {
  page.requestsSeen = [];
  page.on('request', (request) => page.requestsSeen.push(new URL(request.url()).pathname.slice(1)));
}

/**
 * Polls `probe` (run in Node, may use the page) until `accept(value)` is true.
 * On timeout the error shows the last value seen, which is what one needs to debug.
 */
export async function waitUntil(what, probe, accept, timeout = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await probe();
    if (accept(last)) return last;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeout} ms waiting for ${what}; last seen: ${JSON.stringify(last)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * What would make `page` (a page or a frame) scroll sideways: the document wider than its
 * window, a panel wider than its box, an element ending past the window's right edge. Inside
 * a box that scrolls on its own (a wide result table, SQL) width is allowed. Empty when all fits.
 */
export async function sidewaysSpills(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // An element without a class is named by the start of its text.
    const name = (element) =>
      element.className
        ? `${element.tagName.toLowerCase()}.${element.className}`
        : `${element.tagName.toLowerCase()} "${element.textContent.slice(0, 40)}"`;
    const out = [];
    if (document.documentElement.scrollWidth > width) out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const element of document.querySelectorAll('body *')) {
      // What is visually hidden (for screen readers) is clipped to a pixel: it cannot spill.
      if (!element.checkVisibility() || element.closest('.table-scroll, pre, .visually-hidden')) continue;
      const box = element.getBoundingClientRect();
      if (box.right > width + 1) out.push(`${name(element)} ends at ${Math.round(box.right)} px`);
      if (element.matches('.panel') && element.scrollWidth > element.clientWidth) {
        out.push(`${name(element)} holds ${element.scrollWidth} px in ${element.clientWidth} px`);
      }
    }
    return out.slice(0, 10);
  });
}

/** Text of a test id's element, or null when it is absent or hidden. */
export async function visibleText(page, testId) {
  return page.evaluate((id) => {
    const element = document.querySelector(`[data-testid="${id}"]`);
    if (!element || !element.checkVisibility()) return null;
    return element.textContent.trim();
  }, testId);
}

export async function dbStatus(page) {
  return (await visibleText(page, 'db-status')) ?? '';
}

/** The status once nothing is loading (data-ready="true"), or null while something is. */
export async function settledStatus(page) {
  const ready = await page.getByTestId('db-status').getAttribute('data-ready');
  return ready === 'true' ? dbStatus(page) : null;
}

/**
 * Waits until the database `name` is open (its status gives a table count, in English or in
 * Japanese, 3 個のテーブル); returns the status.
 */
export async function waitForOpen(page, name, timeout = STEP_TIMEOUT_MS) {
  return waitUntil(
    `${name} to open`,
    () => settledStatus(page),
    (text) => text !== null && text.includes(name) && /\d+ (tables?|個のテーブル)/.test(text),
    timeout,
  );
}

/** Opens the demo database and waits until the status names it. */
export async function openDemo(page) {
  await page.getByTestId('db-demo').click();
  return waitForOpen(page, 'shop.db');
}

/** Sets the query deadline in the page's settings. */
export async function setDeadlineSeconds(page, seconds) {
  const input = page.getByTestId('setting-deadline');
  await input.fill(String(seconds));
  await input.dispatchEvent('change');
  await waitUntil(`the deadline to be ${seconds} s`, () => input.inputValue(), (v) => Number(v) === seconds);
}

/** Chooses a file in the file input: a path, or { name, mimeType, buffer }. */
export async function chooseFile(page, file) {
  await page.getByTestId('db-file').setInputFiles(file);
}

/** The schema panel's tables and views, by their data-name. */
export async function schemaNames(page) {
  return page.$$eval('[data-testid="schema-table"]', (items) => items.map((item) => item.dataset.name));
}

/** Types `sql` into the console and runs it with the run button or with Ctrl+Enter. */
export async function runSql(page, sql, { keys = false } = {}) {
  const input = page.getByTestId('sql-input');
  await input.fill(sql);
  if (keys) {
    await input.press('Control+Enter');
  } else {
    await page.getByTestId('sql-run').click();
  }
}

/**
 * The table inside test id `testId`'s element (the console's result by default) as
 * { columns, rows } of cell texts, or null when none is shown.
 */
export async function resultTable(page, testId = 'result') {
  return page.evaluate((id) => {
    const holder = document.querySelector(`[data-testid="${id}"]`);
    const table = holder && holder.checkVisibility() && holder.querySelector('table');
    if (!table) return null;
    const texts = (cells) => Array.from(cells, (cell) => cell.textContent.trim());
    return {
      columns: texts(table.querySelectorAll('thead th')),
      rows: Array.from(table.querySelectorAll('tbody tr'), (row) => texts(row.querySelectorAll('td'))),
    };
  }, testId);
}

/** Runs `sql` and waits until the shown result table passes `accept` and no error shows. */
export async function expectTable(page, sql, accept, what, options = {}) {
  await runSql(page, sql, options);
  const { table } = await waitUntil(
    `the result of ${sql} to be ${what}`,
    async () => ({ table: await resultTable(page), error: await visibleText(page, 'sql-error') }),
    ({ table, error }) => !error && table !== null && accept(table),
    options.timeout,
  );
  return table;
}

/** Runs `sql` and waits until the result's rows equal `rows` (cell texts) and no error shows. */
export async function expectRows(page, sql, rows, options = {}) {
  const expected = JSON.stringify(rows);
  return expectTable(page, sql, (table) => JSON.stringify(table.rows) === expected, expected, options);
}

/** Waits for the console's error (`what` names it in a timeout); returns its text. */
export async function waitForSqlError(page, timeout = STEP_TIMEOUT_MS, what = "the console's error") {
  return waitUntil(what, () => visibleText(page, 'sql-error'), Boolean, timeout);
}

/** Runs `sql` and waits for the console's error; returns its text. */
export async function expectSqlError(page, sql, options = {}) {
  await runSql(page, sql, options);
  return waitForSqlError(page, options.timeout, `an error for ${sql}`);
}

/**
 * Whether `exported` (from askdbExport) holds the same database as the file `original`.
 * sql.js writes a database out through SQLite, which rewrites a few header fields (write and
 * read versions, change counter, schema cookie, version-valid-for and SQLite version number:
 * bytes 18-19, 24-27, 40-43, 92-99); every other byte must be equal. Returns the offsets
 * that differ (empty when the same).
 */
export function databaseDifferences(exported, original) {
  if (exported.length !== original.length) return [`length ${exported.length} != ${original.length}`];
  const rewritten = (i) => (i >= 18 && i <= 19) || (i >= 24 && i <= 27) || (i >= 40 && i <= 43) || (i >= 92 && i <= 99);
  const differences = [];
  for (let i = 0; i < exported.length && differences.length < 20; i++) {
    if (exported[i] !== original[i] && !rewritten(i)) differences.push(i);
  }
  return differences;
}

/** The engine's current database bytes, through the page's test hook. */
export async function exportedBytes(page) {
  const base64 = await page.evaluate(async () => {
    if (typeof window.askdbExport !== 'function') {
      throw new Error('the page has no test hooks: build it with scripts/build-test-page.sh');
    }
    const bytes = await window.askdbExport();
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}
