// Glossary terms in rule texts: a tap shows the term's definition in place.
//
// Each term link (`a.kr-term`, written by kensei_ref/site/pages.py) leads to its glossary entry and
// carries the definition as its title. With a mouse, Material's own tooltip shows that title on
// hover and focus, and a click follows the link. With a finger or a pen there is no hover: the first
// tap opens a popover with the definition and a link to the glossary; a second tap on the same term,
// or the popover's link, opens the glossary. Escape, a tap elsewhere or scrolling closes it.
//
// This script runs before Material turns titles into its tooltips (Material waits for the document
// to be loaded), so it can keep each definition in `data-definition` first.
(function () {
  "use strict";

  const TERM = "a.kr-term";
  let popover = null;
  let openFor = null;
  let lastPointer = "mouse";

  function keepDefinitions(root) {
    for (const link of root.querySelectorAll(TERM + "[title]")) {
      link.dataset.definition = link.getAttribute("title");
    }
  }

  function ensurePopover() {
    if (popover) return popover;
    popover = document.createElement("div");
    popover.className = "kr-term-popover";
    popover.id = "kr-term-popover";
    popover.setAttribute("role", "tooltip");
    popover.hidden = true;
    const text = document.createElement("p");
    text.className = "kr-term-popover__text";
    const more = document.createElement("a");
    more.className = "kr-term-popover__link";
    popover.append(text, more);
    document.body.append(popover);
    return popover;
  }

  function close() {
    if (!popover || popover.hidden) return;
    popover.hidden = true;
    if (openFor) openFor.removeAttribute("aria-describedby");
    openFor = null;
  }

  function open(link) {
    const box = ensurePopover();
    box.querySelector(".kr-term-popover__text").textContent = link.dataset.definition || "";
    const more = box.querySelector(".kr-term-popover__link");
    more.href = link.href;
    more.textContent = (link.textContent || "").trim() + " \u2192";
    box.hidden = false;
    const rect = link.getBoundingClientRect();
    const width = Math.min(box.offsetWidth, document.documentElement.clientWidth - 16);
    const left = Math.max(8, Math.min(rect.left, document.documentElement.clientWidth - width - 8));
    box.style.left = left + window.scrollX + "px";
    box.style.top = rect.bottom + window.scrollY + 6 + "px";
    link.setAttribute("aria-describedby", box.id);
    openFor = link;
  }

  document.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType || "mouse";
  }, true);

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest(TERM);
    if (popover && !popover.hidden && popover.contains(event.target)) return;
    if (!link || !link.dataset.definition || lastPointer === "mouse") {
      close();
      return;
    }
    if (openFor === link) return; // the second tap follows the link to the glossary
    event.preventDefault();
    open(link);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  window.addEventListener("scroll", close, { passive: true });
  window.addEventListener("resize", close);

  keepDefinitions(document);
  // Material's instant navigation swaps the page's content without reloading this script.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => {
      close();
      keepDefinitions(document);
    });
  }
})();
