"""The "My units" page and the orders advisor's page, in each language.

Both are forms that ``assets/js/units.js`` renders from the declarations the calculators already
use (:mod:`calculators.profiles` for a unit's fields, :mod:`calculators.advisor` for the situation),
so that the terminal, Python and the page accept the same values. Profiles stay on the device
(``localStorage``); every use of them goes through the engine (:func:`calculators.presentation.units_answer`),
which validates them again, since what a page stores is as untrusted as any file.
"""

from __future__ import annotations

import json
from typing import Any

from calculators import CALCULATORS
from calculators.advisor import OBJECTIVE_LABELS, OBJECTIVES, PARAMS, READINGS, TIES
from calculators.choices import choice_label
from calculators.enemy_reply import REPLY_LABELS
from calculators.json_nesting import MAX_NESTING, NESTING_MESSAGE
from calculators.orders import ACTION_LABELS, OTHER_ORDER_LABELS
from calculators.params import REFUSED, REQUIRED_
from calculators.profiles import (
    FILE_TOO_LONG,
    FORMAT,
    GAMES,
    MAX_FILE_CHARACTERS,
    MAX_MODELS,
    MAX_NAME,
    PARAMS_BY_GAME,
    VERSION,
)
from calculators.rulebook import RuleValues
from kensei_ref.languages import N_, QUOTES, Nn_
from kensei_ref.rules.model import RuleBook
from kensei_ref.site import calculator_pages
from kensei_ref.site.pages import CLARIFICATIONS_PAGE, GAME_NAMES, PageContext, environment
from kensei_ref.site.unit_pickers import ADVISOR_PAGE, PICKER_UI, STORAGE_KEY, UNITS_PAGE

ADVISOR_DEFAULTS = {"distance": 10}
"""The advisor's situation before the player changes anything: two units 10 cm apart, in the open."""

UI = {
    **PICKER_UI,
    "name": N_("Name"),
    "game": N_("Game"),
    "new": N_("New unit"),
    "edit": N_("Edit"),
    "duplicate": N_("Duplicate"),
    "delete": N_("Delete"),
    "save": N_("Save"),
    "cancel": N_("Cancel"),
    "export": N_("Export the file"),
    "import": N_("Import a file"),
    "share": N_("Link to these units"),
    "copied": N_("Link copied"),
    "none": N_("No unit saved on this device yet."),
    "saved": N_("Saved: %(name)s."),
    "deleted": N_("Deleted: %(name)s."),
    "imported": Nn_(
        "%(count)s unit imported from the file; the units already saved are kept.",
        "%(count)s units imported from the file; the units already saved are kept.",
    ),
    "shared": Nn_(
        "This link holds %(count)s unit. Save it on this device?",
        "This link holds %(count)s units. Save them on this device?",
    ),
    "keep": N_("Save them"),
    "refused": N_("Not imported, nothing changed: %(message)s"),
    "unit_field": N_("unit %(number)s, %(field)s"),
    "required": N_("This value is needed."),
    "int": N_("Enter a whole number from %(minimum)s to %(maximum)s."),
    "int_list": N_("Enter whole numbers from %(minimum)s to %(maximum)s, separated by commas."),
    "choice": N_("Choose one of the values offered."),
    "rules": N_("Not allowed by the rules: %(message)s"),
    "labelled": N_("%(label)s: %(text)s"),
    "working": N_("Checking with the calculators' engine…"),
    "failed": N_("The calculators' engine could not start in this browser."),
    "full": N_(
        "Nothing was saved: the browser's storage for this site is full. "
        "Free some space on this device, then try again."
    ),
    "copy_suffix": N_("%(name)s (copy)"),
    "pick": N_("Pick a saved unit"),
    "computing": N_("Computing…"),
    "stale": N_("These results are for the last valid inputs; correct the highlighted field."),
    "ready": N_("The odds below are for the units and the situation shown."),
    "out": N_("A unit engaged in combat is out of the game: it takes no orders."),
    "orders": N_("Orders"),
    "ap": N_("Action points"),
    "left": N_("Points left"),
    "enemy_shot": N_("the enemy's reaction shot"),
    "averaged": N_("the largest of the runs averaged"),
    "others": N_("The points a row leaves may also pay for, when the unit can:"),
    "order_cost": N_("action points: %(points)s"),
    "expected": N_("Wounds expected"),
    "at_least": N_("Wounds ≥ %(goal)s"),
    "pair": N_("%(label)s: %(value)s"),
    "reach": N_("Charge reaches"),
    "destroyed": N_("Enemy destroyed"),
    "victory": N_("Victory"),
    "defeat": N_("Defeat"),
    "taken": N_("Wounds taken"),
    "ties": TIES,
    "models": N_("Models"),
    "models_help": N_("Models in the unit."),
    "wounds_each": N_("Wounds each"),
    "wounds_each_help": N_("Remaining Wounds of each model."),
    "mixed": N_("Models with different Wounds"),
    "mixed_help": N_("Then list each model's Wounds."),
    "left_out": N_("Allowed by the rules, but left out: a calculator cannot take them."),
    "best": N_("Best: %(orders)s"),
    "same_odds": N_("Same odds: %(orders)s"),
    "reply": N_("Enemy's reply: %(reply)s"),
    "replies": N_("Each reply of the enemy's, for this charge:"),
    "left_out_row": N_("%(orders)s: %(calculator)s: %(reason)s"),
    "nothing": N_("Nothing"),
    "calculators": N_("Calculators"),
    "rules_used": N_("Rules"),
    "more": N_("Modifiers and options"),
    "situation": N_("Situation"),
    "too_costly": Nn_(
        "The unit's %(points)s action point is not enough for:",
        "The unit's %(points)s action points are not enough for:",
    ),
    "needs": N_("%(orders)s (action points needed: %(points)s)"),
}
"""Interface strings of the two pages, translated into the page's language for its script (a count's
message as its plural forms, which units.js's ``plural`` chooses from)."""

