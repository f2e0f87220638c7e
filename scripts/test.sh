#!/usr/bin/env bash
# Runs every check and test of askdb, stopping at the first failure: format; the page built for
# the tests (with test hooks the page people are served must not have); then the end-to-end
# tests of that page in headless Chromium, which spend most of their time waiting on the page,
# in the background while the lints (native and wasm), the release build and the native and
# wasm tests (headless Chromium too) use the cores. The end-to-end tests' output is shown once
# they are over, with each test file's time, slowest first.
#
#   scripts/test.sh            (installs what is missing first, see scripts/setup.sh)
#
# It ends with one line "summary: N passed, N failed" that adds up every test run.

source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ASKDB_ROOT"

LOG_DIR="$(mktemp -d)"
declare -A BACKGROUND_PID BACKGROUND_LOG BACKGROUND_START
# What is stopped and removed when the run ends, however it ends (a failing step exits through
# `fail`): the background steps (and what they started), the test servers, their files.
STOP_AT_EXIT=()
REMOVE_AT_EXIT=("$LOG_DIR")
stop_and_remove() {
  local pid
  for pid in "${BACKGROUND_PID[@]}" "${STOP_AT_EXIT[@]}"; do
    pkill -P "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
  done
  rm -rf "${REMOVE_AT_EXIT[@]}"
}
trap stop_and_remove EXIT
START=$(date +%s)
TIMINGS=()

# step NAME COMMAND...: runs COMMAND, shows its output, keeps a copy for the summary.
step() {
  local name="$1"
  shift
  local log="$LOG_DIR/$(printf '%02d' ${#TIMINGS[@]})-${name// /_}.log"
  local t0=$(date +%s)
  say "$name: $*"
  if ! "$@" 2>&1 | tee "$log"; then
    fail "step '$name' failed (command: $*). Fix the problem shown above and run scripts/test.sh again."
  fi
  TIMINGS+=("$name $(($(date +%s) - t0))s")
}

# background NAME COMMAND...: starts COMMAND as step NAME without waiting for it; its output
# goes to the step's log only. `finish NAME` waits for it, shows the log, and fails the run
# when it failed.
background() {
  local name="$1"
  shift
  local log="$LOG_DIR/$(printf '%02d' ${#TIMINGS[@]})-${name// /_}.log"
  say "$name (in the background, shown when it ends): $*"
  "$@" >"$log" 2>&1 &
  BACKGROUND_PID[$name]=$!
  BACKGROUND_LOG[$name]="$log"
  BACKGROUND_START[$name]=$(date +%s)
}
finish() {
  local name="$1" status=0
  wait "${BACKGROUND_PID[$name]}" || status=$?
  say "$name: its output"
  cat "${BACKGROUND_LOG[$name]}"
  ((status == 0)) || fail "step '$name' failed (exit status $status); its output is above. Fix the problem and run scripts/test.sh again."
  TIMINGS+=("$name $(($(date +%s) - ${BACKGROUND_START[$name]}))s (in the background)")
}

# Where scripts/build-test-page.sh builds the page for the tests (tests/e2e/harness.mjs reads it).
TEST_PAGE=target/test-page

# The hooks' names are in the test page's wasm and nowhere in the page people are served.
test_hooks_only_in_the_test_page() {
  local hook
  for hook in askdbExport askdbPristineBytes askdbAgentCopyBytes; do
    grep -q "$hook" "$TEST_PAGE/askdb_bg.wasm" || {
      echo "the test page has no $hook: is the check looking at the right file?"
      return 1
    }
    if grep -rlq "$hook" dist; then
      echo "dist/ holds the test hook $hook: it must be built without the test-hooks feature"
      return 1
    fi
  done
  echo "the test hooks are in $TEST_PAGE only"
}

