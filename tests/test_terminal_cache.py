"""The compiled rule book in the user's cache (``kensei_ref.cli.compiled``): read back instead of rebuilt,
rebuilt when the data changes, a damaged or foreign file ignored, and the terminal's answers the same with
the cache, without it, and with a cache that cannot be written."""

from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_capture import run_cli

from kensei_ref import numbers
from kensei_ref.cli import compiled
from kensei_ref.cli.compiled import CompiledRules, cache_directory
from kensei_ref.cli.main import main
from kensei_ref.languages import LANGUAGES
from kensei_ref.rules import loader
from kensei_ref.rules import search as search_module


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """A copy of the rule data that a test may change."""
    copy = tmp_path_factory.mktemp("data") / "data"
    shutil.copytree(compiled.DATA_DIR, copy)
    return copy


@pytest.fixture
def loads(monkeypatch) -> list[Path]:
    """The data directories the loader is asked to read, in order (it still reads them)."""
    calls: list[Path] = []
    real = loader.load

    def counted(data_dir=loader.DATA_DIR, **options):
        calls.append(Path(data_dir))
        return real(data_dir, **options)

    monkeypatch.setattr(loader, "load", counted)
    return calls


def test_the_second_reader_does_not_load_the_data(data, tmp_path, loads):
    first = CompiledRules(data, tmp_path).book()
    assert loads == [data]
    again = CompiledRules(data, tmp_path).book()
    assert loads == [data], "the stored rule book is read, not the YAML"
    assert again == first
    assert again.rule("kensei.regroup").title["fr"] == first.rule("kensei.regroup").title["fr"]


def test_the_second_reader_does_not_build_the_index(data, tmp_path, monkeypatch):
    built = CompiledRules(data, tmp_path).index("ru")

    def refuse(*_):
        raise AssertionError("the index was built again")

    monkeypatch.setattr(search_module.SearchIndex, "__init__", refuse)
    stored = CompiledRules(data, tmp_path).index("ru")
    for query in ("перегруппировка", "charge", "8.3.2", "тяжёлое укрытие", "regrop"):
        assert [(hit.id, hit.score, hit.snippet) for hit in stored.search(query)] == [
            (hit.id, hit.score, hit.snippet) for hit in built.search(query)
        ], query


def test_a_stored_index_searches_without_reading_the_rule_book(data, tmp_path, loads):
    CompiledRules(data, tmp_path).index("fr")
    reader = CompiledRules(data, tmp_path)
    hits = reader.index("fr").search("charge de flanc")
    assert hits and reader._book is None, "the search read the rule book"
    assert loads == [data], "the data was loaded once, to fill the cache"
    # a hit's rule is there when asked for: read then, from the stored rule book
    assert hits[0].rule.title["fr"] == hits[0].title
    assert reader._book is not None and loads == [data]


def test_the_terminals_search_imports_neither_the_model_nor_dataclasses(tmp_path):
    """A search answers from the stored index alone: importing the rule model (and with it
    :mod:`dataclasses` and :mod:`inspect`) took a fifth of the command's time."""
    script = (
        "import sys\n"
        "from kensei_ref.cli.main import main\n"
        "assert main(['search', 'flank', 'charge', '--lang', 'en']) == 0\n"
        "print(sorted(m for m in ('kensei_ref.rules.model', 'dataclasses', 'inspect') if m in sys.modules))\n"
    )
    environ = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    first, then = (
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environ, check=True)
        for _ in range(2)  # the first fills the cache; the second reads it, as a player's later commands do
    )
    assert "kensei_ref.rules.model" in first.stdout, "the first search builds the index from the rule book"
    assert then.stdout.splitlines()[-1] == "[]"


def test_a_changed_data_file_rebuilds_the_cache(data, tmp_path, loads):
    CompiledRules(data, tmp_path).book()
    glossary = data / "glossary" / "core.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8") + "\n# a maintainer's note\n", encoding="utf-8")
    CompiledRules(data, tmp_path).book()
    assert loads == [data, data]
    CompiledRules(data, tmp_path).book()
    assert loads == [data, data], "rebuilt once, then read again"


