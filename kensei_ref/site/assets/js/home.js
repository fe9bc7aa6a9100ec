// The home page's lists of what the player keeps on this device: the units saved on My units, and
// the last calculations (calculator.js keeps them, one for each calculator, newest first). Each
// list stays hidden while it is empty. What the device holds is untrusted: names are written as
// text, and a calculation's address is kept only when it leads to a page of this language.
(() => {
  "use strict";
  const roots = window.krRoots;
  const storage = roots && roots.settings && roots.settings.storage;
  if (!storage) return;
  const LIMIT = 6;

  function read(key) {
    try {
      return JSON.parse(window.localStorage.getItem(key) || "null");
    } catch {
      return null;
    }
  }

  function item(href, text, note) {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = href;
    link.textContent = text;
    li.append(link);
    if (note) {
      const small = document.createElement("small");
      small.textContent = note;
      li.append(" ", small);
    }
    return li;
  }

  function fill(section, items) {
    if (!section) return;
    section.querySelector(".kr-home__list").replaceChildren(...items);
    section.hidden = items.length === 0;
  }

  /** A kept calculation's address, only if it is a page of this language on this site. */
  function address(entry) {
    if (!entry || typeof entry.path !== "string" || typeof entry.query !== "string") return null;
    try {
      const url = new URL(`${entry.path}?${entry.query}`, roots.language);
      return url.origin === roots.language.origin && url.href.startsWith(roots.language.href) ? url.href : null;
    } catch {
      return null;
    }
  }

  function show() {
    const sections = document.querySelectorAll(".kr-home__device");
    if (!sections.length) return;
    const units = read(storage.units);
    const unitsPage = new URL("units/", roots.language).href;
    const names = Array.isArray(units && units.units) ? units.units.filter((u) => u && typeof u.name === "string") : [];
    fill(document.querySelector('.kr-home__device[data-kind="units"]'),
      names.slice(0, LIMIT).map((unit) => item(unitsPage, unit.name, "")));
    const recent = read(`${storage.recent}:${roots.settings.lang}`);
    const entries = (Array.isArray(recent) ? recent : [])
      .map((entry) => [entry, address(entry)])
      .filter(([entry, href]) => href && typeof entry.title === "string");
    fill(document.querySelector('.kr-home__device[data-kind="recent"]'), entries.slice(0, LIMIT)
      .map(([entry, href]) => item(href, entry.title, typeof entry.figures === "string" ? entry.figures : "")));
  }

  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(show);
  else show();
})();
