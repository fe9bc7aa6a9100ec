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

  function drawCode(holder, url) {
    if (typeof window.qrcode !== "function") return false;
    const code = window.qrcode(0, "M");
    code.addData(url, "Byte");
    code.make();
    holder.innerHTML = code.createSvgTag({ cellSize: 1, margin: MODULES_OF_QUIET_ZONE, scalable: true });
    const svg = holder.querySelector("svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", holder.dataset.label);
    svg.setAttribute("shape-rendering", "crispEdges");
    return true;
  }

  function drawAll() {
    if (window.qrcode) window.qrcode.stringToBytes = window.qrcode.stringToBytesFuncs["UTF-8"];
    for (const block of digest.querySelectorAll(".kr-digest__block")) {
      const link = block.querySelector("a.kr-digest__open");
      const url = absoluteUrl(link);
      if (!url) continue;
      if (drawCode(block.querySelector(".kr-digest__qr"), url)) block.classList.add("kr-digest__block--qr");
      block.querySelector(".kr-digest__url").textContent = url;
    }
  }

  // Loaded with the page, the QR library runs first (both scripts are deferred, in order). Opened in
  // place, Material adds the page's scripts again all at once, and they run as each arrives: this one
  // may come before the library, which it then waits for.
  const library = document.querySelector('script[src$="vendor/qrcode.js"]');
  if (typeof window.qrcode !== "function" && library) library.addEventListener("load", drawAll, { once: true });
  else drawAll();

  const print = document.querySelector(".kr-digest__print");
  if (print) {
    print.hidden = false;
    print.addEventListener("click", () => window.print());
  }
})();
