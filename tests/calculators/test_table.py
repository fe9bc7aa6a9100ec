"""The table file (calculators.table): the state of the table the Command phase plan reads, validated like
the units file, every refusal naming the field where it is."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from unit_profiles import ARCHERS, SAMURAI, WARBAND, unit_of_type, units_file

from calculators import CalculatorInputError
from calculators.command_plan import MAX_READY
from calculators.profiles import read_units
from calculators.rulebook import RuleValues
from calculators.table import FORMAT, MAX_FLEEING, MAX_SIDE, VERSION, parse_table, read_table

SCOUTS = {**unit_of_type("harasser_on_foot", ranged=False), "name": "Scouts"}
"""A profile without Honor: it cannot be regrouped unless the table gives one."""
SPEARMEN = {**unit_of_type("infantry", ranged=False, wounds=(1,) * 8), "name": "Spearmen", "honor": 5}

PROFILES = read_units(units_file(ARCHERS, SAMURAI, SPEARMEN))


def table(**changes) -> dict:
    """The issue's own example, with ``changes`` at the top."""
    return {
        "format": FORMAT, "version": VERSION, "game": "kensei", "general": "taisho", "dominance": False,
        "mine": [{"unit": "Ashigaru archers", "state": "ready"}, {"unit": "Spearmen", "state": "fleeing", "honor": 5}],
        "enemy": [{"unit": "Samurai"}],
        "distances": [{"mine": "Ashigaru archers", "enemy": "Samurai", "cm": 20, "in_sight": True}],
    } | changes  # fmt: skip


def test_the_example_file_reads_with_the_profiles_and_the_points():
    state = read_table(table(dominance=True, general="daimyo", ki=7), PROFILES)
    assert [unit.name for unit in state.mine] == ["Ashigaru archers", "Spearmen"]
    assert [unit.state for unit in state.mine] == ["ready", "fleeing"]
    assert state.mine[1].profile.honor == 5 and state.mine[1].regroup_bonus == 0
    assert state.enemy[0].profile.wounds == tuple(SAMURAI["wounds"])
    assert state.reaches == {(0, 0): state.reaches[(0, 0)]} and state.reaches[(0, 0)].cm == 20
    assert state.commandment_points(RuleValues.bundled()) == 6  # a Daimyo's 4, and 2 on the hill
    assert state.ki == 7 and not state.taisho_ability


def test_a_units_state_this_turn_changes_its_profile_for_the_turn_only():
    mine = [{"unit": "ashigaru ARCHERS", "wounds": [1, 1, 1], "loaded": False, "reactions": 1, "cover": "light"}]
    state = read_table(table(mine=mine, distances=[]), PROFILES)
    archers = state.mine[0]
    assert archers.profile.wounds == (1, 1, 1) and archers.profile.loaded is False
    assert (archers.reactions, archers.cover, archers.state) == (1, "light", "ready")
    assert PROFILES[0].wounds == tuple(ARCHERS["wounds"])  # the units file's profile is untouched


BAD = {
    "not a table file": (table(format="kensei-ref/units"), "format"),
    "a newer version": (table(version=VERSION + 1), "version"),
    "an unknown field": (table(weather="rain"), "weather"),
    "an unknown unit": (table(enemy=[{"unit": "Ninja"}]), "enemy[0].unit"),
    "a unit on both sides": (table(enemy=[{"unit": "Spearmen"}]), "enemy[0].unit"),
    "a unit twice on one side": (table(enemy=[{"unit": "Samurai"}, {"unit": "samurai"}]), "enemy[1].unit"),
    "a fleeing unit without Honor": (
        table(mine=[{"unit": "Scouts", "state": "fleeing"}], distances=[]), "mine[0].honor"),
    "a state the rules do not know": (table(mine=[{"unit": "Spearmen", "state": "asleep"}], distances=[]),
                                      "mine[0].state"),
    "a negative distance": (table(distances=[{"mine": "Ashigaru archers", "enemy": "Samurai", "cm": -3}]),
                            "distances[0].cm"),
    "a pair given twice": (table(distances=[{"mine": "Ashigaru archers", "enemy": "Samurai", "cm": 20},
                                            {"mine": "ashigaru archers", "enemy": "Samurai", "cm": 12}]),
                           "distances[1].enemy"),
    "a pair naming an enemy as yours": (table(distances=[{"mine": "Samurai", "enemy": "Samurai", "cm": 20}]),
                                        "distances[0].mine"),
    "more Wounds than the profile": (table(enemy=[{"unit": "Samurai", "wounds": [9]}]), "enemy[0].wounds"),
    "a Ronin warband": (table(enemy=[{"unit": "Ronin band"}]), "enemy[0].unit"),
    "a loaded weapon it has not": (table(enemy=[{"unit": "Samurai", "loaded": True}]), "enemy[0].loaded"),
    "too many units": (table(enemy=[{"unit": "Samurai"}] * (MAX_SIDE + 1)), "enemy"),
    "a distance not an object": (table(distances=[7]), "distances[0]"),
    "contact without combat": (table(distances=[{"mine": "Ashigaru archers", "enemy": "Samurai", "cm": 0}]),
                               "distances[0].cm"),
    "closer than the rule keeps units": (
        table(distances=[{"mine": "Ashigaru archers", "enemy": "Samurai", "cm": 4}]), "distances[0].cm"),
}  # fmt: skip


