"""My units, the orders advisor and the calculators' unit pickers in Debian's Chromium, at phone width:
profiles saved from the form, exported and read back by Python, refused files that change nothing,
shared links, the advisor's table equal to Python's in three languages, offline, and a calculator
filled from two picked units showing CPython's figures."""

from __future__ import annotations

import base64
import json
import shutil
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlparse

import pytest
from playwright.sync_api import expect
from site_server import SiteServer

from kensei_ref.languages import LANGUAGES, site_folder
from kensei_ref.site.calculator_pages import ENGINE_STATE, RESULT_STATE

sys.path.insert(0, str(Path(__file__).parent / "calculators"))
from unit_profiles import ARCHERS, SAMURAI, units_file

from calculators import CALCULATORS
from calculators.advisor import advise
from calculators.enemy_reply import REPLY_LABELS
from calculators.json_nesting import MAX_NESTING, NESTING_MESSAGE
from calculators.orders import ACTION_LABELS, OTHER_ORDER_LABELS
from calculators.profiles import (
    FILE_TOO_LONG,
    MAX_FILE_CHARACTERS,
    MAX_UNITS,
    TOO_MANY_UNITS,
    parse_units,
    read_units,
)
from kensei_ref.languages import get_translations
from kensei_ref.numbers import numbers_for
from kensei_ref.site.unit_pickers import STORAGE_KEY
from kensei_ref.site.units_pages import ADVISOR_DEFAULTS, UI

PHONE = {"width": 390, "height": 844}
ENGINE_TIMEOUT = 120_000
"""Milliseconds allowed for a cold start of the engine on a busy machine."""
PREFIX = {lang: site_folder(lang) for lang in LANGUAGES}
ADVICE_FRESH = "() => document.querySelector('.kr-advisor')?.dataset.state === 'fresh'"
CALCULATOR_FRESH = (
    f"() => document.querySelector('.kr-calc')?.getAttribute('{ENGINE_STATE}') === 'ready'"
    f" && !document.querySelector('[{RESULT_STATE}=\"computing\"]')"
)


def _seeded(browser, units: list[dict] | None):
    """A phone-sized context of its own, with its service worker, whose device already holds ``units``
    (or nothing): for the offline test."""
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    if units is not None:
        stored = json.dumps(units_file(*units))
        context.add_init_script(
            f"if (!window.localStorage.getItem({json.dumps(STORAGE_KEY)})) "
            f"window.localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored)});"
        )
    return context


HOLD = """([key, stored]) => {
  window.localStorage.clear();
  if (stored !== null) window.localStorage.setItem(key, stored);
}"""


STORAGE_PAGE = "/__storage__"
"""An address of the site's origin that no page has: answered by the test itself with an empty page, on
which the test writes the site's storage without loading any of the site's files."""


def _hold(page, server: str, stored: str | None) -> None:
    """Makes the site's storage hold ``stored`` (or nothing), from ``page`` at an empty page of the site's
    origin (routed for this page only, and unrouted after: a routed page skips the HTTP cache)."""
    address = f"{server}{STORAGE_PAGE}"
    page.route(address, lambda route: route.fulfill(content_type="text/html", body="<!doctype html><title></title>"))
    page.goto(address)
    page.evaluate(HOLD, [STORAGE_KEY, stored])
    page.unroute(address)


class _Phone:
    """A phone that holds ``units`` (or nothing): pages of the run's warm context (its engine restores
    the saved one; no service worker saves the site in the background), phone-sized, whose site storage
    holds just those units when the test begins, and nothing once it ends (other tests share the context)."""

    def __init__(self, warm_pages, server: str, units: list[dict] | None) -> None:
        self.pages = warm_pages.configured(viewport=PHONE)
        self.server = server
        self.stored = None if units is None else json.dumps(units_file(*units))
        self.opened: list = []

    def new_page(self):
        page = self.pages.new_page()
        if not self.opened:
            _hold(page, self.server, self.stored)
        self.opened.append(page)
        return page

    def close(self) -> None:
        """Closes the test's pages, then empties the site's storage from the last one (its other pages can
        no longer write to it)."""
        if not self.opened:
            return
        open_pages = [page for page in self.opened if not page.is_closed()]
        last = open_pages.pop() if open_pages else self.pages.new_page()
        for page in open_pages:
            page.close()
        _hold(last, self.server, None)
        last.close()


@pytest.fixture
def phone(warm_pages, server):
    """Opens a page on a phone that holds the units given (or none): ``page = phone([SAMURAI])``."""
    phones: list[_Phone] = []

    def holding(units: list[dict] | None):
        phones.append(_Phone(warm_pages, server, units))
        return phones[-1].new_page()

    yield holding
    for held in phones:
        held.close()


def _saved(page) -> list[dict]:
    return json.loads(page.evaluate(f"() => window.localStorage.getItem({json.dumps(STORAGE_KEY)})"))["units"]


def _errors(page) -> list[str]:
    found: list[str] = []
    page.on("pageerror", lambda error: found.append(str(error)))
    return found


# ---- My units ----------------------------------------------------------------------------------


