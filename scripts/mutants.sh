#!/usr/bin/env bash
# Mutation testing of the code where a silent break hurts most: cargo-mutants changes one thing
# at a time (a condition flipped, a function made to return a default, an operator swapped),
# builds, and runs the tests that guard that code. A change no test notices ("missed") is a hole
# in the tests, unless it is harmless; docs/testing.md ("Mutation testing") lists the results
# and every harmless survivor with the reason.
#
#   scripts/mutants.sh                  every target, one after the other
#   scripts/mutants.sh guard compare    only these (targets: see TARGETS below)
#
# Not part of scripts/test.sh: it takes hours on two cores (each mutant is a rebuild). The first
# run installs cargo-mutants (pinned in scripts/setup.sh). Results go to
# target/mutants/<target>/mutants.out (caught.txt, missed.txt, unviable.txt, timeout.txt).

source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_mutants
cd "$ASKDB_ROOT"

# Each target: what to mutate (cargo-mutants --file globs, and a --re filter where only part of a
# file is in scope), and the tests that guard it: the test binaries as --cargo-arg (so that each
# mutant builds only those, not all thirty test binaries of the crate) and, after "--", a filter
# on the test names.
TARGETS=(guard lexer hidden hiding session compare fence)
target_args() {
  case "$1" in
    guard) echo "--file src/sql/guard.rs --cargo-arg=--lib -- sql::" ;;
    lexer) echo "--file src/sql/lexer.rs --cargo-arg=--lib -- sql::" ;;
    # What is hidden from the model: the set, the script that derives the copy without it, and
    # the one place that decides what the model sees (what is left out, how, its schema and
    # knowledge: src/model_view.rs).
    hidden) echo "--file src/engine/hidden/*.rs --file src/model_view.rs --cargo-arg=--lib --cargo-arg=--test=hidden_copy --cargo-arg=--test=model_view" ;;
    # The knowledge that would name what is hidden.
    hiding) echo "--file src/knowledge/hiding.rs --cargo-arg=--lib -- knowledge::hiding" ;;
    # Where the session leaves out askdb's own tables.
    session) echo "--file src/agent/mod.rs --file src/knowledge/mod.rs --re Session::new|is_knowledge_table --cargo-arg=--lib --cargo-arg=--test=agent_knowledge" ;;
    compare) echo "--file src/compare/mod.rs --cargo-arg=--lib -- compare::" ;;
    # The fence that keeps the model from askdb's knowledge tables where no copy can be made:
    # the name check and what the fence holds (the refusal, engine::keep_out, is tested against
    # a Datasette server and in the browser, outside cargo-mutants' copy).
    fence) echo "--file src/sql/fence.rs --file src/model_view.rs --re NameFence|knowledge_fence|is_virtual|without_fenced --cargo-arg=--lib --cargo-arg=--test=model_view" ;;
    *) fail "unknown target '$1': one of ${TARGETS[*]}" ;;
  esac
}

# One build directory for every target, so that dependencies are built once (cargo-mutants
# copies the source tree for each run; without this each copy would build everything anew).
export CARGO_TARGET_DIR="$ASKDB_ROOT/target/mutants-build"

chosen=("$@")
((${#chosen[@]})) || chosen=("${TARGETS[@]}")
for name in "${chosen[@]}"; do
  read -r -a args <<<"$(target_args "$name")"
  say "mutants: $name (cargo mutants ${args[*]})"
  started=$(date +%s)
  # --jobs 1: the two cores go to one build at a time. The unmutated tree is built and tested
  # first (its tests must pass), and sets the time after which a mutant's tests are stopped
  # (a loop made endless is reported as a timeout, not a hang). Exit status 2 means some
  # mutants were missed, 3 that some timed out: reported, not a failure of this script.
  mkdir -p "target/mutants/$name"
  status=0
  cargo mutants --jobs 1 --minimum-test-timeout 60 --profile mutants \
    --output "target/mutants/$name" "${args[@]}" || status=$?
  case "$status" in
    0 | 2 | 3) ;; # all caught | some missed | some timed out
    *) fail "cargo mutants stopped on '$name' (status $status): see target/mutants/$name/mutants.out/debug.log" ;;
  esac
  say "mutants: $name took $(($(date +%s) - started))s"
done
