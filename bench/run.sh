#!/usr/bin/env bash
# Builds the page and runs the benchmark (see bench/bench.mjs for options), e.g.
#   bench/run.sh --orders 700000,2000000
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/setup.sh"
cd "$ASKDB_ROOT"
trunk build --offline --release
# The page people are served (dist/, without the test hooks): its weight is what is measured.
ASKDB_DIST="$ASKDB_ROOT/dist" node bench/bench.mjs "$@"
