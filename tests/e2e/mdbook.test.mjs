// mdbook-askdb with the real mdBook (the version scripts/setup.sh pins; scripts/test.sh installs
// it with setup_mdbook before these tests): a small book with a demo in a chapter at its root and
// one in a sub-folder is built; its HTML, served as a static site, shows both demos in Chromium,
// which load their databases and replay their recordings with no key and no model, and follow
// the book's theme switch. A bad key, a missing file and a recording made on another database
// fail the build, each named with its chapter, file and line. Screenshots go to
// tests/e2e/.artifacts/.

import assert from 'node:assert/strict';
import { copyFile, lstat, mkdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DIST, ROOT, startSession, tempDir, visibleText, waitForOpen, waitUntil } from './harness.mjs';
import { nativeBinary, pinnedMdbook, run } from './native-tools.mjs';

const ARTIFACTS = path.join(ROOT, 'tests', 'e2e', '.artifacts');
const SHOP_QUESTION = 'How many orders did customers in 東京都 place?';
const GENRES_QUESTION = 'Which five genres have sold the most tracks?';

let mdbook;
let env;
let scratch;

before(async () => {
  mdbook = await pinnedMdbook(); // fails, saying how to install it, when it is not there
  const preprocessor = await nativeBinary('mdbook-askdb');
  env = { ...process.env, PATH: `${path.dirname(preprocessor)}${path.delimiter}${process.env.PATH}` };
  scratch = await tempDir('mdbook');
  await mkdir(ARTIFACTS, { recursive: true });
});
after(() => scratch?.remove());

/** Writes a book under `name`: `files` (text, or { from: path } to copy), with book.toml. */
async function writeBook(name, files) {
  const root = path.join(scratch.dir, name);
  const all = {
    'book.toml': `[book]\ntitle = "askdb demos"\n\n[preprocessor.askdb]\npage = ${JSON.stringify(DIST)}\n`,
    ...files,
  };
  for (const [relative, content] of Object.entries(all)) {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    if (typeof content === 'string') await writeFile(file, content);
    else await copyFile(content.from, file);
  }
  return root;
}

const DATA = {
  'src/data/shop.db': { from: path.join(ROOT, 'www/demo/shop.db') },
  'src/data/shop.askdb.json': { from: path.join(ROOT, 'www/examples/shop.askdb.json') },
  'src/data/chinook.sqlite': { from: path.join(ROOT, 'www/examples/chinook/Chinook_Sqlite.sqlite') },
  'src/data/chinook.askdb.json': { from: path.join(ROOT, 'www/examples/chinook.askdb.json') },
};

/** `mdbook build` of the book at `root`: its exit code and what it said. */
async function build(root) {
  return run(mdbook, ['build', root], { env, maxBuffer: 1 << 24 }).then(
    ({ stdout, stderr }) => ({ code: 0, said: stdout + stderr }),
    (error) => ({ code: error.code, said: `${error.stdout}${error.stderr}` }),
  );
}

