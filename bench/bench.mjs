// askdb's benchmark: the page's weight, the time to open large databases in headless
// Chromium, and three queries timed in the page against Python's sqlite3 on the same file.
//
//   node bench/bench.mjs [--orders 700000,2000000] [--runs 3]
//   node bench/bench.mjs --db /work/bigdata/big305.db --only open --runs 5
//
// Needs a release build in dist/ (bench/run.sh builds it first and points ASKDB_DIST at it). Databases are generated
// with tests/datasets/big/make_big.py into /tmp/askdb-bench/ and kept there: the same
// --orders always gives the same content, so a file that exists is reused. `--db` takes
// files made before instead (comma-separated). `--only open|queries|weight` runs one part.
//
// Opening is timed from choosing the file until the schema panel shows its tables, and until
// the status settles (the database identified, what the model sees prepared, its notes
// read), `--runs` times (a fresh page each time), with the browser's memory at most and once
// settled; when the page reports its own steps
// (window.askdbOpenSteps()), their medians are printed too: where the open time goes.
//
// `--engine in-memory|on-demand` opens every file that way, whatever its size (the test page's
// window.askdbOpenOnDemandFrom); without it the page chooses by size (engine::kind).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { browserRssMb } from './memory.mjs';
import { MINUTES, QUERIES, median, pageElapsedMs, pythonOnce, pythonTimings, timedQuery } from './page_timing.mjs';
import {
  DIST, chooseFile, dataset, setDeadlineSeconds, startSession, waitForOpen,
} from '../tests/e2e/harness.mjs';

const { values: options } = parseArgs({
  options: {
    orders: { type: 'string', default: '700000,2000000' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string', default: '/tmp/askdb-bench' },
    db: { type: 'string' },
    only: { type: 'string' },
    engine: { type: 'string' },
  },
});
const RUNS = Number(options.runs);

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function pageWeight() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(DIST);
  console.log('\n## Page weight (dist/)\n');
  console.log('| file | raw | gzip -9 |\n| --- | ---: | ---: |');
  let raw = 0;
  let gz = 0;
  let rawNoDemo = 0;
  let gzNoDemo = 0;
  for (const file of files.sort()) {
    const bytes = readFileSync(file);
    const zipped = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += zipped;
    if (!file.includes(`${path.sep}demo${path.sep}`)) {
      rawNoDemo += bytes.length;
      gzNoDemo += zipped;
    }
    console.log(`| ${path.relative(DIST, file)} | ${kb(bytes.length)} | ${kb(zipped)} |`);
  }
  console.log(`| **total** | **${kb(raw)}** | **${kb(gz)}** |`);
  console.log(`| total without demo/ | ${kb(rawNoDemo)} | ${kb(gzNoDemo)} |`);
}

function makeDatabase(orders) {
  mkdirSync(options.out, { recursive: true });
  const file = path.join(options.out, `big-${orders}.db`);
  if (!existsSync(file)) {
    console.error(`generating ${file} ...`);
    execFileSync('python3', [dataset('big/make_big.py'), file, '--orders', String(orders)], { stdio: 'inherit' });
  }
  return file;
}

/** The page's own account of its last open: [{ step, ms }], or [] when it gives none. */
async function openSteps(page) {
  return page.evaluate(() => (window.askdbOpenSteps ? window.askdbOpenSteps() : []));
}

/** Makes the page open local files the way `--engine` asks, if it asks. */
async function chooseEngine(page) {
  if (!options.engine) return;
  const from = { 'in-memory': Number.MAX_SAFE_INTEGER, 'on-demand': 0 }[options.engine];
  if (from === undefined) throw new Error(`--engine is in-memory or on-demand, not ${options.engine}`);
  await page.evaluate((from) => window.askdbOpenOnDemandFrom(from), from);
}

/**
 * Points at the database panel, as a person does before choosing a file, and gives the page
 * the moment that takes: it starts SQLite's worker and downloads the opening code then
 * (`ui::intake::expect_open`). A page that starts them at load does nothing more here.
 */
async function aboutToOpen(page) {
  await page.locator('section.database').hover();
  await page.waitForLoadState('networkidle');
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/** Polls (every 10 ms) until the schema panel lists tables; the time it took. */
async function untilTablesShown(page, started) {
  await page.waitForFunction(() => document.querySelector('[data-testid="schema-table"]') !== null, null, {
    polling: 10,
    timeout: 10 * MINUTES,
  });
  return performance.now() - started;
}

/**
 * Opens `file` in a fresh page `RUNS` times: the median time until its tables are shown and
 * until everything settled, and each step's median.
 */
async function benchOpen(session, file) {
  const name = path.basename(file);
  const totals = [];
  const shown = [];
  const peaks = [];
  const settled = [];
  const steps = new Map();
  for (let run = 0; run < RUNS; run++) {
    const page = await session.open();
    await chooseEngine(page);
    await aboutToOpen(page);
    // The browser's memory (all its processes) from just before the file is chosen: at most
    // while opening, sampled every 100 ms, and once everything settled.
    const before = browserRssMb();
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, browserRssMb()); }, 100);
    const started = performance.now();
    try {
      await chooseFile(page, file);
      shown.push(await untilTablesShown(page, started));
      await waitForOpen(page, name, 10 * MINUTES);
      totals.push(performance.now() - started);
    } finally {
      clearInterval(sampler);
    }
    peaks.push(Math.max(peak, browserRssMb()) - before);
    settled.push(browserRssMb() - before);
    for (const { step, ms } of await openSteps(page)) {
      if (!steps.has(step)) steps.set(step, []);
      steps.get(step).push(ms);
    }
    await page.context().close();
  }
  return {
    ms: median(totals),
    all: totals,
    shownMs: median(shown),
    shown,
    peakMb: median(peaks),
    settledMb: median(settled),
    steps: [...steps].map(([step, ms]) => ({ step, ms: median(ms) })),
  };
}

