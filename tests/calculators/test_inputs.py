"""Every kind of bad input raises CalculatorInputError with a message naming the field."""

from __future__ import annotations

import pytest
from calculator_inputs import BASE

from calculators import CALCULATORS, CalculatorInputError, RuleValues
from calculators.shooting import ShootingInputs

SHOOTING = {"dice": 4, "attack": 6, "defense": 5, "armor": 3}
MELEE = {
    "a_models": 5, "a_wounds": 5, "a_attack": 5, "a_defense": 5, "a_armor": 3, "a_initiative": 3,
    "b_models": 5, "b_wounds": 5, "b_attack": 5, "b_defense": 5, "b_armor": 3, "b_initiative": 3,
}  # fmt: skip
VALID = {**BASE, "shooting": SHOOTING, "melee": MELEE, "spells": {"levels": [1]}}  # the shared base, but these three

BAD = [
    # (id, calculator, changes to the valid inputs (None removes), field named, words in the message)
    ("attack-string", "shooting", {"attack": "x"}, "attack", "must be an integer from 0 to 20, got 'x'"),
    ("attack-bool", "shooting", {"attack": True}, "attack", "got True"),
    ("attack-float", "shooting", {"attack": 6.0}, "attack", "integer"),
    ("attack-high", "shooting", {"attack": 21}, "attack", "from 0 to 20"),
    ("attack-negative", "shooting", {"attack": -1}, "attack", "from 0 to 20"),
    ("attack-missing", "shooting", {"attack": None}, "attack", "is required"),
    ("dice-too-many", "shooting", {"dice": 201}, "dice", "from 0 to 200"),
    ("dice-and-wounds", "shooting", {"wounds": [2, 2]}, "dice", "either dice or wounds"),
    ("neither-dice-nor-wounds", "shooting", {"dice": None}, "dice", "either dice or wounds"),
    ("wounds-not-list", "shooting", {"dice": None, "wounds": "2,2"}, "wounds", "a list of 1 to 100 integers"),
    ("wounds-bool-item", "shooting", {"dice": None, "wounds": [2, True]}, "wounds", "integers"),
    ("wounds-empty", "shooting", {"dice": None, "wounds": []}, "wounds", "a list of 1 to 100"),
    ("wounds-too-many-dice", "shooting", {"dice": None, "wounds": [20] * 11}, "wounds", "at most 200 dice"),
    ("range-unknown", "shooting", {"range": "far"}, "range", "one of short, normal, long, out, got 'far'"),
    ("precision-int", "shooting", {"precision": 1}, "precision", "true or false, got 1"),
    (
        "second-shot-twice",
        "shooting",
        {"second_shot": True, "multiple_shots": True},
        "second_shot",
        "multiple_shots",
    ),
    ("unknown-key", "shooting", {"attak": 6}, "attak", "allowed: dice, wounds, models, wounds_each, attack"),
    ("melee-models-above-wounds", "melee", {"a_models": 6}, "a_models", "at most a_wounds"),
    ("melee-wounds-zero", "melee", {"b_wounds": 0}, "b_wounds", "from 1 to 200"),
    ("melee-wounds-high", "melee", {"b_wounds": 201}, "b_wounds", "from 1 to 200"),
    (
        "melee-charge-unknown",
        "melee",
        {"a_charge": "horse"},
        "a_charge",
        "one of none, infantry, cavalry, large",
    ),
    (
        "melee-defensive-after-charge",
        "melee",
        {"a_defensive": 1, "a_charge": "infantry"},
        "a_defensive",
        "charged or counter-charged",
    ),
    ("melee-defensive-too-dear", "melee", {"b_defensive": 2}, "b_defensive", "combat dice"),
    ("melee-first-unknown", "melee", {"first": "c"}, "first", "one of roll, a, b"),
    ("regroup-attempts-above-rules", "regroup", {"attempts": 3}, "attempts", "from 1 to 2"),
    ("regroup-attempts-zero", "regroup", {"attempts": 0}, "attempts", "from 1 to 2"),
    ("regroup-mystical-string", "regroup", {"mystical": "yes"}, "mystical", "true or false"),
    ("planner-too-many-units", "planner", {"honors": [5] * 11}, "honors", "a list of 1 to 10"),
    ("planner-bonuses-length", "planner", {"bonuses": [1]}, "bonuses", "one number per unit of honors"),
    ("planner-points-high", "planner", {"points": 21}, "points", "from 0 to 20"),
    (
        "planner-reserve-too-much",
        "planner",
        {"general": "hero", "strategic_orders": 1},
        "strategic_orders",
        "reserves",
    ),
    ("planner-general-unknown", "planner", {"general": "shogun"}, "general", "one of daimyo"),
    ("charge-dice-unknown", "charge", {"dice": "3d10"}, "dice", "one of 1d10, 2d10"),
    ("charge-dice-and-type", "charge", {"unit_type": "cavalry"}, "dice", "either dice or unit_type"),
    ("charge-distance-missing", "charge", {"distance": None}, "distance", "is required"),
    (
        "movement-cavalry-very-high",
        "movement",
        {"unit_type": "cavalry", "very_high_obstacles": 1},
        "very_high_obstacles",
        "cavalry",
    ),
    ("movement-facings-high", "movement", {"facings": 11}, "facings", "from 0 to 10"),
    ("action-points-type", "action-points", {"unit_type": "dragon"}, "unit_type", "one of infantry"),
    ("spells-level-zero", "spells", {"levels": [0]}, "levels", "integers from 1 to 10"),
    ("spells-ki-without-difficulty", "spells", {"caster_ki": 5}, "difficulty", "with caster_ki"),
    ("damage-roll-above-d10", "damage-roll", {"roll": 11}, "roll", "from 1 to 10"),
    ("damage-roll-rule", "damage-roll", {"damage_rule": "double"}, "damage_rule", "threshold, subtractive"),
    ("dice-split-negative", "dice-split", {"combat_dice": -1}, "combat_dice", "from 0"),
    ("morale-missing", "morale", {"morale": None}, "morale", "is required"),
    ("morale-banner-int", "morale", {"banner": 0}, "banner", "true or false"),
    (
        "morale-states-triggers-length",
        "morale-states",
        {"turns": 3, "triggers": [1]},
        "triggers",
        "one 0 or 1",
    ),
    ("morale-states-trigger-two", "morale-states", {"turns": 1, "triggers": [2]}, "triggers", "from 0 to 1"),
    ("morale-states-turns-high", "morale-states", {"turns": 21}, "turns", "from 1 to 20"),
    ("rank-test-state", "rank-test", {"state": "calm"}, "state", "one of wavering, panic"),
    ("drowning-unknown", "drowning", {"heavy": True}, "heavy", "unknown input"),
    ("priority-unknown", "priority", {"players": 3}, "players", "unknown input"),
    ("morale-trigger-zero", "morale-trigger", {"starting_fighters": 0}, "starting_fighters", "from 1 to 200"),
]


