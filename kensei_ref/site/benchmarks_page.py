"""The benchmarks page: the figures ``make bench`` measured (``docs/benchmarks.json`` and
``docs/benchmarks-browser.json``), in the reader's language.

The benchmark scripts store facts, not sentences: the machine as its architecture and number of
cores, the dates as ISO dates; this module writes them as each language does (Babel's long date,
"2 cœurs", "2 ядра"), and every unit through the catalogs. Files written before the machine was
stored as facts ("x86_64, 2 cores") are still read (:func:`machine_facts`).
"""

from __future__ import annotations

import re
from datetime import date, datetime

from babel import Locale
from babel.dates import format_date, format_time, get_datetime_format

from kensei_ref.language_context import LanguageContext, language_context
from kensei_ref.languages import BY_CODE, LANGUAGE_NAMES, N_
from kensei_ref.site.pages import environment


def benchmarks_page(figures: dict, lang: str, browser: dict | None = None) -> str:
    """The measured speed of the calculators (``docs/benchmarks.json`` and ``benchmarks-browser.json``,
    written by ``make bench``)."""
    language = language_context(lang)
    numbers = language.numbers

    def number(value: float | None, digits: int) -> str:
        return "" if value is None else numbers.decimal(value, digits)

    rows = [
        {
            "label": calculation_label(row["calculator"], row["size"], language),
            "ours": number(1000 * row["ours_s"], 2),
            "icepool": number(1000 * row["icepool_s"], 2) if "icepool_s" in row else "",
            "icepool_ratio": number(row.get("icepool_ratio"), 1),
            "monte_carlo": number(1000 * row["monte_carlo_s"], 0) if "monte_carlo_s" in row else "",
            "monte_carlo_ratio": number(row.get("monte_carlo_ratio"), 0),
            "monte_carlo_error": number(row.get("monte_carlo_max_abs_error"), 4),
        }
        for row in figures["rows"]
    ]
    return (
        environment(lang)
        .get_template("benchmarks.md.j2")
        .render(
            rows=rows,
            measured=measured_text(figures["measured"], language),
            python=figures["python"],
            machine=machine_text(figures["machine"], language),
            repeats=figures["repeats"],
            trials=numbers.decimal(figures["trials"], 0),
            trials_count=figures["trials"],
            browser=_browser_view(browser, language) if browser else None,
            terminal=_terminal_view(figures["terminal"], language) if "terminal" in figures else None,
            serve=_serve_view(figures["serve"], language) if "serve" in figures else None,
        )
    )


MILLISECONDS = N_("ms")
SECONDS = N_("s")
KIBIBYTES = N_("KiB")
"""The benchmarks' units, as their symbols are written in each language."""

LEGACY_MACHINE = re.compile(r"(?P<arch>[^,]+), (?P<cores>\d+) cores?")
"""How the benchmark scripts wrote the machine before they stored it as facts: "x86_64, 2 cores"."""


def machine_facts(machine: str | dict) -> dict:
    """The machine a benchmark ran on as ``{"arch": "x86_64", "cores": 2}``, however its file stores it.

    >>> machine_facts("x86_64, 2 cores")
    {'arch': 'x86_64', 'cores': 2}
    """
    if isinstance(machine, dict):
        return {"arch": str(machine["arch"]), "cores": int(machine["cores"])}
    written = LEGACY_MACHINE.fullmatch(machine)
    if written is None:
        raise ValueError(f"machine: {machine!r} is neither {{'arch', 'cores'}} nor 'arch, N cores'")
    return {"arch": written["arch"], "cores": int(written["cores"])}


def machine_text(machine: str | dict, language: LanguageContext) -> str:
    """The machine in the reader's language, its count of cores in the form the count asks for."""
    facts = machine_facts(machine)
    cores = facts["cores"]
    text = language.translations.ngettext("%(arch)s, %(cores)s core", "%(arch)s, %(cores)s cores", cores)
    return text % {"arch": facts["arch"], "cores": language.numbers.decimal(cores, 0)}


