// The compact page for documentation (`?embed=1`): no side panels, schema and console one click
// away, a link to the full page; `?theme=` forces light or dark; inside an iframe it tells the
// host page its height (embed-example.html sizes its frames with it); and it works from a
// sub-path, as on GitHub Pages. Screenshots go to tests/e2e/.artifacts/.

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  DIST,
  ROOT,
  expectRows,
  expectTable,
  schemaNames,
  sidewaysSpills,
  startSession,
  waitForOpen,
  waitUntil,
} from './harness.mjs';
import { ask, chatAddress, configure, expectAnswerRows, finalAnswer, scriptedLlm, waitForAnswer } from './chat-support.mjs';

const ARTIFACTS = path.join(ROOT, 'tests', 'e2e', '.artifacts');
/** Where the page is served a second time, as a documentation site would serve it. */
const SUB_PATH = 'docs/askdb';
const SHOP = 'embed=1&db=demo%2Fshop.db';
/** What the published recordings answer (tests/examples.rs records and checks them). */
const RECORDED_ANSWERS = { shop: /4 orders/, chinook: /Rock sold the most tracks/ };

let session;
before(async () => {
  session = await startSession({ mounts: { [SUB_PATH]: DIST } });
  await mkdir(ARTIFACTS, { recursive: true });
});
after(() => session?.close());

/**
 * A new page at `address` (relative to the server's root) in a browser context of its own,
 * closed when test `t` ends. `beforeLoad` runs with the page before it loads.
 */
async function openAt(t, address, { context = {}, beforeLoad } = {}) {
  const browserContext = await session.browser.newContext(context);
  t.after(() => browserContext.close());
  const page = await browserContext.newPage();
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  await beforeLoad?.(page);
  await page.goto(`${session.url}/${address}`);
  return page;
}

/** The frame of the example page's iframe `data-demo=name`. */
async function demoFrame(page, name) {
  return (await page.waitForSelector(`iframe[data-demo="${name}"]`)).contentFrame();
}

const isShown = (page, testId) => page.getByTestId(testId).isVisible();

test('?embed=1 shows the question without side panels, and links to the full page with the same parameters', async (t) => {
  const search = '?embed=1&db=demo%2Fshop.db&q=How+many+orders%3F&theme=dark&api_key=sk-never-passed-on';
  const page = await openAt(t, `index.html${search}`);
  await waitForOpen(page, 'shop.db');
  assert.equal(await page.getByTestId('question').inputValue(), 'How many orders?');
  assert.equal(await page.locator('.app-header, .database').count(), 0, 'no page header, no database panel');
  assert.equal(await isShown(page, 'sql-input'), false, 'the console is folded away');
  assert.equal(await page.locator('[data-testid="schema-table"]').first().isVisible(), false, 'so is the schema');

  const link = page.getByTestId('open-full');
  assert.equal(await link.getAttribute('target'), '_blank');
  const address = new URL(await link.getAttribute('href'), page.url());
  assert.equal(address.pathname, new URL(page.url()).pathname, 'the same page');
  assert.deepEqual(
    [...address.searchParams],
    [['db', 'demo/shop.db'], ['q', 'How many orders?'], ['theme', 'dark']],
    'the same parameters, without embed and without the key',
  );

  const [full] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await waitForOpen(full, 'shop.db');
  assert.equal(await full.getByTestId('question').inputValue(), 'How many orders?');
  for (const part of ['db-demo', 'sql-input']) assert.ok(await isShown(full, part), `the full page shows ${part}`);
  assert.deepEqual(await schemaNames(full), ['customers', 'orders', 'products']);
  assert.deepEqual(page.problems, []);
});

test('without ?db=, the compact page offers the demo and a file; the toggles wait for a database', async (t) => {
  const page = await openAt(t, 'index.html?embed=1');
  await page.getByTestId('db-demo').waitFor();
  assert.ok(await page.getByTestId('toggle-schema').isDisabled());
  assert.ok(await page.getByTestId('toggle-console').isDisabled());
  await page.getByTestId('db-demo').click();
  await waitForOpen(page, 'shop.db');
  assert.ok(await page.getByTestId('toggle-schema').isEnabled());
  assert.ok(await page.getByTestId('toggle-console').isEnabled());
});

