"""``kensei-ref plan``: the Command phase plan in a terminal.

Your units file (``--units``) and the table's state this turn (``--table``, a ``kensei-ref/table`` file)
give the plan: the commandment points and every ready unit's orders, best first by ``--objective``, with
the same figures as ``--json`` (the plan's JSON contract) and the orders advisor's rows.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from calculators import CalculatorInputError, RuleValues
from calculators.command_plan import OBJECTIVES, PLAN_OBJECTIVE_LABELS, plan_turn
from calculators.enemy_reply import REPLY_LABELS
from calculators.orders import ACTION_LABELS
from calculators.plan_report import plan_json
from calculators.table import parse_table
from kensei_ref.cli.calc import error_line, spoken
from kensei_ref.cli.number_cache import give_cached_numbers
from kensei_ref.cli.speech import FILE, written_choices
from kensei_ref.cli.units import read_file, read_json_file
from kensei_ref.language_context import LanguageContext, language_context
from kensei_ref.languages import LANGUAGES, N_

TERMINAL_WIDTH = 80


def add_plan_arguments(command: argparse.ArgumentParser, _: Callable[[str], str], rest: Sequence[str] = ()) -> None:
    """The ``plan`` command's arguments, their help in the language of ``_``."""
    command.description = _(N_("The Command phase: commandment points and every ready unit's orders, with exact odds."))
    command.add_argument(
        "--units", dest="units_file", metavar=_(FILE), required=True, help=_(N_("your units file (JSON)"))
    )
    command.add_argument(
        "--table", dest="table_file", metavar=_(FILE), required=True, help=_(N_("the table's state (JSON)"))
    )
    metavar, listed = written_choices(command, "--objective", OBJECTIVES, _)
    command.add_argument(
        "--objective",
        choices=OBJECTIVES,
        metavar=metavar,
        default="expected_wounds",
        help="\n".join(filter(None, [_(N_("what the best plan maximises")), listed])),
    )
    command.add_argument(
        "--lang", default=argparse.SUPPRESS, metavar="|".join(LANGUAGES), help=_(N_("language of the output"))
    )
    command.add_argument("--json", dest="plan_json", action="store_true", help=_(N_("print the result as JSON")))
    command.set_defaults(func=run_plan)


def run_plan(args: argparse.Namespace) -> int:
    """Print the plans, the best first; 0, or 2 for a bad input (one line)."""
    lang, rules = args.lang, RuleValues.bundled()
    try:
        spoken(lang)
        give_cached_numbers(lang)
        profiles = read_file(args.units_file, rules, lang)
        table = read_json_file(args.table_file, "table", lambda text: parse_table(text, profiles, rules), lang)
        plans = _planned(table, args, rules)
    except CalculatorInputError as error:
        sys.stderr.write(error_line("kensei-ref plan", error, lang))
        return 2
    report = plan_json(table, plans, args.objective, table.commandment_points(rules))
    if args.plan_json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
    else:
        language = language_context(lang)
        sys.stdout.write(language.typeset(render(report, language)))
    return 0


def _planned(table: Any, args: argparse.Namespace, rules: RuleValues) -> Any:
    """The plans; a refusal here is of something the table file gives (its fields, a pair of units the
    orders advisor refuses), so it is one on ``table``, naming the file and the field inside it."""
    try:
        return plan_turn(table, args.objective, rules)
    except CalculatorInputError as error:
        inner = {"file": repr(args.table_file), "field": error.field}
        inner["message"] = error.describe(str, language_context(args.lang).translations)
        raise CalculatorInputError("table", N_("{file}: {field}: {message}"), values=inner) from None


def render(report: dict[str, Any], language: LanguageContext) -> str:
    """The plans in ``language``, within :data:`TERMINAL_WIDTH` columns: the best in full, the others shorter."""
    _ = language.gettext
    objective = report["objective"]
    label = _(PLAN_OBJECTIVE_LABELS[objective])
    title = _("Command phase plan")
    lines = [title, "=" * len(title), ""]
    lines += _wrapped(
        _("Commandment points: {points}; sorted by {objective}.").format(
            points=report["commandment_points"], objective=label
        )
    )
    for number, plan in enumerate(report["plans"]):
        heading = _("Best plan") if number == 0 else _("Other plan {number}").format(number=number)
        lines += ["", heading, "-" * len(heading)]
        lines += _score_lines(plan, objective, language)
        lines += _plan_lines(plan, language, full=number == 0)
    lines += ["", *_wrapped(_("Each figure is that of the orders advisor and the calculators: --json lists them."))]
    return "\n".join(lines) + "\n"


