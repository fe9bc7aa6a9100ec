"""Counts in words that agree with them: every count the project shows goes through ``ngettext``, and
each of Russian's three plural forms is shown (1 кубик, 2 кубика, 5 кубиков, 21 кубик).

The page's side (calculator.js and units.js choosing among the same forms with ``Intl.PluralRules``) is
checked in Chromium by tests/test_plurals_browser.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po
from cli_capture import run_cli

from calculators import CALCULATORS, CalculatorInputError, Plural
from kensei_ref.cli.advise import other_order_line, too_costly_heading
from kensei_ref.cli.calc import error_line
from kensei_ref.cli.main import main
from kensei_ref.language_context import language_context
from kensei_ref.languages import (
    BY_CODE,
    LANGUAGES,
    LOCALE_DIR,
    PLURAL_SAMPLES,
    TRANSLATED,
    get_translations,
    plural_forms,
)
from kensei_ref.site.benchmarks_page import calculation_label
from kensei_ref.site.calculator_pages import calculator_plurals

COUNTS = (1, 2, 5, 21)
"""One count of each Russian form, and 21, which takes the form of 1 again."""

MELEE = {
    "a_models": 5, "a_wounds": 5, "a_attack": 5, "a_defense": 5, "a_armor": 3, "a_initiative": 3,
    "b_models": 5, "b_wounds": 5, "b_attack": 5, "b_defense": 5, "b_armor": 3, "b_initiative": 3,
}  # fmt: skip
SHOOTING = {"dice": 4, "attack": 6, "defense": 5, "armor": 3}

REFUSALS = {
    # an input each calculator refuses with a message whose words follow a count, and the Russian words for
    # 1, 2, 5 and 21 of them
    "cost": ("melee", {**MELEE, "b_models": 1, "b_wounds": 1, "b_defensive": 1},
             ("боевой кубик", "боевых кубика", "боевых кубиков", "боевой кубик")),
    "reserved": ("planner", {"honors": [5], "general": "hero", "strategic_orders": 1},
                 ("очко командования", "очка командования", "очков командования", "очко командования")),
    "needed": ("shooting", {**SHOOTING, "precision": True, "moved": "march", "multiple_shots": True},
               ("1 очко действия", "2 очка действия", "5 очков действия", "21 очко действия")),
    "most": ("shooting", {"models": 100, "wounds_each": 2, "attack": 6, "defense": 5, "armor": 3,
                          "multiple_shots": True},
             ("1 кубика за залп", "2 кубиков за залп", "5 кубиков за залп", "21 кубика за залп")),
}  # fmt: skip

NOT_A_COUNT = frozenset(
    {"of", "to", "against", "at", "in", "or", "with", "for", "per", "and", "names", "are"}
    | {"saved", "sent", "stored", "needed", "available", "MB"}
    | {"could", "value"}
)
"""Words that may follow a value in a message without agreeing with it: links (``from {0} to {1}``),
participles (``3 needed``), a unit's symbol (``2.5 MB``), argparse's own words after a name (``%(option)s
could match``, ``invalid %(type)s value``); any other word after a value is counted by it."""

PLACEHOLDER_THEN_WORD = re.compile(r"(?:\{(\w+)\}|%\((\w+)\)[sd])\s+([A-Za-z][\w'-]*)")


def _refusal(count_name: str) -> CalculatorInputError:
    calculator, inputs, _ = REFUSALS[count_name]
    with pytest.raises(CalculatorInputError) as caught:
        CALCULATORS[calculator].run(inputs)
    error = caught.value
    assert isinstance(error.message, Plural) and error.message.count == count_name
    return error


def _template_messages():
    with open(Path(LOCALE_DIR) / "messages.pot", "rb") as handle:
        return [message for message in read_po(handle) if message.id]


def test_a_value_followed_by_a_counted_word_is_a_plural_message():
    """A message that writes a noun after a number has a plural entry: ``ngettext`` (or ``Nn_``), never
    ``_``/``N_``, so that Russian can say 2 кубика and 5 кубиков. (tests/test_catalogs.py checks that
    the template holds every message the sources mark.)"""
    singular_counts = [
        (message.id, match[0])
        for message in _template_messages()
        if isinstance(message.id, str)
        for match in PLACEHOLDER_THEN_WORD.finditer(message.id)
        if match[3] not in NOT_A_COUNT
    ]
    assert not singular_counts, f"counts outside ngettext: {singular_counts}"
    plurals = [message.id for message in _template_messages() if isinstance(message.id, tuple)]
    assert len(plurals) >= 15


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogs_plural_rule_gives_each_cldr_category_one_form(lang):
    """The catalog's ``Plural-Forms`` (what Python's ``ngettext`` follows) and CLDR's categories (what the
    page's ``Intl.PluralRules`` follows) split the counts the same way, so the page says what the terminal says."""
    translations = get_translations(lang)
    locale = Locale.parse(BY_CODE[lang].locale)
    index_of: dict[str, set[int]] = {}
    for count in PLURAL_SAMPLES:
        index_of.setdefault(str(locale.plural_form(count)), set()).add(translations.plural(count))  # type: ignore[attr-defined]
    assert all(len(indexes) == 1 for indexes in index_of.values()), index_of
    assert len({index for indexes in index_of.values() for index in indexes}) == (3 if lang == "ru" else 2)


