// "Check the model": a database with golden questions (shop.db with an askdb_checks table), a
// scripted model that answers the first right and the second wrong. The panel shows each
// question's outcome with both SQLs and "1 of 2 correct"; the reports download as Markdown and
// JSON; no request to the model carries a golden question's SQL or the key outside its header,
// even when the model tries to read askdb_checks by name and through a view over it (while an
// ordinary table's value does reach it). Stop ends a run. With three candidates the panel shows
// the agreed answer's accuracy and the calibration table. Screenshots at 1280 and 400 px go to tests/e2e/.artifacts/.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  ROOT, chooseFile, dataset, sidewaysSpills, startSession, tempDir, visibleText, waitForOpen, waitUntil,
} from './harness.mjs';
import {
  API_KEY, bodyText, configureFor, finalAnswer, modelRequestsReach, openWatched, scriptedLlm, call,
} from './chat-support.mjs';

const SHOTS = path.join(ROOT, 'tests', 'e2e', '.artifacts');

const CHECKS = [
  {
    question: 'How many customers live in Tokyo?',
    sql: "SELECT count(*) FROM customers WHERE prefecture = 'Tokyo'",
  },
  {
    question: 'Which product is the most expensive?',
    sql: 'SELECT name FROM products ORDER BY price DESC LIMIT 1',
  },
];
const RIGHT_SQL = "SELECT COUNT(id) AS tokyo FROM customers WHERE prefecture = 'Tokyo'";
const WRONG_SQL = 'SELECT name FROM products ORDER BY price ASC LIMIT 1';

/** shop.db with the golden questions in askdb_checks. */
const MAKE_CHECKED = `
import json, shutil, sqlite3, sys
shutil.copy(sys.argv[1], sys.argv[2])
db = sqlite3.connect(sys.argv[2])
db.execute("CREATE TABLE askdb_checks (question TEXT NOT NULL, sql TEXT NOT NULL)")
db.executemany("INSERT INTO askdb_checks VALUES (?, ?)", [(c["question"], c["sql"]) for c in json.loads(sys.argv[3])])
db.commit()
`;

/** The expected SQL of viewed.db's golden question carries this alias, which no SQL of the model has. */
const GOLDEN_ALIAS = 'golden_answer_7f3q';
const GOLDEN = {
  question: 'How many customers live in Tokyo?',
  sql: `SELECT count(*) AS ${GOLDEN_ALIAS} FROM customers WHERE prefecture = 'Tokyo'`,
};
/** Kept in lower case in an ordinary table of viewed.db; only a query's result has it in upper case. */
const MEMO = 'memo-marker-5k';

/**
 * shop.db with one golden question, a view over askdb_checks (the agent's name check does not
 * see through it: only the model's copy of the file, without the knowledge tables and the views
 * over them, stops it) and an ordinary table for the positive control.
 */
const MAKE_VIEWED = `
import json, shutil, sqlite3, sys
shutil.copy(sys.argv[1], sys.argv[2])
db = sqlite3.connect(sys.argv[2])
golden = json.loads(sys.argv[3])
db.executescript("""
CREATE TABLE askdb_checks (question TEXT NOT NULL, sql TEXT NOT NULL);
CREATE VIEW v AS SELECT * FROM askdb_checks;
CREATE TABLE memo (note TEXT);
""")
db.execute("INSERT INTO askdb_checks VALUES (?, ?)", (golden["question"], golden["sql"]))
db.execute("INSERT INTO memo VALUES (?)", (sys.argv[4],))
db.commit()
`;

let session;
let files;
let checkedDb;
let viewedDb;
before(async () => {
  files = await tempDir('checks');
  checkedDb = path.join(files.dir, 'checked.db');
  execFileSync('python3', ['-c', MAKE_CHECKED, dataset('shop/shop.db'), checkedDb, JSON.stringify(CHECKS)]);
  viewedDb = path.join(files.dir, 'viewed.db');
  execFileSync('python3', ['-c', MAKE_VIEWED, dataset('shop/shop.db'), viewedDb, JSON.stringify(GOLDEN), MEMO]);
  session = await startSession();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await session?.close();
  await files?.remove();
});

/** The page with `file` (checked.db) open and the chat's model on a scripted server with `turns`. */
async function checkedPage(t, turns, context = {}, file = checkedDb, search = '') {
  const llm = await scriptedLlm(t, turns);
  const page = await session.open({ closeAfter: t, context, search });
  await chooseFile(page, file);
  await waitForOpen(page, path.basename(file));
  await configureFor(page, llm, 'openai');
  await page.getByTestId('settings').click(); // the panel closes: the page as a person sees it
  return { llm, page };
}