test('the schema and the console open in place with one click, and keep what they had', async (t) => {
  const page = await openAt(t, `?${SHOP}`);
  await waitForOpen(page, 'shop.db');
  const schemaToggle = page.getByTestId('toggle-schema');
  const consoleToggle = page.getByTestId('toggle-console');

  await schemaToggle.click();
  assert.equal(await schemaToggle.getAttribute('aria-expanded'), 'true');
  assert.ok(await page.locator('[data-testid="schema-table"][data-name="customers"]').isVisible());
  assert.deepEqual(await schemaNames(page), ['customers', 'orders', 'products']);

  await consoleToggle.click();
  assert.equal(await consoleToggle.getAttribute('aria-expanded'), 'true');
  await expectRows(page, 'SELECT count(*) FROM orders', [['12']]);

  await consoleToggle.click();
  assert.equal(await isShown(page, 'sql-input'), false);
  await consoleToggle.click();
  assert.equal(await page.getByTestId('sql-input').inputValue(), 'SELECT count(*) FROM orders', 'the text is kept');
  assert.ok(await page.locator('[data-testid="result"] table').isVisible(), 'and the result');

  // "Query this table" fills the console: a closed console opens to show it, with the focus.
  await consoleToggle.click();
  await page.locator('[data-name="products"]').getByRole('button', { name: 'Query this table' }).click();
  await page.getByTestId('sql-input').waitFor({ state: 'visible' });
  assert.match(await page.getByTestId('sql-input').inputValue(), /FROM "?products"?/);
  await waitUntil('the console to have the focus', () => page.evaluate(() => document.activeElement?.dataset.testid), (id) => id === 'sql-input');
  assert.deepEqual(page.problems, []);
});

/** Perceived brightness (0-255) of a CSS rgb() colour. */
function brightness(css) {
  const [r, g, b] = css.match(/[\d.]+/g).map(Number);
  return (r * 299 + g * 587 + b * 114) / 1000;
}

test('?theme=dark and ?theme=light force the colours whatever the system prefers; without it they follow', async (t) => {
  const cases = [
    { prefers: 'light', theme: 'dark', dark: true },
    { prefers: 'dark', theme: 'light', dark: false },
    { prefers: 'dark', theme: null, dark: true },
    { prefers: 'light', theme: null, dark: false },
  ];
  for (const { prefers, theme, dark } of cases) {
    const page = await openAt(t, `?${SHOP}${theme ? `&theme=${theme}` : ''}`, { context: { colorScheme: prefers } });
    await waitForOpen(page, 'shop.db');
    await page.getByTestId('toggle-console').click();
    const colours = await page.evaluate(() => {
      const style = (selector) => getComputedStyle(document.querySelector(selector));
      return {
        background: style('body').backgroundColor,
        text: style('body').color,
        panel: style('.panel').backgroundColor,
        console: style('[data-testid="sql-input"]').backgroundColor,
      };
    });
    const what = `system ${prefers}, theme ${theme}: ${JSON.stringify(colours)}`;
    for (const part of ['background', 'panel', 'console']) {
      assert.equal(brightness(colours[part]) < 90, dark, `${part} (${what})`);
    }
    assert.equal(brightness(colours.text) > 160, dark, `text (${what})`);
  }
  // A theme the page does not know is said, not silently dropped.
  const page = await openAt(t, `?${SHOP}&theme=blue`);
  await waitForOpen(page, 'shop.db');
  await waitUntil('the settings notice', () => page.locator('.notice').textContent(), (text) => /theme "blue" is not light or dark/.test(text ?? ''));
});

