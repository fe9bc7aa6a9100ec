"""The site's languages, declared once: codes, names, locales, quotation marks, stemmers, catalogs.

Everything else in the project asks this module. Adding a language means adding one
:class:`Language` record here and its texts (the rule data's ``<code>`` fields and a catalog in
``locales/<code>/`` at the top of the checkout), nothing else in code. Rule text is not translated here; this
module serves the strings the project itself shows (labels, headings, messages), kept in
``locales/<lang>/LC_MESSAGES/messages.po`` and compiled to ``.mo`` by ``make translations``; the wheel ships the
compiled catalogs inside the package, as ``kensei_ref/locales/``.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable
from functools import cache

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:  # imported where used: a terminal command that needs neither should not wait for them
    import pyuca


class Words:
    """The words of one language that the code must know by name, as players type them (lower case, ё as е).

    Args:
        stop: words that carry no meaning for a search ("the", "de", "и"): a query ignores them unless it
            has nothing else, and phrases are paired over the words between them.
        question: question and filler words ("how", "comment", "можно"): a query keeps them, at a quarter
            of a term's weight (:data:`kensei_ref.rules.search.QUESTION_WEIGHT`).
        small_numbers: how prose writes 1, 2 and 3, in every gender and case it needs: a value reference may
            give its number in words as its label (``{value:per_turn|une}``), and the loader checks that the
            words are the value's (:func:`kensei_ref.rules.references.number_in_words`).
        ten: the word for a die's ten in its forms, which search indexes as "10": "a ten" on a shooting die
            is "a 10" (:func:`kensei_ref.rules.search.stem`). Only ten: "one" is also an article.
    """

    __slots__ = ("question", "small_numbers", "stop", "ten")

    def __init__(self, stop: str, question: str, small_numbers: tuple[str, str, str], ten: str) -> None:
        self.stop, self.question = frozenset(stop.split()), frozenset(question.split())
        self.small_numbers = {n: frozenset(forms.split()) for n, forms in enumerate(small_numbers, 1)}
        self.ten = tuple(ten.split())


class Language:
    """One language of the reference.

    A plain class, not a dataclass: every terminal command reads this module, and importing
    :mod:`dataclasses` (with :mod:`inspect`) takes a fifth of a command's time.

    Args:
        code: the language's code in the rule data, in addresses (``/fr/``) and on the command line.
        name: its name in itself, as the language switcher shows it.
        locale: the Babel locale that formats its numbers (see :mod:`kensei_ref.numbers`).
        quotes: its opening and closing quotation marks (with the spaces French puts inside them).
        stemmer: the Snowball algorithm that reduces its words for search.
        script: ``latin`` or ``cyrillic``: a word in the other script is stemmed by that script's language.
        spaced_punctuation: whether it sets a no-break space before ``; : ! ?`` and inside « » (French does;
            the generated pages get them from :func:`kensei_ref.typography.french_spacing`).
        quoted_titles: whether a rule's title cited in running text stands in quotation marks (Russian:
            «см. «Бегство (реакция)»», see :func:`kensei_ref.rules.references.quote_rule_titles`).
        words: the language's own words that search and the loader must know, in :class:`Words`.
        own_letters: letters the language sorts as letters of their own where the Unicode Collation
            Algorithm's default table sorts them as an accented letter, each with the letter of that table
            that sorts where the language puts it (Spanish ñ after n: ``{"ñ": "ŋ", "Ñ": "Ŋ"}``, as CLDR's
            Spanish tailoring &N<ñ<<<Ñ; ŋ is the table's letter right after n, and no Spanish word has one).
    """

    __slots__ = (
        "code",
        "locale",
        "name",
        "own_letters",
        "quoted_titles",
        "quotes",
        "script",
        "spaced_punctuation",
        "stemmer",
        "words",
    )

    def __init__(
        self,
        code: str,
        name: str,
        locale: str,
        quotes: tuple[str, str],
        stemmer: str,
        script: str,
        words: Words,
        spaced_punctuation: bool = False,
        quoted_titles: bool = False,
        own_letters: dict[str, str] | None = None,
    ) -> None:
        self.code, self.name, self.locale, self.quotes = code, name, locale, quotes
        self.stemmer, self.script, self.spaced_punctuation = stemmer, script, spaced_punctuation
        self.quoted_titles, self.words = quoted_titles, words
        self.own_letters = str.maketrans(own_letters or {})

    def __repr__(self) -> str:
        return f"Language({self.code!r})"


LANGUAGE_RECORDS: tuple[Language, ...] = (
    Language(
        "en",
        "English",
        "en",
        ("\u201c", "\u201d"),
        "english",
        "latin",
        Words(
            stop="a an and are as at be by for from in into is it its of on or than that the this to with",
            question="about any are can could did do does get gets happen happens have has how i if many me much my"
            " should there they their what whats when where which who why will you your we",
            small_numbers=("one a an", "two", "three"),
            ten="ten",
        ),
    ),
    Language(
        "fr",
        "Français",
        "fr",
        ("\u00ab\u00a0", "\u00a0\u00bb"),
        "french",
        "latin",
        Words(
            stop="à au aux avec ce ces d de des du en est et il l la le les leur leurs ne ou par pas pour qu que qui"
            " sa se ses son sur un une y",
            question="ça cela combien comment dois doit elle faire fait faut je j ma mes moi mon nous on où peut"
            " peuvent peux pourquoi quand quel quelle quelles quels quoi si tu vous",
            small_numbers=("un une", "deux", "trois"),
            ten="dix",
        ),
        spaced_punctuation=True,
    ),
    Language(
        "ru",
        "Русский",
        "ru",
        ("\u00ab", "\u00bb"),
        "russian",
        "cyrillic",
        Words(
            stop="а в во для до за и из или к как ко на не ни о об от по при с со то у что это",
            question="бы будет где его ее если есть же зачем их какая какие каким какое какой когда кто куда ли"
            " меня мне можно мои мой моя мы надо нужно он она они почему происходит сколько ты чем я",
            small_numbers=(
                "один одна одно одного одной одному одним одну одном единицу",
                "два две двух двум двумя",
                "три трёх трём тремя",
            ),
            ten="десять десяти десятка",
        ),
        quoted_titles=True,
    ),
    Language(
        "es",
        "Español",
        "es",
        ("\u00ab", "\u00bb"),
        "spanish",
        "latin",
        Words(
            stop="a al con de del e el en es la las lo los o para por que se su sus u un una unas unos y",
            question="como cómo cual cuál cuales cuáles cuando cuándo cuanto cuánto cuanta cuánta cuantos cuántos"
            " cuantas cuántas debe debo deben donde dónde hace hacer hay me mi mis ocurre pasa puede puedo pueden"
            " puedes qué quien quién quienes quiénes si sí sucede tengo tiene tienen tu tú yo",
            small_numbers=("un una uno", "dos", "tres"),
            ten="diez",
        ),
        own_letters={"ñ": "ŋ", "Ñ": "Ŋ"},
    ),
)
"""Every language, English first: it is the language the rule data is written from."""

BY_CODE = {language.code: language for language in LANGUAGE_RECORDS}

LANGUAGES: tuple[str, ...] = tuple(BY_CODE)
"""The languages' codes, English (the source language, served at the site's root) first."""

SOURCE_LANGUAGE = LANGUAGES[0]
TRANSLATED: tuple[str, ...] = LANGUAGES[1:]
"""Languages translated from English; each of their texts carries a freshness stamp."""

LANGUAGE_NAMES = {language.code: language.name for language in LANGUAGE_RECORDS}
QUOTES = {language.code: language.quotes for language in LANGUAGE_RECORDS}
"""Quotation marks as each language prints them: “…”, « … », «…»."""


def _locale_dir() -> str:
    """Where the catalogs are: a checkout's own top-level ``locales/`` (known by its template, ``messages.pot``),
    else inside the package, where a wheel carries them (``pyproject.toml`` maps ``locales/`` there). The checkout
    comes first, so that compiled catalogs left inside the package by an older layout are never read."""
    package = os.path.dirname(os.path.realpath(__file__))
    checkout = os.path.join(os.path.dirname(package), "locales")
    return checkout if os.path.isfile(os.path.join(checkout, "messages.pot")) else os.path.join(package, "locales")


LOCALE_DIR = _locale_dir()
"""The catalogs: an installed ``kensei-ref`` speaks every language, and so does a checkout. A path as text
(``os.path``), not a :class:`pathlib.Path`: every terminal command reads it, and importing pathlib would
cost each about 3 ms."""


def N_(message: str) -> str:
    """Mark a string for extraction; it is translated when shown, in the reader's language."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message whose words follow a number, as ``ngettext`` takes it (extracted with ``-k Nn_:1,2``);
    :func:`plural_forms` gives its forms to a page's script."""
    return singular, plural


