"""Hostile input from every side, generated: no input reaches a traceback, a hang or a silent wrong answer.

- The calculators' Python API, with JSON-like mappings of every shape: a result that JSON can carry
  with only finite numbers, or :class:`CalculatorInputError` naming the input at fault.
- ``kensei-ref calc NAME --option value``, run in-process: exit 0 with output, or exit 2 with exactly
  one line on stderr.
- The rule-data loader over the sample data with one corruption (random bytes, a truncated file, a
  wrong type at a key, deep nesting, aliases, stray text, a lost file): it loads, or raises
  :class:`DataError` whose every problem names a data file.

Each property runs a bounded number of examples (100 per calculator, 200 command lines, 100 data
sets: the file takes about 20 s of one core) and each example has a deadline: a slow input fails too.
The inputs that once broke something are always tried (``@example``).
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from calculators import CALCULATORS, CalculatorInputError, Param, RuleValues
from calculators.advisor import PARAMS as ADVISOR_PARAMS
from calculators.orders import ACTIONS
from kensei_ref.cli.calc import option
from kensei_ref.cli.main import main
from kensei_ref.languages import LANGUAGES
from kensei_ref.rules.loader import DataError, load

SAMPLE_DATA = Path(__file__).resolve().parent / "fixtures" / "sample_data"
DATA_FILES = ("kensei/08-sample.yaml", "glossary/sample.yaml", "sources.yaml")
RULES = RuleValues.bundled()

FUZZ = settings(
    max_examples=100,
    deadline=5000,  # milliseconds: every example, slow inputs included, answers within a few seconds
    database=None,  # nothing written into the checkout
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ---- Hostile values ------------------------------------------------------------------------------

TRICKY_TEXTS = [
    "", " ", "7 ", " 7", "+5", "1_0", "٣", "３", "١٠", "0x10", "1e3", "7.0", "-0", "--1", "nan", "inf", "-inf",
    "true", "True", "yes", "none", "null", "2,2,2,1", ",", "2,,1", "2, 2", "{x}", "{0}", "{}", "{", "}}", "%s", "%(x)s",
    "\t", "\n", "7\n", "a\rb", "\x1b[31m", "\u202e", "\ufeff7", "𝟕", "9" * 40, "9" * 5000, "-" + "9" * 5000,
    "x" * 2000,
]  # fmt: skip
"""Texts a terminal, a link or a pasted value can hold, each once broke or could break a parser."""

HUGE_INTEGERS = [2**31, 2**63, -(2**63), 10**30, -(10**30), 10**4000, -(10**4000)]

texts = st.one_of(
    st.sampled_from(TRICKY_TEXTS),
    st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=12),
    st.integers(-(10**25), 10**25).map(str),
)
"""What can be typed: no NUL (no argument can hold one) and no lone surrogate (output is read in memory here,
where a terminal's stream would escape one)."""

integers = st.one_of(st.integers(-30, 300), st.integers(), st.sampled_from(HUGE_INTEGERS))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    integers,
    st.floats(allow_nan=True, allow_infinity=True),
    texts,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=2),
    max_leaves=4,
)
"""Anything ``JSON.parse`` or a caller could hand over (and the numbers JSON cannot carry)."""


def valid_values(param: Param) -> st.SearchStrategy[Any]:
    """Values the parameter allows, bounds included, and just beyond them."""
    if param.kind == "bool":
        return st.booleans()
    if param.kind == "choice":
        return st.sampled_from(param.choices)
    minimum, maximum = param.bounds(RULES)
    low, high = (minimum if minimum is not None else -50), (maximum if maximum is not None else 250)
    numbers = st.integers(low, high) | st.sampled_from([low - 1, high + 1])
    if param.kind == "int":
        return numbers
    return st.lists(numbers, min_size=max(param.min_length - 1, 0), max_size=(param.max_length or 20) + 1)


def inputs_for(name: str) -> st.SearchStrategy[Any]:
    """A mapping for one calculator: each input omitted, allowed or hostile, sometimes unknown keys
    too; now and then not a mapping at all."""
    params = CALCULATORS[name].params
    known = st.fixed_dictionaries({}, optional={p.name: valid_values(p) | json_values for p in params})
    unknown_keys = st.one_of(
        texts, st.sampled_from([p.name.upper() for p in params] + ["rules", "__class__", "lang"]), integers, st.none()
    )
    extra = st.dictionaries(unknown_keys, scalars, max_size=2)
    mappings = st.builds(lambda a, b: {**b, **a}, known, extra | st.just({}) | st.just({}))
    return mappings | scalars | st.lists(scalars, max_size=2)