test('at 400 and 1280 px, light and dark, the compact page with an answer, a chart, the schema and the console fits its width', async (t) => {
  const sql =
    'SELECT prefecture, count(*) AS customers FROM customers WHERE prefecture IS NOT NULL ' +
    'GROUP BY prefecture ORDER BY prefecture';
  const rows = [['Fukuoka', '1'], ['Hokkaido', '1'], ['Osaka', '1'], ['Tokyo', '2']];
  for (const width of [400, 1280]) {
    for (const colorScheme of ['light', 'dark']) {
      const llm = await scriptedLlm(t, [finalAnswer('**Tokyo** has the most customers (2).', sql)]);
      const question = 'How many customers are there per prefecture?';
      const page = await openAt(t, `${chatAddress(llm, 'openai', question)}&${SHOP}`, {
        context: { viewport: { width, height: 900 }, colorScheme },
      });
      await waitForOpen(page, 'shop.db');
      assert.deepEqual(await sidewaysSpills(page), [], `${width} px, before asking`);
      await configure(page, { apiKey: 'sk-embed-layout' });
      await page.getByTestId('settings').click(); // folds the settings away again
      await ask(page, question);
      await waitForAnswer(page);
      await expectAnswerRows(page, rows);
      await page.getByTestId('show-chart').click();
      await page.getByTestId('chart').waitFor({ state: 'visible' });
      await page.getByTestId('toggle-schema').click();
      await page.getByTestId('toggle-console').click();
      // The widest result there is: every column of the three tables.
      await expectTable(
        page,
        'SELECT * FROM orders JOIN customers ON customers.id = orders.customer_id JOIN products ON products.id = orders.product_id',
        (table) => table.rows.length > 0,
        'rows',
      );
      assert.deepEqual(await sidewaysSpills(page), [], `${width} px, ${colorScheme}`);
      await page.screenshot({ path: path.join(ARTIFACTS, `embed-${width}-${colorScheme}.png`), fullPage: true });
      assert.deepEqual(page.problems, []);
    }
  }
});

/** Records, on the page, every askdb height message with the `data-demo` of the frame that sent it. */
function recordHeights(page) {
  return page.addInitScript(() => {
    if (window.top !== window) return; // only the host page listens
    window.askdbHeights = [];
    window.addEventListener('message', (event) => {
      if (event.data?.type !== 'askdb:height') return;
      const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === event.source);
      window.askdbHeights.push({ demo: frame?.dataset.demo ?? null, height: event.data.height });
    });
  });
}

/** The iframe's height on the host page, the content's height inside it, and what was last reported. */
async function frameHeights(page, frame, demo) {
  const iframe = await page.evaluate((name) => document.querySelector(`iframe[data-demo="${name}"]`).getBoundingClientRect().height, demo);
  const inside = await frame.evaluate(() => ({
    content: Math.ceil(document.querySelector('.app').getBoundingClientRect().height),
    scrolls: document.documentElement.scrollHeight > document.documentElement.clientHeight,
  }));
  const reported = await page.evaluate((name) => window.askdbHeights.filter((m) => m.demo === name).at(-1)?.height, demo);
  return { iframe: Math.round(iframe) - 2 /* its 1 px border */, ...inside, reported };
}

/** Waits until frame `demo` is as tall as its content (as reported), without a scrollbar. */
async function expectFitted(page, frame, demo, what) {
  return waitUntil(
    `the ${demo} frame to fit its content ${what}`,
    () => frameHeights(page, frame, demo),
    (h) => h.reported === h.content && h.iframe === h.content && !h.scrolls,
  );
}

