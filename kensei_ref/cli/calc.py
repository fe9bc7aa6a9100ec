"""``kensei-ref calc <calculator>``: the exact calculators in a terminal.

Options are generated from each calculator's parameters (``a_models`` is ``--a-models``, a list
is ``--wounds 2,2,2,1``, a boolean is a flag). ``--json`` prints the JSON contract; otherwise a
table of k, P(exactly k) and P(at least k) with bars, the summary figures and the explained
steps, in the language of ``--lang``. Errors are one line on stderr with exit status 2, naming
the option as typed and what it allows.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from calculators import CALCULATORS, CalculatorInputError, RuleValueMissing, RuleValues
from calculators.choices import SIDE_CHOICES, SIDE_NAMES, choice_label
from calculators.errors import quoted
from calculators.params import N_, Param
from calculators.results import Figure, Result, Step, Table
from kensei_ref.cli.number_cache import give_cached_numbers
from kensei_ref.cli.one_line import escaped, one_line
from kensei_ref.cli.speech import CALCULATOR, written_choices
from kensei_ref.cli.units import add_units_options, picked
from kensei_ref.language_context import LanguageContext, language_context
from kensei_ref.languages import LABELLED, LANGUAGES

BAR_WIDTH = 30
SHOWN_ABOVE = 0.001
"""Rows of a table are shown from the first to the last outcome at least this likely."""

_EIGHTHS = " ▏▎▍▌▋▊▉"


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {one_line(message)}\n")
        raise SystemExit(2)


def option(name: str) -> str:
    """The option for an input: ``a_models`` is ``--a-models``."""
    return "--" + name.replace("_", "-")


def error_line(prog: str, error: CalculatorInputError, lang: str) -> str:
    """The one line a refused input prints: its option, and the rule's objection in ``lang`` (with the
    words that follow a count in the form the count asks for) where the catalog has it, else in English."""
    catalog = language_context(lang).translations if lang in LANGUAGES else None
    _ = catalog.gettext if catalog else str
    message = _(OPTION_REFUSAL).format(option=option(error.field), message=error.describe(option, catalog))
    return one_line(_(ERROR_LINE).format(prog=prog, message=message)) + "\n"


ERROR_LINE = N_("{prog}: error: {message}")
"""A refusal as the terminal prints it, in the words of the user's language."""
OPTION_REFUSAL = N_("{option}: {message}")

OTHER_GAME = N_("must be a unit of {game}: this calculator is for {game}")
"""A unit of the other game named for a calculator: its profile gives the calculator nothing."""
"""What an option refuses (French spaces its colon)."""


def parsed(param: Param, text: str, rules: RuleValues, lang: str) -> Any:
    """The value of ``param`` typed as ``text``, validated.

    Raises:
        CalculatorInputError: naming what the option allows in ``lang``'s words and numbers.
    """
    try:
        return param.parse_text(text, rules)
    except CalculatorInputError as error:
        if error.field != param.name or param.kind == "bool":
            raise
        raise refusal(param, text, rules, lang) from None


def refusal(param: Param, text: str, rules: RuleValues, lang: str) -> CalculatorInputError:
    """What ``param`` allows (:meth:`~calculators.params.Param.refusal`, a template the catalog translates),
    for a value typed as ``text``, its bounds written with ``lang``'s digits."""
    language = language_context(lang if lang in LANGUAGES else "en")
    # English quotes the text as Python does, the others as they quote
    error = param.refusal(rules, repr(text) if language.lang == "en" else language.quote(escaped(text)))
    for bound in ("minimum", "maximum"):
        value = error.values.get(bound)
        if isinstance(value, int):
            error.values[bound] = language.numbers.decimal(value, 0)
    return error


def spoken(lang: str) -> str:
    """``lang`` when the terminal speaks it (``--lang`` is read ahead of the parser, so it is checked here).

    Raises:
        CalculatorInputError: on ``lang``, naming the languages the terminal speaks.
    """
    if lang not in LANGUAGES:
        raise CalculatorInputError("lang", f"must be one of {', '.join(LANGUAGES)}, got {quoted(lang)}")
    return lang