CHOICE_LABELS = {
    "kensei": "Kensei",
    "ronin": "Ronin",
    "character": N_("character"),
    "warband": N_("warband"),
    "movement": N_("the charge is the unit's Movement"),
    "after-move": N_("a march or run may come before the charge"),
    "as_profile": N_("as the profile says"),
    "loaded": N_("loaded"),
    "unloaded": N_("not loaded"),
    **OBJECTIVE_LABELS,
    "best": N_("its best reply: the one worst for you"),
    "best-standing": N_("its best reply without running away"),
    "fight": N_("it withstands and fights"),
    "shoot": N_("it withstands and shoots"),
    "counter-charge": N_("it counter-charges"),
    "run-away": N_("it runs away"),
}
"""Words for the choices these pages add to the calculators' (calculators.choices.CHOICE_LABELS)."""


def _params(params: tuple[Any, ...], tr: Any, ctx: PageContext) -> list[dict[str, Any]]:
    """A form's fields as units.js renders them: the declaration, translated, with its rule's link."""
    rules = RuleValues.bundled()
    fields = []
    for param in params:
        described = param.describe(rules)
        rule = ctx.book.rule(param.rule_id) if param.rule_id else None
        fields.append(
            {
                **described,
                "label": tr(param.label),
                "help": tr(param.help) if param.help else "",
                "rule_href": ctx.rule_url(rule.id) if rule else "",
                "options": [
                    {"value": c, "text": ctx.language.pgettext(*_choice_label(param.name, c))} for c in param.choices
                ],
            }
        )
    return fields


def _choice_label(field: str, value: str) -> tuple[str, str]:
    """These pages' words for ``value``, else the calculators' for ``value`` of ``field``: context and English."""
    return ("", CHOICE_LABELS[value]) if value in CHOICE_LABELS else choice_label(field, value)


def _common(book: RuleBook, lang: str, page: str) -> tuple[Any, PageContext, dict[str, Any]]:
    ctx = PageContext(book, lang, page)
    language = ctx.language
    tr = language.gettext  # translates labels held in variables (N_ marked them)
    data = {
        "lang": lang,
        "format": FORMAT,
        "version": VERSION,
        "storage": STORAGE_KEY,
        "ui": {key: tr(text) if isinstance(text, str) else language.plural_forms(*text) for key, text in UI.items()},
        "numbers": language.numbers.symbols(),
        "games": [{"value": game, "text": GAME_NAMES[game]} for game in GAMES],
        "units": {game: _params(params, tr, ctx) for game, params in PARAMS_BY_GAME.items()},
        "units_page": ctx.url(UNITS_PAGE),
        "advisor_page": ctx.url(ADVISOR_PAGE),
        "max_name": MAX_NAME,
        "max_models": MAX_MODELS,
        "max_nesting": MAX_NESTING,
        "max_file": MAX_FILE_CHARACTERS,
        "file_too_long": FILE_TOO_LONG.singular,
        "nesting": NESTING_MESSAGE,
        "form_defaults": form_defaults(),
        "labels": {message: tr(message) for message in sorted(calculator_pages.calculator_strings())},
        "plurals": calculator_pages.calculator_plurals(language),
        "bounds": BOUNDS,
        "quotes": QUOTES[lang],  # how the page's language quotes a field's label in a message
    }
    return tr, ctx, data


