#!/bin/sh
# The browser tests drive Debian's chromium: installed when missing if we can, else one line saying how.
exec "$(dirname "$0")/ensure_debian_package.sh" chromium /usr/bin/chromium "the browser tests" \
  " (or \`make test-fast\` without them)"
