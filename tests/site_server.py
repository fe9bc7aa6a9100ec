"""A static server for one copy of the built site that a test can stop and start again on the same
address (a service worker belongs to its origin), that records every path it was asked for, and that
can hold the requests for a path, as a slow network would."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

HOLD_LIMIT_S = 120
"""The longest a held request waits for its test to let it go."""


class _Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, requests: list[str], held: dict[str, threading.Event], **kwargs) -> None:
        self._requests = requests
        self._held = held
        super().__init__(*args, **kwargs)

    def log_message(self, *args) -> None:
        """Requests are kept in a list for the tests, not printed."""

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        self._requests.append(path)
        if path in self._held:
            self._held[path].wait(HOLD_LIMIT_S)
        super().do_GET()


class SiteServer:
    """``start()`` serves ``directory`` on 127.0.0.1 (the same port every time); ``stop()`` takes it off
    the network entirely, so that nothing can be fetched from it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.requests: list[str] = []
        self.held: dict[str, threading.Event] = {}
        self.port = 0
        self._httpd: http.server.ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> SiteServer:
        handler = functools.partial(_Handler, directory=str(self.directory), requests=self.requests, held=self.held)
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self.port = self._httpd.server_address[1]
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def hold(self, path: str) -> threading.Event:
        """Requests for ``path`` wait, as on a slow network, until the event returned is set (two minutes
        at most)."""
        return self.held.setdefault(path, threading.Event())

    def stop(self) -> None:
        for event in self.held.values():
            event.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
