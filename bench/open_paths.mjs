// Opening a large file by each path a person takes, and the first queries after it (issue 43).
//
//   ASKDB_DIST=dist node bench/open_paths.mjs --db A.db,B.db [--runs 3] [--paths pointer,input,input-later,drop,keyboard] [--queries 10]
//
// Each run is a fresh page (an empty cache, nothing started). The paths:
//   pointer   the pointer rests on the database panel first (SQLite's worker and the opening
//             code start then: `ui::intake::expect_open`), the network goes quiet, then the
//             file is chosen: what bench/bench.mjs measures;
//   input     the file is given to the file input with nothing before it (no pointer, no
//             focus), as soon as the page is there: nothing is started ahead;
//   input-later  the same, once the page has been quiet for a second (a person reads the page
//             before choosing): what the page starts by itself at its first quiet moment
//             has started;
//   drop      the file is dragged over the page (`dragenter`) and dropped 300 ms later, as a
//             quick drag does;
//   keyboard  the focus reaches the file input ("Open a file…"), and the file is chosen 500 ms
//             later (a person choosing in the browser's dialog takes longer).
// Timed inside the page, from the `change` of the input (or the `drop`) until the schema panel
// lists a table, so that the driver's own delays are not counted. Each figure is the median of
// `--runs`, with the lowest and highest beside it. When the page gives its own steps (the test
// page's `askdbOpenSteps`: ASKDB_DIST=target/test-page) they are printed too, the same way: the
// opening code's download, the wait for SQLite to load, what the worker read (the schema's
// pages or the whole file), the schema, the row counts and the identity.
//
// With `--queries N`, after one more open by the input path, each of bench/bench.mjs's three
// queries runs N times in a row in the console: the page's time for the 1st, 2nd and Nth run,
// and the median of the 2nd to Nth, against Python's sqlite3 on the same file (median of N).

import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DIST, setDeadlineSeconds, startSession, waitForOpen } from '../tests/e2e/harness.mjs';
import { MINUTES, QUERIES, median, pageElapsedMs, pythonOnce, pythonTimings, timedQuery } from './page_timing.mjs';

const { values: options } = parseArgs({
  options: {
    db: { type: 'string' },
    runs: { type: 'string', default: '3' },
    paths: { type: 'string', default: 'pointer,input,input-later,drop,keyboard' },
    queries: { type: 'string', default: '0' },
  },
});
if (!options.db) throw new Error('--db A.db[,B.db]: the files to open (tests/datasets/big/make_big.py makes them)');
const RUNS = Number(options.runs);
const QUERY_RUNS = Number(options.queries);

