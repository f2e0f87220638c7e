// The page in the reader's language (issue 41): a Japanese reader meets a Japanese page, from
// the landing page through opening the demo, a question and its answer, errors, the import
// report, the schema and the ledger; the language follows the browser, the menu (kept in this
// browser) and ?lang=; changing it keeps what is open; <html lang> follows; what the model is
// told does not change by a byte.
//
// The judge of "in Japanese" is a scan of everything the page shows a person (text and the
// names and hints in aria-label, title, placeholder, alt) for English words, outside what is
// data or code (`[translate=no]`, code, pre). Its positive control is the same scan of the
// English page, which must find English.
//
// Mutations, each tried once: a message of ja.ftl changed to its English fails the scan of that
// state ("English left on the Japanese page"); `set_document_language` not called fails
// "<html lang>"; the kept choice not written fails "the choice is kept"; ui::language::start
// ignoring ?lang= fails "?lang=en wins"; a tr! in the system prompt path would fail "the model
// is told the same in both languages".
//
// ASKDB_SCREENSHOTS=<folder> saves a screenshot of each state, at 1280 and 400 px, in both
// languages, for a person to look at.

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import {
  ROOT,
  STEP_TIMEOUT_MS,
  chooseFile,
  openDemo,
  expectSqlError,
  runSql,
  sessionForFile,
  settledStatus,
  visibleText,
  waitUntil,
} from './harness.mjs';
import {
  TOKYO_SQL,
  ask,
  call,
  configureFor,
  finalAnswer,
  scriptedLlm,
  waitForAgentError,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();
const SHOTS = process.env.ASKDB_SCREENSHOTS;

/** Names and codes that stay as they are in every language. */
const KEPT_AS_IS = new Set(
  [
    'askdb', 'SQLite', 'SQL', 'Datasette', 'OpenAI', 'Anthropic', 'Gemini', 'Google', 'CSV', 'TSV',
    'JSON', 'NDJSON', 'Excel', 'xlsx', 'API', 'URL', 'HTTP', 'HTTPS', 'OPFS', 'English', 'Enter',
    'Shift', 'Ctrl', 'Esc', 'Tab', 'NULL', 'LLM', 'IndexedDB', 'WebAssembly', 'GitHub', 'Markdown',
    'SHA', 'BM25', 'Ollama', 'vLLM', 'LM', 'Studio', 'localhost', 'UTF', 'Web',
  ].map((word) => word.toLowerCase()),
);

/** SQL's words, code in every language: kept only as SQL writes them (upper case). */
const SQL_WORDS = new Set([
  'SELECT', 'FROM', 'WHERE', 'LIMIT', 'JOIN', 'GROUP', 'ORDER', 'WITH', 'VALUES', 'EXPLAIN',
  'PRAGMA', 'DELETE', 'INSERT', 'UPDATE', 'DROP', 'CREATE', 'COUNT',
]);

/**
 * Every piece of text the page shows a person, outside data and code: [where, text]. Hidden
 * parts (a folded section, a closed panel) count: they are read once unfolded.
 */
async function chromeTexts(page) {
  return page.evaluate(() => {
    const skipped = (element) => element.closest('[translate="no"], code, pre, script, style, noscript, option');
    const where = (element) => {
      const id = element.closest('[data-testid]')?.dataset.testid;
      return id ? `${element.tagName.toLowerCase()} in ${id}` : element.tagName.toLowerCase();
    };
    const found = [];
    // The words the page marks as data somewhere (a table's or a column's name, a host) are
    // data wherever they appear, also inside an attribute, which cannot mark them.
    const data = [...document.body.querySelectorAll('[translate="no"]')].map((element) => element.textContent);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.trim();
      if (text && !skipped(node.parentElement)) found.push([where(node.parentElement), text]);
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (skipped(element)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value) found.push([`${where(element)} @${name}`, value]);
      }
    }
    return { found, data };
  });
}

