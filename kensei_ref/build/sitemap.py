"""The whole site's sitemaps for crawlers. Each language is a MkDocs build of its own, which writes its
own ``sitemap.xml`` (``/sitemap.xml`` for English, ``/fr/sitemap.xml``...) with its pages' public
addresses; Material's instant navigation reads the one of the page's language, and follows in place
the links it lists, so each stays with its own language's pages. For crawlers the build adds
:data:`INDEX`, a sitemap index naming every language's sitemap, and ``robots.txt``, which names that
index. Without a public address (``site_url``) none of this is written: a sitemap holds absolute
addresses only (MkDocs then lists no page).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from xml.sax.saxutils import escape

NAME = "sitemap.xml"
INDEX = "sitemap-index.xml"
ROBOTS = "robots.txt"


def write_index(site_dir: Path, site_url: str, folders: Iterable[str]) -> list[str]:
    """Write :data:`INDEX` and :data:`ROBOTS` at the root of ``site_dir`` for the sitemaps of the
    languages in ``folders`` (``""`` for the root, ``"fr/"``...) that were built; returns their addresses."""
    base = site_url if site_url.endswith("/") else site_url + "/"
    sitemaps = [f"{base}{folder}{NAME}" for folder in folders if (site_dir / folder / NAME).is_file()]
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        *(f"    <sitemap><loc>{escape(address)}</loc></sitemap>" for address in sitemaps),
        "</sitemapindex>",
    ]
    (site_dir / INDEX).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (site_dir / ROBOTS).write_text(f"User-agent: *\nAllow: /\n\nSitemap: {base}{INDEX}\n", encoding="utf-8")
    return sitemaps
