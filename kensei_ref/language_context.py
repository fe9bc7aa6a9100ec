"""One language's context: its catalog, its numbers, its plural rules, its typography and its
alphabetical order, bound together once and passed down.

A page or a command speaks one language throughout. Rather than each function asking for the
catalog (:func:`~kensei_ref.languages.get_translations`), the number formatter
(:func:`~kensei_ref.numbers.numbers_for`) and the collation key of a language code on its own, the
caller binds them once, as Babel's ``support.Format`` binds a locale, and hands the context down:
a function that takes a :class:`LanguageContext` cannot mix two languages' words and numbers.

The catalog and the formatter are read each time they are used, from the functions that keep one of
each per language, never when the context is made: a terminal command gives the formatter its locale's
data from its cache first (:mod:`kensei_ref.cli.number_cache`), and a lookup by rule number needs neither.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from kensei_ref.languages import LABELLED, QUOTES, check_language, collation_key, get_translations, plural_forms
from kensei_ref.languages import typeset as typeset_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:
    import gettext

    from kensei_ref.numbers import Numbers


class LanguageContext:
    """Everything that depends on the language of a page or a command (see the module's documentation).

    A plain class, not a dataclass: the terminal's search imports neither :mod:`dataclasses` nor
    :mod:`inspect` (tests/test_terminal_cache.py)."""

    __slots__ = ("lang",)

    def __init__(self, lang: str) -> None:
        self.lang = check_language(lang)

    def __repr__(self) -> str:
        return f"LanguageContext({self.lang!r})"

    @property
    def translations(self) -> gettext.NullTranslations:
        """The interface catalog (compiled from its ``.po`` when the ``.mo`` is missing): the one
        :func:`~kensei_ref.languages.get_translations` keeps, read when asked, never a copy of its own."""
        return get_translations(self.lang)

    @property
    def numbers(self) -> Numbers:
        """Numbers, percents and signed values as the language writes them (one formatter per language;
        Babel is imported only here: showing a rule or a search result formats no number)."""
        from kensei_ref.numbers import numbers_for

        return numbers_for(self.lang)

    def gettext(self, message: str) -> str:
        """``message`` in the language (English where the catalog lacks it)."""
        return self.translations.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` as the language writes it in ``context`` (``msgctxt``); without a context, :meth:`gettext`."""
        return self.translations.pgettext(context, message) if context else self.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of a message whose words follow ``count``, by the catalog's plural rule."""
        return self.translations.ngettext(singular, plural, count)

    def plural_forms(self, singular: str, plural: str) -> dict[str, str]:
        """A plural message's forms by CLDR category, for a script (:func:`~kensei_ref.languages.plural_forms`)."""
        return plural_forms(self.lang, singular, plural)

    @property
    def sort_key(self) -> Callable[[str], tuple[int, ...]]:
        """The language's alphabetical order (:func:`kensei_ref.languages.collation_key`)."""
        return collation_key(self.lang)

    def typeset(self, text: str) -> str:
        """``text`` with the language's spaces (French's no-break spaces before ``; : ! ?``)."""
        return typeset_text(text, self.lang)

    def quote(self, text: str) -> str:
        """``text`` between the language's quotation marks: “…”, « … », «…»."""
        opening, closing = QUOTES[self.lang]
        return f"{opening}{text}{closing}"

    def labelled(self, label: str, text: str) -> str:
        """ "label: text" as the language writes it (a no-break space before the colon in French)."""
        return self.gettext(LABELLED).format(label=label, text=text)


@cache
def language_context(lang: str) -> LanguageContext:
    """The context of ``lang``, one per language and process.

    >>> language_context("fr") is language_context("fr")
    True
    >>> language_context("fr").labelled("Coût", "2")
    'Coût\\xa0: 2'

    Raises:
        ValueError: for a language the reference does not have.
    """
    return LanguageContext(lang)
