#!/bin/sh
# The browser tests drive Debian's chromium. When it is missing, install it if we can (root with
# apt-get, as .ci/run does); otherwise stop at once with the one command to run.
set -eu
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium is missing: installing Debian's chromium for the browser tests" >&2
  apt-get update
  apt-get install -y chromium
  exit 0
fi
echo "chromium is missing for the browser tests: run \`sudo apt-get install -y chromium\` (or \`make test-fast\` without them)" >&2
exit 1
