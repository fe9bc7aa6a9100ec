"""The units file: round trip, every bad field named where it is, files that are not ours refused,
and the inputs every calculator takes from a profile accepted by that calculator."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from calculator_inputs import BASE
from hypothesis import given
from hypothesis import strategies as st
from unit_profiles import ARCHERS, EVERY_TYPE, SAMURAI, WARBAND, units_file

from calculators import CALCULATORS, CalculatorInputError
from calculators.json_nesting import MAX_NESTING, NESTING_MESSAGE, nesting_depth
from calculators.presentation import answer
from calculators.profiles import MAX_FILE_CHARACTERS, MAX_UNITS, find, parse_units, read_units, units_document
from calculators.unit_inputs import FILLERS, unit_inputs


def test_a_file_round_trips_through_json():
    profiles = read_units(units_file(ARCHERS, SAMURAI, WARBAND, *EVERY_TYPE))
    again = parse_units(json.dumps(units_document(profiles)))
    assert again == profiles
    assert units_document(again) == units_document(profiles)
    archers = find(profiles, "ashigaru ARCHERS", "mine")
    assert archers.models == 6 and archers.attack == 6 and archers.ki is None


def test_omitted_fields_take_their_defaults():
    profile = read_units(units_file(SAMURAI))[0]
    assert (profile.ranged, profile.loaded, profile.honor, profile.movement_cm) == (False, False, None, None)


BAD_FIELDS = [
    ({"attack": 21}, "units[0].attack", "from 0 to 20"),
    ({"attack": "6"}, "units[0].attack", "an integer"),
    ({"attack": True}, "units[0].attack", "an integer"),
    ({"wounds": []}, "units[0].wounds", "a list of 1 to 100 integers"),
    ({"wounds": [1] * 101}, "units[0].wounds", "a list of 1 to 100 integers"),
    ({"wounds": [0]}, "units[0].wounds", "from 1 to 20"),
    ({"unit_type": "dragon"}, "units[0].unit_type", "one of infantry, cavalry"),
    ({"game": "chess"}, "units[0].game", "one of kensei, ronin"),
    ({"name": ""}, "units[0].name", "printable"),
    ({"name": "x" * 61}, "units[0].name", "1 to 60"),
    ({"name": "a\nb"}, "units[0].name", "printable"),
    ({"colour": "red"}, "units[0].colour", "unknown field"),
    ({"loaded": True}, "units[0].loaded", "ranged"),
    ({"ranged": True, "short_range_cm": 10, "range_cm": 5, "long_range_cm": 40}, "units[0].range_cm", "between"),
    ({"ranged": True, "range_cm": 5, "long_range_cm": 40}, "units[0].short_range_cm", "needed"),
    ({"movement_cm": 0}, "units[0].movement_cm", "from 1 to 50"),
]


@pytest.mark.parametrize(
    ("change", "field", "says"), BAD_FIELDS, ids=[case[1] + str(i) for i, case in enumerate(BAD_FIELDS)]
)
def test_a_bad_field_is_named_where_it_is(change, field, says):
    with pytest.raises(CalculatorInputError) as caught:
        read_units(units_file({**SAMURAI, **change}))
    assert caught.value.field == field
    assert says in caught.value.describe(str)


def test_a_missing_field_is_named():
    profile = dict(SAMURAI)
    del profile["defense"]
    with pytest.raises(CalculatorInputError, match=r"units\[0\]\.defense: is required"):
        read_units(units_file(profile))


def test_the_second_unit_is_named_by_its_place():
    with pytest.raises(CalculatorInputError) as caught:
        read_units(units_file(SAMURAI, {**ARCHERS, "armor": -1}))
    assert caught.value.field == "units[1].armor"


@pytest.mark.parametrize(
    ("text", "field", "says"),
    [
        ("not json", "units", "JSON"),
        ("[" * 100_000 + "]" * 100_000, "units", "JSON"),
        (json.dumps({"units": []}), "format", "not a units file"),
        (json.dumps({"format": "kensei-ref/units", "version": 2, "units": []}), "version", "from 1 to 1"),
        (json.dumps({"format": "kensei-ref/units", "version": "1", "units": []}), "version", "integer"),
        (
            json.dumps({"format": "kensei-ref/units", "version": 1, "units": {}}),
            "units",
            "must be a list of units",
        ),
        (json.dumps(units_file(*[SAMURAI] * (MAX_UNITS + 1))), "units", "must hold at most 200 units, got 201"),
        (json.dumps(units_file(SAMURAI, {**SAMURAI, "name": "SAMURAI "})), "units[1].name", "another unit: SAMURAI"),
        (json.dumps(units_file(["a list"])), "units[0]", "an object"),
        (" " * (MAX_FILE_CHARACTERS + 1), "units", "must be a file of at most 1000000 characters"),
    ],
    ids=["garbage", "deep", "not ours", "newer", "version text", "units object", "too many", "twice", "list", "huge"],
)
def test_a_file_that_is_not_a_valid_units_file_is_refused_in_one_error(text, field, says):
    with pytest.raises(CalculatorInputError) as caught:
        parse_units(text)
    assert caught.value.field == field
    assert says in caught.value.describe(str)


def test_an_unknown_name_lists_the_names_of_the_file():
    profiles = read_units(units_file(ARCHERS, SAMURAI))
    with pytest.raises(CalculatorInputError, match=r"enemy: must name a unit of the file .*'Samurai'.*got 'Ninja'"):
        find(profiles, "Ninja", "enemy")


@pytest.mark.parametrize("name", sorted(CALCULATORS))
@pytest.mark.parametrize("mine", [ARCHERS, SAMURAI, WARBAND, *EVERY_TYPE], ids=lambda unit: unit["name"])
def test_every_calculator_accepts_the_inputs_a_profile_gives(name, mine):
    profiles = read_units(units_file(mine, {**SAMURAI, "name": "enemy"}))
    filled = unit_inputs(name, profiles[0], profiles[1])
    mapping = {key: value for key, value in {**BASE[name], **filled}.items() if value is not None}
    CALCULATORS[name].evaluate(mapping)


def test_profiles_fill_what_each_calculator_asks_from_a_unit():
    archers, samurai, band = read_units(units_file(ARCHERS, SAMURAI, WARBAND))
    assert unit_inputs("shooting", archers, samurai) == {
        "dice": None,
        "models": None,
        "wounds_each": None,
        "wounds": [1] * 6,
        "attack": 6,
        "defense": 6,
        "armor": 4,
    }
    melee = unit_inputs("melee", archers, samurai)
    assert (melee["a_models"], melee["a_wounds"], melee["b_models"], melee["b_wounds"]) == (6, 6, 4, 8)
    assert unit_inputs("charge", archers) == {"dice": None, "unit_type": "infantry"}
    assert unit_inputs("regroup", archers) == {"honor": 6}
    assert unit_inputs("regroup", samurai) == {}  # no Honor in that profile: the field stays as it was
    assert unit_inputs("morale", band) == {"morale": 7, "commander": False, "banner": True}
    assert unit_inputs("morale-trigger", band) == {"starting_fighters": 8}
    assert unit_inputs("morale", archers) == {}  # a Kensei unit gives a Ronin calculator nothing
    assert unit_inputs("priority", band) == {}
    assert unit_inputs("rank-test", band) == {}  # no Rank given: the field stays as it was
    leader = read_units(units_file({**WARBAND, "rank": 3}))[0]
    assert unit_inputs("rank-test", leader) == {"rank": 3}
    assert CALCULATORS["rank-test"].run(unit_inputs("rank-test", leader))["p_success"] == 0.5
    assert set(FILLERS) <= set(CALCULATORS)


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_the_data_format_pages_example_is_a_valid_units_file(lang):
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / lang / "data-format.md").read_text(encoding="utf-8")
    section = text.split("{#units-file}", 1)[1]
    example = section.split("```json\n", 1)[1].split("```", 1)[0]
    kensei, ronin = parse_units(example)
    assert (kensei.game, ronin.game) == ("kensei", "ronin")
    assert kensei.ranged and kensei.long_range_cm == 45 and ronin.fighters == 8


# ---- Nesting, measured before parsing ----------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab,:'),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(alphabet='[]{}"\\a'), children, max_size=3)
    ),
    max_leaves=30,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@given(JSON_VALUES)
def test_the_nesting_is_counted_as_the_parser_would_nest_it(value):
    """Brackets and quotes inside strings (escaped as JSON writes them) never count."""
    assert nesting_depth(json.dumps(value)) == _depth(value)


def _scanned_depth(text: str) -> int:
    """The depth as units.js counts it, a character at a time (an escape skips the next character, a
    quote never closed takes the rest of the text)."""
    depth = deepest = 0
    in_string = escaped = False
    for character in text:
        if escaped:
            escaped = False
        elif in_string:
            escaped, in_string = character == "\\", character != '"'
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in "]}":
            depth -= 1
    return deepest


@given(st.text(alphabet='"\\[]{}a\n', max_size=60))
def test_any_text_is_counted_as_the_page_counts_it(text):
    """Text that is no JSON too: unclosed strings, stray escapes and brackets, as units.js reads them."""
    assert nesting_depth(text) == _scanned_depth(text)


def test_a_file_of_escaped_quotes_never_closed_is_refused_at_once():
    """A megabyte (within the size allowed) of escaped quotes after a quote never closed: counted in one
    pass, then refused by the parser; the count once read it again from every quote, for hours. In a
    process of its own, so that a count that does not end fails the test instead of hanging the run."""
    text = '"' + '\\"' * ((MAX_FILE_CHARACTERS - 1) // 2)
    program = (
        "import sys; from calculators import CalculatorInputError; from calculators.profiles import parse_units\n"
        "try: parse_units(sys.stdin.read())\n"
        "except CalculatorInputError as error: print(error.field, error.msgid)"
    )
    done = subprocess.run([sys.executable, "-c", program], input=text, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("units "), done.stderr


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[" * 20_000 + "]" * 20_000, id="the sweep's link: 20,000 lists"),
        pytest.param('{"units": ' + "[" * 100_000, id="100,000 unclosed"),
        pytest.param(json.dumps({**units_file(SAMURAI), "x": [[[[[[[[[]]]]]]]]]}), id="one level too many"),
    ],
)
def test_a_file_nested_too_deep_is_refused_before_it_is_parsed(text, monkeypatch):
    monkeypatch.setattr(json, "loads", None)  # never reached: the parser is what a deep file overflows
    with pytest.raises(CalculatorInputError) as caught:
        parse_units(text)
    assert caught.value.field == "units"
    assert caught.value.msgid == NESTING_MESSAGE
    assert f"is at most {MAX_NESTING}, got" in caught.value.describe(str)


def test_a_file_nested_as_deep_as_allowed_is_read():
    assert parse_units(json.dumps({**units_file(SAMURAI), "x": [[[[[[[]]]]]]]}))[0].name == "Samurai"


def test_a_deep_request_to_the_engine_is_answered_with_an_error_naming_the_units():
    request = json.dumps({"fill": {"calculator": "shooting", "mine": {"wounds": []}}}).replace(
        "[]", "[" * 50_000 + "]" * 50_000
    )
    error = json.loads(answer(request))["error"]
    assert (error["field"], error["message"], error["values"]["depth"]) == ("units", NESTING_MESSAGE, 50_003)


@pytest.mark.parametrize("text", [None, 5, b"{}", ["units"]])
def test_a_units_file_that_is_no_text_is_refused_naming_it(text):
    with pytest.raises(CalculatorInputError) as refused:
        parse_units(text)
    assert refused.value.field == "units" and "cannot be read as JSON" in refused.value.describe(str)


def test_a_units_file_saved_with_a_byte_order_mark_reads_as_without():
    """Windows Notepad writes UTF-8 with a byte order mark (U+FEFF) first; a browser drops it as it reads."""
    text = json.dumps(units_file(ARCHERS, SAMURAI))
    assert parse_units("\ufeff" + text) == parse_units(text)


@pytest.mark.parametrize("name", [None, 7, ["Samurai"]])
def test_a_unit_named_by_no_text_is_refused_naming_the_field(name):
    with pytest.raises(CalculatorInputError) as refused:
        find(read_units(units_file(ARCHERS, SAMURAI)), name, "mine")
    assert refused.value.field == "mine" and "must name a unit of the file" in refused.value.describe(str)
