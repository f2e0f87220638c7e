// A whole question per provider (OpenAI, Anthropic, Gemini) on the demo database, against the
// scripted LLM: the transcript, the answer with its re-run result, the token usage, the
// requests as each provider's API expects them, and no CSP violation on the way.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDemo, sessionForFile, visibleText } from './harness.mjs';
import {
  API_KEY,
  MODELS,
  TOKYO_ROWS,
  TOKYO_SQL,
  TOOL_NAMES,
  ask,
  baseUrl,
  bodyText,
  calls,
  call,
  chatAddress,
  configure,
  cspViolations,
  demoWithLlm,
  expectAnswerRows,
  finalAnswer,
  openSettings,
  openWatched,
  questionOf,
  scriptedLlm,
  stepTools,
  steps,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

const QUESTION = 'Which customers live in Tokyo?';
const ANSWER = 'Alice and Evan live in Tokyo.';

/** Three model turns; the first calls two tools at once. Token counts add up to 666 in, 24 out. */
const EPISODE = [
  calls([['list_tables', {}], ['describe_table', { table: 'customers' }]], { usage: { input: 211, output: 7 } }),
  call('run_sql', { sql: TOKYO_SQL }, { usage: { input: 222, output: 8 } }),
  finalAnswer(ANSWER, TOKYO_SQL, 'Two of the six customers.', { usage: { input: 233, output: 9 } }),
];

/** Asks the episode's question and checks everything the page shows for it. */
async function runEpisode(page, llm) {
  await ask(page, QUESTION);
  const answer = await waitForAnswer(page);
  assert.match(answer, /Alice and Evan live in Tokyo\./);
  assert.match((await visibleText(page, 'answer-sql')) ?? '', /prefecture\s*=\s*'Tokyo'/);
  await expectAnswerRows(page, TOKYO_ROWS);

  const tools = await stepTools(page);
  const called = tools.at(-1) === 'final_answer' ? tools.slice(0, -1) : tools;
  assert.deepEqual(called, ['list_tables', 'describe_table', 'run_sql'], `steps shown: ${tools}`);
  const sqlStep = (await steps(page)).find((step) => step.tool === 'run_sql');
  assert.match(sqlStep.text, /prefecture\s*=\s*'Tokyo'/, 'the run_sql step shows its SQL');

  const usage = (await visibleText(page, 'usage')) ?? '';
  assert.match(usage, /\b666\b/, `usage shows the input tokens (211 + 222 + 233): "${usage}"`);
  assert.match(usage, /\b24\b/, `usage shows the output tokens (7 + 8 + 9): "${usage}"`);

  assert.equal(llm.remaining(), 0, 'every scripted turn was used');
  const requests = llm.modelRequests();
  assert.equal(requests.length, 3);
  for (const request of requests) {
    assert.ok(bodyText(request).includes(QUESTION), 'each request carries the question');
    assert.ok(!bodyText(request).includes(API_KEY), 'the key is not in any body');
  }
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(page.dialogs, []);
  assert.deepEqual(page.problems, []);
  return requests;
}

/** Names of the tools a request offers, sorted. */
const offered = (names) => [...names].sort();

test('index.html sets a Content-Security-Policy', async (t) => {
  const page = await openWatched(t, session);
  const policy = await page.evaluate(
    () => document.querySelector('meta[http-equiv="Content-Security-Policy" i]')?.content ?? null,
  );
  assert.ok(policy, 'a <meta http-equiv="Content-Security-Policy"> in index.html');
  assert.match(policy, /default-src|script-src/, `the policy restricts scripts: ${policy}`);
  assert.doesNotMatch(policy, /script-src[^;]*'unsafe-inline'/, `no inline scripts: ${policy}`);
});

test('OpenAI: settings typed in, a whole episode, Chat Completions requests', async (t) => {
  const { llm, page } = await demoWithLlm(t, session, EPISODE, 'openai');
  const requests = await runEpisode(page, llm);

  for (const { path, headers, body } of requests) {
    assert.equal(path, '/v1/chat/completions');
    assert.equal(headers.authorization, `Bearer ${API_KEY}`);
    assert.equal(headers['x-api-key'], undefined);
    assert.equal(headers['x-goog-api-key'], undefined);
    assert.match(headers['content-type'], /^application\/json/);
    assert.equal(body.model, MODELS.openai);
    assert.equal(body.messages[0].role, 'system');
    assert.ok(body.messages[0].content.length > 0, 'a system prompt');
    const user = body.messages[1];
    assert.deepEqual({ ...user, content: questionOf(user.content) }, { role: 'user', content: QUESTION });
    assert.ok(body.tools.every((tool) => tool.type === 'function' && tool.function.parameters.type === 'object'));
    assert.deepEqual(offered(body.tools.map((tool) => tool.function.name)), TOOL_NAMES);
  }

  // The second request replays the two calls and answers each with a role "tool" message.
  const messages = requests[1].body.messages;
  assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'tool']);
  const assistant = messages[2];
  assert.deepEqual(assistant.tool_calls.map((c) => c.function.name), ['list_tables', 'describe_table']);
  assert.deepEqual(JSON.parse(assistant.tool_calls[1].function.arguments), { table: 'customers' });
  assert.deepEqual(messages.slice(3).map((m) => m.tool_call_id), assistant.tool_calls.map((c) => c.id));
  assert.ok(messages.slice(3).every((m) => typeof m.content === 'string'));
  assert.match(messages[4].content, /prefecture/, 'describe_table tells the columns');

  const third = requests[2].body.messages;
  assert.deepEqual(third.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'tool']);
  assert.equal(third[6].tool_call_id, third[5].tool_calls[0].id);
  assert.match(third[6].content, /Alice/);
  assert.match(third[6].content, /Evan/);
});