/** The English words in what `chromeTexts` found (names and codes that stay as they are aside). */
function englishIn({ found: texts, data }) {
  const dataWords = new Set(data.flatMap((text) => text.match(/[A-Za-z]{3,}/g) ?? []));
  const english = [];
  for (const [where, text] of texts) {
    // A word of three or more Latin letters; file names, addresses, a link's parameters
    // (?notes=), identifiers (orders.id, joined_at, gpt-4.1-mini, a token's prefix dstok_) and
    // numbers with units are data the page was given or codes (shop.db, https://…, 12 ms).
    const cleaned = text
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/\S+\.(db|sqlite|csv|tsv|json|ndjson|xlsx|ftl)\b/gi, ' ')
      .replace(/\?[a-z_]+=\S*/g, ' ')
      .replace(/\S*\w[_.]\w\S*|\w+_(?!\w)/g, ' ');
    const words = (cleaned.match(/[A-Za-z]{3,}/g) ?? []).filter(
      (word) => !KEPT_AS_IS.has(word.toLowerCase()) && !SQL_WORDS.has(word) && !dataWords.has(word),
    );
    if (words.length > 0) english.push(`${where}: "${text.slice(0, 120)}" (${words.slice(0, 4).join(', ')})`);
  }
  return english;
}

async function expectJapanese(page, state) {
  const english = englishIn(await chromeTexts(page));
  assert.deepEqual(english, [], `English left on the Japanese page, in ${state}:\n${english.join('\n')}`);
}

/** The positive control of a state: the scan finds the English page's words there. */
async function expectEnglish(page, state) {
  const english = englishIn(await chromeTexts(page));
  assert.ok(english.length > 5, `the scan found little English in ${state}: ${english.join('\n')}`);
}

