"""Comparing a result shown by the site with CPython's: same structure, numbers within 1e-9."""

from __future__ import annotations

import math
from typing import Any


def assert_same_numbers(actual: Any, expected: Any, path: str = "result") -> None:
    """Equal structures; numbers (int or float alike) within 1e-9."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        assert sorted(actual) == sorted(expected), f"{path}: keys {sorted(actual)} != {sorted(expected)}"
        for key, value in expected.items():
            assert_same_numbers(actual[key], value, f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: expected a list, got {actual!r}"
        assert len(actual) == len(expected), f"{path}: {len(actual)} items, CPython has {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            assert_same_numbers(a, e, f"{path}[{i}]")
    elif isinstance(expected, int | float) and not isinstance(expected, bool):
        assert isinstance(actual, int | float) and not isinstance(actual, bool), f"{path}: {actual!r} is no number"
        close = math.isclose(actual, expected, rel_tol=0, abs_tol=1e-9)
        assert close, f"{path}: shown {actual!r} != CPython {expected!r}"
    else:
        assert actual == expected, f"{path}: shown {actual!r} != CPython {expected!r}"
