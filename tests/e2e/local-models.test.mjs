// Local models whose chat template writes tool calls as text (Hermes/Qwen's <tool_call> tags,
// Mistral's [TOOL_CALLS]) over the OpenAI-compatible endpoint: the page runs them, says so in
// the transcript, and sends them back as tool calls; a model that never calls a tool gets a
// note on the settings that help.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionForFile } from './harness.mjs';
import {
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  demoWithLlm,
  expectAnswerRows,
  stepTools,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

const notes = (page, kind) =>
  page.$$eval(`.note.${kind}`, (items) => items.filter((item) => item.checkVisibility()).map((item) => item.textContent));

test('tool calls written as text are run, said so, and sent back as tool calls', async (t) => {
  const query = JSON.stringify({ name: 'run_sql', arguments: { sql: TOKYO_SQL } });
  const { llm, page } = await demoWithLlm(t, session, [
    { text: `Let me look.\n<tool_call>\n${query}\n</tool_call>` },
    {
      text: `[TOOL_CALLS] [{'name': 'final_answer', 'arguments': {'answer': 'Alice and Evan', 'sql': "${TOKYO_SQL}",}}]`,
    },
  ]);
  await ask(page, 'Which customers live in Tokyo?');
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, TOKYO_ROWS);
  const unverified = await page.evaluate(
    () => document.querySelector('[data-testid="answer"] .unverified')?.checkVisibility() ?? false,
  );
  assert.equal(unverified, false, 'the query ran: the answer is checked');
  assert.deepEqual(await stepTools(page), ['run_sql', 'final_answer']);
  const said = await notes(page, 'calls-in-text');
  assert.equal(said.length, 2, `one note per reply (got ${JSON.stringify(said)})`);
  assert.match(said[0], /wrote a tool call as text \(<tool_call> tags\).*askdb read and ran it/);
  assert.match(said[1], /\[TOOL_CALLS\].*repaired: single quotes made double, a trailing comma left out/);
  // The second request carries the call as a tool call, and its rows as the tool's answer.
  const messages = llm.modelRequests()[1].body.messages;
  const turn = messages.find((message) => message.role === 'assistant');
  assert.equal(turn.content, 'Let me look.');
  assert.equal(turn.tool_calls[0].id, 'text-1-1');
  assert.equal(turn.tool_calls[0].function.name, 'run_sql');
  const result = messages.find((message) => message.role === 'tool');
  assert.equal(result.tool_call_id, 'text-1-1');
  assert.match(result.content, /Alice/);
});

test('a model that never calls a tool is told apart, with the settings that help', async (t) => {
  const { page } = await demoWithLlm(t, session, [
    { text: 'I think Alice and Evan live in Tokyo.' },
    { text: 'Alice and Evan.' },
  ]);
  await ask(page, 'Which customers live in Tokyo?');
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  const said = await notes(page, 'tools-never-called');
  assert.equal(said.length, 1, `one note (got ${JSON.stringify(said)})`);
  assert.match(said[0], /without calling any tool/);
  assert.match(said[0], /--jinja/);
});
