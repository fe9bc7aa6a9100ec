"""The Command phase plan's page in Debian's Chromium: the table from the address or the device, the plan
the engine gives equal to CPython's (``kensei-ref plan --json``), in three languages, at phone width; a
change of the table recomputed and kept in the address and on the device; the table file exported."""

from __future__ import annotations

import base64
import io
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "calculators"))
from test_command_plan import CALM, PROFILES, SMALL, WORN

from calculators.command_plan import plan_turn
from calculators.plan_report import plan_json
from calculators.profiles import read_units, units_document
from calculators.rulebook import RuleValues
from calculators.table import read_table
from kensei_ref.languages import QUOTES, get_translations
from kensei_ref.site.plan_page import TABLE_KEY, UI
from kensei_ref.site.unit_pickers import STORAGE_KEY

PHONE = {"width": 390, "height": 844}
SETTLED = "() => ['fresh', 'stale', 'failed', 'empty'].includes(document.querySelector('.kr-plan')?.dataset.state)"
TIMEOUT = 180_000


def _address(table: dict, objective: str) -> str:
    text = base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")
    return f"?table={text}&objective={objective}"


def _python(table: dict, objective: str) -> dict:
    state = read_table(table, PROFILES)
    plans = plan_turn(state, objective)
    return json.loads(json.dumps(plan_json(state, plans, objective, state.commandment_points(RuleValues.bundled()))))


def _fresh(page, condition: str) -> None:
    """Waits for the plan of a table that meets ``condition`` (a script expression) to be on screen."""
    page.wait_for_function(f"() => document.querySelector('.kr-plan').dataset.state === 'fresh' && ({condition})",
                           timeout=TIMEOUT)  # fmt: skip


def _opened(phone, address: str) -> tuple:
    """A new page at ``address``, once its first plan is on screen, and the script errors it meets."""
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(address)
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    assert page.evaluate("document.querySelector('.kr-plan').dataset.state") == "fresh"
    return page, errors


@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block",
                                  accept_downloads=True)  # fmt: skip
    units = json.dumps(units_document(PROFILES))
    context.add_init_script(f"window.localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(units)});")
    yield context
    context.close()


@pytest.mark.parametrize("lang", ["", "fr/", "ru/"])
def test_the_plan_is_cpythons_in_every_language(phone, server, lang):
    page, errors = _opened(phone, f"{server}/{lang}plan/{_address(SMALL, 'victory')}")
    shown = page.evaluate("window.__krPlan.plan")
    assert shown == _python(SMALL, "victory")
    gettext = get_translations(lang.strip("/") or "en").gettext
    assert page.locator(".kr-plan__status").inner_text() == gettext(UI["ready"])
    orders = page.locator(".kr-plan__best .kr-plan__order")
    assert orders.evaluate_all("(items) => items.map((item) => item.dataset.actions)") == [
        ",".join(order["actions"]) for order in shown["plans"][0]["orders"]
    ]
    # each order links the calculator runs behind its figures, with their inputs
    for item, order in zip(orders.all(), shown["plans"][0]["orders"], strict=True):
        hrefs = item.locator(".kr-plan__links a:not(.kr-plan__advisor)").evaluate_all(
            "(links) => links.map((link) => link.getAttribute('href'))"
        )
        assert len(hrefs) == len(order["calculators"]) and order["calculators"]
        for href, run in zip(hrefs, order["calculators"], strict=True):
            assert f"calculators/{run['name']}/?" in href, href
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors
    page.close()


@pytest.mark.parametrize("lang", ["", "fr/", "ru/", "es/"])
def test_a_plan_that_spends_nothing_says_so_in_a_sentence_of_its_own(phone, server, lang):
    """No unit fleeing and no point spent: the page's own sentence, not "at most 0; units expected to regroup:
    0"; a plan that spends keeps the sentence with its points."""
    gettext = get_translations(lang.strip("/") or "en").gettext
    page = phone.new_page()
    for table, spends in ((CALM, False), (SMALL, True)):
        page.goto(f"{server}/{lang}plan/{_address(table, 'expected_wounds')}")
        page.wait_for_function(SETTLED, timeout=TIMEOUT)
        plans = page.evaluate("window.__krPlan.plan")["plans"]
        shown = page.locator(".kr-plan__points").all_text_contents()  # the other plans' are folded
        assert len(shown) == len(plans) >= 1
        for text, plan in zip(shown, plans, strict=True):
            if spends:  # the sentence with its points (the regrouped figure as the page's numbers write it)
                before_points = gettext(UI["points"]).split("%(points)s")[0]
                assert text.startswith(f"{before_points}{plan['commandment_points_spent']}"), text
            else:
                assert text == gettext(UI["nothing_spent"])
    page.close()