/** Each result shown: { outcome, text }. */
async function shownResults(page) {
  return page.$$eval('[data-testid="check-result"]', (items) =>
    items.map((item) => ({ outcome: item.dataset.outcome, text: item.textContent })),
  );
}

async function waitForSummary(page, accept) {
  return waitUntil('the checks summary', () => visibleText(page, 'checks-summary'), (text) => Boolean(text) && accept(text));
}

test('the golden questions are asked, judged, totalled and downloaded', async (t) => {
  const { llm, page } = await checkedPage(t, [
    call('run_sql', { sql: RIGHT_SQL }),
    finalAnswer('2 customers.', RIGHT_SQL),
    finalAnswer('The cheapest one.', WRONG_SQL),
  ]);
  const button = page.getByTestId('checks-button');
  await button.waitFor({ state: 'visible' });
  assert.match(await button.textContent(), /Check the model\s*2/);
  await button.click();
  await page.getByTestId('checks-run').click();
  const summary = await waitForSummary(page, (text) => text.includes('correct') && !text.includes('Asking'));
  assert.match(summary, /^1 of 2 correct, \d+ tokens in /);

  const results = await shownResults(page);
  assert.deepEqual(results.map((r) => r.outcome), ['pass', 'fail']);
  assert.match(results[0].text, /How many customers live in Tokyo\?/);
  assert.ok(results[0].text.includes(CHECKS[0].sql), 'the expected SQL is shown');
  assert.ok(results[0].text.includes(RIGHT_SQL), "the model's SQL is shown");
  assert.match(results[0].text, /2 steps · \d[\d,]* tokens · /);
  assert.ok(results[1].text.includes(CHECKS[1].sql));
  assert.ok(results[1].text.includes(WRONG_SQL));
  assert.match(results[1].text, /first column \(name\): '.+' expected, '.+' returned/);

  // The model saw neither golden SQL, each question started afresh, the key only in its header.
  const requests = await modelRequestsReach(llm, 3);
  for (const request of requests) {
    for (const check of CHECKS) assert.ok(!bodyText(request).includes(check.sql), `${check.sql} was sent`);
    assert.ok(!bodyText(request).includes('askdb_checks'));
    assert.ok(!request.rawBody.includes(API_KEY));
  }
  assert.ok(!bodyText(requests[2]).includes(CHECKS[0].question), 'the second question starts a new conversation');
  // The page's "Sent to the model" has them, as it has the chat's.
  assert.equal(await page.getByTestId('ledger-entry').count(), 3);

  for (const [testId, extension] of [['checks-download-md', '.md'], ['checks-download-json', '.json']]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
    assert.ok(download.suggestedFilename().startsWith('askdb-eval-'), download.suggestedFilename());
    assert.ok(download.suggestedFilename().endsWith(extension), download.suggestedFilename());
    const text = await readFile(await download.path(), 'utf8');
    assert.ok(!text.includes(API_KEY));
    if (extension === '.md') {
      assert.match(text, /^# Golden questions asked of gpt\\-scripted/);
      assert.match(text, /\*\*1 of 2 correct\\, \d+ tokens\*\*/);
      assert.ok(text.includes('```sql\n' + WRONG_SQL + '\n```'));
    } else {
      const report = JSON.parse(text);
      assert.equal(report.format, 'askdb-eval-report/1');
      assert.equal(report.passed, 1);
      assert.equal(report.total, 2);
      assert.deepEqual(report.results.map((r) => r.outcome), ['pass', 'fail']);
      assert.equal(report.results[1].model_sql, WRONG_SQL);
    }
  }
  assert.deepEqual(page.problems, []);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId('checks-panel').screenshot({ path: path.join(SHOTS, 'checks-1280.png') });
  await page.screenshot({ path: path.join(SHOTS, 'checks-page-1280.png') });
  await page.setViewportSize({ width: 400, height: 900 });
  assert.deepEqual(await sidewaysSpills(page), []);
  await page.getByTestId('checks-panel').screenshot({ path: path.join(SHOTS, 'checks-400.png') });
  await page.locator('.chat-head').screenshot({ path: path.join(SHOTS, 'checks-head-400.png') });
});

test('with three candidates the panel shows the agreed answer\'s accuracy and the calibration table, as the report has them', async (t) => {
  const MOST_EXPENSIVE = 'SELECT name FROM products WHERE price = (SELECT max(price) FROM products)';
  const { page } = await checkedPage(
    t,
    [
      // Question 1: all three right.
      finalAnswer('2.', RIGHT_SQL),
      finalAnswer('2.', RIGHT_SQL),
      finalAnswer('2.', CHECKS[0].sql),
      // Question 2: the first candidate wrong, the other two right.
      finalAnswer('The cheapest one.', WRONG_SQL),
      finalAnswer('This one.', MOST_EXPENSIVE),
      finalAnswer('This one.', MOST_EXPENSIVE),
    ],
    {},
    checkedDb,
    '?candidates=3',
  );
  await page.getByTestId('checks-button').click();
  await page.getByTestId('checks-run').click();
  const summary = await waitForSummary(page, (text) => text.includes('correct') && !text.includes('Asking'));
  assert.match(summary, /^1 of 2 correct/, "the question's own result is its first candidate's");
  assert.match(await visibleText(page, 'calibration-agreed'), /The agreed answer .*: 2 of 2 correct\./);
  const rows = await page.$$eval('[data-testid="calibration-row"]', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, [
    ['3 of 3 agree', '1', '1', '100 %'],
    ['2 of 3 agree', '1', '1', '100 %'],
    ['1 of 3 (no two agree)', '0', '0', '–'],
    ['none gave a result', '0', '0', '–'],
  ]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('checks-download-json').click()]);
  const report = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(report.agreed_passed, 2);
  assert.deepEqual(report.calibration.map((r) => [r.agreeing, r.questions, r.right]), [[3, 1, 1], [2, 1, 1], [1, 0, 0], [0, 0, 0]]);
  assert.deepEqual(page.problems, []);
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 400) assert.deepEqual(await sidewaysSpills(page), []);
    await page.getByTestId('checks-panel').screenshot({ path: path.join(SHOTS, `checks-calibration-${width}.png`) });
  }
});

