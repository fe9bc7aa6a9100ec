"""``kensei-ref advise``: the orders advisor in a terminal.

Your unit and the enemy come from a units file (``--units FILE --mine NAME --enemy NAME``); the
situation's options are generated from the advisor's parameters, as ``calc`` does for each
calculator. The table lists every order sequence the rules allow, best first by ``--objective``,
with the same numbers as the site's page; ``--json`` prints the advisor's JSON contract and
``--why fire,reload,fire`` says why the rules refuse a sequence (or that they allow it).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from calculators import CALCULATORS, CalculatorInputError, RuleValues
from calculators.advisor import (
    OBJECTIVE_LABELS,
    PARAMS,
    TIES,
    WHY_REFUSAL,
    Advice,
    advice_json,
    advise,
    why_refused,
)
from calculators.advisor_odds import Row
from calculators.enemy_reply import REPLY_LABELS
from calculators.orders import ACTION_LABELS, OTHER_ORDER_LABELS, parse_sequence
from kensei_ref.cli.calc import OPTION_REFUSAL, add_param_options, error_line, given_inputs
from kensei_ref.cli.number_cache import give_cached_numbers
from kensei_ref.cli.speech import ACTION
from kensei_ref.cli.units import add_units_options, picked
from kensei_ref.language_context import LanguageContext, language_context
from kensei_ref.languages import LANGUAGES, N_

TERMINAL_WIDTH = 80
"""The table fits this many columns unless ``--wide`` is given: longer rows put their orders on a
line of their own, above their figures."""


def add_advise_arguments(command: argparse.ArgumentParser, _: Callable[[str], str], rest: Sequence[str] = ()) -> None:
    """The ``advise`` command's arguments, their help in the language of ``_``."""
    command.description = _(
        N_("Every order sequence your unit may declare this turn against the enemy, with exact odds.")
    )
    add_units_options(command, _, required=True)
    add_param_options(command, PARAMS, _)
    command.add_argument("--why", metavar=f"{_(ACTION)},{_(ACTION)}", help=_(N_("why the rules refuse this sequence")))
    command.add_argument(
        "--lang", default=argparse.SUPPRESS, metavar="|".join(LANGUAGES), help=_(N_("language of the output"))
    )
    command.add_argument("--json", dest="advise_json", action="store_true", help=_(N_("print the result as JSON")))
    command.add_argument(
        "--wide", action="store_true", help=_(N_("one line a row, however wide (the table fits 80 columns otherwise)"))
    )
    command.set_defaults(func=run_advise)


def run_advise(args: argparse.Namespace) -> int:
    """Print the ranked orders (or the answer to ``--why``); 0, 1 when ``--why`` names a sequence the
    rules refuse, or 2 for a bad input."""
    prog = "kensei-ref advise"
    try:
        lang, rules = args.lang, RuleValues.bundled()
        situation = given_inputs(args, PARAMS, rules)
        give_cached_numbers(lang)
        language = language_context(lang)
        mine, enemy = picked(args, rules)
        assert mine is not None and enemy is not None  # both options are required
        if args.why is not None:
            return _why(args.why, mine, enemy, situation, language, as_json=args.advise_json)
        advice = advise(mine, enemy, situation, rules)
    except CalculatorInputError as error:
        sys.stderr.write(error_line(prog, error, lang))
        return 2
    if args.advise_json:
        sys.stdout.write(json.dumps(advice_json(advice), ensure_ascii=False) + "\n")
    else:
        distance = int(situation["distance"])
        sys.stdout.write(language.typeset(render(advice, mine.name, enemy.name, distance, language, wide=args.wide)))
    return 0


def _why(
    text: str, mine: Any, enemy: Any, situation: dict[str, Any], language: LanguageContext, *, as_json: bool
) -> int:
    _ = language.gettext
    try:
        actions = parse_sequence(text)
    except ValueError:
        raise CalculatorInputError("why", WHY_REFUSAL, values={"names": ", ".join(ACTION_LABELS)}) from None
    found = why_refused(mine, enemy, situation, actions)
    if as_json:  # the reason in English, as the JSON's other words
        reason = None if found is None else found[0].format(**found[1])
        answer = {"advisor": "why", "actions": list(actions), "allowed": found is None, "reason": reason}
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        return 0 if found is None else 1
    sequence = _sequence(actions, _)
    if found is None:
        sys.stdout.write(_("{sequence}: allowed").format(sequence=sequence) + "\n")
        return 0
    reason = _(found[0]).format(**found[1])
    sys.stdout.write(_("{sequence}: not allowed: {reason}").format(sequence=sequence, reason=reason) + "\n")
    return 1


