"""The downloadable offline copy: the whole site built again to be read from ``file://``, as a zip.

The plugin builds it with Material's offline plugin turned on (plain ``page.html`` links instead of
directory URLs, the search index as a script) and copies the ``iframe-worker`` shim from
``node_modules`` (Material would otherwise load it from a CDN).
The calculators' engine is left out: browsers do not start Web Workers from ``file://``, so the
calculator pages there show their default results and say why.
"""

from __future__ import annotations

import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from kensei_ref.build.offline import kept

FOLDER = "kensei-ref"
"""The archive's one top folder: unpacking it never scatters files."""


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


def build_archive(build_site: Callable[[Path], None], target: Path) -> int:
    """Build the offline copy of every language with ``build_site(folder)`` and zip it to ``target``;
    return its size in bytes."""
    with tempfile.TemporaryDirectory(prefix="kensei-ref-archive-") as temporary:
        site = Path(temporary) / FOLDER
        build_site(site)
        _zip(site, target)
    return target.stat().st_size