function printOpen(file, open) {
  const size = statSync(file).size;
  console.log(`\n## Opening ${path.basename(file)}: ${(size / 1e6).toFixed(1)} MB\n`);
  const seconds = (list) => list.map((ms) => (ms / 1000).toFixed(2)).join(', ');
  console.log(`File chosen until its tables are shown: ${(open.shownMs / 1000).toFixed(2)} s (median of ${seconds(open.shown)} s)\n`);
  console.log(`File chosen until the status settles (identified, model's view and notes ready): ${(open.ms / 1000).toFixed(2)} s (median of ${seconds(open.all)} s)\n`);
  console.log(`Browser memory while opening: +${open.peakMb.toFixed(0)} MB at most (${(open.peakMb / (size / 1e6)).toFixed(2)}× the file), +${open.settledMb.toFixed(0)} MB once settled (medians)\n`);
  if (open.steps.length > 0) {
    console.log('| step (as the page times it) | median |\n| --- | ---: |');
    for (const { step, ms } of open.steps) console.log(`| ${step} | ${ms.toFixed(0)} ms |`);
  }
}

async function benchDatabase(session, file, orders) {
  const size = statSync(file).size;
  if (options.only === 'open') {
    printOpen(file, await benchOpen(session, file));
    return;
  }
  const python = pythonTimings(file, 1); // the rows to expect (and the file in the OS cache)
  const page = await session.open();
  await setDeadlineSeconds(page, 600); // large scans outlast the default deadline
  await chooseEngine(page);
  await aboutToOpen(page);
  const name = path.basename(file);
  const started = performance.now();
  await chooseFile(page, file);
  await waitForOpen(page, name, 10 * MINUTES);
  const openMs = performance.now() - started;

  // Round robin, each page run followed by Python's on the same query, so that both see the
  // same load; each run changes the shown result, so its end can be seen.
  const results = {};
  for (let run = 0; run < RUNS; run++) {
    for (const [query, sql] of Object.entries(QUERIES)) {
      const { wall, own } = await timedQuery(page, sql, python[query].rows);
      const r = (results[query] ??= { page: [], sql: [], decode: [], wall: [], python: [] });
      r.page.push(own ? own.total_ms : await pageElapsedMs(page));
      r.sql.push(own ? own.sql_ms : NaN);
      r.decode.push(own ? own.decode_ms : NaN);
      r.wall.push(wall);
      r.python.push(pythonOnce(file, sql));
    }
  }
  await page.context().close();

  console.log(`\n## ${name}: ${(size / 1e6).toFixed(1)} MB${orders ? `, ${orders} orders` : ''}\n`);
  console.log(`Open (file chosen until the status settles): ${(openMs / 1000).toFixed(1)} s\n`);
  console.log(
    '| query | SQLite in the worker | page (result-elapsed) | of which message and back | decode | click to table | Python sqlite3 | page / Python | click to table / Python |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const ms = (value) => (Number.isNaN(value) ? '—' : `${value.toFixed(value < 10 ? 1 : 0)} ms`);
  for (const query of Object.keys(QUERIES)) {
    const r = results[query];
    const inPage = median(r.page);
    const sqlMs = median(r.sql);
    const py = median(r.python);
    console.log(
      `| ${query} | ${ms(sqlMs)} | ${ms(inPage)} | ${ms(inPage - sqlMs)} | ${ms(median(r.decode))} | ${ms(median(r.wall))} | ${ms(py)} | ${(inPage / py).toFixed(2)} | ${(median(r.wall) / py).toFixed(2)} |`,
    );
  }
}

console.log(`# askdb benchmark, ${new Date().toISOString().slice(0, 10)}`);
console.log(`machine: ${os.cpus()[0].model}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB;` +
  ` ${RUNS} runs per query, medians`);
if (!options.only || options.only === 'weight') pageWeight();
const files = options.db
  ? options.db.split(',').map((file) => ({ file, orders: null }))
  : options.orders.split(',').map(Number).map((orders) => ({ file: makeDatabase(orders), orders }));
const session = options.only === 'weight' ? null : await startSession();
try {
  for (const { file, orders } of session ? files : []) {
    await benchDatabase(session, file, orders);
  }
} finally {
  await session?.close();
}
