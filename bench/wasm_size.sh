#!/usr/bin/env bash
# Where the page's wasm bytes are (issue 28, docs/benchmarks.md): the page's wasm built with the
# shipped profile but its symbol names kept (a target dir of its own, so the usual builds are
# not invalidated), split as the page is split; its main part read by twiggy (installed here,
# pinned, when missing) and summed by bench/wasm_size.py; and the shipped parts' sizes, raw and
# gzipped, when dist/ has them.
#
#   bench/wasm_size.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/setup.sh"
cd "$ASKDB_ROOT"
command -v twiggy >/dev/null || cargo install twiggy --version 0.8.0 --locked
target="${ASKDB_SIZE_TARGET:-$ASKDB_ROOT/target/size}"
# As scripts/build-page-wasm.sh builds it (the page's feature, its relocations for the split),
# with the names kept; the main part that wasm-split-cli leaves keeps them too.
CARGO_TARGET_DIR="$target" CARGO_PROFILE_RELEASE_STRIP=false \
  cargo rustc --offline --release --target wasm32-unknown-unknown --bin askdb --features page \
  -- -C link-arg=--emit-relocs
split="$(mktemp -d)"
trap 'rm -rf "$split"' EXIT
wasm-split-cli "$target/wasm32-unknown-unknown/release/askdb.wasm" "$split" --out-name askdb --target web
echo "the main part (what a first visit downloads):"
twiggy top -n 1000000 -f csv "$split/askdb.wasm" | python3 bench/wasm_size.py
if [ -f dist/askdb_bg.wasm ]; then
  echo
  echo "shipped in dist/ (raw, gzip -9):"
  for wasm in dist/askdb_bg.wasm dist/split_*.wasm dist/chunk_*.wasm; do
    echo "  $(basename "$wasm"): $(stat -c %s "$wasm") B, $(gzip -9c "$wasm" | wc -c) B"
  done
fi
