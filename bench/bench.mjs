// askdb's benchmark: the page's weight, the time to open large databases in headless
// Chromium, and three queries timed in the page against Python's sqlite3 on the same file.
//
//   node bench/bench.mjs [--orders 700000,2000000] [--runs 3]
//
// Needs a release build in dist/ (bench/run.sh builds it first and points ASKDB_DIST at it). Databases are generated
// with tests/datasets/big/make_big.py into /tmp/askdb-bench/ and kept there: the same
// --orders always gives the same content, so a file that exists is reused.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import {
  DIST, chooseFile, dataset, expectRows, setDeadlineSeconds, startSession, visibleText, waitForOpen,
} from '../tests/e2e/harness.mjs';

const { values: options } = parseArgs({
  options: {
    orders: { type: 'string', default: '700000,2000000' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string', default: '/tmp/askdb-bench' },
  },
});
const RUNS = Number(options.runs);
const MINUTES = 60_000;

const QUERIES = {
  'full-scan aggregate': 'SELECT count(*), sum(quantity * unit_price_cents) FROM order_items',
  'indexed join':
    'SELECT count(*), sum(oi.quantity) FROM orders o JOIN order_items oi ON oi.order_id = o.id ' +
    'WHERE o.customer_id BETWEEN 1000 AND 1200',
  'GROUP BY + ORDER BY':
    'SELECT p.category, count(*) AS n, sum(oi.quantity * oi.unit_price_cents) AS revenue ' +
    'FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.category ORDER BY revenue DESC',
};

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

/** Each query's rows (as the page shows them: text) and median time in Python's sqlite3. */
function pythonTimings(file) {
  const script = `
import json, sqlite3, statistics, sys, time
queries = json.loads(sys.argv[2]); runs = int(sys.argv[3])
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
out = {}
for name, sql in queries.items():
    times = []
    for _ in range(runs):
        t0 = time.perf_counter(); rows = db.execute(sql).fetchall(); times.append((time.perf_counter() - t0) * 1000)
    out[name] = {"ms": statistics.median(times), "rows": [[str(v) for v in row] for row in rows]}
print(json.dumps(out))`;
  return JSON.parse(execFileSync('python3', ['-c', script, file, JSON.stringify(QUERIES), String(RUNS)]).toString());
}

/** The page's own figure for the last query, in ms ("123 ms", "1.2 s", "1,234 ms"). */
async function pageElapsedMs(page) {
  const text = (await visibleText(page, 'result-elapsed')) ?? '';
  const match = text.replaceAll(',', '').match(/([\d.]+)\s*(ms|s)\b/);
  if (!match) return NaN;
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function benchDatabase(session, orders) {
  const file = makeDatabase(orders);
  const size = statSync(file).size;
  const python = pythonTimings(file);
  const page = await session.open();
  await setDeadlineSeconds(page, 600); // large scans outlast the default deadline
  const name = path.basename(file);
  const started = performance.now();
  await chooseFile(page, file);
  await waitForOpen(page, name, 10 * MINUTES);
  const openMs = performance.now() - started;

  const results = {};
  for (let run = 0; run < RUNS; run++) {
    // Round robin, so that each run changes the shown result and its end can be seen.
    for (const [query, sql] of Object.entries(QUERIES)) {
      const t0 = performance.now();
      await expectRows(page, sql, python[query].rows, { timeout: 10 * MINUTES });
      const wall = performance.now() - t0;
      results[query] ??= { page: [], wall: [] };
      results[query].page.push(await pageElapsedMs(page));
      results[query].wall.push(wall);
    }
  }
  await page.context().close();

  console.log(`\n## ${name}: ${(size / 1e6).toFixed(1)} MB, ${orders} orders\n`);
  console.log(`Open (file chosen until the status shows its tables): ${(openMs / 1000).toFixed(1)} s\n`);
  console.log('| query | page (result-elapsed) | page (click to table) | Python sqlite3 | page / Python |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const query of Object.keys(QUERIES)) {
    const inPage = median(results[query].page);
    const wall = median(results[query].wall);
    const py = python[query].ms;
    console.log(`| ${query} | ${inPage.toFixed(0)} ms | ${wall.toFixed(0)} ms | ${py.toFixed(0)} ms | ${(inPage / py).toFixed(2)} |`);
  }
}


console.log(`# askdb benchmark, ${new Date().toISOString().slice(0, 10)}`);
console.log(`machine: ${os.cpus()[0].model}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB;` +
  ` ${RUNS} runs per query, medians`);
pageWeight();
const session = await startSession();
try {
  for (const orders of options.orders.split(',').map(Number)) {
    await benchDatabase(session, orders);
  }
} finally {
  await session.close();
}
