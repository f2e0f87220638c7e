// Hostile content from the database and from the model: HTML, script tags, event handlers,
// javascript: links and Markdown images pointing at a server that records hits. None of it
// may run or load anything; all of it shows as text.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chooseFile, expectRows, startSession, tempDir, visibleText, waitForOpen } from './harness.mjs';
import {
  ask,
  call,
  configureFor,
  cspViolations,
  expectAnswerRows,
  finalAnswer,
  openWatched,
  scriptedLlm,
  steps,
  waitForAnswer,
} from './chat-support.mjs';

let session;
let folder;
before(async () => {
  session = await startSession();
  folder = await tempDir('hostile');
});
after(async () => {
  await session?.close();
  await folder?.remove();
});

/** The values of notes.body, each an attempt to run script or to load from `origin`. */
function hostileValues(origin) {
  return [
    `<img src=x onerror="window.__pwned='db-img'">`,
    `<script>window.__pwned='db-script'</script>`,
    `![tracker](${origin}/img/db-markdown.png?leak=1)`,
    `<img src="${origin}/img/db-html.png">`,
    `[click me](javascript:window.__pwned='db-link')`,
    `<svg onload="window.__pwned='db-svg'"></svg>`,
  ];
}

/** Builds hostile.db with python3's sqlite3: a notes table of hostile values, one hostile column name. */
function buildHostileDb(file, values) {
  const script = `
import json, sqlite3, sys
values = json.loads(sys.argv[2])
db = sqlite3.connect(sys.argv[1])
db.execute('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT, "<b onmouseover=window.__pwned=1>col</b>" TEXT)')
db.executemany('INSERT INTO notes VALUES (NULL, ?, ?)', [(v, v) for v in values])
db.commit()
db.close()
`;
  execFileSync('python3', ['-c', script, file, JSON.stringify(values)]);
}

/** Everything that would show that something ran or loaded. */
async function damage(page, llm) {
  const inPage = await page.evaluate((origin) => {
    const all = Array.from(document.querySelectorAll('*'));
    return {
      pwned: window.__pwned ?? null,
      handlers: all.flatMap((el) =>
        Array.from(el.attributes)
          .filter((attribute) => /^on/i.test(attribute.name))
          .map((attribute) => `${el.tagName} ${attribute.name}`),
      ),
      images: Array.from(document.querySelectorAll('img, image, source, iframe, object, embed'))
        .map((el) => el.getAttribute('src') ?? el.getAttribute('href') ?? el.getAttribute('data') ?? '')
        .filter((src) => src.includes(origin) || src === 'x'),
      scriptLinks: Array.from(document.querySelectorAll('a[href]'))
        .map((a) => a.getAttribute('href'))
        .filter((href) => /^\s*javascript:/i.test(href)),
      loaded: performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.startsWith(origin) && name.includes('/img/')),
    };
  }, llm.url);
  return { ...inPage, dialogs: page.dialogs, hits: llm.hits.map((hit) => hit.path) };
}

const NOTHING = { pwned: null, handlers: [], images: [], scriptLinks: [], loaded: [], dialogs: [], hits: [] };

test("hostile values in a database and in the model's answer run nothing, load nothing, show as text", async (t) => {
  const llm = await scriptedLlm(t);
  const values = hostileValues(llm.url);
  const file = path.join(folder.dir, 'hostile.db');
  buildHostileDb(file, values);

  const page = await openWatched(t, session);
  await chooseFile(page, file);
  await waitForOpen(page, 'hostile.db');

  // The console shows the values as they are.
  await expectRows(page, 'SELECT body FROM notes ORDER BY id', values.map((v) => [v]));
  assert.deepEqual(await damage(page, llm), NOTHING, 'after the console');

  const sql = 'SELECT body FROM notes ORDER BY id';
  const answer =
    `The notes say <img src=x onerror="window.__pwned='answer-img'"> and ` +
    `<script>window.__pwned='answer-script'</script>. ![chart](${llm.url}/img/answer.png) ` +
    `[details](javascript:window.__pwned='answer-link') <iframe src="${llm.url}/img/frame.html"></iframe>`;
  llm.script([
    call('run_sql', { sql }, {
      text: `Looking <img src=x onerror="window.__pwned='model-text'"> ![t](${llm.url}/img/text.png)`,
    }),
    finalAnswer(answer, sql, `<img src="${llm.url}/img/notes.png"> ![n](${llm.url}/img/notes-md.png)`),
  ]);
  await configureFor(page, llm, 'openai');
  await ask(page, `Show the notes <img src=x onerror="window.__pwned='question'">`);
  const shown = await waitForAnswer(page);
  await expectAnswerRows(page, values.map((v) => [v]));

  assert.ok(shown.includes(`<script>window.__pwned='answer-script'</script>`), `script shows as text: ${shown}`);
  assert.ok(shown.includes(`onerror="window.__pwned='answer-img'"`), `the img tag shows as text: ${shown}`);
  const transcript = (await steps(page)).map((step) => step.text).join('\n');
  assert.ok(transcript.includes('SELECT body FROM notes'), 'the run_sql step shows its SQL');
  assert.ok(
    (await page.textContent('body')).includes(`onerror="window.__pwned='model-text'"`),
    "the model's own text shows as text",
  );

  // The model saw the rows as data too.
  const toolResult = llm.modelRequests()[1].body.messages.find((m) => m.role === 'tool');
  assert.ok(toolResult.content.includes('db-script'), 'the rows went to the model');

  assert.deepEqual(await damage(page, llm), NOTHING, 'after the answer');
  // Under the page's CSP, an attempt to load or run any of it would also be a violation.
  assert.deepEqual(await cspViolations(page), []);
  assert.equal(await visibleText(page, 'agent-error'), null);
  assert.deepEqual(page.problems, []);
});
