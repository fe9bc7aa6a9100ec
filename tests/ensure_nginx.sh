#!/bin/sh
# make publish-check serves the built site through Debian's nginx with its brotli module (the engine's
# files are sent as the build compressed them, deploy/kensei-ref.conf): installed when missing if we
# can, else one line saying how.
set -eu
here="$(dirname "$0")"
"$here/ensure_debian_package.sh" nginx /usr/sbin/nginx "the publishing checks"
exec "$here/ensure_debian_package.sh" libnginx-mod-http-brotli-static \
  /usr/lib/nginx/modules/ngx_http_brotli_static_module.so "the publishing checks (nginx's brotli_static)"
