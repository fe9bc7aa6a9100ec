// The calculators' engine, started as soon as the parser meets a calculator opened by a link that gives
// its inputs: this script is written into the page right after the calculator's opening tag
// (templates/calculator.md.j2, kensei_ref.site.INLINE_SCRIPTS: no round trip to fetch it), while
// Material's bundle and the site's scripts run at the end of the page, so that the engine's start (a
// worker: Pyodide's files, its compile, its memory) overlaps with theirs instead of waiting for them:
// about a second sooner on a slow phone (tests/benchmarks/bench_browser.py, "shared link"). Without a
// link's inputs the page's figures are the build's, for the inputs it shows, and calculator.js starts
// the engine once the page has loaded (its compile would slow the page's own scripts meanwhile).
// A search result's highlight ("h") gives no input.
//
// calculator.js takes this worker over (window.__krEarly) with the messages it sent meanwhile. A page
// opened in place by instant navigation (Material runs its scripts again) while the tab's engine runs,
// or a page read from a file (no worker there), starts nothing here.
(() => {
  "use strict";
  const root = document.currentScript && document.currentScript.closest(".kr-calc");
  const running = window.__krEngine && (window.__krEngine.worker || window.__krEngine.failed);
  if (!root || running || window.__krEarly || window.location.protocol === "file:" || !("Worker" in window)) return;
  if (![...new URLSearchParams(window.location.search).keys()].some((key) => key !== "h")) return;
  try {
    const folder = new URL(root.dataset.engine, window.location.href);
    const address = new URL("calc-worker.js", folder).href;
    const trusted = window.krTrustedTypes ? window.krTrustedTypes.createScriptURL(address) : address; // trusted-types.js
    const worker = new Worker(trusted, { type: "module" });
    const early = { worker, startedAt: performance.now(), messages: [], failed: false };
    worker.onmessage = (event) => early.messages.push(event);
    worker.onerror = () => { early.failed = true; };
    window.__krEarly = early;
  } catch {
    // calculator.js starts the engine, or says why it cannot
  }
})();
