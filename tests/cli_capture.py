"""Running a command's ``main(argv)`` in a test: its exit status and what it printed."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def run_cli(main: Callable[[Sequence[str]], int], capsys, *argv: str) -> tuple[int, str, str]:
    """``(exit status, stdout, stderr)`` of ``main(argv)``, whether it returns or exits (argparse errors raise
    SystemExit)."""
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err