def measured_text(measured: str, language: LanguageContext) -> str:
    """When a benchmark ran, as the language writes a date ("4 décembre 2026"), and the time of day
    after it when the file gives one ("2026-12-04 19:20": "4 декабря 2026 г., 19:20")."""
    locale = Locale.parse(BY_CODE[language.lang].locale)
    if len(measured) == len("YYYY-MM-DD"):  # a date alone
        return format_date(date.fromisoformat(measured), "long", locale=locale)
    moment = datetime.fromisoformat(measured)
    # Babel's format_datetime, with a long date and a short time (no seconds, no time zone)
    pattern = str(get_datetime_format("long", locale=locale)).replace("'", "")
    day, time = format_date(moment.date(), "long", locale=locale), format_time(moment.time(), "short", locale=locale)
    return pattern.replace("{0}", time).replace("{1}", day)


def symbol(language: LanguageContext, unit: str) -> str:
    return language.translations.gettext(unit)


def _serve_view(figures: dict, language: LanguageContext) -> dict:
    """``make serve``'s edit loop (``serve`` in ``docs/benchmarks.json``, from tests/benchmarks/bench_serve.py)."""
    numbers = language.numbers
    return {
        "measured": measured_text(figures["measured"], language),
        "repeats": len(figures["reload_runs_s"]),
        "reload": numbers.quantity(figures["reload_s"], symbol(language, SECONDS), 1),
        "first_build": numbers.quantity(figures["first_build_s"], symbol(language, SECONDS), 1),
    }


def _terminal_view(figures: dict, language: LanguageContext) -> dict:
    """The terminal's figures (``terminal`` in ``docs/benchmarks.json``, from tests/benchmarks/bench_terminal.py)."""
    numbers = language.numbers

    def ms(seconds: float) -> str:
        return numbers.quantity(1000 * seconds, symbol(language, MILLISECONDS), 0)

    rows = [
        {"command": " ".join(row["argv"]), "median": ms(row["median_s"]), "cold": ms(row["cold_cache_s"])}
        for row in figures["rows"]
    ]
    return {
        "measured": measured_text(figures["measured"], language),
        "repeats": figures["repeats"],
        "bare": ms(figures["bare_python_s"]),
        "realtime": figures.get("realtime", False),
        "rows": rows,
    }


def calculation_label(calculator: str, size: int, language: LanguageContext) -> str:
    """A benchmark's calculation, its size in words that agree with it ("Shooting, 21 dice")."""
    ngettext = language.translations.ngettext
    forms = {
        "shooting": lambda: ngettext("Shooting, %(size)s die", "Shooting, %(size)s dice", size),
        "melee": lambda: ngettext(
            "Melee, %(size)s against %(size)s Wound, Initiative rolled",
            "Melee, %(size)s against %(size)s Wounds, Initiative rolled",
            size,
        ),
        "planner": lambda: ngettext(
            "Regroup planner, %(size)s unit and %(size)s point",
            "Regroup planner, %(size)s units and %(size)s points",
            size,
        ),
        "advisor": lambda: ngettext(
            "Orders advisor, %(size)s against %(size)s model, every order",
            "Orders advisor, %(size)s against %(size)s models, every order",
            size,
        ),
    }
    return forms[calculator]() % {"size": language.numbers.decimal(size, 0)}


PLAN_ROWS = {
    "expected_wounds": N_(
        "Command phase plan, 10 units (4 fleeing) against 10 enemies, by Wounds expected, engine saved on the "
        "device: in Python / until the plan is shown / from navigation"
    ),
    "victory": N_(
        "Command phase plan, 10 units (4 fleeing) against 10 enemies, by victories expected, engine saved on the "
        "device: in Python / until the plan is shown / from navigation"
    ),
}
"""The rows of the Command phase plan's figure (tests/benchmarks/bench_browser.py), by its objective."""


