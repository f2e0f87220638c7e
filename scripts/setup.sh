# Installs everything askdb's build and tests need, pinned, on a Debian machine that has
# the Rust toolchain, apt and npm. Sourced by scripts/serve.sh and scripts/test.sh.
#
# Every step first checks what is already installed and does nothing when it matches, so a
# warm run takes a second or two. Versions are checked, never assumed from a previous run.

set -euo pipefail

ASKDB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ASKDB_ROOT/scripts/cache.sh"
TRUNK_VERSION="0.21.14" # 0.22 needs a newer rustc than the project's minimum.
# mdBook, for the tests of the mdbook-askdb preprocessor only (setup_mdbook).
MDBOOK_VERSION="0.5.4"
CHROMIUM_PACKAGES=(chromium chromium-driver)
# playwright-core needs Node 20; the test runner's --test-concurrency came in 20.10.
NODE_MINIMUM="20.10"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
fail() {
  printf '\033[31mERROR: %s\033[0m\n' "$*" >&2
  exit 1
}
need() { command -v "$1" >/dev/null 2>&1 || fail "'$1' is missing: $2"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

setup_rust_target() {
  need rustup "install the Rust toolchain with rustup first"
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "Adding the Rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
}

setup_trunk() {
  if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
    say "Installing trunk $TRUNK_VERSION (compiles from source: several minutes)"
    cargo install --locked trunk --version "$TRUNK_VERSION"
  fi
}

# The CLI must match the wasm-bindgen crate exactly, so read its version from Cargo.lock.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' \
    "$ASKDB_ROOT/Cargo.lock"
}

setup_wasm_bindgen() {
  local version
  version="$(wasm_bindgen_version)"
  [ -n "$version" ] || fail "no wasm-bindgen entry in Cargo.lock"
  if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $version" ]; then
    say "Installing wasm-bindgen-cli $version (compiles from source: several minutes)"
    # Not --locked: one of its locked dependency versions is not in the registry.
    cargo install wasm-bindgen-cli --version "=$version"
  fi
}

# wasm-split-cli (from wasm_split_cli_support), which cuts the page's wasm into the chunks it
# loads on first use (scripts/build-page-wasm.sh). Its version goes with the wasm_split_helpers
# that Leptos brings (Cargo.lock): both read and write the same markers.
WASM_SPLIT_VERSION="0.2.4"
setup_wasm_split() {
  # It has no --version: cargo's list of what it installed says which one is there.
  if ! command -v wasm-split-cli >/dev/null ||
    ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
    say "Installing wasm-split-cli $WASM_SPLIT_VERSION (compiles from source: a few minutes)"
    cargo install --locked wasm_split_cli_support --version "=$WASM_SPLIT_VERSION" --features build-binary
  fi
}

setup_chromium() {
  local missing=() pkg
  for pkg in "${CHROMIUM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    say "Installing ${missing[*]} with apt-get"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
  fi
}

# mdBook, which the tests of mdbook-askdb build a book with (tests/e2e/mdbook.test.mjs). Not
# needed to build or serve askdb, so not installed with the rest: scripts/test.sh calls this
# before the end-to-end tests. Without the serve and watch features, which the tests do not use
# (a quicker compile).
setup_mdbook() {
  if [ "$(mdbook --version 2>/dev/null || true)" != "mdbook v$MDBOOK_VERSION" ]; then
    say "Installing mdbook $MDBOOK_VERSION (compiles from source: a few minutes)"
    cargo install --locked mdbook --version "=$MDBOOK_VERSION" --no-default-features
  fi
}

# Node.js itself: the end-to-end tests and the page's build (npm) need NODE_MINIMUM or newer.
setup_node() {
  need node "install Node.js $NODE_MINIMUM or newer with npm (Debian 13: apt-get install nodejs npm; Debian 12's nodejs is 18, too old: take Node 20 or 22 from nodejs.org or NodeSource)"
  local found
  found="$(node --version)"
  found="${found#v}"
  if [ "$(printf '%s\n%s\n' "$NODE_MINIMUM" "$found" | sort -V | head -n1)" != "$NODE_MINIMUM" ]; then
    fail "Node.js $found is too old: askdb's tests need $NODE_MINIMUM or newer (playwright-core needs 20, node --test's --test-concurrency 20.10). Install Node 20 or 22 (nodejs.org, NodeSource, or Debian 13's nodejs) and run this again."
  fi
}

