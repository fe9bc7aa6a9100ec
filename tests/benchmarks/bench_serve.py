"""Benchmark of ``make serve``'s edit loop: from saving a rule file to the browser showing the new text.

Run from the project root::

    python tests/benchmarks/bench_serve.py [--out bench.json] [--repeats 5]

``mkdocs serve`` runs on a copy of the rule data (tests/serve_session.py), and Debian's Chromium holds the
rule's page open, as a maintainer's browser does. Each repeat appends a new word to one English rule text
and saves the file, then times until the page has reloaded by itself (MkDocs' live reload) and shows the
word. Prints the figures and writes them as JSON to ``--out`` (merged under ``serve`` into an existing
file). Not collected by pytest (it is not named ``test_*``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the shared settings
from browser_launch import CHROMIUM, CHROMIUM_ARGS
from machine import this_machine
from serve_session import PAGE, RULE_FILE, serving

SETTLE_MS = 1500
"""Between two saves: the server settles after its last rebuild, as between a maintainer's two saves."""


def measure(repeats: int) -> dict:
    from playwright.sync_api import sync_playwright

    times = []
    with serving() as session, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(session.url + PAGE)
        page.wait_for_load_state("load")
        for repeat in range(repeats):
            word = f"Reloaded{repeat}x"
            page.wait_for_timeout(SETTLE_MS)
            start = time.monotonic()
            session.save_with(word)
            session.wait_for_word(page, word)
            times.append(time.monotonic() - start)
        browser.close()
        started = session.started_in_s
    return {
        "measured": time.strftime("%Y-%m-%d"),
        "machine": this_machine(),
        "edited": f"{RULE_FILE.as_posix()} (English text of one rule)",
        "first_build_s": round(started, 2),
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
