"""The loader bounds its work and accounts for every data file: hostile or lost data gets one clear problem
naming the file, never a traceback, a hang or a silent gap."""

from __future__ import annotations

import resource
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from cli_capture import run_cli
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kensei_ref.cli import main as cli
from kensei_ref.rules.loader import DATA_DIR, LARGEST_VALUE, DataError, load

SAMPLE_DATA = Path(__file__).resolve().parent / "fixtures" / "sample_data"
CHAPTER = "kensei/08-sample.yaml"


def _copy(tmp_path: Path, source: Path = SAMPLE_DATA) -> Path:
    data = tmp_path / "data"
    shutil.copytree(source, data)
    return data


def _replace(data: Path, file: str, old: str, new: str) -> None:
    path = data / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text {old!r} not found in {file}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _report(data: Path) -> str:
    with pytest.raises(DataError) as caught:
        load(data)
    return str(caught.value)


def _alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs": each list holds ``width`` aliases of the one before (9**9 "lol" in all)."""
    lists = ["&l0 [" + ", ".join(["lol"] * width) + "]"]
    lists += [f"&l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]" for i in range(1, levels)]
    return "[" + ", ".join(lists) + "]"


def test_an_alias_bomb_in_a_text_fails_fast_and_small(tmp_path):
    data = _copy(tmp_path)
    _replace(data, CHAPTER, "title: {en: Commandment points,", f"title: {{en: {_alias_bomb()},")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    report = _report(data)
    assert time.perf_counter() - start < 0.5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000  # kilobytes
    assert "data/kensei/08-sample.yaml: line 12, column 18: YAML anchors and aliases are not allowed" in report


def test_a_single_anchor_is_refused_too(tmp_path):
    data = _copy(tmp_path)
    _replace(data, CHAPTER, "values: {taisho: 3}", "values: {taisho: &three 3}")
    assert "data/kensei/08-sample.yaml: line 23, column 22: YAML anchors and aliases are not allowed" in _report(data)


@pytest.mark.parametrize("depth", [pytest.param(900, id="900"), pytest.param(200_000, id="200000")])
def test_deep_nesting_is_refused_by_name(tmp_path, depth):
    data = _copy(tmp_path)
    _replace(data, CHAPTER, "text: {en: Two tries.,", "text: {en: " + "[" * depth + "]" * depth + ",")
    start = time.perf_counter()
    report = _report(data)
    assert time.perf_counter() - start < 0.5
    assert "data/kensei/08-sample.yaml: line 38, column 34: " in report
    assert "nested more than 20 levels deep" in report


def test_a_long_value_is_shown_shortened(tmp_path):
    data = _copy(tmp_path)
    _replace(data, CHAPTER, "values: {taisho: 3}", "values: {taisho: [" + ", ".join(["x" * 50] * 2000) + "]}")
    with pytest.raises(DataError) as caught:
        load(data)
    problem = str(caught.value.problems[0])
    assert problem.startswith(
        "data/kensei/08-sample.yaml: rules[kensei.points].values.taisho: must be an integer, got ["
    )
    assert len(problem) < 200


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param("!!timestamp soon", "'soon' cannot be read as a date", id="timestamp-tag"),
        pytest.param("2013-13-45", "'2013-13-45' cannot be read as a date", id="thirteenth-month"),
        pytest.param("!!bool maybe", "'maybe' cannot be read as true or false", id="bool-tag"),
        pytest.param("9" * 5000, "'99999999", id="five-thousand-digits"),
    ],
)
def test_a_scalar_python_cannot_hold_is_located(tmp_path, value, message):
    data = _copy(tmp_path)
    _replace(data, CHAPTER, "values: {taisho: 3}", f"values: {{taisho: {value}}}")
    assert f"data/kensei/08-sample.yaml: malformed YAML: line 23, column 22: {message}" in _report(data)


def test_a_missing_sources_file_is_named(tmp_path):
    data = _copy(tmp_path)
    (data / "sources.yaml").unlink()
    assert (
        "data/sources.yaml: missing: the rule data needs this file (the sources file holds `texts` and `references`)"
        in _report(data)
    )


def test_a_year_in_roman_numerals_is_named(tmp_path):
    data = _copy(tmp_path)
    _replace(data, "sources.yaml", "year: 2013", "year: MMXX")
    assert "data/sources.yaml: references[0].year: must be an integer, got 'MMXX'" in _report(data)


def test_a_folder_named_like_a_data_file_is_named(tmp_path):
    data = _copy(tmp_path)
    (data / "kensei" / "99-dir.yaml").mkdir()
    assert "data/kensei/99-dir.yaml: is a folder: only YAML files end in .yaml here" in _report(data)


