// (Written into every page's head: kensei_ref.site.INLINE_SCRIPTS.)
// What Material's bundle would otherwise change at the root of the page once the page is drawn, done
// before it is drawn: each such change makes the browser compute the style of every element of the page
// again (60-280 ms of a phone's processor each on a rule page or the glossary, traced under Lighthouse's
// 4x slowdown), where here it costs nothing, no element having a style yet.
// - <html>'s classes: "js" in place of "no-js" (Material's bundle swaps them, and its style sheet has
//   rules under each) and "js-focus-visible" (its focus-visible polyfill adds it).
// - The style sheets' addresses, made absolute: Material's bundle makes every relative address of the
//   page absolute (so that pages opened in place resolve alike), and a style sheet's link given a new
//   address is loaded again, which is a new style sheet for the whole page. Here the browser finds it
//   in its memory, loaded a moment before.
// - The page's colour scheme, <meta name="color-scheme">, light or dark as the reader's colours are: the
//   choice saved by the header's toggle (Material's "__palette", which its inline script at the top of
//   the body applies), else the system's (mkdocs.yml: the light palette when the system asks for light,
//   the dark one, "slate", when it asks for dark). Material's palette component added it once the page
//   was drawn; palette.js keeps it as the reader switches.
(() => {
  "use strict";
  const root = document.documentElement;
  root.classList.remove("no-js");
  root.classList.add("js", "js-focus-visible");
  for (const link of document.head.querySelectorAll("link[rel~='stylesheet'][href]")) {
    if (!/^(?:[a-z]+:)?\/\//i.test(link.getAttribute("href"))) link.href = link.href; // as Material's test
  }
  let saved = null;
  try {
    saved = window.__md_get("__palette");
  } catch (error) {
    saved = null; // storage refused (a private window's settings): the system's colours
  }
  const scheme = saved && saved.color ? saved.color.scheme : null;
  const dark = scheme ? scheme === "slate" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  const meta = document.createElement("meta");
  meta.name = "color-scheme";
  meta.content = dark ? "dark" : "light";
  document.head.append(meta);
})();