def test_a_changed_modification_time_alone_rebuilds_the_cache(data, tmp_path, loads):
    CompiledRules(data, tmp_path).book()
    sources = data / "sources.yaml"
    info = sources.stat()
    os.utime(sources, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    CompiledRules(data, tmp_path).book()
    assert len(loads) == 2


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda text: b"", id="empty"),
        pytest.param(lambda text: b"not a cache at all", id="garbage"),
        pytest.param(lambda text: text[: len(text) // 2], id="cut-short"),
        pytest.param(lambda text: text.split(b"\n", 1)[0] + b"\n" + b"\xff" * 64, id="right-header-garbage-after"),
        pytest.param(lambda text: text.split(b"\n", 1)[0] + b"\n" + bytes([0xE9] + [0] * 8), id="marshal-of-a-set"),
    ],
)
def test_a_damaged_file_is_rebuilt_without_a_word(data, tmp_path, loads, damage):
    expected = CompiledRules(data, tmp_path).book()
    stored = tmp_path / "book.marshal"
    stored.write_bytes(damage(stored.read_bytes()))
    assert CompiledRules(data, tmp_path).book() == expected
    assert len(loads) == 2
    assert CompiledRules(data, tmp_path).book() == expected
    assert len(loads) == 2, "the damaged file was replaced"


def test_a_stored_object_of_another_class_is_refused(data, tmp_path, loads):
    """Only the model's classes are rebuilt from a stored file: anything else is a damaged file."""
    rules = CompiledRules(data, tmp_path)
    rules.book()
    header = rules._header()
    import marshal

    (tmp_path / "book.marshal").write_bytes(header + marshal.dumps(("C", "Popen", {"args": "true"})))
    CompiledRules(data, tmp_path).book()
    assert len(loads) == 2


def test_a_stored_index_that_would_replace_a_method_is_refused(data, tmp_path):
    """A stored index sets only attributes of its own: one named as a method of the class is a damaged
    file, built again, never a search that fails."""
    rules = CompiledRules(data, tmp_path)
    rules.index("en")
    path = tmp_path / "index-en.marshal"
    header, _, body = path.read_bytes().partition(b"\n")
    state = marshal.loads(body)
    path.write_bytes(header + b"\n" + marshal.dumps({**state, "search": "not a method"}))
    assert [hit.id for hit in CompiledRules(data, tmp_path).index("en").search("8.3.2", 1)] == ["kensei.regroup"]


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="no user ids")
def test_a_file_others_may_write_is_not_read(data, tmp_path, loads):
    CompiledRules(data, tmp_path).book()
    (tmp_path / "book.marshal").chmod(0o666)
    CompiledRules(data, tmp_path).book()
    assert len(loads) == 2


def test_a_directory_that_cannot_be_written_means_no_cache(data, tmp_path, loads):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    rules = CompiledRules(data, blocked / "kensei-ref")
    assert rules.book().rule("kensei.regroup").number == "8.3.2"
    assert rules.index("en").search("regroup")[0].id == "kensei.regroup"
    assert rules.plain("fr")(rules.book().rule("kensei.regroup").body, rules.book().rule("kensei.regroup"))
    assert blocked.read_text() == "not a directory"


def test_the_cache_lives_in_the_users_cache_directory(tmp_path):
    assert cache_directory({"XDG_CACHE_HOME": str(tmp_path)}) == str(tmp_path / "kensei-ref")
    assert cache_directory({"HOME": str(tmp_path)}) == str(tmp_path / ".cache" / "kensei-ref")
    relative = {"XDG_CACHE_HOME": "relative/path", "HOME": str(tmp_path)}
    assert cache_directory(relative) == str(tmp_path / ".cache" / "kensei-ref"), "XDG asks to ignore a relative path"


COMMANDS = [
    ["rule", "8.3.2"],
    ["rule", "8.3.2", "--lang", "fr"],
    ["rule", "kensei.light-cover", "--lang", "ru"],
    ["search", "charge"],
    ["search", "перегруппировка", "--lang", "ru"],
    ["search", "couvert", "léger", "--lang", "fr", "--json"],
    ["glossary", "honor"],
    ["glossary", "Ki", "--lang", "fr"],
    ["glossary", "teppo", "--lang", "ru"],
]


