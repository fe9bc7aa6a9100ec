"""The printable digest's odds tables equal the calculators' results, cell by cell, in every language.

The tables are read back from the built site's HTML; each cell is recomputed here from the inputs
its row and column name (the rest from the table's calculator link) and formatted for the page's
language. Every table is also checked against a brute-force enumeration of d10 faces written below,
which restates the rules (design.md section 8) and shares no code with ``calculators``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urljoin, urlparse

import pytest

from calculators import CALCULATORS, RuleValues
from kensei_ref.languages import LANGUAGES
from kensei_ref.numbers import numbers_for

pytestmark = pytest.mark.build

LANGS = LANGUAGES
D10 = range(1, 11)
R = RuleValues.bundled().as_dict()


# ---- Reading the built page --------------------------------------------------------------------


class _Digest(HTMLParser):
    """The odds blocks of the digest: caption, header rows, body rows (with the bold cell) and link."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: dict[str, dict[str, Any]] = {}
        self.scripts: list[str] = []
        self._block: dict[str, Any] | None = None
        self._row: list[dict[str, Any]] | None = None
        self._cell: dict[str, Any] | None = None
        self._in_thead = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "script" and a.get("src"):
            self.scripts.append(a["src"] or "")
        if tag == "section" and "kr-digest__block" in classes:
            self._block = {"id": a["id"], "calculator": a["data-calculator"], "head": [], "body": [], "link": None}
            self.blocks[a["id"] or ""] = self._block
        if self._block is None:
            return
        if tag == "thead":
            self._in_thead = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = {"text": "", "key": "kr-digest__key" in classes, "tag": tag}
        elif tag == "a" and "kr-digest__open" in classes:
            self._block["link"] = a
        elif tag == "caption":
            self._cell = {"text": "", "tag": "caption"}

    def handle_endtag(self, tag: str) -> None:
        if self._block is None:
            return
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._cell["text"] = self._cell["text"].strip()
            self._row.append(self._cell)
            self._cell = None
        elif tag == "caption" and self._cell is not None:
            self._block["caption"] = self._cell["text"].strip()
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self._block["head" if self._in_thead else "body"].append(self._row)
            self._row = None
        elif tag == "thead":
            self._in_thead = False
        elif tag == "section":
            self._block = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell["text"] += data


def _page_dir(site: Path, lang: str) -> Path:
    return site / ("" if lang == "en" else lang) / "digest"


@pytest.fixture(scope="module")
def digests(built_site) -> dict[str, _Digest]:
    site, _ = built_site
    parsed = {}
    for lang in LANGS:
        parser = _Digest()
        parser.feed((_page_dir(site, lang) / "index.html").read_text("utf-8"))
        parsed[lang] = parser
    return parsed


# ---- What each table shows, recomputed here ----------------------------------------------------


def _steps(result) -> dict[str, Fraction]:
    return {step.key: Fraction(step.value) for step in result.steps if not isinstance(step.value, str)}


def _shooting(inputs: dict) -> Any:
    return CALCULATORS["shooting"].evaluate(inputs)


def _expected_per_hit_through(inputs: dict) -> Fraction:
    steps = _steps(_shooting(inputs))
    return steps["die_mean"] / (steps["p_hit"] * steps["p_through"])


Figure = Callable[[dict], Fraction]

# table id -> (row input, column input or None, one figure per column when no column input)
SPEC: dict[str, tuple[str, str | None, list[tuple[Figure, str]]]] = {
    "odds-hit": ("attack", None, [(lambda i: _steps(_shooting(i))["p_hit"], "%")]),
    "odds-defense": ("defense", None, [(lambda i: _steps(_shooting(i))["p_through"], "%")]),
    "odds-damage": (
        "armor",
        None,
        [(lambda i: _steps(_shooting(i))["p_damage"], "%"), (_expected_per_hit_through, "decimal")],
    ),
    # P(at least one Wound) read from the distribution, not from the step the page's link shows
    "odds-die": ("attack", "defense", [(lambda i: _shooting(i).wounds.at_least[1], "%")]),
    "odds-regroup": ("honor", "attempts", [(lambda i: CALCULATORS["regroup"].evaluate(i).p_regroup, "%")]),
    "odds-charge": ("distance", "dice", [(lambda i: CALCULATORS["charge"].evaluate(i).p_success, "%")]),
}