def test_every_russian_plural_entry_has_three_forms_and_21_takes_the_form_of_1():
    with open(Path(LOCALE_DIR) / "ru" / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalog = read_po(handle, locale="ru")
    translations = get_translations("ru")
    entries = [message for message in catalog if isinstance(message.id, tuple)]
    assert entries
    for message in entries:
        assert len(message.string) == 3, message.id
        one, few, many = (translations.ngettext(*message.id, count) for count in (1, 2, 5))
        assert translations.ngettext(*message.id, 21) == one and translations.ngettext(*message.id, 11) == many
        assert (one, few, many) == message.string, message.id


@pytest.mark.parametrize("count_name", REFUSALS)
def test_a_refusal_in_the_terminal_takes_each_russian_form(count_name, capsys):
    """The calculators' own refusal, rendered by the terminal in Russian with 1, 2, 5 and 21 in its count."""
    error = _refusal(count_name)
    expected = REFUSALS[count_name][2]
    for count, words in zip(COUNTS, expected, strict=True):
        again = CalculatorInputError(error.field, error.message, error.related, {**error.values, count_name: count})
        line = error_line("kensei-ref calc", again, "ru")
        assert words in line and f"{count} " in line, line
        assert "{" not in line
    english = error_line("kensei-ref calc", error, "en")
    assert english.endswith(error.describe(lambda name: "--" + name.replace("_", "-")) + "\n")


def test_the_terminal_prints_a_refusal_in_russian_with_its_count_agreeing(capsys):
    argv = ["calc", "melee", "--lang", "ru"]
    argv += [f"--{name.replace('_', '-')}={value}" for name, value in REFUSALS["cost"][1].items()]
    status, out, err = run_cli(main, capsys, *argv)
    assert status == 2 and not out
    assert err == "kensei-ref calc melee: ошибка: --b-defensive: стоит 3 боевых кубика, а у отряда их только 1\n"
    status, _, err = run_cli(main, capsys, *argv[:2], *argv[4:])  # English without --lang
    assert err == "kensei-ref calc melee: error: --b-defensive: costs 3 combat dice but the unit has only 1\n"


def test_the_advisor_in_the_terminal_says_each_russian_form():
    words = ("очко действия", "очка действия", "очков действия", "очко действия")
    russian = language_context("ru")
    for count, word in zip(COUNTS, words, strict=True):
        assert other_order_line("meditation", "kensei.ki", count, russian).endswith(f": {count} {word} [kensei.ki]")
        assert too_costly_heading(count, russian) == f"У отряда {count} {word} — этого мало для:"
    assert (
        other_order_line("meditation", "kensei.ki", 1, language_context("en"))
        == "Meditation (longer spell range): 1 action point [kensei.ki]"
    )
    assert too_costly_heading(2, language_context("en")) == "The unit's 2 action points are not enough for:"
    assert (
        too_costly_heading(0, language_context("fr")) == "L'unité n'a que 0 point d'action, trop peu pour\u00a0:"
    )  # French: 0 is one


def test_the_benchmarks_page_counts_in_words_that_agree():
    russian, english, french = (language_context(lang) for lang in ("ru", "en", "fr"))
    shown = [calculation_label("shooting", count, russian) for count in COUNTS]
    assert shown == ["Стрельба, 1 кубик", "Стрельба, 2 кубика", "Стрельба, 5 кубиков", "Стрельба, 21 кубик"]
    assert calculation_label("melee", 21, russian) == "Ближний бой, 21 против 21 Раны, с броском Инициативы"
    assert calculation_label("planner", 3, russian) == "Планировщик перегруппировки, 3 отряда и 3 очка"
    assert calculation_label("shooting", 1, english) == "Shooting, 1 die"
    assert calculation_label("advisor", 1, french) == "Conseiller d'ordres, 1 contre 1 figurine, tous les ordres"


def test_the_page_gets_every_form_under_its_cldr_category():
    """What calculator.js and units.js choose from: each refusal's forms, by the category Intl.PluralRules names."""
    plurals = calculator_plurals(language_context("ru"))
    for count_name in REFUSALS:
        forms = plurals[_refusal(count_name).msgid]
        assert set(forms) == {"one", "few", "many", "other"}
    forms = plural_forms("fr", "%(count)s unit imported from the file; the units already saved are kept.",
                         "%(count)s units imported from the file; the units already saved are kept.")  # fmt: skip
    assert forms["one"].startswith("%(count)s unité importée") and forms["other"].startswith("%(count)s unités")
    assert set(forms) == {"one", "many", "other"}  # French counts a million apart ("un million de dés")


def test_the_benchmarks_page_shows_the_edit_loop_in_each_language_and_its_units():
    import json
    from pathlib import Path

    from kensei_ref.site.benchmarks_page import benchmarks_page

    docs = Path(__file__).resolve().parent.parent / "docs"
    figures = json.loads((docs / "benchmarks.json").read_text(encoding="utf-8"))
    figures["serve"] = {"measured": "2026-12-01", "first_build_s": 8.79, "reload_s": 2.94, "reload_runs_s": [2.9] * 5}
    english = benchmarks_page(figures, "en")
    assert (
        "## Editing the rules" in english
        and "| From saving a rule file to the page showing it | 2.9\u00a0s |" in english
    )
    assert "Median of 5 saves." in english
    russian = benchmarks_page(figures, "ru")
    assert "| От сохранения файла правил до их показа на странице | 2,9\u00a0с |" in russian
    assert "Медиана по 5 сохранениям." in russian
    assert "\u00a0мс |" in russian and "\u00a0ms |" not in russian
    del figures["serve"]
    assert "make serve" not in benchmarks_page(figures, "fr")


def test_the_benchmarks_pages_terminal_figures_are_a_table_of_their_own():
    """A Markdown table needs a blank line before it, or it reads as the paragraph's text."""
    import json
    from pathlib import Path

    from kensei_ref.site.benchmarks_page import benchmarks_page

    docs = Path(__file__).resolve().parent.parent / "docs"
    figures = json.loads((docs / "benchmarks.json").read_text(encoding="utf-8"))
    for lang in LANGUAGES:
        lines = benchmarks_page(figures, lang).split("\n")
        tables = [i for i, line in enumerate(lines) if line.startswith("| ") and not lines[i - 1].startswith("|")]
        assert tables and all(lines[i - 1] == "" for i in tables), [lines[i - 1] for i in tables]


def test_the_benchmarks_pages_browser_figures_give_their_unit_in_the_pages_language():
    """The engine's start, split into stages, says its unit once, in the page's language, as every figure does."""
    import json
    from pathlib import Path

    from kensei_ref.site.benchmarks_page import benchmarks_page

    docs = Path(__file__).resolve().parent.parent / "docs"
    figures = json.loads((docs / "benchmarks.json").read_text(encoding="utf-8"))
    browser = json.loads((docs / "benchmarks-browser.json").read_text(encoding="utf-8"))
    russian = benchmarks_page(figures, "ru", browser)
    stages = [line for line in russian.split("\n") if line.startswith("| Запуск движка")]
    assert stages and all(re.search(r"\| \d+ / \d+ / [\d\u00a0]+ / \d+ / \d+\u00a0мс \|$", line) for line in stages), (
        stages
    )
    assert " ms" not in russian and "\u00a0ms" not in russian
