// Whole or on demand: what each way of opening a remote database costs in the page, for files
// of several sizes, so that the size under which a remote file is downloaded whole
// (engine::on_demand::remote::READ_WHOLE_BELOW_BYTES) rests on figures. Each file (make_big.py, seeded)
// is opened by `?db=` from tests/e2e/range-server.mjs on 127.0.0.1 both ways (the test page's
// `askdb-test-read-whole-below` forces the path), then asked a full scan and an indexed lookup
// in the console. The server counts the bytes and requests it sends.
//
//   node bench/remote_paths.mjs [--orders 6000,24000,100000,400000] [--runs 3]
//
// Needs the page built for the tests (scripts/build-test-page.sh), or ASKDB_DIST. Prints a
// Markdown table for docs/benchmarks.md. Loopback has no bandwidth to speak of: what a real
// link adds is the bytes over its speed (the table gives the bytes).

import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dataset, expectTable, startSession, tempDir, waitForOpen } from '../tests/e2e/harness.mjs';
import { startRangeServer } from '../tests/e2e/range-server.mjs';

const { values: options } = parseArgs({
  options: {
    orders: { type: 'string', default: '6000,24000,100000,400000' },
    runs: { type: 'string', default: '3' },
  },
});
const sizes = options.orders.split(',').map(Number);
const runs = Number(options.runs);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const SCAN = 'SELECT status, count(*), sum(length(ordered_at)) FROM orders GROUP BY status';
const LOOKUP = 'SELECT id, status FROM orders WHERE customer_id = 7 ORDER BY id';
// The test page reads this before it starts: remote files under it are downloaded whole.
const PATHS = { whole: 1e15, 'on demand': 0 };

const temp = await tempDir('remote-paths');
const session = await startSession();
const server = await startRangeServer(temp.dir);
const rows = [];
try {
  for (const orders of sizes) {
    const name = `orders-${orders}.db`;
    const file = path.join(temp.dir, name);
    execFileSync('python3', [dataset('big/make_big.py'), file, '--orders', String(orders)]);
    const size = statSync(file).size;
    const url = `${server.url}/range/${name}`;
    for (const [way, below] of Object.entries(PATHS)) {
      const measured = [];
      for (let run = 0; run < runs; run++) {
        const page = await session.open({
          beforeLoad: (page) =>
            page.addInitScript((bytes) => localStorage.setItem('askdb-test-read-whole-below', String(bytes)), below),
        });
        server.reset();
        let started = performance.now();
        await page.goto(`${session.url}/?db=${encodeURIComponent(url)}`);
        await waitForOpen(page, name, 300_000);
        const open = { ms: performance.now() - started, ...server.stats() };
        const timed = async (sql, accept) => {
          server.reset();
          started = performance.now();
          await expectTable(page, sql, accept, sql, { timeout: 300_000 });
          return { ms: performance.now() - started, bytes: server.stats().bytes };
        };
        const scan = await timed(SCAN, (table) => table.rows.length > 0);
        const lookup = await timed(LOOKUP, (table) => table.rows.length > 0);
        measured.push({ open, scan, lookup });
        await page.context().close();
      }
      const pick = (f) => median(measured.map(f));
      rows.push({
        size,
        way,
        openMs: pick((m) => m.open.ms),
        openBytes: pick((m) => m.open.bytes),
        openRequests: pick((m) => m.open.requests),
        scanMs: pick((m) => m.scan.ms),
        scanBytes: pick((m) => m.scan.bytes),
        lookupMs: pick((m) => m.lookup.ms),
        lookupBytes: pick((m) => m.lookup.bytes),
      });
    }
  }
} finally {
  await server.close();
  await session.close();
  await temp.remove();
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(`| file | way | open until settled | read to open | full scan | read by the scan | lookup | read by the lookup |`);
console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(
    `| ${mb(row.size)} | ${row.way} | ${s(row.openMs)} | ${mb(row.openBytes)} in ${row.openRequests} | ` +
      `${s(row.scanMs)} | ${mb(row.scanBytes)} | ${s(row.lookupMs)} | ${mb(row.lookupBytes)} |`,
  );
}
console.log(`\n(medians of ${runs}; 127.0.0.1, range-server.mjs)`);
