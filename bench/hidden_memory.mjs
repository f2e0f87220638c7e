// What hiding a column costs on a large database: the time to make the model's copy, its size,
// and the memory of the browser's processes (resident set, summed over every Chromium process
// this script started) before, at the peak while the copy is made, and once it is ready.
//
//   node bench/hidden_memory.mjs [--orders 700000] [--hide order_items.unit_price_cents]
//
// Needs the page built for the tests (scripts/build-test-page.sh): it reads the copy's size
// through a test hook. Prints a Markdown table for docs/benchmarks.md.

import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { browserRssMb } from './memory.mjs';
import { dataset, startSession, tempDir, visibleText, waitForOpen, waitUntil } from '../tests/e2e/harness.mjs';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '700000' },
    hide: { type: 'string', default: 'order_items.unit_price_cents' },
  },
});
const LONG_MS = 600_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (n) => `${n.toFixed(0)} MB`;

const files = await tempDir('hidden-bench');
const file = path.join(files.dir, `big-${values.orders}.db`);
execFileSync('python3', [dataset('big/make_big.py'), file, '--orders', values.orders]);
const fileMb = statSync(file).size / 1024 / 1024;
const session = await startSession({ mounts: { files: files.dir } });
try {
  const page = await session.open({ search: `?db=files/${path.basename(file)}` });
  await waitForOpen(page, path.basename(file), LONG_MS);
  await sleep(2_000);
  const opened = browserRssMb();

  const [table, column] = values.hide.split('.');
  const started = Date.now();
  await page.locator(`[data-name="${table}"] summary`).click();
  await page.locator(`[data-name="${table}"] .column[data-name="${column}"] [data-testid="hide-column"]`).click();
  let peak = opened;
  await waitUntil(
    'the copy to be ready',
    async () => {
      peak = Math.max(peak, browserRssMb());
      return visibleText(page, 'hidden-line');
    },
    (text) => text === `Hidden from the model: ${values.hide}`,
    LONG_MS,
  );
  const seconds = (Date.now() - started) / 1000;
  const copyMb = await page.evaluate(() => window.askdbAgentCopyBytes().length / 1024 / 1024);
  await sleep(2_000);
  const ready = browserRssMb();

  console.log(`| file | hidden | copy made in | copy | browser memory: open | peak while copying | copy ready |`);
  console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
  console.log(
    `| ${path.basename(file)}, ${fileMb.toFixed(1)} MB | ${values.hide} | ${seconds.toFixed(1)} s | ` +
      `${copyMb.toFixed(1)} MB | ${mb(opened)} | ${mb(peak)} (+${mb(peak - opened)}) | ` +
      `${mb(ready)} (+${mb(ready - opened)}) |`,
  );
} finally {
  await session.close();
  await files.remove();
}
