// Accessibility (WCAG 2.2 AA, issue 29): axe-core finds nothing in each state of the page, in
// the light theme and in the dark one; the chat's transcript is a log that announces each
// finished answer once, never a step or a half-done answer; a whole question can be asked and
// read with the keyboard alone; focus shows in both themes.
//
// axe-core is pinned in package.json and injected into the page by the test (the page people
// are served never carries it). The page's Content-Security-Policy allows no inline script, so
// the contexts that run axe bypass it (playwright's bypassCSP): that is the only difference
// from a visitor's page.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  ROOT,
  expectRows,
  openDemo,
  runSql,
  chooseFile,
  resultTable,
  STEP_TIMEOUT_MS,
  startSession,
  visibleText,
  waitForOpen,
  waitUntil,
} from './harness.mjs';
import {
  API_KEY,
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  baseUrl,
  call,
  configureFor,
  expectAnswerRows,
  finalAnswer,
  MODELS,
  openSettings,
  scriptedLlm,
  waitForAgentError,
  waitForAnswer,
} from './chat-support.mjs';

const AXE_SOURCE = await readFile(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
/** WCAG 2.0, 2.1 and 2.2, levels A and AA: what issue 29 asks for. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const THEMES = ['light', 'dark'];

let session;
before(async () => {
  session = await startSession();
});
after(() => session?.close());

/**
 * A page at `search` in `theme` (the system's preference, which the page follows), in a context
 * of its own closed after `t`. Not `session.open`: that waits for the file input, which the
 * ?embed=1 page has not.
 */
async function openIn(t, theme, search = '', contextOptions = {}) {
  const context = await session.browser.newContext({ colorScheme: theme, bypassCSP: true, ...contextOptions });
  t.after(() => context.close());
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  await page.goto(`${session.url}/${search}`);
  await page.locator('.app').waitFor({ timeout: STEP_TIMEOUT_MS });
  return page;
}

/** Unfolds table `name` in the schema panel, unless it shows already. */
async function unfoldTable(page, name) {
  const details = page.locator(`[data-testid="schema-table"][data-name="${name}"] > details`);
  if (!(await details.evaluate((element) => element.open))) await details.locator('> summary').click();
}

/** What axe-core finds on `page` against WCAG_TAGS: [{ id, impact, help, targets }]. */
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ content: AXE_SOURCE });
  }
  return page.evaluate(async (tags) => {
    const results = await window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  }, WCAG_TAGS);
}

/** One line per violation with up to five of its elements, to be read in a failure. */
function described(violations) {
  return violations
    .map(({ id, impact, help, targets }) => {
      const shown = targets.slice(0, 5).join(' | ');
      const more = targets.length > 5 ? ` (and ${targets.length - 5} more)` : '';
      return `  ${id} (${impact}, ${targets.length} elements): ${help}\n      ${shown}${more}`;
    })
    .join('\n');
}

/** Fails `t` with every violation axe-core finds in `state`, each with the elements that have it. */
async function expectNoViolations(t, page, state) {
  const violations = await axeViolations(page);
  const count = violations.reduce((sum, v) => sum + v.targets.length, 0);
  t.diagnostic(`axe: ${state}: ${count} elements in violation`);
  assert.equal(count, 0, `axe-core finds WCAG 2.2 AA violations in ${state}:\n${described(violations)}`);
}

/** The demo open and the chat set up, typed into the settings panel, for a scripted model. */
async function demoWithModel(t, theme, turns, contextOptions = {}) {
  const llm = await scriptedLlm(t, turns);
  const page = await openIn(t, theme, '', contextOptions);
  await openDemo(page);
  await configureFor(page, llm, 'openai');
  return { llm, page };
}

const TOKYO_TURNS = [
  call('run_sql', { sql: TOKYO_SQL }, { text: 'Looking at the customers.' }),
  finalAnswer('**Alice and Evan** live in Tokyo.', TOKYO_SQL, 'Customers with no prefecture are left out.'),
];

/** On a phone's width a result this wide scrolls sideways in its box. */
const NARROW = { viewport: { width: 400, height: 800 } };
const WIDE_SQL =
  "SELECT id, name, prefecture, joined_at, name AS customer_name, prefecture AS where_they_live, " +
  "joined_at AS customer_since, name || ' of ' || prefecture AS customer_and_prefecture " +
  "FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";