def finite_json(result: Any) -> str:
    """The result as JSON, refusing NaN and infinities (``allow_nan=False``) and any non-JSON type."""
    return json.dumps(result, allow_nan=False)


# ---- (a) Every calculator's Python API -----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CALCULATORS))
@FUZZ
@given(data=st.data())
def test_calculator_returns_finite_json_or_names_the_input(name, data):
    calculator = CALCULATORS[name]
    mapping = data.draw(inputs_for(name), label="inputs")
    try:
        result = calculator.run(mapping)
    except CalculatorInputError as error:
        message = str(error)
        params = {param.name for param in calculator.params}
        unknown = {str(key) for key in mapping if key not in params} if isinstance(mapping, dict) else set()
        assert error.field in params | unknown | {"inputs"}, message
        assert error.field not in unknown or "unknown input" in message
        assert message.startswith(f"{error.field}: ")
        assert error.describe(option)  # the terminal's wording fills in the same template
    else:
        assert result["calculator"] == name
        finite_json(result)


# ---- (b) The command line ------------------------------------------------------------------------


def run_main(argv: list[str]) -> tuple[int, str, str]:
    """``kensei-ref ARGV`` in-process: exit status, stdout, stderr (a traceback fails the test)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 1
    return status, out.getvalue(), err.getvalue()


def option_texts(param: Param) -> st.SearchStrategy[str]:
    """What follows an option: the allowed value as typed, or anything."""
    if param.kind == "int_list":
        typed = valid_values(param).map(lambda items: ",".join(map(str, items)))
    else:
        typed = valid_values(param).map(str)
    return typed | texts


UNITS_FILES = ["/nonexistent/units.json", "/dev/null", str(SAMPLE_DATA), str(SAMPLE_DATA / "sources.yaml")]
"""Files that are not a units file: missing, empty, a folder, YAML."""


@st.composite
def command_lines(draw: Callable[..., Any]) -> list[str]:
    """``calc NAME`` then each input omitted, given as the user would, or mistyped; sometimes options the
    command does not know, stray words, ``--lang`` and ``--json``."""
    name = draw(st.sampled_from(sorted(CALCULATORS)))
    argv = ["calc", name]
    for param in CALCULATORS[name].params:
        if param.kind == "bool":
            argv += draw(st.sampled_from([[], [], [option(param.name)], [option(param.name), "yes"]]))
        elif draw(st.integers(0, 3)):
            argv += [option(param.name), draw(option_texts(param))]
    if draw(st.booleans()):
        argv += ["--lang", draw(st.sampled_from(LANGUAGES) | texts)]
    if draw(st.booleans()):
        argv.append("--json")
    if not draw(st.integers(0, 4)):
        argv += ["--units", draw(st.sampled_from(UNITS_FILES) | texts)]
    for names in ("--mine", "--enemy"):
        if not draw(st.integers(0, 4)):
            argv += [names, draw(texts)]
    strays = st.sampled_from(["--nope", "--a", "-x", "--", "--json=1", "--lang", "-h5", "{x}"]) | texts
    argv += draw(st.lists(strays, max_size=2))
    return argv


@settings(FUZZ, max_examples=200)
@given(argv=command_lines())
@example(argv=["calc", "regroup", "--honor", "5", "--lang", "{x}"])  # a KeyError traceback once
@example(argv=["calc", "action-points", "\n"])  # an error over two lines once
@example(argv=["calc", "shooting", "--dice", "{}", "--attack", "1_0", "--defense", "٣", "--armor", "+5"])
def test_calc_command_line_exits_0_with_output_or_2_with_one_line(argv):
    status, out, err = run_main(argv)
    assert_answered_or_refused(argv, status, out, err, answered=status == 0)


def assert_answered_or_refused(argv: list[str], status: int, out: str, err: str, *, answered: bool) -> None:
    """An answer on stdout (valid JSON under ``--json``) and nothing on stderr; or exit 2 with one
    line on stderr and nothing on stdout."""
    if answered:
        assert out.strip() and not err, (argv, err)
        if "--json" in argv:
            finite_json(json.loads(out))
    else:
        assert status == 2, (argv, status, err)
        assert err.endswith("\n") and err.count("\n") == 1, (argv, err)
        assert not out, (argv, out)


ADVISED_UNITS = {
    "format": "kensei-ref/units",
    "version": 1,
    "units": [
        {"name": "Archers", "game": "kensei", "unit_type": "infantry", "wounds": [1, 1, 1], "attack": 6,
         "defense": 5, "armor": 3, "initiative": 4, "honor": 6, "ranged": True, "loaded": False,
         "short_range_cm": 10, "range_cm": 30, "long_range_cm": 45},
        {"name": "Riders", "game": "kensei", "unit_type": "cavalry", "wounds": [2, 2], "attack": 5,
         "defense": 6, "armor": 4, "initiative": 5},
        {"name": "Band", "game": "ronin", "unit_type": "warband", "fighters": 6, "morale": 7},
    ],
}  # fmt: skip
"""A units file the advisor can read: a shooting unit, a charging one, and a Ronin warband it refuses."""


@st.composite
def advise_lines(draw: Callable[..., Any]) -> list[str]:
    """``advise`` with a readable units file (or not), names of its units (or anything), and each
    situation option omitted, given as the user would, or mistyped."""
    clean = draw(st.booleans(), label="clean")  # half the lines only as a player types them: the tables too

    def mostly(usual: st.SearchStrategy[str], other: st.SearchStrategy[str]) -> str:
        return draw(usual if clean or draw(st.integers(0, 5)) else other)

    names = st.sampled_from([unit["name"] for unit in ADVISED_UNITS["units"]])
    argv = ["advise", "--units", mostly(st.just(str(ADVISE_FILE)), st.sampled_from(UNITS_FILES) | texts)]
    argv += ["--mine", mostly(names, texts), "--enemy", mostly(names, texts)]
    for param in ADVISOR_PARAMS:
        if param.kind == "bool":
            argv += draw(st.sampled_from([[], [], [option(param.name)]]))
        elif param.name == "distance" or not draw(st.integers(0, 2)):  # the distance is required
            allowed = (
                valid_values(param)
                if param.kind == "choice"
                else st.lists(st.integers(*param.bounds(RULES)), min_size=1, max_size=6).map(
                    lambda items: ",".join(map(str, items))
                )
                if param.kind == "int_list"
                else st.integers(*param.bounds(RULES))
            )
            argv += [option(param.name), mostly(allowed.map(str), valid_values(param).map(str) | texts)]
    if not draw(st.integers(0, 3)):
        actions = st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=4).map(",".join)
        argv += ["--why", mostly(actions, st.lists(st.sampled_from(ACTIONS) | texts, max_size=7).map(",".join))]
    if draw(st.booleans()):
        argv += ["--lang", mostly(st.sampled_from(LANGUAGES), texts)]
    if draw(st.booleans()):
        argv.append("--json")
    if draw(st.booleans()):
        argv.append("--wide")
    strays = st.sampled_from(["--nope", "--distance", "-x", "--", "--json=1", "--wide=1", "{x}"]) | texts
    if not clean and not draw(st.integers(0, 5)):
        argv.append(draw(strays))
    return argv


ADVISE_FILE = Path(tempfile.mkdtemp(prefix="kensei-ref-fuzz-")) / "units.json"
ADVISE_FILE.write_text(json.dumps(ADVISED_UNITS), encoding="utf-8")


def _advised(mine: str, enemy: str, *words: str) -> list[str]:
    return ["advise", "--units", "ADVISE", "--mine", mine, "--enemy", enemy, *words]


@settings(FUZZ, max_examples=200)
@given(argv=advise_lines())
@example(argv=_advised("Archers", "Riders", "--why", "fire," * 40))
@example(argv=_advised("Band", "Riders", "--distance", "{0}"))
@example(argv=_advised("Archers", "Archers", "--distance", "1e9"))
@example(argv=_advised("Band", "Archers", "--distance", "0", "--why", "march"))  # a KeyError once
@example(argv=_advised("Archers", "Riders", "--distance", "0", "--why", "fire,fire", "--json"))  # text once
@example(argv=_advised("Archers", "Archers", "--distance", "0", "--charge-reading", "\n", "--lang", "fr"))  # 2 lines
def test_advise_command_line_exits_0_with_output_or_2_with_one_line(argv):
    argv = [str(ADVISE_FILE) if word == "ADVISE" else word for word in argv]
    status, out, err = run_main(argv)
    event(f"exit {status}")
    # exit 1 answers too: the sequence --why asks about is refused
    assert_answered_or_refused(argv, status, out, err, answered=status == 0 or (status == 1 and "--why" in argv))


PLANNED_TABLE = {
    "format": "kensei-ref/table", "version": 1, "game": "kensei", "general": "taisho", "dominance": False,
    "mine": [{"unit": "Archers", "state": "ready"}], "enemy": [{"unit": "Riders"}],
    "distances": [{"mine": "Archers", "enemy": "Riders", "cm": 20}],
}  # fmt: skip
"""A table file the plan can read: the fuzzed lines change one of its fields at a time, or the options."""

PLAN_DIR = Path(tempfile.mkdtemp(prefix="kensei-ref-fuzz-plan-"))
(PLAN_DIR / "units.json").write_text(json.dumps(ADVISED_UNITS), encoding="utf-8")


@st.composite
def plan_lines(draw: Callable[..., Any]) -> tuple[list[str], dict]:
    """``plan`` with the readable units file and a table file of which one field may be hostile, and each
    option omitted, given as the player would, or mistyped."""
    table = json.loads(json.dumps(PLANNED_TABLE))
    if draw(st.booleans()):
        where = draw(st.sampled_from(["general", "dominance", "ki", "mine", "enemy", "distances", "game", "version"]))
        table[where] = draw(st.one_of(texts, st.integers(-10**30, 10**30), st.booleans(), st.none(),
                                      st.just([{"unit": "Archers", "state": "fleeing"}]),
                                      st.just([{"mine": "Archers", "enemy": "Riders", "cm": 3}])))  # fmt: skip
    argv = ["plan", "--units", str(PLAN_DIR / "units.json"), "--table", "TABLE"]
    if draw(st.booleans()):
        argv += ["--objective", draw(st.sampled_from(["expected_wounds", "victory", "regrouped", "net"]) | texts)]
    if draw(st.booleans()):
        argv += ["--lang", draw(st.sampled_from(LANGUAGES) | texts)]
    if draw(st.booleans()):
        argv.append("--json")
    return argv, table


@settings(FUZZ, max_examples=100)
@given(case=plan_lines())
@example(case=(["plan", "--units", str(PLAN_DIR / "units.json"), "--table", "TABLE", "--lang", "de"], PLANNED_TABLE))
def test_plan_command_line_exits_0_with_output_or_2_with_one_line(case):
    """A traceback once: a language the terminal does not speak reached the rendering."""
    argv, table = case
    path = PLAN_DIR / "table.json"
    path.write_text(json.dumps(table), encoding="utf-8")
    argv = [str(path) if word == "TABLE" else word for word in argv]
    status, out, err = run_main(argv)
    event(f"exit {status}")
    assert_answered_or_refused(argv, status, out, err, answered=status == 0)


# ---- (c) The loader over corrupted data ----------------------------------------------------------


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    """Every key path inside a parsed YAML document (the document itself included)."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*path, index))
    return found


