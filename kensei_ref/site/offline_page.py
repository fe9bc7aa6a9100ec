"""The Offline page and the words of the offline indicator that every page carries.

The page explains what is kept on the device and offers the controls; ``offline.js`` fills in the
live status from the service worker. The indicator's words travel in each page as JSON (see
``overrides/main.html``), translated here from the catalogs like every other interface string.
"""

from __future__ import annotations

from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGE_NAMES, LANGUAGES, N_, up_to_site_root
from kensei_ref.site import ENGINE_FOLDER, RECENT_KEY
from kensei_ref.site.pages import environment
from kensei_ref.site.unit_pickers import STORAGE_KEY

OFFLINE_PAGE = "offline.md"
ARCHIVE_NAME = "kensei-ref-offline.zip"
THEME_COLOUR = "#b3261e"
BACKGROUND_COLOUR = "#ffffff"
"""The installed app's colours: the bar of the new-version notice and the app manifest share them."""

UI = {
    "indicator": N_("Offline use"),
    "labelled": N_("%(label)s: %(text)s"),
    "saving": N_("Saving for offline use: %(percent)s"),
    "ready": N_("Available offline"),
    "offline": N_("No network: reading the saved copy"),
    "not_saved": N_("Not saved for offline use yet"),
    "failed": N_("Saving for offline use failed; it will be tried again on the next visit."),
    "unsupported": N_("This browser cannot keep the site for offline use: download the offline copy instead."),
    "file": N_(
        "This is the offline copy: reading and search work; the calculators show their default results, "
        "because they need the site to be served over HTTP."
    ),
    "update": N_("A new version of the site is ready."),
    "reload": N_("Reload"),
    "save_all": N_("Download everything for offline use (%(size)s)"),
    "all_saved": N_("Everything is saved on this device."),
    "group_language": N_("%(language)s (the pages and their search)"),
    "group_engine": N_("The calculators' engine (all languages)"),
    "group_detail": N_("%(size)s: %(state)s"),
    "saved": N_("saved"),
    "partly": N_("%(done)s of %(total)s saved"),
    "archive": N_("Download the offline copy (%(size)s, zip)"),
    "megabytes": N_("%(size)s MB"),
    "save_data": N_(
        "Data saver is on: only this language's pages were saved. The calculators' engine is saved "
        "with “Download everything”."
    ),
}


def words(lang: str) -> dict[str, str]:
    """The indicator's and the panel's words in ``lang``; each language's group of pages (``group_fr``) by the
    language's own name, as the language switcher names it, so that a new language needs no message."""
    _ = language_context(lang).gettext
    said = {key: _(text) for key, text in UI.items()}
    for code, name in LANGUAGE_NAMES.items():
        said[f"group_{code}"] = said["group_language"] % {"language": name}
    return said


def ui(lang: str, page_url: str) -> dict:
    """What ``offline.js`` needs on every page: translated words, the Offline page, the site's root, and
    the symbols its numbers are written with (:meth:`kensei_ref.numbers.Numbers.symbols`); and where the
    device keeps the player's units and last calculations, which the home page lists (``home.js``)."""
    return {
        "lang": lang,
        "theme_colour": THEME_COLOUR,
        "root": up_to_site_root(lang),
        "page": page_url,
        "engine": up_to_site_root(lang) + ENGINE_FOLDER,
        "groups": [*LANGUAGES, "engine"],
        "ui": words(lang),
        "numbers": language_context(lang).numbers.symbols(),
        "storage": {"units": STORAGE_KEY, "recent": RECENT_KEY},
    }


def offline_page(lang: str, *, with_archive: bool = True) -> str:
    """The Offline page; the offline copy itself has no archive to offer, so it says where it is read from."""
    to_site_root = "../" * (OFFLINE_PAGE.count("/") + 1) + up_to_site_root(lang)  # the page is served as a folder
    archive = f"{to_site_root}downloads/{ARCHIVE_NAME}" if with_archive else None
    said = words(lang)
    # the panel as offline.js fills it, with each group's name and room for its size and state: filled
    # in, it grows by little, and what follows it on the page hardly moves (a layout shift)
    groups = [(name, said[f"group_{name}"]) for name in [*LANGUAGES, "engine"]]
    page = environment(lang).get_template("offline.md.j2")
    return page.render(archive=archive, file_note=said["file"], groups=groups)