def given_inputs(args: argparse.Namespace, params: Iterable[Param], rules: RuleValues) -> dict[str, Any]:
    """The values of the options given for ``params`` (those left out are absent), each validated.

    Raises:
        CalculatorInputError: for a ``--lang`` the terminal does not speak, or a value ``parsed``
            refuses, in the language asked for.
    """
    lang = spoken(args.lang)
    given: dict[str, Any] = {}
    for param in params:
        raw = getattr(args, _dest(param), None)
        if raw is not None:
            given[param.name] = raw if param.kind == "bool" else parsed(param, raw, rules, lang)
    return given


def _dest(param: Param) -> str:
    return f"calc_{param.name}"


def _metavar(param: Param) -> str:
    """What stands for a number or numbers (a choice's words: :func:`written_choices`)."""
    return "N,N,..." if param.kind == "int_list" else "N"


def add_calc_arguments(calc: argparse.ArgumentParser, _: Callable[[str], str], rest: Sequence[str] = ()) -> None:
    """The ``calc`` command's arguments: one command per calculator, with its options, in the language of ``_``.

    When ``rest`` (the words after ``calc``) names a calculator, only that calculator is imported and
    declared; otherwise all are (``calc --help`` lists them, a wrong name is refused with their names)."""
    calc.description = _("Exact dice probabilities for Kensei and Ronin.")
    commands = calc.add_subparsers(dest="calculator", required=True, metavar=_(CALCULATOR), parser_class=type(calc))
    asked = next((word for word in rest if not word.startswith("-")), None)
    for name in CALCULATORS:
        if asked in CALCULATORS and name != asked:
            continue
        calculator = CALCULATORS[name]
        command = commands.add_parser(calculator.name, help=_(calculator.label), description=_(calculator.label))
        add_param_options(command, calculator.params, _)
        command.add_argument(
            "--lang",
            default=argparse.SUPPRESS,
            metavar="|".join(LANGUAGES),
            help=_("language of the output"),
        )
        command.add_argument("--json", dest="calc_json", action="store_true", help=_("print the result as JSON"))
        add_units_options(command, _)
        command.set_defaults(func=run_calc)


def add_param_options(command: argparse.ArgumentParser, params: Iterable[Param], _: Callable[[str], str]) -> None:
    """One option for each of ``params``, with its label and help in the language of ``_``
    (:func:`label_and_help`)."""
    for param in params:
        help_text = label_and_help(param, _)
        sides = [side for side in param.choices if side in SIDE_CHOICES]
        if sides:  # the help says "your unit"; the option takes its letter
            meanings = (_(LABELLED).format(label=side, text=_(SIDE_CHOICES[side])) for side in sides)
            help_text += " (" + ", ".join(meanings) + ")"
        if param.kind == "bool":
            command.add_argument(
                option(param.name), dest=_dest(param), action="store_true", default=None, help=help_text
            )
        else:
            if param.kind == "choice":
                metavar, listed = written_choices(command, option(param.name), param.choices, _)
                help_text += f"\n{listed}" if listed else ""
            else:
                metavar = _metavar(param)
            command.add_argument(option(param.name), dest=_dest(param), default=None, metavar=metavar, help=help_text)


def label_and_help(param: Param, _: Callable[[str], str]) -> str:
    """An option's help in the language of ``_``: its label (after its side's name, for a two-sided
    calculator), then on a line of its own its help, as the site's forms show them.

    Not "label: help": the help is a sentence of its own, with its capital, and French, Spanish, Russian
    and English write no capital after a colon; nor the help lowered, which would lower the game terms the
    glossary capitalises (Wounds, Attack, Models). The parser's formatter wraps each line on its own.

    >>> from calculators.params import characteristic
    >>> label_and_help(characteristic("attack", "Attack", "A hit needs a higher roll.", ""), str)
    'Attack\\nA hit needs a higher roll.'
    """
    label = f"{_(SIDE_NAMES[param.group])}. {_(param.label)}" if param.group else _(param.label)
    return f"{label}\n{_(param.help)}" if param.help else label