def _format(value: Fraction, kind: str, lang: str) -> str:
    numbers = numbers_for(lang)
    return numbers.percent(value) if kind == "%" else numbers.decimal(value, 2)


def _typed(calculator: str, name: str, text: str) -> Any:
    """A URL or table value as the calculator page's form reads it (calculator.js ``readParam``)."""
    param = next(p for p in CALCULATORS[calculator].describe()["params"] if p["name"] == name)
    if param["kind"] == "bool":
        return text in ("1", "true")
    if param["kind"] == "int":
        return int(text)
    if param["kind"] == "int_list":
        return [int(item) for item in text.split(",")]
    return text


def _link_inputs(block: dict) -> dict[str, Any]:
    query = parse_qsl(urlparse(block["link"]["href"]).query)
    return {name: _typed(block["calculator"], name, text) for name, text in query}


def _cells(block: dict) -> list[tuple[dict, int, dict]]:
    """(inputs, column index, cell) for every body cell; the inputs are the link's with the row's
    and column's values in place."""
    row_input, column_input, _ = SPEC[block["id"]]
    column_values = [c["text"] for c in block["head"][-1][1:]]
    cells = []
    for row in block["body"]:
        for index, cell in enumerate(row[1:]):
            inputs = _link_inputs(block) | {row_input: _typed(block["calculator"], row_input, row[0]["text"])}
            if column_input:
                inputs[column_input] = _typed(block["calculator"], column_input, column_values[index])
            cells.append((inputs, index, cell))
    return cells


def _figure(inputs: dict, table: str, index: int) -> tuple[Fraction, str]:
    _, column_input, figures = SPEC[table]
    figure, kind = figures[0] if column_input else figures[index]
    return figure(inputs), kind


# ---- Brute force over d10 faces ----------------------------------------------------------------


def bf_damage(roll: int, armor: int) -> int:
    """Threshold reading: a 1 does nothing, a 10 deals two Wounds, any other roll one above Armor."""
    return 0 if roll == 1 else 2 if roll == 10 else 1 if roll > armor else 0


def bf_die(attack: int, defense: int, armor: int) -> dict[str, Fraction]:
    """One die's three rolls enumerated: P(hit), P(through | hit), P(the Damage roll wounds),
    E[Wounds] and P(at least one Wound); a hit on a 10 lowers Defense by 1, a Defense roll of 1 cancels."""
    hits = through = 0
    wounds: Counter[int] = Counter()
    for hit, save, damage in itertools.product(D10, repeat=3):
        target = defense - (1 if hit == 10 else 0)
        if hit > attack:
            hits += 1
        if hit <= attack or save == 1 or save < target:
            wounds[0] += 1
            continue
        through += 1
        wounds[bf_damage(damage, armor)] += 1
    total = len(D10) ** 3
    return {
        "p_hit": Fraction(hits, total),
        "p_through": Fraction(through, hits) if hits else Fraction(0),
        "p_damage": Fraction(sum(bf_damage(roll, armor) > 0 for roll in D10), len(D10)),
        "die_mean": Fraction(sum(k * n for k, n in wounds.items()), total),
        "at_least_one": Fraction(total - wounds[0], total),
    }


def bf_regroup(honor: int, attempts: int) -> Fraction:
    fails = sum(all(roll > honor for roll in rolls) for rolls in itertools.product(D10, repeat=attempts))
    return 1 - Fraction(fails, len(D10) ** attempts)


def bf_charge(dice: str, distance: int) -> Fraction:
    count = int(dice.split("d")[0])
    rolls = list(itertools.product(D10, repeat=count))
    return Fraction(sum(sum(r) >= distance for r in rolls), len(rolls))


def brute_force(table: str, inputs: dict, index: int) -> Fraction:
    if table == "odds-regroup":
        return bf_regroup(inputs["honor"], inputs["attempts"])
    if table == "odds-charge":
        return bf_charge(inputs["dice"], inputs["distance"])
    die = bf_die(inputs["attack"], inputs["defense"], inputs["armor"])
    if table == "odds-damage" and index == 1:
        return die["die_mean"] / (die["p_hit"] * die["p_through"])
    key = {"odds-hit": "p_hit", "odds-defense": "p_through", "odds-damage": "p_damage", "odds-die": "at_least_one"}
    return die[key[table]]