def test_a_unit_saved_from_the_form_is_listed_and_exported_as_a_file_python_reads(phone, server):
    page = phone(None)
    errors = _errors(page)
    page.goto(f"{server}/units/")
    expect(page.locator(".kr-units__empty")).to_have_text(UI["none"])
    page.get_by_role("button", name=UI["new"]).click()
    page.locator("#u-name").fill("Yumi ashigaru")
    page.locator("#u-unit_type").select_option("infantry")
    # a new unit starts from the calculators' default scenario: a few taps change it
    starts = {name: page.locator(f"#u-{name}").input_value() for name in ("models", "wounds_each", "attack", "armor")}
    assert starts == {"models": "7", "wounds_each": "1", "attack": "6", "armor": "3"}
    assert page.locator("#u-wounds").is_hidden()  # the list is for a mixed unit only
    page.get_by_role("button", name="Models −1").click()
    page.get_by_role("button", name="Models −1").click()  # 7 -> 5
    page.get_by_role("button", name="Attack +1").click()
    page.get_by_role("button", name="Attack −1").click()  # 6 again
    for name, value in {"defense": "5", "armor": "3", "initiative": "4"}.items():
        page.locator(f"#u-{name}").fill(value)
    page.locator("#u-ranged").check()
    page.locator("#u-loaded").check()
    for name, value in {"short_range_cm": "10", "range_cm": "30", "long_range_cm": "45"}.items():
        page.locator(f"#u-{name}").fill(value)
    page.get_by_role("button", name=UI["save"]).click()
    expect(page.locator(".kr-units__status")).to_have_text("Saved: Yumi ashigaru.", timeout=ENGINE_TIMEOUT)
    expect(page.locator(".kr-units__name")).to_have_text(["Yumi ashigaru"])
    with page.expect_download() as download:
        page.get_by_role("button", name=UI["export"]).click()
    (profile,) = parse_units(Path(download.value.path()).read_text(encoding="utf-8"))
    assert (profile.name, profile.unit_type, profile.wounds, profile.attack) == ("Yumi ashigaru", "infantry",
                                                                                 (1,) * 5, 6)  # fmt: skip
    assert (profile.ranged, profile.loaded, profile.long_range_cm) == (True, True, 45)
    page.reload()  # kept on the device
    expect(page.locator(".kr-units__name")).to_have_text(["Yumi ashigaru"])
    assert not errors


def test_a_mixed_unit_lists_each_models_wounds_and_a_change_of_game_keeps_what_applies(phone, server):
    page = phone([{**SAMURAI, "wounds": [3, 2, 2]}])
    page.goto(f"{server}/units/")
    page.get_by_role("button", name=UI["edit"]).click()
    assert page.locator("#u-mixed").is_checked() and page.locator("#u-wounds").input_value() == "3,2,2"
    assert page.locator("#u-models").is_hidden()
    page.locator("#u-mixed").uncheck()  # every model alike: models × Wounds each
    page.locator("#u-models").fill("4")
    page.locator("#u-wounds_each").fill("2")
    page.locator("#u-attack").fill("7")
    page.locator("#u-game").select_option("ronin")
    assert page.locator("#u-name").input_value() == SAMURAI["name"]
    page.locator("#u-game").select_option("kensei")  # back: the Kensei fields typed are still there
    assert page.locator("#u-attack").input_value() == "7"
    assert (page.locator("#u-models").input_value(), page.locator("#u-wounds_each").input_value()) == ("4", "2")
    page.get_by_role("button", name=UI["save"]).click()
    expect(page.locator(".kr-units__status")).to_have_text(f"Saved: {SAMURAI['name']}.", timeout=ENGINE_TIMEOUT)
    assert _saved(page)[0]["wounds"] == [2, 2, 2, 2] and _saved(page)[0]["attack"] == 7


def _saved_in_russian(phone, server: str, action: str, field: str, value: str):
    """The Russian units page with one samurai saved, after ``action`` on it, ``value`` typed into
    ``field`` and Save pressed; with the Russian catalog's gettext."""
    _ = get_translations("ru").gettext
    page = phone([SAMURAI])
    page.goto(f"{server}/ru/units/")
    page.get_by_role("button", name=_(action)).click()
    page.locator(field).fill(value)
    page.get_by_role("button", name=_(UI["save"])).click()
    return page, _


def _pick_units(page, pickers: str, chips: tuple[int, int], ready: str) -> None:
    """Tap chip ``chips[0]`` in the first of ``pickers`` (my unit) and ``chips[1]`` in the second (the
    enemy), then wait until the script ``ready`` holds."""
    for picker, chip in enumerate(chips):
        page.locator(pickers).nth(picker).locator(".kr-units__chip").nth(chip).click()
    page.wait_for_function(ready, timeout=ENGINE_TIMEOUT)


def test_a_bad_field_is_named_in_the_pages_language_before_anything_is_saved(phone, server):
    page, _ = _saved_in_russian(phone, server, UI["edit"], "#u-attack", "25")
    expect(page.locator("#u-attack-error")).to_have_text(_(UI["int"]) % {"minimum": 0, "maximum": 20})
    assert _saved(page)[0]["attack"] == SAMURAI["attack"]
    # a rule across fields comes from the engine, translated: a loaded weapon needs a ranged one
    page.locator("#u-attack").fill("5")
    page.locator("#u-loaded").check()
    page.get_by_role("button", name=_(UI["save"])).click()
    expect(page.locator("#u-loaded-error")).to_contain_text("«", timeout=ENGINE_TIMEOUT)
    expect(page.locator("#u-loaded-error")).to_contain_text(_("Ranged weapon"))
    assert _saved(page) == [SAMURAI]  # nothing saved while a field is refused


