"""Where the English text of a rule uses a glossary term (``{term:id}`` or ``{term:id|shown form}``), its French
and Russian texts use that term too: a ``{term:id}`` of their own (whose shown form is one of the term's
glossary name's forms, :mod:`tests.test_glossary_use`), or the glossary name in plain words, inflected as the
sentence needs (compared through the search's stemmers, :func:`kensei_ref.rules.search.stem`).

Every text is checked (chapter introductions, rule titles, bodies, examples, notes, glossary definitions), and
every offending text is named before the test fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from rule_texts import rule_texts

from kensei_ref.languages import TRANSLATED
from kensei_ref.rules.model import RuleBook, Text
from kensei_ref.rules.references import REFERENCE
from kensei_ref.rules.search import stem, words

SHORT = 3
"""Words shorter than this (articles, prepositions: "de", "d'", "of") carry no term."""

QUALIFIER = re.compile(r"\(.*?\)")
"""A qualifier in brackets ("Difficult terrain (Ronin)") only tells same-named terms apart."""


FLEETING = frozenset("еёоьй")
"""Letters Russian drops or swaps inside a word as it declines: боец, бойца; полководец, полководца; день, дня."""


def _same_stem(a: str, b: str) -> bool:
    """Two stems of one word: equal, or one fleeting letter apart (:data:`FLEETING`, dropped or swapped)."""
    if a == b:
        return True
    if min(len(a), len(b)) < SHORT or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        different = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
        return len(different) == 1 and set(different[0]) <= FLEETING
    shorter, longer = sorted((a, b), key=len)
    return any(longer[:i] + longer[i + 1 :] == shorter and longer[i] in FLEETING for i in range(len(longer)))


def _stems(text: str, lang: str) -> list[str]:
    return [stem(word, lang) for word in words(text) if len(word) >= SHORT]


def says(text: str, name: str, lang: str) -> bool:
    """Whether ``text`` (plain words) holds the glossary name ``name`` in some grammatical form: each of its
    words, in any inflection.

    >>> says("L'unité dépense deux points d'action", "point d'action", "fr")
    True
    >>> says("тратит два очка действия", "очко действия", "ru"), says("тратит два очка", "очко действия", "ru")
    (True, False)
    """
    wanted = _stems(QUALIFIER.sub("", name), lang) or [stem(word, lang) for word in words(name)]
    found = _stems(text, lang)
    return all(any(_same_stem(word, other) for other in found) for word in wanted)


def _words_only(book: RuleBook, text: str, lang: str) -> str:
    """``text`` with every reference reduced to the words it shows, and numbers to nothing."""

    def shown(match: re.Match[str]) -> str:
        if match["label"]:
            return match["label"]
        if match["kind"] == "term":
            return book.term(match["target"]).name[lang]
        if match["kind"] == "rule":
            return book.rule(match["target"]).title[lang]
        return " "

    return REFERENCE.sub(shown, text)


def missing_terms(book: RuleBook, lang: str, items: Iterable[tuple[str, Text]]) -> list[str]:
    """Each glossary term an English text of ``items`` uses that the ``lang`` text of the same place does not."""
    missing = []
    for where, text in items:
        used = {m["target"] for m in REFERENCE.finditer(text["en"]) if m["kind"] == "term"}
        marked = {m["target"] for m in REFERENCE.finditer(text[lang]) if m["kind"] == "term"}
        plain = _words_only(book, text[lang], lang)
        for term_id in sorted(used - marked):
            name = book.term(term_id).name[lang]
            if not says(plain, name, lang):
                missing.append(f"{where}: the English uses {{term:{term_id}}}; the {lang} text has no form of {name!r}")
    return missing


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_use_the_glossary_terms_of_the_english(book, lang):
    missing = missing_terms(book, lang, rule_texts(book))
    assert not missing, f"{len(missing)} texts:\n" + "\n".join(missing)


@pytest.mark.parametrize(
    ("text", "name", "lang", "expected"),
    [
        pytest.param("les points de commandement", "point de commandement", "fr", True, id="fr-plural"),
        pytest.param("Les unités en fuite", "fuite", "fr", True, id="fr-one-word"),
        pytest.param("l'attaque de flanc", "charge", "fr", False, id="fr-another-word"),
        pytest.param("бойцов противника", "Боец", "ru", True, id="ru-fleeting-vowel"),
        pytest.param("очков командования", "очко командования", "ru", True, id="ru-genitive-plural"),
        pytest.param("атака отряда", "Натиск", "ru", False, id="ru-attack-is-not-charge"),
        pytest.param("на сложном ландшафте", "Сложный ландшафт", "ru", True, id="ru-adjective-inflected"),
        pytest.param("в труднопроходимой местности", "Difficult terrain (Ronin)", "ru", False, id="ru-other-name"),
        pytest.param("terrain difficile", "terrain difficile (Ronin)", "fr", True, id="qualifier-ignored"),
    ],
)
def test_says(text, name, lang, expected):
    assert says(text, name, lang) is expected


def test_a_translation_that_drops_a_term_is_named(book):
    """A Russian charge said as an attack (the slip the glossary's «Натиск» is there to prevent) is named."""
    rule = next(r for r in book.rules if "{term:charge}" in r.body["en"])
    attack = REFERENCE.sub(
        lambda m: "атака" if m["target"] == "charge" else "" if m["kind"] == "rule" else m[0], rule.body["ru"]
    )
    attack = re.sub(r"натиск\w*", "атака", attack, flags=re.IGNORECASE)
    missing = missing_terms(book, "ru", [(rule.id, rule.body.with_text("ru", attack))])
    assert missing == [f"{rule.id}: the English uses {{term:charge}}; the ru text has no form of 'Натиск'"]


DRIFTED: dict[str, tuple[tuple[str, str], ...]] = {
    "fr": (
        (r"\b(?:à|sous)\s+couvert\s+(?:léger|lourd)", "« en couvert léger » / « en couvert lourd »"),
        (r"\b[Cc]ourte\s+portée|\b[Ll]ongue\s+portée", "« portée courte » / « portée longue »"),
        (r"\b(?:Attaque|Défense)\s+modifiée", "« Attaque effective » / « Défense effective »"),
        (r"\b[Ll]ecture\s+retenue|\b(?:cette|une|première|seconde|autre|deux)\s+lectures?\b", "« interprétation »"),
        (r"\bdés\s+de\s+distance", "« dés de charge »"),
        (r"\bHR\b(?!\s*»?\s*(?:dans\s+l'|en\s+)anglais)", "« RH », as the French rulebook prints it"),
        (r"\bchance\s+de\s+parer", "a save, « sauvegarde », not « parer »"),
        (
            r"(?<=[a-zàâçéèêëîïôûùüÿœ,] )(?:Tenir et tirer|Tenir et combattre|Tirs multiples)\b",
            "no capital mid-sentence",
        ),
        (r"\bque\s+1\s|\bplus\s+de\s+1\s", "« qu'une », « plus d'une »"),
    ),
    "ru": (
        (r"метательн\w+\s+оружи", "«стрелковое оружие», as the Ronin text says"),
        (r"оружи\w+\s+дальнего\s+боя", "«стрелковое оружие», as the Ronin text says"),
        (r"повторн\w+\s+выстрел", "«многократная стрельба»"),
        (r"контакт\w*\s+подставок", "«контакт баз»"),
        (r"за\s+приоритет", "«бросок на приоритет»"),
        (r"исходн\w+\s+численност", "«стартовая численность», as the Ronin text says"),
        (r"например\s+командира", "«Лидер» (Командир is a skill in Ronin)"),
        (r"в\s+русском\s+тексте\s+правил\s+Ronin", "no editorial aside inside a rule"),
        (r"ровн\w+\s+контакт", "«контакт … базами по всей кромке», not a calque of «flat»"),
    ),
    "es": (
        (r"contacto\s+peana\s+con\s+peana|contacto\s+de\s+peanas", "«contacto de peana»"),
        (r"\bsalvas?\b", "«descarga» (a volley)"),
        (r"\bchequeo\s+de\s+moral\b|\bprueba\s+de\s+moral", "«chequeo de Moral»"),
        (r"\btirada\s+de\s+rango\b", "«tirada de Rango»"),
        (r"\bcarga(?:r)?\s+(?:el|un|del|su)\s+arma", "«recarga», «recargar» (a charge is «carga»)"),
        (r"\ben\s+promedio\b", "«esperado» (an expected figure)"),
        (r"\bpuntos?\s+de\s+comando\b", "«punto de mando»"),
    ),
}
"""Words that drifted from the glossary's vocabulary, in each translated language, and what replaces them."""


def _everything_shown(book: RuleBook, lang: str) -> list[tuple[str, str]]:
    """Every text a reader meets in ``lang``: the generated pages (rules, glossary, quick reference, calculators,
    as a reader sees them: code and tags set aside), the catalog's interface strings, the hand-written pages."""
    from babel.messages.pofile import read_po

    from kensei_ref.languages import LOCALE_DIR
    from kensei_ref.site.generate import generated_pages
    from kensei_ref.typography import _PROTECTED

    pages = generated_pages(book, lang, site_url="", directory_urls=True, with_archive=False)
    hidden = re.compile(r"<(\w+)[^>]*\bhidden\b[^>]*>.*?</\1>", re.DOTALL)  # a search's keywords, in all languages
    shown = [(path, _PROTECTED.sub(" ¶ ", hidden.sub(" ¶ ", text))) for path, text in sorted(pages.items())]
    with open(Path(LOCALE_DIR) / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        for message in read_po(handle, locale=lang):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            shown += [(f"catalog: {message.id!r}", text) for text in strings if message.id]
    docs = Path(__file__).resolve().parent.parent / "docs" / lang
    shown += [(f"docs/{lang}/{page.name}", page.read_text("utf-8")) for page in sorted(docs.glob("*.md"))]
    return shown


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_word_drifts_from_the_glossary_vocabulary(book, lang):
    """The rules, the quick reference, the calculators' strings and the pages say one thing one way."""
    found = [
        f"{where}: {text[max(0, m.start() - 30) : m.end() + 20]!r} (write {wanted})"
        for where, text in _everything_shown(book, lang)
        for pattern, wanted in DRIFTED[lang]
        for m in re.finditer(pattern, text)
    ]
    assert found == []
