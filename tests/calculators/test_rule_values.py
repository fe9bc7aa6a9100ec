"""The calculators read every stated number from the rule values, and every value they read matters."""

from __future__ import annotations

import ast
import json
from importlib import resources
from pathlib import Path

import pytest
from unit_profiles import ARCHERS, SAMURAI, unit_of_type, units_file

import calculators
from calculators import CALCULATORS, CalculatorInputError, RuleValueMissing, RuleValues
from calculators.advisor import advice_json, advise
from calculators.orders import OTHER_ORDERS
from calculators.profiles import read_units

PACKAGE = Path(calculators.__file__).parent
BUNDLED = RuleValues.bundled()


def outputs(name: str, rules: RuleValues, variants) -> list:
    results = []
    for inputs in variants(name):
        try:
            results.append(CALCULATORS[name].run(inputs, rules=rules))
        except CalculatorInputError as error:
            results.append(("error", str(error)))
    return results


def reads_of(name: str, variants) -> frozenset[tuple[str, str]]:
    rules = BUNDLED.recording()
    outputs(name, rules, variants)
    return rules.reads


ADVISOR_MODULES = ("orders.py", "advisor.py", "advisor_odds.py")
"""The advisor's own modules; the rest of what it reads, it reads through the calculators."""


def literal_reads(files: tuple[str, ...] = ()) -> set[tuple[str, str]]:
    """Every ``.value("rule", "key")`` and ``maximum_rule=("rule", "key")`` written in the package (or in
    ``files`` of it)."""
    pairs = set()
    for path in [PACKAGE / name for name in files] or PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            arguments = []
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "value":
                arguments = node.args
            elif isinstance(node, ast.keyword) and node.arg == "maximum_rule" and isinstance(node.value, ast.Tuple):
                arguments = node.value.elts
            if len(arguments) == 2 and all(isinstance(a, ast.Constant) for a in arguments):
                pairs.add(tuple(a.value for a in arguments))
    return pairs


def test_the_file_is_rule_ids_to_integer_values():
    data = json.loads(resources.files("calculators").joinpath("rule_values.json").read_text(encoding="utf-8"))
    assert data
    for rule_id, keys in data.items():
        assert rule_id.startswith(("kensei.", "ronin.")), rule_id
        assert all(type(number) is int for number in keys.values()), rule_id
    assert RuleValues.from_mapping(data) == BUNDLED


def test_every_literal_read_exists_in_the_rule_values():
    missing = sorted(pair for pair in literal_reads() if pair[1] not in BUNDLED.as_dict().get(pair[0], {}))
    assert not missing, f"read by calculators/ but absent from rule_values.json: {missing}"


@pytest.mark.parametrize("name", CALCULATORS)
def test_every_read_exists_in_the_rule_values(name, variants):
    reads = reads_of(name, variants)
    values = BUNDLED.as_dict()
    assert all(key in values.get(rule, {}) for rule, key in reads)


ADVISOR_SCENARIOS = [
    (ARCHERS, SAMURAI, {"distance": 14}),
    (ARCHERS, SAMURAI, {"distance": 55, "on_hill": True}),  # at the very end of the range a hill adds
    (ARCHERS, SAMURAI, {"distance": 25, "charge_reading": "after-move", "reactions": 1}),
    (unit_of_type("character"), SAMURAI, {"distance": 9}),
    (unit_of_type("cavalry"), SAMURAI, {"distance": 20, "charge_reading": "after-move", "indirect": True}),
    ({**unit_of_type("creature"), "movement_cm": 6}, SAMURAI, {"distance": 19, "charge_reading": "after-move"}),
]
"""Turns whose orders read every value the advisor reads (action points and costs, moves, the five
centimetres kept from the enemy, charges, shots and melee)."""


def advisor_tables(rules: RuleValues) -> list:
    tables = []
    for mine, enemy, situation in ADVISOR_SCENARIOS:
        ours, theirs = read_units(units_file(mine, {**enemy, "name": "enemy"}))
        tables.append(advice_json(advise(ours, theirs, situation, rules)))
    return tables


def advisor_reads() -> frozenset[tuple[str, str]]:
    rules = BUNDLED.recording()
    advisor_tables(rules)
    return rules.reads


def test_the_grid_reads_every_literal_read(variants):
    everything = set().union(*(reads_of(name, variants) for name in CALCULATORS)) | advisor_reads()
    assert literal_reads() <= everything, sorted(literal_reads() - everything)