/** Starts timing in the page: resolves with the ms from the input's change (or the drop) to the first table shown. */
function armTimer(page) {
  return page.evaluate(() => {
    window.__benchShown = new Promise((resolve) => {
      let from = null;
      const start = () => {
        from ??= performance.now();
      };
      document.querySelector('[data-testid="db-file"]').addEventListener('change', start, { capture: true, once: true });
      window.addEventListener('drop', start, { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (from !== null && document.querySelector('[data-testid="schema-table"]')) {
          observer.disconnect();
          resolve(performance.now() - from);
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
  });
}

const PATHS = {
  async pointer(page, file) {
    await page.locator('section.database').hover();
    await page.waitForLoadState('networkidle');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.getByTestId('db-file').setInputFiles(file);
  },
  async input(page, file) {
    await page.getByTestId('db-file').setInputFiles(file);
  },
  async 'input-later'(page, file) {
    await page.waitForLoadState('networkidle');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.getByTestId('db-file').setInputFiles(file);
  },
  async drop(page, file) {
    // The file reaches the page through an input of the bench's own (no copy of its bytes),
    // then travels in a DataTransfer as a dragged file does.
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-drag-source';
      input.hidden = true;
      document.body.append(input);
    });
    await page.locator('#bench-drag-source').setInputFiles(file);
    await page.evaluate(async () => {
      const data = new DataTransfer();
      data.items.add(document.getElementById('bench-drag-source').files[0]);
      const fire = (type) => document.body.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      fire('dragenter');
      fire('dragover');
      await new Promise((resolve) => setTimeout(resolve, 300));
      fire('drop');
    });
  },
  async keyboard(page, file) {
    await page.getByTestId('db-file').focus();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await page.getByTestId('db-file').setInputFiles(file);
  },
};

const spread = (values) => {
  const s = (ms) => (ms / 1000).toFixed(2);
  return `${s(median(values))} s (${s(Math.min(...values))}–${s(Math.max(...values))})`;
};

async function openBy(session, pathName, file) {
  const page = await session.open();
  await armTimer(page);
  await PATHS[pathName](page, file);
  const shown = await page.evaluate(() => window.__benchShown);
  await waitForOpen(page, path.basename(file), 10 * MINUTES);
  const steps = await page.evaluate(() => (window.askdbOpenSteps ? window.askdbOpenSteps() : []));
  return { page, shown, steps };
}

async function benchPaths(session, file) {
  console.log(`\n## ${path.basename(file)}: ${(statSync(file).size / 1e6).toFixed(1)} MB, file chosen or dropped until its tables are shown\n`);
  console.log(`| path | median (lowest–highest) of ${RUNS} |\n| --- | ---: |`);
  const stepsByPath = new Map();
  for (const name of options.paths.split(',')) {
    if (!PATHS[name]) throw new Error(`--paths: ${Object.keys(PATHS).join(', ')}, not ${name}`);
    const shown = [];
    const steps = new Map();
    for (let run = 0; run < RUNS; run++) {
      const opened = await openBy(session, name, file);
      shown.push(opened.shown);
      for (const { step, ms } of opened.steps) steps.set(step, [...(steps.get(step) ?? []), ms]);
      await opened.page.context().close();
    }
    console.log(`| ${name} | ${spread(shown)} |`);
    stepsByPath.set(name, steps);
  }
  const names = [...stepsByPath.keys()];
  const allSteps = [...new Set(names.flatMap((name) => [...stepsByPath.get(name).keys()]))];
  if (allSteps.length > 0) {
    console.log(`\nThe page's own steps (ms: median, lowest–highest):\n\n| step | ${names.join(' | ')} |\n| --- |${names.map(() => ' ---: |').join('')}`);
    for (const step of allSteps) {
      const cells = names.map((name) => {
        const values = stepsByPath.get(name).get(step);
        if (!values) return '—';
        const ms = (value) => value.toFixed(0);
        return `${ms(median(values))} (${ms(Math.min(...values))}–${ms(Math.max(...values))})`;
      });
      console.log(`| ${step} | ${cells.join(' | ')} |`);
    }
  }
}

async function benchFirstQueries(session, file) {
  const python = pythonTimings(file, 1);
  const { page } = await openBy(session, 'input', file);
  await setDeadlineSeconds(page, 600);
  console.log(`\n## ${path.basename(file)}: each query ${QUERY_RUNS} times in a row right after the open (input path)\n`);
  console.log(`| query | 1st | 2nd | ${QUERY_RUNS}th | 2nd–${QUERY_RUNS}th (median) | Python (median of ${QUERY_RUNS}) | 1st / Python | 2nd / Python | ${QUERY_RUNS}th / Python | 2nd–${QUERY_RUNS}th / Python |`);
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [query, sql] of Object.entries(QUERIES)) {
    const times = [];
    for (let run = 0; run < QUERY_RUNS; run++) {
      // Each run's rows differ (its number in a column of their own), so that the end of a run
      // cannot be taken for the one before; the plan is the same.
      const numbered = sql.replace(/^SELECT /, `SELECT ${run + 1} AS run, `);
      const rows = python[query].rows.map((row) => [String(run + 1), ...row]);
      const { own } = await timedQuery(page, numbered, rows);
      times.push(own ? own.total_ms : await pageElapsedMs(page));
    }
    const py = median(Array.from({ length: QUERY_RUNS }, () => pythonOnce(file, sql)));
    // The later runs' median as well: one run of a 20 ms query moves by a third with this
    // machine's noise.
    const at = [times[0], times[1], times[QUERY_RUNS - 1], median(times.slice(1))];
    const ms = (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
    console.log(`| ${query} | ${at.map(ms).join(' | ')} | ${ms(py)} | ${at.map((t) => (t / py).toFixed(2)).join(' | ')} |`);
  }
  await page.context().close();
}

console.log(`# askdb: opening by each path, ${new Date().toISOString().slice(0, 10)}`);
console.log(`machine: ${os.cpus()[0].model}, ${os.cpus().length} cores; page: ${DIST}`);
const session = await startSession();
try {
  for (const file of options.db.split(',')) {
    await benchPaths(session, file);
    if (QUERY_RUNS >= 2) await benchFirstQueries(session, file);
  }
} finally {
  await session.close();
}
