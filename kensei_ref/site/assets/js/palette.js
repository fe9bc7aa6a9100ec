// The header's light/dark toggle, in place of Material's palette component (overrides/partials/
// palette.html leaves out its data-md-component, so Material's bundle does not mount it).
//
// Material's component, mounted as every page opens, marked the body as switching colours and unmarked
// it a moment later, and added a <meta name="color-scheme"> and then set it: each of the four made the
// browser compute the style of every element of the page again (traced: 4 x 60-220 ms of a phone's
// processor under Lighthouse's 4x slowdown, on a rule page and on the glossary), though the colours
// seldom change. This does what it did, touching the page only where something changes:
// - the colours are the reader's saved choice (Material's "__palette" in localStorage, which its inline
//   script at the top of the body applies before the page is drawn), else the system's (the first
//   option whose media query matches); the choice is saved, as Material saved it;
// - the button shown is that of the option that comes next; choosing it (a tap, or Enter in the form)
//   sets the colours without transitions (Material's data-md-color-switching, while the new style is
//   computed), saves the choice and sets the page's colour scheme (first-style.js wrote it in the head).
(() => {
  "use strict";
  if (window.__krPalette) return; // once per tab: Material may run the page's scripts again
  window.__krPalette = true;
  const form = document.querySelector("form[data-kr-palette]");
  if (!form || typeof window.__md_get !== "function") return;
  const inputs = [...form.querySelectorAll("input[name='__palette']")];
  if (!inputs.length) return;
  const KEYS = ["media", "scheme", "primary", "accent"];

  function paletteOf(index) {
    const color = {};
    for (const key of KEYS) color[key] = inputs[index].getAttribute(`data-md-color-${key}`);
    return { index, color };
  }

  /** The page's colour scheme as the header's style has it, in the head's <meta> (first-style.js). */
  function setSchemeMeta() {
    let meta = document.head.querySelector("meta[name='color-scheme']");
    if (!meta) {
      meta = document.createElement("meta");
      meta.name = "color-scheme";
      document.head.append(meta);
    }
    const header = document.querySelector("[data-md-component='header']");
    const scheme = header ? window.getComputedStyle(header).colorScheme : "";
    if (scheme && meta.content !== scheme) meta.content = scheme;
  }

  let current = 0;
  function apply(palette) {
    current = palette.index;
    const body = document.body;
    const changed = KEYS.filter((key) => body.getAttribute(`data-md-color-${key}`) !== palette.color[key]);
    const restyled = changed.some((key) => key !== "media"); // no style rule reads the media
    if (restyled) body.setAttribute("data-md-color-switching", "");
    for (const key of changed) body.setAttribute(`data-md-color-${key}`, palette.color[key]);
    inputs.forEach((input, index) => {
      const label = input.nextElementSibling;
      if (label instanceof HTMLElement && label.hidden !== (index !== palette.index)) label.hidden = index !== palette.index;
    });
    window.__md_set("__palette", palette);
    if (restyled) {
      setSchemeMeta(); // reads the new style while transitions are off
      setTimeout(() => body.removeAttribute("data-md-color-switching"));
    }
  }

  let saved = null;
  try {
    saved = window.__md_get("__palette");
  } catch (error) {
    saved = null;
  }
  const first = saved || {
    index: inputs.findIndex((input) => window.matchMedia(input.getAttribute("data-md-color-media")).matches),
  };
  apply(paletteOf(Math.max(0, Math.min(first.index, inputs.length - 1))));

  form.addEventListener("change", (event) => {
    const index = inputs.indexOf(event.target);
    if (index >= 0) apply(paletteOf(index));
  });
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    const next = (current + 1) % inputs.length;
    inputs[next].click();
    inputs[next].focus();
  });
})();
