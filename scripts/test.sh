#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs every check:
# ruff, mypy, and pytest (unit, property, API and browser tests).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -e '.[test,bench]'
if [ ! -x /usr/bin/chromium ]; then
  # Playwright cannot download browsers here: the browser tests use Debian's chromium.
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

python3 -m ruff check src tests bench
python3 -m ruff format --check src
python3 -m mypy
python3 -m pytest -q "$@"
