// The demo's 8 golden questions asked in headless Chromium with a scripted model (each question:
// one run_sql with the golden SQL, then final_answer), of a local file opened in the page and
// of the same database on a Datasette server on 127.0.0.1 (the pinned 0.65.5, with --cors).
// Per question: the requests the database took (none for a file in memory), the bytes of their
// answers and the time the page waited for them, and the question's time from Ask to the
// answer's re-run, as the page's usage line reports them.
//
//   node bench/datasette.mjs [--runs 3]
//
// The database is the demo's (www/demo/shop.db) without its askdb_* tables (a Datasette
// database that keeps them is refused: the model would read them as data, and nothing can be
// taken away from a server). Needs the test page (scripts/build-test-page.sh) and Datasette
// (scripts/setup.sh's setup_datasette).

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, chooseFile, startSession, visibleText, waitForOpen, waitUntil } from '../tests/e2e/harness.mjs';
import { startLlmServer } from '../tests/e2e/llm-server.mjs';

const { values: options } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(options.runs);
const OUT = '/tmp/askdb-bench/datasette';
mkdirSync(OUT, { recursive: true });
const FILE = path.join(OUT, 'shop.db');

// The demo without its knowledge tables; its golden questions, read from it before.
const PREPARE = `
import json, shutil, sqlite3, sys
src, dst = sys.argv[1], sys.argv[2]
checks = sqlite3.connect(src).execute("SELECT question, sql FROM askdb_checks").fetchall()
shutil.copyfile(src, dst)
db = sqlite3.connect(dst)
for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'askdb_%'").fetchall():
    db.execute(f'DROP TABLE "{name}"')
db.commit(); db.execute("VACUUM"); db.close()
print(json.dumps(checks))
`;
const checks = JSON.parse(execFileSync('python3', ['-c', PREPARE, path.join(ROOT, 'www/demo/shop.db'), FILE]).toString());

async function startDatasette() {
  const child = spawn(
    path.join(ROOT, '.tools/datasette-0.65.5/bin/datasette'),
    ['serve', '-i', FILE, '--host', '127.0.0.1', '--port', '0', '--cors'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (chunk) => { log += chunk; });
  const url = await waitUntil('Datasette to listen', () => log.match(/http:\/\/127\.0\.0\.1:\d+/)?.[0] ?? null, Boolean, 60_000);
  return { url, stop: () => child.kill() };
}

/** "12 ms" or "1.2 s" in milliseconds. */
const ms = (text) => (text.endsWith(' s') ? Number(text.slice(0, -2)) * 1000 : Number(text.replace(' ms', '')));
/** "1.2 KB" in bytes. */
const bytes = (number, unit) => Number(number) * { B: 1, KB: 1e3, MB: 1e6 }[unit];

/** Asks every question on a fresh page opened by `open`; per question { ms, requests, bytes, waited }. */
async function askAll(session, open) {
  const turns = checks.flatMap(([, sql]) => [
    { toolCalls: [{ name: 'run_sql', args: { sql } }] },
    { toolCalls: [{ name: 'final_answer', args: { answer: 'Here it is.', sql, notes: '' } }] },
  ]);
  const llm = await startLlmServer(turns);
  const page = await session.open({ search: open.search ?? '' });
  try {
    await open.wait(page);
    await page.getByTestId('settings').click();
    await page.getByTestId('provider').selectOption('openai');
    await page.getByTestId('base-url').fill(`${llm.url}/v1`);
    await page.getByTestId('model').fill('bench-model');
    await page.getByTestId('api-key').fill('sk-bench');
    const results = [];
    for (const [question] of checks) {
      await page.getByTestId('question').fill(question);
      await page.getByTestId('ask').click();
      const usage = await waitUntil(
        'the question to end',
        () => visibleText(page, 'usage'),
        (text) => text !== null && /^This question: /.test(text) && (open.served ? /to the server/.test(text) : true),
        60_000,
      );
      const time = usage.match(/tokens, ([\d.]+ m?s)/)[1];
      const served = usage.match(/(\d+) requests? to the server \(([\d.]+) (B|KB|MB), (\d+) ms\)/);
      results.push({
        ms: ms(time),
        requests: served ? Number(served[1]) : 0,
        bytes: served ? bytes(served[2], served[3]) : 0,
        waited: served ? Number(served[4]) : 0,
      });
      // The next question starts from an empty usage line.
      await waitUntil('Ask to be enabled', () => page.getByTestId('ask').isEnabled(), Boolean);
    }
    return results;
  } finally {
    await page.context().close();
    await llm.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const session = await startSession();
const datasette = await startDatasette();
try {
  const ways = {
    'local file (in memory)': {
      wait: async (page) => {
        await chooseFile(page, FILE);
        await waitForOpen(page, 'shop.db');
      },
    },
    'Datasette on 127.0.0.1': {
      search: `?datasette=${encodeURIComponent(`${datasette.url}/shop`)}`,
      served: true,
      wait: (page) => waitForOpen(page, `${datasette.url}/shop`),
    },
  };
  const runs = {};
  for (const [name, open] of Object.entries(ways)) {
    runs[name] = [];
    for (let run = 0; run < RUNS; run++) runs[name].push(await askAll(session, open));
  }
  console.log(`Median of ${RUNS} runs, per question (scripted model: 2 model requests each).\n`);
  console.log('| question | file: time | Datasette: time | requests | bytes | waited for the server |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  const file = runs['local file (in memory)'];
  const served = runs['Datasette on 127.0.0.1'];
  const column = (all, q, key) => median(all.map((run) => run[q][key]));
  checks.forEach(([question], q) => {
    console.log(
      `| ${question} | ${column(file, q, 'ms')} ms | ${column(served, q, 'ms')} ms | ${column(served, q, 'requests')} | ` +
        `${column(served, q, 'bytes')} B | ${column(served, q, 'waited')} ms |`,
    );
  });
} finally {
  datasette.stop();
  await session.close();
}
