// The site's roots, read once from the first page of the tab. Every other script asks them here.
//
// Material's instant navigation swaps a page's content in place but keeps the first page's
// `__config` (its `base` is relative to that first page) and the head's `kr-offline` settings, while
// the address changes. A relative address from either, resolved against the address shown later,
// points into the wrong folder (from the home page, `/advisor/` made the engine `/advisor/assets/…`).
// So the roots are resolved here, while the address is still the first page's, and never again.
(() => {
  "use strict";
  const config = document.getElementById("__config");
  const settingsNode = document.getElementById("kr-offline");
  if (!config) return;
  // `base` is relative on a page ("." or ".."), absolute on a 404 page ("/" in English, "/fr/"): one
  // slash after it either way ("/" + "/" would be "//", an address with no host)
  const language = new URL(JSON.parse(config.textContent).base.replace(/\/*$/, "/"), window.location.href);
  const settings = settingsNode ? JSON.parse(settingsNode.textContent) : null;
  window.krRoots = Object.freeze({
    /** This language's root: `/` in English, `/fr/` in French. */
    language,
    /** The site's root (the service worker's scope); null without the offline settings. */
    site: settings ? new URL(settings.root, language) : null,
    /** The calculators' engine folder; null without the offline settings. */
    engine: settings ? new URL(settings.engine, language) : null,
    /** The offline settings as the first page gave them (the same on every page of a language). */
    settings,
  });
})();
