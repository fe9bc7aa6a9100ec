"""Tables come wrapped from the build as Material's script would wrap them, and look as Material makes them.

The build writes Material's two scrolling boxes around each table without a class and marks it
``kr-table`` (Material's script then leaves it in place: moving it laid the whole page out again on a
phone); ``kensei.css`` gives that class Material's rules for a table without a class. Checked here:
the wrapping itself, the CSS rule for rule against Material's stylesheet, the built pages, and in
Chromium that the glossary's table is not moved after load and has the styles Material would give it.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import material
import pytest

from kensei_ref.languages import LANGUAGES, site_folder
from kensei_ref.site import tables
from kensei_ref.site.tables import TABLE_CLASS, WRAP_CLOSE, WRAP_OPEN, wrap_tables

CSS = Path(tables.__file__).parent / "assets" / "css"
MATERIAL_CSS = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
CLASSLESS = "table:not([class])"


def test_the_examples_of_the_module():
    assert doctest.testmod(tables).failed == 0


def test_each_table_without_a_class_is_wrapped_once_nested_ones_too():
    html = (
        "<p>a</p><table>\n<tr><td><table id='inner'><tr><td>1</td></tr></table></td></tr></table>"
        '<table class="kr-dist"><tr><td>2</td></tr></table><TABLE CLASS=x></TABLE><table data-class="y"></table>'
    )
    wrapped = wrap_tables(html)
    assert wrapped.count(WRAP_OPEN) == 3 and wrapped.count(WRAP_CLOSE) == 3
    assert wrapped.startswith(f'<p>a</p>{WRAP_OPEN}<table class="{TABLE_CLASS}">')
    assert f"{WRAP_OPEN}<table class=\"{TABLE_CLASS}\" id='inner'><tr><td>1</td></tr></table>{WRAP_CLOSE}" in wrapped
    assert '<table class="kr-dist"><tr><td>2</td></tr></table><TABLE CLASS=x></TABLE>' in wrapped
    assert wrapped.endswith(f'{WRAP_OPEN}<table class="{TABLE_CLASS}" data-class="y"></table>{WRAP_CLOSE}')
    assert wrap_tables(wrapped) == wrapped, "a wrapped table has a class: wrapping again changes nothing"


def test_a_page_without_tables_and_a_stray_closing_tag_are_left_as_they_are():
    assert wrap_tables("<p>no table</p>") == "<p>no table</p>"
    assert wrap_tables("</table><p>x</p>") == "</table><p>x</p>"


def _rules(css: str, media: str = "") -> list[tuple[str, str, str]]:
    """(media, selector, declarations) of each style rule of a stylesheet, comments dropped, whitespace
    and quotes normalized; a rule inside ``@media`` carries the media's condition."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found: list[tuple[str, str, str]] = []
    depth, start, prelude = 0, 0, ""
    for index, char in enumerate(css):
        if char == "{":
            if depth == 0:
                prelude, start = css[start:index].strip(), index + 1
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                body = css[start:index]
                if prelude.startswith("@media"):
                    found += _rules(body, _normal(prelude))
                elif not prelude.startswith("@"):
                    found.append((media, _normal(prelude), _declarations(body)))
                start = index + 1
    return found


def _normal(text: str) -> str:
    text = re.sub(r"\s+", " ", text.replace('"', "")).strip()
    text = re.sub(r"\s*([>+,:;{}])\s*", r"\1", text)
    return re.sub(r"(?<![\w.])0\.(\d)", r".\1", text)


def _declarations(body: str) -> str:
    return ";".join(sorted(filter(None, (_normal(part) for part in body.split(";")))))


def test_the_class_has_materials_rules_for_a_table_without_a_class_one_for_one():
    (material_css,) = MATERIAL_CSS.glob("main.*.min.css")
    materials = [
        (media, selector.replace(CLASSLESS, f"table.{TABLE_CLASS}"), body)
        for media, selector, body in _rules(material_css.read_text(encoding="utf-8"))
        if CLASSLESS in selector
    ]
    assert len(materials) >= 10, "Material's stylesheet no longer styles tables without a class as it did"
    ours = _rules((CSS / "kensei.css").read_text(encoding="utf-8"))
    for rule in materials:
        assert rule in ours, f"kensei.css lacks Material's rule for a table without a class: {rule}"
    for css in CSS.glob("*.css"):
        assert CLASSLESS not in css.read_text(encoding="utf-8"), f"{css.name}: every table has the class now"


@pytest.mark.parametrize("page", ["glossary/", "digest/", "quick-reference/", "kensei/charging/"])
def test_the_built_pages_tables_come_wrapped_and_marked(built_site, page):
    site, _ = built_site
    for lang in LANGUAGES:
        html = (site / site_folder(lang) / page / "index.html").read_text(encoding="utf-8")
        article = html[html.index("<article") : html.index("</article>")]
        opened = re.findall(r"<table\b[^>]*>", article)
        assert opened, (lang, page)
        for tag in opened:
            assert re.search(r"\sclass=", tag), (lang, page, tag)
        assert article.count(f'<table class="{TABLE_CLASS}"') == article.count(WRAP_OPEN) > 0, (lang, page)


STYLES = """(table) => {
  const style = (element) => {
    const all = getComputedStyle(element);
    return Object.fromEntries(["display", "font-size", "padding-left", "padding-top", "border-top-width",
      "border-top-style", "background-color", "border-radius", "vertical-align", "text-align", "font-weight",
      "min-width", "overflow-x", "max-width", "margin-top"].map((name) => [name, all.getPropertyValue(name)]));
  };
  const pick = (root) => [root, root.querySelector("th"), root.querySelector("td")].map(style);
  const wrap = table.closest(".md-typeset__scrollwrap");
  const copy = wrap.cloneNode(true);  // the same boxes, after the table's own: not a sibling of the table
  const clone = copy.querySelector("table");
  clone.removeAttribute("class");  // Material's own rules for a table without a class
  wrap.after(copy);
  const result = { ours: pick(table), materials: pick(clone) };
  copy.remove();
  return result;
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_table_stays_in_place_and_looks_as_material_makes_it(browser, server, lang):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.add_init_script(
        """new MutationObserver((records) => {
             for (const record of records)
               for (const node of record.removedNodes)
                 if (node.nodeName === "TABLE" || node.querySelector?.("table")) window.__krTableMoved = true;
           }).observe(document, { childList: true, subtree: true });"""
    )
    page.goto(f"{server}/{site_folder(lang)}glossary/", wait_until="load")
    page.wait_for_function("() => window.document$ !== undefined")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 100)))")
    assert page.evaluate("window.__krTableMoved") is None, "Material's script moved the glossary's table"
    table = page.locator("article table").first
    assert page.locator("article .md-typeset__scrollwrap .md-typeset__scrollwrap").count() == 0
    assert table.evaluate("(t) => t.parentElement.matches('.md-typeset__scrollwrap > .md-typeset__table')")
    styles = table.evaluate(STYLES)
    assert styles["ours"] == styles["materials"]
    context.close()