test('the model reads neither the golden questions nor a view over them, and does read the data', async (t) => {
  const { llm, page } = await checkedPage(
    t,
    [
      call('run_sql', { sql: 'SELECT * FROM askdb_checks' }),
      call('run_sql', { sql: 'SELECT * FROM v' }),
      call('run_sql', { sql: 'SELECT upper(note) FROM memo' }),
      finalAnswer('2 customers.', RIGHT_SQL),
    ],
    {},
    viewedDb,
  );
  await page.getByTestId('checks-button').click();
  await page.getByTestId('checks-run').click();
  const summary = await waitForSummary(page, (text) => text.includes('correct') && !text.includes('Asking'));
  assert.match(summary, /^1 of 1 correct, /);

  const requests = await modelRequestsReach(llm, 4);
  assert.equal(requests.length, 4, "the model's four steps");
  // The positive control: what the model's query read reached its next request.
  const read = MEMO.toUpperCase();
  assert.ok(!bodyText(requests[2]).includes(read));
  assert.ok(bodyText(requests[3]).includes(read), 'the ordinary table was read');
  // By name the agent refused it; through the view there was nothing to read.
  assert.ok(bodyText(requests[1]).includes("holds askdb's notes about the data"));
  for (const [i, request] of requests.entries()) {
    const at = request.rawBody.indexOf(GOLDEN_ALIAS);
    assert.equal(at, -1, `request ${i + 1} holds the golden SQL: …${request.rawBody.slice(Math.max(0, at - 200), at + 100)}…`);
  }
  assert.deepEqual(page.problems, []);
});

test('without a model the run is refused with what to do', async (t) => {
  const page = await session.open({ closeAfter: t });
  await chooseFile(page, checkedDb);
  await waitForOpen(page, 'checked.db');
  await page.getByTestId('checks-button').click();
  await page.getByTestId('checks-run').click();
  const error = await waitUntil('the refusal', () => page.locator('.checks-panel [role="alert"]').textContent(), Boolean);
  assert.match(error, /Choose a model first/);
  assert.equal(await page.getByTestId('check-results').locator('li').count(), 0);
});

test('Stop ends the run: the question in progress is dropped', async (t) => {
  // The first answer comes only after a long while: Stop comes first.
  const { llm, page } = await checkedPage(t, [{ ...finalAnswer('2.', RIGHT_SQL), delayMs: 20_000 }]);
  await page.getByTestId('checks-button').click();
  await page.getByTestId('checks-run').click();
  await modelRequestsReach(llm, 1);
  await page.getByTestId('checks-stop').click();
  const summary = await waitForSummary(page, (text) => text.includes('stopped'));
  assert.match(summary, /^0 of 0 correct, 0 tokens, stopped/);
  assert.equal((await shownResults(page)).length, 0);
  assert.ok(await page.getByTestId('checks-run').isEnabled());
});

test('a database without golden questions offers no check', async (t) => {
  const page = await openWatched(t, session);
  await chooseFile(page, dataset('shop/shop.db'));
  await waitForOpen(page, 'shop.db');
  assert.equal(await page.getByTestId('checks-button').count(), 0);
});