def _browser_view(figures: dict, language: LanguageContext) -> dict:
    """The calculator pages' figures in Chromium (``docs/benchmarks-browser.json``)."""
    _ = language.translations.gettext
    numbers = language.numbers

    def ms(value: float) -> str:
        return numbers.quantity(value, symbol(language, MILLISECONDS), 1)

    def kib(value: int) -> str:
        return numbers.quantity(value / 1024, symbol(language, KIBIBYTES), 0)

    loading, sizes = figures["loading"], figures["bytes"]
    rows = [
        (
            _("From navigation to the numbers of the default scenario (first paint)"),
            ms(loading["first_contentful_paint_ms"]),
        ),
        (_("Calculator ready, empty browser cache"), ms(loading["engine_ready_cold_ms"])),
        (_("Calculator ready, warm browser cache"), ms(loading["engine_ready_warm_ms"])),
    ]
    for row in figures["recompute"]:
        size = int(re.findall(r"\d+", row["case"])[0])
        rows.append(
            (
                _("Recompute after a change: %(case)s (in Python / until shown)")
                % {"case": calculation_label(row["calculator"], size, language)},
                f"{numbers.decimal(row['compute_ms'], 1)} / {ms(row['round_trip_ms'])}",
            )
        )
    rows += [
        (_("Transferred by a rule page"), kib(sizes["rule_page"]["bytes"])),
        (_("Transferred by a calculator page until ready"), kib(sizes["calculator_page"]["bytes"])),
        (_("Calculator files fetched by a rule page"), numbers.decimal(len(sizes["rule_page"]["engine_requests"]), 0)),
    ]
    rows += _offline_rows(figures.get("offline"), language)
    rows += _engine_rows(figures, language)
    if "advisor" in figures:
        advisor = figures["advisor"]
        rows.append(
            (
                _("Orders advisor, 10 against 10 models, engine ready: in Python / until the table is shown"),
                f"{numbers.decimal(advisor['compute_ms'], 0)} / {ms(advisor['shown_ms'])}",
            )
        )
    for row in figures.get("plan", []):
        label = PLAN_ROWS[row["objective"]]
        rows.append(
            (
                _(label),
                f"{numbers.decimal(row['compute_ms'], 0)} / {ms(row['shown_ms'])} / {ms(row['navigation_ms'])}",
            )
        )
    return {
        **{k: figures[k] for k in ("chromium", "repeats", "changes")},
        "machine": machine_text(figures["machine"], language),
        "measured": measured_text(figures["measured"], language),
        "rows": [{"label": label, "value": value} for label, value in rows],
        "scenarios": _scenario_rows(figures.get("scenarios", []), language),
        "lighthouse": _lighthouse_view(figures.get("lighthouse"), language),
    }


PAGE_KINDS = {
    "home": N_("Home page"),
    "rule": N_("Rule page"),
    "glossary": N_("Glossary"),
    "calculator": N_("Calculator"),
    "units": N_("My units"),
    "advisor": N_("Orders advisor"),
    "digest": N_("Rules digest"),
    "offline": N_("Offline use"),
}
"""The kinds of page Lighthouse measures (tests/benchmarks/bench_lighthouse.py), as the table names them."""


def _lighthouse_view(figures: dict | None, language: LanguageContext) -> dict | None:
    """Lighthouse's mobile figures for each kind of page in each language (``make bench``), or None."""
    if not figures:
        return None
    _ = language.translations.gettext
    numbers = language.numbers
    rows = [
        {
            "page": _(PAGE_KINDS.get(kind, kind)),
            "lang": page_lang,
            **{key: str(page[key]) for key in ("performance", "accessibility", "best-practices", "seo")},
            "tbt": numbers.quantity(page["tbt_ms"], symbol(language, MILLISECONDS), 0),
            "cls": numbers.decimal(page["cls"], 3),
        }
        for page_lang, kinds in figures["pages"].items()
        for kind, page in kinds.items()
    ]
    return {"version": figures["lighthouse"], "measured": measured_text(figures["date"], language), "rows": rows}


def _offline_rows(offline: dict | None, language: LanguageContext) -> list[tuple[str, str]]:
    """Saving for offline use: a first visit's language, and "download everything"."""
    if offline is None:
        return []
    _ = language.translations.gettext
    numbers = language.numbers

    def megabytes(value: int) -> str:
        return _("%(size)s MB") % {"size": numbers.decimal(value / 1e6, 1)}

    rows = []
    for key, label in (
        ("first_visit", _("First visit of a rule page, until saved for offline use")),
        ("everything", _("“Download everything” on the Offline page")),
    ):
        step = offline[key]
        values = {
            "time": numbers.quantity(step["ms"], symbol(language, MILLISECONDS), 1),
            "sent": megabytes(step["bytes_served"]),
            "stored": megabytes(step["storage_bytes"]),
        }
        rows.append((label, _("%(time)s; %(sent)s sent, %(stored)s stored") % values))
    return rows


