#!/bin/sh
# make publish-check serves the built site through Debian's nginx. When it is missing, install it if we
# can (root with apt-get, as .ci/run does); otherwise stop at once with the one command to run.
set -eu
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "nginx is missing: installing Debian's nginx for the publishing checks" >&2
  apt-get update
  apt-get install -y nginx
  exit 0
fi
echo "nginx is missing for the publishing checks: run \`sudo apt-get install -y nginx\`" >&2
exit 1