def test_a_refused_file_changes_nothing_and_says_why_in_french(phone, server, tmp_path):
    _ = get_translations("fr").gettext
    page = phone([ARCHERS, SAMURAI])
    page.goto(f"{server}/fr/units/")
    before = _saved(page)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(units_file({**SAMURAI, "name": "Ninja"}, {**SAMURAI, "name": "X", "armor": 99})))
    page.locator(".kr-units__import input").set_input_files(str(bad))
    status = page.locator(".kr-units__status")
    expect(status).to_contain_text("Rien n'a été importé", timeout=ENGINE_TIMEOUT)
    expect(status).to_contain_text("unité 2, Armure")
    expect(status).to_contain_text("de 0 à 20")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{ not json")
    page.locator(".kr-units__import input").set_input_files(str(garbage))
    expect(status).to_contain_text(_("must be a JSON file: this one cannot be read as JSON"))
    assert _saved(page) == before
    good = tmp_path / "good.json"
    good.write_text(json.dumps(units_file({**SAMURAI, "name": "Ninja"}, {**ARCHERS, "attack": 5})))
    page.locator(".kr-units__import input").set_input_files(str(good))
    expect(status).to_contain_text("2 unités importées du fichier")
    assert [unit["name"] for unit in _saved(page)] == ["Samurai", "Ninja", "Ashigaru archers"]
    assert _saved(page)[2]["attack"] == 5  # a unit of the same name is replaced


def test_a_shared_link_saves_its_units_once_the_player_agrees(phone, server):
    page = phone(None)
    text = json.dumps(units_file(ARCHERS, SAMURAI)).encode()
    encoded = base64.urlsafe_b64encode(text).decode().rstrip("=")
    page.goto(f"{server}/units/#units={encoded}")
    shared = get_translations("en").ngettext(*UI["shared"], 2) % {"count": 2}
    expect(page.locator(".kr-units__status")).to_have_text(shared)
    assert page.evaluate(f"() => window.localStorage.getItem({json.dumps(STORAGE_KEY)})") is None
    page.get_by_role("button", name=UI["keep"]).click()
    expect(page.locator(".kr-units__name")).to_have_text(["Ashigaru archers", "Samurai"], timeout=ENGINE_TIMEOUT)
    assert read_units(units_file(*_saved(page))) == read_units(units_file(ARCHERS, SAMURAI))


def test_too_many_units_and_too_long_a_file_are_refused_naming_the_bound_in_french(phone, server, tmp_path):
    _ = get_translations("fr")
    page = phone([ARCHERS, SAMURAI])
    errors = _errors(page)
    page.goto(f"{server}/fr/units/")
    status = page.locator(".kr-units__status")
    many = tmp_path / "many.json"
    many.write_text(json.dumps(units_file(*({**SAMURAI, "name": f"Samurai {n}"} for n in range(MAX_UNITS)))))
    page.locator(".kr-units__import input").set_input_files(str(many))
    bound = _.ngettext(TOO_MANY_UNITS.singular, TOO_MANY_UNITS.plural, MAX_UNITS).format(most=MAX_UNITS, count=202)
    expect(status).to_contain_text(bound, timeout=ENGINE_TIMEOUT)
    huge = tmp_path / "huge.json"
    huge.write_text(" " * (MAX_FILE_CHARACTERS + 1))
    page.locator(".kr-units__import input").set_input_files(str(huge))
    most = _.ngettext(FILE_TOO_LONG.singular, FILE_TOO_LONG.plural, MAX_FILE_CHARACTERS).format(
        most=MAX_FILE_CHARACTERS
    )
    labelled = _.gettext(UI["labelled"])  # a label and its text, joined as French joins them
    expect(status).to_contain_text(
        labelled % {"label": "huge.json", "text": labelled % {"label": "units", "text": most}}
    )
    assert [unit["name"] for unit in _saved(page)] == ["Ashigaru archers", "Samurai"]
    assert errors == []


DEEP_LINK_LISTS = 20_000
"""The sweep's units link: a units file whose ``units`` is 20,000 nested lists (a 53 KB link), which
killed the engine ("Maximum call stack size exceeded") before its depth was measured."""
ASK = "(request) => window.krAsk(request)"


def test_a_units_link_nested_too_deep_is_refused_and_the_engine_still_answers(phone, server):
    _ = get_translations("fr").gettext
    page = phone([SAMURAI])
    errors = _errors(page)
    deep = (
        '{"format": "kensei-ref/units", "version": 1, "units": ' + "[" * DEEP_LINK_LISTS + "]" * DEEP_LINK_LISTS + "}"
    )
    encoded = base64.urlsafe_b64encode(deep.encode()).decode().rstrip("=")
    page.goto(f"{server}/fr/units/#units={encoded}")
    page.get_by_role("button", name=_(UI["keep"])).click()
    refused = _(NESTING_MESSAGE).format(most=MAX_NESTING, depth=DEEP_LINK_LISTS + 1)
    expect(page.locator(".kr-units__status")).to_contain_text(refused)
    # the engine measures it too, for whatever reaches it without the page's check, and lives on
    answer = page.evaluate(ASK, {"units": deep})
    assert (answer["error"]["message"], answer["error"]["values"]["depth"]) == (NESTING_MESSAGE, DEEP_LINK_LISTS + 1)
    assert page.evaluate(ASK, {"units": json.dumps(units_file(ARCHERS))})["units"][0]["name"] == ARCHERS["name"]
    assert [unit["name"] for unit in _saved(page)] == ["Samurai"]
    assert errors == []


FILL_STORAGE = """(prefix) => {
  for (let size = 1 << 24, n = 0; size >= 1; ) {
    try { window.localStorage.setItem(`${prefix}${n}`, "x".repeat(size)); n += 1; } catch { size >>= 1; }
  }
}"""
"""Fills the site's storage to its last character with keys of their own (``prefix`` and a number)."""
FREE_STORAGE = """(prefix) => Object.keys(window.localStorage).filter((key) => key.startsWith(prefix))
  .forEach((key) => window.localStorage.removeItem(key))"""


def test_a_full_storage_is_said_and_the_import_can_be_tried_again(phone, server, tmp_path):
    _ = get_translations("fr").gettext
    page = phone([SAMURAI])
    errors = _errors(page)
    page.goto(f"{server}/fr/units/")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(units_file(ARCHERS, {**SAMURAI, "name": "Ninja"})))
    page.evaluate(FILL_STORAGE, "filler-")
    page.locator(".kr-units__import input").set_input_files(str(good))
    status = page.locator(".kr-units__status")
    expect(status).to_have_text(_(UI["full"]), timeout=ENGINE_TIMEOUT)
    assert [unit["name"] for unit in _saved(page)] == ["Samurai"]
    page.evaluate(FREE_STORAGE, "filler-")
    page.locator(".kr-units__import input").set_input_files(str(good))
    expect(status).to_contain_text("2 unités importées du fichier")
    assert errors == []