TABLE_QUESTIONS = {
    "shooting": N_("Six archers (1 Wound each) shoot at a unit in light cover"),
    "melee": N_("My 8 models (1 Wound each) charge their 6"),
    "regroup": N_("A regroup with Honor 5"),
}
"""The table-side questions ``make bench`` times on a phone-sized screen (bench_browser.TABLE_SCENARIOS)."""


def _engine_rows(figures: dict, language: LanguageContext) -> list[tuple[str, str]]:
    """The engine's start split into stages, and the table-side figures (when the benchmark has them)."""
    if "engine_start" not in figures or "table_side" not in figures:
        return []
    _ = language.translations.gettext
    numbers = language.numbers

    def ms(value: float) -> str:
        return numbers.quantity(value, symbol(language, MILLISECONDS), 0)

    def stages(start: dict) -> str:
        """The stages' times, the unit once, after the last: "252 / 54 / 265 / 0 / 4 ms"."""
        *first, last = (
            start[key] for key in ("download_ms", "compile_ms", "interpreter_ms", "archive_ms", "import_ms")
        )
        return " / ".join([*(numbers.decimal(value, 0) for value in first), ms(last)])

    rows = [
        (label, stages(figures["engine_start"][cache]))
        for cache, label in (
            ("cold", _("Engine start, empty cache: download / compile / interpreter / calculators' archive / import")),
            (
                "cold_full",
                _(
                    "Engine start, empty cache, without the build's snapshot (a slow link): download / compile / "
                    "interpreter / calculators' archive / import"
                ),
            ),
            ("warm", _("Engine start, warm cache: download / compile / interpreter / calculators' archive / import")),
        )
        if cache in figures["engine_start"]
    ]
    side = figures["table_side"]
    rows += [
        (_("Engine saved on the device: from opening a shared link to its figures"), ms(side["cached_link_ms"])),
        (_("A second calculator opened from a first: from the tap to its figures"), ms(side["second_page_ms"])),
        (_("Nothing cached: from opening a shared link to its figures"), ms(side["cold"]["shown_ms"])),
        (_("The same with the page 4 times slower and a 9 Mbit/s link"), ms(side["cold_slow"]["shown_ms"])),
        *_slow_phone_rows(side, language),
        *(
            [
                (
                    _(
                        "Nothing cached, without the build's snapshot (a slow link): from opening a shared link "
                        "to its figures"
                    ),
                    ms(side["cold_full"]["shown_ms"]),
                )
            ]
            if "cold_full" in side
            else []
        ),
        (
            _("From a changed input to its figures on screen"),
            numbers.quantity(side["recompute_shown_ms"], symbol(language, MILLISECONDS), 1),
        ),
    ]
    return rows


def _slow_phone_rows(side: dict, language: LanguageContext) -> list[tuple[str, str]]:
    """A shared link on an emulated slow phone: when its inputs are in the form, when its figures are
    (figures measured before the benchmark had the phone have neither row)."""
    phone = side.get("cold_phone", {})
    if phone.get("inputs_ms") is None:
        return []
    _ = language.translations.gettext
    numbers = language.numbers
    unit = symbol(language, MILLISECONDS)
    return [
        (
            _("A slow phone (page 4 times slower, 9 Mbit/s, 150 ms): a shared link's inputs in the form"),
            numbers.quantity(phone["inputs_ms"], unit, 0),
        ),
        (_("The same: the shared link's figures"), numbers.quantity(phone["shown_ms"], unit, 0)),
    ]


def _scenario_rows(scenarios: list[dict], language: LanguageContext) -> list[dict[str, str]]:
    """One row per table-side question and language: keystrokes, taps, and the time to its figures."""
    tr = language.translations.gettext  # translates labels held in variables (N_ marked them)
    numbers = language.numbers
    return [
        {
            "question": tr(TABLE_QUESTIONS[row["calculator"]]),
            "lang": LANGUAGE_NAMES[row["lang"]],
            "keystrokes": numbers.decimal(row["keystrokes"], 0),
            "taps": numbers.decimal(row["taps"], 0),
            "cold": numbers.quantity(row["cold_ms"], symbol(language, MILLISECONDS), 0),
            "saved": numbers.quantity(row["saved_ms"], symbol(language, MILLISECONDS), 0),
        }
        for row in scenarios
        if row["calculator"] in TABLE_QUESTIONS
    ]
