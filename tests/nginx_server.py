"""Debian's nginx serving a built site with the project's configuration (``deploy/kensei-ref.conf``
inside ``deploy/nginx.conf``), as a child of this process: for the publishing tests and for the
Lighthouse benchmark, which both look at the site as it is published."""

from __future__ import annotations

import getpass
import gzip
import http.client
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NGINX_MISSING = f"nginx is missing ({NGINX}): `make publish-check` installs it (or run `sudo apt-get install -y nginx`)"


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    """As sent: compressed when ``content-encoding`` says so."""

    def text(self) -> str:
        data = gzip.decompress(self.body) if self.headers.get("content-encoding") == "gzip" else self.body
        return data.decode("utf-8")


class Nginx:
    """Debian's nginx serving ``site`` on 127.0.0.1:``port`` with the project's configuration, filled in
    under ``runtime``; in the foreground, a child of this process, stopped by :meth:`stop`."""

    def __init__(self, site: Path, port: int, runtime: Path) -> None:
        self.site, self.port, self.runtime = site, port, runtime
        self.process: subprocess.Popen | None = None
        site_conf = runtime / "kensei-ref.conf"
        site_conf.write_text(
            (DEPLOY / "kensei-ref.conf")
            .read_text("utf-8")
            .replace("@ROOT@", str(site))
            .replace("@PORT@", f"127.0.0.1:{port}"),
            encoding="utf-8",
        )
        (runtime / "nginx.conf").write_text(
            (DEPLOY / "nginx.conf")
            .read_text("utf-8")
            .replace("@RUNTIME@", str(runtime))
            .replace("@USER@", getpass.getuser())
            .replace("@SITE_CONF@", str(site_conf)),
            encoding="utf-8",
        )
        self.command = [NGINX, "-p", str(runtime), "-c", str(runtime / "nginx.conf")]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Nginx:
        checked = subprocess.run([*self.command, "-t"], capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.stderr.read().decode() if self.process.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"nginx did not listen on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()  # SIGTERM: nginx's fast shutdown, its worker with it
            self.process.wait(timeout=20)
            self.process = None

    def get(self, path: str, *, gzip_ok: bool = True, accept_encoding: str | None = None) -> Response:
        """``path`` as nginx sends it: gzipped if it will (``gzip_ok``), or as ``accept_encoding`` allows."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        if accept_encoding is None:
            accept_encoding = "gzip" if gzip_ok else ""
        try:
            connection.request("GET", path, headers={"Accept-Encoding": accept_encoding} if accept_encoding else {})
            answer = connection.getresponse()
            headers = {name.lower(): value for name, value in answer.getheaders()}
            return Response(answer.status, headers, answer.read())
        finally:
            connection.close()
