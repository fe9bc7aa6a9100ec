"""The calculator pages: a form generated from each calculator's parameters, and the default
scenario's result computed at build time so that numbers show before (and without) JavaScript.

The page carries, as JSON, everything its script needs: the parameters, the translated labels and
messages, the links to the rules, and the default result; the same Python then runs in the browser
(under Pyodide, in a Web Worker) for every change.
"""

from __future__ import annotations

import html
import json
import posixpath
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.extract import extract_from_dir

import calculators
from calculators import CALCULATORS
from calculators.choices import CHOICE_LABELS, SIDE_NAMES, choice_label
from calculators.presentation import present
from kensei_ref.language_context import LanguageContext
from kensei_ref.languages import N_, QUOTES
from kensei_ref.rules.model import RuleBook
from kensei_ref.site import ENGINE_FOLDER, inline_script
from kensei_ref.site.pages import (
    GAME_NAMES,
    PageContext,
    environment,
    example_key,
    example_origin,
    note_anchor,
)
from kensei_ref.site.unit_pickers import picker_data

CALCULATOR_DIR = "calculators"
INDEX_PAGE = f"{CALCULATOR_DIR}/index.md"

ENGINE_READY_EVENT = "kensei:engine-ready"
"""The CustomEvent calculator.js fires on ``document`` once the page's engine has started; its detail
is ``{calculator, readyAt, startMs}`` (the comment at the top of calculator.js says what each is)."""
ENGINE_STATE = "data-engine-state"
"""The calculator root's attribute that says where the engine is: loading, ready, failed, unavailable."""
RESULT_STATE = "data-state"
"""A result's attribute: fresh, computing, stale or empty (see calculator.js)."""

DEFAULT_SCENARIOS: dict[str, dict[str, Any]] = {
    "shooting": {"models": 7, "wounds_each": 1, "attack": 6, "defense": 5, "armor": 3},
    "melee": {
        "a_models": 5, "a_wounds": 5, "a_attack": 6, "a_defense": 5, "a_armor": 3, "a_initiative": 4,
        "b_models": 5, "b_wounds": 5, "b_attack": 6, "b_defense": 5, "b_armor": 3, "b_initiative": 4,
    },
    "regroup": {"honor": 6},
    "planner": {"general": "taisho", "honors": [6, 5, 4]},
    "charge": {"dice": "1d10", "distance": 6},
    "movement": {"unit_type": "infantry", "running": True, "penalty_cm": 2},
    "spells": {"levels": [1, 3, 4], "onmyouiji_level": 3},
    "morale": {"morale": 7},
    "morale-states": {"morale": 7, "start": "wavering", "turns": 3},
    "rank-test": {"rank": 2, "state": "wavering"},
    "drowning": {"heavy_armour": False},
}  # fmt: skip
"""What each calculator page shows before the player changes anything (a typical table situation)."""


UI = {
    "loading": N_(
        "Exact results for the scenario below. The calculator is loading; every change will be "
        "recomputed as soon as it is ready."
    ),
    "ready": N_("Ready: every change is recomputed at once."),
    "failed": N_("The calculator could not start in this browser; the results shown are for the scenario they name."),
    "stale": N_("These results are for the last valid inputs; correct the highlighted field."),
    "computing": N_("Not yet for these inputs: computing…"),
    "stage_download": N_("Engine: downloading…"),
    "stage_start": N_("Engine: starting…"),
    "loading_other": N_("The calculator is loading; the figures below are not yet for these inputs."),
    "more": N_("Modifiers and options"),
    "offline_file": N_("The calculator needs the page to be served over HTTP; here it shows its default results."),
    "required": N_("This value is needed."),
    "needed_with": N_("This value is needed with %(field)s."),
    "link_choice": N_("The link gives %(value)s, which is not one of the choices; the default is shown."),
    "int": N_("Enter a whole number from %(minimum)s to %(maximum)s."),
    "int_list": N_("Enter whole numbers from %(minimum)s to %(maximum)s, separated by commas."),
    "rules": N_("Not allowed by the rules: %(message)s"),
    "compare": N_("Compare with a second scenario"),
    "uncompare": N_("Remove the second scenario"),
    "difference": N_("Difference (second − first)"),
    "share": N_("Link to these inputs"),
    "copied": N_("Link copied"),
    "exactly": N_("Exactly"),
    "at_least": N_("At least"),
    "first": N_("First scenario"),
    "second": N_("Second scenario"),
    "chart": N_("Chart"),
    "chart_title": N_("%(table)s: chance of at least N, for each N"),
    "pair": N_("%(label)s: %(value)s"),
    "steps": N_("How it is worked out"),
}
"""Interface strings of the calculator pages, translated into the page's language for its script."""

