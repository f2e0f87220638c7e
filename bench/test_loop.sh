#!/usr/bin/env bash
# How long the test command takes (issue 42, docs/benchmarks.md), the three ways it is met:
#   cold   a fresh clone with an empty cache: a new machine's CI run (cargo builds everything);
#   clone  a fresh clone again, CI's build folder now kept from the cold run (.ci/run);
#   warm   the same clone run once more (a developer's second run of scripts/test.sh).
# Each run's exit status, whole time and the steps' times (scripts/test.sh prints them) are
# shown, then the e2e files' times of the last run. Run it on a quiet machine: it takes about
# half an hour, and anything else using the cores shows in the figures.
#
#   bench/test_loop.sh [COMMIT]        (default: HEAD of this checkout)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commit="$(git -C "$ROOT" rev-parse "${1:-HEAD}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A cache of its own (scripts/cache.sh), so "cold" is cold and the usual cache is left alone.
export ASKDB_CACHE="$work/cache"
unset CARGO_TARGET_DIR

run() {
  local name="$1" clone="$2" t0 status=0
  t0=$(date +%s)
  (cd "$clone" && bash .ci/run) >"$work/$name.log" 2>&1 || status=$?
  local seconds=$(($(date +%s) - t0))
  printf '%-6s exit %d, %d s (%d min %02d s)\n' "$name" "$status" "$seconds" $((seconds / 60)) $((seconds % 60))
  # The steps' times, as scripts/test.sh printed them after "All checks passed".
  sed -n '/All checks passed/,/^summary:/p' "$work/$name.log" | grep -v 'All checks passed' | sed 's/^/         /'
  ((status == 0)) || { tail -n 40 "$work/$name.log"; exit 1; }
}

echo "commit $commit, $(nproc) cores"
git clone -q "$ROOT" "$work/first" && git -C "$work/first" checkout -q "$commit"
run cold "$work/first"
git clone -q "$ROOT" "$work/second" && git -C "$work/second" checkout -q "$commit"
run clone "$work/second"
run warm "$work/second"
echo
sed -n '/e2e tests: each file/,/^==>\|^$/p' "$work/warm.log" | sed 's/\x1b\[[0-9;]*m//g' | head -n 60
