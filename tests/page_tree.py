"""Pages as trees of elements, for tests that read what a page shows: the generated Markdown rendered
with the site's Markdown extensions, or a page of the built site, parsed with the standard library.

>>> root = parse('<div class="a b"><p id="x">One <a href="#y">two</a></p></div>')
>>> [element.id for element in root.find_all("p")]
['x']
>>> root.find_all("div")[0].has_class("b"), root.find_all("a")[0].text()
(True, 'two')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import markdown

MARKDOWN_EXTENSIONS = ["admonition", "attr_list", "md_in_html", "tables", "toc", "pymdownx.details",
                       "pymdownx.superfences"]  # fmt: skip
"""The extensions of ``mkdocs.yml`` that shape the HTML of a generated page."""

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Element | str] = field(default_factory=list)
    parent: Element | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return self.attrs.get("id", "")

    def has_class(self, name: str) -> bool:
        return name in self.attrs.get("class", "").split()

    def text(self) -> str:
        return "".join(child if isinstance(child, str) else child.text() for child in self.children)

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Element]:
        """Every element below this one (in document order) with that tag and class."""
        found = []
        for child in self.children:
            if isinstance(child, Element):
                if (tag is None or child.tag == tag) and (cls is None or child.has_class(cls)):
                    found.append(child)
                found += child.find_all(tag, cls)
        return found

    def ancestor(self, tag: str | None = None, cls: str | None = None) -> Element | None:
        """The nearest element above this one with that tag and class."""
        node = self.parent
        while node is not None:
            if (tag is None or node.tag == tag) and (cls is None or node.has_class(cls)):
                return node
            node = node.parent
        return None


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root")
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs}, parent=self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.children.append(Element(tag, {name: value or "" for name, value in attrs}, parent=self.current))

    def handle_endtag(self, tag: str) -> None:
        node: Element | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent  # an unclosed element inside closes with it

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: str) -> Element:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def render(markdown_text: str) -> Element:
    """A generated page's Markdown as the site's Markdown extensions turn it into HTML, parsed."""
    return parse(markdown.markdown(markdown_text, extensions=MARKDOWN_EXTENSIONS))
