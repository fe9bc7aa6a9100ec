"""A static server for one copy of the built site that a test can stop and start again on the same
address (a service worker belongs to its origin), and that records every path it was asked for."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path


class _Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, requests: list[str], **kwargs) -> None:
        self._requests = requests
        super().__init__(*args, **kwargs)

    def log_message(self, *args) -> None:
        """Requests are kept in a list for the tests, not printed."""

    def do_GET(self) -> None:
        self._requests.append(self.path.split("?", 1)[0])
        super().do_GET()


class SiteServer:
    """``start()`` serves ``directory`` on 127.0.0.1 (the same port every time); ``stop()`` takes it off
    the network entirely, so that nothing can be fetched from it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.requests: list[str] = []
        self.port = 0
        self._httpd: http.server.ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> SiteServer:
        handler = functools.partial(_Handler, directory=str(self.directory), requests=self.requests)
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self.port = self._httpd.server_address[1]
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