def _sequence(actions: tuple[str, ...], _: Callable[[str], str]) -> str:
    return " → ".join(_(ACTION_LABELS[action]) for action in actions) if actions else _("Nothing")


def render(
    advice: Advice, mine: str, enemy: str, distance: int, language: LanguageContext, *, wide: bool = False
) -> str:
    """The ranked table in ``language``: within :data:`TERMINAL_WIDTH` columns unless ``wide``."""
    _ = language.gettext
    numbers = language.numbers
    title = _("Orders for {mine} against {enemy} at {distance}").format(
        mine=mine, enemy=enemy, distance=numbers.length(distance, "cm", 0)
    )
    lines = [title, "=" * len(title), ""]
    if advice.out_of_the_game:
        return "\n".join([*lines, _("A unit engaged in combat is out of the game: it takes no orders."), ""])
    sorted_by = _("Action points: {points}; sorted by {objective}.").format(
        points=advice.action_points, objective=_(OBJECTIVE_LABELS[advice.objective])
    )
    lines += _wrapped(sorted_by)
    lines += _headline(advice, _, numbers)
    lines += _table(advice, _, numbers, wide)
    lines += ["", *_wrapped(_(TIES))]
    if advice.other_orders and any(advice.points_left(row) for row in advice.rows):
        lines += ["", *_wrapped(_("Points left (column “Left”) may also pay for, when the unit can:"))]
        for name, rule, cost in advice.other_orders:
            lines += _wrapped(other_order_line(name, rule, cost, language), "  ")
    if advice.too_costly:
        lines += ["", *_wrapped(too_costly_heading(advice.action_points, language))]
        for actions, needed in advice.too_costly:
            line = _("{orders} (action points needed: {points})").format(orders=_sequence(actions, _), points=needed)
            lines += _wrapped(line, "  ")
    if advice.left_out:
        lines += ["", *_wrapped(_("Allowed by the rules, but left out: a calculator cannot take them."))]
        for actions, refusal in advice.left_out:
            catalog = language.translations
            line = _("{orders}: {calculator}: {reason}").format(
                orders=_sequence(actions, _),
                calculator=_(CALCULATORS[refusal.calculator].label),
                reason=_(OPTION_REFUSAL).format(
                    option=refusal.error.field, message=refusal.error.describe(str, catalog)
                ),
            )
            lines += _wrapped(line, "  ")
    closing = _(
        "Each row's figures are those of the calculators with the same inputs: kensei-ref advise --json lists them."
    )
    lines += ["", *_wrapped(closing)]
    return "\n".join(lines) + "\n"


def _wrapped(text: str, indent: str = "") -> list[str]:
    """A sentence in lines of at most :data:`TERMINAL_WIDTH` columns (a command is never split)."""
    return textwrap.wrap(
        text, TERMINAL_WIDTH, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False
    )


def _headers(advice: Advice, _: Callable[[str], str]) -> list[str]:
    goal = [f"≥{advice.goal}"] if advice.goal != 1 else []  # "≥1" is already a column
    return [
        _("AP"),
        _("Left"),
        _("Wounds"),
        "≥1",
        *goal,
        _("Destroyed"),
        _("Reach"),
        _("Victory"),
        _("Defeat"),
        _("Taken"),
    ]


def _headline(advice: Advice, _: Callable[[str], str], numbers: Any) -> list[str]:
    """The best orders first, with their figures as "label value" (those that mean something for them)."""
    if not advice.rows:
        return []
    best = advice.rows[0]
    pairs = [
        f"{header}\u00a0{cell}"  # a label and its figure on one line
        for header, cell in zip(_headers(advice, _), _cells(best, advice, numbers), strict=True)
        if cell != "–"
    ]
    line = _("Best: {orders}").format(orders=_sequence(best.actions, _)) + " — " + ", ".join(pairs)
    if best.reply is not None:
        line += " — " + _reply(best, _)
    return ["", *_wrapped(line), ""]