const WIDE_TURNS = [
  call('run_sql', { sql: WIDE_SQL }),
  finalAnswer('**Alice and Evan** live in Tokyo.', WIDE_SQL),
];

/** Whether the element of test id `testId` (the first) holds more than it shows, sideways. */
async function scrollsSideways(page, testId) {
  return page.getByTestId(testId).first().evaluate((element) => element.scrollWidth > element.clientWidth + 10);
}

/**
 * The demo open in `theme`, the customers table unfolded, and the button `button` of its
 * column `column` pressed; returns once `shown` (a test id) shows.
 */
async function pressOnCustomersColumn(t, theme, column, button, shown) {
  const page = await openIn(t, theme);
  await openDemo(page);
  await unfoldTable(page, 'customers');
  await page.locator(`[data-name="customers"] .column[data-name="${column}"] [data-testid="${button}"]`).click();
  await page.getByTestId(shown).first().waitFor();
  return page;
}

// Each state of the page, reached from a fresh page in `theme`.
const STATES = {
  'the landing page': async (t, theme, options = {}) => openIn(t, theme, '', options),
  'the demo database open': async (t, theme, options = {}) => {
    const page = await openIn(t, theme, '', options);
    await openDemo(page);
    return page;
  },
  'Settings open': async (t, theme, options = {}) => {
    const page = await openIn(t, theme, '', options);
    await openDemo(page);
    await openSettings(page);
    return page;
  },
  'an answered question': async (t, theme, options = {}) => {
    const { page } = await demoWithModel(t, theme, TOKYO_TURNS, options);
    await ask(page, 'Which customers live in Tokyo?');
    await waitForAnswer(page);
    await expectAnswerRows(page, TOKYO_ROWS);
    return page;
  },
  'a refused key': async (t, theme, options = {}) => {
    const { page } = await demoWithModel(t, theme, [{ status: 401, body: { error: { message: 'invalid api key' } } }], options);
    await ask(page, 'Which customers live in Tokyo?');
    await waitForAgentError(page);
    return page;
  },
  'a replay': async (t, theme) => {
    const page = await openIn(t, theme, '?db=demo%2Fshop.db&replay=examples%2Fshop.askdb.json');
    await page.getByTestId('replay-all').click();
    await waitForAnswer(page);
    await waitUntil('the replay to finish', () => visibleText(page, 'replay-state'), (text) => /finished/.test(text ?? ''));
    return page;
  },
  'the console with a result': async (t, theme, options = {}) => {
    const page = await openIn(t, theme, '', options);
    await openDemo(page);
    await expectRows(page, TOKYO_SQL, TOKYO_ROWS);
    // A NULL too: its badge has colours of its own (the positive control: it shows).
    await runSql(page, "SELECT name, prefecture FROM customers WHERE prefecture IS NULL OR prefecture = 'Tokyo' ORDER BY id");
    await page.getByTestId('result').locator('.null-mark').first().waitFor();
    return page;
  },
  'the knowledge editor open': async (t, theme) => pressOnCustomersColumn(t, theme, 'joined_at', 'note-edit', 'note-input'),
  'a column hidden': async (t, theme) => pressOnCustomersColumn(t, theme, 'prefecture', 'hide-column', 'hidden-line'),
  'a wide answer at 400 px': async (t, theme) => {
    const { page } = await demoWithModel(t, theme, WIDE_TURNS, NARROW);
    await ask(page, 'Everything about the customers in Tokyo?');
    await waitForAnswer(page);
    await waitUntil('the evidence table', () => page.getByTestId('evidence-result').count(), (n) => n > 0);
    // Control: the state has what it is here for, tables that scroll in their boxes.
    assert.ok(await scrollsSideways(page, 'evidence-result'), 'the answer\'s table does not scroll at 400 px');
    return page;
  },
  'a kept database reopened, with its conversation brought back (issue 40)': async (t, theme) => {
    const { page } = await demoWithModel(t, theme, TOKYO_TURNS);
    await chooseFile(page, path.join(ROOT, 'www', 'demo', 'shop.db'));
    await waitForOpen(page, 'shop.db');
    await page.getByTestId('keep-db').click();
    await page.getByTestId('kept').waitFor();
    await ask(page, 'Which customers live in Tokyo?');
    await waitForAnswer(page);
    await page.reload();
    await page.getByTestId('recent-reopen').first().click();
    await waitForOpen(page, 'shop.db');
    await waitForAnswer(page);
    await page.locator('[data-testid="kept-conversations"] summary').click();
    await page.getByTestId('recent-storage').waitFor();
    return page;
  },
  'the ?embed=1 page': async (t, theme) => {
    const page = await openIn(t, theme, '?embed=1&db=demo%2Fshop.db');
    await waitForOpen(page, 'shop.db');
    return page;
  },
};

