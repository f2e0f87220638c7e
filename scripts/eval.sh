#!/usr/bin/env bash
# Evaluates one model on every question set shipped with askdb (evals/README.md) with the native
# runner, askdb-eval. Each set's report goes to eval-reports/<set>/report.md and report.json;
# each set's summary line is printed as it ends.
#
#   OPENAI_API_KEY=… scripts/eval.sh --provider openai --model gpt-4.1-mini
#   scripts/eval.sh --base-url http://127.0.0.1:11434/v1 --model qwen2.5-coder:7b --no-key
#   EVAL_SETS="shop chinook" scripts/eval.sh --provider anthropic --model claude-sonnet-4-5 --limit 20
#
# Every argument goes to each run (see `askdb-eval --help`). The key comes from the environment
# only: ASKDB_API_KEY, or OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY by provider.
# EVAL_SETS picks sets (shop shop_mirrored chinook spider_de; default all), EVAL_OUT the folder.
# Exit status: 0 when every set ran, 1 when one could not, 2 on bad arguments.
set -uo pipefail
cd "$(dirname "$0")/.."

sets=${EVAL_SETS:-shop shop_mirrored chinook spider_de}
out=${EVAL_OUT:-eval-reports}

cargo build --release --quiet --bin askdb-eval || exit 1
runner=target/release/askdb-eval

# The database and questions of each set, as askdb-eval's arguments.
set_arguments() {
  case "$1" in
    shop) echo "--db-dir tests/datasets --questions evals/shop/questions.json" ;;
    shop_mirrored) echo "--db-dir tests/datasets --questions evals/shop/questions_mirrored.json" ;;
    chinook) echo "--db tests/datasets/chinook/Chinook_Sqlite.sqlite --questions tests/datasets/chinook/questions_spider_chinook_1.json" ;;
    spider_de) echo "--db-dir tests/datasets/spider_de/database --questions tests/datasets/spider_de/questions_dev_de.json" ;;
    *) return 1 ;;
  esac
}

failed=0
for name in $sets; do
  if ! arguments=$(set_arguments "$name"); then
    echo "eval.sh: no question set named $name (choose from: shop shop_mirrored chinook spider_de)" >&2
    exit 2
  fi
  echo "== $name" >&2
  # shellcheck disable=SC2086 # the set's arguments are words without spaces
  summary=$("$runner" $arguments --out "$out/$name" "$@")
  status=$?
  case $status in
    0) echo "$name: $summary" ;;
    2) exit 2 ;; # the same arguments would be wrong for every set
    *) echo "$name: could not run (see above)"; failed=1 ;;
  esac
done
echo "reports in $out/" >&2
exit $failed
