"""The rule texts as PO files (``kensei-ref data po export|import``): the round trip over the real data
changes no byte, a stale translation is fuzzy and earns its stamp again once unmarked, a language with
no texts yet exports empty messages and imports what was translated, and every PO file that cannot be
imported is refused whole, one line per problem with its file and line, before anything is written."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from cli_capture import run_cli
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kensei_ref import languages
from kensei_ref.cli import main as cli
from kensei_ref.languages import BY_CODE, TRANSLATED, Language, Words
from kensei_ref.rules import freshness, loader
from kensei_ref.rules.loader import DATA_DIR, load
from kensei_ref.rules.po.export import catalog_of, export, glossary_names
from kensei_ref.rules.po.imports import ImportRefused, import_po
from kensei_ref.rules.po.placeholders import placeholders
from kensei_ref.rules.po.texts import data_files, read_texts

TEXTS_PER_LANGUAGE = 666
"""Every chapter title and intro, rule title, body, example and note, glossary name and definition, source
title and note and worked-example label: one message each."""


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A copy of the real rule data, for the commands to change."""
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    return copy


def _bytes(folder: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def _edit(po: Path, change) -> None:
    """Rewrite a PO file as a translation tool would, after ``change(message)`` on each message."""
    with po.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.id:
            change(message)
    with po.open("wb") as handle:
        write_po(handle, catalog)


def _messages(po: Path) -> dict[str, object]:
    with po.open("rb") as handle:
        return {message.context: message for message in read_po(handle) if message.id}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_export_then_import_without_edits_changes_no_byte_of_the_real_data(data, tmp_path, lang):
    before = _bytes(data)
    written = export(data, BY_CODE[lang], tmp_path / lang)
    assert len(written) == len(data_files(data)) == 15
    assert sum(file.messages for file in written) == TEXTS_PER_LANGUAGE
    assert sum(file.untranslated for file in written) == 0
    assert sum(file.fuzzy for file in written) == len(freshness.stale(load(data))) == 0
    imported = import_po(tmp_path / lang, data)
    assert (imported.files, imported.texts, imported.stamps) == ((), 0, 0)
    assert _bytes(data) == before


def test_each_message_is_named_by_its_item_and_field_and_holds_the_english_and_the_translation(data, tmp_path):
    export(data, BY_CODE["ru"], tmp_path / "ru")
    book = load(data)
    rule = book.rule("kensei.charge-orders")
    messages = _messages(tmp_path / "ru" / "kensei" / "05-charging.po")
    body = messages["kensei.charge-orders/body"]
    assert (body.id, body.string) == (rule.body["en"], rule.body["ru"])
    assert messages["kensei.charge-orders/notes/charge-cost"].string == rule.notes[0].text["ru"]
    assert "Glossary: Charge = Натиск" in body.auto_comments
    assert "Plain text: no Markdown, links or braces." in messages["kensei.charge-orders/title"].auto_comments
    assert body.locations == [("kensei/05-charging.yaml", 33)]
    po = (tmp_path / "ru" / "kensei" / "05-charging.po").read_text("utf-8")
    assert "python-brace-format" not in po  # Babel's guess from the braces: they are references, not Python's


def _change_english(data: Path, rule_id: str, old: str, new: str) -> None:
    """Change a word of a rule's English body in the data, as a writer would (its translations go stale)."""
    path = next(path for path in data_files(data) if f"id: {rule_id}\n" in path.read_text("utf-8"))
    text = path.read_text("utf-8")
    start = text.index(f"id: {rule_id}\n")
    at = text.index(old, start)
    path.write_text(text[:at] + new + text[at + len(old) :], "utf-8")


def test_a_stale_translation_is_fuzzy_and_unmarked_earns_its_stamp_again(data, tmp_path):
    _change_english(data, "kensei.charge-orders", "walking into contact", "simply walking into contact")
    assert freshness.stale(load(data)) == [
        f"data/kensei/05-charging.yaml: kensei.charge-orders ({lang})" for lang in TRANSLATED
    ]
    written = export(data, BY_CODE["fr"], tmp_path / "fr")
    po = tmp_path / "fr" / "kensei" / "05-charging.po"
    messages = _messages(po)
    fuzzy = sorted(context for context, message in messages.items() if message.fuzzy)
    assert fuzzy == [
        "kensei.charge-orders/body",
        "kensei.charge-orders/notes/charge-cost",
        "kensei.charge-orders/notes/one-charge-at-an-enemy",
        "kensei.charge-orders/title",
    ]  # the stamp covers the whole rule
    assert not any(message.previous_id for message in messages.values())  # only a hash of the old English
    assert "#| msgid" not in po.read_text("utf-8")
    assert sum(file.fuzzy for file in written) == 4

    before = _bytes(data)
    assert import_po(tmp_path / "fr", data).files == ()  # still fuzzy: the stamp stays stale
    assert _bytes(data) == before

    def checked(message):
        if message.context == "kensei.charge-orders/body":
            message.string = message.string.replace("par un simple mouvement", "par un simple déplacement")
        message.flags.discard("fuzzy")

    _edit(po, checked)
    imported = import_po(tmp_path / "fr", data)
    assert (imported.texts, imported.stamps) == (1, 1)
    book = load(data)
    assert "par un simple déplacement" in book.rule("kensei.charge-orders").body["fr"]
    assert freshness.stale(book) == [
        f"data/kensei/05-charging.yaml: kensei.charge-orders ({lang})" for lang in TRANSLATED if lang != "fr"
    ]
    assert not any(message.fuzzy for message in _messages(_exported_again(data, tmp_path, "fr", po)).values())


def _exported_again(data: Path, tmp_path: Path, lang: str, po: Path) -> Path:
    folder = tmp_path / f"{lang}-again"
    export(data, BY_CODE[lang], folder)
    return folder / po.relative_to(po.parents[len(po.relative_to(tmp_path).parts) - 2])


ITALIAN = Language(
    "it",
    "Italiano",
    "it",
    ("«", "»"),
    "italian",
    "latin",
    Words(stop="il la di e", question="come quando", small_numbers=("un una uno", "due", "tre"), ten="dieci"),
)
"""A language declared with no texts yet, as a new language is added."""


@pytest.fixture
def italian(monkeypatch):
    monkeypatch.setitem(languages.BY_CODE, "it", ITALIAN)
    monkeypatch.setattr(loader, "LANGS", (*loader.LANGS, "it"))
    return ITALIAN


def test_a_language_with_no_texts_exports_empty_messages_and_imports_what_was_translated(data, tmp_path, italian):
    before = _bytes(data)
    written = export(data, italian, tmp_path / "it")
    assert sum(file.messages for file in written) == sum(file.untranslated for file in written) == TEXTS_PER_LANGUAGE
    assert sum(file.fuzzy for file in written) == 0
    assert import_po(tmp_path / "it", data).files == ()  # an empty msgstr leaves the text absent
    assert _bytes(data) == before

    po = tmp_path / "it" / "glossary" / "core.po"
    italian_texts = {
        "taisho/name": "Taisho",
        "taisho/definition": (
            "Parola giapponese per «generale»: il capo dell'esercito ({rule:kensei.commandment-points}).\n\n"
            '"Citazione".'
        ),
        "daimyo/name": "Daimyo",
    }

    def translate(message):
        message.string = italian_texts.get(message.context, "")

    _edit(po, translate)
    imported = import_po(tmp_path / "it", data)
    assert (imported.texts, imported.stamps) == (3, 1)  # taisho is translated whole: it is stamped
    texts = read_texts(data / "glossary" / "core.yaml", data)
    assert {context: texts.slot(context).text("it") for context in italian_texts} == italian_texts
    assert texts.items["taisho"].recorded("it") == texts.items["taisho"].stamp
    assert texts.items["daimyo"].recorded("it") is None  # its definition is not translated yet
    assert "    name: {en: Taisho, fr: Taisho, ru: Тайсё, es: Taisho, it: Taisho}\n" in texts.source
    changed = {path for path, content in _bytes(data).items() if before[path] != content}
    assert changed == {data / "glossary" / "core.yaml"}

    again = tmp_path / "it-again"
    export(data, italian, again)
    assert {c: m.string for c, m in _messages(again / "glossary" / "core.po").items() if m.string} == italian_texts
    after = _bytes(data)
    assert import_po(again, data).files == ()
    assert _bytes(data) == after


def test_a_language_that_is_not_declared_is_refused_in_one_line(capsys):
    status, out, err = run_cli(cli.main, capsys, "data", "po", "export", "--lang", "it")
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert f"argument --lang: the reference has no language 'it' ({', '.join(TRANSLATED)})" in err
    assert "kensei_ref/languages.py" in err
    status, out, err = run_cli(cli.main, capsys, "data", "po", "export", "--lang", "en")
    assert status == 2 and f"the texts are written in 'en': translate them into one of {', '.join(TRANSLATED)}" in err


def test_the_commands_export_and_import_through_the_terminal(data, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "DATA_DIR", data)
    folder = tmp_path / "po-ru"
    status, out, err = run_cli(cli.main, capsys, "data", "po", "export", "--lang", "ru", "--out", str(folder))
    assert (status, err) == (0, "")
    assert out == f"записано 15 PO-файлов в {folder}\nсообщений: 666; неточных, к проверке: 0; без перевода: 0\n"
    assert len(list(folder.rglob("*.po"))) == 15
    status, out, err = run_cli(cli.main, capsys, "--lang", "en", "data", "po", "import", str(folder))
    assert (status, out, err) == (0, "nothing to change: the rule data already holds these translations\n", "")


@dataclass(frozen=True)
class Refusal:
    """What an import through the terminal said and did: its exit status, its error lines, the PO file,
    the line of ``kensei.charge-orders/body``'s msgid in it, and whether the data is as it was."""

    status: int
    lines: list[str]
    line: int
    po: str
    unchanged: bool


def _refusal(data, tmp_path, capsys, monkeypatch, change, file="kensei/05-charging.po") -> Refusal:
    """Export French, change one PO file (``change(path)``), import it through the terminal."""
    monkeypatch.setattr(cli, "DATA_DIR", data)
    folder = tmp_path / "fr"
    export(data, BY_CODE["fr"], folder)
    po = folder / file
    change(po)
    before = _bytes(data)
    status, out, err = run_cli(cli.main, capsys, "--lang", "en", "data", "po", "import", str(folder))
    assert out == ""
    line = _line_of(str(po), "kensei.charge-orders/body")
    return Refusal(status, err.splitlines(), line, str(po), _bytes(data) == before)


def _in_text(old: str, new: str):
    """A change of the PO file's text, as a hand edit makes it."""

    def change(po: Path) -> None:
        text = po.read_text("utf-8")
        assert old in text
        po.write_text(text.replace(old, new, 1), "utf-8")

    return change


def _in_body(old: str, new: str):
    """A change of the French text of kensei.charge-orders' body, as a translation tool makes it."""

    def change(po: Path) -> None:
        def edit(message):
            if message.context == "kensei.charge-orders/body":
                assert old in message.string
                message.string = message.string.replace(old, new, 1)

        _edit(po, edit)

    return change


REFUSALS = [
    pytest.param(
        _in_text('msgctxt "kensei.charge-orders/body"\n', 'msgctxt "kensei.charge-orders/body"\nbogus "x"\n'),
        r"malformed PO file: Unknown or misformatted keyword",
        id="malformed",
    ),
    pytest.param(
        _in_text('msgctxt "kensei.charge-orders/body"', 'msgctxt "kensei.charge-orders/body-text"'),
        r"unknown msgctxt 'kensei.charge-orders/body-text': no such text in kensei/05-charging.yaml",
        id="unknown-context",
    ),
    pytest.param(
        _in_text('msgid ""\n"The only way', 'msgid ""\n"Really, the only way'),
        r"'kensei.charge-orders/body': the msgid is not the English of the rule data; it must stay as exported",
        id="changed-english",
    ),
    pytest.param(
        _in_body("{term:charge}", "charge"),
        r"'kensei.charge-orders/body': the translation drops \{term:charge\} of the English",
        id="dropped-placeholder",
    ),
    pytest.param(
        _in_body("{rule:kensei.strategic-orders}", "{rule:kensei.regroup}"),
        r"'kensei.charge-orders/body': the translation drops \{rule:kensei.strategic-orders\} of the English",
        id="changed-placeholder",
    ),
    pytest.param(
        _in_body("{term:charge}", "{term:charge} ({term:ki})"),
        r"'kensei.charge-orders/body': the translation has \{term:ki\}, which the English does not",
        id="added-placeholder",
    ),
    pytest.param(
        _in_body("Une unité ne peut", "Une <script>unité</script> ne peut"),
        r"'kensei.charge-orders/body': the translation cannot stand in the rule data: raw HTML is not allowed",
        id="raw-html",
    ),
]


@pytest.mark.parametrize(("change", "expected"), REFUSALS)
def test_a_po_file_that_cannot_be_imported_is_refused_with_its_file_and_line(
    data, tmp_path, capsys, monkeypatch, change, expected
):
    refused = _refusal(data, tmp_path, capsys, monkeypatch, change)
    assert refused.status == 1 and refused.unchanged
    assert refused.lines[-1] == "nothing written: 1 problem"
    assert len(refused.lines) == 2
    assert refused.lines[0].startswith(f"{refused.po}:{refused.line}: ")
    assert re.search(expected, refused.lines[0]), refused.lines[0]


def test_a_link_whose_address_changes_is_refused(data, tmp_path, capsys, monkeypatch):
    """The data has no Markdown link yet: one is added to a body's English and French first."""
    path = data / "kensei" / "05-charging.yaml"
    text = path.read_text("utf-8")
    for ending in ("for the rest of that turn.", "jusqu'à la fin du tour."):
        text = text.replace(ending, f"{ending} [Glossary](../glossary/).", 1)
    path.write_text(text, "utf-8")
    refused = _refusal(data, tmp_path, capsys, monkeypatch, _in_body("(../glossary/)", "(https://example.org/)"))
    assert refused.status == 1 and refused.unchanged
    assert refused.lines[0] == (
        f"{refused.po}:{refused.line}: 'kensei.charge-orders/body': the translation drops (../glossary/) of the English"
    )


def test_a_string_left_open_is_refused_though_babel_reads_it(data, tmp_path, capsys, monkeypatch):
    """Babel's parser reads ``msgstr "La charge`` as ``a charg``: the quoting of every string is checked first."""
    refused = _refusal(data, tmp_path, capsys, monkeypatch, _in_text('msgstr "La charge"', 'msgstr "La charge'))
    assert refused.status == 1 and refused.unchanged
    title = _line_of(refused.po, "kensei.charging/title") + 1  # the msgstr after the msgid
    assert refused.lines[0] == (
        f"{refused.po}:{title}: malformed PO file: a string is not closed by its quotation mark, or holds a stray "
        "one or an unknown escape"
    )


def test_an_emptied_translation_is_refused(data, tmp_path, capsys, monkeypatch):
    """An empty msgstr is a text not translated yet; over a text the data holds, it would delete it."""

    emptied = _in_text('msgid "Charge orders"\nmsgstr "Ordre de charge"', 'msgid "Charge orders"\nmsgstr ""')
    refused = _refusal(data, tmp_path, capsys, monkeypatch, emptied)
    assert refused.status == 1 and refused.unchanged
    title = _line_of(refused.po, "kensei.charge-orders/title")
    assert refused.lines[0] == (
        f"{refused.po}:{title}: 'kensei.charge-orders/title': an empty msgstr would remove the text from the rule "
        "data; translate it"
    )


def test_a_message_given_twice_is_refused(data, tmp_path, capsys, monkeypatch):
    message = 'msgctxt "kensei.charging/title"\nmsgid "Charging"\nmsgstr "La charge"\n'
    twice = _in_text(message, message + "\n" + message.replace("La charge", "Charger"))
    refused = _refusal(data, tmp_path, capsys, monkeypatch, twice)
    assert refused.status == 1 and refused.unchanged
    assert refused.lines[0].endswith(": 'kensei.charging/title': given twice in this file")


def test_every_problem_of_every_file_is_said_before_nothing_is_written(data, tmp_path, capsys, monkeypatch):
    def two_problems(po: Path) -> None:
        _in_body("{term:charge}", "charge")(po)
        _in_text('msgctxt "kensei.charging/title"', 'msgctxt "kensei.charging/heading"')(po)

    refused = _refusal(data, tmp_path, capsys, monkeypatch, two_problems)
    assert refused.status == 1 and refused.unchanged
    assert refused.lines[-1] == "nothing written: 2 problems"
    heading = _line_of(refused.po, "kensei.charging/heading")
    assert [entry.split(": ", 1)[0] for entry in refused.lines[:2]] == [
        f"{refused.po}:{heading}",
        f"{refused.po}:{refused.line}",
    ]


def _line_of(po: str, context: str) -> int:
    """The line of the msgid of the message whose context starts with ``context``."""
    return Path(po).read_text("utf-8").split(f'msgctxt "{context}', 1)[0].count("\n") + 2


def test_a_po_file_with_no_data_file_or_no_language_is_refused(data, tmp_path):
    folder = tmp_path / "fr"
    export(data, BY_CODE["fr"], folder)
    (folder / "kensei" / "05-charging.po").rename(folder / "kensei" / "99-unknown.po")
    header = folder / "sources.po"
    header.write_text(header.read_text("utf-8").replace('"Language: fr\\n"', '"Language: de\\n"'), "utf-8")
    with pytest.raises(ImportRefused) as refused:
        import_po(folder, data)
    said = [problem.said(str) for problem in refused.value.problems]
    assert said[0] == (
        f"{folder}/kensei/99-unknown.po: no rule data file kensei/99-unknown.yaml for this PO file (its path in "
        "the folder names its data file)"
    )
    assert re.match(
        rf"{folder}/sources.po:\d+: the header's Language \('de'\) is no language to translate into: fr, ru", said[1]
    )


PLAIN_FORBIDDEN = "[]*_`<>{}\\&"
"""What a title may not hold (Markdown); a body may hold all but what makes markup or a reference."""
BODY_FORBIDDEN = "<[]{}"


def _texts(forbidden: str):
    return st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters=forbidden), min_size=1, max_size=120
    )