for (const theme of THEMES) {
  for (const [state, reach] of Object.entries(STATES)) {
    test(`axe-core: no WCAG 2.2 AA violation in ${state}, ${theme} theme`, async (t) => {
      const page = await reach(t, theme);
      await expectNoViolations(t, page, `${state} (${theme})`);
      assert.deepEqual(page.problems, []);
    });
  }
}

// The same states in Japanese (the browser's language, which the page follows; issue 41): the
// page's words change length and script, its structure must not change what axe finds.
const IN_JAPANESE = [
  'the landing page', 'the demo database open', 'Settings open', 'an answered question', 'a refused key',
  'the console with a result',
];
for (const state of IN_JAPANESE) {
  test(`axe-core: no WCAG 2.2 AA violation in ${state}, in Japanese`, async (t) => {
    const page = await STATES[state](t, 'light', { locale: 'ja-JP' });
    // Control: the page is in Japanese.
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
    await expectNoViolations(t, page, `${state} (Japanese)`);
    assert.deepEqual(page.problems, []);
  });
}

// Control for every test above: what axe-core is run with does find violations that are there.
test('axe-core as run here finds a target too small and text too faint (control)', async (t) => {
  const page = await openIn(t, 'dark');
  await page.evaluate(() => {
    // Two 10 px buttons side by side (a small target with room around it passes).
    const tiny = () => {
      const button = document.createElement('button');
      button.textContent = 'x';
      button.style.cssText = 'width: 10px; height: 10px; padding: 0; margin: 0; font-size: 8px';
      return button;
    };
    const faint = document.createElement('p');
    faint.textContent = 'faint words';
    faint.style.cssText = 'color: #262a33';
    document.querySelector('.app').append(tiny(), tiny(), faint);
  });
  const found = (await axeViolations(page)).map((violation) => violation.id);
  assert.ok(found.includes('target-size'), `target-size not found: ${found}`);
  assert.ok(found.includes('color-contrast'), `color-contrast not found: ${found}`);
});

/** The text of the chat's log, where a screen reader hears what is finished. */
async function announced(page) {
  return page.getByTestId('announcements').evaluate((log) => [...log.children].map((line) => line.textContent));
}

/**
 * Each text that the chat's log (and any other live region) held, from now on, in order: a
 * MutationObserver in the page writes it down at every change.
 */
