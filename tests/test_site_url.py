"""A build with a public address (``site_url``): each language's canonical links, sitemap and 404
page name that language's own pages, and the digest keeps the address of the whole site for its QR
codes. (Without ``site_url``, the default, none of these are written with an address.)"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from kensei_ref.languages import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = "https://example.org/rules/"


@pytest.fixture(scope="module")
def published(builds_site, tmp_path_factory) -> Path:
    """A build of its own: the shared ``built_site`` has no ``site_url`` (the default), and this build's
    pages are written with one."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    site = tmp_path_factory.mktemp("published")
    config = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(site), strict=True, site_url=PUBLIC)
    options = config.plugins["kensei-ref"].config
    options.offline_copy = options.engine_snapshot = False  # nothing here reads the offline copy or the engine
    build(config)
    return site


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_names_its_own_pages(published, lang):
    prefix = "" if lang == "en" else f"{lang}/"
    page = (published / prefix / "kensei" / "terrain" / "index.html").read_text("utf-8")
    assert f'<link rel="canonical" href="{PUBLIC}{prefix}kensei/terrain/">' in page
    locations = re.findall(r"<loc>([^<]+)</loc>", (published / prefix / "sitemap.xml").read_text("utf-8"))
    assert locations and all(loc.startswith(PUBLIC + prefix) for loc in locations)
    missing = (published / prefix / "404.html").read_text("utf-8")
    addresses = re.findall(r'(?:href|src)="(/[^"]*)"', missing)
    assert addresses and all(a.startswith(f"/rules/{prefix}") for a in addresses), addresses[:5]


def test_the_digest_keeps_the_whole_sites_address(published):
    for lang in LANGUAGES:
        prefix = "" if lang == "en" else f"{lang}/"
        digest = (published / prefix / "digest" / "index.html").read_text("utf-8")
        assert f'data-site-url="{PUBLIC}"' in digest