def test_keys_typed_while_a_plan_is_computed_ask_for_the_latest_table_only(browser, server):
    """The Command phase plan of a warband (10 units against 10, about a second each time on this machine,
    several on a phone): distances raised a centimetre at a time while the engine works ask for one plan
    more, of the table as it is then, not one per key; that plan is CPython's."""
    sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))
    from bench_calculators import WARBAND_TABLE, WARBAND_UNITS

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block")
    units = json.dumps(WARBAND_UNITS)
    context.add_init_script(f"window.localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(units)});")
    page = context.new_page()
    page.goto(f"{server}/plan/{_address(WARBAND_TABLE, 'expected_wounds')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    before = page.evaluate("window.__krEngine.next")
    distance = page.locator(".kr-plan__pair input[type='number']").first
    start = int(distance.input_value())
    for _ in range(4):
        distance.press("ArrowUp")
    page.wait_for_function(
        "(cm) => document.querySelector('.kr-plan').dataset.state === 'fresh'"
        " && window.__krPlan.table.distances[0].cm === cm",
        arg=start + 4,
        timeout=TIMEOUT,
    )
    assert page.evaluate("window.__krEngine.next") - before <= 2, "the first key's plan, then the latest table's"
    table = page.evaluate("window.__krPlan.table")
    state = read_table(table, read_units(WARBAND_UNITS))
    expected = plan_json(state, plan_turn(state, "expected_wounds"), "expected_wounds",
                         state.commandment_points(RuleValues.bundled()))  # fmt: skip
    assert page.evaluate("window.__krPlan.plan") == json.loads(json.dumps(expected))
    context.close()


def test_a_change_is_recomputed_kept_and_exported(phone, server):
    page = phone.new_page()
    page.goto(f"{server}/plan/{_address(SMALL, 'expected_wounds')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    # the Guard leaves the table: the plan is made again without it
    guard = page.locator('.kr-plan__unit[data-unit="Guard"] select').first
    guard.select_option("off")
    _fresh(page, "!window.__krPlan.table.mine.some((unit) => unit.unit === 'Guard')")
    changed = page.evaluate("window.__krPlan.table")
    assert [unit["unit"] for unit in changed["mine"]] == ["Bowmen", "Spearmen"]
    assert all(pair["mine"] != "Guard" for pair in changed["distances"])
    assert page.evaluate("window.__krPlan.plan") == _python(changed, "expected_wounds")
    # kept on the device and in the address: a reload opens the same table
    assert json.loads(page.evaluate(f"window.localStorage.getItem({json.dumps(TABLE_KEY)})")) == changed
    page.reload()
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    assert page.evaluate("window.__krPlan.table") == changed
    with page.expect_download() as download:
        page.locator(".kr-plan__export").click()
    assert json.loads(Path(download.value.path()).read_text(encoding="utf-8")) == changed
    page.close()


@pytest.mark.parametrize("lang", ["", "ru/"])
def test_each_units_orders_open_the_advisor_on_the_same_row(phone, server, lang):
    """Tapping a unit's "Orders advisor" opens the advisor in place on that pair, from the units of the
    device, in the table's state (Wounds left, weapons fired): its row for the orders has the plan's figures."""
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/{lang}plan/{_address(WORN, 'net')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    page.evaluate("window.__krSameTab = true")  # survives only an in-place navigation
    plan = page.evaluate("window.__krPlan.plan")["plans"][0]
    for index, order in enumerate(plan["orders"]):
        if index:
            page.go_back()
            page.wait_for_function(SETTLED, timeout=TIMEOUT)
        link = page.locator(".kr-plan__best .kr-plan__order").nth(index).locator("a.kr-plan__advisor")
        link.tap()
        page.wait_for_function(
            "() => document.querySelector('.kr-advisor')?.dataset.state === 'fresh' && window.__krAdvice",
            timeout=TIMEOUT,
        )
        assert page.evaluate("window.__krSameTab") is True
        shown = page.evaluate("window.__krAdvice")
        assert {key: shown["situation"][key] for key in order["advisor"]["situation"]} == order["advisor"]["situation"]
        row = next(row for row in shown["advice"]["rows"] if row["actions"] == order["actions"])
        figures = ("wounds_pmf", "victory", "defeat", "expected_taken", "reply")
        assert {key: row[key] for key in figures} == {key: order[key] for key in figures}
    assert not errors
    page.close()


UNDERLINE_BANDS = """(links) => links.filter((a) => a.nextElementSibling).map((a) => {
  const range = document.createRange();
  range.selectNodeContents(a);
  const rects = [...range.getClientRects()];
  const last = rects[rects.length - 1];
  const color = getComputedStyle(a).color;
  return { x: last.right + 1, y: last.bottom - 6 + window.scrollY, width: 4, height: 9, color };
})"""
"""Under each link followed by another, a band just past its last letter, where the comma stands: the
link's underline, if it reached the comma, would cross it in the link's colour."""


def test_a_links_underline_stops_before_the_comma_after_it(phone, server):
    """The plan's links are underlined (links in running text); the comma after each is drawn with it, in the
    text's grey, but is no part of it, so the underline (in the link's colour) stops at its last letter."""
    from PIL import Image

    page = phone.new_page()
    page.goto(f"{server}/plan/{_address(SMALL, 'victory')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    links = page.locator(".kr-plan__best .kr-plan__links a")
    assert links.first.evaluate("(a) => getComputedStyle(a).textDecorationLine") == "underline"
    bands = links.evaluate_all(UNDERLINE_BANDS)
    assert bands
    for band in bands:
        color = [int(part) for part in band.pop("color").strip("rgba()").split(",")[:3]]
        assert max(color) - min(color) > 100  # the links' colour is a colour, not a grey like the comma's
        shot = Image.open(io.BytesIO(page.screenshot(clip=band, full_page=True))).convert("RGB")
        # the underline, even blended with the white, is tinted; the comma and the page are grey
        tinted = [pixel for pixel in shot.get_flattened_data() if max(pixel) - min(pixel) > 40]
        assert not tinted, (band, tinted)
    page.close()


DUEL = {"format": "kensei-ref/table", "version": 1, "game": "kensei", "general": "taisho",
        "mine": [{"unit": "Ashigaru archers"}], "enemy": [{"unit": "Samurai"}],
        "distances": [{"mine": "Ashigaru archers", "enemy": "Samurai", "cm": 12}], "ki": 6}  # fmt: skip
"""Your archers 12 cm from the enemy's Samurai, the general's Ki 6: a plan, and two number fields."""

STALE = "() => document.querySelector('.kr-plan').dataset.state === 'stale'"
INTERNAL = ("[", "distances", "got", ".cm", "_")
"""What the page's text never shows of the table file's keys and the engine's English."""


def _plan_text(page) -> str:
    return page.locator(".kr-plan").inner_text()


def _assert_error_under(page, field: str, message: str) -> None:
    """`message` under the field `field` (its own error line, which the field names), the field marked invalid."""
    control = page.locator(f"#{field}")
    error = page.locator(f"#{field}-error")
    assert error.inner_text() == message
    assert control.get_attribute("aria-invalid") == "true"
    assert f"{field}-error" in control.get_attribute("aria-describedby").split()
    # in the field's own block, just under its input
    block = (
        "(line) => line.parentElement === document.getElementById(line.id.replace(/-error$/, '')).closest('.kr-field')"
    )
    assert error.evaluate(block)
    above, below = control.bounding_box(), error.bounding_box()
    assert 0 <= below["y"] - (above["y"] + above["height"]) < 40, (above, below)


@pytest.mark.parametrize("lang", ["", "fr/"])
@pytest.mark.parametrize(
    ("field", "value", "maximum"),
    [("p-cm-0-0", "-3", 200), ("p-cm-0-0", "2.5", 200), ("p-cm-0-0", "99999", 200), ("p-ki", "50", 20),
     ("p-ki", "-1", 20), ("p-ki", "2.5", 20)],
)  # fmt: skip
def test_a_number_the_table_cannot_take_is_refused_under_its_field(phone, server, lang, field, value, maximum):
    """A distance or Ki that is no whole number in range is refused by the page before the engine is asked:
    "Enter a whole number from 0 to 200." under the field, in the page's language, the field marked invalid;
    the plan shown stays the last valid table's, marked stale; a valid value then computes again."""
    gettext = get_translations(lang.strip("/") or "en").gettext
    page, errors = _opened(phone, f"{server}/{lang}plan/{_address(DUEL, 'expected_wounds')}")
    shown = page.locator(".kr-plan__result").inner_text()
    plan = page.evaluate("window.__krPlan")
    asked = page.evaluate("window.__krEngine.next")
    kept = page.evaluate(f"[window.localStorage.getItem({json.dumps(TABLE_KEY)}), window.location.search]")
    page.locator(f"#{field}").fill(value)
    page.wait_for_function(STALE, timeout=TIMEOUT)
    _assert_error_under(page, field, gettext(UI["int"]) % {"minimum": 0, "maximum": maximum})
    assert page.locator(".kr-plan__status").inner_text() == gettext(UI["stale"])
    assert page.locator(".kr-plan__result").inner_text() == shown
    page.wait_for_timeout(300)  # nothing is asked of the engine, and nothing changes meanwhile
    assert page.evaluate("window.__krEngine.next") == asked
    assert page.evaluate("window.__krPlan") == plan
    assert page.evaluate("document.querySelector('.kr-plan').dataset.state") == "stale"
    text = _plan_text(page)
    assert not [word for word in INTERNAL if word in text], text
    # the table kept on the device and in the address stays the last valid one
    assert page.evaluate(f"[window.localStorage.getItem({json.dumps(TABLE_KEY)}), window.location.search]") == kept
    # a valid value clears the error and computes
    page.locator(f"#{field}").fill("14")
    key = "distances[0].cm" if field.startswith("p-cm") else "ki"
    page.wait_for_function(
        f"() => document.querySelector('.kr-plan').dataset.state === 'fresh' && window.__krPlan.table.{key} === 14",
        timeout=TIMEOUT,
    )
    assert page.locator(f"#{field}-error").inner_text() == ""
    assert page.locator(f"#{field}").get_attribute("aria-invalid") is None
    assert page.locator(".kr-plan__status").inner_text() == gettext(UI["ready"])
    assert page.evaluate("window.__krPlan.plan") == _python(page.evaluate("window.__krPlan.table"), "expected_wounds")
    assert not errors
    page.close()


@pytest.mark.parametrize("lang", ["", "fr/", "ru/"])
def test_the_engines_refusal_is_under_its_field_in_the_pages_words(phone, server, lang):
    """A distance the rules refuse (0 cm is contact; closer than 5 cm needs a failed charge or terrain between)
    is said under the distance's field, the other fields the rule names by their labels, not their keys."""
    gettext = get_translations(lang.strip("/") or "en").gettext
    page = phone.new_page()
    page.goto(f"{server}/{lang}plan/{_address(DUEL, 'expected_wounds')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    shown = page.locator(".kr-plan__result").inner_text()
    rules = gettext(UI["rules"]).split("%(message)s")[0]
    for value, named in (("3", "Terrain between the units"), ("0", "State")):
        page.locator("#p-cm-0-0").fill(value)
        page.wait_for_function(
            "() => document.querySelector('.kr-plan').dataset.state === 'stale'"
            " && document.getElementById('p-cm-0-0-error').textContent",
            timeout=TIMEOUT,
        )
        message = page.locator("#p-cm-0-0-error").inner_text()
        assert message.startswith(rules), message
        opening, closing = QUOTES[lang.strip("/") or "en"]  # as the language quotes a label
        assert f"{opening}{gettext(named)}{closing}" in message, message
        assert page.locator("#p-cm-0-0").get_attribute("aria-invalid") == "true"
        assert page.locator(".kr-plan__result").inner_text() == shown
        text = _plan_text(page)
        assert not [word for word in INTERNAL if word in text], text
    page.close()


@pytest.mark.parametrize("lang", ["", "fr/"])
def test_a_refused_field_the_page_has_no_input_for_is_named_in_the_status(phone, server, lang):
    """A table from an address or a file may give a field the page shows no input for (a unit's Wounds left):
    its refusal is said in the status line, by the unit's name and the field's label, never its key."""
    gettext = get_translations(lang.strip("/") or "en").gettext
    table = {**DUEL, "mine": [{"unit": "Ashigaru archers", "reactions": 9}]}
    page = phone.new_page()
    page.goto(f"{server}/{lang}plan/{_address(table, 'expected_wounds')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    assert page.evaluate("document.querySelector('.kr-plan').dataset.state") == "stale"
    status = page.locator(".kr-plan__status").inner_text()
    before = gettext(UI["refused"]).split("%(field)s")[0]
    assert status.startswith(f"{before}Ashigaru archers, {gettext('Reactions')}"), status
    assert "mine" not in status and "[" not in status and "reactions" not in status, status
    page.close()


def test_a_change_keeps_what_the_form_has_no_field_for(phone, server):
    """A table from an address or a file gives units their Wounds left, reactions paid, weapons fired and
    cover, which the form has no field for: a change of a distance or a side keeps them (it dropped them)."""
    page = phone.new_page()
    page.goto(f"{server}/plan/{_address(WORN, 'expected_wounds')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    distance = page.locator('.kr-plan__pair[data-mine="Bowmen"][data-enemy="Ronin"] input[type="number"]')
    distance.fill("13")
    _fresh(page, "window.__krPlan.table.distances.some((pair) => pair.mine === 'Bowmen' && pair.cm === 13)")
    changed = page.evaluate("window.__krPlan.table")
    expected = json.loads(json.dumps(WORN))
    for pair in expected["distances"]:
        if (pair["mine"], pair["enemy"]) == ("Bowmen", "Ronin"):
            pair["cm"] = 13
    for side in ("mine", "enemy"):  # every field the file gave, each unit's state as the form writes it
        assert [{**unit, "state": unit.get("state", "ready")} for unit in expected[side]] == changed[side]
    assert [{**pair, "in_sight": pair.get("in_sight", True)} for pair in expected["distances"]] == changed["distances"]
    assert page.evaluate("window.__krPlan.plan") == _python(changed, "expected_wounds")
    page.close()


def test_units_closer_than_5_cm_are_planned_once_the_page_says_why(phone, server):
    """3 cm is refused unless the units failed a charge or have terrain between them, as the refusal says:
    the page has both boxes, and either makes the table plannable."""
    page = phone.new_page()
    page.goto(f"{server}/plan/{_address(DUEL, 'expected_wounds')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    boxes = (("#p-terrain-0-0", "distances[0].terrain_between"), ('[name^="failed-"]', "mine[0].failed_charge"))
    for box, key in boxes:
        page.locator("#p-cm-0-0").fill("3")
        page.wait_for_function("() => document.querySelector('.kr-plan').dataset.state === 'stale'", timeout=TIMEOUT)
        page.locator(box).check()
        page.wait_for_function(
            "() => document.querySelector('.kr-plan').dataset.state === 'fresh'"
            f" && window.__krPlan.table.distances[0].cm === 3 && window.__krPlan.table.{key} === true",
            timeout=TIMEOUT,
        )
        assert page.locator("#p-cm-0-0-error").inner_text() == ""
        table = page.evaluate("window.__krPlan.table")
        assert page.evaluate("window.__krPlan.plan") == _python(table, "expected_wounds")
        page.locator(box).uncheck()
        page.wait_for_function("() => document.querySelector('.kr-plan').dataset.state === 'stale'", timeout=TIMEOUT)
        kept = json.loads(page.evaluate(f"window.localStorage.getItem({json.dumps(TABLE_KEY)})"))
        assert key.split(".")[-1] not in json.dumps(kept) and kept["distances"][0]["cm"] == 3
    page.close()


def test_a_value_typed_back_to_the_table_planned_shows_its_plan_as_fresh(phone, server):
    """Ki 5 is planned; 50 is refused; typed back to 5, the table is the one planned: the plan on screen
    is its own again, not marked as for the last valid inputs."""
    gettext = get_translations("en").gettext
    page = phone.new_page()
    page.goto(f"{server}/plan/{_address(DUEL, 'expected_wounds')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    ki = page.locator("#p-ki")
    ki.fill("5")
    page.wait_for_function(
        "() => document.querySelector('.kr-plan').dataset.state === 'fresh' && window.__krPlan.table.ki === 5",
        timeout=TIMEOUT,
    )
    ki.fill("50")
    page.wait_for_function(STALE, timeout=TIMEOUT)
    ki.fill("5")
    page.locator("h1").first.click()  # the field loses focus: its "change"
    page.wait_for_function("() => document.querySelector('.kr-plan').dataset.state === 'fresh'", timeout=TIMEOUT)
    assert page.locator(".kr-plan__status").inner_text() == gettext(UI["ready"])
    assert page.locator("#p-ki-error").inner_text() == ""
    page.close()


def test_a_unit_taken_off_by_mistake_and_put_back_finds_its_fields_and_distances(phone, server):
    """The Guard engaged and ready again, the Scouts off the table and back: their Wounds left and their
    distances (with what is in sight) come back, and the table is the one the address gave."""
    page = phone.new_page()
    page.goto(f"{server}/plan/{_address(WORN, 'expected_wounds')}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    given = page.evaluate("window.__krPlan.table")
    moves = (('[data-unit="Guard"] select[name^="state-"]', "engaged", "ready"),
             ('[data-unit="Scouts"] select[name^="side-"]', "off", "enemy"))  # fmt: skip
    for select, away, back in moves:
        page.locator(f".kr-plan__unit{select}").select_option(away)
        page.wait_for_function(SETTLED, timeout=TIMEOUT)
        page.locator(f".kr-plan__unit{select}").select_option(back)
    _fresh(page, "window.__krPlan.table.enemy.some((unit) => unit.unit === 'Scouts')")
    now = page.evaluate("window.__krPlan.table")
    for side in ("mine", "enemy"):  # as the form writes them: each unit's state, each pair's sight
        assert now[side] == [{**unit, "state": unit.get("state", "ready")} for unit in given[side]]
    assert now["distances"] == [{**pair, "in_sight": pair.get("in_sight", True)} for pair in given["distances"]]
    assert page.evaluate("window.__krPlan.plan") == _python(now, "expected_wounds")
    page.close()


def test_a_shared_table_of_units_this_device_has_not_saved_is_named_and_kept(browser, server):
    """Opened on a device without its units, a shared table says which units to add, in the page's words,
    and a change of the general's Ki keeps the table's units and distances (it emptied them)."""
    gettext = get_translations("en").gettext
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block")
    page = context.new_page()
    page.goto(f"{server}/plan/{_address(SMALL, 'victory')}")
    page.wait_for_function("() => document.querySelector('.kr-plan')?.dataset.state === 'empty'", timeout=TIMEOUT)
    names = ", ".join(unit["unit"] for unit in (*SMALL["mine"], *SMALL["enemy"]))
    assert page.locator(".kr-plan__status").inner_text() == gettext(UI["unsaved"]) % {"names": names}
    page.locator("#p-ki").fill("4")
    page.wait_for_function(f"() => JSON.parse(window.localStorage.getItem({json.dumps(TABLE_KEY)}))?.ki === 4")
    kept = json.loads(page.evaluate(f"window.localStorage.getItem({json.dumps(TABLE_KEY)})"))
    assert [unit["unit"] for unit in kept["mine"]] == [unit["unit"] for unit in SMALL["mine"]]
    assert kept["distances"] == SMALL["distances"]
    context.close()
