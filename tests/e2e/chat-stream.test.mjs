// Replies as they are written (issue 39): a scripted model that streams slowly, each of the three
// providers. The first words are on the screen before the reply ends (the order of events is
// asserted, not a time); Stop mid-stream aborts the request (the server sees the connection
// close); the screen reader's log hears the finished answer once, never a half-written one; a
// streamed conversation saves as a whole one does and replays the same; "Stream replies" off
// asks for whole replies.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionForFile, waitUntil } from './harness.mjs';
import {
  PROVIDERS,
  TOKYO_ROWS,
  TOKYO_SQL,
  ask,
  call,
  demoWithLlm,
  expectAnswerRows,
  finalAnswer,
  isIdle,
  openSettings,
  waitForAnswer,
} from './chat-support.mjs';

const session = sessionForFile();

const ANSWER =
  'Two customers live in **Tokyo**: Alice and Evan. Both placed their first order in 2023, ' +
  'and neither has ordered since the spring.';
const ANSWER_SHOWN = 'Two customers live in Tokyo: Alice and Evan. Both placed their first order in 2023';
/** What the model writes before its answer (Gemini sends a call whole: only words stream). */
const PREFACE = 'Both rows came back; writing the answer with the query that found them.';

/** A slow stream: pieces of 6 characters, 60 ms apart (the answer alone is about 20 pieces). */
const slowly = { pieceChars: 6, pieceDelayMs: 60 };

/**
 * Watches, in the page, the draft (the reply being written) and the screen reader's log: when
 * each first showed text, and every text the log ever held.
 */
