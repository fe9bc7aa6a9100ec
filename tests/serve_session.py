"""``mkdocs serve`` on a copy of the rule data, for the edit-loop test and benchmark: a maintainer saves a
rule file and the open page shows the new text by itself.

The copy is read through the plugin's ``rule_data`` option, in a configuration written beside
``mkdocs.yml`` for the session (so its relative paths stay right) and removed after: the checkout's
files are never touched.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "kensei_ref" / "rules" / "data"
RULE_FILE = Path("kensei") / "07-terrain.yaml"
SENTENCE = "is set up first, before anything else happens."
"""A sentence of the English text of ``kensei.terrain-placement``; a save appends a word to it."""
PAGE = "/kensei/terrain/"
"""The page that shows that rule."""
START_TIMEOUT_S = 300.0
RELOAD_TIMEOUT_S = 120.0
SHOWS = "(word) => document.readyState === 'complete' && document.body.innerText.includes(word)"


class ServeError(AssertionError):
    """mkdocs serve stopped, did not answer, or the page did not show a save; with the server's log."""


@dataclass
class ServeSession:
    url: str
    data: Path
    log: Path
    started_in_s: float

    def save_with(self, word: str) -> None:
        """Saves the rule file with ``word`` appended to :data:`SENTENCE` (in place of any earlier word)."""
        rule_file = self.data / RULE_FILE
        original = (DATA / RULE_FILE).read_text(encoding="utf-8")
        assert SENTENCE in original, f"{RULE_FILE}: the sentence this session edits has changed"
        rule_file.write_text(original.replace(SENTENCE, f"{SENTENCE} {word}."), encoding="utf-8")

    def wait_for_word(self, page, word: str) -> None:
        """Polls ``page`` until it shows ``word`` (a reload destroys the page's context, which a waiting
        function would not outlive)."""
        deadline = time.monotonic() + RELOAD_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.ask(page, SHOWS, word):
                return
            time.sleep(0.02)
        raise ServeError(f"the page did not show {word!r} within {RELOAD_TIMEOUT_S:.0f} s of the save; {self.said()}")

    def ask(self, page, expression: str, arg: object = None) -> object:
        """``page.evaluate`` that outlives a reload: the page may load again just after it showed a save
        (seen once in CI: a save can end in more than one rebuild). The question is asked again in the
        next document, until a loaded one answers."""
        deadline = time.monotonic() + RELOAD_TIMEOUT_S
        while True:
            try:
                return page.evaluate(expression, arg)
            except Exception as error:  # the page is between two documents: ask the next one
                if not any(sign in str(error) for sign in ("context", "navigat", "detached")):
                    raise
                if time.monotonic() > deadline:
                    raise ServeError(f"the page kept navigating for {RELOAD_TIMEOUT_S:.0f} s; {self.said()}") from error
                page.wait_for_load_state("load")

    def said(self) -> str:
        return "mkdocs serve said:\n" + self.log.read_text(encoding="utf-8")[-3000:]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _config(data: Path) -> Path:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    marker = "      offline_copy: true\n"
    assert marker in text, "mkdocs.yml: the kensei-ref plugin's options have moved"
    config = ROOT / f".serve-session-{os.getpid()}.yml"
    config.write_text(text.replace(marker, marker + f"      rule_data: {json.dumps(str(data))}\n"), encoding="utf-8")
    return config


def _wait_until_served(url: str, process: subprocess.Popen, log: Path) -> float:
    start = time.monotonic()
    while time.monotonic() - start < START_TIMEOUT_S:
        if process.poll() is not None:
            raise ServeError(f"mkdocs serve stopped:\n{log.read_text(encoding='utf-8')[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return time.monotonic() - start
        except OSError:
            time.sleep(0.25)
    raise ServeError(f"mkdocs serve did not answer within {START_TIMEOUT_S:.0f} s")


@contextmanager
def serving() -> Iterator[ServeSession]:
    """``mkdocs serve`` on a fresh copy of the rule data, until the block ends."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        shutil.copytree(DATA, data)
        config = _config(data)
        log_path = Path(folder) / "serve.log"
        port = _free_port()
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        with log_path.open("w", encoding="utf-8") as log:  # a pipe nobody reads would fill and stop it
            process = subprocess.Popen(
                [sys.executable, "-m", "mkdocs", "serve", "-f", str(config), "--dev-addr", f"127.0.0.1:{port}"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            try:
                url = f"http://127.0.0.1:{port}"
                started = _wait_until_served(url + PAGE, process, log_path)
                yield ServeSession(url, data, log_path, started)
            finally:
                process.terminate()
                process.wait(timeout=30)
                config.unlink(missing_ok=True)
