"""Every text of the rule book a reader sees, for the tests that read them all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def rule_texts(book: Any) -> Iterator[tuple[str, Any]]:
    """(where, text in every language): each rule's body, examples and notes, then each term's definition."""
    for rule in book.rules:
        yield rule.id, rule.body
        for example in rule.examples:
            yield f"{rule.id}:{example.id}", example.text
        for note in rule.notes:
            yield f"{rule.id}:{note.id}", note.text
    for term in book.terms:
        yield f"glossary:{term.id}", term.definition