async function watchDraftAndLog(page) {
  await page.evaluate(() => {
    window.__seen = { draftAt: null, draftTexts: [], logTexts: [] };
    const look = () => {
      const draft = document.querySelector('[data-testid="draft"]');
      if (draft && draft.textContent.trim()) {
        window.__seen.draftAt ??= Date.now();
        window.__seen.draftTexts.push(draft.textContent);
      }
      const log = document.querySelector('[data-testid="announcements"]');
      if (log) window.__seen.logTexts.push(log.textContent);
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

for (const provider of PROVIDERS) {
  test(`${provider}: the first words are on the screen before the reply ends, and the log says the answer once`, async (t) => {
    const { llm, page } = await demoWithLlm(
      t,
      session,
      [call('run_sql', { sql: TOKYO_SQL }), finalAnswer(ANSWER, TOKYO_SQL, '', { text: PREFACE, ...slowly })],
      provider,
    );
    await watchDraftAndLog(page);
    await ask(page, 'Which customers live in Tokyo?');
    const shown = await waitForAnswer(page);
    assert.match(shown, /Alice and Evan/);
    await expectAnswerRows(page, TOKYO_ROWS);

    const requests = llm.modelRequests();
    const last = requests.at(-1);
    assert.ok(last.streamed?.length > 10, `the answer came as a stream of events (${last.streamed?.length})`);
    const seen = await page.evaluate(() => window.__seen);
    // The order: the draft had text while the server still had events to send.
    const lastEventAt = last.streamStartedAt + last.streamed.at(-1);
    assert.ok(seen.draftAt !== null, 'the reply being written was shown');
    assert.ok(
      seen.draftAt < lastEventAt,
      `the first words showed ${lastEventAt - seen.draftAt} ms before the last piece was sent`,
    );
    // What the draft showed: the words, then the answer, each as far as written, nothing else.
    const partial = seen.draftTexts.find((text) => text.trim().length < 30);
    assert.ok(partial, `a half-written reply was on the screen: ${seen.draftTexts.slice(0, 3)}`);
    for (const text of seen.draftTexts.map((text) => text.trim())) {
      const ofPreface = PREFACE.startsWith(text);
      // Rendered, or with a mark still open ("**Tok") as typed.
      const ofAnswer = ANSWER_SHOWN.startsWith(text.slice(0, ANSWER_SHOWN.length)) || ANSWER.startsWith(text);
      assert.ok(ofPreface || ofAnswer, `the draft held only what was written: ${text}`);
    }
    if (provider !== 'gemini') {
      assert.ok(seen.draftTexts.some((text) => /^Two customers live in Tokyo: Al/.test(text.trim()) && text.length < 80),
        'the answer itself showed half-written');
    }
    assert.equal(await page.locator('[data-testid="draft"]').count(), 0, 'the draft is gone once the answer is');
    // The log: the finished answer once, never a half-written one.
    const log = await page.textContent('[data-testid="announcements"]');
    assert.equal(log.split('Alice and Evan').length - 1, 1, `the answer is said once: ${log}`);
    for (const text of seen.logTexts) {
      assert.ok(!/Two custo(?!mers live in Tokyo: Alice)/.test(text), `the log never held a half answer: ${text}`);
    }
    // Time to first token, with the step's time.
    assert.match(await page.textContent('.transcript'), /The model replied in [\d.]+ m?s; first token after [\d.]+ m?s\./);
  });
}

test('Stop mid-stream aborts the request: the server sees the connection close', async (t) => {
  const { llm, page } = await demoWithLlm(t, session, [
    finalAnswer(ANSWER, TOKYO_SQL, '', { pieceChars: 4, pieceDelayMs: 250 }),
  ]);
  await watchDraftAndLog(page);
  await ask(page, 'Which customers live in Tokyo?');
  await waitUntil('the answer being written', () => page.evaluate(() => window.__seen.draftTexts.at(-1) ?? ''), (text) =>
    text.includes('Two'));
  await page.getByTestId('stop').click();
  const request = llm.modelRequests()[0];
  await waitUntil('the server to see the client hang up', () => request.aborted === true, Boolean);
  assert.ok(
    request.streamed.length < 30,
    `the server stopped writing at once (${request.streamed.length} of about 45 events)`,
  );
  assert.ok(await isIdle(page));
  const transcript = await page.textContent('.transcript');
  assert.match(transcript, /Written before the stop: Two/, 'what was written stays, marked');
  assert.match(transcript, /Stopped\./);
});

test('a streamed conversation saves as a whole one and replays the same; "Stream replies" off asks whole', async (t) => {
  const turns = [call('run_sql', { sql: TOKYO_SQL }), finalAnswer(ANSWER, TOKYO_SQL)];
  const saved = {};
  for (const stream of [true, false]) {
    const { llm, page } = await demoWithLlm(t, session, turns);
    if (!stream) {
      await openSettings(page);
      await page.getByTestId('stream-replies').uncheck();
    }
    await ask(page, 'Which customers live in Tokyo?');
    await waitForAnswer(page);
    const asked = llm.modelRequests();
    assert.equal(asked[0].body.stream === true, stream, `stream ${stream}: the request says so`);
    assert.equal(Boolean(asked[0].streamed), stream, `stream ${stream}: the server streamed`);
    const download = page.waitForEvent('download');
    await page.getByTestId('save-conversation').click();
    const file = await (await download).path();
    saved[stream] = JSON.parse(await (await import('node:fs/promises')).readFile(file, 'utf8'));
  }
  // The same file either way, but for the times and when it was saved.
  // The query's own time is in its result's text.
  const strip = (value) =>
    JSON.parse(JSON.stringify(value, (key, v) => {
      // Times, when it was saved, and the scripted server's port (one server each).
      if (/_ms$|_at$|^saved|^elapsed|^base_url$/.test(key)) return undefined;
      return typeof v === 'string' ? v.replace(/"elapsed_ms":[\d.]+/g, '') : v;
    }));
  assert.deepEqual(strip(saved.true), strip(saved.false));
});

test('a server that answers whole when asked for a stream is read whole', async (t) => {
  const { llm, page } = await demoWithLlm(t, session, [
    { ...call('run_sql', { sql: TOKYO_SQL }), whole: true },
    { ...finalAnswer(ANSWER, TOKYO_SQL), whole: true },
  ]);
  await watchDraftAndLog(page);
  await ask(page, 'Which customers live in Tokyo?');
  assert.match(await waitForAnswer(page), /Alice and Evan/);
  await expectAnswerRows(page, TOKYO_ROWS);
  const requests = llm.modelRequests();
  assert.ok(requests.every((r) => r.body.stream === true), 'asked for a stream');
  assert.ok(requests.every((r) => !r.streamed), 'answered whole');
  assert.equal(await page.evaluate(() => window.__seen.draftAt), null, 'nothing was shown half-written');
  assert.doesNotMatch(await page.textContent('.transcript'), /first token/, 'no first-token time for a whole reply');
});
