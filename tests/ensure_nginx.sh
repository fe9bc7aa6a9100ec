#!/bin/sh
# make publish-check serves the built site through Debian's nginx: installed when missing if we can,
# else one line saying how.
exec "$(dirname "$0")/ensure_debian_package.sh" nginx /usr/sbin/nginx "the publishing checks"
