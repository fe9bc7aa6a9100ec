"""A Content-Security-Policy on every page, as a ``<meta>`` element the build writes.

The site's own scripts are files; Material writes three small inline scripts into every page (the
site's scope, the colour palette, the anchor toggle), so the policy names each of them by its
SHA-256 and no other inline script runs: markup that reached a page (rule data refuses it, see
``kensei_ref.rules.loader``) could not run a script. The engine needs WebAssembly
(``'wasm-unsafe-eval'``). Styles come from the site's files only: no page holds a ``<style>`` element
or a ``style`` attribute (tables align with ``align``, the result bars are SVG rectangles), and the
scripts that place things (tooltips, Material's header and sidebars) set properties through the CSSOM,
which ``style-src`` does not govern. No ``blob:`` worker or frame: the engine, the search and the
site's scripts are files (the offline copy's iframe-worker shim, which would need them, runs without a
policy).

Trusted Types are required for script sinks (``require-trusted-types-for 'script'``), with two
policies, made by ``assets/js/trusted-types.js`` before Material's bundle: the site's own
(``kensei-ref``: the result template, the engine's worker) and a ``default`` one for Material's
bundle, which writes HTML strings (pages opened in place, search results, tooltips) and copies inline
scripts: its HTML and script text pass unchanged, since a policy cannot tell them from other strings,
and script addresses must be the site's. So Trusted Types add here that no script or worker is
loaded from a string naming another site (in the pages and, with the server's header, in the search
worker); whether script runs is still decided by ``script-src`` alone. Every page of the
site carries the same policy, with every inline script's hash of every language (:func:`unify`), the
header's: Material's instant navigation keeps the first page's ``<head>`` and adds what differs.

A ``<meta>`` policy cannot set ``frame-ancestors``; a server adds that as a header: the build writes
the header's policy (every language's inline scripts, and no framing by other sites) for nginx into
:data:`SERVER_FILE`, which ``deploy/nginx.conf`` includes. The offline copy
(read from files) has none: there Material's search runs through the iframe-worker shim, which
writes an inline script of its own into an iframe, and no server or network is involved.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

INLINE_SCRIPT = re.compile(r"<script(?P<attributes>[^>]*)>(?P<body>.*?)</script>", re.DOTALL | re.IGNORECASE)
DATA_TYPES = ("application/json", "application/ld+json", "text/template")
"""Script elements that hold data and never run: no hash needed."""

DIRECTIVES = (
    ("default-src", "'self'"),
    ("script-src", "'self' 'wasm-unsafe-eval'"),
    ("style-src", "'self'"),
    ("img-src", "'self' data: blob:"),
    ("font-src", "'self'"),
    ("connect-src", "'self'"),
    ("worker-src", "'self'"),
    ("frame-src", "'self'"),
    ("manifest-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'self'"),
    ("form-action", "'self'"),
    ("require-trusted-types-for", "'script'"),
    ("trusted-types", "kensei-ref default"),
)
HEADER_ONLY = (("frame-ancestors", "'none'"),)
"""Directives a ``<meta>`` policy cannot carry: the server's header adds them."""
SERVER_FILE = "content-security-policy.conf"
"""Where the build writes the header for nginx, at the site's root (the server does not serve it)."""
CHARSET = re.compile(r"<meta\s+charset[^>]*>", re.IGNORECASE)
HEAD = re.compile(r"<head[^>]*>", re.IGNORECASE)
META = '<meta http-equiv="Content-Security-Policy" content="{policy}">'


def _runs(attributes: str) -> bool:
    """Whether a <script> with these attributes is inline code (not a file, not data)."""
    if re.search(r"\ssrc\s*=", attributes, re.IGNORECASE):
        return False
    kind = re.search(r"\stype\s*=\s*[\"']?([^\"'\s>]+)", attributes, re.IGNORECASE)
    return kind is None or kind.group(1).lower() not in DATA_TYPES


def inline_hashes(html: str) -> set[str]:
    """The CSP source of every inline script of a page: ``'sha256-...'``."""
    return {
        "'sha256-" + base64.b64encode(hashlib.sha256(match["body"].encode("utf-8")).digest()).decode("ascii") + "'"
        for match in INLINE_SCRIPT.finditer(html)
        if _runs(match["attributes"])
    }


def policy(hashes: set[str]) -> str:
    """The policy's text with these inline scripts allowed."""
    parts = []
    for name, sources in DIRECTIVES:
        if name == "script-src" and hashes:
            sources = f"{sources} {' '.join(sorted(hashes))}"
        parts.append(f"{name} {sources}")
    return "; ".join(parts)


def apply(site_dir: Path, *, skip: tuple[Path, ...] = ()) -> int:
    """Write the policy first in the <head> of every page under ``site_dir`` (folders in ``skip``
    belong to other builds); returns the number of pages.

    Raises:
        ValueError: when a page has no <head> to carry it.
    """
    pages = [path for path in sorted(site_dir.rglob("*.html")) if not any(path.is_relative_to(other) for other in skip)]
    texts = {path: path.read_text(encoding="utf-8") for path in pages}
    hashes = set().union(*(inline_hashes(text) for text in texts.values())) if texts else set()
    meta = META.format(policy=policy(hashes))
    for path, text in texts.items():
        # after the character set's <meta>, which must stay within the page's first bytes
        place = CHARSET.search(text) or HEAD.search(text)
        if place is None:
            raise ValueError(f"{path}: no <head> for the Content-Security-Policy")
        path.write_text(text[: place.end()] + meta + text[place.end() :], encoding="utf-8")
    return len(pages)


POLICY_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">')


def unify(site_dir: Path) -> int:
    """Every page under ``site_dir`` (every language's) carries the same policy, naming the inline
    scripts of every language, as the server's header does (:func:`header_policy`): each language's
    build named only its own (a 404 page's scope script differs by language). Returns the pages."""
    pages = sorted(site_dir.rglob("*.html"))
    texts = {path: path.read_text(encoding="utf-8") for path in pages}
    hashes = set().union(*(inline_hashes(text) for text in texts.values())) if texts else set()
    meta = META.format(policy=policy(hashes))
    for path, text in texts.items():
        unified = POLICY_META.sub(lambda _: meta, text, count=1)
        if unified != text:
            path.write_text(unified, encoding="utf-8")
    return len(pages)


def header_policy(site_dir: Path) -> str:
    """The policy a server sends with every file of the site: each page's ``<meta>`` policy (the
    inline scripts of every language built under ``site_dir``), plus :data:`HEADER_ONLY`."""
    hashes = set().union(*(inline_hashes(path.read_text(encoding="utf-8")) for path in site_dir.rglob("*.html")))
    return "; ".join([policy(hashes), *(f"{name} {sources}" for name, sources in HEADER_ONLY)])


def write_server_file(site_dir: Path) -> Path:
    """Write :data:`SERVER_FILE`: nginx's ``add_header`` line with :func:`header_policy` (a policy's
    sources never hold a double quote, a backslash or a ``$``, which nginx would read)."""
    text = header_policy(site_dir)
    if any(character in text for character in '"\\$'):
        raise ValueError(f"a policy nginx cannot quote: {text}")
    target = site_dir / SERVER_FILE
    target.write_text(
        "# Written by the build (kensei_ref/build/csp.py): every page's Content-Security-Policy as a header.\n"
        f'add_header Content-Security-Policy "{text}" always;\n',
        encoding="utf-8",
    )
    return target
