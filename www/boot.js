// Starts the page: loads the WebAssembly that Trunk built (see `inject_scripts` in Trunk.toml).
import init from "./askdb.js";

// Where this browser remembers the version of askdb it last ran from its service worker.
const VERSION_KEY = "askdb.offline-version";

start();

async function start() {
  if (await newBuildTookOver()) {
    location.reload();
    return;
  }
  init({ module_or_path: new URL("askdb_bg.wasm", import.meta.url) });
  sayWhenUpdated();
}

// The service worker's controller, unless this page is embedded (an embedded page neither
// changes nor says anything about the service worker of the site it shows).
function ownController() {
  const embedded = window.top !== window || new URLSearchParams(location.search).has("embed");
  return embedded ? null : navigator.serviceWorker?.controller ?? null;
}

// A new build downloaded on an earlier visit waits until no page of the old one is open
// (www/sw.js says why). This page has started none of the old build's wasm yet: when it is the
// only page open, the new build takes over now and the page starts again from it (true).
// Otherwise, or when anything goes wrong, the page starts as it is (false).
async function newBuildTookOver() {
  if (!ownController()) return false;
  const waiting = await navigator.serviceWorker.getRegistration().then((r) => r?.waiting, () => null);
  if (!waiting) return false;
  const taken = await ask(waiting, { type: "askdb:take-over" }, 1000);
  if (taken !== true) return false;
  // It takes over once it has cleared the old build's files: the page starts again then.
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    setTimeout(resolve, 5000);
  });
  return true;
}

// When the service worker (www/sw.js, registered once a database has opened) serves this page
// from another build than the one this browser last ran, the page says so, once. A page the
// service worker does not serve (a first visit) asks nothing and downloads nothing more; an
// embedded one says nothing on its host's page.
async function sayWhenUpdated() {
  const controller = ownController();
  if (!controller) return;
  const version = await ask(controller, { type: "askdb:version" }, 5000);
  if (typeof version !== "string") return;
  let before;
  try {
    before = localStorage.getItem(VERSION_KEY);
    localStorage.setItem(VERSION_KEY, version);
  } catch {
    return; // Storage refused: nothing to compare with, nothing said.
  }
  if (before && before !== version) say("askdb was updated.");
}

/** The service worker's answer to `message`, or null when none comes within `ms`. */
function ask(worker, message, ms) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    worker.postMessage(message, [channel.port2]);
    setTimeout(() => resolve(null), ms);
  });
}

/** One line at the top of the page, read out by screen readers (role="status"). */
function say(text) {
  const note = document.createElement("p");
  note.className = "update-note";
  note.setAttribute("role", "status");
  note.dataset.testid = "update-note";
  document.body.prepend(note);
  // Filled in once it is in the page: a live region announces a change, not its first content.
  setTimeout(() => {
    note.textContent = text;
  }, 100);
}
