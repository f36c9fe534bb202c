#!/usr/bin/env bash
# Debian's Chromium, for the test that opens a run page in a headless browser
# (tests/viz/test_trace_page.py). Best effort: without it that test skips, saying why.
set -uo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: not root or no apt-get; the browser test will skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core; } >/tmp/install-chromium.log 2>&1; then
  echo "install-chromium: apt-get failed (see /tmp/install-chromium.log); the browser test will skip" >&2
fi
exit 0
