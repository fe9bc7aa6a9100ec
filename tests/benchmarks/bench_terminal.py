"""Benchmark of the terminal: the wall time of ``kensei-ref rule``, ``search``, ``glossary`` and ``calc``.

Run from the project root::

    python tests/benchmarks/bench_terminal.py [--out docs/benchmarks.json] [--repeats 9]

Each command runs as a player runs it, a new process of the installed ``kensei-ref`` script, timed
from its start to its exit (what ``/usr/bin/time -f %e`` shows). The compiled rule book lives in a
new, empty cache directory (``XDG_CACHE_HOME``), so the first run of each command fills it: that
cold run is reported on its own, and the figure of a command is the median of the ``--repeats`` runs
after it. Each command is measured twice: with the modules' bytecode cached, as ``pip install`` leaves
a package (the figures of the site's page), and with every module compiled from its source on every run
(``PYTHONDONTWRITEBYTECODE=1``, as this checkout runs under the project's environment). The processor
time (user and system) is reported beside the wall time: it is what other programs running on the
machine change least. Where the machine allows it (Linux, as root), the commands run at real-time
priority (``chrt --fifo``), ahead of the other programs that share its processors, so that their
figures are those of a quiet machine; ``--shared`` runs them as any other program.

With ``--out``, the figures go into that JSON file under ``terminal`` (the file ``make bench`` has
just written with the calculators' figures), for the site's benchmarks page.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = {
    "rule": ["rule", "8.3.2"],
    "search": ["search", "charge"],
    "glossary": ["glossary", "honor"],
    "calc": ["calc", "shooting", "--wounds", "1,1,1", "--attack", "3", "--defense", "4", "--armor", "3"],
}
"""Each command as a player types it at the table."""


def script() -> str:
    """The ``kensei-ref`` script next to this Python (the project's virtual environment)."""
    found = Path(sys.executable).with_name("kensei-ref")
    if not found.exists():
        raise SystemExit(f"no {found}: run `make deps` first")
    return str(found)


def timed(argv: list[str], environ: dict[str, str]) -> tuple[float, float]:
    """Seconds from the start of ``argv``'s process to its exit, and the processor time it used (user and
    system: what other programs running at the same time change least); the command must succeed."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(argv)} failed")
    return wall, usage.ru_utime + usage.ru_stime


REALTIME = ["chrt", "--fifo", "50"]
"""Runs a command at real-time priority, ahead of every other program of the machine (Linux, as root)."""


def realtime_works() -> bool:
    """Whether this machine lets the benchmark run its commands at real-time priority."""
    try:
        return subprocess.run([*REALTIME, "true"], capture_output=True).returncode == 0
    except OSError:
        return False


def measure(repeats: int, bytecode: bool, prefix: list[str]) -> dict:
    """The figures of every command, with the project's bytecode cached (as pip installs a package) or
    compiled from its sources on every run (``PYTHONDONTWRITEBYTECODE``, as this checkout runs); each
    process started through ``prefix`` (:data:`REALTIME` or nothing)."""
    command = [*prefix, script()]
    rows = []
    with tempfile.TemporaryDirectory(prefix="kensei-ref-bench-") as scratch:
        environ = {**os.environ, "XDG_CACHE_HOME": f"{scratch}/cache", "LANG": "C.UTF-8"}
        for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX"):
            environ.pop(key, None)
        if bytecode:
            environ["PYTHONPYCACHEPREFIX"] = f"{scratch}/bytecode"  # not beside the sources of the checkout
        else:
            environ["PYTHONDONTWRITEBYTECODE"] = "1"
        timed([*command, "--help"], environ)  # the interpreter's own files read once from the disk
        for name, argv in COMMANDS.items():
            cold, _ = timed([*command, *argv], environ)
            runs = [timed([*command, *argv], environ) for _ in range(repeats)]
            walls = [wall for wall, _ in runs]
            rows.append({
                "command": name,
                "argv": ["kensei-ref", *argv],
                "cold_cache_s": cold,
                "median_s": statistics.median(walls),
                "min_s": min(walls),
                "max_s": max(walls),
                "cpu_median_s": statistics.median(cpu for _, cpu in runs),
            })  # fmt: skip
        bare = [timed([*prefix, sys.executable, "-c", "pass"], environ) for _ in range(repeats)]
    return {
        "bytecode": bytecode,
        "bare_python_s": statistics.median(wall for wall, _ in bare),
        "bare_python_cpu_s": statistics.median(cpu for _, cpu in bare),
        "rows": rows,
    }


def show(figures: dict) -> None:
    how = "bytecode cached, as installed" if figures["bytecode"] else "compiled from the sources on every run"
    print(f"\n{how}: a bare Python starts in {figures['bare_python_s'] * 1000:.0f} ms "
          f"({figures['bare_python_cpu_s'] * 1000:.0f} ms of processor)\n")  # fmt: skip
    print("| command | median (ms) | min (ms) | max (ms) | processor, median (ms) | first, empty cache (ms) |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in figures["rows"]:
        print(
            f"| {' '.join(row['argv'])} | {row['median_s'] * 1000:.0f} | {row['min_s'] * 1000:.0f} "
            f"| {row['max_s'] * 1000:.0f} | {row['cpu_median_s'] * 1000:.0f} | {row['cold_cache_s'] * 1000:.0f} |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="add the figures to this JSON file, under `terminal`")
    parser.add_argument("--repeats", type=int, default=9, help="timed runs per command after the first (median)")
    parser.add_argument(
        "--shared",
        action="store_true",
        help="run the commands at normal priority, sharing the processors with whatever else runs "
        "(by default they run at real-time priority where the machine allows it)",
    )
    args = parser.parse_args(argv)
    realtime = not args.shared and realtime_works()
    prefix = REALTIME if realtime else []
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    installed = measure(args.repeats, bytecode=True, prefix=prefix)
    checkout = measure(args.repeats, bytecode=False, prefix=prefix)
    print(f"Medians of {args.repeats} runs after a first one with an empty cache; load average {load}; "
          f"{'real-time' if realtime else 'normal'} priority.")  # fmt: skip
    show(installed)
    show(checkout)
    figures = {
        "measured": time.strftime("%Y-%m-%d %H:%M"),
        "repeats": args.repeats,
        "load_average": load,
        "realtime": realtime,
        **installed,
        "without_bytecode": checkout,
    }
    if args.out:
        document = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
        document["terminal"] = figures
        args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
