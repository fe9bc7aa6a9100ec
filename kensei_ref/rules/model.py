"""The rule data as Python objects: what the loader returns and everything downstream reads.

Instances are immutable. A :class:`RuleBook` is the whole of the data, already validated: every
reference in it resolves, every text exists in every language, every id is unique.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType


class Text:
    """One piece of text in every language of :data:`kensei_ref.languages.LANGUAGES`.

    Built from a mapping or from keywords (``Text(en=..., fr=..., ru=...)``); read by language
    (``text["fr"]``). It holds whatever languages it is given, so a new language needs no change here;
    the loader checks that every language is there.
    """

    __slots__ = ("texts",)
    texts: Mapping[str, str]

    def __init__(self, texts: Mapping[str, str] | None = None, /, **by_language: str) -> None:
        object.__setattr__(self, "texts", MappingProxyType({**(texts or {}), **by_language}))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Text is immutable")

    def __getitem__(self, lang: str) -> str:
        return self.texts[lang]

    def __reduce__(self) -> tuple[type[Text], tuple[dict[str, str]]]:
        return (Text, (dict(self.texts),))

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.texts.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and dict(self.texts) == dict(other.texts)

    def __repr__(self) -> str:
        return f"Text({dict(self.texts)!r})"

    def with_text(self, lang: str, text: str) -> Text:
        """A copy with ``lang``'s text replaced."""
        return Text(self.texts, **{lang: text})

    def as_dict(self) -> dict[str, str]:
        return dict(self.texts)


@dataclass(frozen=True)
class Citation:
    """Where a fact comes from: a source text and its section, or an outside reference."""

    text: str | None = None
    section: str | None = None
    ref: str | None = None


EXAMPLE_ORIGINS = ("rules", "ours")
"""Where a worked example comes from: a source text (the rules' own example) or this reference (an
example written for it); each has its label in ``RuleBook.example_labels``."""


@dataclass(frozen=True)
class Example:
    """A worked example; with ``calculator`` set, the test suite runs it and checks ``expect``.

    ``source`` is the source text and section the example is taken from; ``None`` means the example was
    written for this reference and the source texts do not have it. Pages show which, always."""

    id: str
    text: Text
    source: Citation | None
    calculator: str | None = None
    inputs: Mapping[str, object] = field(default_factory=dict)
    expect: Mapping[str, object] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        """``rules`` for an example of the source texts, ``ours`` for one written for this reference."""
        return "rules" if self.source else "ours"


@dataclass(frozen=True)
class Note:
    """A clarification: where the sources are silent, disagree, or need a reading."""

    id: str
    kind: str
    text: Text
    sources: tuple[Citation, ...] = ()


@dataclass(frozen=True)
class Rule:
    """One rule a player looks up, with a stable id that is also its permalink anchor."""

    id: str
    title: Text
    body: Text
    source: Citation
    chapter_id: str
    order: int
    number: str | None = None
    see_also: tuple[str, ...] = ()
    values: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    examples: tuple[Example, ...] = ()
    notes: tuple[Note, ...] = ()
    stamps: Mapping[str, str] = field(default_factory=dict)
    file: str = ""


@dataclass(frozen=True)
class Chapter:
    """A page of rules: one YAML file."""

    id: str
    game: str
    order: int
    title: Text
    rules: tuple[Rule, ...]
    number: str | None = None
    intro: Text | None = None
    stamps: Mapping[str, str] = field(default_factory=dict)
    file: str = ""

    @property
    def slug(self) -> str:
        """The page's file name: the chapter id without its game prefix."""
        return self.id.split(".", 1)[1]

    @property
    def page(self) -> str:
        """Path of the generated Markdown page, relative to the docs directory."""
        return f"{self.game}/{self.slug}.md"


@dataclass(frozen=True)
class Term:
    """A glossary term: its name and definition in each language."""

    id: str
    game: str
    name: Text
    definition: Text
    japanese: bool = False
    rule: str | None = None
    stamps: Mapping[str, str] = field(default_factory=dict)
    file: str = ""


@dataclass(frozen=True)
class SourceText:
    """One of the source texts the rules are taken from.

    ``note`` tells a reader holding the text where it misleads (the French printed in chapter 8 of the
    rulebook), shown with the text on the sources page."""

    id: str
    file: str
    game: str
    language: str
    title: Text
    sections: tuple[str, ...]
    note: Text | None = None


@dataclass(frozen=True)
class Reference:
    """An outside source, cited by clarification notes only."""

    id: str
    language: str
    title: str
    publisher: str
    year: int


Aliases = Mapping[str, Mapping[str, tuple[str, ...]]]
"""What players call rules and glossary terms besides their names: by rule or term id, by language,
the words as a player types them (abbreviations, other wargames' words, the source texts' own
variants). Search reads them; pages never show them."""


@dataclass(frozen=True)
class RuleBook:
    """All the rule data, validated."""

    chapters: tuple[Chapter, ...]
    terms: tuple[Term, ...]
    sources: tuple[SourceText, ...]
    references: tuple[Reference, ...]
    aliases: Aliases = field(default_factory=lambda: MappingProxyType({}))
    example_labels: Mapping[str, Text] = field(default_factory=lambda: MappingProxyType({}))
    """How a page labels a worked example of each origin (:data:`EXAMPLE_ORIGINS`), from ``sources.yaml``."""

    @cached_property
    def rules(self) -> tuple[Rule, ...]:
        return tuple(rule for chapter in self.chapters for rule in chapter.rules)

    def rule(self, rule_id: str) -> Rule:
        return self._rules_by_id[rule_id]

    def term(self, term_id: str) -> Term:
        return self._terms_by_id[term_id]

    def chapter_of(self, rule_id: str) -> Chapter:
        return self._chapters_by_id[self.rule(rule_id).chapter_id]

    def source(self, source_id: str) -> SourceText:
        return {s.id: s for s in self.sources}[source_id]

    def reference(self, ref_id: str) -> Reference:
        return {r.id: r for r in self.references}[ref_id]

    def games(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.game for c in self.chapters))

    def aliases_of(self, item_id: str, lang: str) -> tuple[str, ...]:
        """The aliases of the rule or glossary term ``item_id`` in ``lang`` (none when it has none)."""
        return self.aliases.get(item_id, {}).get(lang, ())

    def rule_values(self) -> dict[str, dict[str, int]]:
        """Every number the rules state, by rule id: what the calculators read."""
        return {rule.id: dict(rule.values) for rule in self.rules if rule.values}

    @cached_property
    def _rules_by_id(self) -> dict[str, Rule]:
        return {rule.id: rule for rule in self.rules}

    @cached_property
    def _terms_by_id(self) -> dict[str, Term]:
        return {term.id: term for term in self.terms}

    @cached_property
    def _chapters_by_id(self) -> dict[str, Chapter]:
        return {chapter.id: chapter for chapter in self.chapters}
