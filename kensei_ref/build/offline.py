"""The installable site: the web app manifest of each language and the service worker of the whole site.

After every language is built, two files are written at the site's root: :data:`LIST`
(``offline.json``), the list of files the service worker may keep, each with its size and a SHA-256
prefix, in groups a reader saves together (a language's pages, search index and assets; the
calculators' engine); and the service worker :data:`WORKER` (``sw.js``, from ``site/offline/sw.js``),
which reads that list when it installs. The build's version is a hash of the files listed. The
worker's first line names the version and the list's own hash, so that any change of any file (or of
the list) changes the worker's bytes: the browser then installs the new worker, into a new cache,
and it replaces the old one as a whole.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from kensei_ref.build.csp import SERVER_FILE
from kensei_ref.build.icons import SIZES
from kensei_ref.build.sitemap import ROBOTS
from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGES, N_, up_to_site_root
from kensei_ref.site import ENGINE_FOLDER, SERVICE_WORKER
from kensei_ref.site.offline_page import BACKGROUND_COLOUR, THEME_COLOUR

SOURCE = SERVICE_WORKER
WORKER = "sw.js"
LIST = "offline.json"
"""The service worker's file list; sw.js names it too (``const LIST``)."""
MANIFEST = "manifest.webmanifest"
ICONS = "assets/icons"
ENGINE = ENGINE_FOLDER
DOWNLOADS = "downloads/"
HASH_DIGITS = 16

LUNR_KEPT = {"lunr.stemmer.support.min.js", "lunr.multi.min.js", *(f"lunr.{lang}.min.js" for lang in LANGUAGES[1:])}
"""Material ships lunr for every language it knows; the search worker loads only these (English is built in)."""

APP_NAME = N_("Kensei & Ronin rules")
APP_SHORT_NAME = N_("Kensei")
APP_DESCRIPTION = N_("The rules of Kensei and Ronin, searchable, with exact odds calculators, also offline.")
FALLBACK = {
    "title": N_("Not saved for offline use"),
    "text": N_(
        "This page was not saved on this device, and there is no network. The pages saved for "
        "offline use open as usual; the Offline page shows what is saved."
    ),
    "home": N_("Go to the home page"),
    "refused_title": N_("This page was not shown"),
    "refused_text": N_(
        "Its content is not that of the version of the site this tab runs: the site is being updated, "
        "or the page was changed on the server. Reload it in a moment."
    ),
    "reload": N_("Reload this page"),
}


def kept(path: str) -> bool:
    """Whether a built file is part of the site a reader keeps: not source maps, sitemaps and
    ``robots.txt``, the service worker itself and its list, the server's policy file, the
    downloadable copy, nor lunr's languages the search never loads, nor the engine's memory snapshot
    (the engine stores it itself where it reads it), nor the engine's files compressed for the server."""
    name = path.rsplit("/", 1)[-1]
    if (
        path in (WORKER, LIST, SERVER_FILE, ROBOTS)
        or name.endswith(".map")
        or name.startswith("sitemap")
        or path.startswith(DOWNLOADS)
    ):
        return False
    if path.startswith(ENGINE) and name.startswith("snapshot-") and name.endswith(".bin"):
        return False  # the engine keeps it itself, once downloaded (calc-worker.js)
    if path.startswith(ENGINE) and name.endswith((".br", ".gz")):
        return False  # the same files compressed, for the server to send (engine.precompress)
    if "/javascripts/lunr/" in f"/{path}":
        return name in LUNR_KEPT
    return True


def _group(path: str) -> str:
    if path.startswith(ENGINE):
        return "engine"
    first = path.split("/", 1)[0]
    return first if first in LANGUAGES[1:] and "/" in path else LANGUAGES[0]


def _url(path: str) -> str:
    """The address a reader's browser asks for: directory pages end with ``/``."""
    if path == "index.html":
        return ""
    return path[: -len("index.html")] if path.endswith("/index.html") else path


def files(site_dir: Path) -> dict[str, list[list]]:
    """group -> [[url, bytes, sha256 prefix], ...] for every file the offline cache keeps."""
    groups: dict[str, list[list]] = {}
    for file in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        path = file.relative_to(site_dir).as_posix()
        if kept(path):
            data = file.read_bytes()
            digest = hashlib.sha256(data).hexdigest()[:HASH_DIGITS]
            groups.setdefault(_group(path), []).append([_url(path), len(data), digest])
    return groups


def version(groups: dict[str, list[list]]) -> str:
    """The build's version: a hash of every kept file's address and hash."""
    listing = json.dumps(groups, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(listing).hexdigest()[:12]


def fallback_strings() -> dict[str, dict[str, str]]:
    return {lang: {key: language_context(lang).gettext(text) for key, text in FALLBACK.items()} for lang in LANGUAGES}


def write_service_worker(site_dir: Path, *, verify: bool = True, archive: dict | None = None) -> dict:
    """Write :data:`LIST` and ``sw.js`` at the site's root; return the list (version, groups, archive...).

    ``verify`` is off only under ``mkdocs serve``, which changes every page it serves (live reload).
    """
    groups = files(site_dir)
    build = {
        "version": version(groups),
        "verify": verify,
        "groups": groups,
        "archive": archive,
        "strings": fallback_strings(),
        "colour": THEME_COLOUR,
    }
    listing = json.dumps(build, ensure_ascii=False).encode()
    (site_dir / LIST).write_bytes(listing)
    list_hash = hashlib.sha256(listing).hexdigest()[:HASH_DIGITS]
    head = f'"use strict"; const VERSION = "{build["version"]}", LIST_SHA256 = "{list_hash}";  // the build\'s\n'
    (site_dir / WORKER).write_text(head + SOURCE.read_text("utf-8"), encoding="utf-8")
    return build


def read_service_worker(site_dir: Path) -> dict:
    """The list :func:`write_service_worker` wrote for the built site (for checks and figures)."""
    return json.loads((site_dir / LIST).read_text("utf-8"))


def web_manifest(lang: str) -> dict:
    """The web app manifest of one language: the app starts on that language's home page.

    Addresses are relative to the manifest, so the site works under any path; every language's app
    is in the scope of the one service worker at the site's root.
    """
    _ = language_context(lang).gettext
    root = up_to_site_root(lang) or "./"
    return {
        "id": "./",
        "name": _(APP_NAME),
        "short_name": _(APP_SHORT_NAME),
        "description": _(APP_DESCRIPTION),
        "lang": lang,
        "dir": "ltr",
        "start_url": "./",
        "scope": root,
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": f"{ICONS}/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for size in SIZES
            for purpose in ("any", "maskable")
        ],
    }


def write_web_manifest(site_dir: Path, lang: str) -> None:
    (site_dir / MANIFEST).write_text(json.dumps(web_manifest(lang), ensure_ascii=False, indent=1), encoding="utf-8")
