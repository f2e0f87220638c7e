// Helpers for the chat ("Ask the database") end-to-end tests: the page and a scripted LLM
// together, the settings panel, asking, and reading the transcript, answer and errors back
// through the page's data-testid contract.

import { createServer } from 'node:net';
import { openDemo, resultTable, STEP_TIMEOUT_MS, visibleText, waitUntil } from './harness.mjs';
import { startLlmServer } from './llm-server.mjs';

export const PROVIDERS = ['openai', 'anthropic', 'gemini'];

/** A key no other string in a test contains, so finding it anywhere is a leak. */
export const API_KEY = 'sk-askdb-e2e-9f3c51d2b7a84e06';

export const MODELS = {
  openai: 'gpt-scripted',
  anthropic: 'claude-scripted',
  gemini: 'gemini-scripted',
};

/** The base URL one would type for each provider, pointing at the scripted server. */
export function baseUrl(llm, provider) {
  return {
    openai: `${llm.url}/v1`,
    anthropic: llm.url,
    gemini: `${llm.url}/v1beta`,
  }[provider];
}

/** The SQL of the Tokyo episodes, and the rows it gives on shop.db. */
export const TOKYO_SQL = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";
export const TOKYO_ROWS = [['Alice'], ['Evan']];

/** The agent's tools, as the contract names them. */
export const TOOL_NAMES = ['cross_check', 'describe_table', 'final_answer', 'list_tables', 'run_sql'];

/**
 * A scripted LLM of its own for one test (so no turn or record leaks between tests),
 * closed when the test ends.
 */
export async function scriptedLlm(t, turns = []) {
  const llm = await startLlmServer(turns);
  t.after(() => llm.close());
  return llm;
}

/** A tool call turn: `call('run_sql', { sql })`, or several calls in one turn with `calls`. */
export const call = (name, args = {}, extra = {}) => ({ toolCalls: [{ name, args }], ...extra });
export const calls = (list, extra = {}) => ({ toolCalls: list.map(([name, args]) => ({ name, args })), ...extra });
export const finalAnswer = (answer, sql, notes = '', extra = {}) =>
  call('final_answer', { answer, sql, notes }, extra);

/**
 * Records what must never happen on a page: dialogs (dismissed) and CSP violations (from
 * the document, as events, and from anywhere, as console messages). Call before `page.goto`.
 */
