// (Written into every page's head: kensei_ref.site.INLINE_SCRIPTS.)
// What Material's bundle would otherwise change at the root of the page once the page is drawn, done
// before it is drawn: each such change makes the browser compute the style of every element of the page
// again (60-220 ms of a phone's processor each on a rule page or the glossary, traced under Lighthouse's
// 4x slowdown), where here it costs nothing, no element having a style yet.
// - <html>'s class "js" in place of "no-js" (Material's bundle swaps them, and its style sheet has
//   rules under each).
// - The page's colour scheme, <meta name="color-scheme">, light or dark as the reader's colours are: the
//   choice saved by the header's toggle (Material's "__palette", which its inline script at the top of
//   the body applies), else the system's (mkdocs.yml: the light palette when the system asks for light,
//   the dark one, "slate", when it asks for dark). Material's palette component added it once the page
//   was drawn; palette.js keeps it as the reader switches.
(() => {
  "use strict";
  const root = document.documentElement;
  root.classList.remove("no-js");
  root.classList.add("js");
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
