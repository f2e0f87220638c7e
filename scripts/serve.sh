#!/usr/bin/env bash
# Builds askdb and serves it at http://127.0.0.1:8080 (PORT=... to change), rebuilding on
# every change. The demo database is part of the page: click "demo" to open it.
#
#   scripts/serve.sh           (installs what is missing first, see scripts/setup.sh)

source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ASKDB_ROOT"
say "Serving askdb at http://127.0.0.1:${PORT:-8080}/ (Ctrl+C to stop)"
exec trunk serve --offline --release --address 127.0.0.1 --port "${PORT:-8080}"