test('the example page: both demos load, the frames follow the heights they report, nothing spills', async (t) => {
  const demos = { shop: 'shop.db', chinook: 'Chinook_Sqlite.sqlite' };
  for (const width of [400, 1280]) {
    const page = await openAt(t, 'embed-example.html', {
      context: { viewport: { width, height: 800 } },
      beforeLoad: recordHeights,
    });
    for (const [demo, name] of Object.entries(demos)) {
      const frame = await demoFrame(page, demo);
      await waitForOpen(frame, name);
      await expectFitted(page, frame, demo, 'once open');
      assert.deepEqual(await sidewaysSpills(frame), [], `${demo} at ${width} px`);
    }
    assert.deepEqual(await sidewaysSpills(page), [], `the host at ${width} px`);

    // Each frame replays its published recording (www/examples/*.askdb.json) with no key: the
    // banner names the stand-in model, nothing differs, and the recorded answer shows.
    for (const [demo, answer] of Object.entries(RECORDED_ANSWERS)) {
      const frame = await demoFrame(page, demo);
      await waitUntil(`the ${demo} answer`, () => frame.getByTestId('answer').textContent().catch(() => ''), (text) => answer.test(text));
      // The replay is over and its evidence re-run is shown: the frame's height settles.
      await waitUntil(`the ${demo} replay to finish`, () => frame.getByTestId('replay-state').textContent().catch(() => ''), (text) => /finished/.test(text));
      await frame.locator('[data-testid="answer-result"] table').waitFor();
      assert.match(await frame.getByTestId('replay-model').textContent(), /scripted stand-in/);
      assert.equal(await frame.getByTestId('replay-other-database').count(), 0, `${demo}: same database`);
      assert.equal(await frame.getByTestId('step-difference').count(), 0, `${demo}: no difference`);
      await expectFitted(page, frame, demo, 'with its answer');
      assert.deepEqual(await sidewaysSpills(frame), [], `${demo} answered at ${width} px`);
    }
    // Chinook's answer is a label and a number per row: it can be drawn.
    const chinook = await demoFrame(page, 'chinook');
    assert.ok((await chinook.locator('[data-testid="answer"] [data-testid="show-chart"]').count()) > 0, 'a chart for Chinook');

    // Opening the schema makes the frame taller; closing it, shorter again.
    const frame = await demoFrame(page, 'shop');
    const closed = await expectFitted(page, frame, 'shop', 'before the schema opens');
    await frame.getByTestId('toggle-schema').click();
    const open = await expectFitted(page, frame, 'shop', 'with the schema open');
    assert.ok(open.content > closed.content + 100, `taller with the schema: ${closed.content} → ${open.content}`);
    await frame.getByTestId('toggle-schema').click();
    const again = await expectFitted(page, frame, 'shop', 'once the schema closes');
    assert.equal(again.content, closed.content);

    await page.screenshot({ path: path.join(ARTIFACTS, `embed-example-${width}.png`), fullPage: true });
    assert.deepEqual(page.problems, []);
  }
});

/** Records, in the window of `host`, the height reports and the probes it receives, in order. */
async function recordMessages(host) {
  await host.evaluate(() => {
    window.heightMessages = [];
    window.addEventListener('message', (event) => {
      const { type, height } = event.data ?? {};
      if (type !== 'askdb:height' && type !== 'askdb-test:probe') return;
      const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === event.source);
      window.heightMessages.push({ type, height, from: frame?.dataset.demo ?? 'itself' });
    });
  });
}

/**
 * Starts a probe in `target` (the embedded page, in a frame or not): a ResizeObserver on the
 * element whose height the page reports, made after the page's own. Observers are called in the
 * order they were made, so for each change of height the page's report (if it sends one) is
 * posted before the probe, to the same window (window.parent: the page itself outside a frame),
 * and arrives before it.
 */
async function startProbe(target) {
  await target.evaluate(() => {
    const app = document.querySelector('.app');
    new ResizeObserver(() => {
      const height = Math.ceil(app.getBoundingClientRect().height);
      window.parent.postMessage({ type: 'askdb-test:probe', height }, '*');
    }).observe(app);
  });
}

/** The messages `host` received from `from` up to the first probe that `accept`s. */
async function messagesUntilProbe(host, from, accept) {
  return waitUntil(
    `a probe from ${from}`,
    () => host.evaluate((from) => window.heightMessages.filter((m) => m.from === from), from),
    (messages) => messages.some((m) => m.type === 'askdb-test:probe' && accept(m)),
  ).then((messages) => messages.slice(0, messages.findIndex((m) => m.type === 'askdb-test:probe' && accept(m)) + 1));
}

