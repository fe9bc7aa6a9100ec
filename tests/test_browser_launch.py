"""The flags the tests start Chromium with (browser_launch.py) keep what Playwright turns off itself."""

from __future__ import annotations

from browser_launch import ADDRESS_BAR_PAGES, CHROMIUM, CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES


def _feature_lists(arguments: list[str]) -> list[list[str]]:
    return [arg.split("=", 1)[1].split(",") for arg in arguments if arg.startswith("--disable-features=")]


def test_the_last_disable_features_flag_keeps_playwrights_own(browser):
    """Chromium reads only the last ``--disable-features``: ours must name every feature Playwright's
    flag names before it, or Playwright's would be turned back on (HTTPS upgrades, paint holding...)."""
    # --enable-automation: Chromium then tells its command line (Browser.getBrowserCommandLine)
    checked = browser.browser_type.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--enable-automation"])
    try:
        arguments = checked.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
    finally:
        checked.close()
    *playwrights, ours = _feature_lists(arguments)
    assert ours == [*PLAYWRIGHT_DISABLED_FEATURES, *ADDRESS_BAR_PAGES], "ours is not the last flag"
    missing = sorted(set().union(*playwrights) - set(ours))
    assert not missing, f"Playwright turns these off too: add them to PLAYWRIGHT_DISABLED_FEATURES: {missing}"
