// What keeping a database in this browser costs, and what reopening it saves (issue 40): a
// generated database of about 105 MB (--orders) is opened from the file input, kept ("Keep
// this database in this browser": a copy into the origin's private file system), the page
// reloaded, and the database reopened from "Recent databases". Each time is measured from the
// click (or the file given) to the page saying it is done: kept, or open with its tables
// counted. Prints a Markdown table for docs/benchmarks.md, medians of --runs, each run in a
// fresh browser context (empty storage).
//
//   node bench/kept_reopen.mjs [--runs 3] [--orders 700000]
//
// Needs the page built for the tests (scripts/build-test-page.sh), or ASKDB_DIST.

import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chooseFile, dataset, startSession, tempDir, waitForOpen } from '../tests/e2e/harness.mjs';
import { browserRssMb } from './memory.mjs';

const { values: options } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, orders: { type: 'string', default: '700000' } },
});
const runs = Number(options.runs);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const LONG_MS = 300_000;

const folder = await tempDir('kept-bench');
const file = path.join(folder.dir, 'big.db');
execFileSync('python3', [dataset('big/make_big.py'), file, '--orders', options.orders]);
const bytes = statSync(file).size;

const session = await startSession();
const times = { open: [], keep: [], reopen: [], usage: [] };
try {
  for (let run = 0; run < runs; run++) {
    const page = await session.open();
    let started = Date.now();
    await chooseFile(page, file);
    await waitForOpen(page, 'big.db', LONG_MS);
    times.open.push(Date.now() - started);

    await page.getByTestId('keep-db').waitFor({ timeout: LONG_MS });
    started = Date.now();
    await page.getByTestId('keep-db').click();
    await page.getByTestId('kept').waitFor({ timeout: LONG_MS });
    times.keep.push(Date.now() - started);
    times.usage.push(await page.evaluate(async () => (await navigator.storage.estimate()).usage));

    await page.reload();
    await page.getByTestId('recent-reopen').waitFor({ timeout: LONG_MS });
    started = Date.now();
    await page.getByTestId('recent-reopen').first().click();
    await waitForOpen(page, 'big.db', LONG_MS);
    times.reopen.push(Date.now() - started);
    console.error(`run ${run + 1}: open ${times.open.at(-1)} ms, keep ${times.keep.at(-1)} ms, reopen ${times.reopen.at(-1)} ms, browser ${browserRssMb().toFixed(0)} MB`);
    await page.context().close();
  }
} finally {
  await session.close();
  await folder.remove();
}

const mb = (n) => (n / 1e6).toFixed(1);
console.log(`| ${mb(bytes)} MB file (${options.orders} orders), median of ${runs} | ms |`);
console.log('| --- | ---: |');
console.log(`| open from the file input (read into memory, counted, identified) | ${median(times.open)} |`);
console.log(`| Keep this database in this browser (copied into the private file system) | ${median(times.keep)} |`);
console.log(`| reopen from Recent databases after a reload (the kept copy) | ${median(times.reopen)} |`);
console.log(`| reopen ÷ open from the file input | ${(median(times.reopen) / median(times.open)).toFixed(2)} |`);
console.log(`| the site's storage after keeping (navigator.storage.estimate) | ${mb(median(times.usage))} MB |`);