test('a book with two demos builds, and each demo loads and replays in Chromium with no key', async (t) => {
  const root = await writeBook('good', {
    ...DATA,
    'src/SUMMARY.md': '# Summary\n\n[Introduction](intro.md)\n\n- [Music](guide/music.md)\n',
    'src/intro.md': `# Introduction

A shop's orders, asked in Japanese:

\`\`\`askdb
db = "data/shop.db"
replay = "data/shop.askdb.json"
q = "${SHOP_QUESTION}"
\`\`\`

The answer above is a replay.
`,
    'src/guide/music.md': `# Music

\`\`\`askdb
# the Chinook sample database
db = "../data/chinook.sqlite"
replay = "../data/chinook.askdb.json"
q = "${GENRES_QUESTION}"
title = "askdb: the music store"
\`\`\`
`,
  });
  const { code, said } = await build(root);
  assert.equal(code, 0, said);
  // The page is linked into src/ for the build, and copied into the book by mdBook.
  const link = path.join(root, 'src', 'askdb');
  assert.ok((await lstat(link)).isSymbolicLink());
  assert.equal(await readlink(link), DIST);
  const chapter = await readFile(path.join(root, 'book', 'guide', 'music.html'), 'utf8');
  assert.match(chapter, /<script src="\.\.\/askdb\/askdb-embed\.js"><\/script>/);
  assert.match(chapter, /<askdb-demo db="\.\.\/data\/chinook\.sqlite"/);
  assert.doesNotMatch(chapter, /```askdb|language-askdb/, 'no block left as code');

  const session = await startSession({ mounts: { book: path.join(root, 'book') } });
  t.after(() => session.close());
  const context = await session.browser.newContext({ viewport: { width: 1100, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('request', (request) => requests.push(request.url()));

  for (const [address, database, answer, question] of [
    ['book/guide/music.html', 'chinook.sqlite', /Rock sold the most tracks/, GENRES_QUESTION],
    ['book/intro.html', 'shop.db', /4 orders/, SHOP_QUESTION],
  ]) {
    await page.goto(`${session.url}/${address}`);
    const iframe = await page.waitForSelector('askdb-demo iframe');
    const src = new URL(await iframe.getAttribute('src'));
    assert.equal(src.pathname, '/book/askdb/index.html', address);
    assert.equal(src.searchParams.get('q'), question);
    const frame = await iframe.contentFrame();
    await waitForOpen(frame, database);
    await waitUntil(`${address}: the replay to finish`, () => visibleText(frame, 'replay-state'), (text) => /finished/.test(text ?? ''));
    assert.match(await visibleText(frame, 'answer'), answer, address);
    assert.equal(await visibleText(frame, 'replay-differences'), null, `${address}: as recorded`);
    assert.equal(await visibleText(frame, 'replay-other-database'), null, `${address}: the recorded database`);
    await waitUntil(`${address}: the frame to fit its content`,
      async () => [await iframe.evaluate((e) => e.style.height),
        await frame.evaluate(() => Math.ceil(document.querySelector('.app').getBoundingClientRect().height))],
      ([height, content]) => height === `${content}px`);
  }
  await page.screenshot({ path: path.join(ARTIFACTS, 'mdbook-light.png'), fullPage: true });

  // mdBook's theme switch (a class on <html>): the demo follows it.
  const frame = await (await page.waitForSelector('askdb-demo iframe')).contentFrame();
  const brightness = async () => {
    const css = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = css.match(/[\d.]+/g).map(Number);
    return (r * 299 + g * 587 + b * 114) / 1000;
  };
  assert.ok(await brightness() > 200, 'light, as the book');
  await page.evaluate(() => {
    const html = document.documentElement;
    html.classList.remove('light');
    html.classList.add('coal');
  });
  await waitUntil('the demo to turn dark with the book', brightness, (value) => value < 80);
  await page.screenshot({ path: path.join(ARTIFACTS, 'mdbook-coal.png'), fullPage: true });

  assert.deepEqual(problems, []);
  const outside = requests.filter((url) => !url.startsWith(`${session.url}/book/`));
  assert.deepEqual(outside, [], 'nothing is fetched from outside the book, no model is called');
});

test('bad keys, missing files and a recording of another database fail the build, naming chapter and line', async () => {
  const root = await writeBook('bad', {
    ...DATA,
    'src/SUMMARY.md': '# Summary\n\n- [Keys](keys.md)\n- [Files](guide/files.md)\n',
    'src/keys.md': `# Keys

\`\`\`askdb
db = "data/shop.db"
dbb = "data/shop.db"
mode = "fast"
\`\`\`
`,
    'src/guide/files.md': `# Files

Some text.

\`\`\`askdb
db = "../data/shop.db"
replay = "../data/nope.askdb.json"
\`\`\`

\`\`\`askdb
db = "../data/shop.db"
replay = "../data/chinook.askdb.json"
\`\`\`
`,
  });
  const { code, said } = await build(root);
  assert.notEqual(code, 0, said);
  const expected = [
    'chapter "Keys" (src/keys.md), line 5: unknown key "dbb"',
    'chapter "Keys" (src/keys.md), line 6: mode: "fast" is not "safe" or "sql"',
    'chapter "Files" (src/guide/files.md), line 7: replay: "../data/nope.askdb.json": no such file (looked for src/data/nope.askdb.json)',
    'chapter "Files" (src/guide/files.md), line 12: replay: the recording does not match the demo\'s database',
  ];
  for (const message of expected) assert.ok(said.includes(message), `expected ${message} in:\n${said}`);
  assert.match(said, /4 problems with the askdb demos/);
  await assert.rejects(lstat(path.join(root, 'book', 'keys.html')), 'nothing was rendered');
});
