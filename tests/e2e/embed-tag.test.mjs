// The <askdb-demo> tag (www/askdb-embed.js, shipped in dist/ beside the page) on documentation
// pages of another origin that send a strict Content-Security-Policy: only that one script and
// askdb's origin as a frame source. The demo loads, replays its recording with no key and no
// model, takes the height askdb reports (from askdb's own origin and frame only), wears the host
// page's colours and follows its theme switch, is made only when scrolled near, and shows its
// fallback link when scripts are off. The embedded page says what the author set beside its
// question box. Screenshots go to tests/e2e/.artifacts/.

import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, startSession, tempDir, visibleText, waitForOpen, waitUntil } from './harness.mjs';

const ARTIFACTS = path.join(ROOT, 'tests', 'e2e', '.artifacts');
const SHOP_QUESTION = 'How many orders did customers in 東京都 place?';

let askdb; // the page's own origin (B): dist/ at /, an extra folder at /other/
let host; // the documentation's origin (A), with a strict policy
let foreign; // a third origin (C)
let scratch;

/** Serves `dir` on 127.0.0.1 (a free port), every HTML page with the header `csp(url)`. */
async function startFolderServer(dir, csp = () => null) {
  const types = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript' };
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://x');
    const file = path.join(dir, path.normalize(decodeURIComponent(url.pathname)));
    const info = file.startsWith(dir) ? await stat(file).catch(() => null) : null;
    if (!info?.isFile()) {
      response.writeHead(404);
      response.end();
      return;
    }
    const headers = { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' };
    const policy = file.endsWith('.html') ? csp(url) : null;
    if (policy) headers['content-security-policy'] = policy;
    response.writeHead(200, headers);
    createReadStream(file).pipe(response);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/**
 * The strict policy: askdb-embed.js and askdb's origin as a frame source, nothing inline. The
 * page that tests heights frames a third origin as well (a frame-src on askdb's origin alone
 * would not even let the demo's frame go elsewhere).
 */
const strictPolicy = (url) => {
  const frames = url.pathname.endsWith('heights.html') ? `${askdb.url} ${foreign.url}` : askdb.url;
  return `default-src 'none'; script-src ${askdb.url}/askdb-embed.js; frame-src ${frames}; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'`;
};

/** A documentation page: `body` inside, the tag's script at the end. */
function hostPage(body, { bodyClass = '' } = {}) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs</title><link rel="stylesheet" href="host.css"></head>
<body class="${bodyClass}">
<h1>Some documentation</h1>
${body}
<script src="${askdb.url}/askdb-embed.js"></script>
</body></html>`;
}

/** The shop demo with its recording, addressed from the host page (absolute: another origin). */
function shopTag(extra = '') {
  return `<askdb-demo id="shop" db="${askdb.url}/demo/shop.db" replay="${askdb.url}/examples/shop.askdb.json"
  q="${SHOP_QUESTION}" ${extra}><a href="${askdb.url}/index.html?db=demo/shop.db">Open the demo</a></askdb-demo>`;
}

before(async () => {
  scratch = await tempDir('embed-tag');
  const other = path.join(scratch.dir, 'other');
  const docs = path.join(scratch.dir, 'docs');
  await mkdir(other, { recursive: true });
  await mkdir(docs, { recursive: true });
  await writeFile(path.join(other, 'blank.html'), '<!doctype html><title>blank</title>');
  askdb = await startSession({ mounts: { other } });
  host = await startFolderServer(docs, strictPolicy);
  foreign = await startFolderServer(other);
  await writeFile(
    path.join(docs, 'host.css'),
    `body { background: #ffffff; color: #111111; font: 16px sans-serif; margin: 2rem; }
body.dark { background: #1b1d22; color: #e8e8e8; }
.spacer { height: 4000px; }
.marked { color: red; }`,
  );
  const pages = {
    'dark.html': hostPage(shopTag(), { bodyClass: 'dark' }),
    'forced.html': hostPage(shopTag('theme="light"'), { bodyClass: 'dark' }),
    // A Japanese part of a page: the tag inherits its language as HTML says (issue 41).
    'japanese.html': hostPage(`<div lang="ja">${shopTag()}</div>`),
    'lazy.html': hostPage(`<askdb-demo id="top" db="${askdb.url}/demo/shop.db"></askdb-demo>
<div class="spacer"></div>
${shopTag()}`),
    'heights.html': hostPage(`${shopTag()}
<iframe id="foreign" src="${foreign.url}/blank.html"></iframe>
<iframe id="same-origin" src="${askdb.url}/other/blank.html"></iframe>`),
    // A positive control for the violation detector: the same policy refuses an inline style.
    'control.html': hostPage('<p style="color: red">inline style</p>'),
  };
  for (const [name, html] of Object.entries(pages)) await writeFile(path.join(docs, name), html);
  await mkdir(ARTIFACTS, { recursive: true });
});

after(async () => {
  await askdb?.close();
  await host?.close();
  await foreign?.close();
  await scratch?.remove();
});

/** A host page in a context of its own; its CSP violations and requests are recorded. */
async function openHost(t, name, contextOptions = {}) {
  const context = await askdb.browser.newContext(contextOptions);
  t.after(() => context.close());
  const page = await context.newPage();
  page.violations = [];
  page.requests = [];
  page.problems = [];
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) page.violations.push(message.text());
  });
  page.on('pageerror', (error) => page.problems.push(error.message));
  page.on('request', (request) => page.requests.push(request.url()));
  await page.goto(`${host.url}/${name}`);
  return page;
}

/** The frame inside the tag `#id`, once made. */
async function demoFrame(page, id) {
  const iframe = await page.waitForSelector(`askdb-demo#${id} iframe`);
  return { iframe, frame: await iframe.contentFrame() };
}

/** Perceived brightness (0-255) of the frame's page background. */
async function frameBrightness(frame) {
  const css = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = css.match(/[\d.]+/g).map(Number);
  return (r * 299 + g * 587 + b * 114) / 1000;
}

const frameHeight = (iframe) => iframe.evaluate((element) => element.style.height);
const contentHeight = (frame) => frame.evaluate(() => Math.ceil(document.querySelector('.app').getBoundingClientRect().height));

test('a tag inside a Japanese part of the page shows askdb in Japanese', async (t) => {
  const page = await openHost(t, 'japanese.html');
  const { iframe, frame } = await demoFrame(page, 'shop');
  assert.equal(new URL(await iframe.getAttribute('src')).searchParams.get('lang'), 'ja');
  await waitUntil('the frame in Japanese', () => frame.evaluate(() => document.documentElement.lang), (lang) => lang === 'ja');
  // Positive control: the other pages' tags, inside <html lang="en">, are English.
  const english = await openHost(t, 'dark.html');
  const { frame: englishFrame } = await demoFrame(english, 'shop');
  await waitUntil('the frame in English', () => englishFrame.evaluate(() => document.documentElement.lang), (lang) => lang === 'en');
});

test('the policy used here is enforced: an inline style on the host page is reported', async (t) => {
  const page = await openHost(t, 'control.html');
  await waitUntil('the violation to be reported', () => page.violations.length, (n) => n > 0);
  assert.match(page.violations[0], /style-src/);
});

test('under a strict host CSP the tag loads askdb, replays with no key, fits its content and wears the host colours', async (t) => {
  const page = await openHost(t, 'dark.html', { viewport: { width: 1000, height: 900 } });
  const { iframe, frame } = await demoFrame(page, 'shop');
  const src = new URL(await iframe.getAttribute('src'));
  assert.equal(src.origin + src.pathname, `${askdb.url}/index.html`);
  assert.deepEqual(Object.fromEntries(src.searchParams), {
    embed: '1',
    db: 'demo/shop.db',
    replay: 'examples/shop.askdb.json',
    q: SHOP_QUESTION,
    lang: 'en',
    theme: 'dark',
  }, 'askdb-relative addresses, the question, the host\'s language and theme');

  await waitForOpen(frame, 'shop.db');
  await waitUntil('the replay to finish', () => visibleText(frame, 'replay-state'), (text) => /finished/.test(text ?? ''));
  assert.match(await visibleText(frame, 'answer'), /4 orders/);
  assert.equal(await visibleText(frame, 'replay-differences'), null, 'no difference from the recording');
  assert.match(await visibleText(frame, 'setup-replay'), /played from a recording/);

  // The frame is as tall as its content (and not the first guess, 26rem).
  await waitUntil('the frame to take its content\'s height', async () => [await frameHeight(iframe), await contentHeight(frame)],
    ([height, content]) => height === `${content}px`);
  assert.ok(await contentHeight(frame) > 300);

  // Dark like the host page; lighter when the host switches its theme, without a reload.
  assert.ok(await frameBrightness(frame) < 80, 'dark');
  await page.evaluate(() => document.body.classList.remove('dark'));
  await waitUntil('the frame to turn light', () => frameBrightness(frame), (value) => value > 200);
  assert.equal(await iframe.getAttribute('src'), src.href, 'the same page, told by a message');
  assert.match(await visibleText(frame, 'replay-state'), /finished/, 'the replay is still on screen');
  await page.screenshot({ path: path.join(ARTIFACTS, 'embed-tag-csp.png'), fullPage: true });

  assert.deepEqual(page.violations, [], 'no CSP violation on the host page or in the frame');
  assert.deepEqual(page.problems, []);
  const elsewhere = page.requests.filter((url) => !url.startsWith(host.url) && !url.startsWith(askdb.url));
  assert.deepEqual(elsewhere, [], 'no request to a model or anywhere else');
});

test('theme="light" on the tag wins over a dark host page', async (t) => {
  const page = await openHost(t, 'forced.html');
  const { iframe, frame } = await demoFrame(page, 'shop');
  assert.equal(new URL(await iframe.getAttribute('src')).searchParams.get('theme'), 'light');
  await waitForOpen(frame, 'shop.db');
  assert.ok(await frameBrightness(frame) > 200);
});

test('a demo far below is made only when the reader scrolls near it', async (t) => {
  const page = await openHost(t, 'lazy.html', { viewport: { width: 900, height: 700 } });
  // The one at the top is made at once: the script ran.
  await demoFrame(page, 'top');
  assert.equal(await page.locator('askdb-demo#shop').getAttribute('data-state'), 'waiting');
  assert.equal(await page.locator('askdb-demo#shop iframe').count(), 0);
  const framesOfAskdb = () => page.requests.filter((url) => url.startsWith(`${askdb.url}/index.html`)).length;
  assert.equal(framesOfAskdb(), 1, 'only the top demo\'s page was requested');

  await page.locator('askdb-demo#shop').scrollIntoViewIfNeeded();
  const { frame } = await demoFrame(page, 'shop');
  await waitForOpen(frame, 'shop.db');
  assert.equal(await page.locator('askdb-demo#shop').getAttribute('data-state'), 'loaded');
  assert.equal(framesOfAskdb(), 2);
});

test('the frame takes heights only from askdb\'s origin and its own frame', async (t) => {
  const page = await openHost(t, 'heights.html');
  const { iframe, frame } = await demoFrame(page, 'shop');
  await waitForOpen(frame, 'shop.db');
  await waitUntil('the replay to finish', () => visibleText(frame, 'replay-state'), (text) => /finished/.test(text ?? ''));
  await waitUntil('a settled height', async () => [await frameHeight(iframe), await contentHeight(frame)],
    ([height, content]) => height === `${content}px`);
  const settled = await frameHeight(iframe);

  // The host records every message after the tag's script has seen it (listeners run in the
  // order they were added), so "it was ignored" is checked once it was surely handled.
  await page.evaluate(() => {
    window.seen = [];
    window.addEventListener('message', (event) => window.seen.push(event.data?.height));
  });
  const handled = (height) => waitUntil(`the message with height ${height} to be handled`,
    () => page.evaluate(() => window.seen), (seen) => seen.includes(height));
  const post = (target, height) => target.evaluate((h) => window.parent.postMessage({ type: 'askdb:height', height: h }, '*'), height);
  const frameOf = async (selector) => {
    const frame = await (await page.waitForSelector(selector)).contentFrame();
    await waitUntil(`${selector} to load`, () => frame.evaluate(() => document.title), (title) => title === 'blank');
    return frame;
  };

  await page.evaluate(() => window.postMessage({ type: 'askdb:height', height: 51 }, '*'));
  await handled(51);
  await post(await frameOf('#foreign'), 52); // another origin
  await handled(52);
  await post(await frameOf('#same-origin'), 53); // askdb's origin, another frame
  await handled(53);
  assert.equal(await frameHeight(iframe), settled, 'none of them changed the frame');

  await post(frame, 321); // the demo's own frame: believed
  await handled(321);
  assert.equal(await frameHeight(iframe), '321px');

  // The demo's frame sent elsewhere (a link followed in it): its messages come from another
  // origin now, and are not believed.
  await frame.evaluate((url) => { window.location.href = url; }, `${foreign.url}/blank.html`);
  await waitUntil('the frame to be elsewhere', () => frame.url(), (url) => url.startsWith(foreign.url));
  await post(frame, 54);
  await handled(54);
  assert.equal(await frameHeight(iframe), '321px');
});

test('the embedded page takes a theme only from the page that frames it', async (t) => {
  const page = await openHost(t, 'heights.html');
  const { frame } = await demoFrame(page, 'shop');
  await waitForOpen(frame, 'shop.db');
  const theme = () => frame.evaluate(() => document.documentElement.getAttribute('data-theme'));
  assert.equal(await theme(), 'light', 'light, as the host page');

  // The page's own listener was added first, so once this one has seen a message, the page
  // has handled it.
  await frame.evaluate(() => {
    window.themes = [];
    window.addEventListener('message', (event) => {
      if (event.data?.type === 'askdb:theme') window.themes.push(event.data.theme);
    });
  });
  const heard = (count) => waitUntil(`${count} theme messages to reach the demo`,
    () => frame.evaluate(() => window.themes.length), (length) => length >= count);
  const loaded = async (selector) => {
    const other = await (await page.waitForSelector(selector)).contentFrame();
    await waitUntil(`${selector} to load`, () => other.evaluate(() => document.title), (title) => title === 'blank');
    return other;
  };
  // Which of the host page's frames is the demo: the frame of askdb's origin can tell.
  const sibling = await loaded('#same-origin');
  const index = await sibling.evaluate(() => [...Array(window.parent.frames.length).keys()]
    .find((i) => { try { return window.parent.frames[i].location.pathname === '/index.html'; } catch { return false; } }));
  assert.equal(typeof index, 'number');
  const postDark = (from) => from.evaluate((i) => window.parent.frames[i].postMessage({ type: 'askdb:theme', theme: 'dark' }, '*'), index);

  await postDark(sibling); // askdb's origin, another frame of the host page
  await heard(1);
  await postDark(await loaded('#foreign')); // a third origin
  await heard(2);
  assert.equal(await theme(), 'light', 'neither frame changed the colours');

  // The page that frames the demo: heard.
  await page.evaluate(() => document.querySelector('askdb-demo#shop iframe').contentWindow.postMessage({ type: 'askdb:theme', theme: 'dark' }, '*'));
  await heard(3);
  assert.equal(await theme(), 'dark');
});

test('with scripts off, the reader gets the fallback link', async (t) => {
  const page = await openHost(t, 'dark.html', { javaScriptEnabled: false });
  const link = page.locator('askdb-demo#shop a');
  assert.ok(await link.isVisible());
  assert.equal(await link.getAttribute('href'), `${askdb.url}/index.html?db=demo/shop.db`);
  assert.equal(await page.locator('askdb-demo iframe').count(), 0);
});

test('the embedded page says, beside its question box, what the author set by its address', async (t) => {
  const context = await askdb.browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  const search = new URLSearchParams({
    embed: '1', db: 'demo/shop.db', mode: 'safe', hide: 'customers.joined_at', replay: 'examples/shop.askdb.json',
  });
  await page.goto(`${askdb.url}/index.html?${search}`);
  await waitForOpen(page, 'shop.db');
  await waitUntil('the replay to finish', () => visibleText(page, 'replay-state'), (text) => /finished/.test(text ?? ''));
  assert.match(await visibleText(page, 'setup-safe-mode'), /Safe mode \(set by this page's address\): .*writes no SQL/);
  assert.match(await visibleText(page, 'hidden-line'), /Hidden from the model: customers\.joined_at/);
  assert.match(await visibleText(page, 'setup-replay'), /played from a recording.*recorded with the model writing SQL/);
  // Right above the question box.
  const next = await page.getByTestId('setup-line').evaluate((line) => line.nextElementSibling?.matches('form.ask-form'));
  assert.ok(next, 'the line is just above the question box');
  await page.screenshot({ path: path.join(ARTIFACTS, 'embed-setup-line.png'), fullPage: true });

  // Without them, nothing is claimed.
  const plain = await context.newPage();
  await plain.goto(`${askdb.url}/index.html?embed=1&db=demo/shop.db`);
  await waitForOpen(plain, 'shop.db');
  assert.equal(await visibleText(plain, 'setup-line'), null);
});
