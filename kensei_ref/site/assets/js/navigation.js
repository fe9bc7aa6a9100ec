// Pages of this language open in place: Material's instant navigation fetches the next page and
// swaps its content in, so the calculators' engine, started once in the tab, answers on every page.
//
// Material follows a link in place only when the link's address is in the site's sitemap, whose
// addresses need a public site address (site_url) and match one host and port. This site is served
// from anywhere (a test server, a local copy, the published address), so this script hands Material
// the links it leaves alone: same origin, under this language's root, not under another language's
// folder (English holds fr/ and ru/), and a page (an address ending in "/" or ".html", outside the
// folders of files). A link to the same page (an anchor) is left to the browser.
(() => {
  "use strict";
  if (window.location.protocol === "file:" || !window.krRoots) return;
  if (!window.location$ || typeof window.location$.next !== "function") return;
  const languageRoot = window.krRoots.language;
  // other languages' roots inside this one's (English at / holds /fr/ and /ru/), read once: the
  // switcher's links are relative to the first page. A root above this one's (/ seen from /fr/) holds
  // every page of this language too, so it must not count.
  const otherRoots = [...document.querySelectorAll("a.kr-language[data-root]")]
    .map((link) => new URL(link.dataset.root, window.location.href).href)
    .filter((root) => root !== languageRoot.href && root.startsWith(languageRoot.href));
  const FILE_FOLDERS = ["assets/", "data/", "downloads/", "search/"];

  function isPage(url) {
    if (url.origin !== window.location.origin || !url.href.startsWith(languageRoot.href)) return false;
    if (otherRoots.some((root) => url.href.startsWith(root))) return false;
    const path = url.pathname.slice(languageRoot.pathname.length);
    if (FILE_FOLDERS.some((folder) => path.startsWith(folder))) return false;
    return path === "" || path.endsWith("/") || path.endsWith(".html");
  }

  // On the window, after every handler on the document: a term's first tap (terms.js) or the
  // language switcher (language.js) may have taken the click already.
  window.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0) return; // taken already, or not a plain click
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href);
    if (!isPage(url) || url.pathname === window.location.pathname) return;
    event.preventDefault();
    // as Material does: the position left is kept for the back button, then the new entry
    history.replaceState({ x: window.scrollX, y: window.scrollY }, "");
    history.pushState(null, "", url);
    window.location$.next(url);
  });
})();
