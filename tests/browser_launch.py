"""How the tests and the browser benchmark start Debian's Chromium: its path and the flags that keep it
off the network (this machine has none but the package registries), quiet, and free of the browser's
own pages."""

from __future__ import annotations

import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
"""The features Playwright turns off in its own ``--disable-features`` flag. Chromium reads only the last
such flag, so the one below repeats them; test_browser_launch.py fails if Playwright's list grows."""

ADDRESS_BAR_PAGES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
"""The address bar's drop-down, which headless Chromium 156 draws with two pages of its own
(chrome://omnibox-popup.top-chrome/) in a renderer that works at every page the tests open: about
1 processor-second a page, as much as the site's page itself (traced in Chromium: 0.88 s on that
renderer's main thread and 0.33 s on its workers for one rule page), on a machine the suite keeps busy."""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + ADDRESS_BAR_PAGES),
]