async function watch(page) {
  page.dialogs = [];
  page.cspViolations = [];
  page.on('dialog', (dialog) => {
    page.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) page.cspViolations.push(message.text());
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
}

/**
 * `session.open` at `search`, with `watch` in place before the page loads, closed after test
 * `t`; `context`: playwright's options for its browser context.
 */
export async function openWatched(t, session, search = '', context = {}) {
  return session.open({ search, beforeLoad: watch, closeAfter: t, context });
}

/**
 * The demo database open and the chat set up for `provider` on a scripted LLM with `turns`,
 * both for test `t` only; `context` as for `openWatched`.
 */
export async function demoWithLlm(t, session, turns, provider = 'openai', context = {}) {
  const llm = await scriptedLlm(t, turns);
  const page = await openWatched(t, session, '', context);
  await openDemo(page);
  await configureFor(page, llm, provider);
  return { llm, page };
}

/** Every CSP violation seen so far, from events and console messages. */
export async function cspViolations(page) {
  const fromEvents = await page.evaluate(() => window.__cspViolations ?? []);
  return [...fromEvents, ...page.cspViolations];
}

/** The address that opens the page with the chat settings (and a question) given. */
export function chatAddress(llm, provider, question) {
  const params = new URLSearchParams({ provider, base_url: baseUrl(llm, provider), model: MODELS[provider] });
  if (question !== undefined) params.set('q', question);
  return `?${params}`;
}

/**
 * Opens the settings panel unless it is open (the page opens it itself when the address asked
 * for something it could not use). Asked of the button, not of the fields: those are drawn a
 * moment after the panel opens, once their code is here (`ui::lazy::when_here`), and a click
 * in that moment would close it.
 */
export async function openSettings(page) {
  const button = page.getByTestId('settings');
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await page.getByTestId('api-key').waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
}

/** Fills the settings: `provider`, `baseUrl`, `model` (each only when given) and `apiKey`. */
export async function configure(page, { provider, baseUrl: url, model, apiKey = API_KEY }) {
  await openSettings(page);
  if (provider !== undefined) await page.getByTestId('provider').selectOption(provider);
  if (url !== undefined) await page.getByTestId('base-url').fill(url);
  if (model !== undefined) await page.getByTestId('model').fill(model);
  await page.getByTestId('api-key').fill(apiKey);
}

/** Settings for `provider` on the scripted server, typed into the panel. */
export async function configureFor(page, llm, provider, apiKey = API_KEY) {
  await configure(page, { provider, baseUrl: baseUrl(llm, provider), model: MODELS[provider], apiKey });
}

/**
 * The question itself from the text of its user message: what the agent sends with a question
 * (the demo's glossary terms and worked examples, the tables picked for it, the values it
 * names) follows it, each part after this separator.
 */
export const PART_SEPARATOR = '\n\n---\n';
export const questionOf = (text) => text.split(PART_SEPARATOR)[0];

/** Types a question and asks it. */
export async function ask(page, question) {
  await page.getByTestId('question').fill(question);
  await page.getByTestId('ask').click();
}

/** Waits for the answer; fails at once with the page's error if the agent fails instead. */
export async function waitForAnswer(page, timeout = STEP_TIMEOUT_MS) {
  const state = await waitUntil(
    'an answer',
    async () => ({ answer: await visibleText(page, 'answer'), error: await visibleText(page, 'agent-error') }),
    ({ answer, error }) => Boolean(answer) || Boolean(error),
    timeout,
  );
  if (state.error) throw new Error(`the agent failed instead of answering: ${state.error}`);
  return state.answer;
}

/** Waits for the agent's error message and returns it. */
export async function waitForAgentError(page, timeout = STEP_TIMEOUT_MS) {
  const { error } = await waitUntil(
    'an error message in agent-error',
    async () => ({ error: await visibleText(page, 'agent-error'), answer: await visibleText(page, 'answer') }),
    ({ error, answer }) => Boolean(error) || Boolean(answer),
    timeout,
  );
  if (!error) throw new Error('the agent answered where an error was expected');
  return error;
}

/** The transcript's steps: { tool, text } in page order (text even when folded away). */
export async function steps(page) {
  return page.$$eval('[data-testid="step"]', (items) =>
    items.map((item) => ({ tool: item.dataset.tool ?? '', text: item.textContent })),
  );
}

/** The tools the transcript shows, in order, leaving out steps without a tool. */
export async function stepTools(page) {
  return (await steps(page)).map((step) => step.tool).filter(Boolean);
}

/** Waits until the answer's re-run result shows exactly `rows`. */
export async function expectAnswerRows(page, rows) {
  const expected = JSON.stringify(rows);
  return waitUntil(
    `answer-result to show ${expected}`,
    () => resultTable(page, 'answer-result'),
    (table) => table !== null && JSON.stringify(table.rows) === expected,
  );
}

/** Whether the page is idle: Ask is enabled and Stop is not offered. */
export async function isIdle(page) {
  const askEnabled = await page.getByTestId('ask').isEnabled();
  const stop = page.getByTestId('stop');
  const stopOffered = (await stop.count()) > 0 && (await stop.isVisible()) && (await stop.isEnabled());
  return askEnabled && !stopOffered;
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until the scripted server has seen `count` model requests; returns them all. */
export async function modelRequestsReach(llm, count) {
  await waitUntil(
    `${count} model request(s) at the scripted server`,
    () => llm.modelRequests().length,
    (seen) => seen >= count,
  );
  return llm.modelRequests();
}

/** All text of a request body, to search for what was sent. */
export const bodyText = (request) => JSON.stringify(request.body);