def _set(document: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return document


def _wrong_type(draw: Callable[..., Any], text: str) -> str:
    document = yaml.safe_load(text)
    path = draw(st.sampled_from(_paths(document)), label="path")
    return yaml.safe_dump(_set(document, path, draw(json_values, label="value")), allow_unicode=True)


def _insert(draw: Callable[..., Any], text: str, snippet: str) -> str:
    at = draw(st.integers(0, len(text)), label="at")
    return text[:at] + snippet + text[at:]


def _deep(draw: Callable[..., Any], text: str) -> str:
    depth = draw(st.integers(1, 60) | st.sampled_from([900, 5000, 100_000]), label="depth")
    return _insert(draw, text, "[" * depth + "]" * depth)


ALIAS_SNIPPETS = [
    "&a x", "*a", "&a [1, 2] ", "{a: &b 1, c: *b}", "<<: *base\n", "!!python/object/apply:os.system [echo]",
    "[&l0 [lol, lol], &l1 [*l0, *l0, *l0], &l2 [*l1, *l1, *l1]]", "? [a, b]\n: c\n", "!!binary 'aGk='",
    "!!timestamp 2013-13-45", "{rule:kensei.points)", "{term:general", "}", "<script>", "\t", ": : :", "- - -",
    "\x85", "\ufeff", "99999999999999999999" * 300, "2013-13-45", "'", '"',
]  # fmt: skip
"""Fragments of YAML (and of what the data's texts may not hold) that are dropped in at random."""


@dataclass(frozen=True)
class Corruption:
    """One change to one data file: new ``content``, or none (the file is gone, or a folder)."""

    file: str
    kind: str
    content: bytes | None

    def apply(self, data: Path) -> None:
        path = data / self.file
        if self.content is not None:
            path.write_bytes(self.content)
            return
        path.unlink()
        if self.kind == "folder":
            path.mkdir()

    @property
    def noticeable(self) -> bool:
        """Whether the loader must name the file: it is empty or a folder, or the one file that must
        exist is gone (a chapter or glossary file removed is, for the loader, one file fewer)."""
        return self.kind in ("folder", "empty") or (self.kind == "gone" and self.file == "sources.yaml")

    def __repr__(self) -> str:
        content = self.content if self.content is None or len(self.content) < 400 else self.content[:400] + b"..."
        return f"Corruption({self.file!r}, {self.kind!r}, {content!r})"


@st.composite
def corruptions(draw: Callable[..., Any]) -> Corruption:
    """One data file and one change to it."""
    file = draw(st.sampled_from(DATA_FILES), label="file")
    text = (SAMPLE_DATA / file).read_text(encoding="utf-8")
    kind = draw(
        st.sampled_from(["bytes", "truncate", "wrong type", "deep", "alias", "insert", "empty", "gone", "folder"]),
        label="kind",
    )
    if kind == "bytes":
        content: bytes | None = draw(st.binary(max_size=300), label="bytes")
    elif kind == "truncate":
        content = text[: draw(st.integers(0, len(text)), label="length")].encode("utf-8")
    elif kind == "wrong type":
        content = _wrong_type(draw, text).encode("utf-8")
    elif kind == "deep":
        content = _deep(draw, text).encode("utf-8")
    elif kind in ("alias", "insert"):
        snippet = draw(st.sampled_from(ALIAS_SNIPPETS) if kind == "alias" else texts, label="snippet")
        content = _insert(draw, text, snippet).encode("utf-8")
    elif kind == "empty":
        content = draw(st.sampled_from([b"", b"# nothing\n", b"---\n", b"~\n", b"[]\n", b"{}\n"]), label="content")
    else:
        content = None
    return Corruption(file, kind, content)


BILLION_LAUGHS = (
    "[&l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"
    + "".join(f", &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9))
    + "]"
)


def _at_title(value: str) -> bytes:
    """The sample chapter with ``value`` as its first rule's English title."""
    text = (SAMPLE_DATA / DATA_FILES[0]).read_text(encoding="utf-8")
    return text.replace("{en: Commandment points,", "{en: " + value + ",", 1).encode("utf-8")


def _source_id(value: str) -> bytes:
    """The sample sources with ``value`` as the first source text's id, which every rule cites."""
    text = (SAMPLE_DATA / DATA_FILES[2]).read_text(encoding="utf-8")
    return text.replace('id: "002"', "id: " + value, 1).encode("utf-8")


@FUZZ
@given(corruption=corruptions())
@example(corruption=Corruption(DATA_FILES[0], "alias", _at_title(BILLION_LAUGHS)))  # minutes and gigabytes once
@example(corruption=Corruption(DATA_FILES[0], "deep", _at_title("[" * 100_000 + "]" * 100_000)))  # a crash once
@example(corruption=Corruption(DATA_FILES[0], "folder", None))
@example(corruption=Corruption(DATA_FILES[2], "deep", _source_id('"' + "[" * 3_000 + "]" * 3_000 + '"')))
@example(corruption=Corruption(DATA_FILES[2], "gone", None))
@example(corruption=Corruption(DATA_FILES[1], "empty", b"# nothing\n"))
@example(corruption=Corruption(DATA_FILES[0], "insert", _at_title("'{rule:kensei.points)'")))
def test_loader_loads_or_names_a_data_file(corruption):
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        shutil.copytree(SAMPLE_DATA, data)
        corruption.apply(data)
        try:
            load(data)
        except DataError as error:
            assert error.problems
            for problem in error.problems:
                assert problem.file.startswith("data/") and problem.file.endswith(".yaml"), problem
                assert problem.message and len(problem.message) < 400, problem
            if corruption.noticeable:
                assert f"data/{corruption.file}" in {problem.file for problem in error.problems}, str(error)
        else:
            assert not corruption.noticeable, "a lost file went unnoticed"
