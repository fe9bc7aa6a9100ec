"""The calculators' engine in the built site: Pyodide, the ``calculators`` package and the worker.

They are written once, at the site's root (``assets/engine/``), and every language's calculator
pages load them from there; rule pages never do. Pyodide comes from the pinned npm package in
``node_modules`` (no CDN); the package is zipped from the same source the Python package installs.

The engine's large files are also written compressed beside themselves (``.br``, brotli at its best
quality, and ``.gz``), for nginx to send as they are (``deploy/kensei-ref.conf``: ``brotli_static``,
``gzip_static``): brotli sends Pyodide's WebAssembly in 2.7 MB and the snapshot in 2.8 MB, where
nginx's own gzip sent 3.5 and 4 MB. Its best quality takes about a minute on two cores, so each file's
compressed forms are kept in :data:`CACHE` under its content's hash, as the snapshot is under the
engine's version: a build remakes only what changed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

from mkdocs.exceptions import PluginError

from kensei_ref.site import CALC_WORKER, SNAPSHOT_PAGES

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


STDLIB_LATER = "stdlib-later.zip"
"""An empty zip: the standard library a restored engine starts with, until it puts Pyodide's in its
place after its first answer (calc-worker.js)."""
CACHE = Path("node_modules") / ".cache" / "kensei-ref"
"""Under the project: what the builds keep for the next (snapshots, compressed files); ``make clean`` drops it."""
COMPRESS_SCRIPT = Path(__file__).with_name("compress.mjs")
COMPRESSED_SUFFIXES = (".wasm", ".mjs", ".js", ".json", ".bin")
"""The engine's files sent compressed (zips are compressed already)."""
COMPRESS_MIN_BYTES = 1024
SNAPSHOT_SCRIPT = Path(__file__).with_name("engine_snapshot.mjs")
"""Makes the engine's memory snapshot with Node.js (see that script)."""
SNAPSHOT_SECONDS = 300
"""The longest a snapshot may take to make (about 4 s on two cores)."""


def install(project: Path, site_dir: Path, *, snapshot: bool = True) -> Path:
    """Write the engine into ``site_dir/assets/engine`` and return that folder; with ``snapshot``, also
    the memory snapshot a first visit restores (:func:`write_snapshot`).

    Raises:
        PluginError: when the npm packages are not installed (``make`` installs them), or the snapshot
            cannot be made.
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
    with zipfile.ZipFile(target / STDLIB_LATER, "w"):
        pass
    shutil.copyfile(SNAPSHOT_PAGES, target / SNAPSHOT_PAGES.name)
    version = write_worker(target)
    if snapshot:
        write_snapshot(target, version, cache=project / CACHE)
    return target


def _run_node(script: Path, arguments: list[str], seconds: int, task: str) -> None:
    """Run one of the build's Node.js scripts (the engine's snapshot, its compression), in ``seconds`` at most.

    Raises:
        PluginError: naming ``task``, when Node.js is missing, too slow, or the script fails (its last line).
    """
    node = shutil.which("node")
    if node is None:
        raise PluginError(f"Node.js is needed to {task} (npm comes with it): install nodejs")
    try:
        subprocess.run([node, str(script), *arguments], check=True, capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        raise PluginError(f"could not {task} in {seconds} s") from None
    except subprocess.CalledProcessError as error:
        lines = (error.stderr or error.stdout or "").strip().splitlines()
        raise PluginError(f"could not {task}: {lines[-1] if lines else error}") from None


def snapshot_name(version: str) -> str:
    """The snapshot's file, the name calc-worker.js asks for (and keeps it under on the device)."""
    return f"snapshot-{version}.bin"


def write_snapshot(target: Path, version: str, cache: Path | None = None) -> Path:
    """Make the engine's memory snapshot from the engine in ``target`` (Node.js runs the same Pyodide and
    calculators as the browser) and write it there, named after the engine's version; with ``cache``,
    the one kept there for this version, if any, else the one made is kept there.

    Raises:
        PluginError: when Node.js is missing or the snapshot cannot be made.
    """
    output = target / snapshot_name(version)
    kept = cache / "snapshots" / snapshot_name(version) if cache else None
    if kept is not None and kept.is_file():
        shutil.copyfile(kept, output)
        return output
    try:
        _run_node(SNAPSHOT_SCRIPT, [str(target), str(output)], SNAPSHOT_SECONDS, "make the engine's snapshot")
    except PluginError:
        output.unlink(missing_ok=True)
        raise
    if kept is not None:
        _keep(output, kept)
    return output


def _keep(source: Path, kept: Path) -> None:
    """Copy ``source`` into the cache as ``kept``, whole or not at all (builds may run side by side)."""
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_name(f"{kept.name}.{os.getpid()}.part")
    shutil.copyfile(source, partial)
    partial.replace(kept)


COMPRESS_SECONDS = 600
"""The longest compressing the engine may take (about a minute on two cores, when nothing is cached)."""


def precompress(target: Path, cache: Path) -> list[Path]:
    """Write each large file of the engine's folder ``target`` compressed beside itself, as ``.br`` and
    ``.gz``, from ``cache`` (by the file's hash) or made with Node.js (its zlib) and kept there; return
    the files written.

    Raises:
        PluginError: when Node.js is missing or a file cannot be compressed.
    """
    sources = sorted(
        path
        for path in target.rglob("*")
        if path.is_file() and path.suffix in COMPRESSED_SUFFIXES and path.stat().st_size >= COMPRESS_MIN_BYTES
    )
    folder = cache / "compressed"
    folder.mkdir(parents=True, exist_ok=True)
    wanted: list[tuple[Path, Path, Path]] = []
    for source in sources:
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        kept = (folder / f"{digest}.br", folder / f"{digest}.gz")
        if not all(path.is_file() for path in kept):
            wanted.append((source, *kept))
    if wanted:
        arguments = [str(path) for triple in wanted for path in triple]
        _run_node(COMPRESS_SCRIPT, arguments, COMPRESS_SECONDS, "compress the engine's files")
    written = []
    for source in sources:
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        for encoding in ("br", "gz"):
            output = source.with_name(f"{source.name}.{encoding}")
            shutil.copyfile(folder / f"{digest}.{encoding}", output)
            written.append(output)
    return written


VERSION_LINE = 'const ENGINE_VERSION = "source";'
"""The worker's line that names its build's engine files (``source`` in the project: no snapshot)."""


def engine_version(target: Path) -> str:
    """A digest of the engine's files, of the worker's source and of what makes and reads snapshots: a
    snapshot is named after its version, so one is never restored into another Pyodide, another
    version of the calculators or a worker that stores snapshots in another form."""
    digest = hashlib.sha256()
    engine_files = [*(target / "pyodide" / name for name in PYODIDE_FILES), target / "calculators.zip"]
    for path in [*engine_files, CALC_WORKER, SNAPSHOT_PAGES, SNAPSHOT_SCRIPT]:
        digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def write_worker(target: Path) -> str:
    """Write the worker, with the engine's version in place of the project's placeholder; return that version."""
    source = CALC_WORKER.read_text(encoding="utf-8")
    if source.count(VERSION_LINE) != 1:
        raise PluginError(f"{CALC_WORKER}: the line {VERSION_LINE!r} must appear once")
    version = engine_version(target)
    line = f'const ENGINE_VERSION = "{version}";'
    (target / "calc-worker.js").write_text(source.replace(VERSION_LINE, line), encoding="utf-8")
    return version
