"""MkDocs hooks: the site is generated from the rule data during ``mkdocs build`` and ``mkdocs serve``.

One ``mkdocs.yml`` builds the English site from ``docs/en``; after it, the same configuration is
built again from ``docs/fr`` and ``docs/ru`` into ``fr/`` and ``ru/`` of the same site. The
language of a build is the name of its docs folder, so Material's interface, the search index
(one per language, with that language's stemmer) and the generated pages all follow it.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from urllib.parse import urljoin

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from calculators import CALCULATORS
from kensei_ref import archive, calc_pages, engine, freshness, offline, offline_page, pages, search_patch, site_nav
from kensei_ref.digest import digest_pages, install_assets
from kensei_ref.export import rules_document
from kensei_ref.i18n import LANGUAGES, site_folder, up_to_site_root
from kensei_ref.loader import DATA_DIR, DataError, load
from kensei_ref.model import RuleBook

log = logging.getLogger("mkdocs.plugins.kensei_ref")

LANGUAGE_NAMES = {"en": "English", "fr": "Français", "ru": "Русский"}
ROOT_LANGUAGE = LANGUAGES[0]
HERE = Path(__file__).resolve().parent


SERVING = "KENSEI_REF_SERVING"
"""Set under ``mkdocs serve``, whose live reload changes every page it serves (see ``offline``). An
environment variable, because ``serve`` loads this module again for every rebuild, without ``on_startup``."""


def on_startup(command: str, dirty: bool) -> None:
    if command == "serve":
        os.environ[SERVING] = "true"


def _lang(config: MkDocsConfig) -> str:
    lang = Path(config.docs_dir).name
    if lang not in LANGUAGES:
        raise PluginError(f"docs_dir: the last folder must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    return lang


def _data_dir() -> Path:
    """The rule data to build from: the project's, or another set named by ``KENSEI_REF_DATA``."""
    return Path(os.environ.get("KENSEI_REF_DATA", DATA_DIR))


def _book() -> RuleBook:
    try:
        return load(_data_dir())
    except DataError as error:
        raise PluginError(str(error)) from error


@event_priority(100)  # before Material's search plugin, which reads the theme's language
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    lang = _lang(config)
    book = _book()
    config.theme["language"] = lang
    search = config.plugins.get("material/search") or config.plugins.get("search")
    if search is not None:
        # The page's language first; the others so that a term's name in any language finds its rule
        # (English also keeps digits in tokens, so rule numbers such as 8.3.2 stay searchable).
        search.config.lang = [lang, *(other for other in LANGUAGES if other != lang)]
    config.extra["kr_lang"] = lang
    # A public address, when one is set, is the whole site's; French and Russian live below it, so their
    # canonical links, sitemaps and 404 pages name their own pages, not the English ones.
    config.extra["kr_site_url"] = config.site_url or ""
    if config.site_url and lang != ROOT_LANGUAGE:
        config.site_url = urljoin(config.site_url, f"{lang}/")
    if archive.building():
        # Material's offline plugin would add the iframe-worker shim from a CDN; this copy is served locally.
        config.extra["polyfills"] = [archive.SHIM]
    # Material's offline plugin turns directory URLs off for the offline copy, but only after this hook.
    directory_urls = config.use_directory_urls and not archive.building()
    offline_url = pages.PageContext(book, lang, "index.md", directory_urls).served(offline_page.OFFLINE_PAGE)
    config.extra["kr_offline"] = offline_page.ui(lang, offline_url)
    config.extra["kr_book"] = book
    # Examples a calculator checks show a mark; those with a calculator page link to it with their inputs.
    generated = pages.site_pages(book, lang, set(CALCULATORS), frozenset(calc_pages.DEFAULT_SCENARIOS),
                                 directory_urls=directory_urls)
    generated.update(calc_pages.calculator_pages(book, lang, ROOT_LANGUAGE, directory_urls=directory_urls))
    generated.update(digest_pages(book, lang, config.extra["kr_site_url"], directory_urls=directory_urls))
    generated[offline_page.OFFLINE_PAGE] = offline_page.offline_page(lang, with_archive=not archive.building())
    docs = Path(config.docs_dir).parent
    if (docs / "benchmarks.json").exists():
        browser = docs / "benchmarks-browser.json"
        generated[pages.BENCHMARKS_PAGE] = pages.benchmarks_page(
            json.loads((docs / "benchmarks.json").read_text("utf-8")), lang,
            json.loads(browser.read_text("utf-8")) if browser.exists() else None,
        )
    config.extra["kr_pages"] = generated
    config.nav = site_nav.nav(book, lang, generated)
    if lang == ROOT_LANGUAGE:
        for line in freshness.stale(book):
            log.info("translation may be out of date: %s", line)
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for path, markdown in config.extra["kr_pages"].items():
        files.append(File.generated(config, path, content=markdown))
    assets = Path(config.docs_dir).parent / "assets"
    for asset in sorted(p for p in assets.rglob("*") if p.is_file()):
        uri = "assets/" + asset.relative_to(assets).as_posix()
        files.append(File.generated(config, uri, abs_src_path=str(asset)))
    return files


