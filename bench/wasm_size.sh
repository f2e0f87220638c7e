#!/usr/bin/env bash
# Where the page's wasm bytes are (issue 28, docs/benchmarks.md): the page's wasm built with the
# shipped profile but its symbol names kept (a target dir of its own, so the usual builds are
# not invalidated), read by twiggy (installed here, pinned, when missing), summed by
# bench/wasm_size.py; and the shipped wasm's size, raw and gzipped, when dist/ has one.
#
#   bench/wasm_size.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/setup.sh"
cd "$ASKDB_ROOT"
command -v twiggy >/dev/null || cargo install twiggy --version 0.8.0 --locked
target="${ASKDB_SIZE_TARGET:-$ASKDB_ROOT/target/size}"
CARGO_TARGET_DIR="$target" CARGO_PROFILE_RELEASE_STRIP=false \
  cargo build --offline --release --target wasm32-unknown-unknown --bin askdb
twiggy top -n 1000000 -f csv "$target/wasm32-unknown-unknown/release/askdb.wasm" | python3 bench/wasm_size.py
if [ -f dist/askdb_bg.wasm ]; then
  echo "shipped dist/askdb_bg.wasm: $(stat -c %s dist/askdb_bg.wasm) B raw, $(gzip -9c dist/askdb_bg.wasm | wc -c) B gzipped"
fi
