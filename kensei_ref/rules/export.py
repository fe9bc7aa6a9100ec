"""All rule data as one JSON document (``/data/rules.json`` on the site), for other tools.

Texts keep their inline references (``{rule:ID}``, ``{term:ID}``, ``{value:KEY}``) so a consumer
can resolve them its own way; the shape is documented on the site's data page.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from kensei_ref.languages import LANGUAGES
from kensei_ref.rules.model import Citation, Rule, RuleBook, Text

FORMAT_VERSION = 1


def _text(text: Text | None) -> dict[str, str] | None:
    return text.as_dict() if text else None


def _citation(citation: Citation) -> dict[str, str]:
    return {k: v for k, v in asdict(citation).items() if v is not None}


def _rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "number": rule.number,
        "title": _text(rule.title),
        "body": _text(rule.body),
        "source": _citation(rule.source),
        "see_also": list(rule.see_also),
        "values": dict(rule.values),
        "examples": [
            {
                "id": e.id,
                "text": _text(e.text),
                "origin": _citation(e.source) if e.source else "ours",
                "calculator": e.calculator,
                "inputs": dict(e.inputs),
                "expect": dict(e.expect),
            }
            for e in rule.examples
        ],
        "notes": [
            {"id": n.id, "kind": n.kind, "text": _text(n.text), "sources": [_citation(c) for c in n.sources]}
            for n in rule.notes
        ],
    }


def rules_document(book: RuleBook) -> dict[str, Any]:
    """The whole rule book as plain JSON-ready data."""
    return {
        "format": FORMAT_VERSION,
        "languages": list(LANGUAGES),
        "chapters": [
            {
                "id": c.id,
                "game": c.game,
                "number": c.number,
                "title": _text(c.title),
                "intro": _text(c.intro),
                "rules": [_rule(r) for r in c.rules],
            }
            for c in book.chapters
        ],
        "glossary": [
            {
                "id": t.id,
                "game": t.game,
                "japanese": t.japanese,
                "name": _text(t.name),
                "definition": _text(t.definition),
                "rule": t.rule,
            }
            for t in book.terms
        ],
        "sources": [
            {
                "id": s.id,
                "file": s.file,
                "game": s.game,
                "language": s.language,
                "title": _text(s.title),
                "sections": list(s.sections),
            }
            for s in book.sources
        ],
        "references": [asdict(r) for r in book.references],
    }