LINK_ONE_OF: dict[str, list[tuple[str, ...]]] = {
    "shooting": [("dice", "wounds", "models", "wounds_each")],
    "charge": [("dice", "unit_type")],
}
"""Inputs of which the calculator takes one way of giving (shooting: dice, or Wounds, or models): a link
that gives none of them takes the page's default for them (names the calculator lacks are skipped)."""

LINK_COMPANIONS: dict[str, dict[str, tuple[str, int]]] = {
    "shooting": {"wounds_each": ("models", 1)},
}
"""An input a link may leave out when it gives its partner: its value then (shooting: models given
without their Wounds each are models of one Wound, one die each, as most units' are)."""

TOGETHER: dict[str, list[tuple[str, ...]]] = {
    "shooting": [("models", "wounds_each")],
    "spells": [("caster_ki", "difficulty")],
}
"""Optional inputs the calculator takes together or not at all (shooting: the models and the Wounds each
has): the form says at once that an empty one is needed with the other given, as it says of a required
input left empty, rather than waiting for the engine's refusal (tests check that the engine refuses each
alone)."""

GROUP_TITLES = {**SIDE_NAMES, "": ""}

OCCASIONAL: dict[str, frozenset[str]] = {
    "shooting": frozenset({"dice", "wounds", "precision", "second_shot", "multiple_shots", "shooter_in",
                           "target_in_water", "damage_rule", "defense_rule"}),
    "melee": frozenset({f"{side}_{name}" for side in "ab"
                        for name in ("in_water", "defensive", "extra_dice", "counter_charge")}
                       | {"first", "defense_rule"}),
}  # fmt: skip
"""Inputs a player changes only now and then: on a narrow screen they fold under "Modifiers and
options" (open as soon as one of them differs from its default, or holds an error)."""


@cache
def _calculator_messages() -> tuple[str | tuple[str, ...], ...]:
    """Every message marked in the calculators: a string (``N_``), or a singular and plural (``Nn_``)."""
    root = Path(calculators.__file__).resolve().parent
    return tuple(
        message
        for _, _, message, _, _ in extract_from_dir(
            str(root), method_map=[("**.py", "python")], keywords={"N_": None, "Nn_": (1, 2)}
        )
    )


def calculator_strings() -> frozenset[str]:
    """Every English label the calculators can return (figures, tables, steps, parameters)."""
    return frozenset(message for message in _calculator_messages() if isinstance(message, str))


def calculator_plurals(language: LanguageContext) -> dict[str, dict[str, str]]:
    """The forms of every message whose words follow a number (an error's ``count``), by its English
    singular (the ``message`` the engine answers with), each form under its CLDR plural category."""
    return {
        message[0]: language.plural_forms(message[0], message[1])
        for message in sorted(m for m in _calculator_messages() if isinstance(m, tuple))
    }


def page_path(name: str) -> str:
    return f"{CALCULATOR_DIR}/{name}.md"


def engine_href(lang: str, root_language: str) -> str:
    """Where the shared engine (worker, Pyodide, calculators.zip) lies, relative to a calculator page."""
    up = "../" * 2 + ("" if lang == root_language else "../")
    return up + ENGINE_FOLDER


def format_value(value: Any, kind: str, language: LanguageContext) -> str:
    """A figure or step value as the page shows it (the script formats the same way)."""
    if isinstance(value, str):
        return language.gettext(CHOICE_LABELS.get(value, value))
    if isinstance(value, bool):
        return "✓" if value else "–"
    numbers = language.numbers
    if kind == "cm":
        return numbers.length(value, "cm", 1)
    return numbers.figure(int(value) if kind == "modifier" else value, kind)


def _field(param: dict, ctx: PageContext) -> dict:
    tr = ctx.language.gettext  # translates labels held in variables (N_ marked them)
    rule = ctx.book.rule(param["rule_id"]) if param["rule_id"] else None
    default = param["default"]
    return {
        **param,
        "label_text": tr(param["label"]),
        "help_text": tr(param["help"]) if param["help"] else "",
        "rule_href": ctx.rule_url(rule.id) if rule else "",
        "rule_title": ctx.rule_label(rule) if rule else "",
        "options": [
            {"value": c, "text": ctx.language.pgettext(*choice_label(param["name"], c))} for c in param["choices"]
        ],
        "text_default": ",".join(str(v) for v in default) if isinstance(default, list) else default,
    }


