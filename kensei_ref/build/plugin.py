"""The ``kensei-ref`` MkDocs plugin: the site generated from the rule data, in every language.

One ``mkdocs.yml`` builds the source language (English) from ``docs/en``; after it, the plugin
builds ``docs/fr`` and ``docs/ru`` with the same configuration into ``fr/`` and ``ru/`` of the same
site, then the offline copy and, last, the service worker that lists every file. Each of those
builds is a MkDocs build of its own whose plugin instance is told its :class:`Role`.

State that must outlive one build (whether this is ``mkdocs serve``, what each language was built
from) lives on the plugin instance, which MkDocs keeps across ``serve`` rebuilds because the plugin
has ``on_startup``. MkDocs also hands that same instance to every configuration loaded in the
process, so a nested build (another language, the offline copy) saves the instance's per-build
state and restores it when it ends (:meth:`KenseiRefPlugin._nested`).
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import jinja2
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink
from mkdocs.utils import is_error_template
from mkdocs.utils.templates import TemplateContext

from kensei_ref import site as site_files
from kensei_ref import typography
from kensei_ref.build import archive, csp, engine, offline, search_index, search_patch, sitemap, vendor
from kensei_ref.build.compiled_templates import THEME_TEMPLATES
from kensei_ref.build.config import KenseiRefConfig
from kensei_ref.build.inputs import Fingerprints
from kensei_ref.language_context import language_context
from kensei_ref.languages import BY_CODE, LANGUAGE_NAMES, LOCALE_DIR, N_, site_folder, up_to_site_root
from kensei_ref.rules import freshness
from kensei_ref.rules.export import rules_document
from kensei_ref.rules.loader import DATA_DIR, DataError, load
from kensei_ref.rules.model import RuleBook
from kensei_ref.rules.projection import language_digest
from kensei_ref.site import navigation, offline_page, pages, tables
from kensei_ref.site.generate import generated_pages

THEME_WORDS = (N_("Switch to dark mode"), N_("Switch to light mode"))
"""The colour toggle's names as ``mkdocs.yml`` writes them, translated in each language's build."""
PERMALINK_TITLE = N_("Permanent link")
"""The title of a heading's permalink (Python-Markdown's ``toc`` writes it), in each language's build."""
log = logging.getLogger("mkdocs.plugins.kensei_ref")

PLUGIN_NAME = "kensei-ref"
"""The plugin's entry point name, as ``mkdocs.yml`` lists it."""


@dataclass(frozen=True)
class Role:
    """What one MkDocs build is within the whole site.

    Args:
        lang: the language built; ``None`` for the build MkDocs started, whose language is its
            ``docs_dir``'s name (the source language).
        archive: whether this build is the offline copy (file URLs, no engine, no service worker).
        site_url: the whole site's public address (``""`` when there is none).
        book: the rule data, loaded once by the first build and handed to the others.
    """

    lang: str | None = None
    archive: bool = False
    site_url: str = ""
    book: RuleBook | None = None


