"""Lighthouse (npm, pinned in package.json) on every kind of page in each language, mobile, as the site is
published: built by ``make bench`` and served by Debian's nginx with the project's configuration
(``deploy/``), so that compression and caching are the published site's. One quiet run a page; the
figures (the four category scores, total blocking time, layout shift, largest contentful paint) go to
``--out`` (docs/benchmarks-browser.json, under "lighthouse"), which the benchmarks page shows.
Lighthouse's figures move with the machine's load: ``--runs N`` takes each page's median of N runs, and
``--pages`` / ``--langs`` measure some pages only, when a change is compared before and after;
``--reports`` keeps each run's whole report (traces' audits: long tasks, script boot-up, main-thread work).

Lighthouse emulates a mid-range phone on a slow 4G link with 4x CPU slowdown (its mobile defaults) and
drives Debian's Chromium (CHROME_PATH), headless, with the flags the tests use.

    python tests/benchmarks/bench_lighthouse.py --site .bench-site --out docs/benchmarks-browser.json
    python tests/benchmarks/bench_lighthouse.py --site site --out /tmp/lh.json --pages rule glossary --langs en --runs 3
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from browser_launch import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from machine import this_machine  # noqa: E402
from nginx_server import Nginx, free_port  # noqa: E402

from kensei_ref.languages import LANGUAGES, site_folder  # noqa: E402

ROOT = HERE.parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
VERSION = json.loads((ROOT / "package.json").read_text("utf-8"))["devDependencies"]["lighthouse"]
PAGES = {
    "home": "",
    "rule": "kensei/orders/",
    "glossary": "glossary/",
    "calculator": "calculators/shooting/",
    "units": "units/",
    "advisor": "advisor/",
    "digest": "digest/",
    "offline": "offline/",
}
"""Every kind of page a reader opens, by the address of one of its kind."""
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
AUDITS = {"total-blocking-time": "tbt_ms", "cumulative-layout-shift": "cls", "largest-contentful-paint": "lcp_ms"}


def audit(url: str, keep: Path | None = None) -> dict[str, float]:
    """One Lighthouse run of ``url``: its category scores (0-100) and the audits named in AUDITS; the whole
    report is copied to ``keep`` when given."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        flags = " ".join(CHROMIUM_ARGS)
        command = [
            str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
            "--only-categories=" + ",".join(CATEGORIES), "--form-factor=mobile", f"--chrome-flags={flags}",
        ]  # fmt: skip
        env = {**os.environ, "CHROME_PATH": CHROMIUM}
        subprocess.run(command, check=True, env=env, capture_output=True, timeout=240)
        data = json.loads(report.read_text("utf-8"))
        if keep:
            keep.write_bytes(report.read_bytes())
    figures = {name: round(100 * data["categories"][name]["score"]) for name in CATEGORIES}
    for audit_id, key in AUDITS.items():
        figures[key] = round(data["audits"][audit_id]["numericValue"], 3)
    return figures


def median_of_runs(url: str, runs: int, reports: Path | None, name: str) -> dict[str, float]:
    """Each figure's median over ``runs`` runs of ``url`` (a single run when 1), its runs' TBT beside it."""
    each = [audit(url, reports / f"{name}-{run}.json" if reports else None) for run in range(runs)]
    figures: dict[str, float] = {key: statistics.median(run[key] for run in each) for key in each[0]}
    if runs > 1:
        figures["runs"] = runs
        figures["tbt_runs_ms"] = [run["tbt_ms"] for run in each]  # type: ignore[assignment]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True, help="the built site")
    parser.add_argument("--out", type=Path, required=True, help="where the figures are written (JSON)")
    parser.add_argument("--pages", nargs="+", choices=PAGES, default=list(PAGES), help="kinds of page (all)")
    parser.add_argument("--langs", nargs="+", choices=LANGUAGES, default=list(LANGUAGES), help="languages (all)")
    parser.add_argument("--runs", type=int, default=1, help="runs a page; each figure is their median")
    parser.add_argument("--reports", type=Path, help="a folder to keep each run's whole Lighthouse report in")
    args = parser.parse_args()
    if args.reports:
        args.reports.mkdir(parents=True, exist_ok=True)
    port = free_port()
    with tempfile.TemporaryDirectory() as runtime:
        server = Nginx(args.site.resolve(), port, Path(runtime)).start()
        try:
            pages = {
                lang: {
                    kind: median_of_runs(
                        f"{server.url}/{site_folder(lang)}{PAGES[kind]}", args.runs, args.reports, f"{lang}-{kind}"
                    )
                    for kind in args.pages
                }
                for lang in args.langs
            }
        finally:
            server.stop()
    result = {
        "lighthouse": VERSION,
        "date": datetime.date.today().isoformat(),
        "machine": this_machine(),
        "pages": pages,
    }
    # kept beside the browser's other figures (bench_browser.py writes the file first), under "lighthouse"
    figures = json.loads(args.out.read_text("utf-8")) if args.out.exists() else {}
    figures["lighthouse"] = result
    args.out.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for lang, kinds in pages.items():
        for kind, figures in kinds.items():
            print(lang, kind, figures)


if __name__ == "__main__":
    main()
