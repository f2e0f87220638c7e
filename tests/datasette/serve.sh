#!/usr/bin/env bash
# Starts the pinned Datasette (scripts/setup.sh, setup_datasette) for askdb's tests, over copies
# of the test datasets in DIR, on 127.0.0.1 on a free port. The process becomes Datasette
# itself (exec): stop it by its process id.
#
#   tests/datasette/serve.sh DIR [--no-cors] [--alpha]
#
# Once it listens, DIR/server.log holds "Uvicorn running on http://127.0.0.1:PORT" and
# DIR/access.log one line for each request it answered. Its databases:
#
#   shop     tests/datasets/shop/shop.db, immutable (-i: Datasette reports its SHA-256)
#   chinook  tests/datasets/chinook/Chinook_Sqlite.sqlite, opened as a mutable file (no hash)
#   nosql    another copy of shop, with arbitrary SQL turned off (metadata: allow_sql false)
#   knowing  another copy of shop, with askdb's knowledge tables and views over them
#            (tests/datasette/knowing.sql, run by the Datasette's own Python)
#
# The limits are small, so that the tests meet them: 1 s per query, 100 rows per answer.
# --no-cors leaves out --cors (a browser may then not read its answers). --alpha starts
# Datasette 1.0a41 instead of 0.65.5 (its queries live at /<db>/-/query.json; it has no nosql,
# whose setting 1.0 reads from another file).

set -euo pipefail

DIR="${1:?usage: serve.sh DIR [--no-cors] [--alpha]}"
shift
CORS=(--cors)
VERSION="0.65.5"
for option in "$@"; do
  case "$option" in
  --no-cors) CORS=() ;;
  --alpha) VERSION="1.0a41" ;;
  *)
    echo "serve.sh: unknown option $option" >&2
    exit 2
    ;;
  esac
done
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/scripts/cache.sh"
DATASETTE="$(datasette_venv "$VERSION")/bin/datasette"
[ -x "$DATASETTE" ] || {
  echo "Datasette $VERSION is not installed at $DATASETTE: run 'source scripts/setup.sh && setup_datasette'" >&2
  exit 1
}

mkdir -p "$DIR"
cp "$ROOT/tests/datasets/shop/shop.db" "$DIR/shop.db"
cp "$ROOT/tests/datasets/chinook/Chinook_Sqlite.sqlite" "$DIR/chinook.db"
cp "$ROOT/tests/datasets/shop/shop.db" "$DIR/nosql.db"
cp "$ROOT/tests/datasets/shop/shop.db" "$DIR/knowing.db"
"$(dirname "$DATASETTE")/python" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(open(sys.argv[2]).read())
db.commit()' "$DIR/knowing.db" "$ROOT/tests/datasette/knowing.sql"
cat >"$DIR/metadata.json" <<'JSON'
{"databases": {"nosql": {"allow_sql": false}}}
JSON

DATABASES=(-i shop.db chinook.db nosql.db knowing.db --metadata metadata.json)
[ "$VERSION" = "0.65.5" ] || DATABASES=(-i shop.db chinook.db knowing.db)

cd "$DIR"
# Unbuffered, so that each request is in access.log as soon as it is answered.
export PYTHONUNBUFFERED=1
exec "$DATASETTE" serve "${DATABASES[@]}" \
  --host 127.0.0.1 --port 0 "${CORS[@]}" \
  --setting sql_time_limit_ms 1000 \
  --setting max_returned_rows 100 \
  >access.log 2>server.log