class KenseiRefPlugin(BasePlugin[KenseiRefConfig]):
    """Generates the rule pages, quick reference, calculators, digest and offline files."""

    def __init__(self) -> None:
        self.role = Role()
        self.serving = False
        self.lang = ""
        self.book: RuleBook | None = None
        self.generated: dict[str, str] = {}
        self.offline_ui: dict[str, Any] = {}
        self.inputs: Fingerprints | None = None
        self.serve_folder: Path | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """``mkdocs serve`` keeps this instance across rebuilds; its live reload changes every page."""
        self.serving = command == "serve"

    def on_shutdown(self) -> None:
        if self.serve_folder is not None:
            shutil.rmtree(self.serve_folder, ignore_errors=True)
            self.serve_folder = None

    @event_priority(100)  # before Material's search plugin, which reads the theme's language
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return config
        self.lang = self.role.lang or self._docs_language(config)
        self.book = self.role.book or self._load()
        if self.role.lang is None:
            self.role = replace(self.role, site_url=self.config.site_url or config.site_url or "")
        self._configure_mkdocs(config)
        # Material's offline plugin turns directory URLs off for the offline copy, but only after this hook.
        directory_urls = config.use_directory_urls and not self.role.archive
        self.generated = generated_pages(
            self.book,
            self.lang,
            site_url=self.role.site_url,
            directory_urls=directory_urls,
            with_archive=not self.role.archive,
            benchmarks=self._benchmarks(config),
        )
        offline_url = pages.PageContext(self.book, self.lang, "index.md", directory_urls).served(
            offline_page.OFFLINE_PAGE
        )
        self.offline_ui = offline_page.ui(self.lang, offline_url)
        if self.serving:
            # pages change with every save: a service worker would keep serving the first ones it saved
            self.offline_ui["serving"] = True
        config.nav = navigation.nav(self.book, self.lang, self.generated)
        if self._is_root():
            for line in freshness.stale(self.book):
                log.info("translation may be out of date: %s", line)
        return config

    def _docs_language(self, config: MkDocsConfig) -> str:
        lang = Path(config.docs_dir).name
        if lang != self.config.languages[0]:
            raise PluginError(
                f"docs_dir: the last folder must be the first of the plugin's languages "
                f"({self.config.languages[0]}), got {lang!r}"
            )
        return lang

    def _load(self) -> RuleBook:
        try:
            return load(Path(self.config.rule_data or DATA_DIR))
        except DataError as error:
            raise PluginError(str(error)) from error

    def _configure_mkdocs(self, config: MkDocsConfig) -> None:
        """The theme's and the search's language, this language's public address, the offline shim."""
        config.theme["language"] = self.lang
        self._translate_theme_words(config)
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if search is not None:
            # The page's language first; the others so that a term's name in any language finds its rule
            # (English also keeps digits in tokens, so rule numbers such as 8.3.2 stay searchable).
            search.config.lang = [self.lang, *(other for other in self.config.languages if other != self.lang)]
        # The other languages live below the whole site's address, so their canonical links, sitemaps
        # and 404 pages name their own pages, not the English ones.
        if self.role.site_url:
            config.site_url = urljoin(self.role.site_url, site_folder(self.lang))
        if self.role.archive:
            # Material's offline plugin would add the iframe-worker shim from a CDN; this copy serves its own.
            config.extra["polyfills"] = [vendor.SHIM]
            # Pages read from files are never opened in place; and with instant navigation on, Material's
            # page observable (document$) never emits from file:// (its navigation completes it at once).
            features = config.theme.get("features") or []
            config.theme["features"] = [feature for feature in features if feature != "navigation.instant"]

    def _translate_theme_words(self, config: MkDocsConfig) -> None:
        """The words ``mkdocs.yml`` gives the theme in English (the colour toggle's, the headings' permalink
        title), in this build's language: Material's own catalog does not hold them."""
        translated = language_context(self.lang).gettext  # not ``_``: extraction would take the key for a msgid
        for scheme in config.theme.get("palette") or []:
            toggle = scheme.get("toggle") or {}
            if toggle.get("name") in THEME_WORDS:
                toggle["name"] = translated(toggle["name"])
        config.mdx_configs.setdefault("toc", {})["permalink_title"] = translated(PERMALINK_TITLE)

    def _benchmarks(self, config: MkDocsConfig) -> tuple[dict, dict | None] | None:
        docs = Path(config.docs_dir).parent
        if not (docs / "benchmarks.json").exists():
            return None
        browser = docs / "benchmarks-browser.json"
        return (
            json.loads((docs / "benchmarks.json").read_text("utf-8")),
            json.loads(browser.read_text("utf-8")) if browser.exists() else None,
        )

    def _is_root(self) -> bool:
        return self.lang == self.config.languages[0]

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        if not self.config.enabled:
            return files
        for path, markdown in self.generated.items():
            files.append(File.generated(config, path, content=markdown))
        for asset in sorted(p for p in site_files.ASSETS.rglob("*") if p.is_file()):
            uri = "assets/" + asset.relative_to(site_files.ASSETS).as_posix()
            files.append(File.generated(config, uri, abs_src_path=str(asset)))
        return files

    def on_env(self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        """The theme's templates compiled once for all the builds of this process (see compiled_templates);
        the scripts written into pages (kensei_ref.site.inline_script)."""
        env.bytecode_cache = THEME_TEMPLATES
        env.globals["kr_inline_script"] = site_files.inline_script
        return env

    def _to_site_root(self, page: Page) -> str:
        """From a page as served (a folder or, in the offline copy, a file) to the root of the whole site."""
        return "../" * page.url.count("/") + up_to_site_root(self.lang)

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Hand-written pages name files at the site's root (such as ``data/rules.json``) as ``{site_root}``."""
        return markdown.replace("{site_root}", self._to_site_root(page))

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Each table comes wrapped as Material's script would wrap it after load (see
        :mod:`kensei_ref.site.tables`): on a phone, moving it there lays the whole page out again."""
        return tables.wrap_tables(html)

    def on_template_context(
        self, context: TemplateContext, *, template_name: str, config: MkDocsConfig
    ) -> TemplateContext:
        """Every page, the 404 page included, carries the offline indicator's words. Without a public
        address MkDocs writes the 404 page's links from the server's root (``/``), where the source
        language lies: another language's 404 page links from its own folder (``/fr/``)."""
        context["kr_offline"] = self.offline_ui  # type: ignore[typeddict-unknown-key]
        if is_error_template(template_name) and not config.site_url and not self.role.archive:
            context["base_url"] = "/" + site_folder(self.lang)
        return context

    def on_page_context(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        """The offline indicator's words; language links that lead to the same page (``language.js``
        keeps the rule anchor); French spacing in the table of contents, which Markdown writes with its
        no-break spaces folded into plain ones."""
        context["kr_offline"] = self.offline_ui  # type: ignore[typeddict-unknown-key]
        to_site_root = self._to_site_root(page)
        context["kr_alternates"] = [  # type: ignore[typeddict-unknown-key]
            {
                "lang": other,
                "name": LANGUAGE_NAMES[other],
                "current": other == self.lang,
                "root": to_site_root + site_folder(other),
                "href": to_site_root + site_folder(other) + page.url,
            }
            for other in self.config.languages
        ]
        if BY_CODE[self.lang].spaced_punctuation:
            _spaced_titles(page.toc)
        return context

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Every language: stem the search query, tidy the search index, write its app manifest, copy the
        vendored files. After the source language: the rule data as JSON, the other languages, the offline
        copy, and last the service worker, which lists them all."""
        if not self.config.enabled:
            return
        site_dir = Path(config.site_dir)
        project = Path(config.config_file_path).parent
        search_patch.apply(site_dir)
        assert self.book is not None
        search_index.tidy(site_dir, self.book, self.lang)
        # No policy in the offline copy (read from files, search runs through a shim that writes inline
        # script), nor under `mkdocs serve`, whose live reload injects an inline script that changes with
        # every page served (a policy would block it, and pages would never reload).
        if not self.role.archive and not self.serving:
            others = tuple(site_dir / lang for lang in self.config.languages[1:]) if self._is_root() else ()
            csp.apply(site_dir, skip=others)
        offline.write_web_manifest(site_dir, self.lang)
        vendor.install_qrcode(project, site_dir)  # each language keeps its own copy, as of every other asset
        if self.role.archive:
            vendor.install_shim(project, site_dir)
        if not self._is_root():
            return
        if not self.role.archive:
            engine.install(project, site_dir, snapshot=self.config.engine_snapshot and not self.serving)
        assert self.book is not None
        data = site_dir / "data"
        data.mkdir(parents=True, exist_ok=True)
        document = rules_document(self.book)
        (data / "rules.json").write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
        self._build_other_languages(config, site_dir)
        if self.role.archive:
            return
        if self.role.site_url:
            sitemap.write_index(site_dir, self.role.site_url, [site_folder(lang) for lang in self.config.languages])
        if not self.serving:
            csp.unify(site_dir)  # every language's pages, one policy: the header's
        csp.write_server_file(site_dir)
        archived = self._build_offline_copy(config, site_dir)
        built = offline.write_service_worker(site_dir, verify=not self.serving, archive=archived)
        log.info("offline: build %s", built["version"])
        if not self.serving:  # the engine's large files as nginx sends them (brotli, gzip): not files a reader keeps
            engine.precompress(site_dir / "assets" / "engine", project / engine.CACHE)

    def _build_other_languages(self, config: MkDocsConfig, site_dir: Path) -> None:
        """Build each other language into its folder; under ``serve``, only those whose sources changed."""
        docs = Path(config.docs_dir).parent
        shared = [site_files.HERE, Path(LOCALE_DIR), docs / "benchmarks.json"]
        if self.inputs is None or not self.serving or self.role.archive:
            self.inputs = Fingerprints(shared)
        book = self.book
        assert book is not None
        # under serve, a translation waits for `make build` to learn that the English changed (see language_digest)
        digest = partial(language_digest, book, with_source=not self.serving)
        changed = self.inputs.changed_languages(docs, self.config.languages[1:], digest)
        for lang in self.config.languages[1:]:
            if not self.serving or self.role.archive:
                self._build_language(config, lang, site_dir / lang, archive=self.role.archive)
                continue
            # MkDocs empties the site folder before every rebuild: each language is built into a
            # folder of its own that outlives rebuilds, and copied into the site (a few milliseconds).
            kept = self._serve_folder() / lang
            if lang in changed or not kept.is_dir():
                self._build_language(config, lang, kept, archive=False)
            else:
                log.info("serve: %s unchanged, kept as built", lang)
            shutil.copytree(kept, site_dir / lang, dirs_exist_ok=True)

    def _serve_folder(self) -> Path:
        """Where ``mkdocs serve`` keeps the other languages' builds between rebuilds."""
        if self.serve_folder is None:
            self.serve_folder = Path(tempfile.mkdtemp(prefix="kensei-ref-serve-"))
        return self.serve_folder

    def _build_language(self, config: MkDocsConfig, lang: str, site_dir: Path, *, archive: bool) -> None:
        """One MkDocs build of ``lang`` (or, with ``lang`` the source language, of the whole site)."""
        docs = Path(config.docs_dir).parent
        sub = load_config(
            config.config_file_path,
            docs_dir=str(docs / lang),
            site_dir=str(site_dir),
            strict=config.strict,
            site_url=config.site_url if lang == self.lang else None,
        )
        if archive:
            material_offline = sub.plugins.get("material/offline") or sub.plugins.get("offline")
            if material_offline is None:
                raise PluginError("the offline copy needs Material's offline plugin in mkdocs.yml (enabled: false)")
            material_offline.config.enabled = True
        plugin = sub.plugins[PLUGIN_NAME]
        assert isinstance(plugin, KenseiRefPlugin)
        with plugin._nested(Role(lang=lang, archive=archive, site_url=self.role.site_url, book=self.book)):
            build(sub)

    @contextmanager
    def _nested(self, role: Role) -> Iterator[None]:
        """Run a nested build as ``role``; this build's own state comes back when it ends."""
        saved = (self.role, self.lang, self.book, self.generated, self.offline_ui, self.config)
        self.role = role
        try:
            yield
        finally:
            self.role, self.lang, self.book, self.generated, self.offline_ui, self.config = saved

    def _build_offline_copy(self, config: MkDocsConfig, site_dir: Path) -> dict[str, Any] | None:
        """The downloadable offline copy, built again from every language; never under ``serve``."""
        if self.serving or not self.config.offline_copy:
            return None
        target = site_dir / offline.DOWNLOADS / offline_page.ARCHIVE_NAME

        def build_copy(folder: Path) -> None:
            self._build_language(config, self.lang, folder, archive=True)

        size = archive.build_archive(build_copy, target)
        log.info("offline copy: %d bytes", size)
        return {"path": target.relative_to(site_dir).as_posix(), "bytes": size}

    def on_serve(self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        """Rebuild when the rule data, the site's templates and files, the catalogs or any language's pages change."""
        docs = Path(config.docs_dir).parent
        for path in (Path(self.config.rule_data or DATA_DIR), site_files.HERE, LOCALE_DIR, docs):
            server.watch(str(path))
        return server


def _spaced_titles(links: Iterable[AnchorLink]) -> None:
    """French spacing in the headings of a table of contents, at every depth."""
    for link in links:
        link.title = typography.french_spacing(link.title)
        _spaced_titles(link.children)