async function recordLiveRegions(page) {
  await page.evaluate(() => {
    window.__heard = [];
    const last = new Map();
    const live = '[aria-live]:not([aria-live="off"]), [role="log"], [role="status"], [role="alert"]';
    const name = (region) => region.dataset.testid || region.className;
    // What the regions hold already was said before.
    for (const region of document.querySelectorAll(live)) last.set(name(region), region.textContent.trim());
    new MutationObserver(() => {
      for (const region of document.querySelectorAll(live)) {
        const text = region.textContent.trim();
        if (text && last.get(name(region)) !== text) window.__heard.push({ region: name(region), text });
        last.set(name(region), text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** The elements of `selector` that sit inside a live region: what a screen reader would read out. */
async function insideLiveRegions(page, selector) {
  return page.$$eval(selector, (elements) =>
    elements
      .filter((element) =>
        element.closest('[aria-live]:not([aria-live="off"]), [role="log"], [role="status"], [role="alert"]'),
      )
      .map((element) => element.className || element.tagName),
  );
}

test('the chat says a finished answer once, whole, and nothing of the steps or before it is final', async (t) => {
  const ANSWER = 'Answer: Alice and Evan live in Tokyo.';
  const { page } = await demoWithModel(t, 'light', [
    call('run_sql', { sql: TOKYO_SQL }, { text: 'Looking at the customers.' }),
    // Late, so that the page is seen with a step done and the answer not yet come.
    { ...finalAnswer('**Alice and Evan** live in Tokyo.', TOKYO_SQL, 'Customers with no prefecture are left out.'), delayMs: 1500 },
  ]);
  assert.deepEqual(await announced(page), [], 'the log is there, empty, before the first question');
  await recordLiveRegions(page);
  await ask(page, 'Which customers live in Tokyo?');
  // Mid-question: the run_sql step shows its rows and the model's words, the answer is not in.
  await waitUntil('the run_sql step with its rows', () => page.locator('[data-testid="step"][data-tool="run_sql"] table').count(), (n) => n > 0);
  assert.equal(await visibleText(page, 'answer'), null, 'control: the answer is not in yet');
  assert.deepEqual(await announced(page), [], 'the log said something before the answer was final');
  await waitForAnswer(page);
  await expectAnswerRows(page, TOKYO_ROWS);
  assert.deepEqual(await announced(page), [ANSWER]);
  // Everything any live region held during the question: the answer, once, and nothing else.
  assert.deepEqual(await page.evaluate(() => window.__heard), [{ region: 'announcements', text: ANSWER }]);
  // The steps, the model's words and the status line are in no live region.
  assert.deepEqual(await insideLiveRegions(page, '[data-testid="step"], .note, .agent-status, .transcript'), []);
  assert.deepEqual(page.problems, []);
});

test('a refused key is said once, with what went wrong', async (t) => {
  const { page } = await demoWithModel(t, 'light', [{ status: 401, body: { error: { message: 'invalid api key' } } }]);
  await ask(page, 'Which customers live in Tokyo?');
  const error = await waitForAgentError(page);
  assert.deepEqual(await announced(page), [error]);
});

/** The test id (or id) of the element that has the focus. */
const focused = (page) => page.evaluate(() => document.activeElement?.dataset.testid ?? document.activeElement?.id ?? null);

test('after Ask the focus is in the question box, and Stop is the next Tab while the question runs', async (t) => {
  const { page } = await demoWithModel(t, 'light', [{ ...call('list_tables'), delayMs: 5000 }]);
  await ask(page, 'Which customers live in Tokyo?');
  await waitUntil('the question to run', () => page.getByTestId('stop').isEnabled(), Boolean);
  assert.equal(await focused(page), 'question', 'clicking Ask left the focus elsewhere');
  await page.keyboard.press('Tab');
  assert.equal(await focused(page), 'stop');
});

test('Stop, pressed from the keyboard, stops the question and gives the focus back to the box', async (t) => {
  const { page } = await demoWithModel(t, 'light', [{ ...call('list_tables'), delayMs: 5000 }]);
  await ask(page, 'Which customers live in Tokyo?');
  await waitUntil('the question to run', () => page.getByTestId('stop').isEnabled(), Boolean);
  await page.getByTestId('stop').focus();
  await page.keyboard.press('Space');
  await waitUntil('the question to stop', () => page.getByTestId('ask').isEnabled(), Boolean);
  assert.equal(await focused(page), 'question');
});

/**
 * Presses Tab until the element of test id `testId` has the focus; fails, naming the elements
 * passed, if it is not reached within `limit` presses.
 */
async function tabTo(page, testId, limit = 120) {
  const passed = [];
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now === testId) return;
    passed.push(now);
  }
  throw new Error(`${testId} not reached by Tab; passed: ${passed.join(', ')}`);
}

/** Types `text` into the focused field in place of what it holds, by keys. */
async function typeOver(page, text) {
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}

test('a whole question with the keyboard alone: open the demo, set up the model, ask, reach the SQL', async (t) => {
  const llm = await scriptedLlm(t, TOKYO_TURNS);
  const page = await openIn(t, 'light');
  await tabTo(page, 'db-demo');
  await page.keyboard.press('Enter');
  await waitForOpen(page, 'shop.db');
  assert.equal(await focused(page), 'db-demo', 'the focus stays on "Open the demo" while it opens and after');
  await tabTo(page, 'settings');
  await page.keyboard.press('Enter');
  await tabTo(page, 'provider');
  assert.equal(await page.getByTestId('provider').inputValue(), 'openai', 'the provider chosen at first');
  await tabTo(page, 'base-url');
  await typeOver(page, baseUrl(llm, 'openai'));
  await tabTo(page, 'model');
  await typeOver(page, MODELS.openai);
  await tabTo(page, 'api-key');
  await page.keyboard.type(API_KEY);
  await tabTo(page, 'question');
  await page.keyboard.type('Which customers live in Tokyo?');
  await page.keyboard.press('Enter');
  await waitForAnswer(page);
  await expectAnswerRows(page, TOKYO_ROWS);
  assert.equal(await focused(page), 'question', 'Enter left the question box');
  // The answer's SQL, from the answer to the console, and run there.
  await tabTo(page, 'answer-to-console');
  await page.keyboard.press('Enter');
  assert.equal(await focused(page), 'sql-input');
  assert.equal(await page.getByTestId('sql-input').inputValue(), TOKYO_SQL);
  await page.keyboard.press('Control+Enter');
  await expectRowsShown(page, TOKYO_ROWS);
  assert.equal(llm.modelRequests().length, 2, 'the model was asked twice: the tool call and the answer');
  assert.deepEqual(page.problems, []);
});

/** Waits for the console's result to be `rows`. */
async function expectRowsShown(page, rows) {
  const expected = JSON.stringify(rows);
  await waitUntil(`the console to show ${expected}`, () => resultTable(page), (table) => JSON.stringify(table?.rows) === expected);
}

test('result tables have column headers, and one too wide for its box is a named region that scrolls by keys', async (t) => {
  const { page } = await demoWithModel(t, 'light', WIDE_TURNS, NARROW);
  await ask(page, 'Everything about the customers in Tokyo?');
  await waitForAnswer(page);
  await expectAnswerRows(page, [
    ['1', 'Alice', 'Tokyo', '2023-01-10', 'Alice', 'Tokyo', '2023-01-10', 'Alice of Tokyo'],
    ['5', 'Evan', 'Tokyo', '2023-05-01', 'Evan', 'Tokyo', '2023-05-01', 'Evan of Tokyo'],
  ]);
  const evidence = page.getByTestId('answer-result');
  const headers = await evidence.getByRole('columnheader').allTextContents();
  assert.deepEqual(headers, [
    'id', 'name', 'prefecture', 'joined_at', 'customer_name', 'where_they_live', 'customer_since', 'customer_and_prefecture',
  ]);
  const step = page.locator('[data-testid="step"][data-tool="run_sql"]');
  await step.locator('summary').click(); // the card opens onto its first rows
  const stepHeaders = await step.getByRole('columnheader').allTextContents();
  assert.deepEqual(stepHeaders, headers, 'the step card\'s table has the same headers');
  // The evidence table: wider than its box (control), reached as a named region, scrolled by keys.
  const region = evidence.getByRole('region', { name: 'Result rows' });
  assert.ok(await scrollsSideways(page, 'evidence-result'), 'control: the table is wider than its box');
  await region.focus();
  assert.equal(await focused(page), 'evidence-result', 'the scrolling table cannot take the focus');
  await page.keyboard.press('ArrowRight');
  await waitUntil('the table to scroll right', () => region.evaluate((element) => element.scrollLeft), (left) => left > 0);
});

/** The WCAG contrast ratio of two `rgb(…)` colours. */
function contrast(a, b) {
  const luminance = (color) => {
    const [r, g, b] = color.match(/[\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

for (const theme of THEMES) {
  test(`a control focused from the keyboard shows an outline that stands out, ${theme} theme`, async (t) => {
    const page = await openIn(t, theme);
    await tabTo(page, 'db-demo');
    const seen = await page.evaluate(() => {
      const button = document.activeElement;
      const style = getComputedStyle(button);
      // The outline is drawn outside the button, over what is behind it.
      let behind = button.parentElement;
      while (behind && getComputedStyle(behind).backgroundColor.replace(/\s/g, '').match(/rgba\(.*,0\)|transparent/)) {
        behind = behind.parentElement;
      }
      return {
        focusVisible: button.matches(':focus-visible'),
        style: style.outlineStyle,
        width: parseFloat(style.outlineWidth),
        color: style.outlineColor,
        background: getComputedStyle(behind ?? document.documentElement).backgroundColor,
      };
    });
    assert.ok(seen.focusVisible, 'control: the focus came from the keyboard');
    assert.equal(seen.style, 'solid', `outline: ${JSON.stringify(seen)}`);
    assert.ok(seen.width >= 2, `outline width ${seen.width}px`);
    const ratio = contrast(seen.color, seen.background);
    assert.ok(ratio >= 3, `the outline ${seen.color} on ${seen.background}: ${ratio.toFixed(2)}:1, under 3:1`);
    t.diagnostic(`outline ${seen.color} on ${seen.background}: ${ratio.toFixed(2)}:1`);
  });
}
