"""The loader: the real data loads, and each kind of bad data gets its own clear error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kensei_ref.rules.loader import DataError, load

SAMPLE_DATA = Path(__file__).resolve().parent / "fixtures" / "sample_data"

CHAPTER = "kensei/08-sample.yaml"


def test_real_data_loads(book):
    assert len(book.rules) > 0
    assert {c.game for c in book.chapters} <= {"kensei", "ronin"}


def test_sample_data_loads():
    book = load(SAMPLE_DATA)
    assert [r.id for r in book.rules] == ["kensei.points", "kensei.try-again"]
    assert book.rule("kensei.points").values["taisho"] == 3


def _broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    data = tmp_path / "data"
    shutil.copytree(SAMPLE_DATA, data)
    path = data / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text {old!r} not found in {file}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return data


BAD_DATA = [
    pytest.param(
        CHAPTER,
        "      ru: |\n        У {term:general|полководца}",
        "      xx: |\n        У {term:general|полководца}",
        [
            "data/kensei/08-sample.yaml: rules[kensei.points].body.ru: missing language",
            "rules[kensei.points].body: unknown key 'xx'",
        ],
        id="missing-language",
    ),
    pytest.param(
        CHAPTER,
        "    values: {taisho: 3}",
        "    values: {taisho: 3}\n    colour: red",
        ["data/kensei/08-sample.yaml: rules[kensei.points]: unknown key 'colour'"],
        id="unknown-key",
    ),
    pytest.param(
        CHAPTER,
        "see {rule:kensei.try-again}.",
        "see {rule:kensei.nowhere}.",
        ["data/kensei/08-sample.yaml: rules[kensei.points].body.en: reference to unknown rule 'kensei.nowhere'"],
        id="dangling-rule-reference",
    ),
    pytest.param(
        CHAPTER,
        "A {term:general} has",
        "A {term:generalissimo} has",
        ["rules[kensei.points].body.en: reference to unknown glossary term 'generalissimo'"],
        id="dangling-term-reference",
    ),
    pytest.param(
        CHAPTER,
        "see_also: [kensei.points]",
        "see_also: [kensei.pointz]",
        ["rules[kensei.try-again].see_also: unknown rule 'kensei.pointz'"],
        id="dangling-see-also",
    ),
    pytest.param(
        CHAPTER,
        "{value:kensei.points#taisho} less",
        "{value:kensei.points#daimyo} less",
        ["rules[kensei.try-again].body.en: value 'kensei.points#daimyo': rule kensei.points has no value 'daimyo'"],
        id="dangling-value",
    ),
    pytest.param(
        CHAPTER,
        "  - id: kensei.try-again",
        "  - id: kensei.points",
        [
            "data/kensei/08-sample.yaml: rule[kensei.points]: duplicate rule id, also defined in "
            "data/kensei/08-sample.yaml"
        ],
        id="duplicate-id",
    ),
    pytest.param(
        CHAPTER,
        "values: {taisho: 3}",
        "values: {taisho: three}",
        ["rules[kensei.points].values.taisho: must be an integer, got 'three'"],
        id="wrong-type",
    ),
    pytest.param(
        CHAPTER,
        "values: {taisho: 3}",
        "values: {taisho: true}",
        ["rules[kensei.points].values.taisho: must be an integer, got True"],
        id="bool-is-not-int",
    ),
    pytest.param(
        CHAPTER,
        "  order: 80",
        "  order: [80",
        ["data/kensei/08-sample.yaml: malformed YAML: line"],
        id="malformed-yaml",
    ),
    pytest.param(
        CHAPTER,
        '    number: "8.2"',
        '    number: "8.2"\n    number: "8.3"',
        ["data/kensei/08-sample.yaml: malformed YAML: line", "duplicate key 'number'"],
        id="duplicate-key",
    ),
    pytest.param(
        CHAPTER,
        "section: 8.2 Commandment Points}",
        "section: 9.9 Nowhere}",
        ["rules[kensei.points].source: section '9.9 Nowhere' is not a section of source text 002"],
        id="unknown-section",
    ),
    pytest.param(
        CHAPTER,
        "kind: reading",
        "kind: opinion",
        ["rules[kensei.try-again].notes[0].kind: must be one of silent, conflict, reading, got 'opinion'"],
        id="unknown-note-kind",
    ),
    pytest.param(
        CHAPTER,
        "    translations: {fr: '7a31a0706d', ru: '7a31a0706d', es: '7a31a0706d'}\n",
        "",
        ["rules[kensei.points].translations: missing translation stamps"],
        id="missing-stamp",
    ),
    pytest.param(
        "glossary/sample.yaml",
        "rule: kensei.points",
        "rule: kensei.absent",
        ["data/glossary/sample.yaml: terms[general].rule: unknown rule 'kensei.absent'"],
        id="term-dangling-rule",
    ),
    pytest.param(
        CHAPTER,
        "see {rule:kensei.try-again}.",
        "see {rule:kensei.try-again}. <script>alert('data')</script><img src=x onerror=alert(2)>",
        ["data/kensei/08-sample.yaml: rules[kensei.points].body.en: raw HTML is not allowed (found '<script>aler')"],
        id="script-in-a-body",
    ),
    pytest.param(
        CHAPTER,
        "text: {en: Two tries., fr:",
        "text: {en: 'Two <!-- --> tries.', fr:",
        ["rules[kensei.try-again].examples[0].text.en: raw HTML is not allowed (found '<!-- --> tri')"],
        id="comment-in-an-example",
    ),
    pytest.param(
        CHAPTER,
        "        origin: ours\n",
        "",
        ["data/kensei/08-sample.yaml: rules[kensei.try-again].examples[0]: missing key 'origin'"],
        id="example-without-origin",
    ),
    pytest.param(
        CHAPTER,
        "        origin: ours\n",
        "        origin: mine\n",
        ["data/kensei/08-sample.yaml: rules[kensei.try-again].examples[0].origin: must be {text, section}"],
        id="example-origin-neither-ours-nor-a-source",
    ),
    pytest.param(
        CHAPTER,
        "        origin: ours\n",
        '        origin: {text: "002", section: 9.9 Nowhere}\n',
        [
            "data/kensei/08-sample.yaml: rules[kensei.try-again].examples[two-tries].origin: "
            "section '9.9 Nowhere' is not a section of source text 002"
        ],
        id="example-origin-unknown-section",
    ),
    pytest.param(
        CHAPTER,
        "        origin: ours\n",
        "        origin: {ref: sample-ref}\n",
        ["rules[kensei.try-again].examples[0].origin: must be {text, section}"],
        id="example-origin-outside-reference",
    ),
    pytest.param(
        "sources.yaml",
        "  ours: {en: written for this reference,",
        "  theirs: {en: written for this reference,",
        [
            "data/sources.yaml: example_labels: unknown key 'theirs'",
            "data/sources.yaml: example_labels.ours: missing: the label of the worked examples whose origin is 'ours'",
        ],
        id="example-label-missing",
    ),
    pytest.param(
        "sources.yaml",
        "  ours: {en: written for this reference, fr: rédigé pour cette référence,",
        "  ours: {en: written for this reference,",
        ["data/sources.yaml: example_labels.ours.fr: missing language"],
        id="example-label-language-missing",
    ),
    pytest.param(
        CHAPTER,
        "see {rule:kensei.try-again}.",
        "see {rule:kensei.try-again}. [the rule](javascript:alert(1))",
        ["rules[kensei.points].body.en: a link's address may only be on the site or start with https:, http:, mailto:"],
        id="script-link",
    ),
    pytest.param(
        CHAPTER,
        "see {rule:kensei.try-again}.",
        "see {rule:kensei.try-again}. ![x]( DATA:image/svg+xml;base64,PHN2Zz4=)",
        ["rules[kensei.points].body.en: an image must be one of the site's files, without scheme or host"],
        id="data-image",
    ),
    *(
        pytest.param(
            CHAPTER,
            "see {rule:kensei.try-again}.",
            f"see {{rule:kensei.try-again}}. {link}",
            [f"rules[kensei.points].body.en: {message}"],
            id=name,
        )
        for name, link, message in (
            (
                "entity-colon",
                "[x](javascript&colon;alert(1))",
                "a link's address may not hold spaces, control characters, entities or backslashes",
            ),
            (
                "numeric-entity",
                "[x](javascript&#58;alert(1))",
                "a link's address may not hold spaces, control characters, entities or backslashes",
            ),
            (
                "tab-in-the-scheme",
                "[x](java\tscript:alert(1))",
                "a link's address may not hold spaces, control characters, entities or backslashes",
            ),
            (
                "soft-hyphen-in-the-scheme",
                "[x](java\u00adscript:alert(1))",
                "a link's address may not hold spaces, control characters, entities or backslashes",
            ),
            (
                "reference-link",
                "[x][evil]\n\n        [evil]: vbscript:msgbox",
                "a reference link must be one of the site's files",
            ),
            ("other-scheme", "[x](file:///etc/passwd)", "a link's address may only be on the site"),
            ("image-text-with-brackets", "![a [b] c](https://evil.example/t.png)", "an image must be one of"),
            ("reference-image", "![t][i]\n\n        [i]: https://evil.example/t.png", "a reference link must be"),
            ("foreign-image", "![t](https://evil.example/t.png)", "an image must be one of the site's files"),
            ("protocol-relative-image", "![t](//evil.example/t.png)", "an image must be one of the site's files"),
            (
                "backslash-image",
                "![t](/\\evil.example/t.png)",
                "a link's address may not hold spaces, control characters, entities or backslashes",
            ),
        )
    ),
    pytest.param(
        CHAPTER,
        "title: {en: Commandment points,",
        "title: {en: '[Commandment](https://example.com) points',",
        ["rules[kensei.points].title.en: must be plain text, without Markdown links, emphasis, code or entities"],
        id="link-in-a-title",
    ),
    pytest.param(
        CHAPTER,
        "title: {en: Commandment points,",
        "title: {en: '**Commandment** points',",
        ["rules[kensei.points].title.en: must be plain text"],
        id="emphasis-in-a-title",
    ),
    pytest.param(
        CHAPTER,
        "see {rule:kensei.try-again}.",
        "see {rule:kensei.try-again}. " + "word " * 4_000,
        ["rules[kensei.points].body.en: must be at most 20000 characters, got 2"],
        id="huge-body",
    ),
    pytest.param(
        CHAPTER,
        "values: {taisho: 3}",
        "values: {taisho: 100000000000000000000000000}",
        ["rules[kensei.points].values.taisho: must be an integer from -1000 to 1000, got 1000000000"],
        id="27-digit-value",
    ),
    pytest.param(
        CHAPTER,
        "section: 8.2 Commandment Points}",
        "section: 8.2 <b onmouseover=alert(1)>Points</b>}",
        ["rules[kensei.points].source.section: raw HTML is not allowed"],
        id="markup-in-a-citation",
    ),
    pytest.param(
        CHAPTER,
        "Un {term:general} dispose de {value:taisho} points",
        "Un {term:general} dispose de {value:taisho|deux} points",
        ["rules[kensei.points].body.fr: value 'taisho': 'deux' is not 3 in words (fr)"],
        id="a-value-in-the-wrong-words",
    ),
]


def test_a_value_in_its_words_is_shown_in_words(tmp_path):
    """``{value:taisho|trois}``: the words, which the loader checked against the value, stand for the number."""
    from kensei_ref.site.pages import PageContext

    book = load(
        _broken(tmp_path, CHAPTER, "dispose de {value:taisho} points", "dispose de {value:taisho|trois} points")
    )
    rule = book.rule("kensei.points")
    assert "dispose de trois points" in PageContext(book, "fr", "x.md").markdown(rule.body["fr"], rule)


@pytest.mark.parametrize(("file", "old", "new", "messages"), BAD_DATA)
def test_bad_data_is_reported_with_file_and_key(tmp_path, file, old, new, messages):
    with pytest.raises(DataError) as caught:
        load(_broken(tmp_path, file, old, new))
    report = str(caught.value)
    for message in messages:
        assert message in report, report


def test_every_problem_is_reported_at_once(tmp_path):
    data = _broken(tmp_path, CHAPTER, "values: {taisho: 3}", "values: {taisho: x}")
    path = data / CHAPTER
    path.write_text(path.read_text(encoding="utf-8").replace("kind: reading", "kind: whim"), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load(data)
    messages = [str(p) for p in caught.value.problems]
    assert any("values.taisho" in m for m in messages)
    assert any("notes[0].kind" in m for m in messages)
