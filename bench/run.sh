#!/usr/bin/env bash
# Builds the page and runs the benchmark (see bench/bench.mjs for options), e.g.
#   bench/run.sh --orders 700000,2000000
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/setup.sh"
cd "$ASKDB_ROOT"
trunk build --offline --release
node bench/bench.mjs "$@"
