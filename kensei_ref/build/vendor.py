"""Files of the pinned npm packages that the site serves itself, so that no request leaves it.

Each is copied from ``node_modules`` (``npm ci`` installs them; ``make`` runs it) into the built
site; a missing one stops the build with the command that installs it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError

from kensei_ref.site.digest import QRCODE_TARGET

QRCODE_SOURCE = Path("qrcode-generator") / "dist" / "qrcode.js"
"""The QR code generator of the printable digest."""

SHIM_SOURCE = Path("iframe-worker") / "shim" / "index.js"
"""The shim that runs the search worker from ``file://`` in the offline copy."""

SHIM = "assets/javascripts/iframe-worker.js"
"""Where each language of the offline copy keeps the shim (Material's ``extra.polyfills`` points there)."""


def copy(project: Path, source: Path, site_dir: Path, target: str | Path) -> Path:
    """Copy ``node_modules/<source>`` to ``site_dir/<target>`` and return the written file.

    Raises:
        PluginError: when the npm packages are not installed.
    """
    origin = project / "node_modules" / source
    if not origin.is_file():
        raise PluginError(f"{source.parts[0]} is not installed ({origin} is missing): run `npm ci`")
    written = site_dir / target
    written.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(origin, written)
    return written


def install_qrcode(project: Path, site_dir: Path) -> Path:
    """The digest's QR code generator, in every language's copy of the assets."""
    return copy(project, QRCODE_SOURCE, site_dir, QRCODE_TARGET)


def install_shim(project: Path, site_dir: Path) -> Path:
    """The iframe-worker shim of the offline copy."""
    return copy(project, SHIM_SOURCE, site_dir, SHIM)