LABELLED = N_("{label}: {text}")
"""A label and what it labels, as the language writes them: French puts a no-break space before the colon.
Every "label: text" the project composes goes through this message."""


def typeset(text: str, lang: str) -> str:
    """``text`` as ``lang`` sets its spaces: French's no-break spaces before ``; : ! ?``, inside « » and
    between a number and its unit (:func:`kensei_ref.typography.french_spacing`); other languages as given.
    Every French text the terminal prints passes here, as every generated French page does."""
    if not BY_CODE[lang].spaced_punctuation:
        return text
    from kensei_ref.typography import french_spacing

    return french_spacing(text)


PLURAL_SAMPLES: tuple[int, ...] = (*range(200), 1_000_000)
"""Counts that meet every plural category of the languages at least once (French's "many" at a million)."""


def plural_forms(lang: str, singular: str, plural: str) -> dict[str, str]:
    """A plural message's forms in ``lang``, by CLDR plural category, for a page's script to choose with
    ``Intl.PluralRules`` (the browser's CLDR rules; the catalog's own rule is gettext's ``Plural-Forms``).

    Each category gets the form the catalog gives its first count, and ``other`` is always there (for a count
    the browser puts in a category the samples never met); tests/test_plurals.py checks that the catalogs'
    ``Plural-Forms`` give every count of a category the same form:

    >>> forms = plural_forms("ru", "costs {cost} combat die but the unit has only {dice}",
    ...                      "costs {cost} combat dice but the unit has only {dice}")
    >>> sorted(forms)
    ['few', 'many', 'one', 'other']
    >>> [forms[category].split(",")[0] for category in ("one", "few", "many")]
    ['стоит {cost} боевой кубик', 'стоит {cost} боевых кубика', 'стоит {cost} боевых кубиков']
    """
    from babel import Locale

    translations = get_translations(lang)
    locale = Locale.parse(BY_CODE[lang].locale)
    forms: dict[str, str] = {}
    for count in PLURAL_SAMPLES:
        forms.setdefault(str(locale.plural_form(count)), translations.ngettext(singular, plural, count))
    forms.setdefault("other", translations.ngettext(singular, plural, PLURAL_SAMPLES[-1]))
    return forms


