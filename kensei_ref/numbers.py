"""Numbers as each language writes them: one formatter per locale, built on Babel.

Every number the project shows (rule values, the quick reference, calculator results, the digest,
the benchmarks page, the terminal) goes through :func:`numbers_for`. The decimal separator, the
group separator and the place of the percent sign come from the locale's CLDR patterns through
``babel.numbers``, never from code. Like ``babel.support.Format``, a :class:`Numbers` is bound to
one locale; it adds what the pages need beyond it: signed values, lengths, the browser's symbols.

One choice is the project's own: where CLDR writes a negative number with the ASCII hyphen-minus
(as it does for English, French, Russian and Spanish), the pages print the true minus sign U+2212, as
rulebooks do; a locale whose CLDR minus is something else keeps its own.

Lengths keep the way the rules write them: centimetres with the unit's symbol in the reader's
language after a no-break space (10 cm, 10 см), inches with a double prime (6″).

The browser cannot run Babel: the numbers it recomputes are written by ``assets/js/numbers.js`` from
the facts :meth:`Numbers.symbols` exports into each page (separators, signs, the percent's pattern),
with Babel's rounding, so that the build's figures and the browser's are the same text.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import cache

from babel import Locale, __version__
from babel.localedata import LocaleDataDict
from babel.numbers import (
    NumberPattern,
    format_decimal,
    format_percent,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
    get_plus_sign_symbol,
    parse_pattern,
)

from kensei_ref.languages import BY_CODE, N_, check_language, get_translations

TYPOGRAPHIC_MINUS = {"-": "\u2212"}
"""The hyphen-minus CLDR uses as a stand-in, replaced by the true minus sign."""

UNIT_SPACE = "\u00a0"
"""Between a number and its unit's symbol: a no-break space, so that 10 cm never breaks."""

CENTIMETRES = N_("cm")
"""The centimetre's symbol, translated (см in Russian)."""

INCH_MARK = "\u2033"
"""Inches as the Ronin rules write them, straight after the number: 6″."""

PERCENT_DIGITS = 1
"""Probabilities are shown with at most one decimal, as Babel writes a percent otherwise: 12.5%, 60%."""

FIGURE_DIGITS = 3
"""A calculator's other figures (expected Wounds, models, dice) with at most three decimals: 1.235."""

Number = int | float | Fraction | Decimal