@pytest.mark.parametrize(("document", "field"), BAD.values(), ids=BAD.keys())
def test_a_bad_table_file_is_refused_naming_the_field(document, field):
    profiles = read_units(units_file(ARCHERS, SAMURAI, SPEARMEN, SCOUTS, WARBAND))
    with pytest.raises(CalculatorInputError) as refused:
        read_table(document, profiles)
    assert refused.value.field == field
    assert "\n" not in str(refused.value)


def test_units_closer_than_the_rule_keeps_them_after_a_failed_charge_or_with_terrain_between():
    for mine, pair in (({"failed_charge": True}, {}), ({}, {"terrain_between": True})):
        document = table(
            mine=[{"unit": "Ashigaru archers", **mine}],
            distances=[{"mine": "Ashigaru archers", "enemy": "Samurai", "cm": 4, **pair}],
        )
        assert read_table(document, PROFILES).reaches[(0, 0)].cm == 4
    engaged = table(mine=[{"unit": "Ashigaru archers", "state": "engaged"}],
                    distances=[{"mine": "Ashigaru archers", "enemy": "Samurai", "cm": 0}])  # fmt: skip
    assert read_table(engaged, PROFILES).reaches[(0, 0)].cm == 0


def test_a_text_that_is_not_json_or_too_deep_is_one_clear_refusal():
    for text in ("{", "[" * 100_000 + "]" * 100_000, "x" * 2_000_000):
        with pytest.raises(CalculatorInputError) as refused:
            parse_table(text, PROFILES)
        assert refused.value.field == "table"
    assert parse_table(json.dumps(table()), PROFILES).mine[0].name == "Ashigaru archers"


LISTS = {
    "a side left out": ({"mine": None}, "mine", "is required: a list of at most 20 items"),
    "a side as one object": ({"enemy": {"unit": "Samurai"}}, "enemy", 'got {"unit": "Samurai"}'),
    "a side as a long text": ({"enemy": "Samurai " * 20}, "enemy", 'got "Samurai Samurai Samurai Samurai Samura…'),
    "too many units": ({"enemy": [{"unit": "Samurai"}] * (MAX_SIDE + 1)}, "enemy", f"items, got {MAX_SIDE + 1}"),
    "too many distances": ({"distances": [{}] * (MAX_SIDE**2 + 1)}, "distances", f"items, got {MAX_SIDE**2 + 1}"),
}  # fmt: skip


@pytest.mark.parametrize(("changes", "field", "says"), LISTS.values(), ids=LISTS.keys())
def test_a_list_refused_says_what_it_got_as_the_file_writes_it(changes, field, says):
    """How many items a list too long holds, the JSON of what is no list, "required" for a list left out:
    never a Python type's name ('list', 'dict', 'NoneType')."""
    document = {key: value for key, value in {**table(), **changes}.items() if value is not None}
    profiles = read_units(units_file(ARCHERS, SAMURAI, SPEARMEN, SCOUTS, WARBAND))
    with pytest.raises(CalculatorInputError) as refused:
        read_table(document, profiles)
    assert refused.value.field == field
    assert says in refused.value.describe(str), refused.value.describe(str)


def test_more_fleeing_units_than_the_regroup_planner_takes_are_refused_on_your_side():
    """The plan hands fleeing units to the regroup planner, which takes at most MAX_FLEEING: one more is
    refused naming the side and the limit, never a field of the planner's ('honors')."""
    fleeing = [{**SPEARMEN, "name": f"Spearmen {number}"} for number in range(MAX_FLEEING + 1)]
    profiles = read_units(units_file(SAMURAI, *fleeing))
    for count, refused in ((MAX_FLEEING, False), (MAX_FLEEING + 1, True)):
        mine = [{"unit": unit["name"], "state": "fleeing"} for unit in fleeing[:count]]
        document = table(mine=mine, distances=[])
        if not refused:
            assert sum(unit.state == "fleeing" for unit in read_table(document, profiles).mine) == count
            continue
        with pytest.raises(CalculatorInputError) as caught:
            read_table(document, profiles)
        assert caught.value.field == "mine"
        assert caught.value.describe(str) == f"must hold at most {MAX_FLEEING} fleeing units, got {count}"


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "es"])
def test_the_data_format_page_gives_the_tables_limits(lang):
    """The limits of a side, as the code holds them, on the page that describes the table file."""
    text = (Path(__file__).parents[2] / "docs" / lang / "data-format.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `mine`, `enemy` |"))
    numbers = [int(found) for found in re.findall(r"\d+", row)]
    assert numbers[:3] == [MAX_SIDE, MAX_FLEEING, MAX_READY], row


def test_a_table_file_saved_with_a_byte_order_mark_reads_as_without():
    text = json.dumps(table())
    assert parse_table("\ufeff" + text, PROFILES) == parse_table(text, PROFILES)
