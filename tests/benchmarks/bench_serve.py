"""Benchmark of ``make serve``'s edit loop: from saving a rule file to the browser showing the new text.

Run from the project root::

    python tests/benchmarks/bench_serve.py [--out bench.json] [--repeats 5]

``mkdocs serve`` runs on a copy of the rule data (the plugin's ``rule_data`` option, in a configuration
written beside ``mkdocs.yml`` for the run and removed after), so the checkout's files are never touched.
Debian's Chromium holds the rule's page open, as a maintainer's browser does. Each repeat appends a new
word to one English rule text and saves the file, then times until the page has reloaded by itself
(MkDocs' live reload) and shows the word. Prints the figures and writes them as JSON to ``--out``
(merged under ``serve`` into an existing file). Not collected by pytest (it is not named ``test_*``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the shared launch settings
from browser_launch import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "kensei_ref" / "rules" / "data"
RULE_FILE = Path("kensei") / "07-terrain.yaml"
SENTENCE = "is set up first, before anything else happens."
"""A sentence of the English text of ``kensei.terrain-placement``; each repeat appends a word to it."""
PAGE = "/kensei/terrain/"
START_TIMEOUT = 300.0
RELOAD_TIMEOUT_S = 120.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _config(data: Path) -> Path:
    """``mkdocs.yml`` with the plugin reading ``data``, beside it (its relative paths stay right)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    marker = "      offline_copy: true\n"
    assert marker in text, "mkdocs.yml: the kensei-ref plugin's options have moved"
    config = ROOT / f".bench-serve-{os.getpid()}.yml"
    config.write_text(text.replace(marker, marker + f"      rule_data: {json.dumps(str(data))}\n"), encoding="utf-8")
    return config


def _wait_until_served(url: str, process: subprocess.Popen, log: Path) -> float:
    start = time.monotonic()
    while time.monotonic() - start < START_TIMEOUT:
        if process.poll() is not None:
            raise SystemExit(f"mkdocs serve stopped:\n{log.read_text(encoding='utf-8')[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return time.monotonic() - start
        except OSError:
            time.sleep(0.25)
    raise SystemExit(f"mkdocs serve did not answer within {START_TIMEOUT:.0f} s")


SHOWS = "(word) => document.readyState === 'complete' && document.body.innerText.includes(word)"


def _wait_for_word(page, word: str) -> None:
    """Polls the page (a reload destroys the page's context, which a waiting function would not outlive)."""
    deadline = time.monotonic() + RELOAD_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            if page.evaluate(SHOWS, word):
                return
        except Exception:  # the page is between two documents: ask the next one
            pass
        time.sleep(0.02)
    raise SystemExit(f"the page did not show {word!r} within {RELOAD_TIMEOUT_S:.0f} s of the save")


def measure(repeats: int) -> dict:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        shutil.copytree(DATA, data)
        config = _config(data)
        port = _free_port()
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        log = (Path(folder) / "serve.log").open("w", encoding="utf-8")  # a pipe nobody reads would fill and stop it
        process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-f", str(config), "--dev-addr", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            first_build = _wait_until_served(url + PAGE, process, Path(log.name))
            times = []
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.goto(url + PAGE)
                page.wait_for_load_state("load")
                rule_file = data / RULE_FILE
                text = rule_file.read_text(encoding="utf-8")
                assert SENTENCE in text, f"{RULE_FILE}: the sentence edited by this benchmark has changed"
                for repeat in range(repeats):
                    word = f"Reloaded{repeat}x"
                    page.wait_for_timeout(1500)  # the server settles after the last rebuild
                    start = time.monotonic()
                    rule_file.write_text(text.replace(SENTENCE, f"{SENTENCE} {word}."), encoding="utf-8")
                    _wait_for_word(page, word)
                    times.append(time.monotonic() - start)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=30)
            log.close()
            config.unlink(missing_ok=True)
    return {
        "measured": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "edited": f"{RULE_FILE.as_posix()} (English text of one rule)",
        "first_build_s": round(first_build, 2),
        "reload_s": round(statistics.median(times), 2),
        "reload_runs_s": [round(value, 2) for value in times],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="merge the figures into this JSON file, under 'serve'")
    parser.add_argument("--repeats", type=int, default=5, help="saves timed (median)")
    args = parser.parse_args(argv)
    figures = measure(args.repeats)
    print(
        f"make serve: first build {figures['first_build_s']} s; "
        f"save to reload {figures['reload_s']} s (median of {args.repeats}: {figures['reload_runs_s']})"
    )
    if args.out:
        document = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
        document["serve"] = figures
        args.out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