async function shoot(page, name) {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The database `name` open, in any language: the status names it once nothing loads. */
async function waitForOpenIn(page, name, timeout = STEP_TIMEOUT_MS) {
  return waitUntil(`${name} to open`, () => settledStatus(page), (text) => text?.includes(name) && /\d/.test(text), timeout);
}

const IN_JAPANESE = { locale: 'ja-JP' };
const WIDTHS = [1280, 400];

test('the English page is found English by the scan (its positive control)', async (t) => {
  const page = await session.open({ closeAfter: t });
  await openDemo(page);
  const english = englishIn(await chromeTexts(page));
  assert.ok(english.length > 20, `the scan found only: ${english.join('\n')}`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
});

// The same walk in English is each state's positive control (the scan finds English there) and
// gives the English screenshots to compare with.
const WALKS = [
  { language: 'ja', name: 'Japanese', context: IN_JAPANESE, expect: expectJapanese },
  { language: 'en', name: 'English', context: {}, expect: expectEnglish },
];

for (const { language, name, context, expect } of WALKS) for (const width of WIDTHS) {
  test(`the ${name} page at ${width} px: opening the demo, a question, errors, the schema and the ledger`, async (t) => {
    const turns = [
      call('run_sql', { sql: TOKYO_SQL }, { text: '顧客を調べます。' }),
      finalAnswer('東京都に住んでいるのは **Alice と Evan** です。', TOKYO_SQL),
      { status: 401, body: { error: { message: 'invalid api key' } } },
    ];
    const llm = await scriptedLlm(t, turns);
    const viewport = { width, height: 900 };
    const page = await session.open({ context: { ...context, viewport }, closeAfter: t });
    assert.equal(await page.evaluate(() => document.documentElement.lang), language, '<html lang>');
    await expect(page, 'the landing page');
    await shoot(page, `${language}-${width}-landing`);

    await page.getByTestId('db-demo').click();
    await waitForOpenIn(page, 'shop.db');
    await expect(page, 'the demo open');

    await configureFor(page, llm, 'openai');
    await expect(page, 'Settings open');
    await shoot(page, `${language}-${width}-settings`);
    await page.keyboard.press('Escape');

    await ask(page, '東京都に住んでいる顧客は？');
    assert.match(await waitForAnswer(page), /Alice と Evan/);
    // Every fold opened: the steps, the ledger, each table of the schema.
    for (const summary of await page.locator('details:not([open]) > summary').all()) {
      if (await summary.isVisible()) await summary.click();
    }
    await expect(page, 'an answered question, every fold open');
    await shoot(page, `${language}-${width}-answer`);

    await ask(page, 'もう一度');
    await waitForAgentError(page);
    await expect(page, 'a refused key');

    const first = await expectSqlError(page, 'SELECT * FROM no_such_table');
    await runSql(page, 'DELETE FROM customers');
    await waitUntil('the refused write', () => visibleText(page, 'sql-error'), (text) => Boolean(text) && text !== first);
    await expect(page, 'a console error');
    await shoot(page, `${language}-${width}-errors`);
    assert.deepEqual(page.problems, []);
  });
}

test("the model is told the same, byte for byte, whatever the page's language", async (t) => {
  const bodies = [];
  for (const context of [{}, IN_JAPANESE]) {
    const llm = await scriptedLlm(t, [finalAnswer('Alice and Evan.', TOKYO_SQL)]);
    const page = await session.open({ context, closeAfter: t });
    await page.getByTestId('db-demo').click();
    await waitForOpenIn(page, 'shop.db');
    await configureFor(page, llm, 'openai');
    await page.keyboard.press('Escape');
    await ask(page, 'Which customers live in Tokyo?');
    await waitForAnswer(page);
    bodies.push(llm.modelRequests()[0].body);
  }
  // Positive control: the request holds the schema the page read.
  assert.match(JSON.stringify(bodies[0]), /customers/);
  assert.deepEqual(bodies[1], bodies[0]);
});

test('the import report and a file that is not a database, in Japanese', async (t) => {
  const page = await session.open({ context: IN_JAPANESE, closeAfter: t });
  await chooseFile(page, { name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from('id,zip,total\n1,00501,49.5\n2,10001,12\n3,94105,7.25\n') });
  await waitForOpenIn(page, 'orders.csv', 60_000);
  await page.getByTestId('import-report').click();
  await expectJapanese(page, 'the import report');
  await shoot(page, 'ja-1280-import');

  await chooseFile(page, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a database at all') });
  await page.locator('[data-testid="db-status"] .error').waitFor({ timeout: STEP_TIMEOUT_MS });
  await expectJapanese(page, 'a file that is not a database');
  assert.deepEqual(page.problems, []);
});

test('the menu changes the language and keeps what is open; the choice is kept; ?lang= wins', async (t) => {
  const page = await session.open({ context: { viewport: { width: 1280, height: 900 } }, closeAfter: t });
  await openDemo(page);
  await runSql(page, TOKYO_SQL);
  await page.getByTestId('result').waitFor();
  const openLabel = await page.getByTestId('db-demo').textContent();

  await page.getByTestId('language').selectOption('ja');
  await waitUntil('the page in Japanese', () => page.evaluate(() => document.documentElement.lang), (lang) => lang === 'ja');
  await waitUntil('the button in Japanese', () => page.getByTestId('db-demo').textContent(), (text) => text !== openLabel);
  assert.match(await settledStatus(page), /shop\.db/, 'the database stays open');
  assert.ok(await page.getByTestId('result').isVisible(), 'the result stays');
  await expectJapanese(page, 'the page switched to Japanese with the demo open');
  assert.equal(await page.evaluate(() => localStorage.getItem('askdb.language')), 'ja', 'the choice is kept');

  await page.reload();
  await page.getByTestId('db-file').waitFor({ state: 'attached' });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja', 'the kept choice after a reload');
  assert.equal(await page.getByTestId('language').inputValue(), 'ja');

  await page.goto(`${session.url}/?lang=en`);
  await page.getByTestId('db-file').waitFor({ state: 'attached' });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', '?lang=en wins over the kept choice');
  assert.equal(await page.getByTestId('db-demo').textContent(), openLabel);

  await page.goto(`${session.url}/?lang=xx`);
  await page.getByTestId('db-file').waitFor({ state: 'attached' });
  assert.match(await page.locator('.language-problem').textContent(), /lang「xx」|lang "xx"/, 'an unknown ?lang= is said');
});

test('a Japanese screen-reader name holds its visible label (WCAG 2.5.3), by axe-core', async (t) => {
  const { readFile } = await import('node:fs/promises');
  const axe = await readFile(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  const page = await session.open({ context: { ...IN_JAPANESE, bypassCSP: true }, closeAfter: t });
  await page.getByTestId('db-demo').click();
  await waitForOpenIn(page, 'shop.db');
  await page.addScriptTag({ content: axe });
  const result = await page.evaluate(async () => {
    const run = await window.axe.run(document, { runOnly: { type: 'rule', values: ['label-content-name-mismatch', 'button-name', 'label'] } });
    return { violations: run.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), passes: run.passes.reduce((n, v) => n + v.nodes.length, 0) };
  });
  assert.deepEqual(result.violations, []);
  assert.ok(result.passes > 5, `axe checked ${result.passes} elements`);
  // And one by hand: the demo's button is found by its Japanese name.
  const label = (await page.getByTestId('db-demo').textContent()).trim();
  assert.equal(await page.getByRole('button', { name: label, exact: true }).count(), 1);
});