# ---- Tests -------------------------------------------------------------------------------------


def test_the_digest_has_every_table_in_every_language(digests):
    for lang, digest in digests.items():
        assert sorted(digest.blocks) == sorted(SPEC), lang
        for block in digest.blocks.values():
            assert block["caption"] and block["body"] and block["link"], (lang, block["id"])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("table", sorted(SPEC))
def test_every_cell_is_the_calculators_result(digests, lang, table):
    block = digests[lang].blocks[table]
    cells = _cells(block)
    assert len(cells) >= 10, "a table worth printing has at least ten numbers"
    for inputs, index, cell in cells:
        value, kind = _figure(inputs, table, index)
        assert cell["text"] == _format(value, kind, lang), (table, inputs, index)


@pytest.mark.parametrize("table", sorted(SPEC))
def test_every_cell_matches_a_brute_force_over_the_d10s_faces(digests, table):
    block = digests["en"].blocks[table]
    for inputs, index, cell in _cells(block):
        calculated, kind = _figure(inputs, table, index)
        assert calculated == brute_force(table, inputs, index), (table, inputs, index)
        assert cell["text"] == _format(brute_force(table, inputs, index), kind, "en")


@pytest.mark.parametrize("lang", LANGS)
def test_each_link_opens_its_calculator_on_the_bold_cell(built_site, digests, lang):
    """The link leads to an existing calculator page; the scenario it carries, read as that page reads
    its URL, gives the figure the link names, and that figure is the table's one bold cell."""
    site, _ = built_site
    page_dir = _page_dir(site, lang)
    for block in digests[lang].blocks.values():
        href = block["link"]["href"]
        target = (page_dir / urlparse(href).path).resolve() / "index.html"
        assert target.is_file(), (block["id"], href)
        assert target.parent.name == block["calculator"]
        site_path = urljoin(f"/{'' if lang == 'en' else lang + '/'}digest/", href).lstrip("/")
        assert block["link"]["data-site-path"] == site_path
        bold = [cell for row in block["body"] for cell in row if cell.get("key")]
        assert len(bold) == 1, block["id"]
        result = CALCULATORS[block["calculator"]].evaluate(_link_inputs(block))
        shown = _steps(result) | {f.key: Fraction(f.value) for f in result.figures() if not isinstance(f.value, str)}
        assert bold[0]["text"] == numbers_for(lang).percent(shown[block["link"]["data-figure"]]), block["id"]


def test_axes_follow_the_dice_and_the_rules(digests):
    """Rows and columns span the d10's faces (from the rule data) and the attempts the rules allow."""
    faces = R["kensei.roll-of-ten"]["critical_roll"]
    blocks = digests["en"].blocks
    rows = {table: [int(row[0]["text"]) for row in block["body"]] for table, block in blocks.items()}
    assert rows["odds-hit"] == list(range(0, faces + 1))
    assert rows["odds-defense"] == list(range(1, faces + 1))
    assert rows["odds-damage"] == list(range(0, faces + 1))
    assert rows["odds-regroup"] == list(range(1, faces + 1))
    assert rows["odds-charge"][-1] == 2 * faces
    attempts = [int(c["text"]) for c in blocks["odds-regroup"]["head"][-1][1:]]
    assert attempts == list(range(1, R["kensei.regroup"]["attempts"] + 1))


@pytest.mark.parametrize("lang", LANGS)
def test_the_qr_code_generator_is_served_from_the_site(built_site, digests, lang):
    site, _ = built_site
    page_dir = _page_dir(site, lang)
    scripts = [(page_dir / src).resolve() for src in digests[lang].scripts if "digest" in src or "qrcode" in src]
    assert {p.name for p in scripts} == {"digest.js", "qrcode.js"}
    for path in scripts:
        assert path.is_file() and site.resolve() in path.parents, path
    assert all(urlparse(src).scheme == "" for src in digests[lang].scripts), "no script from elsewhere"