@pytest.mark.parametrize(
    ("file", "content"),
    [
        pytest.param(CHAPTER, "", id="empty-chapter"),
        pytest.param(CHAPTER, "# nothing yet\n\n# really\n", id="comment-only-chapter"),
        pytest.param("glossary/sample.yaml", "", id="empty-glossary"),
        pytest.param("sources.yaml", "---\n", id="empty-sources"),
    ],
)
def test_an_empty_file_is_an_error_naming_it(tmp_path, file, content):
    data = _copy(tmp_path)
    (data / file).write_text(content, encoding="utf-8")
    assert f"data/{file}: empty (or only comments): " in _report(data)


def test_an_empty_glossary_file_is_named_first_without_follow_on_problems(tmp_path):
    data = _copy(tmp_path, DATA_DIR)
    (data / "glossary" / "terrain.yaml").write_text("", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load(data)
    problems = [str(problem) for problem in caught.value.problems]
    assert problems == ["data/glossary/terrain.yaml: empty (or only comments): a glossary file holds `terms`"]
    assert "references between files were not checked: fix these files first: data/glossary/terrain.yaml" in str(
        caught.value
    )


@pytest.mark.parametrize(
    ("old", "new", "found"),
    [
        pytest.param("see {rule:kensei.try-again}.", "see {rule:kensei.try-again).", "'{rule:kensei.try-again).'",
                     id="closed-with-a-parenthesis"),
        pytest.param("see {rule:kensei.try-again}.", "see {rule:kensei.try-again", "'{rule:kensei.try-again'",
                     id="never-closed"),
        pytest.param("see {rule:kensei.try-again}.", "see {rul:kensei.try-again}.", "'{rul:kensei.try-again}.'",
                     id="unknown-kind"),
        pytest.param("see {rule:kensei.try-again}.", "see {rule: kensei.try-again}.", "'{rule: kensei.try-again}.'",
                     id="space-in-the-target"),
        pytest.param("see {rule:kensei.try-again}.", "see rule:kensei.try-again}.", "'}.'", id="stray-closing-brace"),
        pytest.param("see {rule:kensei.try-again}.", "see {rule:kensei.try-again|the {second} one}.",
                     "'{rule:kensei.try-again|the {second} one}'", id="brace-in-a-label"),
    ],
)  # fmt: skip
def test_a_malformed_reference_is_reported_with_file_and_key(tmp_path, old, new, found):
    data = _copy(tmp_path)
    _replace(data, CHAPTER, old, new)
    report = _report(data)
    assert f"data/kensei/08-sample.yaml: rules[kensei.points].body.en: malformed reference (found {found})" in report
    assert "write {rule:ID}, {term:ID}, {value:KEY}, {signed:KEY} or {percent:KEY}" in report


def test_data_check_shows_one_clean_message(tmp_path, monkeypatch, capsys):
    data = _copy(tmp_path)
    (data / "sources.yaml").unlink()
    monkeypatch.setattr(cli, "DATA_DIR", data)
    status, out, err = run_cli(cli.main, capsys, "data", "check")
    assert status == 1
    assert out == ""
    assert "Traceback" not in err
    assert err.splitlines()[0] == "1 problem(s) in the rule data:"
    assert (
        "data/sources.yaml: missing: the rule data needs this file (the sources file holds `texts` and `references`)"
        in err.splitlines()[1]
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=-(10**30), max_value=10**30) | st.integers(min_value=-1001, max_value=1001))
@example(10**26)
@example(LARGEST_VALUE)
@example(-LARGEST_VALUE - 1)
def test_a_rule_value_is_bounded_where_it_is_written(value):
    """Within the bound a value loads; beyond it the problem names the file, the rule and the bound (a
    27-digit value once reached Babel as a ``decimal.InvalidOperation`` in the build)."""
    with tempfile.TemporaryDirectory() as folder:
        data = _copy(Path(folder))
        _replace(data, CHAPTER, "values: {taisho: 3}", f"values: {{taisho: {value}}}")
        if abs(value) <= LARGEST_VALUE:
            assert load(data).rule("kensei.points").values["taisho"] == value
            return
        assert (
            "data/kensei/08-sample.yaml: rules[kensei.points].values.taisho: "
            f"must be an integer from -{LARGEST_VALUE} to {LARGEST_VALUE}, got {str(value)[:20]}"
        ) in _report(data)


def test_data_check_names_the_file_and_rule_of_a_27_digit_value(tmp_path, monkeypatch, capsys):
    data = _copy(tmp_path)
    _replace(data, CHAPTER, "values: {taisho: 3}", "values: {taisho: 100000000000000000000000000}")
    monkeypatch.setattr(cli, "DATA_DIR", data)
    status, out, err = run_cli(cli.main, capsys, "data", "check")
    assert (status, out) == (1, "")
    assert "Traceback" not in err
    assert err.splitlines()[1].startswith(
        "  data/kensei/08-sample.yaml: rules[kensei.points].values.taisho: must be an integer from -1000 to 1000"
    )