test('Anthropic: settings from the address, a whole episode, Messages requests', async (t) => {
  const llm = await scriptedLlm(t, EPISODE);
  const page = await openWatched(t, session, chatAddress(llm, 'anthropic', QUESTION));
  await openDemo(page);
  await openSettings(page);
  assert.equal(await page.getByTestId('provider').inputValue(), 'anthropic');
  assert.equal(await page.getByTestId('base-url').inputValue(), baseUrl(llm, 'anthropic'));
  assert.equal(await page.getByTestId('model').inputValue(), MODELS.anthropic);
  assert.equal(await page.getByTestId('question').inputValue(), QUESTION, '?q= fills the question');
  await configure(page, {});
  const requests = await runEpisode(page, llm);

  for (const { path, headers, body } of requests) {
    assert.equal(path, '/v1/messages');
    assert.equal(headers['x-api-key'], API_KEY);
    assert.equal(headers['anthropic-version'], '2023-06-01');
    assert.equal(headers['anthropic-dangerous-direct-browser-access'], 'true');
    assert.equal(headers.authorization, undefined);
    assert.equal(body.model, MODELS.anthropic);
    assert.ok(Number.isInteger(body.max_tokens) && body.max_tokens > 0, 'max_tokens is required');
    assert.ok(JSON.stringify(body.system ?? '').length > 2, 'a system prompt');
    assert.ok(body.tools.every((tool) => tool.input_schema?.type === 'object'));
    assert.deepEqual(offered(body.tools.map((tool) => tool.name)), TOOL_NAMES);
    const roles = body.messages.map((m) => m.role);
    assert.equal(roles[0], 'user');
    assert.ok(roles.every((role, i) => i === 0 || role !== roles[i - 1]), `roles alternate: ${roles}`);
  }

  // All results of one turn go back in one user message, as tool_result blocks.
  const messages = requests[1].body.messages;
  assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
  const uses = messages[1].content.filter((block) => block.type === 'tool_use');
  assert.deepEqual(uses.map((block) => block.name), ['list_tables', 'describe_table']);
  assert.deepEqual(uses[1].input, { table: 'customers' });
  const results = messages[2].content;
  assert.ok(results.every((block) => block.type === 'tool_result'), JSON.stringify(results));
  assert.deepEqual(results.map((block) => block.tool_use_id), uses.map((block) => block.id));
  assert.match(JSON.stringify(results[1].content), /prefecture/);

  const third = requests[2].body.messages;
  assert.deepEqual(third.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'user']);
  assert.equal(third[4].content.length, 1);
  assert.equal(third[4].content[0].tool_use_id, third[3].content.find((b) => b.type === 'tool_use').id);
  assert.match(JSON.stringify(third[4].content[0].content), /Alice.*Evan/s);
});

test('Gemini: settings from the address, a whole episode, streamGenerateContent requests', async (t) => {
  const llm = await scriptedLlm(t, EPISODE);
  const page = await openWatched(t, session, chatAddress(llm, 'gemini'));
  await openDemo(page);
  await openSettings(page);
  assert.equal(await page.getByTestId('provider').inputValue(), 'gemini');
  assert.equal(await page.getByTestId('model').inputValue(), MODELS.gemini);
  await configure(page, {});
  const requests = await runEpisode(page, llm);

  for (const { path, query, headers, body } of requests) {
    // Streamed (the default, "Stream replies"): the same request at Gemini's stream address.
    assert.equal(path, `/v1beta/models/${MODELS.gemini}:streamGenerateContent`);
    assert.equal(query.alt, 'sse', 'as server-sent events');
    assert.equal(headers['x-goog-api-key'], API_KEY);
    assert.equal(query.key, undefined, 'the key is not in the address');
    assert.equal(headers.authorization, undefined);
    assert.ok(body.systemInstruction.parts[0].text.length > 0, 'a system instruction');
    const declarations = body.tools.flatMap((tool) => tool.functionDeclarations ?? []);
    assert.deepEqual(offered(declarations.map((d) => d.name)), TOOL_NAMES);
    assert.ok(body.contents.every((content) => ['user', 'model'].includes(content.role)));
    const [part] = body.contents[0].parts;
    assert.deepEqual(
      { ...body.contents[0], parts: [{ ...part, text: questionOf(part.text) }] },
      { role: 'user', parts: [{ text: QUESTION }] },
    );
  }

  const contents = requests[1].body.contents;
  assert.deepEqual(contents.map((c) => c.role), ['user', 'model', 'user']);
  const functionCalls = contents[1].parts.filter((part) => part.functionCall).map((part) => part.functionCall);
  assert.deepEqual(functionCalls.map((c) => c.name), ['list_tables', 'describe_table']);
  assert.deepEqual(functionCalls[1].args, { table: 'customers' });
  const responses = contents[2].parts.map((part) => part.functionResponse);
  assert.ok(responses.every(Boolean), `only functionResponse parts: ${JSON.stringify(contents[2].parts)}`);
  assert.deepEqual(responses.map((r) => r.name), ['list_tables', 'describe_table']);
  assert.ok(responses.every((r) => typeof r.response === 'object' && r.response !== null));
  assert.match(JSON.stringify(responses[1].response), /prefecture/);

  const third = requests[2].body.contents;
  assert.deepEqual(third.map((c) => c.role), ['user', 'model', 'user', 'model', 'user']);
  const last = third[4].parts[0].functionResponse;
  assert.equal(last.name, 'run_sql');
  assert.match(JSON.stringify(last.response), /Alice.*Evan/s);
});