# The files whose tests are wasm-bindgen tests: the library itself and tests/*.rs.
wasm_test_targets() {
  if grep -rlq 'wasm_bindgen_test' src; then echo --lib; fi
  local file
  for file in tests/*.rs; do
    if [ -f "$file" ] && grep -q 'wasm_bindgen_test' "$file"; then
      echo --test
      basename "$file" .rs
    fi
  done
}

step "format" cargo fmt --all --check
# The pinned Datasette (for the native tests of tests/datasette_client.rs and the e2e tests of
# tests/e2e/datasette.test.mjs): pip spends its time on the network and the disk, so it installs
# while the builds use the cores, and is waited for before either kind of test starts.
background "datasette setup" setup_datasette

# The end-to-end tests are the longest step and spend most of their time waiting on the page,
# timers and retries, not on the CPU: so what they need is built first (the page with the test
# hooks of src/ui/test_hooks.rs, which expose the database's bytes on `window`; the pinned
# mdBook, which the mdbook-askdb tests build a book with; askdb-proxy, which the live-demo tests
# start), they start at once, and the lints, the page people are served and the other tests are
# built and run beside them. Two test files at a time (node's default on two cores is one); the
# files are listed (not the folder, which Node 22 and later do not accept). Beside the spec
# output, tests/e2e/file-times.mjs writes how long each file took, printed at the end.
# askdb-proxy builds beside the test page: the page's last step (one codegen unit, fat LTO) uses
# one core, and the proxy's dependencies (a debug build the native tests reuse) take the other.
background "proxy build" cargo build -p askdb-proxy
step "test page build" env ASKDB_FEATURES=test-hooks trunk build --offline --release --dist "$TEST_PAGE"
step "mdbook for the e2e tests" setup_mdbook
finish "proxy build"
finish "datasette setup"
E2E_FILES=(tests/e2e/*.test.mjs)
E2E_TIMES="$LOG_DIR/e2e-file-times.txt"
background "e2e tests" node --test --test-concurrency=2 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=./tests/e2e/file-times.mjs --test-reporter-destination="$E2E_TIMES" \
  "${E2E_FILES[@]}"

# --workspace: askdb and askdb-proxy (proxy/, native only, so not in the wasm lint below).
step "clippy native" cargo clippy --workspace --all-targets -- -D warnings
# --all-features: the page (src/ui) and its test hooks are behind features.
step "clippy wasm" cargo clippy --target wasm32-unknown-unknown --all-targets --all-features -- -D warnings
# The page people are served (dist/): the same build as the test page's without the hooks.
step "release build" trunk build --offline --release
step "no test hooks in dist" test_hooks_only_in_the_test_page

# askdb's native tests, and askdb-proxy's (which start the proxy against a scripted upstream).
step "native tests" cargo test --workspace

mapfile -t WASM_TARGETS < <(wasm_test_targets)
if ((${#WASM_TARGETS[@]})); then
  # The worker tests load the built page's worker, sql.js and demo from a server on 127.0.0.1
  # (a free port). It writes its address into tests/dist-url.txt, which the tests read at run
  # time from the test runner's own server: a new port does not rebuild them.
  DIST_URL_FILE=tests/dist-url.txt
  # The tests of databases read on demand (tests/web_lazy.rs) read the datasets from a server
  # that answers HTTP Range requests (and, on other paths, one that does not, or hides headers).
  RANGE_URL_FILE=tests/range-url.txt
  # The tests of Datasette databases in the page (tests/web_datasette.rs) ask two Datasette
  # servers (tests/datasette/serve.sh), one with --cors and one without: their addresses, one a
  # line, in tests/datasette-url.txt.
  DATASETTE_URL_FILE=tests/datasette-url.txt
  DATASETTE_DIR="$(mktemp -d)"
  rm -f "$DIST_URL_FILE" "$RANGE_URL_FILE" "$DATASETTE_URL_FILE"
  node tests/e2e/static-server.mjs "$TEST_PAGE" "$DIST_URL_FILE" >/dev/null &
  DIST_SERVER=$!
  node tests/e2e/range-server.mjs tests/datasets "$RANGE_URL_FILE" >/dev/null &
  RANGE_SERVER=$!
  tests/datasette/serve.sh "$DATASETTE_DIR/cors" &
  DATASETTE_CORS=$!
  tests/datasette/serve.sh "$DATASETTE_DIR/no-cors" --no-cors &
  DATASETTE_NO_CORS=$!
  STOP_AT_EXIT+=("$DIST_SERVER" "$RANGE_SERVER" "$DATASETTE_CORS" "$DATASETTE_NO_CORS")
  REMOVE_AT_EXIT+=("$DIST_URL_FILE" "$RANGE_URL_FILE" "$DATASETTE_URL_FILE" "$DATASETTE_DIR")
  for _ in $(seq 50); do [ -s "$DIST_URL_FILE" ] && [ -s "$RANGE_URL_FILE" ] && break; sleep 0.1; done
  [ -s "$DIST_URL_FILE" ] || fail "the static server for the wasm tests did not start"
  [ -s "$RANGE_URL_FILE" ] || fail "the range server for the wasm tests did not start"
  listening() { grep -o 'http://127.0.0.1:[0-9]*' "$1/server.log" 2>/dev/null | head -n1; }
  for _ in $(seq 600); do
    [ -n "$(listening "$DATASETTE_DIR/cors")" ] && [ -n "$(listening "$DATASETTE_DIR/no-cors")" ] && break
    sleep 0.1
  done
  [ -n "$(listening "$DATASETTE_DIR/cors")" ] && [ -n "$(listening "$DATASETTE_DIR/no-cors")" ] ||
    fail "the Datasette servers for the wasm tests did not start (see $DATASETTE_DIR/*/server.log)"
  printf '%s\n%s\n' "$(listening "$DATASETTE_DIR/cors")" "$(listening "$DATASETTE_DIR/no-cors")" >"$DATASETTE_URL_FILE"
  # The runner (.cargo/config.toml) drives Chromium through chromedriver, headless. Test
  # binaries without wasm_bindgen_test_configure! run in the browser too, not in Node.
  step "wasm tests" env CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_USE_BROWSER=1 \
    WASM_BINDGEN_TEST_TIMEOUT=120 WASM_BINDGEN_TEST_DRIVER_TIMEOUT=30 \
    cargo test --target wasm32-unknown-unknown "${WASM_TARGETS[@]}"
  kill "$DIST_SERVER" "$RANGE_SERVER" "$DATASETTE_CORS" "$DATASETTE_NO_CORS" 2>/dev/null || true
  rm -rf "$DIST_URL_FILE" "$RANGE_URL_FILE" "$DATASETTE_URL_FILE" "$DATASETTE_DIR"
else
  say "wasm tests: none found (no wasm_bindgen_test in src/ or tests/*.rs)"
fi

finish "e2e tests"
say "e2e tests: each file's time"
cat "$E2E_TIMES"

# Add up the counts that cargo test ("test result: ok. 3 passed; 0 failed; 1 ignored")
# and node's test runner ("ℹ pass 3", "ℹ fail 0", "ℹ skipped 0") printed.
read -r PASSED FAILED SKIPPED < <(cat "$LOG_DIR"/*.log | awk '
  /^test result:/ { for (i = 1; i <= NF; i++) {
      if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i; if ($(i+1) ~ /^ignored/) s += $i } }
  /^(ℹ|#) pass [0-9]+$/ { p += $3 }
  /^(ℹ|#) fail [0-9]+$/ { f += $3 }
  /^(ℹ|#) (skipped|todo) [0-9]+$/ { s += $3 }
  END { print p + 0, f + 0, s + 0 }')

echo
say "All checks passed in $(($(date +%s) - START))s"
printf '  %s\n' "${TIMINGS[@]}"
echo "summary: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" -eq 0 ] || fail "$FAILED tests failed although every step passed; see the output above."