def test_a_shared_link_refused_by_a_full_storage_can_be_saved_once_there_is_room(phone, server):
    page = phone(None)
    errors = _errors(page)
    encoded = base64.urlsafe_b64encode(json.dumps(units_file(ARCHERS, SAMURAI)).encode()).decode().rstrip("=")
    page.goto(f"{server}/units/#units={encoded}")
    page.evaluate(FILL_STORAGE, "filler-")
    keep = page.get_by_role("button", name=UI["keep"])
    keep.click()
    expect(page.locator(".kr-units__status")).to_have_text(UI["full"], timeout=ENGINE_TIMEOUT)
    page.evaluate(FREE_STORAGE, "filler-")
    keep.click()
    expect(page.locator(".kr-units__name")).to_have_text(["Ashigaru archers", "Samurai"], timeout=ENGINE_TIMEOUT)
    expect(keep).to_have_count(0)
    assert errors == []


# ---- The orders advisor --------------------------------------------------------------------------


def _sequence_text(row, lang: str) -> str:
    gettext = get_translations(lang).gettext
    return " → ".join(gettext(ACTION_LABELS[action]) for action in row.actions) if row.actions else gettext("Nothing")


def _python_rows(situation: dict) -> list:
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    return list(advise(archers, samurai, situation).rows)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_advisor_ranks_the_orders_of_two_saved_units_as_python_does(phone, server, lang):
    page = phone([ARCHERS, SAMURAI])
    errors = _errors(page)
    page.goto(f"{server}/{PREFIX[lang]}advisor/")
    page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)  # no tap: the first two units
    rows = _python_rows(dict(ADVISOR_DEFAULTS))
    shown = page.locator(".kr-advisor__table tbody tr")
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    advice = advise(archers, samurai, dict(ADVISOR_DEFAULTS))
    # one row for each group of sequences with the same odds, the others named in it
    assert shown.evaluate_all("(rows) => rows.map((row) => [row.dataset.actions, row.dataset.same])") == [
        [",".join(rows[group[0]].actions), " ".join(",".join(rows[i].actions) for i in group[1:])]
        for group in advice.groups
    ]
    gettext = get_translations(lang).gettext
    best = page.locator(".kr-advisor__best").inner_text()
    assert best.startswith(gettext("Best: %(orders)s") % {"orders": _sequence_text(rows[0], lang)}), best
    expect(page.locator(".kr-advisor__costly-list li")).to_have_count(len(advice.too_costly))
    assert page.evaluate("window.__krAdvice.advice.rows.map((row) => row.points_left)") == [
        advice.points_left(row) for row in rows
    ]
    # the orders without odds the points left may pay for, each named in the page's language with its rule
    others = page.locator(".kr-advisor__others-list li")
    expect(others).to_have_count(len(advice.other_orders))
    for item, (name, rule, _price) in zip(others.all(), advice.other_orders, strict=True):
        link = item.locator("a")
        assert link.inner_text() == gettext(OTHER_ORDER_LABELS[name])
        assert link.get_attribute("href").endswith(f"#{rule}"), link.get_attribute("href")
    numbers = numbers_for(lang)
    assert numbers.decimal(rows[0].expected_dealt) in shown.first.inner_text()
    assert numbers.percent(rows[0].at_least(1)) in shown.first.inner_text()
    # two taps swap the units: the table is ranked again for the samurai against the archers
    _pick_units(
        page,
        ".kr-units__pick",
        (1, 0),
        "() => document.querySelector('.kr-advisor').dataset.state === 'fresh'"
        " && window.__krAdvice.advice.rows.every((row) => !row.actions.includes('fire'))",
    )
    samurai, archers = read_units(units_file(SAMURAI, ARCHERS))
    expected = advise(samurai, archers, dict(ADVISOR_DEFAULTS)).rows
    assert page.evaluate("window.__krAdvice.advice.rows.map((row) => row.actions.join(','))") == [
        ",".join(row.actions) for row in expected
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors


def test_the_advisor_follows_the_situation_and_links_each_row_to_its_calculators(phone, server):
    page = phone([ARCHERS, SAMURAI])
    page.goto(f"{server}/advisor/")
    page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)
    page.locator(".kr-advisor details.kr-calc__more > summary").click()
    page.locator("#a-charge_reading").select_option("after-move")
    page.locator("#a-enemy_reaction").select_option("fight")  # a reply that meets the charge in melee
    page.locator("#a-distance").fill("14")
    page.wait_for_function(
        "() => document.querySelector('.kr-advisor').dataset.state === 'fresh'"
        " && window.__krAdvice.situation.distance === 14"
        " && window.__krAdvice.situation.charge_reading === 'after-move'"
        " && window.__krAdvice.situation.enemy_reaction === 'fight'",
        timeout=ENGINE_TIMEOUT,
    )
    rows = _python_rows({"distance": 14, "charge_reading": "after-move", "enemy_reaction": "fight"})
    assert page.evaluate("window.__krAdvice.advice.rows.map((row) => row.actions.join(','))") == [
        ",".join(row.actions) for row in rows
    ]
    charge = page.locator('.kr-advisor__table tr[data-actions="march,charge"]')
    links = charge.locator(".kr-advisor__links a")
    hrefs = links.evaluate_all("(links) => links.map((link) => link.getAttribute('href'))")
    assert any("calculators/charge/?" in href and "distance=5" in href for href in hrefs), hrefs
    melee = next(href for href in hrefs if "calculators/melee/" in href)
    expect(links.filter(has_text="(")).to_have_count(0)  # no shot before it: the one melee is the row's own
    page.goto(f"{server}/advisor/{melee}" if not melee.startswith("http") else melee)
    page.wait_for_function(
        "() => document.querySelector('.kr-result[data-scenario=\"1\"]')?.dataset.state === 'fresh'"
        " && document.querySelector('.kr-calc').dataset.engineState === 'ready'",
        timeout=ENGINE_TIMEOUT,
    )
    shown = page.evaluate("JSON.parse(document.querySelector('.kr-result[data-scenario=\"1\"]').dataset.result)")
    fight = next(link for link in next(r for r in rows if r.actions == ("march", "charge")).links
                 if link.calculator == "melee")  # fmt: skip
    assert shown["victory"] == pytest.approx(CALCULATORS["melee"].run(fight.inputs)["victory"], abs=1e-12)


