#!/bin/sh
# Some tests drive a program from one of Debian's packages. When it is missing, install it if we can
# (root with apt-get, as .ci/run does); otherwise stop at once with the one command to run.
# Usage: ensure_debian_package.sh PACKAGE PROGRAM_PATH PURPOSE [OTHERWISE]
#   PACKAGE also names the program; PROGRAM_PATH is where it (or the file it installs) is when it is not
#   on PATH; PURPOSE names the tests that need it; OTHERWISE follows the command to run, when there is
#   another way out.
set -eu
package=$1
program=$2
purpose=$3
otherwise=${4:-}
if command -v "$package" >/dev/null 2>&1 || [ -e "$program" ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "$package is missing: installing Debian's $package for $purpose" >&2
  apt-get update
  apt-get install -y "$package"
  exit 0
fi
echo "$package is missing for $purpose: run \`sudo apt-get install -y $package\`$otherwise" >&2
exit 1
