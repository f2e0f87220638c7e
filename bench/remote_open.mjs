// What opening a database from a web server costs in the page, as a person opens it
// (`?db=https://…`): from the address until the status settles (the tables shown, the
// database identified, the model view and the notes ready). The files are served by
// tests/e2e/range-server.mjs on 127.0.0.1, which counts the bytes and requests it sends. A file
// with askdb's knowledge tables costs the model view one more read of its catalogue (the
// knowledge fence, model_view::knowledge_fence): compare it with the same file without them.
//
//   node bench/remote_open.mjs --db /tmp/a.db,/tmp/b.db [--runs 3]
//
// The files must lie in one folder. Needs the page built for the tests
// (scripts/build-test-page.sh), or ASKDB_DIST. Prints a Markdown table for docs/benchmarks.md.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { startSession, waitForOpen } from '../tests/e2e/harness.mjs';
import { startRangeServer } from '../tests/e2e/range-server.mjs';

const { values: options } = parseArgs({
  options: { db: { type: 'string' }, runs: { type: 'string', default: '3' } },
});
const files = (options.db ?? '').split(',').filter(Boolean);
if (files.length === 0 || new Set(files.map((file) => path.dirname(file))).size !== 1) {
  console.error('usage: node bench/remote_open.mjs --db FILE[,FILE…] (in one folder) [--runs 3]');
  process.exit(2);
}
const runs = Number(options.runs);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const session = await startSession();
const server = await startRangeServer(path.dirname(files[0]));
const rows = [];
try {
  for (const file of files) {
    const name = path.basename(file);
    const url = `${server.url}/range/${encodeURIComponent(name)}`;
    const measured = [];
    for (let run = 0; run < runs; run++) {
      await server.reset();
      const page = await session.open();
      const started = performance.now();
      await page.goto(`${session.url}/?db=${encodeURIComponent(url)}`);
      await waitForOpen(page, name, 120_000);
      measured.push({ ms: performance.now() - started, ...(await server.stats()) });
      await page.context().close();
    }
    rows.push({
      name,
      bytes: median(measured.map((m) => m.bytes)),
      requests: median(measured.map((m) => m.requests)),
      ms: median(measured.map((m) => m.ms)),
    });
  }
} finally {
  await server.close();
  await session.close();
}

console.log(`| file | open until settled: bytes / requests | time (median of ${runs}) |`);
console.log('| --- | ---: | ---: |');
for (const row of rows) {
  console.log(`| ${row.name} | ${(row.bytes / 1000).toFixed(1)} KB / ${row.requests} | ${Math.round(row.ms)} ms |`);
}