def test_each_charge_names_the_enemys_best_reply_and_shows_every_reply(phone, server):
    """Samurai charging archers, in French: the row names the reply worst for the player (Python's),
    and lists each reply's figures in the order of the rules."""
    page = phone([SAMURAI, ARCHERS])
    page.goto(f"{server}/fr/advisor/?mine=Samurai&enemy=Ashigaru+archers&distance=8&objective=victory")
    page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)
    samurai, archers = read_units(units_file(SAMURAI, ARCHERS))
    expected = next(row for row in advise(samurai, archers, {"distance": 8, "objective": "victory"}).rows
                    if row.actions == ("charge",))  # fmt: skip
    gettext = get_translations("fr").gettext
    charge = page.locator('.kr-advisor__table tr[data-actions="charge"]')
    reply = gettext(REPLY_LABELS[expected.reply])
    expect(charge.locator(".kr-advisor__reply")).to_have_text(gettext("Enemy's reply: %(reply)s") % {"reply": reply})
    charge.locator(".kr-advisor__replies > summary").click()
    items = charge.locator(".kr-advisor__replies li")
    assert items.evaluate_all("(items) => items.map((item) => item.dataset.reply)") == [
        each.reply for each in expected.replies
    ]
    numbers = numbers_for("fr")
    for item, each in zip(items.all(), expected.replies, strict=True):
        expect(item).to_contain_text(gettext(REPLY_LABELS[each.reply]))
        expect(item).to_contain_text(numbers.percent(each.victory))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_enemy_may_withstand_and_shoot_and_cannot_without_a_loaded_bow(phone, server):
    """Samurai charging archers who shoot back: the table is Python's, the enemy's shot linked as its
    own; the other way round the archers' enemy has no bow, and the field says so in Russian."""
    page = phone([SAMURAI, ARCHERS])
    page.goto(f"{server}/ru/advisor/")
    page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)
    page.locator(".kr-advisor details.kr-calc__more > summary").click()
    page.locator("#a-enemy_reaction").select_option("shoot")
    page.wait_for_function(
        "() => document.querySelector('.kr-advisor').dataset.state === 'fresh'"
        " && window.__krAdvice.situation.enemy_reaction === 'shoot'",
        timeout=ENGINE_TIMEOUT,
    )
    samurai, archers = read_units(units_file(SAMURAI, ARCHERS))
    expected = advise(samurai, archers, {**ADVISOR_DEFAULTS, "enemy_reaction": "shoot"}).rows
    shown = page.evaluate("window.__krAdvice.advice.rows.map((row) => [row.actions.join(','), row.expected_taken])")
    assert shown == [[",".join(row.actions), pytest.approx(float(row.expected_taken), abs=1e-12)] for row in expected]
    gettext = get_translations("ru").gettext
    charge = page.locator('.kr-advisor__table tr[data-actions="charge"] .kr-advisor__links')
    expect(charge).to_contain_text(gettext("the enemy's reaction shot"))
    # the melee after the reaction shot is one of those the figures average over your unit's losses
    expect(charge.locator('a[href*="calculators/melee/"]')).to_contain_text(gettext("the largest of the runs averaged"))
    # the archers' enemy, the samurai, has no bow to shoot with
    page.locator(".kr-units__pick").nth(0).locator(".kr-units__chip").nth(1).click()
    page.locator(".kr-units__pick").nth(1).locator(".kr-units__chip").nth(0).click()
    error = page.locator('[data-param="enemy_reaction"] .kr-field__error')
    expect(error).to_contain_text(gettext("needs a loaded ranged weapon in the enemy's profile to withstand and shoot"))
    assert page.locator("#a-enemy_reaction").get_attribute("aria-invalid") == "true"


