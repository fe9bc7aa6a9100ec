// The printable digest: a QR code beside each odds table, leading to the calculator that made it.
// The page's links are relative; a printed code needs the absolute address. Served over HTTP that is
// the page's own; opened from file:// it is the published site's (site_url, if the build has one),
// and without one no code is drawn: the printed path under the table stays the way to the calculator.
(function () {
  "use strict";

  const digest = document.querySelector(".kr-digest");
  if (!digest) return;

  const MODULES_OF_QUIET_ZONE = 4; // the QR standard's margin, so that a reader finds the code on paper

  function absoluteUrl(link) {
    if (location.protocol === "http:" || location.protocol === "https:") {
      return new URL(link.getAttribute("href"), location.href).href;
    }
    const siteUrl = digest.dataset.siteUrl;
    if (!siteUrl) return null;
    return new URL(link.dataset.sitePath, siteUrl.endsWith("/") ? siteUrl : siteUrl + "/").href;
  }

  /** The code as an SVG image, one square per dark module, built as elements: no markup written
   * from a string (the policy requires Trusted Types for that). */
  function codeImage(code) {
    const NS = "http://www.w3.org/2000/svg";
    const count = code.getModuleCount();
    const size = count + 2 * MODULES_OF_QUIET_ZONE;
    let squares = "";
    for (let row = 0; row < count; row += 1) {
      for (let column = 0; column < count; column += 1) {
        if (code.isDark(row, column)) squares += `M${column + MODULES_OF_QUIET_ZONE},${row + MODULES_OF_QUIET_ZONE}h1v1h-1z`;
      }
    }
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
    svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
    const background = document.createElementNS(NS, "rect");
    for (const [name, value] of [["width", "100%"], ["height", "100%"], ["fill", "white"]]) background.setAttribute(name, value);
    const modules = document.createElementNS(NS, "path");
    modules.setAttribute("d", squares);
    modules.setAttribute("fill", "black");
    svg.append(background, modules);
    return svg;
  }

  function drawCode(holder, url) {
    if (typeof window.qrcode !== "function") return false;
    const code = window.qrcode(0, "M");
    code.addData(url, "Byte");
    code.make();
    holder.replaceChildren(codeImage(code));
    const svg = holder.querySelector("svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", holder.dataset.label);
    svg.setAttribute("shape-rendering", "crispEdges");
    return true;
  }

  function drawBlock(block) {
    if (block.dataset.drawn) return;
    block.dataset.drawn = "1";
    const link = block.querySelector("a.kr-digest__open");
    const url = absoluteUrl(link);
    if (!url) return;
    if (drawCode(block.querySelector(".kr-digest__qr"), url)) block.classList.add("kr-digest__block--qr");
    block.querySelector(".kr-digest__url").textContent = url;
  }

  /** Every code, at once: before printing. */
  function drawRemaining() {
    if (!digest.isConnected) return; // a digest opened earlier in this tab, replaced since
    for (const block of digest.querySelectorAll(".kr-digest__block")) drawBlock(block);
  }

  /** The codes lie below the quick reference, on paper more than on screen. A code costs a slow
   * phone's processor about 100 ms (the library makes it eight times to choose its mask): each is
   * drawn when its block comes within a screen of being seen, in the browser's idle time (idle.js),
   * and all that are left at once when the page is printed. */
  function drawAll() {
    if (window.qrcode) window.qrcode.stringToBytes = window.qrcode.stringToBytesFuncs["UTF-8"];
    const blocks = digest.querySelectorAll(".kr-digest__block");
    if (!window.krIdle || !window.IntersectionObserver) {
      drawRemaining();
      return;
    }
    const near = new IntersectionObserver((entries) => {
      if (!digest.isConnected) { near.disconnect(); return; } // a digest replaced since
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        near.unobserve(entry.target);
        window.krIdle(() => drawBlock(entry.target));
      }
    }, { rootMargin: "100% 0px" });
    for (const block of blocks) near.observe(block);
  }
  window.addEventListener("beforeprint", drawRemaining);

  // Loaded with the page, the QR library runs first (both scripts are deferred, in order). Opened in
  // place, Material adds the page's scripts again all at once, and they run as each arrives: this one
  // may come before the library, which it then waits for.
  const library = document.querySelector('script[src$="vendor/qrcode.js"]');
  if (typeof window.qrcode !== "function" && library) library.addEventListener("load", drawAll, { once: true });
  else drawAll();

  const print = document.querySelector(".kr-digest__print");
  if (print) {
    print.hidden = false;
    print.addEventListener("click", () => {
      drawRemaining();
      window.print();
    });
  }
})();
