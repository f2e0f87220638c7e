// What a database read on demand from a web server transfers: open (the ranged GET that
// pins it, as the page makes it, the header, the schema) and an indexed lookup, then the same lookup with the
// index ignored (`NOT INDEXED`: what it costs when no index serves the question), on each file
// given. The files are served by tests/e2e/range-server.mjs on 127.0.0.1 (Range + CORS), which
// counts the bytes and requests it sends; the page's worker (www/lazy-worker.js) reads them as
// the page does (a fresh worker per file, so the page cache starts empty).
//
//   node bench/remote_bytes.mjs --db /work/bigdata/a.db,/work/bigdata/b.db [--no-scan]
//
// Needs the page built for the tests (scripts/build-test-page.sh). Prints a Markdown table for
// docs/benchmarks.md.

import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { startSession } from '../tests/e2e/harness.mjs';
import { startRangeServer } from '../tests/e2e/range-server.mjs';
import { lazyPage, openUrl, run } from '../tests/e2e/lazy-support.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const files = (option('--db') ?? '').split(',').filter(Boolean);
if (files.length === 0) {
  console.error('usage: node bench/remote_bytes.mjs --db FILE[,FILE…] [--no-scan]');
  process.exit(2);
}
const withScan = !args.includes('--no-scan');

const SCHEMA = "SELECT type, name, tbl_name, sql FROM sqlite_schema";
const LOOKUP = 'SELECT o.id, o.status, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.customer_id = 4242';
const NO_INDEX = LOOKUP.replace('FROM orders o', 'FROM orders o NOT INDEXED');

const root = path.dirname(path.resolve(files[0]));
const server = await startRangeServer(root);
const session = await startSession();
const rows = [];
try {
  for (const file of files) {
    const name = path.basename(file);
    const pageSize = Number(execFileSync('python3', ['-c', `import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA page_size').fetchone()[0])`, file]).toString().trim());
    const page = await lazyPage(session);
    const url = `${server.url}/range/${name}`;

    server.reset();
    const opened = await openUrl(page, url);
    if (!opened.ok) throw new Error(`${name} did not open: ${JSON.stringify(opened)}`);
    const schema = await run(page, SCHEMA);
    if (!schema.ok) throw new Error(`schema: ${JSON.stringify(schema)}`);
    const open = { ...server.stats(), ms: opened.elapsedMs + schema.elapsedMs };

    server.reset();
    const lookup = await run(page, LOOKUP);
    if (!lookup.ok) throw new Error(`lookup: ${JSON.stringify(lookup)}`);
    const indexed = { ...server.stats(), ms: lookup.elapsedMs };

    let scan = null;
    if (withScan) {
      server.reset();
      const result = await run(page, NO_INDEX, { deadlineMs: 600_000, countBudgetMs: 600_000 });
      if (!result.ok) throw new Error(`no index: ${JSON.stringify(result)}`);
      scan = { ...server.stats(), ms: result.elapsedMs };
    }
    rows.push({ name, size: statSync(file).size, pageSize, open, indexed, scan });
    await page.context().close();
  }
} finally {
  await session.close();
  await server.close();
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
console.log('| file | size | page_size | open + schema: bytes / requests / ms | indexed lookup: bytes / requests / ms | same lookup, index not used: bytes / requests / ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const scan = r.scan ? `${mb(r.scan.bytes)} / ${r.scan.requests} / ${Math.round(r.scan.ms)}` : '';
  console.log(`| ${r.name} | ${mb(r.size)} | ${r.pageSize} | ${kb(r.open.bytes)} / ${r.open.requests} / ${Math.round(r.open.ms)} | ${kb(r.indexed.bytes)} / ${r.indexed.requests} / ${Math.round(r.indexed.ms)} | ${scan} |`);
}