def check_language(lang: str) -> str:
    """Return ``lang`` when it is one of :data:`LANGUAGES`.

    Raises:
        ValueError: naming the allowed languages.
    """
    if lang not in BY_CODE:
        raise ValueError(f"language: must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    return lang


def site_folder(lang: str) -> str:
    """Where a language's pages lie in the built site: ``""`` for English (the root), ``"fr/"``, ``"ru/"``."""
    return "" if check_language(lang) == SOURCE_LANGUAGE else f"{lang}/"


def up_to_site_root(lang: str) -> str:
    """From a language's own root back to the site's root: ``""`` for English, ``"../"`` for the others."""
    return "../" * site_folder(lang).count("/")


@cache
def _collator() -> pyuca.Collator:
    """The Unicode Collation Algorithm with its default table (DUCET); reading the table takes most of a second,
    so it is read once."""
    import pyuca

    return pyuca.Collator()


def collation_key(lang: str) -> Callable[[str], tuple[int, ...]]:
    """The sort key of ``lang``'s alphabetical order, for headwords (the glossary) and any index.

    Code points put every accented or capital letter after ``z``; the Unicode Collation Algorithm sorts
    letters first, then accents, then case, as dictionaries do. Its default table is already the order of
    French (no tailoring since CLDR dropped backward accents for France) and Russian (ё sorts with е); a
    language whose letters it sorts otherwise names them in its record (:attr:`Language.own_letters`):

    >>> sorted(["Zone", "Étendard", "Bushi", "bâtiment"], key=collation_key("fr"))
    ['bâtiment', 'Bushi', 'Étendard', 'Zone']
    >>> sorted(["Жук", "Ёж", "Еда"], key=collation_key("ru"))
    ['Еда', 'Ёж', 'Жук']
    """
    letters = BY_CODE[check_language(lang)].own_letters
    key: Callable[[str], tuple[int, ...]] = _collator().sort_key
    if not letters:
        return key
    return lambda text: key(text.translate(letters))


class CatalogMissing(LookupError):
    """A translated language's catalog is neither compiled nor there to compile: the reference refuses to
    speak English in its place."""


@cache
def get_translations(lang: str) -> gettext.NullTranslations:
    """The catalog for ``lang``; English (the source language) is the msgids themselves.

    The compiled catalog (``.mo``) when it is there and not older than its ``.po``; else, in a checkout where
    nothing is built yet (``make`` compiles), the ``.po`` compiled in memory with Babel, as ``pybabel compile``
    would. Never English in place of a missing catalog.

    Raises:
        CatalogMissing: when neither file is there, saying in one line what to do.
    """
    check_language(lang)
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    folder = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES")
    compiled, source = os.path.join(folder, "messages.mo"), os.path.join(folder, "messages.po")
    if os.path.isfile(compiled) and not (
        os.path.isfile(source) and os.stat(source).st_mtime > os.stat(compiled).st_mtime
    ):
        with open(compiled, "rb") as handle:
            return gettext.GNUTranslations(handle)
    if os.path.isfile(source):
        return _compile_in_memory(source, lang)
    raise CatalogMissing(
        f"the {BY_CODE[lang].name} catalog is missing ({compiled}): run `make translations` in the checkout, "
        "or reinstall kensei-ref"
    )


def _compile_in_memory(source: str | os.PathLike[str], lang: str) -> gettext.GNUTranslations:
    """A ``.po`` compiled as ``pybabel compile`` compiles it (fuzzy entries left out), without writing a file."""
    from io import BytesIO

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(source, "rb") as handle:
        catalog = read_po(handle, locale=BY_CODE[lang].locale)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)
