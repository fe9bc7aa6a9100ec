"""The theme's compiled templates, kept in memory across the builds of one process: a template is
compiled once for every environment that loads it, and again when its source changes."""

from __future__ import annotations

import jinja2

from kensei_ref.build.compiled_templates import CompiledTemplates


def _environment(folder, cache: CompiledTemplates) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), bytecode_cache=cache)


def test_a_template_is_compiled_once_for_every_build_and_again_once_edited(tmp_path, monkeypatch):
    (tmp_path / "page.html").write_text("<p>{{ title }}</p>", encoding="utf-8")
    cache = CompiledTemplates()
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    first = _environment(tmp_path, cache).get_template("page.html").render(title="Terrain")
    second = _environment(tmp_path, cache).get_template("page.html").render(title="Terrain")
    assert first == second == "<p>Terrain</p>"
    assert compiled == ["page.html"] and len(cache) == 1

    (tmp_path / "page.html").write_text("<h1>{{ title }}</h1>", encoding="utf-8")
    assert _environment(tmp_path, cache).get_template("page.html").render(title="Terrain") == "<h1>Terrain</h1>"
    assert compiled == ["page.html", "page.html"]


def test_the_plugin_hands_every_build_the_shared_cache():
    from kensei_ref.build.compiled_templates import THEME_TEMPLATES
    from kensei_ref.build.plugin import KenseiRefPlugin

    env = jinja2.Environment()
    assert KenseiRefPlugin().on_env(env, config=None, files=None).bytecode_cache is THEME_TEMPLATES