BOUNDS = sorted(m if isinstance(m, str) else m.singular for m in (*REQUIRED_.values(), *REFUSED.values()))
"""The engine's refusals of a value outside its own field's bounds (:meth:`Param.refusal`): the page says
those in its own words (the field's bounds); any other refusal of a field is a rule across fields (0 cm
is contact, the 5 cm rule, more Wounds than the profile), said in the words of its own template."""


def form_defaults() -> dict[str, dict[str, Any]]:
    """What a new unit's form starts with, by game: the calculators' own default scenario (seven
    models of one Wound, Attack 6, Defense 5, Armor 3, Initiative 4, Honor 6; a Ronin warband of
    Morale 7), so that a player changes a few fields with the steppers rather than typing them all."""
    shooting, melee = calculator_pages.DEFAULT_SCENARIOS["shooting"], calculator_pages.DEFAULT_SCENARIOS["melee"]
    return {
        "kensei": {
            "models": shooting["models"],
            "wounds_each": shooting["wounds_each"],
            **{name: shooting[name] for name in ("attack", "defense", "armor")},
            "initiative": melee["a_initiative"],
            "honor": calculator_pages.DEFAULT_SCENARIOS["regroup"]["honor"],
        },
        "ronin": {"fighters": shooting["models"], "morale": calculator_pages.DEFAULT_SCENARIOS["morale"]["morale"]},
    }


def units_page(book: RuleBook, lang: str) -> str:
    """The "My units" page: the profiles saved on the device, a form for one, import and export."""
    _, _ctx, data = _common(book, lang, UNITS_PAGE)
    return environment(lang).get_template("units.md.j2").render(data=json.dumps(data, ensure_ascii=False))


def advisor_page(book: RuleBook, lang: str, directory_urls: bool = True) -> str:
    """The orders advisor: your unit, the enemy, the situation, and every allowed sequence ranked."""
    tr, ctx, data = _common(book, lang, ADVISOR_PAGE)
    data |= {
        "params": _params(PARAMS, tr, ctx),
        "defaults": ADVISOR_DEFAULTS,
        "objectives": list(OBJECTIVES),
        "actions": {action: tr(label) for action, label in ACTION_LABELS.items()},
        "replies": {reply: tr(label) for reply, label in REPLY_LABELS.items()},
        "other_orders": {order: tr(label) for order, label in OTHER_ORDER_LABELS.items()},
        "calculator_pages": {
            name: ctx.url(calculator_pages.page_path(name)) for name in calculator_pages.DEFAULT_SCENARIOS
        },
        "calculator_names": {name: tr(CALCULATORS[name].label) for name in CALCULATORS},
        "rules": {rule.id: ctx.rule_url(rule.id) for rule in book.rules},
        "rule_titles": {rule.id: ctx.rule_label(rule) for rule in book.rules},
    }
    return (
        environment(lang)
        .get_template("advisor.md.j2")
        .render(
            data=json.dumps(data, ensure_ascii=False),
            readings=ctx.reading_links(READINGS),
            clarifications=ctx.link(CLARIFICATIONS_PAGE),
            # the pickers' words for a device without units, as built: nothing moves when there are none
            no_units=data["ui"]["no_units"],
            units_page=PageContext(book, lang, ADVISOR_PAGE, directory_urls).url(UNITS_PAGE),  # as served
            units_page_title=data["ui"]["units_page"],
        )
    )


def units_pages(book: RuleBook, lang: str, directory_urls: bool = True) -> dict[str, str]:
    """Both pages of one language."""
    return {UNITS_PAGE: units_page(book, lang), ADVISOR_PAGE: advisor_page(book, lang, directory_urls)}
