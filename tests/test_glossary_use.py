"""Each language's texts call a glossary term by that language's glossary name (in any inflected form)."""

from __future__ import annotations

import re

import pytest
import snowballstemmer
from rule_texts import rule_texts

from kensei_ref.languages import LANGUAGE_RECORDS, LANGUAGES
from kensei_ref.rules.references import REFERENCE

STEMMERS = {language.code: language.stemmer for language in LANGUAGE_RECORDS}
WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
SHORT = 3  # articles and prepositions ("de", "d", "of") carry no term


def _stems(text: str, lang: str) -> list[str]:
    stemmer = snowballstemmer.stemmer(STEMMERS[lang])
    return [stemmer.stemWord(w.casefold()) for w in WORD.findall(text.replace("ё", "е")) if len(w) >= SHORT]


def _same_word(a: str, b: str) -> bool:
    """Stems agree up to the last two letters: Russian fleeting vowels (полководец, полководца)."""
    shorter, longer = sorted((a, b), key=len)
    keep = max(SHORT, len(shorter) - 2)
    return longer.startswith(shorter[:keep])


def names_the_term(label: str, name: str, lang: str) -> bool:
    """Whether ``label`` is ``name`` in some grammatical form: every word of the name is in the label.

    A qualifier in brackets ("Difficult terrain (Ronin)") only tells same-named terms apart.
    """
    name = re.sub(r"\(.*?\)", "", name)
    label_stems = _stems(label, lang)
    return all(any(_same_word(n, s) for s in label_stems) for n in _stems(name, lang))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_term_labels_use_the_glossary_name(book, lang):
    wrong = []
    for where, text in rule_texts(book):
        for match in REFERENCE.finditer(text[lang]):
            if match["kind"] != "term" or not match["label"]:
                continue
            name = book.term(match["target"]).name[lang]
            if not names_the_term(match["label"], name, lang):
                wrong.append(f"{where}: {{term:{match['target']}|{match['label']}}} is not a form of {name!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("label", "name", "lang", "expected"),
    [
        ("полководца", "полководец", "ru", True),
        ("очков командования", "очко командования", "ru", True),
        ("ран", "Рана", "ru", True),
        ("отряда", "персонаж", "ru", False),
        ("points de commandement", "point de commandement", "fr", True),
        ("unités", "unité", "fr", True),
        ("Commandment Points", "commandment point", "en", True),
        ("cavalry", "infantry", "en", False),
        ("difficult terrain", "Difficult terrain (Ronin)", "en", True),
    ],
)
def test_names_the_term(label, name, lang, expected):
    assert names_the_term(label, name, lang) is expected


def test_glossary_names_are_unique_per_language(book):
    for lang in LANGUAGES:
        names = [term.name[lang].casefold() for term in book.terms]
        duplicates = {n for n in names if names.count(n) > 1}
        assert not duplicates, f"{lang}: {duplicates}"
