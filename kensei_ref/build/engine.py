"""The calculators' engine in the built site: Pyodide, the ``calculators`` package and the worker.

They are written once, at the site's root (``assets/engine/``), and every language's calculator
pages load them from there; rule pages never do. Pyodide comes from the pinned npm package in
``node_modules`` (no CDN); the package is zipped from the same source the Python package installs.
"""

from __future__ import annotations

import hashlib
import shutil
import zipfile
from pathlib import Path

from mkdocs.exceptions import PluginError

from kensei_ref.site import CALC_WORKER

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""What Pyodide needs to start with the standard library only (the calculators need nothing more)."""


def calculators_zip(source: Path, target: Path) -> None:
    """Zip the ``calculators`` package (its modules and rule values), with fixed dates for stable bytes."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(source.rglob("*")):
            if path.suffix not in (".py", ".json") or "__pycache__" in path.parts:
                continue
            name = f"calculators/{path.relative_to(source).as_posix()}"
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())


def install(project: Path, site_dir: Path) -> Path:
    """Write the engine into ``site_dir/assets/engine`` and return that folder.

    Raises:
        PluginError: when the npm packages are not installed (``make`` installs them).
    """
    pyodide = project / "node_modules" / "pyodide"
    missing = [name for name in PYODIDE_FILES if not (pyodide / name).is_file()]
    if missing:
        raise PluginError(f"Pyodide is not installed ({', '.join(missing)} missing in {pyodide}): run `npm ci`")
    target = site_dir / "assets" / "engine"
    (target / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(pyodide / name, target / "pyodide" / name)
    calculators_zip(project / "calculators", target / "calculators.zip")
    write_worker(target)
    return target


VERSION_LINE = 'const ENGINE_VERSION = "source";'
"""The worker's line that names its build's engine files (``source`` in the project: no snapshot)."""


def engine_version(target: Path) -> str:
    """A digest of the engine's files and of the worker's source: the worker keeps a memory snapshot
    per version, so a snapshot is never restored into another Pyodide, another version of the
    calculators or a worker that stores snapshots in another form."""
    digest = hashlib.sha256()
    for path in [*(target / "pyodide" / name for name in PYODIDE_FILES), target / "calculators.zip", CALC_WORKER]:
        digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def write_worker(target: Path) -> None:
    """The worker, with the engine's version in place of the project's placeholder."""
    source = CALC_WORKER.read_text(encoding="utf-8")
    if source.count(VERSION_LINE) != 1:
        raise PluginError(f"{CALC_WORKER}: the line {VERSION_LINE!r} must appear once")
    version = f'const ENGINE_VERSION = "{engine_version(target)}";'
    (target / "calc-worker.js").write_text(source.replace(VERSION_LINE, version), encoding="utf-8")