class Slot:
    """Stands for a value of the result view while the build writes the result template: it reads
    ``{name}`` (which calculator.js replaces with the value), and each of its attributes is the slot
    of that name (``Slot("view").figures``, a list's ``Slot``, is not iterable: the template writes
    the markup of one entry inside ``<template data-each="figures">``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, name: str) -> Slot:
        if name.startswith("__"):
            raise AttributeError(name)
        return Slot(name)

    def __str__(self) -> str:
        return f"{{{self.name}}}"


SLOTS = Slot("view")
"""The result view as the result template reads it: every value a ``{name}`` slot."""


def bar_width(probability: float, top: float) -> str:
    """A chart bar's width in percent of the longest one, with one decimal: rounded half up from the
    float's exact value, as JavaScript's ``toFixed(1)`` does (the browser draws the same bars)."""
    width = Decimal(100 * probability / (top or 1))
    return str(width.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def result_view(view: dict, language: LanguageContext, rules: dict[str, str]) -> dict:
    """A result as the page shows it: its labels translated and its numbers formatted, under the names
    the result template reads (calculator.js's resultView gives the same view for the same result)."""
    tr = language.gettext  # translates labels held in variables (N_ marked them)
    numbers = language.numbers
    return {
        "figures": [
            {"label": tr(f["label"]), "text": format_value(f["value"], f["kind"], language)} for f in view["figures"]
        ],
        "tables": [
            {
                "title": tr(t["title"]),
                "outcome_label": tr(t["outcome_label"]),
                "rows": [
                    {
                        "k": numbers.decimal(k, 0),
                        "exactly": numbers.percent(p),
                        "at_least": numbers.percent(q),
                        "bar": bar_width(p, max(r[1] for r in t["rows"])),
                    }
                    for k, p, q in t["rows"]
                ],
            }
            for t in view["tables"]
        ],
        "steps": [
            {
                "label": tr(s["label"]).format(
                    **{name: numbers.decimal(number, 0) for name, number in s.get("label_numbers", {}).items()}
                ),
                "text": format_value(s["value"], s["kind"], language),
                "href": rules.get(s["rule"], "#"),
            }
            for s in view["steps"]
        ],
        "raw": view,
    }


def calculator_page(book: RuleBook, name: str, lang: str, root_language: str, *, directory_urls: bool = True) -> str:
    """The Markdown (with an HTML form) of one calculator's page in ``lang``."""
    calculator = CALCULATORS[name]
    ctx = PageContext(book, lang, page_path(name), directory_urls)
    language = ctx.language
    tr = language.gettext  # translates labels held in variables (N_ marked them)
    description = calculator.describe()
    defaults = DEFAULT_SCENARIOS[name]
    fields = [_field(p, ctx) for p in description["params"]]
    for field in fields:
        if field["name"] in defaults:
            value = defaults[field["name"]]
            field["text_default"] = ",".join(map(str, value)) if isinstance(value, list) else value
    groups = _field_groups(name, fields, language)
    rules = _rule_addresses(book, ctx)
    ui = {key: tr(message) for key, message in UI.items()}
    view = result_view(present(name, defaults), language, rules)
    result_template = environment(lang).get_template("_calc_result.html.j2").module
    # Sorted, so that the same sources always give the same page (a set's order changes from run to run).
    labels = {message: tr(message) for message in sorted(calculator_strings() | set(CHOICE_LABELS.values()))}
    script_data = {
        "calculator": name,
        "lang": lang,
        "params": description["params"],
        "defaults": defaults,
        **_input_groups(name),
        "quotes": QUOTES[lang],  # how the page's language quotes a field's label in a message
        "view": view["raw"],
        "labels": labels,
        "plurals": calculator_plurals(language),
        "ui": ui,
        "cm": tr("cm"),
        "numbers": language.numbers.symbols(),
        "choices": CHOICE_LABELS,
        "rules": rules,
        "result_template": str(result_template.body(SLOTS, ui)),  # type: ignore[attr-defined]
        "units": _picker_data(book, lang, name, directory_urls),
    }
    rule = book.rule(calculator.rule_id)
    return (
        environment(lang)
        .get_template("calculator.md.j2")
        .render(
            examples=_example_notices(ctx, name),
            title=tr(calculator.label),
            name=name,
            game=GAME_NAMES[calculator.game],
            question=tr(calculator.question),
            rule=f"[{ctx.rule_label(rule)}]({ctx.rule_link(rule.id)})",
            groups=groups,
            view=view,
            ui=ui,
            engine=engine_href(lang, root_language),
            engine_start=inline_script("engine-start.js"),  # starts the engine early: the page's scripts run last
            link_inputs=inline_script("link-inputs.js"),  # a shared link's inputs in the form at once
            units=script_data["units"],  # the pickers' place, with its words for a device without units
            data=json.dumps(script_data, ensure_ascii=False),  # an attribute: Material re-runs scripts it swaps in
        )
    )


def _input_groups(name: str) -> dict[str, Any]:
    """How the calculator's inputs go together, for the page's script: ``one_of`` (:data:`LINK_ONE_OF`),
    ``companions`` (:data:`LINK_COMPANIONS`) and ``together`` (:data:`TOGETHER`)."""
    return {
        "one_of": LINK_ONE_OF.get(name, []),
        "companions": LINK_COMPANIONS.get(name, {}),
        "together": TOGETHER.get(name, []),
    }


def _field_groups(name: str, fields: list[dict], language: LanguageContext) -> list[dict]:
    """The form's fields by group, in order; each group's occasional inputs folded apart (``more``)."""
    tr = language.gettext
    occasional = OCCASIONAL.get(name, frozenset())
    return [
        {
            "key": key,
            "title": tr(GROUP_TITLES[key]) if key else "",
            "fields": [f for f in fields if f["group"] == key and f["name"] not in occasional],
            "more": [f for f in fields if f["group"] == key and f["name"] in occasional],
        }
        for key in dict.fromkeys(f["group"] for f in fields)
    ]


def _rule_addresses(book: RuleBook, ctx: PageContext) -> dict[str, str]:
    """Every rule's address from this page, and every note's: a step resting on a reading cites its note
    as ``rule#note``."""
    rules = {rule.id: ctx.rule_url(rule.id) for rule in book.rules}
    rules |= {
        f"{rule.id}#{note.id}": ctx.url(book.chapter_of(rule.id).page, anchor=note_anchor(rule.id, note.id))
        for rule in book.rules
        for note in rule.notes
    }
    return rules


def _example_notices(ctx: PageContext, name: str) -> list[dict[str, str]]:
    """For each worked example this calculator checks, what the page says when the example's link opens
    it: the example's origin (the texts' own, with its source, or ours) and its rule, as HTML."""
    notices = []
    for rule in ctx.book.rules:
        for example in rule.examples:
            if example.calculator == name:
                origin = example_origin(ctx, example)["origin_text"]  # escaped already
                link = f'<a href="{html.escape(ctx.rule_url(rule.id))}">{html.escape(ctx.rule_label(rule))}</a>'
                notices.append({"key": example_key(rule, example), "html": f"{origin} · {link}"})
    return notices


def _picker_data(book: RuleBook, lang: str, name: str, directory_urls: bool) -> dict[str, Any] | None:
    """The unit pickers' data."""
    return picker_data(book, lang, page_path(name), name, directory_urls)


def index_page(book: RuleBook, lang: str) -> str:
    """The list of calculators by game, each with what it answers and the rule it computes."""
    ctx = PageContext(book, lang, INDEX_PAGE)
    tr = ctx.language.gettext  # translates labels held in variables (N_ marked them)
    items = []
    for name in DEFAULT_SCENARIOS:
        calculator = CALCULATORS[name]
        rule = book.rule(calculator.rule_id)
        link = f"[{tr(calculator.label)}]({posixpath.relpath(page_path(name), CALCULATOR_DIR)})"
        items.append(
            {
                "entry": ctx.language.labelled(link, tr(calculator.question)),
                "rule": f"[{ctx.rule_label(rule)}]({ctx.rule_link(rule.id)})",
                "game": calculator.game,
            }
        )
    games = [
        {"name": GAME_NAMES[game], "calculators": [item for item in items if item["game"] == game]}
        for game in dict.fromkeys(item["game"] for item in items)
    ]
    return environment(lang).get_template("calculators.md.j2").render(games=games)


def calculator_pages(book: RuleBook, lang: str, root_language: str, *, directory_urls: bool = True) -> dict[str, str]:
    """Every calculator page of one language, and their index."""
    pages = {
        page_path(name): calculator_page(book, name, lang, root_language, directory_urls=directory_urls)
        for name in DEFAULT_SCENARIOS
    }
    pages[INDEX_PAGE] = index_page(book, lang)
    return pages
