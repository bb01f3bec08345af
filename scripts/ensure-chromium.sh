#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium; no test tool may download a browser of its own.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "[e2e] installing Debian's chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
else
  echo "[e2e] Chromium is missing: install it (e.g. 'sudo apt-get install chromium') or set CHROMIUM_PATH." >&2
  exit 1
fi