def _reply(row: Row, _: Callable[[str], str]) -> str:
    """The enemy's reply a charge row's figures are for."""
    return _("Enemy's reply: {reply}").format(reply=_(REPLY_LABELS[str(row.reply)]))


def _table(advice: Advice, _: Callable[[str], str], numbers: Any, wide: bool) -> list[str]:
    """One row for each group of sequences with the same odds (the first, which keeps the most, with
    the others named under it), one line each when they fit (or ``wide``); otherwise each row's orders
    on a line of their own ("3. Fire → Charge") above its figures, whose columns then fit on their own."""
    figure_headers = _headers(advice, _)
    rows = [
        (
            str(number),
            _sequence(advice.rows[group[0]].actions, _),
            _cells(advice.rows[group[0]], advice, numbers),
            [_sequence(advice.rows[other].actions, _) for other in group[1:]],
            advice.rows[group[0]],
        )
        for number, group in enumerate(advice.groups, 1)
    ]
    widths = [
        max([len(header), *(len(row[2][column]) for row in rows)]) for column, header in enumerate(figure_headers)
    ]
    index_width = max([1, *(len(row[0]) for row in rows)])
    orders_width = max([len(_("Orders")), *(len(row[1]) for row in rows)])
    gap = "  "

    def figures(cells: list[str]) -> str:
        return gap.join(cell.rjust(width) for cell, width in zip(cells, widths, strict=True))

    def under(others: list[str], row: Row) -> list[str]:
        """The lines under a row: the other orders of its group, and the enemy's reply to its charge."""
        texts = [_("Same odds: {orders}").format(orders=" · ".join(others))] if others else []
        texts += [_reply(row, _)] if row.reply is not None else []
        indent = " " * (index_width + 2)
        return [line for text in texts for line in (_wrapped(text, indent) if not wide else [indent + text])]

    one_line = index_width + 2 + orders_width + 2 + len(figures(figure_headers))
    if wide or one_line <= TERMINAL_WIDTH:
        table = [f"{'#'.rjust(index_width)}  {_('Orders').ljust(orders_width)}  {figures(figure_headers)}".rstrip()]
        for index, orders, cells, others, row in rows:
            table.append(f"{index.rjust(index_width)}  {orders.ljust(orders_width)}  {figures(cells)}".rstrip())
            table += under(others, row)
        return table
    indent = " " * (index_width + 2)
    if len(indent + figures(figure_headers)) > TERMINAL_WIDTH:
        gap = " "  # the figures alone are still too wide in two spaces
    table = [indent + figures(figure_headers)]
    for index, orders, cells, others, row in rows:
        table += [f"{index.rjust(index_width)}. {orders}", indent + figures(cells), *under(others, row)]
    return table


def other_order_line(name: str, rule: str, cost: int, language: LanguageContext) -> str:
    """An order the points a row leaves may pay for, with its cost: "Reload: 1 action point [kensei.reload]"."""
    template = language.ngettext(
        "{order}: {points} action point [{rule}]", "{order}: {points} action points [{rule}]", cost
    )
    return template.format(order=language.gettext(OTHER_ORDER_LABELS[name]), points=cost, rule=rule)


def too_costly_heading(points: int, language: LanguageContext) -> str:
    """The heading of the orders the unit cannot pay for with its ``points``."""
    return language.ngettext(
        "The unit's {points} action point is not enough for:",
        "The unit's {points} action points are not enough for:",
        points,
    ).format(points=points)


def _cells(row: Row, advice: Advice, numbers: Any) -> list[str]:
    """A row's figures: a charge's reach, defeat and Wounds taken where it charges; victory where it
    charges or may destroy the enemy; "–" where a figure has no meaning for the row."""
    charges = row.p_charged is not None
    decides = charges or row.destroyed > 0
    goal = advice.goal
    return [
        str(row.cost),
        str(advice.points_left(row)),
        numbers.decimal(row.expected_dealt),
        numbers.percent(row.at_least(1)),
        *([numbers.percent(row.at_least(goal))] if goal != 1 else []),
        numbers.percent(row.destroyed),
        numbers.percent(row.p_reach) if row.p_reach is not None else "–",
        numbers.percent(row.victory) if decides else "–",
        numbers.percent(row.defeat) if charges else "–",
        numbers.decimal(row.expected_taken) if charges else "–",
    ]