class Numbers:
    """Decimals, percents, signed values and lengths in the conventions of one language.

    Build it with :func:`numbers_for`, which shares one instance per language (treat it as read-only).

    >>> en, fr, ru = numbers_for("en"), numbers_for("fr"), numbers_for("ru")
    >>> en.decimal(1234.5), fr.decimal(1234.5), ru.decimal(1234.5)
    ('1,234.5', '1\\u202f234,5', '1\\xa0234,5')
    """

    def __init__(self, lang: str) -> None:
        self.lang = check_language(lang)
        given = _GIVEN_DATA.pop(lang, None)
        self.locale = _NumberLocale(BY_CODE[lang].locale, given) if given else Locale.parse(BY_CODE[lang].locale)
        self.minus = self._minus_sign()
        decimal = self.locale.decimal_formats[None].pattern
        self._decimal_pattern = self._negative(decimal)
        self._signed_pattern = self._negative(decimal, positive_prefix=get_plus_sign_symbol(self.locale))
        percent = self._negative(self.locale.percent_formats[None].pattern)
        self._percent = self._digits(percent, 0, PERCENT_DIGITS)
        self._centimetres = get_translations(lang).gettext(CENTIMETRES)

    def __repr__(self) -> str:
        return f"numbers_for({self.lang!r})"

    def decimal(self, value: Number, digits: int = 2) -> str:
        """A number with at most ``digits`` decimals (trailing zeros dropped), grouped by thousands.

        >>> en, fr, ru = numbers_for("en"), numbers_for("fr"), numbers_for("ru")
        >>> en.decimal(0.8996), fr.decimal(0.8996), ru.decimal(0.8996)
        ('0.9', '0,9', '0,9')
        >>> en.decimal(-1.25, 1), fr.decimal(-1.25, 1), ru.decimal(-1.25, 1)
        ('\\u22121.2', '\\u22121,2', '\\u22121,2')
        >>> en.decimal(100000, 0), fr.decimal(100000, 0), ru.decimal(100000, 0)
        ('100,000', '100\\u202f000', '100\\xa0000')
        >>> en.decimal(3), ru.decimal(-3)
        ('3', '\\u22123')
        """
        return format_decimal(_exact(value), self._digits(self._decimal_pattern, 0, digits), self.locale)

    def percent(self, probability: Number, digits: int = PERCENT_DIGITS) -> str:
        """A probability as a percentage with at most ``digits`` decimals, the percent sign where the locale puts it.

        The same as the rule texts write a percent (60 %): a round percent has no decimal.

        >>> numbers_for("en").percent(0.125), numbers_for("fr").percent(0.125), numbers_for("ru").percent(0.125)
        ('12.5%', '12,5\\xa0%', '12,5\\xa0%')
        >>> numbers_for("en").percent(0.6), numbers_for("fr").percent(0.6), numbers_for("ru").percent(0.6)
        ('60%', '60\\xa0%', '60\\xa0%')
        >>> numbers_for("en").percent(1), numbers_for("fr").percent(0.001), numbers_for("ru").percent(-0.05)
        ('100%', '0,1\\xa0%', '\\u22125\\xa0%')

        Like every number here, the decimal text of the value is rounded half to even (Babel's
        rounding), which the browser's script repeats: 6.25% is 6.2%.

        >>> numbers_for("en").percent(0.0625), numbers_for("en").percent(0.0675)
        ('6.2%', '6.8%')
        """
        pattern = self._percent if digits == PERCENT_DIGITS else self._digits(self._percent, 0, digits)
        return format_percent(_exact(probability), pattern, self.locale)

    def signed(self, value: Number, digits: int = 2) -> str:
        """A modifier as players write it: +1, −2 (true minus sign), and 0 with no sign.

        >>> en, fr, ru = numbers_for("en"), numbers_for("fr"), numbers_for("ru")
        >>> en.signed(1), en.signed(-1), en.signed(0)
        ('+1', '\\u22121', '0')
        >>> fr.signed(2), fr.signed(-2), fr.signed(0.5)
        ('+2', '\\u22122', '+0,5')
        >>> ru.signed(3), ru.signed(-1.5), ru.signed(0)
        ('+3', '\\u22121,5', '0')
        """
        if value == 0:
            return self.decimal(0)
        return format_decimal(_exact(value), self._digits(self._signed_pattern, 0, digits), self.locale)

    def figure(self, value: Number, kind: str) -> str:
        """A calculator's figure or step of ``kind`` (:mod:`calculators.presentation`), the same on its page,
        in the terminal and in the page's script: a probability as a percent, a modifier signed, any
        other number with at most :data:`FIGURE_DIGITS` decimals.

        >>> fr = numbers_for("fr")
        >>> fr.figure(0.6, "probability"), fr.figure(-1, "modifier"), fr.figure(1.23456, "expected")
        ('60\\xa0%', '\\u22121', '1,235')
        """
        if kind == "probability":
            return self.percent(value)
        if kind == "modifier":
            return self.signed(value)
        return self.decimal(value, FIGURE_DIGITS)

    def length(self, value: Number, unit: str, digits: int = 1) -> str:
        """A distance as the rules write it: ``cm`` with the translated symbol, ``in`` with a double prime.

        >>> numbers_for("en").length(10, "cm"), numbers_for("fr").length(2.5, "cm"), numbers_for("ru").length(10, "cm")
        ('10\\xa0cm', '2,5\\xa0cm', '10\\xa0см')
        >>> numbers_for("en").length(6, "in"), numbers_for("fr").length(6, "in"), numbers_for("ru").length(1.5, "in")
        ('6″', '6″', '1,5″')

        Raises:
            ValueError: for a unit other than ``cm`` and ``in``.
        """
        if unit == "cm":
            return self.quantity(value, self._centimetres, digits)
        if unit == "in":
            return self.decimal(value, digits) + INCH_MARK
        raise ValueError(f"unit: must be cm or in, got {unit!r}")

    def quantity(self, value: Number, symbol: str, digits: int = 1) -> str:
        """A number and a unit's symbol (already in the reader's language) joined by a no-break space.

        >>> numbers_for("en").quantity(12.34, "ms"), numbers_for("fr").quantity(1536, "KiB", 0)
        ('12.3\\xa0ms', '1\\u202f536\\xa0KiB')
        """
        return f"{self.decimal(value, digits)}{UNIT_SPACE}{symbol}"

    def symbols(self) -> dict[str, str | int | list[int]]:
        """What the browser's script (``assets/js/numbers.js``) needs to write numbers as this class does,
        ready for JSON: the locale's separators, minus and plus signs, the percent sign's place, the
        sizes of digit groups and the most decimals of a percent.

        The script rounds as Babel does (the value's shortest decimal text, half to even) and joins
        the digits with these symbols, so that a page's figures read the same whether the build or the
        browser wrote them (``tests/test_numbers_browser.py`` compares them in Chromium).

        >>> numbers_for("fr").symbols() == {"decimal": ",", "group": "\\u202f", "grouping": [3, 3],
        ...     "minus": "\\u2212", "plus": "+", "percent_prefix": "", "percent_suffix": "\\xa0%",
        ...     "percent_digits": 1, "figure_digits": 3, "unit_space": "\\xa0"}
        True
        """
        if self._percent.grouping != self._decimal_pattern.grouping:
            raise ValueError(f"{self.lang}: percents and decimals group digits differently; numbers.js cannot")
        return {
            "decimal": get_decimal_symbol(self.locale),
            "group": get_group_symbol(self.locale),
            "grouping": list(self._decimal_pattern.grouping),
            "minus": self.minus,
            "plus": get_plus_sign_symbol(self.locale),
            "percent_prefix": self._percent.prefix[0],
            "percent_suffix": self._percent.suffix[0],
            "percent_digits": PERCENT_DIGITS,
            "figure_digits": FIGURE_DIGITS,
            "unit_space": UNIT_SPACE,
        }

    def _minus_sign(self) -> str:
        symbol = get_minus_sign_symbol(self.locale)
        return TYPOGRAPHIC_MINUS.get(symbol, symbol)

    def _negative(self, pattern: str, positive_prefix: str = "") -> NumberPattern:
        """A CLDR pattern whose negative form starts with :attr:`minus` (where CLDR puts its own minus)."""
        return parse_pattern(f"{positive_prefix}{pattern};{self.minus}{pattern}")

    @staticmethod
    def _digits(pattern: NumberPattern, least: int, most: int) -> NumberPattern:
        """The pattern with between ``least`` and ``most`` decimals."""
        return NumberPattern(
            pattern.pattern,
            pattern.prefix,
            pattern.suffix,
            pattern.grouping,
            pattern.int_prec,
            (least, most),
            pattern.exp_prec,
            pattern.exp_plus,
            pattern.number_pattern,
        )