def test_every_value_the_advisor_reads_itself_changes_its_tables():
    """The values the advisor's own code reads (costs, the distance kept from the enemy, running);
    those it reads through a calculator are that calculator's test's."""
    before = advisor_tables(BUNDLED)
    inert = []
    own = literal_reads(ADVISOR_MODULES)
    assert own and own <= advisor_reads()
    for rule, key in sorted(own):
        value = BUNDLED.value(rule, key)
        if not any(advisor_tables(BUNDLED.updated({rule: {key: value + delta}})) != before for delta in (1, -1)):
            inert.append(f"{rule}#{key}")
    assert not inert, f"the advisor reads these values but does not depend on them: {inert}"


MAXIMA = {("shooting", "kensei.action-points")}
"""Rules whose values a calculator reads only to take their largest (the most action points any unit
type has): one that is not the largest changes nothing alone, so they are changed together."""


@pytest.mark.parametrize("name", CALCULATORS)
def test_every_value_read_changes_the_result(name, variants):
    """Changing any value a calculator reads changes some result: no stated number is typed in."""
    before = outputs(name, BUNDLED, variants)
    inert = []
    reads = reads_of(name, variants)
    groups = {rule: sorted(key for r, key in reads if r == rule) for r0, rule in MAXIMA if r0 == name}
    for rule, key in sorted(reads):
        keys = groups.get(rule, [key])
        changes = [{rule: {k: BUNDLED.value(rule, k) + delta for k in keys}} for delta in (1, -1)]
        if not any(outputs(name, BUNDLED.updated(change), variants) != before for change in changes):
            inert.append(f"{rule}#{key}")
    assert not inert, f"{name} reads these values but does not depend on them: {inert}"


@pytest.mark.parametrize(
    ("name", "inputs", "override", "key", "before", "after"),
    [
        ("shooting", {"dice": 1, "attack": 5, "defense": 5, "armor": 3, "range": "long"},
         {"kensei.firing": {"long_range": 3}}, "effective_attack", 6, 8),
        ("regroup", {"honor": 5, "attempts": 1}, {"kensei.roll-of-ten": {"critical_roll": 20}},
         "p_per_attempt", 0.5, 0.25),
        ("action-points", {"unit_type": "cavalry"}, {"kensei.action-points": {"cavalry": 4}},
         "action_points", 2, 4),
        ("movement", {"unit_type": "infantry", "running": True, "penalty_cm": 2},
         {"kensei.running": {"multiplier": 3}}, "distance_cm", 18, 28),
        ("morale-trigger", {"starting_fighters": 10},
         {"ronin.morale-triggers": {"casualties_denominator": 2}}, "casualty_threshold", 3, 5),
        ("drowning", {}, {"ronin.water": {"drown_roll": 4}}, "p_drown", 1 / 6, 1 / 4),
    ],
)  # fmt: skip
def test_an_injected_value_changes_the_result(name, inputs, override, key, before, after):
    assert CALCULATORS[name].run(inputs)[key] == pytest.approx(before)
    assert CALCULATORS[name].run(inputs, rules=BUNDLED.updated(override))[key] == pytest.approx(after)


def test_a_rule_bound_follows_the_rules():
    three = BUNDLED.updated({"kensei.regroup": {"attempts": 3}})
    assert CALCULATORS["regroup"].run({"honor": 5, "attempts": 3}, rules=three)["p_regroup"] == pytest.approx(0.875)
    with pytest.raises(CalculatorInputError, match="from 1 to 2"):
        CALCULATORS["regroup"].run({"honor": 5, "attempts": 3})


def test_a_missing_value_is_reported_by_rule_and_key():
    partial = RuleValues.from_mapping(
        {rule: keys for rule, keys in BUNDLED.as_dict().items() if rule != "kensei.firing"}
    )
    with pytest.raises(RuleValueMissing, match=r"rule value kensei\.firing#[a-z_]+ is missing"):
        CALCULATORS["shooting"].run({"dice": 1, "attack": 5, "defense": 5, "armor": 3, "range": "long"}, rules=partial)


def test_the_price_of_each_order_without_odds_changes_the_advisors_table():
    """The orders listed under the table (spells, abilities...) are priced from the rule data, one
    value each: a character, who may give them all, is advised with each price moved by one."""
    hero, enemy = read_units(units_file(unit_of_type("character"), {**SAMURAI, "name": "enemy"}))
    before = advice_json(advise(hero, enemy, {"distance": 12}))
    for order in OTHER_ORDERS:
        price = BUNDLED.value(order.rule, order.key)
        changed = BUNDLED.updated({order.rule: {order.key: price + 1}})
        after = advice_json(advise(hero, enemy, {"distance": 12}, changed))
        assert after != before, order.name
        assert {"order": order.name, "rule": order.rule, "action_points": price + 1} in after["other_orders"]
