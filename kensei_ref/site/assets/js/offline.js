// Offline use: registers the service worker, saves this language's pages and the calculators'
// engine after the first visit, shows the offline indicator in the header, offers a new version when
// one is ready, and fills the Offline page's panel (what is saved, "download everything").
(() => {
  "use strict";
  if (!window.krRoots || !window.krRoots.settings) return;
  const settings = window.krRoots.settings;
  if (settings.serving) {
    // `mkdocs serve` rebuilds the pages at every save: no offline use, and no worker left from an
    // earlier visit serving the pages it saved then in place of the new ones.
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.getRegistrations().then((all) => all.forEach((registration) => registration.unregister()));
    }
    return;
  }
  const ui = settings.ui;
  const languageRoot = window.krRoots.language;
  const siteRoot = window.krRoots.site;
  let panel = document.getElementById("kr-offline-panel");
  const numbers = window.krNumbers(settings.numbers); // as the build writes them (numbers.js)
  const fill = (template, values) => template.replace(/%\((\w+)\)s/g, (_, key) => values[key]);
  const megabytes = (bytes) => fill(ui.megabytes, { size: numbers.decimal(bytes / 1e6, 1) });

  // ---- The indicator in the header ---------------------------------------------------------------
  const ICONS = {
    ready: "M19.35 10.04A7.49 7.49 0 0 0 12 4C9.11 4 6.6 5.64 5.35 8.04A5.994 5.994 0 0 0 0 14a6 6 0 0 0 6 6h13a5 5 0 0 0 5-5c0-2.64-2.05-4.78-4.65-4.96M10 17l-3.5-3.5 1.41-1.41L10 14.17 15.18 9l1.41 1.41z",
    saving: "M19.35 10.04A7.49 7.49 0 0 0 12 4C9.11 4 6.6 5.64 5.35 8.04A5.994 5.994 0 0 0 0 14a6 6 0 0 0 6 6h13a5 5 0 0 0 5-5c0-2.64-2.05-4.78-4.65-4.96M17 13l-5 5-5-5h3V9h4v4z",
    offline: "M3.27 2 2 3.27l2.77 2.77h-.42A5.994 5.994 0 0 0 0 12a6 6 0 0 0 6 6h11.73l2 2L21 18.73zM24 15c0-2.64-2.05-4.78-4.65-4.96A7.49 7.49 0 0 0 12 4c-1.48 0-2.85.43-4 1.19l1.46 1.46C10.21 6.23 11.08 6 12 6a5.5 5.5 0 0 1 5.5 5.5v.5H19a3 3 0 0 1 3 3c0 1.13-.64 2.11-1.56 2.62l1.45 1.45C23.16 18.16 24 16.68 24 15",
    none: "M19.35 10.04A7.49 7.49 0 0 0 12 4C9.11 4 6.6 5.64 5.35 8.04A5.994 5.994 0 0 0 0 14a6 6 0 0 0 6 6h13a5 5 0 0 0 5-5c0-2.64-2.05-4.78-4.65-4.96M19 18H6a4 4 0 0 1-4-4c0-2.05 1.53-3.76 3.56-3.97l1.07-.11.5-.95A5.47 5.47 0 0 1 12 6c2.62 0 4.88 1.86 5.39 4.43l.3 1.5 1.53.11A2.98 2.98 0 0 1 22 15c0 1.65-1.35 3-3 3",
  };
  const SVG = "http://www.w3.org/2000/svg";
  const indicator = document.createElement("a");
  indicator.className = "md-header__button md-icon kr-offline-indicator";
  indicator.href = new URL(settings.page, languageRoot).href;
  indicator.hidden = true;
  const header = document.querySelector(".md-header__inner");
  if (header) header.insertBefore(indicator, header.querySelector("label[for='__search']"));

  function showState(state, words) {
    indicator.hidden = false;
    if (indicator.title !== words) {
      indicator.title = words;
      indicator.setAttribute("aria-label", fill(ui.labelled, { label: ui.indicator, text: words })); // French spaces the colon
    }
    if (indicator.dataset.state === state) return; // the same icon: a progress message changes the words only
    indicator.dataset.state = state;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", ICONS[state]);
    svg.append(path);
    indicator.replaceChildren(svg);
  }

  function message(text) {
    if (!panel) return;
    panel.replaceChildren();
    panel.dataset.filled = "true";
    const paragraph = document.createElement("p");
    paragraph.className = "kr-offline-panel__message";
    paragraph.textContent = text;
    panel.append(paragraph);
  }

  // A page opened in place (navigation.js) may be the Offline page: its panel is filled then.
  function whenThePanelOpens(fillPanel) {
    if (!window.document$ || typeof window.document$.subscribe !== "function") return;
    window.document$.subscribe(() => {
      const next = document.getElementById("kr-offline-panel");
      if (next === panel) return;
      panel = next;
      if (panel) fillPanel();
    });
  }

  if (window.location.protocol === "file:") {
    message(ui.file);
    whenThePanelOpens(() => message(ui.file));
    return;
  }
  if (!("serviceWorker" in navigator) || !("caches" in window)) {
    message(ui.unsupported);
    whenThePanelOpens(() => message(ui.unsupported));
    return;
  }

  // ---- Status from the service worker --------------------------------------------------------------
  const wanted = () => {
    const saveData = navigator.connection && navigator.connection.saveData;
    return saveData ? [settings.lang] : [settings.lang, "engine"];
  };
  let last = null;
  let saving = false;

  function render(status) {
    last = status;
    const held = new Set(status.complete);
    const mine = wanted().every((group) => held.has(group));
    if (!navigator.onLine) showState(mine || held.has(settings.lang) ? "offline" : "none", mine ? ui.offline : ui.not_saved);
    else if (!saving) showState(mine ? "ready" : "none", mine ? ui.ready : ui.not_saved);
    if (panel) renderPanel(status, held);
  }

  function renderPanel(status, held) {
    panel.replaceChildren();
    panel.dataset.filled = "true"; // the worker's status, no longer the page's outline of it
    const list = document.createElement("ul");
    list.className = "kr-offline-panel__groups";
    let missing = 0;
    for (const name of settings.groups) {
      const group = status.groups[name];
      if (!group) continue;
      const done = held.has(name);
      if (!done) missing += group.bytes - group.cachedBytes;
      const item = document.createElement("li");
      item.dataset.group = name;
      item.dataset.saved = String(done);
      const state = done ? ui.saved
        : fill(ui.partly, { done: megabytes(group.cachedBytes), total: megabytes(group.bytes) });
      // the group's name, then its size and state: each on its line, as the page was built with them
      const named = document.createElement("span");
      named.className = "kr-offline-panel__group";
      named.textContent = ui[`group_${name}`];
      const detail = document.createElement("span");
      detail.className = "kr-offline-panel__detail";
      detail.textContent = fill(ui.group_detail, { size: megabytes(group.bytes), state });
      item.append(named, detail);
      list.append(item);
    }
    panel.append(list);
    if (missing > 0) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "md-button md-button--primary kr-offline-panel__save";
      button.textContent = fill(ui.save_all, { size: megabytes(missing) });
      button.disabled = saving;
      button.addEventListener("click", () => save(settings.groups, true));
      panel.append(button);
    } else {
      const all = document.createElement("p");
      all.className = "kr-offline-panel__message";
      all.textContent = ui.all_saved;
      panel.append(all);
    }
    const progress = document.createElement("progress");
    progress.className = "kr-offline-panel__progress";
    progress.hidden = !saving;
    panel.append(progress);
    if ((navigator.connection && navigator.connection.saveData) && !held.has("engine")) {
      const note = document.createElement("p");
      note.textContent = ui.save_data;
      panel.append(note);
    }
    const archive = document.getElementById("kr-offline-archive");
    if (archive && status.archive) {
      archive.href = new URL(status.archive.path, siteRoot).href;
      archive.textContent = fill(ui.archive, { size: megabytes(status.archive.bytes) });
    }
  }

  // The worker reports each file saved, hundreds a language: the indicator shows the first report at
  // once, then the latest once a second. Each change of its words costs the page a style, paint and
  // commit of the whole frame (13 to 36 ms unthrottled in a Lighthouse trace of a rule page, four times
  // that on its simulated phone), which a report shown at every frame repeated through the whole save.
  const PROGRESS_EVERY_MS = 1000;
  let pendingProgress = null;
  let progressTimer = null;
  function onProgress(data) {
    pendingProgress = data;
    if (progressTimer) return;
    const showLatest = () => {
      const latest = pendingProgress;
      pendingProgress = null;
      progressTimer = latest ? setTimeout(showLatest, PROGRESS_EVERY_MS) : null;
      if (latest) showProgress(latest); // none when a status came since: it was shown
    };
    showLatest();
  }

  function showProgress(data) {
    const share = data.total ? data.done / data.total : 1;
    showState("saving", fill(ui.saving, { percent: numbers.percent(share, 0) }));
    const bar = panel && panel.querySelector(".kr-offline-panel__progress");
    if (bar) { bar.hidden = false; bar.max = data.total || 1; bar.value = data.done; }
  }

  /**
   * After the page has what it needs: on a calculator page, once its engine has started (calculator.js
   * says so with the "kensei:engine-ready" event and data-engine-state), so that the engine's files are
   * saved from the browser's HTTP cache instead of being downloaded a second time; a minute at most.
   */
  function whenIdle() {
    const loaded = document.readyState === "complete" ? Promise.resolve()
      : new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
    const calc = document.querySelector(".kr-calc");
    const engine = !calc || calc.dataset.engineState !== "loading" ? Promise.resolve()
      : new Promise((resolve) => {
        document.addEventListener("kensei:engine-ready", resolve, { once: true });
        setTimeout(resolve, 60_000);
      });
    return Promise.all([loaded, engine]);
  }

  let registration = null;
  let refused = false;
  function post(data) {
    const worker = registration && registration.active;
    if (worker) worker.postMessage(data);
  }

  function save(groups, asked = false) {
    saving = true;
    // Asked for by the reader: ask the browser not to clear the saved copy when space runs low.
    if (asked && navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
    if (last) render(last);
    post({ type: "save", groups });
  }

  navigator.serviceWorker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "progress") onProgress(data);
    else if (data.type === "status") {
      pendingProgress = null;
      if (data.saved) saving = false;
      render(data);
    } else if (data.type === "failed") {
      saving = false;
      showState("none", ui.failed);
      if (panel) message(`${ui.failed} (${data.message})`);
    }
  });
  window.addEventListener("online", () => post({ type: "status" }));
  window.addEventListener("offline", () => post({ type: "status" }));

  // ---- A new version -------------------------------------------------------------------------------
  // A page goes on with the build that served it, even once a newer one has taken over (sw.js keeps
  // its files): it is never reloaded but by the reader, who may be typing in it. It offers the new
  // version when one is ready, and again when one has taken over; "Reload" makes a waiting one take
  // over (every other tab then offers it too) and loads this page whole from it.
  const RELOAD_GRACE_MS = 3000;
  const RELOAD_MARK = "kensei-ref-reloaded-into-newer";
  /** Notes, for the page about to load, that it is the reader's reload from the waiting build. */
  function markTheReload() {
    try { sessionStorage.setItem(RELOAD_MARK, String(Date.now())); } catch { /* no storage: offered once more */ }
  }
  /** Whether this page is such a reload (marked in the last minute); the mark is taken once. */
  function takeTheReloadMark() {
    try {
      const at = Number(sessionStorage.getItem(RELOAD_MARK));
      sessionStorage.removeItem(RELOAD_MARK);
      return at > 0 && Date.now() - at < 60_000;
    } catch {
      return false;
    }
  }
  const servedByAWorker = !!navigator.serviceWorker.controller;
  // This page is the reader's reload, served from the waiting build by the old worker (sw.js,
  // takeTheReload): it is the new build already, and offers it neither now nor when it takes over.
  // Read when first needed, at the earliest in idle time (register): a page's first use of its
  // session storage costs a slow phone about 15 ms, and nothing needs the mark before the worker.
  let reloadedIntoNewer = null;
  const isReloadIntoNewer = () => (reloadedIntoNewer ??= takeTheReloadMark());
  let reloading = false;
  let reloaded = false;
  /** Loads the page again, once: the new build's taking over and its activation both ask for it. */
  const reloadOnce = () => {
    if (reloaded) return;
    reloaded = true;
    window.location.reload();
  };
  /**
   * Asks the waiting worker to take over, and again every 2 s while it stays waiting, `times` at most:
   * the browser swaps the workers only once the old one has handled every request it was given (a
   * page's status, a fetch of any tab), and may then leave the new one waiting until it is asked again.
   */
  function askToTakeOver(worker, times) {
    if (worker.state !== "installed" || times === 0) return;
    worker.postMessage({ type: "skip-waiting" });
    setTimeout(() => askToTakeOver(worker, times - 1), ASK_EVERY_MS);
  }
  const ASK_EVERY_MS = 2000;
  const ASKS_BEFORE_RELOAD = 30; // a minute; the reload itself comes from the new build after RELOAD_GRACE_MS
  const ASKS_AFTER_RELOAD = 150; // five minutes, how long Chromium lets an old worker hold a new one back

  function offerUpdate(worker) {
    if (document.querySelector(".kr-update")) return;
    const bar = document.createElement("div");
    bar.className = "kr-update";
    bar.setAttribute("role", "status");
    const text = document.createElement("span");
    text.textContent = ui.update;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "md-button";
    button.textContent = ui.reload;
    button.addEventListener("click", () => {
      reloading = true;
      if (worker && worker.state === "installed") {
        // reloaded once the new build is active, whether or not it takes this page over first
        // (controllerchange): a navigation then always goes to the active build
        worker.addEventListener("statechange", () => { if (worker.state === "activated") reloadOnce(); });
        askToTakeOver(worker, ASKS_BEFORE_RELOAD);
        // The browser swaps the workers only once the old one has handled every request of every
        // tab (a download on a slow network, another tab's engine): past a few seconds, the old
        // worker serves this reload from the new build's cache itself.
        setTimeout(() => {
          if (worker.state === "installed" && registration && registration.active) {
            registration.active.postMessage({ type: "reload-in-newer" });
          }
        }, RELOAD_GRACE_MS);
      } else window.location.reload(); // taken over already: the reload comes from the new build
    });
    bar.append(text, button);
    document.body.append(bar);
  }
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) reloadOnce();
    else if (isReloadIntoNewer()) reloadedIntoNewer = false; // its own build taking over, at last
    else if (servedByAWorker) offerUpdate(null);
  });
  navigator.serviceWorker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type !== "reload-in-newer" || !data.done || !reloading) return;
    markTheReload();
    reloadOnce();
  });

  whenThePanelOpens(() => {
    if (refused) message(ui.unsupported);
    else if (last) render(last);
    else post({ type: "status" }); // answered once the worker runs (register, below)
  });

  // Registering the worker and asking what is saved can wait until the page has loaded and is idle:
  // the reader reads first (idle.js).
  window.krIdle(register);

  function register() {
    isReloadIntoNewer(); // taken now, once: a later page of the tab is not this reload
    navigator.serviceWorker.register(new URL("sw.js", siteRoot).href, { scope: siteRoot.href, updateViaCache: "none" })
      .then((reg) => {
        registration = reg;
        if (reg.waiting && navigator.serviceWorker.controller) {
          // the reader's reload, from the new build: that build still has to take over once the old
          // worker is free, which nothing else asks for
          if (isReloadIntoNewer()) askToTakeOver(reg.waiting, ASKS_AFTER_RELOAD);
          else offerUpdate(reg.waiting);
        }
        reg.addEventListener("updatefound", () => {
          const incoming = reg.installing;
          if (!incoming) return;
          incoming.addEventListener("statechange", () => {
            if (incoming.state === "installed" && navigator.serviceWorker.controller) offerUpdate(incoming);
          });
        });
        return navigator.serviceWorker.ready;
      })
      .then((reg) => {
        registration = reg;
        // The first visit saves this language and the engine; later visits only check what is saved.
        const channel = (data) => reg.active.postMessage(data);
        const once = (event) => {
          const data = event.data || {};
          if (data.type !== "status" || data.saved) return;
          navigator.serviceWorker.removeEventListener("message", once);
          const held = new Set(data.complete);
          if (!wanted().every((group) => held.has(group))) whenIdle().then(() => save(wanted()));
        };
        navigator.serviceWorker.addEventListener("message", once);
        channel({ type: "status" });
      })
      .catch(() => {
        refused = true; // the browser refused the worker: an Offline page opened later says so too
        message(ui.unsupported);
      });
  }
})();