@pytest.fixture(scope="module")
def orders_po(tmp_path_factory) -> Path:
    """The French PO file of chapter 8, exported once for the property below."""
    folder = tmp_path_factory.mktemp("po")
    export(DATA_DIR, BY_CODE["fr"], folder)
    return folder / "kensei" / "08-orders.po"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_texts(BODY_FORBIDDEN), title=_texts(PLAIN_FORBIDDEN), fuzzy=st.booleans())
def test_any_translation_survives_export_edit_import_export(tmp_path_factory, orders_po, body, title, fuzzy):
    """Quotes, backslashes, line breaks, tabs, any script: a translated text comes back from the YAML
    exactly as the PO file gave it (stripped, as the loader keeps it), and the fuzzy mark holds the stamp."""
    assume(body.strip() and title.strip())
    work = tmp_path_factory.mktemp("round")
    data = work / "data"
    shutil.copytree(DATA_DIR, data)
    folder = work / "fr"
    (folder / "kensei").mkdir(parents=True)
    po = folder / "kensei" / "08-orders.po"
    shutil.copy(orders_po, po)
    rule = "kensei.regroup"
    english = load(data).rule(rule).body["en"]
    kept = " ".join(sorted(placeholders(english, rule)))

    def edit(message):
        if message.context == f"{rule}/body":
            message.string = f"{body}\n\n{kept}"
        elif message.context == f"{rule}/title":
            message.string = title
        else:
            return
        if fuzzy:
            message.flags.add("fuzzy")

    _edit(po, edit)
    import_po(folder, data)
    texts = read_texts(data / "kensei" / "08-orders.yaml", data)
    catalog = catalog_of(texts, BY_CODE["fr"], glossary_names([texts], "fr"))
    book = load(data)
    assert catalog.get(english, f"{rule}/body").string == f"{body}\n\n{kept}".strip() == book.rule(rule).body["fr"]
    assert catalog.get(book.rule(rule).title["en"], f"{rule}/title").string == title.strip()
    assert texts.items[rule].recorded("fr") == texts.items[rule].stamp  # not stale before: never made stale


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(at=st.floats(0, 1), cut=st.integers(0, 40), insert=st.text(max_size=8))
def test_a_po_file_damaged_anywhere_is_imported_or_refused_in_lines_never_a_traceback(
    tmp_path_factory, orders_po, at, cut, insert
):
    """Characters cut or typed anywhere in a PO file: the import writes what passes its checks, or refuses
    with lines that each name the file and line (or the folder), and never raises anything else."""
    work = tmp_path_factory.mktemp("damaged")
    data = work / "data"
    shutil.copytree(DATA_DIR, data)
    po = work / "fr" / "kensei" / "08-orders.po"
    po.parent.mkdir(parents=True)
    text = orders_po.read_text("utf-8")
    start = int(at * len(text))
    po.write_text(text[:start] + insert + text[start + cut :], "utf-8")
    try:
        import_po(work / "fr", data)
    except ImportRefused as refused:
        assert refused.problems
        where = rf"({re.escape(str(po))}:\d+|{re.escape(str(data))}): \S"  # the data: the loader's last word
        assert all(re.match(where, problem.said(str)) for problem in refused.problems)
