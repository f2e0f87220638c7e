// Schema selection's cost in the page (headless Chromium, the page built for the tests):
// - how long ranking a generated schema's tables takes there (the test hook
//   askdbSelectionTiming: `TableIndex::new` once, `pick` per question, the median of 100), for
//   10, 100 and 1,000 tables;
// - how long the value index of a large file takes to read, and how large it is (the test hook
//   askdbValueIndex), once the file is open and settled; by default a make_big.py file of
//   2,000,000 orders (305 MB), made in a temporary folder unless --db names one.
//
//   node bench/selection_page.mjs [--db FILE] [--orders 2000000] [--runs 3]
//
// Needs scripts/build-test-page.sh first (or ASKDB_DIST). Prints Markdown for
// docs/benchmarks.md.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chooseFile, dataset, startSession, tempDir, waitForOpen, waitUntil } from '../tests/e2e/harness.mjs';

const { values: options } = parseArgs({
  options: {
    db: { type: 'string' },
    orders: { type: 'string', default: '2000000' },
    runs: { type: 'string', default: '3' },
  },
});
const runs = Number(options.runs);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const temp = await tempDir('selection-page');
const session = await startSession();
try {
  const page = await session.open();
  console.log('| tables | `TableIndex::new` in the page | `pick` per question (median of 100) |');
  console.log('| ---: | ---: | ---: |');
  for (const tables of [10, 100, 1000]) {
    const measured = [];
    for (let run = 0; run < runs; run++) {
      measured.push(await page.evaluate((n) => window.askdbSelectionTiming(n), tables));
    }
    const index = median(measured.map((m) => m.index_ms));
    const pick = median(measured.map((m) => m.pick_ms));
    console.log(`| ${tables} | ${index.toFixed(1)} ms | ${pick.toFixed(2)} ms |`);
  }
  await page.context().close();

  const file = options.db ?? path.join(temp.dir, `big-${options.orders}.db`);
  if (!options.db) {
    execFileSync('python3', [dataset('big/make_big.py'), file, '--orders', options.orders]);
  }
  const name = path.basename(file);
  const rows = [];
  for (let run = 0; run < runs; run++) {
    const opened = await session.open();
    await chooseFile(opened, file);
    await waitForOpen(opened, name, 300_000);
    const index = await waitUntil(
      'the value index',
      () => opened.evaluate(() => window.askdbValueIndex()),
      (report) => report.state === 'ready',
      300_000,
    );
    rows.push(index);
    await opened.context().close();
  }
  const last = rows.at(-1);
  console.log();
  console.log('| file | value index read in (median) | values | its size | what it covers |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  console.log(
    `| ${name} | ${median(rows.map((r) => r.ms)).toFixed(0)} ms | ${last.values} | ` +
      `${(last.bytes / 1e6).toFixed(2)} MB | ${last.coverage} |`,
  );
} finally {
  await session.close();
  await temp.remove();
}