# python3 with its sqlite3 module: the end-to-end tests make their databases with it.
setup_python() {
  if ! python3 -c 'import sqlite3' >/dev/null 2>&1; then
    say "Installing python3 with apt-get (the end-to-end tests make databases with its sqlite3)"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3
    python3 -c 'import sqlite3' || fail "python3 cannot import sqlite3 even after installing python3"
  fi
}

# npm ci wipes and reinstalls node_modules, so run it only when node_modules was not made
# from the current package-lock.json (npm records what it installed in .package-lock.json).
setup_node_modules() {
  need npm "install Node.js and npm (apt-get install nodejs npm)"
  local stamp="$ASKDB_ROOT/node_modules/.askdb-lock.sha256"
  local want
  want="$(sha256sum "$ASKDB_ROOT/package-lock.json" | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ] ||
    [ ! -f "$ASKDB_ROOT/node_modules/.package-lock.json" ] ||
    ! (cd "$ASKDB_ROOT" && npm ls --omit=optional >/dev/null 2>&1); then
    say "Installing npm packages (npm ci)"
    (cd "$ASKDB_ROOT" && npm ci --no-audit --no-fund)
    echo "$want" >"$stamp"
  fi
}

# Datasette, the server the tests of askdb's Datasette client run against
# (tests/datasette/serve.sh): 0.65.5, the release, and 1.0a41, an alpha of 1.0, whose new query
# endpoint the client must follow. Not needed to build or serve askdb, so not installed with the
# rest: scripts/test.sh calls this before the tests that start it. Each into a virtual
# environment of its own in the cache outside the checkout (scripts/cache.sh; serve.sh looks
# there), every package at the version tests/datasette/requirements-VERSION.txt pins. Clones
# share it, so two runs at once take turns (flock) rather than install into one folder together.
DATASETTE_VERSIONS=("0.65.5" "1.0a41")
setup_datasette() {
  local lock
  mkdir -p "$ASKDB_CACHE"
  exec {lock}>"$ASKDB_CACHE/datasette.lock"
  flock "$lock"
  install_datasette
  flock -u "$lock"
  exec {lock}>&-
}
install_datasette() {
  local version venv requirements stamp want
  for version in "${DATASETTE_VERSIONS[@]}"; do
    venv="$(datasette_venv "$version")"
    requirements="$ASKDB_ROOT/tests/datasette/requirements-$version.txt"
    stamp="$venv/.askdb-requirements.sha256"
    want="$(sha256sum "$requirements" | cut -d' ' -f1)"
    if [ "$("$venv/bin/datasette" --version 2>/dev/null || true)" != "datasette, version $version" ] ||
      [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
      say "Installing Datasette $version into $venv (pip, from PyPI)"
      python3 -c 'import venv, ensurepip' 2>/dev/null ||
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv
      rm -rf "$venv"
      python3 -m venv "$venv"
      "$venv/bin/pip" install --disable-pip-version-check --quiet -r "$requirements"
      [ "$("$venv/bin/datasette" --version)" = "datasette, version $version" ] ||
        fail "Datasette $version did not install into $venv"
      echo "$want" >"$stamp"
    fi
  done
}

# Mutation testing (scripts/mutants.sh, docs/testing.md): installed only when that script asks.
CARGO_MUTANTS_VERSION="27.1.0"
setup_mutants() {
  if [ "$(cargo mutants --version 2>/dev/null || true)" != "cargo-mutants $CARGO_MUTANTS_VERSION" ]; then
    say "Installing cargo-mutants $CARGO_MUTANTS_VERSION (compiles from source: several minutes)"
    cargo install --locked cargo-mutants --version "$CARGO_MUTANTS_VERSION"
  fi
}

setup_rust_target
setup_trunk
setup_wasm_bindgen
setup_wasm_split
setup_chromium
setup_python
setup_node
setup_node_modules

# The tools cargo installed, and the npm packages' commands. (The page is built without
# wasm-opt: index.html says why. Should it come back, take npm's binaryen: Debian's is too old
# for the code rustc emits.)
export PATH="$ASKDB_ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
