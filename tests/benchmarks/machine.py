"""The machine a benchmark runs on, as the benchmarks' JSON files store it: facts, not a sentence, so
that the benchmarks page writes them in each language (kensei_ref/site/benchmarks_page.py)."""

from __future__ import annotations

import os
import platform


def this_machine() -> dict[str, str | int]:
    """``{"arch": "x86_64", "cores": 2}``: the processor's architecture and the cores the system has."""
    return {"arch": platform.machine(), "cores": os.cpu_count() or 1}
