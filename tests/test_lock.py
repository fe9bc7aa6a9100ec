"""``requirements.lock`` against ``pyproject.toml``: every dependency the project names (its own, the
``test`` extra's and the build backend) is pinned in the lock at the same version, and every package of
the lock carries the SHA-256 of its files, so that ``pip install --require-hashes`` (``make`` does)
installs exactly those bytes. Read from the files alone: no network."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)$")
HASH = re.compile(r"^--hash=sha256:[0-9a-f]{64}$")


def normalized(name: str) -> str:
    """A package's name as pip compares names (PEP 503): case and runs of ``-_.`` do not matter."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_entries(text: str) -> dict[str, tuple[str, list[str]]]:
    """name -> (version, hashes) for every requirement of a lock file (a requirement continues over
    lines ending with a backslash; comments and blank lines are skipped)."""
    entries: dict[str, tuple[str, list[str]]] = {}
    logical, current = [], ""
    for line in text.splitlines():
        stripped = line.split(" #", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if not stripped and not current:
            continue
        current += " " + stripped.removesuffix("\\").strip()
        if not stripped.endswith("\\"):
            logical.append(current.strip())
            current = ""
    if current.strip():
        logical.append(current.strip())
    for requirement in logical:
        first, *options = requirement.split()
        match = PIN.match(first)
        assert match, f"requirements.lock: not an exact pin: {requirement[:80]}"
        name = normalized(match["name"])
        assert name not in entries, f"requirements.lock: {name} pinned twice"
        entries[name] = (match["version"], options)
    return entries


def pyproject_pins() -> dict[str, str]:
    """name -> version of every requirement pyproject.toml names, each of which must be an exact pin."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    requirements = [
        *project["project"]["dependencies"],
        *project["project"]["optional-dependencies"]["test"],
        *project["build-system"]["requires"],
    ]
    pins = {}
    for requirement in requirements:
        match = PIN.match(requirement.replace(" ", ""))
        assert match, f"pyproject.toml: not an exact pin: {requirement}"
        pins[normalized(match["name"])] = match["version"]
    return pins


def test_every_dependency_of_pyproject_is_pinned_in_the_lock_at_its_version():
    locked = lock_entries(LOCK.read_text("utf-8"))
    for name, version in pyproject_pins().items():
        assert name in locked, f"{name} is in pyproject.toml but not in requirements.lock"
        assert locked[name][0] == version, f"{name}: pyproject.toml pins {version}, requirements.lock {locked[name][0]}"


def test_every_package_of_the_lock_has_hashes_and_nothing_else():
    locked = lock_entries(LOCK.read_text("utf-8"))
    assert len(locked) > 20
    for name, (_version, options) in locked.items():
        assert options, f"requirements.lock: {name} has no --hash"
        for option in options:
            assert HASH.match(option), f"requirements.lock: {name}: {option[:80]} is not a --hash=sha256:..."
        assert len(set(options)) == len(options), f"requirements.lock: {name} lists a hash twice"


def test_the_installer_is_pinned_in_the_lock():
    """make installs pip itself from the lock first (by hash), then everything else."""
    assert "pip" in lock_entries(LOCK.read_text("utf-8"))
    makefile = (ROOT / "Makefile").read_text("utf-8")
    assert "--require-hashes -r requirements.lock" in makefile
    assert "-c requirements.lock" not in makefile


def test_the_reader_finds_what_the_lock_lacks():
    """The checks above fail on a lock that misses a hash, a package or a version."""
    text = "# a comment\nfoo==1.0 \\\n    --hash=sha256:" + "a" * 64 + "\nBar_baz==2.0\n"
    entries = lock_entries(text)
    assert entries == {"foo": ("1.0", ["--hash=sha256:" + "a" * 64]), "bar-baz": ("2.0", [])}
    assert normalized("PyYAML") == normalized("pyyaml") and normalized("types_Markdown") == "types-markdown"