def _exact(value: Number) -> float | int | Decimal:
    """A fraction as the float it is closest to (Babel reads numbers through their decimal text)."""
    return float(value) if isinstance(value, Fraction) else value


@cache
def numbers_for(lang: str) -> Numbers:
    """The formatter of ``lang`` (one per language).

    >>> numbers_for("ru") is numbers_for("ru")
    True
    """
    return Numbers(lang)


# -- the locale's number data, given from a cache -----------------------------------------------
#
# Reading a locale's CLDR data makes Babel unpickle the whole of it (names of languages, dates,
# currencies: it imports babel.dates to do so), about 10 ms of a terminal command that formats a few
# numbers. The terminal keeps the little that numbers are written with (number_data) in its cache
# and gives it back (give_number_data) before the first numbers_for; Babel formats as ever.

NUMBER_DATA_FORMAT = f"kensei-ref numbers 1, Babel {__version__}"
"""Names what :func:`number_data` holds: data stored by another Babel is not given back."""

_GIVEN_DATA: dict[str, dict[str, object]] = {}


def number_data(lang: str) -> dict[str, object]:
    """What :class:`Numbers` reads of ``lang``'s locale, as plain strings (for a cache): the Latin
    digits' symbols and the decimal and percent patterns.

    >>> number_data("fr")["percent"]
    '#,##0\xa0%'
    """
    locale = Locale.parse(BY_CODE[check_language(lang)].locale)
    return {
        "format": NUMBER_DATA_FORMAT,
        "symbols": dict(locale.number_symbols["latn"].items()),
        "decimal": locale.decimal_formats[None].pattern,
        "percent": locale.percent_formats[None].pattern,
    }


def give_number_data(lang: str, data: object) -> bool:
    """Let :func:`numbers_for` build ``lang``'s formatter from ``data`` (what :func:`number_data` gave,
    read back from a cache) instead of Babel's full locale data; False, and nothing given, when
    ``data`` is not of that form or of this Babel."""
    if not (
        isinstance(data, dict)
        and data.get("format") == NUMBER_DATA_FORMAT
        and isinstance(data.get("symbols"), dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in data["symbols"].items())
        and all(isinstance(data.get(key), str) for key in ("decimal", "percent"))
    ):
        return False
    _GIVEN_DATA[check_language(lang)] = data
    return True


class _NumberLocale(Locale):
    """A Babel locale that holds only its number data (:func:`number_data`): Babel's functions take it
    as any locale, and read nothing else of it."""

    def __init__(self, identifier: str, data: dict[str, object]) -> None:
        parsed = Locale.parse(identifier)
        super().__init__(parsed.language, parsed.territory, parsed.script, parsed.variant)
        self._number_data = LocaleDataDict(
            {
                "number_symbols": {"latn": data["symbols"]},
                "decimal_formats": {None: parse_pattern(str(data["decimal"]))},
                "percent_formats": {None: parse_pattern(str(data["percent"]))},
            }
        )

    @property
    def _data(self) -> LocaleDataDict:
        return self._number_data
