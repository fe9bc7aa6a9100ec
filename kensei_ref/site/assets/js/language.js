// The language switcher's links lead to the same page in each language. Each link knows its
// language's root (data-root); the page's path under this language's root is the same in every
// language. Pages opened in place (navigation.js) keep the header, so the links are set again for
// each page. A click also keeps the rule being read (the anchor, such as #kensei.regroup).
(() => {
  "use strict";
  if (!window.krRoots) return;
  const languageRoot = window.krRoots.language;
  // read now, while the address is still the first page's, against which data-root is written
  const links = [...document.querySelectorAll("a.kr-language[data-root]")];
  const roots = new Map(links.map((link) => [link, new URL(link.dataset.root, window.location.href)]));

  function setLinks() {
    if (!window.location.href.startsWith(languageRoot.href)) return;
    const path = window.location.pathname.slice(languageRoot.pathname.length);
    for (const link of links) link.href = new URL(path, roots.get(link)).href;
  }

  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element && event.target.closest("a.kr-language");
    if (!link || !window.location.hash) return;
    event.preventDefault();
    window.location.href = link.href.split("#")[0] + window.location.hash;
  });
  // the first page's links are the build's; each page opened in place sets them again
  let first = true;
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => {
      if (!first) setLinks();
      first = false;
    });
  }
})();
