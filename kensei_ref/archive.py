"""The downloadable offline copy: the whole site built again to be read from ``file://``, as a zip.

It is built with ``KENSEI_REF_ARCHIVE=true``, which turns on Material's offline plugin (plain
``page.html`` links instead of directory URLs, the search index as a script) and makes the hooks
copy the ``iframe-worker`` shim from ``node_modules`` (Material would otherwise load it from a CDN).
The calculators' engine is left out: browsers do not start Web Workers from ``file://``, so the
calculator pages there show their default results and say why.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from contextlib import contextmanager
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from .offline import kept

ENV = "KENSEI_REF_ARCHIVE"
FOLDER = "kensei-ref"
"""The archive's one top folder: unpacking it never scatters files."""

SHIM = "assets/javascripts/iframe-worker.js"
"""Where each language of the archive keeps the shim that runs the search worker from ``file://``."""



def building() -> bool:
    """Whether the current build is the offline copy."""
    return os.environ.get(ENV, "").lower() == "true"


@contextmanager
def _archive_mode():
    before = os.environ.get(ENV)
    os.environ[ENV] = "true"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before


def copy_shim(project: Path, site_dir: Path) -> None:
    """Put the pinned iframe-worker shim where ``extra.polyfills`` points.

    Raises:
        PluginError: when the npm packages are not installed (``make`` installs them).
    """
    source = project / "node_modules" / "iframe-worker" / "shim" / "index.js"
    if not source.is_file():
        raise PluginError(f"iframe-worker is not installed ({source} is missing): run `npm ci`")
    target = site_dir / SHIM
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _zip(folder: Path, target: Path) -> None:
    """Zip ``folder`` under :data:`FOLDER`, with fixed dates so the same site gives the same bytes."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            if not kept(path.relative_to(folder).as_posix()):
                continue
            info = zipfile.ZipInfo(f"{FOLDER}/{path.relative_to(folder).as_posix()}", date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), compresslevel=9)


def build_archive(config_file: str, target: Path, *, strict: bool, site_url: str | None = None) -> int:
    """Build the offline copy of every language and zip it to ``target``; return its size in bytes.

    ``site_url``, the public address if there is one, lets the digest of the copy draw QR codes that
    lead to the published calculators.
    """
    with tempfile.TemporaryDirectory(prefix="kensei-ref-archive-") as temporary, _archive_mode():
        site = Path(temporary) / FOLDER
        build(load_config(config_file, site_dir=str(site), strict=strict, site_url=site_url))
        _zip(site, target)
    return target.stat().st_size