def test_the_answers_are_the_same_with_and_without_the_cache(capsys, monkeypatch, tmp_path):
    def answers(cache: Path) -> list[tuple[int, str, str]]:
        monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
        monkeypatch.setattr(compiled, "_SHARED", {})  # a new process: nothing kept in memory
        return [run_cli(main, capsys, *argv) for argv in COMMANDS]

    blocked = tmp_path / "a-file"
    blocked.write_text("")
    without = answers(blocked)
    cold = answers(tmp_path / "cache")
    assert sorted(path.name for path in (tmp_path / "cache" / "kensei-ref").iterdir()) == [
        "book.marshal",
        "index-en.marshal",
        "index-fr.marshal",
        "index-ru.marshal",
        "plain-en.marshal",
        "plain-fr.marshal",
        "plain-ru.marshal",
    ]
    warm = answers(tmp_path / "cache")
    assert cold == without
    assert warm == without
    assert all(status == 0 and out and not err for status, out, err in without)


def test_data_that_cannot_be_listed_means_no_cache(tmp_path):
    """The loader names what is wrong with the data; the cache neither stores nor reads anything for it."""
    rules = CompiledRules(tmp_path / "no-such-data", tmp_path / "cache")
    assert rules.directory is None
    with pytest.raises(loader.DataError):
        rules.book()
    assert not (tmp_path / "cache").exists()


CALCS = [
    ["calc", "shooting", "--models", "6", "--wounds-each", "1", "--attack", "6", "--defense", "5", "--armor", "3",
     "--cover", "light", "--lang", "fr"],
    ["calc", "regroup", "--honor", "5", "--lang", "ru"],
    ["calc", "melee", "--a-models", "8", "--a-wounds", "8", "--a-attack", "5", "--a-defense", "5", "--a-armor", "3",
     "--a-initiative", "3", "--b-models", "6", "--b-wounds", "6", "--b-attack", "5", "--b-defense", "5",
     "--b-armor", "3", "--b-initiative", "3", "--lang", "en"],
    ["calc", "movement", "--unit-type", "infantry", "--running", "--lang", "es"],
]  # fmt: skip


def test_a_calculators_numbers_are_the_same_from_the_cached_number_data(capsys, monkeypatch, tmp_path):
    """The second command (a new process: no formatter kept) writes its numbers from the number data the
    first one stored, not from Babel's whole locale, and writes the same text."""

    def answers(cache: Path) -> list[tuple[int, str, str]]:
        monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
        numbers.numbers_for.cache_clear()
        return [run_cli(main, capsys, *argv) for argv in CALCS]

    blocked = tmp_path / "a-file"
    blocked.write_text("")
    without = answers(blocked)
    cold = answers(tmp_path / "cache")
    stored = sorted(path.name for path in (tmp_path / "cache" / "kensei-ref").glob("numbers-*"))
    assert stored == sorted(f"numbers-{lang}.marshal" for lang in LANGUAGES)  # each command's language
    warm = answers(tmp_path / "cache")
    assert all(type(numbers.numbers_for(lang).locale).__name__ == "_NumberLocale" for lang in LANGUAGES)
    assert cold == without and warm == without
    assert all(status == 0 and out and not err for status, out, err in without)
    numbers.numbers_for.cache_clear()


def test_damaged_number_data_is_stored_again(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    numbers.numbers_for.cache_clear()
    expected = run_cli(main, capsys, *CALCS[0])
    path = tmp_path / "kensei-ref" / "numbers-fr.marshal"
    header = path.read_bytes().split(b"\n", 1)[0]
    path.write_bytes(header + b"\n" + marshal.dumps({"format": numbers.NUMBER_DATA_FORMAT, "symbols": {"decimal": 7}}))
    numbers.numbers_for.cache_clear()
    assert run_cli(main, capsys, *CALCS[0]) == expected
    assert type(numbers.numbers_for("fr").locale).__name__ == "Locale"  # the damaged data was not given
    assert marshal.loads(path.read_bytes().split(b"\n", 1)[1])["symbols"]["decimal"] == ","  # and is stored anew
    numbers.numbers_for.cache_clear()
