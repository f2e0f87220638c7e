// Starts the page: loads the WebAssembly that Trunk built (see `inject_scripts` in Trunk.toml).
import init from "./askdb.js";

init({ module_or_path: new URL("askdb_bg.wasm", import.meta.url) });

// Where this browser remembers the version of askdb it last ran from its service worker.
const VERSION_KEY = "askdb.offline-version";

sayWhenUpdated();

// When the service worker (www/sw.js, registered once a database has opened) serves this page
// from another build than the one this browser last ran, the page says so, once. A page the
// service worker does not serve (a first visit) asks nothing and downloads nothing more; an
// embedded one says nothing on its host's page.
async function sayWhenUpdated() {
  const controller = navigator.serviceWorker?.controller;
  if (!controller || window.top !== window || new URLSearchParams(location.search).has("embed")) return;
  const version = await servedVersion(controller);
  if (!version) return;
  let before;
  try {
    before = localStorage.getItem(VERSION_KEY);
    localStorage.setItem(VERSION_KEY, version);
  } catch {
    return; // Storage refused: nothing to compare with, nothing said.
  }
  if (before && before !== version) say("askdb was updated.");
}

/** The version of the service worker serving this page, or null when it does not say. */
function servedVersion(controller) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(typeof event.data === "string" ? event.data : null);
    controller.postMessage({ type: "askdb:version" }, [channel.port2]);
    setTimeout(() => resolve(null), 5000);
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
