// Starts the page: loads the WebAssembly that Trunk built (see `inject_scripts` in Trunk.toml).
import init from "./askdb.js";

init({ module_or_path: new URL("askdb_bg.wasm", import.meta.url) });