def _to_site_root(page: Page, lang: str) -> str:
    """From a page as served (a folder or, in the offline copy, a file) to the root of the whole site."""
    return "../" * page.url.count("/") + up_to_site_root(lang)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Hand-written pages name files at the site's root (such as ``data/rules.json``) as ``{site_root}``."""
    return markdown.replace("{site_root}", _to_site_root(page, config.extra["kr_lang"]))


def on_page_context(context: dict, page: Page, config: MkDocsConfig, nav) -> dict:
    """Language links that lead to the same page (the rule anchor is kept by ``language.js``)."""
    lang = config.extra["kr_lang"]
    to_site_root = _to_site_root(page, lang)
    context["kr_alternates"] = [
        {"lang": other, "name": LANGUAGE_NAMES[other], "current": other == lang,
         "href": to_site_root + site_folder(other) + page.url}
        for other in LANGUAGES
    ]
    return context


def on_post_build(config: MkDocsConfig) -> None:
    """Every language: stem the search query, write its app manifest. After English: the rule data as
    JSON, the French and Russian sites, the offline copy, and last the service worker, which lists them all."""
    site_dir = Path(config.site_dir)
    project = Path(config.config_file_path).parent
    search_patch.apply(site_dir)
    offline.write_web_manifest(site_dir, config.extra["kr_lang"])
    install_assets(project, site_dir)  # each language keeps its own copy, as of every other asset
    if archive.building():
        archive.copy_shim(project, site_dir)
    if config.extra["kr_lang"] != ROOT_LANGUAGE:
        return
    if not archive.building():
        engine.install(project, site_dir)
    data = site_dir / "data"
    data.mkdir(parents=True, exist_ok=True)
    document = rules_document(config.extra["kr_book"])
    (data / "rules.json").write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
    docs = Path(config.docs_dir).parent
    for lang in LANGUAGES[1:]:
        sub = load_config(config.config_file_path, docs_dir=str(docs / lang), site_dir=str(site_dir / lang),
                          strict=config.strict, site_url=config.site_url)
        build(sub)
    if archive.building():
        return
    target = site_dir / offline.DOWNLOADS / offline_page.ARCHIVE_NAME
    size = archive.build_archive(config.config_file_path, target, strict=config.strict, site_url=config.site_url)
    archived = {"path": target.relative_to(site_dir).as_posix(), "bytes": size}
    built = offline.write_service_worker(site_dir, verify=os.environ.get(SERVING) != "true", archive=archived)
    log.info("offline: build %s; archive %d bytes", built["version"], size)


def on_serve(server, config: MkDocsConfig, builder):
    """Rebuild when the rule data, the templates, the catalogs or any language's pages change."""
    root = Path(config.config_file_path).parent
    for path in (_data_dir(), HERE / "templates", HERE / "overrides", root / "locales", Path(config.docs_dir).parent):
        server.watch(str(path))
    return server
