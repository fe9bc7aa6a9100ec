// Glossary terms in rule texts: the term's definition, shown where the term is.
//
// Each term link (`a.kr-term`, written by kensei_ref/site/pages.py) leads to its glossary entry and
// carries the definition as its title. With a mouse, hovering a term (or focusing it from the
// keyboard) shows the definition in a tooltip drawn as Material's own (its `md-tooltip2` classes and
// style), and a click follows the link. With a finger or a pen there is no hover: the first tap
// opens a popover with the definition and a link to the glossary; a second tap on the same term, or
// the popover's link, opens the glossary. Escape, a tap elsewhere or scrolling closes it.
//
// Material's own tooltips (its `content.tooltips` feature) are not used: they set up a watcher on
// every element with a title when a page opens, about a tenth of a second of a phone's processor on
// a rule page, before the reader can tap. Here one listener on the document serves every term, and
// a term's title becomes its `data-definition` the first time it is shown (so that the browser's
// own tooltip does not cover this one); other titles keep the browser's tooltip.
(function () {
  "use strict";

  const TERM = "a.kr-term";
  let popover = null;
  let openFor = null;
  let lastPointer = "mouse";

  /** The term's definition, moved from its title the first time it is asked for. */
  function definitionOf(link) {
    if (link.hasAttribute("title")) {
      link.dataset.definition = link.getAttribute("title");
      link.removeAttribute("title");
    }
    return link.dataset.definition || "";
  }

  // ---- With a mouse or the keyboard: a tooltip as Material draws it ------------------------------
  const HIDE_AFTER_MS = 250; // as Material: the pointer may cross the gap between term and tooltip
  let tooltip = null;
  let tooltipFor = null;
  let hideTimer = 0;

  function ensureTooltip() {
    if (tooltip) return tooltip;
    tooltip = document.createElement("div");
    tooltip.className = "md-tooltip2 md-tooltip2--bottom";
    tooltip.id = "kr-term-tooltip";
    tooltip.setAttribute("role", "tooltip");
    const inner = document.createElement("div");
    inner.className = "md-tooltip2__inner md-typeset";
    tooltip.append(inner);
    document.body.append(tooltip);
    return tooltip;
  }

  function showTooltip(link) {
    clearTimeout(hideTimer);
    const definition = definitionOf(link);
    if (!definition || tooltipFor === link) return;
    hideTooltip(true);
    const box = ensureTooltip();
    box.firstChild.textContent = definition;
    // Material's variables (its tooltip2 component): the term's place on the page, the tooltip's
    // origin under the term's middle, and the text's width, for centring without a tail.
    const rect = link.getBoundingClientRect();
    box.style.setProperty("--md-tooltip-host-x", `${rect.left + window.scrollX}px`);
    box.style.setProperty("--md-tooltip-host-y", `${rect.top + window.scrollY}px`);
    box.style.setProperty("--md-tooltip-x", `${rect.width / 2}px`);
    box.style.setProperty("--md-tooltip-y", `${8 + rect.height}px`);
    box.style.setProperty("--md-tooltip-tail", "0px");
    box.style.setProperty("--md-tooltip-width", `${box.firstChild.getBoundingClientRect().width}px`);
    link.setAttribute("aria-describedby", box.id);
    tooltipFor = link;
    requestAnimationFrame(() => { // added first, then shown: Material's fade and slide
      if (tooltipFor === link) box.classList.add("md-tooltip2--active");
    });
  }

  function hideTooltip(now = false) {
    clearTimeout(hideTimer);
    const hide = () => {
      if (!tooltipFor) return;
      tooltipFor.removeAttribute("aria-describedby");
      tooltipFor = null;
      tooltip.classList.remove("md-tooltip2--active");
    };
    if (now) hide();
    else hideTimer = setTimeout(hide, HIDE_AFTER_MS);
  }

  const termOf = (event) => (event.target instanceof Element ? event.target.closest(TERM) : null);
  document.addEventListener("pointerover", (event) => {
    const link = termOf(event);
    if (link && event.pointerType === "mouse") showTooltip(link);
  });
  document.addEventListener("pointerout", (event) => {
    const link = termOf(event);
    if (link && link === tooltipFor && !link.contains(event.relatedTarget)) hideTooltip();
  });
  document.addEventListener("focusin", (event) => {
    const link = termOf(event);
    if (link && link.matches(":focus-visible")) showTooltip(link);
  });
  document.addEventListener("focusout", (event) => {
    if (termOf(event) === tooltipFor) hideTooltip();
  });

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
    box.querySelector(".kr-term-popover__text").textContent = definitionOf(link);
    const more = box.querySelector(".kr-term-popover__link");
    more.href = link.href;
    more.textContent = (link.textContent || "").trim() + " \u2192";
    box.hidden = false;
    const rect = link.getBoundingClientRect();
    const width = Math.min(box.offsetWidth, document.documentElement.clientWidth - 16);
    const left = Math.max(8, Math.min(rect.left, document.documentElement.clientWidth - width - 8));
    box.style.left = left + window.scrollX + "px";
    // below the term, unless it would pass the screen's bottom and there is more room above (a term near
    // the bottom: scrolling to the definition would close it)
    const height = box.offsetHeight;
    const below = document.documentElement.clientHeight - rect.bottom - 6;
    const above = rect.top - 6;
    const over = height > below && above > below;
    box.style.top = (over ? Math.max(8, rect.top - 6 - height) : rect.bottom + 6) + window.scrollY + "px";
    link.setAttribute("aria-describedby", box.id);
    openFor = link;
  }

  document.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType || "mouse";
  }, true);

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest(TERM);
    if (popover && !popover.hidden && popover.contains(event.target)) return;
    if (!link || !definitionOf(link) || lastPointer === "mouse") {
      close();
      return;
    }
    if (openFor === link) return; // the second tap follows the link to the glossary
    event.preventDefault();
    hideTooltip(true);
    open(link);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      close();
      hideTooltip(true);
    }
  });
  window.addEventListener("scroll", close, { passive: true });
  window.addEventListener("resize", close);

  // Material's instant navigation swaps the page's content without reloading this script.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => {
      close();
      hideTooltip(true);
    });
  }
})();
