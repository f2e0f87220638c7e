// How long a person waits for the first word of an answer, streamed and not (issue 39): a
// scripted model (tests/e2e/llm-server.mjs) writes the demo's answer in pieces of 6 characters,
// a piece every PIECE ms (a slow local model), after one query step. Measured in the page from
// the click on Ask: the first word of the answer on the screen (the reply being written, or the
// answer itself when nothing streams) and the whole answer. Prints a Markdown table for
// docs/benchmarks.md, medians of --runs.
//
//   node bench/stream_first_word.mjs [--runs 3] [--piece 60]
//
// Needs the page built for the tests (scripts/build-test-page.sh), or ASKDB_DIST.

import { parseArgs } from 'node:util';
import { openDemo, startSession } from '../tests/e2e/harness.mjs';
import { call, configureFor, finalAnswer, openSettings } from '../tests/e2e/chat-support.mjs';
import { startLlmServer } from '../tests/e2e/llm-server.mjs';

const { values: options } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, piece: { type: 'string', default: '60' } },
});
const runs = Number(options.runs);
const pieceDelayMs = Number(options.piece);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const SQL = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";
const ANSWER =
  'Two customers live in Tokyo: Alice and Evan. Both placed their first order in 2023, and ' +
  'neither has ordered since the spring; Evan spent more of the two, mostly on tea.';

async function measure(session, stream) {
  const llm = await startLlmServer([
    call('run_sql', { sql: SQL }),
    finalAnswer(ANSWER, SQL, '', { pieceChars: 6, pieceDelayMs }),
  ]);
  const page = await session.open();
  try {
    await openDemo(page);
    await configureFor(page, llm, 'openai');
    if (!stream) {
      await openSettings(page);
      await page.getByTestId('stream-replies').uncheck();
    }
    await page.getByTestId('question').fill('Which customers live in Tokyo?');
    await page.evaluate(() => {
      window.__times = {};
      const look = () => {
        const t = performance.now() - window.__times.asked;
        const draft = document.querySelector('[data-testid="draft"]')?.textContent ?? '';
        const answer = document.querySelector('[data-testid="answer"]')?.textContent ?? '';
        if ((draft.includes('Two') || answer.includes('Two')) && window.__times.first === undefined) window.__times.first = t;
        if (answer.includes('tea') && window.__times.whole === undefined) window.__times.whole = t;
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
      document.querySelector('[data-testid="ask"]').addEventListener('click', () => (window.__times.asked = performance.now()), { capture: true });
    });
    await page.getByTestId('ask').click();
    await page.waitForFunction(() => window.__times.whole !== undefined, null, { timeout: 120_000 });
    return await page.evaluate(() => window.__times);
  } finally {
    await page.context().close();
    await llm.close();
  }
}

const session = await startSession();
const rows = [];
try {
  for (const stream of [false, true]) {
    const measured = [];
    for (let run = 0; run < runs; run++) measured.push(await measure(session, stream));
    rows.push({
      stream,
      first: median(measured.map((m) => m.first)),
      whole: median(measured.map((m) => m.whole)),
    });
  }
} finally {
  await session.close();
}

const whole = rows.find((row) => !row.stream);
console.log(`A piece of 6 characters every ${pieceDelayMs} ms; median of ${runs} runs.`);
console.log('');
console.log('| replies | first word of the answer | whole answer | first word, against not streaming |');
console.log('| --- | ---: | ---: | ---: |');
for (const row of rows) {
  const ratio = (row.first / whole.first).toFixed(2);
  console.log(`| ${row.stream ? 'streamed' : 'whole'} | ${Math.round(row.first)} ms | ${Math.round(row.whole)} ms | ${ratio}× |`);
}