@pytest.mark.parametrize(
    ("calculator", "changes", "field", "words"), [pytest.param(*case[1:], id=case[0]) for case in BAD]
)
def test_bad_input_names_the_field(calculator, changes, field, words):
    inputs = {**VALID[calculator], **changes}
    inputs = {key: value for key, value in inputs.items() if value is not None}
    with pytest.raises(CalculatorInputError) as caught:
        CALCULATORS[calculator].run(inputs)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")
    assert words in str(caught.value)


@pytest.mark.parametrize("name", VALID)
def test_valid_inputs_run(name):
    result = CALCULATORS[name].run(VALID[name])
    assert result["calculator"] == name


@pytest.mark.parametrize("mapping", [None, [1, 2], "attack=6"], ids=["none", "list", "string"])
def test_inputs_must_be_a_mapping(mapping):
    with pytest.raises(CalculatorInputError, match=r"^inputs: must be a mapping"):
        CALCULATORS["shooting"].run(mapping)


def test_the_dataclass_validates_on_construction():
    with pytest.raises(CalculatorInputError, match=r"^armor: must be an integer from 0 to 20, got 99$"):
        ShootingInputs(dice=3, attack=5, defense=5, armor=99)
    inputs = ShootingInputs(wounds=[2, 1], attack=5, defense=5, armor=3)
    assert inputs.wounds == (2, 1)  # normalised, so that the frozen inputs are hashable
    assert hash(inputs) == hash(ShootingInputs(wounds=(2, 1), attack=5, defense=5, armor=3))
    with pytest.raises(AttributeError):
        inputs.attack = 4  # type: ignore[misc]


def test_the_error_is_a_value_error():
    assert issubclass(CalculatorInputError, ValueError)


def test_rule_values_must_be_integers():
    with pytest.raises(ValueError, match=r"kensei\.firing#long_range must be an integer"):
        RuleValues.from_mapping({"kensei.firing": {"long_range": "1"}})
    with pytest.raises(ValueError, match="must be an integer"):
        RuleValues.from_mapping({"kensei.firing": {"long_range": True}})


@pytest.mark.parametrize("name", CALCULATORS)
def test_every_number_input_is_bounded(name):
    """Bounds keep every calculation fast: every integer has both ends, every list a length."""
    rules = RuleValues.bundled()
    for param in CALCULATORS[name].params:
        if param.kind in ("int", "int_list"):
            assert None not in param.bounds(rules), param.name
        if param.kind == "int_list":
            assert param.max_length is not None, param.name


@pytest.mark.parametrize("value", ["{x}", "{0}", "{}", "}{", {"a": "{b}"}, ["{"]])
def test_braces_in_a_value_are_quoted_not_filled(value):
    """A message is a template for translation; a value holding braces is quoted as given."""
    with pytest.raises(CalculatorInputError) as raised:
        CALCULATORS["regroup"].run({"honor": value})
    assert str(raised.value) == f"honor: must be an integer from 0 to 20, got {value!r}"