LINE_START_COMMAS = """(lists) => lists.flatMap((list) => {
  const left = list.getBoundingClientRect().left;
  const walker = document.createTreeWalker(list, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let at = node.data.indexOf(","); at >= 0; at = node.data.indexOf(",", at + 1)) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      if (Math.abs(range.getBoundingClientRect().left - left) < 2) found.push(node.data);
    }
  }
  return found;
})"""
"""Every comma of a list of links that begins a line (none should: a comma ends its link's line)."""


def test_a_rows_links_keep_each_comma_at_the_end_of_its_link(phone, server):
    """Archers charging archers who shoot back, in French at phone width: the link to the enemy's reaction
    shot fills a line, and the comma after it ends that line instead of beginning the next; it is no part
    of the link's name."""
    enemy = {**ARCHERS, "name": "Archers B"}
    page = phone([ARCHERS, enemy])
    query = {"mine": ARCHERS["name"], "enemy": enemy["name"], "enemy_reaction": "shoot"}
    page.goto(f"{server}/fr/advisor/?{urlencode(query)}")
    page.wait_for_function(
        ADVICE_FRESH + " && window.__krAdvice.situation.enemy_reaction === 'shoot'", timeout=ENGINE_TIMEOUT
    )
    lists = page.locator(".kr-advisor__links > span")
    assert lists.count() >= 2
    assert lists.evaluate_all(LINE_START_COMMAS) == []
    drawn = lists.evaluate_all(
        "(lists) => lists.map((list) => [...list.querySelectorAll('a')]"
        ".map((a) => getComputedStyle(a, '::after').content))"
    )
    assert all(each == ['"," / ""'] * (len(each) - 1) + ["none"] for each in drawn if each), drawn
    gettext = get_translations("fr").gettext
    shot = page.locator(
        '.kr-advisor__table tr[data-actions="charge"] .kr-advisor__links a[href*="calculators/shooting/"]'
    )
    name = shot.evaluate("(a) => a.textContent")
    assert gettext("the enemy's reaction shot") in name and not name.endswith(",")
    expect(page.get_by_role("link", name=name, exact=True).first).to_be_visible()


REQUESTS = "() => window.__krEngine.next - 1"
"""The requests the page has sent to the engine so far (calculator.js numbers them from 1)."""


def test_the_advisor_computes_only_the_latest_inputs_and_marks_a_table_for_others(phone, server):
    """Units of 100 Wounds take the engine about a second each time: keys typed meanwhile ask for one
    computation more, of the inputs as they are then, not one per key; and an input the advisor refuses
    leaves the table marked as for the last valid inputs."""
    mine = {**ARCHERS, "name": "Mine", "wounds": [5] * 20}
    enemy = {**ARCHERS, "name": "Theirs", "wounds": [5] * 20}
    page = phone([mine, enemy])
    page.goto(f"{server}/advisor/?{urlencode({'mine': 'Mine', 'enemy': 'Theirs', 'distance': 9})}")
    page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)
    before = page.evaluate(REQUESTS)
    distance = page.locator("#a-distance")
    for _ in range(5):  # 9 -> 14 a centimetre at a time, each in reach of a charge: each a second's work
        distance.press("ArrowUp")
    page.wait_for_function(ADVICE_FRESH + " && window.__krAdvice.situation.distance === 14", timeout=ENGINE_TIMEOUT)
    assert page.evaluate(REQUESTS) - before <= 2, "the first key's computation, then the latest inputs'"
    expected = advise(*read_units(units_file(mine, enemy)), {**ADVISOR_DEFAULTS, "distance": 14}).rows
    assert page.evaluate("window.__krAdvice.advice.rows.map((row) => row.actions.join(','))") == [
        ",".join(row.actions) for row in expected
    ]
    distance.fill("-3")  # refused: the table stays, marked as for the last valid inputs
    page.wait_for_function("() => document.querySelector('.kr-advisor').dataset.state === 'stale'")
    gettext = get_translations("en").gettext
    expect(page.locator(".kr-advisor__status")).to_have_text(gettext(UI["stale"]))
    assert page.locator(".kr-advisor__table tbody tr").count() > 0
    distance.fill("14")
    page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)


