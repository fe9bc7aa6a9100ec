"""The 404 page of each language, as built without a public address (the default): MkDocs writes its
links from the server's root, where English lies; French and Russian link from /fr/ and /ru/ to their
own pages, and every file they name was built. (With an address, see test_site_url.py; served by nginx,
test_publish_nginx.py.)"""

from __future__ import annotations

import re

import pytest

from kensei_ref.languages import LANGUAGES, site_folder


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_404_page_links_within_its_language(built_site, lang):
    site, _ = built_site
    page = (site / site_folder(lang) / "404.html").read_text("utf-8")
    assert f'<html lang="{lang}"' in page
    addresses = set(re.findall(r'(?:href|src)="(/[^"#]*)', page))
    assert len(addresses) > 10
    for address in addresses:
        folder = address.split("/")[1] + "/"
        if site_folder(lang):
            assert address.startswith("/" + site_folder(lang)), address
        else:
            assert folder not in [site_folder(other) for other in LANGUAGES], address
        path = address.removesuffix(".")  # the logo links to "/fr/.", the home page
        built = site / path.lstrip("/")
        assert (built / "index.html" if path.endswith("/") else built).is_file(), address
