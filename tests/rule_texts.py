"""Every text of the rule book a reader sees, for the tests that read them all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def rule_texts(book: Any) -> Iterator[tuple[str, Any]]:
    """(where a reader of a failure finds it, text in every language): each chapter's introduction, each rule's
    title, body, examples and notes, then each term's definition."""
    for chapter in book.chapters:
        if chapter.intro:
            yield f"{chapter.file}: {chapter.id} (introduction)", chapter.intro
    for rule in book.rules:
        yield f"{rule.file}: {rule.id} (title)", rule.title
        yield f"{rule.file}: {rule.id}", rule.body
        for example in rule.examples:
            yield f"{rule.file}: {rule.id}, example {example.id}", example.text
        for note in rule.notes:
            yield f"{rule.file}: {rule.id}, note {note.id}", note.text
    for term in book.terms:
        yield f"{term.file}: glossary {term.id}", term.definition