/** Opens the schema in `target` and returns what `host` received from `from` until the probe saw it. */
async function reportsOfOpeningTheSchema(host, target, from) {
  await recordMessages(host);
  await startProbe(target);
  // An observer calls back once when it starts: the height before the change.
  const [before] = (await messagesUntilProbe(host, from, () => true)).slice(-1);
  await target.getByTestId('toggle-schema').click();
  const messages = await messagesUntilProbe(host, from, (m) => m.height > before.height);
  return { height: messages.at(-1).height, reports: messages.filter((m) => m.type === 'askdb:height') };
}

test('only a page inside a frame reports its height: a probe after the change sees the report in a frame, none outside', async (t) => {
  // Inside a frame (the positive control): the report of the new height comes before the probe.
  const host = await openAt(t, 'embed-example.html');
  const frame = await demoFrame(host, 'shop');
  await waitForOpen(frame, 'shop.db');
  await waitUntil('the shop replay to finish', () => frame.getByTestId('replay-state').textContent(), (text) => /finished/.test(text));
  const framed = await reportsOfOpeningTheSchema(host, frame, 'shop');
  assert.deepEqual(framed.reports.at(-1), { type: 'askdb:height', height: framed.height, from: 'shop' });

  // On its own, the same change is probed the same way, and nothing was reported before it.
  const page = await openAt(t, `?${SHOP}`);
  await waitForOpen(page, 'shop.db');
  const alone = await reportsOfOpeningTheSchema(page, page, 'itself');
  assert.ok(alone.height > 0);
  assert.deepEqual(alone.reports, []);
  assert.deepEqual([...host.problems, ...page.problems], []);
});

test(`served under /${SUB_PATH}/, the page, its worker, the demo and the example page load from there`, async (t) => {
  const requests = [];
  const failures = [];
  const expected = () => false;
  const watch = (page) => {
    page.on('request', (request) => requests.push(request.url()));
    page.on('response', (response) => {
      if (response.status() >= 400 && !expected(response.url())) failures.push(`${response.status()} ${response.url()}`);
    });
    // Chromium at times reports a download the page read to its end as ERR_ABORTED (the
    // database still opens whole): only other failures count.
    page.on('requestfailed', (request) => {
      const why = request.failure()?.errorText;
      if (!expected(request.url()) && why !== 'net::ERR_ABORTED') failures.push(`failed ${request.url()}: ${why}`);
    });
  };

  const embedded = await openAt(t, `${SUB_PATH}/?${SHOP}`, { beforeLoad: watch });
  await waitForOpen(embedded, 'shop.db');
  await embedded.getByTestId('toggle-console').click();
  await expectRows(embedded, 'SELECT count(*) FROM customers', [['6']]);

  const full = await openAt(t, `${SUB_PATH}/index.html`, { beforeLoad: watch });
  await full.getByTestId('db-demo').click();
  await waitForOpen(full, 'shop.db');

  const example = await openAt(t, `${SUB_PATH}/embed-example.html`, { beforeLoad: watch });
  await waitForOpen(await demoFrame(example, 'shop'), 'shop.db');
  await waitForOpen(await demoFrame(example, 'chinook'), 'Chinook_Sqlite.sqlite');

  const outside = requests.filter((url) => !url.startsWith(`${session.url}/${SUB_PATH}/`) && !url.startsWith('data:'));
  assert.deepEqual(outside, [], 'every address the page and the worker use is relative');
  assert.ok(requests.some((url) => url.endsWith(`/${SUB_PATH}/worker.js`)), 'the worker came from the sub-path');
  assert.ok(requests.some((url) => url.endsWith(`/${SUB_PATH}/sql-wasm.wasm`)), 'and sql.js');
  assert.deepEqual(failures, []);
  assert.deepEqual([...embedded.problems, ...full.problems, ...example.problems], []);
});
