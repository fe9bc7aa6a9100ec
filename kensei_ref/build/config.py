"""The plugin's options in ``mkdocs.yml`` (``plugins: - kensei-ref: {...}``), typed and validated by MkDocs."""

from __future__ import annotations

from mkdocs.config import config_options as opt
from mkdocs.config.base import Config

from kensei_ref.languages import LANGUAGES


class KenseiRefConfig(Config):
    """Options of the ``kensei-ref`` plugin.

    Args:
        enabled: build the reference's pages at all (off, MkDocs builds ``docs/`` alone).
        languages: the languages to build, the source language first; each has its pages in
            ``docs/<code>/`` and is served under ``/<code>/`` (the first at the site's root).
        rule_data: the rule data folder; by default the data that ships with the package.
        offline_copy: build the downloadable offline copy (a second build of every language).
            ``mkdocs serve`` never builds it.
        engine_snapshot: make the calculators' engine's memory snapshot with Node.js, which a first
            visit restores instead of starting Pyodide from nothing (about 4 s on two cores at build
            time, 15 MB in the site). ``mkdocs serve`` never makes it.
        site_url: the whole site's public address, for canonical links, sitemaps and the digest's QR
            codes; by default MkDocs' own ``site_url``.
    """

    enabled = opt.Type(bool, default=True)
    languages = opt.ListOfItems(opt.Choice(LANGUAGES), default=list(LANGUAGES))
    rule_data = opt.Optional(opt.Dir(exists=True))
    offline_copy = opt.Type(bool, default=True)
    engine_snapshot = opt.Type(bool, default=True)
    site_url = opt.Optional(opt.URL(is_dir=True))