def test_the_advisors_address_holds_its_units_and_situation(phone, server):
    """Shared or bookmarked, the advisor opens with the same units (by name) and situation."""
    page = phone([ARCHERS, SAMURAI])
    page.goto(f"{server}/advisor/")
    page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)
    page.locator("#a-distance").fill("14")
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('distance') === '14'", timeout=ENGINE_TIMEOUT
    )
    query = dict(parse_qsl(urlparse(page.url).query))
    assert (query["mine"], query["enemy"]) == (ARCHERS["name"], SAMURAI["name"])
    swapped = {**query, "mine": SAMURAI["name"], "enemy": ARCHERS["name"], "distance": "9"}
    page.goto(f"{server}/advisor/?{urlencode(swapped)}")
    page.wait_for_function(ADVICE_FRESH + " && window.__krAdvice.situation.distance === 9", timeout=ENGINE_TIMEOUT)
    assert page.locator("#a-distance").input_value() == "9"
    samurai, archers = read_units(units_file(SAMURAI, ARCHERS))
    expected = advise(samurai, archers, {**dict(ADVISOR_DEFAULTS), "distance": 9}).rows
    assert page.evaluate("window.__krAdvice.advice.rows.map((row) => row.actions.join(','))") == [
        ",".join(row.actions) for row in expected
    ]


def test_without_saved_units_the_advisor_points_to_my_units(phone, server):
    page = phone(None)
    page.goto(f"{server}/advisor/")
    link = page.locator(".kr-advisor__pickers a")
    expect(link).to_have_text(UI["units_page"])
    assert link.get_attribute("href").endswith("units/")


# ---- A calculator filled from picked units ------------------------------------------------------


def test_a_calculator_takes_its_inputs_from_the_picked_units(phone, server):
    page = phone([ARCHERS, SAMURAI])
    page.goto(f"{server}/calculators/shooting/")
    _pick_units(
        page,
        ".kr-calc__units .kr-units__pick",
        (0, 1),
        "() => document.querySelector('#s1-defense').value === '6'"
        " && document.querySelector('.kr-result[data-scenario=\"1\"]').dataset.state === 'fresh'",
    )
    assert page.locator("#s1-wounds").input_value() == "1,1,1,1,1,1"
    assert page.locator("#s1-models").input_value() == ""
    assert page.locator("#s1-wounds").is_visible()  # unfolded: a filled field is never hidden
    shown = page.evaluate("JSON.parse(document.querySelector('.kr-result[data-scenario=\"1\"]').dataset.result)")
    expected = CALCULATORS["shooting"].run({"wounds": [1] * 6, "attack": 6, "defense": 6, "armor": 4})
    assert shown["pmf"] == pytest.approx(expected["pmf"], abs=1e-12)
    page.locator("#s1-attack").fill("4")  # the inputs stay editable
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('.kr-result[data-scenario=\"1\"]').dataset.result || '{}')"
        ".effective_attack === 4",
        timeout=ENGINE_TIMEOUT,
    )


# ---- Offline ---------------------------------------------------------------------------------------


@pytest.fixture
def served_copy(built_site, tmp_path):
    site, _ = built_site
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    server = SiteServer(copy).start()
    yield server
    server.stop()


def test_the_advisor_works_offline_after_one_visit(browser, served_copy):
    context = _seeded(browser, [ARCHERS, SAMURAI])
    page = context.new_page()
    try:
        page.goto(served_copy.url + "/advisor/")
        page.wait_for_function(
            "() => document.querySelector('.kr-offline-indicator')?.dataset.state === 'ready'", timeout=ENGINE_TIMEOUT
        )
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
        page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)
        served_copy.stop()
        context.set_offline(True)
        page.reload()
        page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)
        rows = _python_rows(dict(ADVISOR_DEFAULTS))
        assert page.evaluate("window.__krAdvice.advice.rows.length") == len(rows)
    finally:
        context.close()


def test_from_the_home_page_to_the_ranked_orders_in_three_taps_and_no_typing(phone, server):
    """Two units saved: the drawer, the Calculators section, the Orders advisor; the table follows."""
    _ = get_translations("fr").gettext
    page = phone([ARCHERS, SAMURAI])
    page.goto(f"{server}/fr/")
    page.locator('label.md-header__button[for="__drawer"]').click()  # tap 1
    drawer = page.locator("nav.md-nav--primary")
    drawer.locator("label.md-nav__link", has_text=_("Calculators")).first.click()  # tap 2
    drawer.get_by_role("link", name=_("Orders advisor"), exact=True).click()  # tap 3
    page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)
    rows = _python_rows(dict(ADVISOR_DEFAULTS))
    assert page.evaluate("window.__krAdvice.advice.rows.length") == len(rows)
    assert page.locator(".kr-advisor__table tbody tr").first.is_visible()