def run_calc(args: argparse.Namespace) -> int:
    """Run the calculator named in ``args`` and print its result; 0, or 2 for a bad input."""
    calculator = CALCULATORS[args.calculator]
    prog = f"kensei-ref calc {calculator.name}"
    try:
        lang, rules = args.lang, RuleValues.bundled()
        given = given_inputs(args, calculator.params, rules)
        give_cached_numbers(lang)
        mine, enemy = picked(args, rules)
        for field, profile in (("mine", mine), ("enemy", enemy)):  # the other game's profile gives nothing
            if profile is not None and profile.game != calculator.game:
                raise CalculatorInputError(field, OTHER_GAME, values={"game": calculator.game.capitalize()})
        if mine is None and enemy is None:  # what merged() makes of no profile, without importing them
            mapping = {name: value for name, value in given.items() if value is not None}
        else:
            from calculators.unit_inputs import merged, unit_inputs

            mapping = merged(calculator.name, unit_inputs(calculator.name, mine, enemy), given)
        result = calculator.evaluate(mapping, rules)
    except CalculatorInputError as error:
        sys.stderr.write(error_line(prog, error, lang))
        return 2
    except RuleValueMissing as error:
        sys.stderr.write(f"{prog}: error: {error}\n")
        return 1
    if getattr(args, "calc_json", False):
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        language = language_context(lang)
        sys.stdout.write(language.typeset(render(result, calculator.label, language)))
    return 0


def render(result: Result, title: str, language: LanguageContext) -> str:
    """The human-readable report of ``result`` in ``language``."""
    _ = language.gettext
    lines = [_(title), "=" * len(_(title)), ""]
    figures = result.figures()
    if figures:
        width = max(len(_(figure.label)) for figure in figures)
        lines += [f"{_(figure.label):<{width}}  {_format(figure, language)}" for figure in figures]
        lines.append("")
    for table in result.tables():
        lines += _render_table(table, language)
        lines.append("")
    if result.steps:
        lines.append(_("How it is computed"))
        lines.append("-" * len(lines[-1]))
        labels = [_step_label(step, language) for step in result.steps]
        width = max(len(label) for label in labels)
        lines += [
            f"{label:<{width}}  {_format(step, language):>10}  [{step.rule}]"
            for label, step in zip(labels, result.steps, strict=True)
        ]
    return "\n".join(lines) + "\n"


def _step_label(step: Step, language: LanguageContext) -> str:
    _ = language.gettext
    label = _(step.label).format(**{name: language.numbers.decimal(number, 0) for name, number in step.label_numbers})
    return language.labelled(_(SIDE_NAMES[step.group]), label) if step.group else label


def _format(item: Step | Figure, language: LanguageContext) -> str:
    value = item.value
    if isinstance(value, str):  # a sentence, or a choice's value in its field's words (as the forms show it)
        return language.pgettext(*choice_label(item.key, value))
    # as the calculator's page writes it, but for a length, whose label names its unit: "Distance (cm)"
    return language.numbers.figure(value, item.kind)


def _render_table(table: Table, language: LanguageContext) -> list[str]:
    _ = language.gettext
    numbers = language.numbers
    shown = [i for i, p in enumerate(table.exactly) if p >= SHOWN_ABOVE] or [0]
    rows = range(shown[0], shown[-1] + 1)
    tallest = max(table.exactly)
    headers = (_(table.outcome_label), _("exactly"), _("at least"))
    outcomes = {i: numbers.decimal(table.outcomes[i], 0) for i in rows}
    outcome_width = max(len(headers[0]), *(len(outcome) for outcome in outcomes.values()))
    lines = [_(table.title), f"{headers[0]:>{outcome_width}}  {headers[1]:>9}  {headers[2]:>9}"]
    for i in rows:
        exactly, at_least = table.exactly[i], table.at_least[i]
        lines.append(
            f"{outcomes[i]:>{outcome_width}}  {numbers.percent(exactly):>9}  "
            f"{numbers.percent(at_least):>9}  {_bar(exactly / tallest if tallest else 0)}"
        )
    if len(rows) < len(table.outcomes):
        share = numbers.percent(SHOWN_ABOVE)
        lines.append(_("(outcomes less likely than {share} are not shown)").format(share=share))
    return lines


def _bar(share: Fraction | float) -> str:
    eighths = round(float(share) * BAR_WIDTH * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")
