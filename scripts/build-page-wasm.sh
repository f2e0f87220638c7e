#!/usr/bin/env bash
# Builds the page's WebAssembly in chunks: Trunk calls this after its own pipelines (the
# post_build hook in Trunk.toml) and it writes into Trunk's staging folder.
#
# Why not Trunk's rust pipeline: Trunk 0.21 runs wasm-bindgen straight after cargo, and a page
# split into chunks needs a step between the two. The page marks the functions that only some
# visits need (src/ui/lazy.rs); wasm-split-cli (wasm_split_cli_support, pinned in
# scripts/setup.sh) reads cargo's output, linked with its relocations (--emit-relocs), and moves
# whatever only those functions reach into chunks of their own (split_*.wasm, and chunk_*.wasm
# for code that several of them share), which __wasm_split.js fetches on the first call. The
# main part then goes through wasm-bindgen as before: askdb.js and askdb_bg.wasm, loaded by
# www/boot.js.
#
# Environment: TRUNK_PROFILE (release or debug) and TRUNK_STAGING_DIR, set by Trunk;
# ASKDB_FEATURES (optional), cargo features for the page besides `page` (scripts/build-test-page.sh
# sets test-hooks).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${TRUNK_STAGING_DIR:?run by trunk (Trunk.toml hooks), which sets TRUNK_STAGING_DIR}"
profile="${TRUNK_PROFILE:-release}"

cargo_args=(--offline --target wasm32-unknown-unknown --bin askdb --features "page ${ASKDB_FEATURES:-}")
[ "$profile" = release ] && cargo_args+=(--release)
target_dir="$(cargo metadata --offline --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
linked="$target_dir/wasm32-unknown-unknown/$profile/askdb.wasm"

# The build folder may be shared by clones (.ci/run, scripts/cache.sh), and a build with other
# features (the test page's) writes the same askdb.wasm: hold it from the build to the split.
mkdir -p "$target_dir"
exec {lock}>"$target_dir/.askdb-page-wasm.lock"
flock "$lock"
# --emit-relocs only for this binary's link (cargo rustc passes it to the last step alone), so
# that no other build's flags change and nothing else is rebuilt.
cargo rustc "${cargo_args[@]}" -- -C link-arg=--emit-relocs

split_dir="$(mktemp -d)"
trap 'rm -rf "$split_dir"' EXIT
wasm-split-cli "$linked" "$split_dir" --out-name askdb --target web
flock -u "$lock"
# The lld exports (the memory, the function table, the shared globals) are what the chunks are
# linked against: wasm-bindgen must keep them.
wasm-bindgen --target web --keep-lld-exports --no-demangle --no-typescript \
  --out-dir "$TRUNK_STAGING_DIR" --out-name askdb "$split_dir/askdb.wasm"
[ -f "$split_dir/__wasm_split.js" ] && cp "$split_dir/__wasm_split.js" "$TRUNK_STAGING_DIR/"
shopt -s nullglob
for chunk in "$split_dir"/split_*.wasm "$split_dir"/chunk_*.wasm; do
  cp "$chunk" "$TRUNK_STAGING_DIR/"
done
# Last, with the whole page in the staging folder: the list of files the service worker keeps
# for offline use, and this build's version (www/sw.js).
python3 scripts/offline-files.py "$TRUNK_STAGING_DIR"
