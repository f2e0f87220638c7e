// The importer in the page against Python on the same CSV (issue 27, docs/benchmarks.md):
// bench/import_csv.py's generated file (made here when missing), imported by the import worker
// (askdb-import-worker, the wasm Trunk builds as a worker) in headless Chromium, timed from
// starting the worker until the database's bytes are back, with the browser's resident memory
// sampled meanwhile; then Python's csv + sqlite3 (executemany in one transaction) on the file.
//
//   trunk build --release && node bench/import_csv.mjs [--dist dist] [--rows 1000000] [--runs 3]
//
// (The native importer's figure: cargo bench --bench import_csv.) Figures only, no assertions
// beyond the import having written every row.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startStaticServer } from '../tests/e2e/static-server.mjs';
import { browserRssMb } from './memory.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const { values: options } = parseArgs({
  options: {
    dist: { type: 'string', default: path.join(ROOT, 'dist') },
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '3' },
    csv: { type: 'string' },
    'no-python': { type: 'boolean', default: false },
    keep: { type: 'string' }, // where to keep a small database made (to look at it)
  },
});
const csv = options.csv ?? `/tmp/askdb-import/rows_${options.rows}.csv`;
if (!existsSync(csv)) {
  execFileSync('python3', [path.join(ROOT, 'bench/import_csv.py'), 'generate', '--rows', options.rows, '--out', csv], { stdio: 'inherit' });
}
const fileMb = statSync(csv).size / 1e6;
// Other work on the machine doubles these figures (measured): say how busy it was.
const load = () => os.loadavg()[0].toFixed(2);
console.log(`load average (1 min) at the start: ${load()} on ${os.cpus().length} cores`);

// A bare page beside the built one: a file input, and the worker started as the page's client
// (src/import/client.rs) starts it.
const pageDir = mkdtempSync(path.join(os.tmpdir(), 'askdb-import-bench-'));
writeFileSync(path.join(pageDir, 'index.html'), `<!doctype html><meta charset="utf-8">
<input type="file" id="f" multiple><script src="bench.js"></script>`);
writeFileSync(path.join(pageDir, 'bench.js'), `
window.runImport = () => new Promise((resolve, reject) => {
  const started = performance.now();
  const worker = new Worker('/askdb-import-worker_loader.js');
  let ready = 0;
  let firstPass = 0;
  worker.onmessage = (event) => {
    const d = event.data;
    if (d.ready) {
      ready = performance.now() - started;
      worker.postMessage({ type: 'start', base: location.origin + '/', files: [...document.getElementById('f').files] });
    } else if (d.progress !== undefined) {
      window.lastProgress = d;
      // The first pass (reading and inferring the columns' types) is half the work counted.
      if (!firstPass && d.progress >= 0.5) firstPass = performance.now() - started;
    } else if (d.done) {
      const ms = performance.now() - started;
      worker.terminate();
      resolve({ ms, readyMs: ready, firstPassMs: firstPass, bytes: d.bytes.length, small: d.bytes.length < 5e6 ? Array.from(d.bytes) : null, report: JSON.parse(d.report), sentences: d.sentences });
    } else {
      worker.terminate();
      reject(new Error(d.error));
    }
  };
  worker.onerror = (e) => reject(new Error(e.message));
});`);

const server = await startStaticServer(options.dist, { bench: pageDir });
const browser = await chromium.launch({
  executablePath: process.env.ASKDB_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = [];
const peaks = [];
try {
  for (let run = 0; run < Number(options.runs); run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/bench/index.html`);
    await page.locator('#f').setInputFiles(csv);
    const before = browserRssMb();
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, browserRssMb()); }, 100);
    const result = await page.evaluate(() => window.runImport());
    clearInterval(sampler);
    const table = result.report.files[0].tables[0];
    if (table.rows_written !== table.rows_read) throw new Error(`rows read ${table.rows_read}, written ${table.rows_written}`);
    if (result.small) {
      // A small database is checked whole: SQLite reads back every row written.
      const file = options.keep ?? path.join(pageDir, 'made.db');
      writeFileSync(file, Buffer.from(result.small));
      const count = execFileSync('python3', ['-c', `import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM "${table.table}"').fetchone()[0])`, file], { encoding: 'utf8' });
      if (Number(count) !== table.rows_written) throw new Error(`the database made holds ${count} rows`);
    }
    times.push(result.ms / 1000);
    peaks.push(peak - before);
    console.log(`page run ${run + 1}: ${(result.ms / 1000).toFixed(2)} s (worker ready after ${result.readyMs.toFixed(0)} ms, first pass done at ${(result.firstPassMs / 1000).toFixed(2)} s), ${table.rows_written} rows, database ${(result.bytes / 1e6).toFixed(1)} MB, browser memory +${(peak - before).toFixed(0)} MB at most`);
    if (run === 0) for (const line of result.sentences) console.log(`  ${line}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`load average (1 min) after the page's runs: ${load()}`);
const pageSeconds = median(times);
console.log(`page (import worker): median ${pageSeconds.toFixed(2)} s for ${fileMb.toFixed(1)} MB; memory +${median(peaks).toFixed(0)} MB (${(median(peaks) / fileMb).toFixed(2)}× the file)`);
if (!options['no-python']) {
  const pythonTimes = [];
  for (let run = 0; run < Number(options.runs); run++) {
    const out = execFileSync('python3', [path.join(ROOT, 'bench/import_csv.py'), 'python', '--csv', csv], { encoding: 'utf8' });
    pythonTimes.push(Number(out.match(/: ([\d.]+) s/)[1]));
  }
  const py = median(pythonTimes);
  console.log(`python csv+sqlite3: median ${py.toFixed(2)} s; page / python = ${(pageSeconds / py).toFixed(2)}`);
}
