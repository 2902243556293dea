#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs every check:
# ruff, mypy, and pytest (unit, property, API and browser tests). The server tests
# run on SQLite; those where the two databases differ (marked both_databases in
# tests/server) on a throw-away PostgreSQL cluster started here too.
set -euo pipefail
cd "$(dirname "$0")/.."

# Compiled bytecode kept outside the tree, even where the environment says not to write
# it (PYTHONDONTWRITEBYTECODE): each of the run's hundred-odd Python processes (pytest's
# workers, every server a test starts, their Khó processes) would otherwise compile
# every module it imports from source again, and pytest rewrite every test module's
# asserts again (docs/testing.md).
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX="${PYTHONPYCACHEPREFIX:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/hearts-test-pyc}"

python3 -m pip install --quiet --disable-pip-version-check -e '.[test,bench]'

# Debian packages: chromium (Playwright cannot download browsers here), PostgreSQL
# (the server tests run on it too) and nginx (the deploy doc's proxy config is tried).
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Khó's numba kernel compiles on a fresh checkout's first use (a minute or more on two
# busy cores, longer than a browser test waits for its server to start): compile it
# into numba's cache beside the sources now, while ruff, mypy and PostgreSQL start,
# so that every server the tests start loads it instead.
python3 -c 'from hearts.bots.hard import warm_up; warm_up()' &
warm_pid=$!

python3 -m ruff check src tests bench
python3 -m ruff format --check src
python3 -m mypy

# A throw-away PostgreSQL cluster (unless HEARTS_TEST_PG_URL names one): trust auth on
# loopback and a socket in its own folder, no fsync (nothing here outlives the run).
if [ -z "${HEARTS_TEST_PG_URL:-}" ]; then
  pg_bin=$(compgen -G '/usr/lib/postgresql/*/bin' | sort -V | tail -n 1)
  pg_dir=$(mktemp -d /tmp/hearts-test-pg.XXXXXX)
  as_pg() {
    # initdb refuses root: as root, run the cluster as Debian's postgres user.
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
  }
  pg_stop() {
    as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
  }
  trap pg_stop EXIT
  trap 'exit 130' INT TERM
  if [ "$(id -u)" = 0 ]; then chown postgres "$pg_dir"; fi
  as_pg "$pg_bin/initdb" -A trust -U postgres -E UTF8 -D "$pg_dir/data" >/dev/null
  started=""
  for _ in 1 2 3; do  # a free port, tried again if another program takes it first
    pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w -t 60 -o \
      "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null; then
      started=1
      break
    fi
  done
  if [ -z "$started" ]; then
    cat "$pg_dir/log" >&2
    echo "scripts/test.sh: PostgreSQL did not start" >&2
    exit 1
  fi
  export HEARTS_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$pg_port/postgres"
fi

wait "$warm_pid" || { echo "scripts/test.sh: Khó's kernel did not compile" >&2; exit 1; }

# The screenshots kept for a person to look at (test-artifacts/) cost CPU the two cores
# lack: only test_screens' unless HEARTS_TEST_SCREENSHOTS=1 (tests/browser/conftest.py).
export HEARTS_TEST_SCREENSHOTS="${HEARTS_TEST_SCREENSHOTS:-0}"

# Two pytest runs at once (docs/testing.md): the browser tests (the CPU's main users)
# on workers of their own from the start, the others on the rest; the browser run's
# report follows the other's. The default when the command is given no arguments
# (with a test path or -k, one run: the split would run a path twice or find nothing
# in one half); HEARTS_TEST_SPLIT=0 or 1 decides otherwise.
split="${HEARTS_TEST_SPLIT:-auto}"
if [ "$split" = auto ]; then
  if [ $# -eq 0 ]; then split=1; else split=0; fi
fi
if [ "$split" = 1 ]; then
  split_dir=$(mktemp -d /tmp/hearts-test-split.XXXXXX)
  python3 -m pytest -q -n "${HEARTS_TEST_BROWSER_WORKERS:-3}" --basetemp "$split_dir/browser" \
    tests/browser "$@" >"$split_dir/browser.log" 2>&1 &
  browser_pid=$!
  status=0
  python3 -m pytest -q -n "${HEARTS_TEST_WORKERS:-4}" --basetemp "$split_dir/rest" \
    --ignore tests/browser "$@" || status=$?
  wait "$browser_pid" || status=$?
  echo "--- the browser tests:"
  cat "$split_dir/browser.log"
  rm -rf "$split_dir"
  exit "$status"
fi

# One run: four workers (pytest-xdist) on two cores. The load scheduling hands tests
# out one at a time in collection order: the longest first, the browser tests last on
# every worker (tests/conftest.py, docs/testing.md).
python3 -m pytest -q -n "${HEARTS_TEST_WORKERS:-4}" "$@"
