"""What a browser test reads of a page's failures: its uncaught errors and, where asked, the console's
error lines (a refused policy, a failed load)."""

from __future__ import annotations

from typing import Any


def recording_errors(page: Any, *, console: bool = False) -> Any:
    """``page``, keeping its uncaught errors in ``page.errors`` and, with ``console``, the console's error
    lines in ``page.console_errors``."""
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    if console:
        page.console_errors = []
        page.on(
            "console", lambda message: page.console_errors.append(message.text) if message.type == "error" else None
        )
    return page
