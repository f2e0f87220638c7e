# Where askdb's scripts keep what they install outside a checkout, shared by every clone on this
# machine: the Datasette environments (scripts/setup.sh), and for CI (.ci/run, which tests a
# fresh clone each time) cargo's build folder. A new clone then starts from what the last one
# built; a new machine (an empty cache) builds and installs everything, as before.
# Sourced by scripts/setup.sh and tests/datasette/serve.sh; ASKDB_CACHE names another place.
ASKDB_CACHE="${ASKDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/askdb}"

# The virtual environment Datasette VERSION is installed in (setup_datasette).
datasette_venv() { printf '%s/datasette-%s' "$ASKDB_CACHE" "$1"; }