def test_a_ronin_calculator_offers_the_warbands_only_and_takes_their_morale(phone, server):
    band = {"name": "Kaito's band", "game": "ronin", "unit_type": "warband", "fighters": 8, "morale": 8,
            "commander": True, "banner": True, "heavy_armour": True, "rank": 2}  # fmt: skip
    page = phone([ARCHERS, band])
    page.goto(f"{server}/ru/calculators/morale/")
    picks = page.locator(".kr-calc__units .kr-units__pick")
    expect(picks).to_have_count(1)  # the Morale test takes nothing from an enemy
    expect(picks.locator(".kr-units__chip")).to_have_text(["Kaito's band"])
    picks.locator(".kr-units__chip").first.click()
    page.wait_for_function(
        "() => document.querySelector('#s1-morale').value === '8'"
        " && document.querySelector('.kr-result[data-scenario=\"1\"]').dataset.state === 'fresh'",
        timeout=ENGINE_TIMEOUT,
    )
    assert page.locator("#s1-banner").is_checked() and page.locator("#s1-commander").is_checked()
    shown = page.evaluate("JSON.parse(document.querySelector('.kr-result[data-scenario=\"1\"]').dataset.result)")
    expected = CALCULATORS["morale"].run({"morale": 8, "commander": True, "banner": True})
    assert shown["p_pass"] == pytest.approx(expected["p_pass"], abs=1e-12)
    for name, field, value, inputs in (
        ("rank-test", "#s1-rank", "2", {"rank": 2}),  # the warband's one Rank
        ("drowning", "#s1-heavy_armour", None, {"heavy_armour": True}),
    ):
        page.goto(f"{server}/ru/calculators/{name}/")
        page.locator(".kr-calc__units .kr-units__pick .kr-units__chip").first.click()
        filled = (
            f"document.querySelector('{field}').value === '{value}'"
            if value
            else (f"document.querySelector('{field}').checked")
        )
        page.wait_for_function(
            f"() => {filled} && document.querySelector('.kr-result').dataset.state === 'fresh'",
            timeout=ENGINE_TIMEOUT,
        )
        shown = page.evaluate("JSON.parse(document.querySelector('.kr-result[data-scenario=\"1\"]').dataset.result)")
        expected = CALCULATORS[name].run(inputs)
        figure = "p_success" if name == "rank-test" else "p_drown"
        assert shown[figure] == pytest.approx(expected[figure], abs=1e-12), name
    page.goto(f"{server}/ru/calculators/planner/")  # the regroup planner takes nothing from a unit
    expect(page.locator(".kr-calc__scenarios")).to_have_count(1)
    page.wait_for_timeout(500)  # units.js has run (it runs with the page's other scripts)
    expect(page.locator(".kr-calc__units")).to_have_count(0)


@pytest.mark.parametrize("width", [390, 1280])
def test_my_units_and_the_advisor_have_no_serious_axe_violation(phone, server, width):
    from axe_playwright_python.sync_playwright import Axe

    page = phone([ARCHERS, SAMURAI])
    page.set_viewport_size({"width": width, "height": 844})
    found = {}
    for path in ("units/", "ru/advisor/", "fr/calculators/shooting/"):
        page.goto(f"{server}/{path}")
        if "advisor" in path:
            page.wait_for_function(ADVICE_FRESH, timeout=ENGINE_TIMEOUT)
        else:
            page.locator(".kr-units__chip, .kr-units__item").first.wait_for()
        if "calculators" in path:
            # Until the engine answers, the figures are greyed on purpose (not yet for these inputs):
            # axe reads the page as the reader uses it, once they are for the inputs shown.
            page.wait_for_function(CALCULATOR_FRESH, timeout=ENGINE_TIMEOUT)
        serious = [v for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
        if serious:
            found[path] = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in serious]
    assert not found, found


def test_a_second_unit_of_the_same_name_is_refused_at_its_name(phone, server):
    page, _ = _saved_in_russian(phone, server, UI["duplicate"], "#u-name", "samurai")
    expected = _("is the name of another unit: {name}").format(name="samurai")
    expect(page.locator("#u-name-error")).to_contain_text(expected, timeout=ENGINE_TIMEOUT)
    assert _saved(page) == [SAMURAI]


@pytest.mark.parametrize("lang", ["", "ru/"])
def test_a_value_within_its_bounds_that_a_rule_refuses_says_the_rule(phone, server, lang):
    """Distance 0 is within the field's bounds (0 to 200) but is contact, which the advisor refuses; Wounds
    left of 9 each are within theirs but beyond the archers' profile: each field says the rule, not its
    bounds ("Enter a whole number from 0 to 200" for a 0 contradicted itself)."""
    gettext = get_translations(lang.strip("/") or "en")
    page = phone([ARCHERS, SAMURAI])
    pair = {"mine": ARCHERS["name"], "enemy": SAMURAI["name"]}
    cases = (
        ("distance", {"distance": 0}, gettext.gettext(
            "0 cm is contact between the units, which is engaged in combat ({0}): give the distance between them"
        ).split("{0}")[0]),
        ("wounds_left", {"distance": 9, "wounds_left": "9,9"}, gettext.ngettext(
            "must be at most the profile's models ({models}), each with at most {most} Wound",
            "must be at most the profile's models ({models}), each with at most {most} Wounds", 1,
        ).format(models=len(ARCHERS["wounds"]), most=max(ARCHERS["wounds"]))),
    )  # fmt: skip
    for field, situation, says in cases:
        page.goto(f"{server}/{lang}advisor/?{urlencode({**pair, **situation})}")
        error = page.locator(f'[data-param="{field}"] .kr-field__error')
        expect(error).to_contain_text(says, timeout=ENGINE_TIMEOUT)
        assert page.locator(f"#a-{field}").get_attribute("aria-invalid") == "true"
        assert page.evaluate("document.querySelector('.kr-advisor').dataset.state") == "stale"