def _score_lines(plan: dict[str, Any], objective: str, language: LanguageContext) -> list[str]:
    """The plan's figure by the objective the plans are sorted by (the units expected to regroup, which
    sort the plans of that objective, are in the next line)."""
    if objective == "regrouped":
        return []
    _ = language.gettext
    value = 0.0 - plan["score"] if objective == "fewest_taken" else plan["score"]  # never -0
    return _wrapped(_("Score: {score}").format(score=language.numbers.decimal(value)))


NOTHING_SPENT = N_("No unit is fleeing, and no commandment points are spent.")
"""The plan's points when it spends none and no unit flees, rather than "at most 0; units expected to regroup: 0"
(the plan page says the same: kensei_ref/site/plan_page.py)."""


def nothing_spent(plan: dict[str, Any]) -> bool:
    """Whether a plan spends no commandment point and has no fleeing unit to regroup (plan.js asks the same)."""
    return not plan["commandment_points_spent"] and not plan["regroup"]


def _points_line(plan: dict[str, Any], language: LanguageContext) -> str:
    _ = language.gettext
    if nothing_spent(plan):
        return _(NOTHING_SPENT)
    return _("Commandment points spent: at most {points}; units expected to regroup: {regrouped}.").format(
        points=plan["commandment_points_spent"], regrouped=language.numbers.decimal(plan["expected_regrouped"])
    )


def _plan_lines(plan: dict[str, Any], language: LanguageContext, *, full: bool) -> list[str]:
    _ = language.gettext
    numbers = language.numbers
    lines = _wrapped(_points_line(plan, language))
    for order in plan["strategic_orders"]:
        lines += _wrapped(
            _("Strategic order: {unit} at {target} (Ki roll {chance})").format(
                unit=order["unit"], target=order["target"], chance=numbers.percent(order["p_ki"])
            ),
            "  ",
        )
    if plan["taisho_ability_cost"]:
        lines += _wrapped(
            _("Units expected to regroup lost by keeping the points of a Taisho ability: {regrouped}.").format(
                regrouped=numbers.decimal(plan["taisho_ability_cost"])
            ),
            "  ",
        )
    for regroup in plan["regroup"]:
        template = language.ngettext(
            "Regroup {unit}: up to {attempts} attempt, regroups {chance}",
            "Regroup {unit}: up to {attempts} attempts, regroups {chance}",
            regroup["attempts"],
        )
        text = template.format(
            unit=regroup["unit"], attempts=regroup["attempts"], chance=numbers.percent(regroup["p_regroup"])
        )
        lines += _wrapped(text, "  ")
    if full:
        lines += ["", *_wrapped(_("Orders, one unit after the other as they are declared:"))]
    for order in plan["orders"]:
        lines += _wrapped(_order_line(order, _), "  ")
    if not full:
        return lines
    lines += ["", *_wrapped(_("Each enemy, under all the units that chose it:"))]
    for enemy in plan["enemies"]:
        text = _("{unit}: Wounds {wounds}, destroyed {destroyed}, victory {victory}, Wounds taken {taken}").format(
            unit=enemy["unit"],
            wounds=numbers.decimal(enemy["expected_wounds"]),
            destroyed=numbers.percent(enemy["p_destroyed"]),
            victory=numbers.percent(enemy["victory"]),
            taken=numbers.decimal(enemy["expected_taken"]),
        )
        reply = enemy["reply"]
        if reply:
            words = REPLY_LABELS[reply]
            text += " — " + _("Enemy's reply: {reply}").format(reply=_(words))
        lines += _wrapped(text, "  ")
    return lines


def _order_line(order: dict[str, Any], _: Callable[[str], str]) -> str:
    actions = " → ".join(_(ACTION_LABELS[action]) for action in order["actions"])
    return _("{unit} → {target}: {orders}").format(unit=order["unit"], target=order["target"], orders=actions)


def _wrapped(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(
        text, TERMINAL_WIDTH, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False
    )
