"""A calculator figure that rests on a reading rather than on the texts cites that reading's note
(``rule#note`` as its step's rule), and the note it cites exists, is a reading, and is linked from the
calculator page to its place on the rule's page."""

from __future__ import annotations

import html
import json
import re

import pytest

from calculators import movement
from kensei_ref.site.calculator_pages import calculator_page
from kensei_ref.site.pages import chapter_page, note_anchor


def _note(book, cited: str):
    rule_id, _, note_id = cited.partition("#")
    return next((note for note in book.rule(rule_id).notes if note.id == note_id), None)


@pytest.mark.parametrize("unit_type", ["harasser", "mounted_harasser"])
def test_harassers_movement_cites_its_reading(book, unit_type):
    steps = movement.run({"unit_type": unit_type})["steps"]
    cited = steps[0]["rule"]
    assert cited == movement.HARASSER_MOVEMENT_NOTE
    note = _note(book, cited)
    assert note is not None and note.kind == "reading", cited


@pytest.mark.parametrize("unit_type", ["infantry", "cavalry", "large", "lone_model"])
def test_stated_movements_cite_the_rule(unit_type):
    assert movement.run({"unit_type": unit_type})["steps"][0]["rule"] == "kensei.movement"


def test_the_page_links_the_step_to_the_note(book):
    page = calculator_page(book, "movement", "en", "en")
    data = json.loads(html.unescape(re.search(r'data-json="([^"]*)"', page)[1]))
    rule_id, _, note_id = movement.HARASSER_MOVEMENT_NOTE.partition("#")
    assert data["rules"][movement.HARASSER_MOVEMENT_NOTE].endswith("#" + note_anchor(rule_id, note_id))
    chapter = book.chapter_of(rule_id)
    assert f'id="{note_anchor(rule_id, note_id)}"' in chapter_page(book, chapter, "en", set())
