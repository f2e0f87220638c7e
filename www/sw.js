// askdb's service worker: keeps one build of the page (the page, its wasm chunks, SQLite, the
// import worker, styles, the demo) in the browser, so that after a visit where a database was
// opened the page opens, opens a local file and runs queries with no network.
// The page registers it once a database has opened (src/browser/offline.rs); the list of files
// and the build's version come from offline-files.js, written at build time
// (scripts/offline-files.py).
//
// How a new build takes over, and why an open page keeps working:
// - Each version has a cache of its own (askdb-offline-VERSION), filled whole at install, each
//   file checked against the SHA-256 the build wrote (a server half-way through an update fails
//   the check): a version that could not get every file never serves anything.
// - A version serves only from its own cache. File names do not change between builds
//   (filehash = false), so a page must take every later file (a chunk loaded on first use, the
//   SQLite worker) from the version it started with: mixing two builds' wasm breaks it.
// - So a new version waits until no page of the old one is open (the browser holds it back),
//   and takes over on the next visit. One exception, because a reload of the only tab would
//   otherwise never pick it up (the old page is still open while the new one loads): a page
//   that has not started its wasm yet (www/boot.js asks first) and is the only page open lets
//   the new version take over (skipWaiting), then starts again from it. Only when it takes
//   over, with no page left that needs them, are the older caches deleted (activate).
// - clients.claim at activation: the page that registered the first version (loaded from the
//   network moments before the same server filled the cache) is served by it from then on.
//
// Only whole same-origin GETs of the files listed are answered here; anything else (another
// origin: LLM calls, remote databases; a POST; a Range read of a database) goes to the network
// untouched, and nothing else is ever cached.

importScripts('offline-files.js');

const { version: VERSION, files: FILES } = self.ASKDB_OFFLINE;
const PREFIX = 'askdb-offline-';
const CACHE = PREFIX + VERSION;
// The page's folder (the registration's scope ends with "/"): the service worker serves it
// from any sub-path.
const SCOPE = self.registration.scope;
const INDEX = new URL('index.html', SCOPE).href;
/** Each file's full address → its integrity ("sha256-…"). */
const LISTED = new Map(FILES.map(({ path, integrity }) => [new URL(path, SCOPE).href, integrity]));

self.addEventListener('install', (event) => {
  event.waitUntil(fillCache());
});

/** Downloads every listed file into this version's cache; fails (and so does the install)
 *  when one cannot be had whole and as built. */
async function fillCache() {
  const cache = await caches.open(CACHE);
  await Promise.all(
    [...LISTED].map(async ([url, integrity]) => {
      // no-cache: asked of the server (which may answer "not modified"), never an older copy.
      const response = await fetch(new Request(url, { cache: 'no-cache', integrity }));
      if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
      await cache.put(url, response.redirected ? await unredirected(response) : response);
    }),
  );
}

/** The same response without its "redirected" mark, which a browser refuses for a page. */
async function unredirected(response) {
  const { status, statusText, headers } = response;
  return new Response(await response.blob(), { status, statusText, headers });
}

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // No page of an older version is open (see the top): their caches go.
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const key = cacheKey(event.request);
  // Not answered: the browser goes to the network as if there were no service worker.
  if (key) event.respondWith(fromCache(event.request, key));
});

/** The cache's address for `request`, or null when the request is not one to answer. */
function cacheKey(request) {
  if (request.method !== 'GET' || request.headers.has('range')) return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return null;
  url.hash = '';
  if (request.mode === 'navigate') {
    // The page at its folder's address, with whatever parameters (?db=, ?embed=1, …).
    url.search = '';
    if (url.href === SCOPE) return INDEX;
  }
  return LISTED.has(url.href) ? url.href : null;
}

/** The cached copy; the network when the browser has dropped it. */
async function fromCache(request, key) {
  const cache = await caches.open(CACHE);
  return (await cache.match(key)) ?? fetch(request);
}

// What www/boot.js asks: which version serves the page (it says "askdb was updated" when that
// changed), and whether a waiting version may take over now.
self.addEventListener('message', (event) => {
  const reply = event.ports[0];
  if (!reply) return;
  if (event.data?.type === 'askdb:version') reply.postMessage(VERSION);
  if (event.data?.type === 'askdb:take-over') event.waitUntil(takeOver(event.source, reply));
});

/** Takes over when the page asking, which has started nothing of the old version yet, is the
 *  only page of this site open (controlled or not, frames too); says whether it did. (A tab
 *  opened in the moment between this count and the activation would start on the old build
 *  and be claimed by the new one: a window of milliseconds, left open.) */
async function takeOver(asker, reply) {
  const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const alone = open.length === 1 && open[0].id === asker?.id;
  reply.postMessage(alone);
  if (alone) await self.skipWaiting();
}
