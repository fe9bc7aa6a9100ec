// Wide tables on narrow screens: a table that scrolls sideways can be scrolled from the keyboard.
//
// Material wraps each table in `.md-typeset__scrollwrap`. Where the table is wider than that box,
// the box becomes a focusable region named after the table's caption or the heading above it, so a
// keyboard reader can reach it and scroll it with the arrow keys (WCAG 2.1.1; axe's
// "scrollable-region-focusable"). Checked again when the window changes size.
(function () {
  "use strict";

  function nameOf(wrap) {
    const table = wrap.querySelector("table");
    const caption = table && table.querySelector("caption");
    if (caption && caption.textContent.trim()) return caption.textContent.trim();
    let node = wrap;
    while (node && node !== document.body) {
      let sibling = node.previousElementSibling;
      while (sibling) {
        if (/^H[1-6]$/.test(sibling.tagName)) return sibling.textContent.replace(/¶$/, "").trim();
        sibling = sibling.previousElementSibling;
      }
      node = node.parentElement;
    }
    return "";
  }

  function mark() {
    for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap")) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        wrap.tabIndex = 0;
        wrap.setAttribute("role", "region");
        const name = nameOf(wrap);
        if (name) wrap.setAttribute("aria-label", name);
      } else if (wrap.getAttribute("role") === "region") {
        wrap.removeAttribute("tabindex");
        wrap.removeAttribute("role");
        wrap.removeAttribute("aria-label");
      }
    }
  }

  let pending = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(mark);
  });
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => requestAnimationFrame(mark));
  } else {
    document.addEventListener("DOMContentLoaded", () => requestAnimationFrame(mark));
  }
})();
