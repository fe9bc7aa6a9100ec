"""Shared fixtures: the project root, the real rule data, and one built site for all site tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DATA = ROOT / "tests" / "fixtures" / "sample_data"


@pytest.fixture(scope="session")
def book():
    from kensei_ref.loader import load

    return load()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> tuple[Path, str]:
    """The real site, built once with ``mkdocs build --strict``: (site directory, build output)."""
    site = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, env=env, check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    return site, output
