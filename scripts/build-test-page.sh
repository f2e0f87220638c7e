#!/usr/bin/env bash
# Builds the page the end-to-end tests, the wasm tests and bench/hidden_memory.mjs run against:
# the release build with the `test-hooks` feature (src/ui/test_hooks.rs: the database's bytes on
# `window`), into target/test-page. The page people are served (`scripts/serve.sh`, `dist/`)
# is built without it.
#
#   scripts/build-test-page.sh        then, e.g.: node --test tests/e2e/replay.test.mjs

source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ASKDB_ROOT"
# The feature goes to the page's wasm only (scripts/build-page-wasm.sh): the import worker is the
# same as in dist/, and is not built again.
ASKDB_FEATURES=test-hooks trunk build --offline --release --dist target/test-page
