"""What a page shows of a result: figures, tables and steps as plain JSON, and one entry point for
the browser.

The site renders the default scenario at build time from :func:`present` and the browser renders
every later change from the same function run under Pyodide, so both show the same numbers. Labels
stay English (``N_``); the page translates them with its own catalog.
"""

from __future__ import annotations

import json
from typing import Any

from . import CALCULATORS
from .errors import CalculatorInputError
from .json_nesting import check_nesting
from .params import N_
from .results import to_number

for _name in CALCULATORS:  # the browser imports this module once, and every calculator with it
    CALCULATORS[_name]

SHOWN_FROM = 0.0005
"""Rows of a table are shown while at least this likely (0.05%: below it a percentage reads 0.0%);
the JSON result keeps every outcome."""


def _shown(rows: list[list[float]]) -> list[list[float]]:
    """The rows worth a line: drop the tail whose chance of "at least" is below :data:`SHOWN_FROM`."""
    last = max((i for i, row in enumerate(rows) if row[2] >= SHOWN_FROM), default=0)
    return rows[: last + 1]


def present(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The result of calculator ``name`` for ``inputs``, laid out for display.

    Returns:
        ``{"result": the JSON contract, "figures": [...], "tables": [...], "steps": [...]}``, where a
        figure is ``{key, label, value, kind}`` and a table ``{key, title, outcome_label, rows}`` with
        rows ``[outcome, P(exactly), P(at least)]``.

    Raises:
        CalculatorInputError: when an input is unknown, missing or not allowed.
    """
    result = CALCULATORS[name].evaluate(inputs)
    return {
        "result": result.to_json(),
        "figures": [
            {"key": f.key, "label": f.label, "value": to_number(f.value), "kind": f.kind} for f in result.figures()
        ],
        "tables": [
            {
                "key": t.key,
                "title": t.title,
                "outcome_label": t.outcome_label,
                "rows": _shown(
                    [[k, float(p), float(q)] for k, p, q in zip(t.outcomes, t.exactly, t.at_least, strict=True)]
                ),
            }
            for t in result.tables()
        ],
        "steps": result.steps_json(),
    }


def units_answer(query: dict[str, Any]) -> dict[str, Any]:
    """What the "My units" page, the calculators' unit pickers and the advisor ask of profiles:

    - ``{"units": text}``: the profiles of a units file (JSON text), validated;
    - ``{"fill": {"calculator", "mine", "enemy"}}``: the inputs a calculator takes from two profiles;
    - ``{"advise": {"mine", "enemy", "situation"}}``: the orders advisor's table;
    - ``{"plan": {"units", "table", "objective"}}``: the Command phase plan (:func:`plan_answer`).

    Profiles travel as the units file stores them and are validated again here: the page's storage is
    untrusted as any file is.
    """
    from .advisor import advice_json, advise
    from .profiles import parse_units, read_profile, units_document
    from .unit_inputs import unit_inputs

    if "units" in query:
        return {"units": units_document(parse_units(query["units"]))["units"]}

    def profile(field: str, asked: dict[str, Any]) -> Any:
        value = asked.get(field)
        return None if value is None else read_profile(value, at=f"{field}.")

    if "plan" in query:
        return {"plan": plan_answer(query["plan"])}
    if "fill" in query:
        asked = query["fill"]
        return {"inputs": unit_inputs(asked["calculator"], profile("mine", asked), profile("enemy", asked))}
    asked = query["advise"]
    mine, enemy = profile("mine", asked), profile("enemy", asked)
    if mine is None or enemy is None:
        raise CalculatorInputError("mine" if mine is None else "enemy", N_("is required: a unit of your file"))
    return {"advice": advice_json(advise(mine, enemy, asked.get("situation", {})))}


def plan_answer(asked: dict[str, Any]) -> dict[str, Any]:
    """The Command phase plan's JSON (``kensei-ref plan --json``) for ``{"units", "table", "objective"}``:
    the device's units (as the units file stores them) and the table's state, both validated here."""
    from .command_plan import plan_turn
    from .plan_report import plan_json
    from .profiles import FORMAT, VERSION, read_units
    from .rulebook import RuleValues
    from .table import read_table

    if not isinstance(asked, dict):
        raise CalculatorInputError(
            "plan", N_("must be an object of fields, got {value}"), values={"value": repr(asked)}
        )
    profiles = read_units({"format": FORMAT, "version": VERSION, "units": asked.get("units", [])})
    table = read_table(asked.get("table"), profiles)
    objective = str(asked.get("objective", "expected_wounds"))
    plans = plan_turn(table, objective)
    return plan_json(table, plans, objective, table.commandment_points(RuleValues.bundled()))


def answer(request: str) -> str:
    """The browser's single call: a JSON request ``{"calculator", "inputs"}`` in, JSON out (or one
    of :func:`units_answer`'s requests).

    Inputs travel as data, never as Python source. A bad input comes back as
    ``{"error": {"field", "message", "related", "values"}}`` for the page to show beside its field;
    a message whose words follow a number (:class:`~calculators.errors.Plural`) also names that
    value as ``"count"``, and its ``message`` is the English singular, the catalog's key.
    """
    try:
        check_nesting(request)  # before the parser, whose recursion a deep request overflows in Pyodide
        query = json.loads(request)
        if "calculator" not in query:
            return json.dumps(units_answer(query))
        return json.dumps({"view": present(query["calculator"], query["inputs"])})
    except CalculatorInputError as error:
        return json.dumps({"error": error.as_json()})
