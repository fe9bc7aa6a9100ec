// Calculator pages: read the form, keep its state in the URL, ask the engine (Python under Pyodide,
// in a Web Worker) for exact results, and show them as the page showed the default scenario.
//
// What this script promises the rest of the site, the tests and the benchmarks (in Python the names
// are kensei_ref/site/calculator_pages.py's ENGINE_READY_EVENT, ENGINE_STATE and RESULT_STATE):
//
// - "kensei:engine-ready", a CustomEvent on `document`, fired on each calculator page once the
//   engine answers for it (at once when another page of the tab had started it), after the form's
//   inputs were sent to it; again when an engine that did not survive a request was replaced
//   (replaceEngine). Its detail:
//     { calculator: "shooting",  // the page's calculator
//       readyAt: 2875.4,         // ms from the tab's first page's start (performance.now())
//       startMs: 2610.2,         // ms from creating the worker to the engine's ready message
//       reused: false,           // true when an earlier page of the tab had started the engine
//       timings: {...} }         // the engine's own start, split (calc-worker.js)
// - data-engine-state on the calculator's root (.kr-calc), for whoever comes after the event:
//   "loading" (as built), then "ready", "failed" (the engine could not start) or "unavailable" (a
//   page read from file://, where no worker runs).
// - data-state on each result (.kr-result): "fresh" (it is for the inputs shown), "computing" (the
//   figures shown are for other inputs, the build's default or the last answer, until the engine
//   answers for the inputs shown: it may still be starting), "stale" (the inputs shown are invalid or
//   were refused; the last valid result stays) or "empty" (the second scenario before it is shown).
//   A result that is not fresh carries its reason in data-note (shown above it, greyed figures); the
//   sticky bar (.kr-calc__summary) and the difference carry the same data-state.
// - A link's query: parameters the calculator does not know (Material's search highlight "h", any
//   other) are ignored; a required input the link lacks takes the page's default, an optional one
//   the calculator's own default, as links written before this rule did.
// - The result's markup is the build's: the page's data holds `result_template`, rendered from
//   templates/_calc_result.html.j2 by the same macro that wrote the default result into the page;
//   fillResult fills it with resultView's values, whose names are calculator_pages.result_view's.
(() => {
  "use strict";
  const ENGINE_READY = "kensei:engine-ready";

  // ---- The engine: one per tab ------------------------------------------------------------------
  // Pages of the site open in place (navigation.js, Material's instant navigation), so the worker
  // started by one page answers the next: a second calculator gets its figures without a second
  // start. window.__krEngine is read by the tests and the benchmark (starts, timings).
  const engine = {
    worker: null, ready: false, failed: false, starts: 0, next: 1,
    startedAt: null, readyAt: null, timings: null, listeners: new Set(),
  };
  window.__krEngine = engine;
  const tell = (message) => { for (const listener of [...engine.listeners]) listener(message); };

  // An engine started while a page without calculator is idle is named IDLE_START: it restores only what
  // the device holds, and never downloads the build's snapshot (calc-worker.js, worthDownloading).
  const IDLE_START = "idle";
  /** The engine's worker, through the site's Trusted Types policy (trusted-types.js) where there is one. */
  function workerAddress(folder) {
    const address = new URL("calc-worker.js", folder).href;
    return window.krTrustedTypes ? window.krTrustedTypes.createScriptURL(address) : address;
  }
  function startEngine(folder, name = "") {
    if (engine.worker || engine.failed) return;
    engine.starts += 1;
    engine.folder = folder;
    engine.name = name;
    // started already by engine-start.js when the parser met the calculator: taken over
    const early = window.__krEarly;
    window.__krEarly = undefined;
    engine.startedAt = early ? early.startedAt : performance.now();
    engine.stage = "download"; // the worker's own script is fetched first; it then says how far it is
    try {
      engine.worker = early ? early.worker : new Worker(workerAddress(folder), { type: "module", name });
    } catch {
      engine.failed = true;
      return;
    }
    engine.worker.onmessage = (event) => {
      const message = event.data;
      if (message.text !== undefined) message.response = JSON.parse(message.text); // the engine's JSON
      if (message.stage) engine.stage = message.stage; // how far the start is, for the page to say
      if (message.ready) {
        engine.ready = true;
        engine.readyAt = performance.now();
        engine.timings = message.timings || null;
      } else if (message.failed && message.id === undefined) engine.failed = true;
      tell(message);
      if (message.failed && message.id !== undefined && FATAL.test(message.failed)) replaceEngine();
    };
    engine.worker.onerror = () => { engine.failed = true; tell({ failed: "error" }); };
    if (early) {
      for (const event of early.messages) engine.worker.onmessage(event);
      if (early.failed) engine.worker.onerror();
    }
  }

  // A request the engine did not survive (Pyodide's "fatal error": its interpreter is gone, and would
  // refuse every later request) fails alone: the worker is replaced by a new one, which restores the
  // saved engine, and the next requests go to it (each calculator page computes again once it is ready).
  const FATAL = /fatal/i;
  function replaceEngine() {
    engine.worker.terminate();
    engine.worker = null;
    engine.ready = false;
    engine.replaced = (engine.replaced || 0) + 1;
    tell({ replaced: true }); // what else it was asked is never answered: krAsk's requests fail now
    startEngine(engine.folder, engine.name);
  }

  /** One request to the engine (calculators/presentation.py: a unit file to check, a calculator's inputs
   * from two units, the orders advisor), starting it on this page if no page has: resolves with the
   * engine's response ({error} for inputs it refuses), rejects when the engine cannot start. */
  window.krAsk = (request) => new Promise((resolve, reject) => {
    const folder = engineFolder();
    if (folder && window.location.protocol !== "file:") startEngine(folder);
    if (!engine.worker || engine.failed) { reject(new Error("no engine")); return; }
    const id = engine.next++;
    const listener = (message) => {
      if (message.id === id) {
        engine.listeners.delete(listener);
        engine.lastMs = message.ms; // the engine's own time for it (for the benchmark)
        if (message.failed) reject(new Error(message.failed));
        else resolve(message.response);
      } else if ((message.failed && message.id === undefined) || message.replaced) {
        engine.listeners.delete(listener);
        reject(new Error(message.failed || "engine replaced"));
      }
    };
    engine.listeners.add(listener);
    engine.worker.postMessage({ id, request });
  });

  /** The engine's folder, resolved once from the tab's first page (site-root.js): after in-place
   * navigation the settings' relative address no longer fits the address shown. */
  function engineFolder() {
    return window.krRoots ? window.krRoots.engine : null;
  }

  /** On a page without a calculator: once the engine is saved on the device (the service worker's
   * cache), start it while the page is idle, so that the next calculator opened has it ready. Nothing
   * is downloaded for it: without a saved copy nothing starts. */
  async function startWhenIdle() {
    if (engine.worker || engine.failed || window.location.protocol === "file:" || !("caches" in window)) return;
    const folder = engineFolder();
    if (!folder) return;
    try {
      if (!(await caches.match(new URL("pyodide/pyodide.asm.wasm", folder).href))) return;
    } catch {
      return;
    }
    const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 200));
    idle(() => startEngine(folder, IDLE_START), { timeout: 4000 });
  }

  // ---- A calculator page ------------------------------------------------------------------------
  // mount() wires one page's calculator and returns what undoes it when another page replaces it.
  let unmount = null;
  let pagesShown = 0; // pages of this document so far: its first, then each opened in place
  function onPage() {
    pagesShown += 1;
    if (unmount) unmount();
    unmount = null;
    const root = document.querySelector(".kr-calc");
    if (root) unmount = mount(root);
    else startWhenIdle();
  }
  // started already by engine-start.js, for a link's inputs: taken over at once (mount() starts it otherwise)
  const first = document.querySelector(".kr-calc");
  if (first && window.__krEarly) startEngine(new URL(first.dataset.engine, window.location.href));
  // Each page opened in place comes through Material's document$; a page read from a file never is.
  if (window.location.protocol !== "file:" && window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(onPage);
  } else onPage();

  function mount(root) {
    // link-inputs.js, which a page opened in place may run after this, then leaves the page to us
    root.dataset.mounted = "1";
    const data = JSON.parse(root.querySelector(".kr-calc__data").dataset.json);
    const status = root.querySelector(".kr-calc__status");
    // Numbers as the build writes them (kensei_ref/numbers.py), from the page's symbols (numbers.js).
    const numbers = window.krNumbers(data.numbers);
    // bar labels: whole percents, with a decimal near 0 and 100 % (a 0.3 % chance is not "0 %")
    const chartFormat = {
      percent: (v) => numbers.percent(v),
      whole: (v) => numbers.percent(v, 0),
      short: (v) => (v > 0 && v < 0.1) || (v > 0.9 && v < 1) ? numbers.percent(v) : numbers.percent(v, 0),
      outcome: (k) => numbers.decimal(k, 0),
      pair: (name, value) => fill(data.ui.pair, { label: name, value }), // "label: value" as the language spaces it
    };
    const label = (text) => data.labels[text] || text;
    // A message whose words follow a count: its forms by CLDR plural category (the catalog's own forms,
    // kensei_ref/languages.py's plural_forms), of which the browser's plural rules pick one.
    const pluralRules = new Intl.PluralRules(data.lang);
    const plural = (forms, count) => forms[pluralRules.select(count)] ?? forms.other;
    const element = (...args) => elementImpl(...args);
    const fill = (template, values) => template.replace(/%\((\w+)\)s/g, (_, key) => values[key]);
    // a field's label (or a link's text) in a message, between the page's language's quotation marks
    const quote = (text) => `${data.quotes[0]}${text}${data.quotes[1]}`;
    // shownViews: the view each result shows, as text (the build's first): see renderResult
    // linkNotes: what a link gave that its field could not show, by scenario and name, until the player
    // changes the field (fromQuery); refusals: the engine's last objection, by scenario, with the inputs
    // it was for, shown again for the same inputs instead of asked again (onAnswer, recompute)
    const state = { ready: false, pending: new Map(), views: {}, compare: false, shown: {}, asked: {},
      shownViews: { 1: JSON.stringify(data.view) }, linkNotes: { 1: {}, 2: {} }, refusals: {} };
    const resultTemplate = document.createElement("template");
    // the build's markup, from the page's own data (trusted-types.js)
    resultTemplate.innerHTML = window.krTrustedTypes
      ? window.krTrustedTypes.createHTML(data.result_template) : data.result_template;

    // On a phone the form is long: a bar at the bottom keeps the first result figures in sight while
    // the player edits, and takes them to the full result.
    const summary = element("a", { class: "kr-calc__summary", href: "#kr-result-1", hidden: "", "data-state": "fresh" });
    root.querySelector('.kr-result[data-scenario="1"]').id = "kr-result-1";
    root.append(summary);
    function updateSummary() {
      const section = root.querySelector('.kr-result[data-scenario="1"]');
      summary.dataset.state = section.dataset.state;
      // The figures a player decides on: the chances, else the last figure (the expected count) and
      // the chance of at least one.
      const view = state.views["1"] || data.view;
      const chances = view.figures.filter((f) => f.kind === "probability").slice(0, 2);
      const shown = chances.length ? chances : view.figures.slice(-1);
      const parts = shown.map((f) => fill(data.ui.pair, { label: label(f.label), value: formatValue(f.value, f.kind) }));
      const row = !chances.length && view.tables.length ? view.tables[0].rows.find((r) => r[0] === 1) : null;
      if (row) parts.push(fill(data.ui.pair, { label: `${data.ui.at_least} 1`, value: numbers.percent(row[2]) }));
      const note = section.dataset.state === "fresh" ? [] : [element("span", { class: "kr-calc__summary-note", text: section.dataset.note || data.ui.computing })];
      summary.replaceChildren(...note, element("span", { class: "kr-calc__summary-figures", text: parts.join(" · ") }));
    }

    /** Says of one result whether its figures are for the inputs shown, and if not, why not; the
     * sticky bar, the difference and the status line follow. */
    function setResultState(scenario, value, note) {
      const section = root.querySelector(`.kr-result[data-scenario="${scenario}"]`);
      if (section.dataset.state === "empty" && value === "stale") return; // nothing shown to mark
      section.dataset.state = value;
      if (value === "fresh") delete section.dataset.note;
      else section.dataset.note = note;
      if (scenario === "1") updateSummary();
      const states = markBoxes();
      if (!state.ready && root.dataset.engineState === "loading") {
        status.textContent = states.every((s) => s === "fresh" || s === "empty") ? data.ui.loading : data.ui.loading_other;
      }
    }
    /** The difference and the charts draw on every result: greyed while an answer is awaited (the
     * charts also until they are drawn again); for invalid inputs (stale) framed, as the result is.
     * Returns the results' states. */
    function markBoxes() {
      const states = [...root.querySelectorAll(".kr-result")].map((result) => result.dataset.state);
      for (const box of root.querySelectorAll(".kr-calc__difference, .kr-calc__charts")) {
        const isCharts = box.classList.contains("kr-calc__charts");
        const waiting = states.includes("computing") || (charts.due && isCharts);
        // charts not drawn yet, far below the view: nothing shown, so nothing to mark
        box.dataset.state = isCharts && charts.due && !box.firstElementChild ? "empty"
          : waiting ? "computing" : states.includes("stale") ? "stale" : "fresh";
        if (box.dataset.state === "fresh" || box.dataset.state === "empty") delete box.dataset.note;
        else box.dataset.note = box.dataset.state === "computing" ? data.ui.computing : data.ui.stale;
      }
      return states;
    }

    // The charts lie below the figures, on a phone two screens or more below, and drawing them costs a
    // slow phone about 150 ms: an answer's charts are drawn once their box comes within a screen of the
    // view (at once when it is there already), and before printing. They are drawn in the task after a
    // frame: drawing reads the box's width, which lays out the whole page once the result has changed
    // (about 10 ms of a recompute's 50 on a phone-sized page), and the figures are what a player reads
    // first. Until then the charts box is marked as not yet for these inputs; far from the view it is
    // emptied instead, and marked empty.
    const charts = { due: false, scheduled: false, live: true, near: false };
    const chartsBox = root.querySelector(".kr-calc__charts");
    const chartsNear = new IntersectionObserver((entries) => {
      charts.near = entries[entries.length - 1].isIntersecting;
      if (charts.near && charts.due) drawChartsSoon();
    }, { rootMargin: "100% 0px" });
    if (chartsBox) chartsNear.observe(chartsBox);

    function chartsLater() {
      charts.due = true;
      const view = state.views["1"] || data.view;
      // a box shown, even empty, is one the observer can see coming: none is drawn for a view without tables
      if (chartsBox && view.tables.length) chartsBox.hidden = false;
      // far from the view, the charts of other inputs are taken away rather than kept, marked, until drawn
      if (chartsBox && !chartsBox.hidden && !charts.near) {
        chartsBox.__krResize?.disconnect();
        chartsBox.replaceChildren();
      }
      markBoxes();
      if (!chartsBox || chartsBox.hidden || charts.near) drawChartsSoon();
    }

    function drawChartsSoon() {
      if (charts.scheduled) return;
      charts.scheduled = true;
      requestAnimationFrame(() => setTimeout(() => {
        charts.scheduled = false;
        drawChartsNow();
      }));
    }

    function drawChartsNow() {
      if (!charts.live || !charts.due) return;
      charts.due = false;
      renderCharts();
      markBoxes();
    }
    window.addEventListener("beforeprint", drawChartsNow);

    if (window.krSteppers) window.krSteppers(root);
    // The bar goes only once the result's figures are all on screen (not as soon as the result's top
    // is: the figure a player decides on may still be below the fold); watched again after each
    // answer, which writes new figures.
    const inView = new IntersectionObserver((entries) => {
      summary.hidden = entries[entries.length - 1].intersectionRatio > 0.99;
    }, { threshold: [0, 0.99, 1] });
    function watchFigures() {
      inView.disconnect();
      const section = root.querySelector('.kr-result[data-scenario="1"]');
      inView.observe(section.querySelector(".kr-figures") || section);
    }
    watchFigures();
    updateSummary();
    chartsLater(); // when their box comes near the view: the charts lie below the figures
    window.__krCalc = state; // for figures only (tests and the benchmark read views and compute times)

    // ---- Inputs ---------------------------------------------------------------------------------
    const form = (scenario) => root.querySelector(`form[data-scenario="${scenario}"]`);
    const control = (scenario, name) => form(scenario).elements.namedItem(name);
    const errorOf = (scenario, name) => root.querySelector(`#s${scenario}-${name}-error`);

    /** The field's error (`message`, marking it invalid), else its note (`note`: what a link gave that it
     * could not show; the field's value is valid), else nothing. */
    function fieldError(param, message, scenario, note = "") {
      const box = errorOf(scenario, param.name);
      const input = control(scenario, param.name);
      box.textContent = message || note || "";
      if (message || note) {
        const folded = input.closest("details");
        if (folded) folded.open = true; // an error or a note is never hidden under "Modifiers and options"
      }
      if (message) {
        input.setAttribute("aria-invalid", "true");
      } else input.removeAttribute("aria-invalid");
    }

    // Occasional inputs fold under "Modifiers and options" on a narrow screen, unless one of them is set.
    function unfoldSetInputs(scenario) {
      for (const param of data.params) {
        const input = control(scenario, param.name);
        const folded = input.closest("details");
        if (!folded || folded.open) continue;
        const fallback = param.default == null ? ""
          : Array.isArray(param.default) ? param.default.join(",") : String(param.default);
        const set = param.kind === "bool" ? input.checked !== (param.default === true) : input.value.trim() !== fallback;
        if (set) folded.open = true;
      }
    }
    if (window.matchMedia("(min-width: 45em)").matches) root.querySelectorAll("details.kr-calc__more").forEach((d) => { d.open = true; });

    function readParam(param, scenario) {
      const input = control(scenario, param.name);
      if (param.kind === "bool") return { value: input.checked };
      const text = input.value.trim();
      // written only for an error message: a choice has no bounds, and numbers.js writes a missing
      // one through Intl, whose first formatter costs a phone about 60 ms
      const bounds = () => ({ minimum: numbers.decimal(param.minimum, 0), maximum: numbers.decimal(param.maximum, 0) }); // −10, not -10
      // A number field holding letters reports an empty value: say so rather than ignore it; so with a
      // link's letters, which the field could not hold.
      if (input.validity && input.validity.badInput) return { error: fill(data.ui.int, bounds()) };
      const linkNote = state.linkNotes[scenario][param.name];
      if (linkNote !== undefined && param.kind !== "choice") {
        return { error: fill(param.kind === "int" ? data.ui.int : data.ui.int_list, bounds()) };
      }
      if (text === "") {
        if (param.required) return { error: data.ui.required };
        return { omit: true };
      }
      if (param.kind === "choice") return { value: text };
      if (param.kind === "int") {
        const number = /^-?\d+$/.test(text) ? Number(text) : NaN;
        if (!Number.isInteger(number) || number < param.minimum || number > param.maximum) {
          return { error: fill(data.ui.int, bounds()) };
        }
        return { value: number };
      }
      const items = text.split(",").map((item) => item.trim());
      const listed = items.map((item) => (/^-?\d+$/.test(item) ? Number(item) : NaN));
      const ok = listed.every((n) => Number.isInteger(n) && n >= param.minimum && n <= param.maximum)
        && listed.length >= (param.min_length || 0)
        && (param.max_length == null || listed.length <= param.max_length);
      return ok ? { value: listed } : { error: fill(data.ui.int_list, bounds()) };
    }

    /** The scenario's inputs, or null when one is invalid; each field's error shown (`show`) at once, as
     * the player types: the engine is not asked about what the form can tell. */
    function readForm(scenario, show = true) {
      const reads = new Map(data.params.map((param) => [param, readParam(param, scenario)]));
      // inputs taken together or not at all (calculator_pages.TOGETHER): an empty one beside one given
      // is needed, as a required one is, and its error names the other
      for (const group of data.together || []) {
        const members = group.map((name) => data.params.find((p) => p.name === name)).filter(Boolean);
        const given = members.find((param) => reads.get(param).value !== undefined);
        if (!given) continue;
        for (const param of members) {
          if (reads.get(param).omit) reads.set(param, { error: fill(data.ui.needed_with, { field: quote(label(given.label)) }) });
        }
      }
      const inputs = {};
      let valid = true;
      for (const [param, read] of reads) {
        if (show) {
          const note = param.kind === "choice" && param.name in state.linkNotes[scenario]
            ? fill(data.ui.link_choice, { value: quote(state.linkNotes[scenario][param.name].slice(0, 40)) }) : "";
          fieldError(param, read.error, scenario, note);
        }
        if (read.error) valid = false;
        else if (!read.omit) inputs[param.name] = read.value;
      }
      return valid ? inputs : null;
    }

    function writeForm(scenario, values) {
      for (const param of data.params) {
        if (!(param.name in values)) continue;
        const input = control(scenario, param.name);
        const value = values[param.name];
        if (param.kind === "bool") input.checked = value === true || value === "true" || value === "1";
        else input.value = Array.isArray(value) ? value.join(",") : String(value);
      }
    }

    // ---- The URL holds the inputs: a shared link reproduces them ---------------------------------
    function toQuery() {
      const query = new URLSearchParams();
      const scenarios = state.compare ? ["1", "2"] : ["1"];
      for (const scenario of scenarios) {
        const prefix = scenario === "1" ? "" : "s2.";
        for (const param of data.params) {
          const input = control(scenario, param.name);
          const value = param.kind === "bool" ? (input.checked ? "1" : "") : input.value.trim();
          if (value !== "") query.set(prefix + param.name, value);
        }
      }
      if (state.compare) query.set("compare", "1");
      return query.toString().replace(/%2C/gi, ","); // lists read 2,2,2,1 in a shared link
    }

    function fromQuery() {
      // read as link-inputs.js read it when the page was parsed (it wrote the form already)
      const link = window.krLinkInputs ? window.krLinkInputs(window.location.search, data) : null;
      if (!link) return false;
      writeForm("1", link.first);
      noteLink("1", link.first, link.refused.first);
      unfoldSetInputs("1");
      if (link.compare) {
        writeForm("2", link.second);
        noteLink("2", link.second, link.refused.second);
        unfoldSetInputs("2");
        setCompare(true, false);
      }
      return true;
    }

    /** What the link gave that the form cannot show: a choice that is none of the field's (its field shows
     * the default, and says so), a number field's text that is no number (the field shows nothing: it is an
     * error, as letters typed there are). Kept until the player changes the field. */
    function noteLink(scenario, values, refused) {
      state.linkNotes[scenario] = { ...refused };
      for (const param of data.params) {
        const text = values[param.name];
        if (param.kind !== "int" || typeof text !== "string" || text.trim() === "") continue;
        if (control(scenario, param.name).value === "") state.linkNotes[scenario][param.name] = text.trim();
      }
    }

    // ---- Results ----------------------------------------------------------------------------------
    function formatValue(value, kind) {
      if (typeof value === "string") return label(data.choices[value] || value);
      if (typeof value === "boolean") return value ? "✓" : "–";
      // as calculator_pages.format_value (Numbers.figure)
      if (kind === "probability") return numbers.percent(value);
      if (kind === "modifier") return numbers.signed(Math.trunc(value));
      if (kind === "cm") return numbers.quantity(value, data.cm, 1);
      return numbers.decimal(value, data.numbers.figure_digits);
    }

    function elementImpl(tag, attributes = {}, children = []) {
      const node = document.createElement(tag);
      for (const [key, value] of Object.entries(attributes)) {
        if (key === "text") node.textContent = value;
        else node.setAttribute(key, value);
      }
      for (const child of children) node.append(child);
      return node;
    }

    // Links as Material's instant navigation leaves the page's own: absolute (served over HTTP), so
    // that a page opened in place never reads them against another page's address.
    const linkTo = (href) => (window.location.protocol === "file:" ? href : new URL(href, window.location.href).href);

    /** The result as the page shows it: the names and values `_calc_result.html.j2` reads. */
    function resultView(view) {
      return {
        figures: view.figures.map((figure) => ({ label: label(figure.label), text: formatValue(figure.value, figure.kind) })),
        tables: view.tables.map((table) => {
          const top = Math.max(...table.rows.map((row) => row[1])) || 1;
          return {
            title: label(table.title),
            outcome_label: label(table.outcome_label),
            rows: table.rows.map(([k, exactly, atLeast]) => ({
              k: numbers.decimal(k, 0), exactly: numbers.percent(exactly), at_least: numbers.percent(atLeast),
              bar: (100 * exactly / top).toFixed(1),
            })),
          };
        }),
        steps: view.steps.map((step) => ({
          label: label(step.label).replace(/\{(\w+)\}/g, (whole, name) =>
            (name in (step.label_numbers || {}) ? numbers.decimal(step.label_numbers[name], 0) : whole)),
          text: formatValue(step.value, step.kind), href: data.rules[step.rule] ? linkTo(data.rules[step.rule]) : "#",
        })),
      };
    }

    /**
     * A copy of the build's result template filled with `values`: every {name} in a text or an
     * attribute takes values[name]; each <template data-each="name"> becomes one filled copy of its
     * content per entry of values[name].
     */
    function fillResult(template, values) {
      const copy = template.content.cloneNode(true);
      const slot = (text) => text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
      const walker = document.createTreeWalker(copy, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) node.data = slot(node.data);
        else for (const attribute of node.attributes) attribute.value = slot(attribute.value);
      }
      // after the slots, so that a value holding "{name}" is never read as a slot
      for (const each of copy.querySelectorAll("template[data-each]")) {
        each.replaceWith(...values[each.dataset.each].map((entry) => fillResult(each, entry)));
      }
      return copy;
    }

    // An answer equal to the view a result shows (the engine's first answer, for the inputs the page
    // was built with) leaves the result and its charts as they are: writing them again costs a slow
    // phone's main thread about 130 ms and changes nothing.
    function renderResult(scenario, view) {
      state.views[scenario] = view;
      const text = JSON.stringify(view);
      const section = root.querySelector(`.kr-result[data-scenario="${scenario}"]`);
      if (state.shownViews[scenario] !== text) {
        state.shownViews[scenario] = text;
        chartsLater();
        const open = section.querySelector("details")?.open;
        section.replaceChildren(fillResult(resultTemplate, resultView(view)));
        if (open) section.querySelector("details").open = true;
        section.dataset.result = JSON.stringify(view.result);
      }
      if (scenario === "1") state.shownAt = performance.now(); // for the benchmark: figures on screen
      setResultState(scenario, "fresh");
      if (scenario === "1") {
        watchFigures();
        keepRecent();
      }
    }

    // The player's last calculations, one for each calculator, newest first, for the home page
    // (home.js): kept a moment after the figures settle, and only for inputs of the player's own.
    const RECENT_LIMIT = 6;
    let keepTimer = 0;
    function keepRecent() {
      clearTimeout(keepTimer);
      keepTimer = setTimeout(() => {
        const settings = window.krRoots && window.krRoots.settings;
        const inputs = readForm("1", false);
        if (!settings || !settings.storage || !inputs || JSON.stringify(inputs) === state.built) return;
        const heading = document.querySelector("article h1")?.cloneNode(true);
        heading?.querySelector(".headerlink")?.remove();
        const path = window.location.pathname.slice(window.krRoots.language.pathname.length);
        const figures = summary.querySelector(".kr-calc__summary-figures")?.textContent || "";
        const entry = { path, query: toQuery(), title: (heading?.textContent || data.calculator).trim(), figures, at: Date.now() };
        const key = `${settings.storage.recent}:${settings.lang}`;
        try {
          const kept = JSON.parse(window.localStorage.getItem(key) || "[]");
          const others = Array.isArray(kept) ? kept.filter((other) => other && other.path !== path) : [];
          window.localStorage.setItem(key, JSON.stringify([entry, ...others].slice(0, RECENT_LIMIT)));
        } catch {
          // a full or refused storage keeps nothing; the calculator works as before
        }
      }, 1000);
    }

    /** The "at least N" charts (chart.js) of the results shown: both scenarios' when comparing. */
    function renderCharts() {
      const box = root.querySelector(".kr-calc__charts");
      if (!box || !window.krChart) return;
      const shown = state.compare && state.views["2"] ? ["1", "2"] : ["1"];
      const views = shown.map((scenario) => state.views[scenario] || data.view);
      const charts = views[0].tables.map((table) => {
        const title = fill(data.ui.chart_title, { table: label(table.title) });
        const series = views
          .map((view, i) => ({ view, name: views.length > 1 ? (i ? data.ui.second : data.ui.first) : "" }))
          .map(({ view, name }) => ({ name, rows: view.tables.find((t) => t.title === table.title)?.rows }))
          .filter((entry) => entry.rows);
        return { title, label: title, outcome: label(table.outcome_label), series };
      });
      box.hidden = charts.length === 0;
      if (charts.length) window.krChart.draw(box, charts, chartFormat);
    }

    function renderDifference() {
      const box = root.querySelector(".kr-calc__difference");
      const first = state.views["1"], second = state.views["2"];
      if (!state.compare || !first || !second) { box.hidden = true; return; }
      const rows = first.figures
        .map((figure, i) => [figure, second.figures[i]])
        .filter(([a, b]) => b && typeof a.value === "number" && typeof b.value === "number" && a.key === b.key)
        .map(([a, b]) => {
          const delta = b.value - a.value;
          const text = a.kind === "probability"
            ? `${delta >= 0 ? data.numbers.plus : data.numbers.minus}${numbers.percent(Math.abs(delta))}`
            : `${delta >= 0 ? data.numbers.plus : data.numbers.minus}${numbers.decimal(Math.abs(delta), data.numbers.figure_digits)}`;
          return element("div", { class: "kr-figure" }, [element("dt", { text: label(a.label) }), element("dd", { text })]);
        });
      box.replaceChildren(element("h2", { class: "kr-calc__heading", text: data.ui.difference }), element("dl", { class: "kr-figures" }, rows));
      box.hidden = false;
    }

    // ---- The engine -------------------------------------------------------------------------------
    function ask(scenario, inputs) {
      const id = engine.next++; // one count per tab: an answer for a page left behind matches nothing
      state.pending.set(scenario, id);
      state.sentAt = performance.now();
      // sent first: the page marks its figures while the engine computes
      engine.worker.postMessage({ id, request: { calculator: data.calculator, inputs } });
      setResultState(scenario, "computing", data.ui.computing);
      return id;
    }

    // How far the engine's start is, under the status line, until it is ready (a slow phone waits
    // seconds for it): downloading, then starting; the results then say they are being computed.
    // (its line is in the page as built, empty until then: nothing below it moves when it fills)
    const progress = root.querySelector(".kr-calc__progress");
    function showProgress() {
      const text = !engine.ready && !engine.failed && engine.stage ? data.ui[`stage_${engine.stage}`] : "";
      if (progress) progress.textContent = text || "";
    }
    showProgress();

    function onAnswer(message) {
      if (message.stage) { showProgress(); return; }
      if (message.ready) { showProgress(); engineReady(); return; }
      if (message.failed && message.id === undefined) { engineFailed(); return; }
      const scenario = [...state.pending.entries()].find(([, id]) => id === message.id)?.[0];
      if (!scenario) return; // an answer to inputs that have changed since
      state.pending.delete(scenario);
      state.lastComputeMs = message.ms;
      state.lastRoundTripMs = performance.now() - state.sentAt;
      if (message.failed) { setResultState(scenario, "stale", data.ui.failed); status.textContent = data.ui.failed; return; }
      if (message.response.error) {
        // The engine names the rule's objection as a template: translate it, then fill it in.
        const { field, message: template, related, values, count } = message.response.error;
        const names = related.map((name) => {
          const param = data.params.find((p) => p.name === name);
          return param ? quote(label(param.label)) : name;
        });
        const forms = count !== undefined && data.plurals[template];
        const text = (forms ? plural(forms, values[count]) : label(template)).replace(/\{(\w+)\}/g, (whole, key) =>
          /^\d+$/.test(key) ? names[Number(key)] : (key in values ? numbers.decimal(values[key], data.numbers.figure_digits) : whole));
        const param = data.params.find((p) => p.name === field) || data.params[0];
        const refusal = { key: state.asked[scenario], param, text: fill(data.ui.rules, { message: text }) };
        state.refusals[scenario] = refusal;
        fieldError(param, refusal.text, scenario);
        markStale(scenario);
        return;
      }
      renderResult(scenario, message.response.view);
      renderDifference();
    }

    function engineReady() {
      state.ready = true;
      state.pending.clear(); // a replaced engine (replaceEngine) never answers what it was asked
      state.readyAt = performance.now();
      status.textContent = data.ui.ready;
      recompute();
      root.dataset.engineState = "ready";
      // startMs is the engine's own start, once per tab; reused says another page had started it.
      const detail = {
        calculator: data.calculator, readyAt: state.readyAt, startMs: engine.readyAt - engine.startedAt,
        reused: state.reused, timings: engine.timings,
      };
      document.dispatchEvent(new CustomEvent(ENGINE_READY, { detail }));
    }

    function engineFailed() {
      showProgress();
      status.textContent = data.ui.failed;
      root.dataset.engineState = "failed";
      for (const section of root.querySelectorAll('.kr-result[data-state="computing"]')) {
        setResultState(section.dataset.scenario, "stale", data.ui.failed);
      }
    }

    function markStale(scenario) {
      setResultState(scenario, "stale", data.ui.stale);
      root.querySelector(`.kr-result[data-scenario="${scenario}"]`).setAttribute("title", data.ui.stale);
    }

    function recompute(scenarios = state.compare ? ["1", "2"] : ["1"]) {
      for (const scenario of scenarios) {
        const inputs = readForm(scenario);
        if (!inputs) {
          delete state.asked[scenario];
          state.pending.delete(scenario); // an answer still on its way is for inputs no longer shown
          markStale(scenario);
          continue;
        }
        const section = root.querySelector(`.kr-result[data-scenario="${scenario}"]`);
        const key = JSON.stringify(inputs);
        // inputs the engine refused already (a field's "change" after its last "input"): its objection
        // stays shown, as the form's own errors do, rather than cleared until it answers again
        const refusal = state.refusals[scenario];
        if (refusal && refusal.key === key) {
          fieldError(refusal.param, refusal.text, scenario);
          markStale(scenario);
          continue;
        }
        section.removeAttribute("title");
        // the same inputs again (a field's "change" after its last "input"): asked already
        if (state.ready && state.asked[scenario] === key && (state.pending.has(scenario) || section.dataset.state === "fresh")) continue;
        if (state.ready) {
          state.asked[scenario] = key;
          ask(scenario, inputs);
        }
        // until the engine answers, the figures shown are for other inputs, unless they are these
        else if (JSON.stringify(inputs) === state.shown[scenario]) setResultState(scenario, "fresh");
        else setResultState(scenario, "computing", data.ui.computing);
      }
      // the address last, while the engine computes (it costs a few ms); history.state holds
      // Material's scroll position for the back button: kept
      if (window.location.protocol !== "file:") history.replaceState(history.state, "", `?${toQuery()}${window.location.hash}`);
    }

    function setCompare(on, compute = true) {
      state.compare = on;
      const second = root.querySelector('.kr-calc__scenario[data-scenario="2"]');
      second.hidden = !on;
      root.querySelector(".kr-calc__compare").textContent = on ? data.ui.uncompare : data.ui.compare;
      root.classList.toggle("kr-calc--compare", on);
      if (on && compute) {
        const values = {};
        for (const param of data.params) {
          const input = control("1", param.name);
          values[param.name] = param.kind === "bool" ? input.checked : input.value;
        }
        writeForm("2", values);
        unfoldSetInputs("2");
      }
      if (!on) root.querySelector(".kr-calc__difference").hidden = true;
      chartsLater();
      if (compute) recompute();
    }

    // A worked example's link names it ("example=kensei.shooting-dice--four-archers"): the page says where
    // the inputs come from (the rules' own example, with its source, or one written for this reference)
    // until the player changes one.
    function showExampleOrigin() {
      const key = new URLSearchParams(window.location.search).get("example");
      const notice = [...root.querySelectorAll(".kr-calc__example")].find((p) => p.dataset.example === key);
      if (!key || !notice) return;
      notice.hidden = false;
      const hide = () => { notice.hidden = true; };
      for (const scenario of ["1", "2"]) form(scenario).addEventListener("input", hide, { once: true });
    }

    // ---- Wiring -----------------------------------------------------------------------------------
    // a field the player changes no longer shows what the link gave it
    const changed = (scenario) => (event) => {
      if (event.target && event.target.name) delete state.linkNotes[scenario][event.target.name];
      recompute([scenario]);
    };
    for (const scenario of ["1", "2"]) {
      form(scenario).addEventListener("input", changed(scenario));
      form(scenario).addEventListener("change", changed(scenario));
      form(scenario).addEventListener("submit", (event) => event.preventDefault());
    }
    root.querySelector(".kr-calc__compare").addEventListener("click", () => setCompare(!state.compare));
    root.querySelector(".kr-calc__share").addEventListener("click", async (event) => {
      try { await navigator.clipboard.writeText(window.location.href); event.target.textContent = data.ui.copied; }
      catch { window.prompt(data.ui.share, window.location.href); }
    });

    // the inputs the build's result is for: the form as built (link-inputs.js may have written a
    // link's inputs into it already: its reset gives the built values back, and the link's follow)
    if (root.dataset.linkApplied) form("1").reset();
    state.shown["1"] = JSON.stringify(readForm("1"));
    state.built = state.shown["1"]; // the page's default scenario: no calculation of the player's
    showExampleOrigin(); // before the link's inputs are read and the address rewritten without its "example"
    const linked = fromQuery();
    if (linked) recompute(); // (the engine is not ready: this marks what the link changed)
    if (window.location.protocol === "file:") {
      status.textContent = data.ui.offline_file;
      root.dataset.engineState = "unavailable";
      return () => inView.disconnect();
    }
    // The engine runs already when an earlier page of the tab started it (a calculator, or a page idle
    // without one). On the document's first page, engine-start.js started it as the parser met a link's
    // inputs. Otherwise the page's figures are the build's, exact, for the inputs shown: the engine is
    // needed once the player changes one, and starts when the page has loaded and is idle, or at the
    // player's first touch of the calculator if sooner. Started while the page loads, its compile takes
    // the processor from the page's own scripts (a phone-sized page's Material script ran about 40 %
    // longer beside it, on two cores).
    state.reused = pagesShown > 1 && Boolean(engine.worker);
    engine.listeners.add(onAnswer);
    const folder = new URL(root.dataset.engine, window.location.href);
    const touches = ["pointerdown", "focusin", "keydown"];
    let waiting = !(engine.worker || engine.failed || linked || pagesShown > 1);
    function startNow() {
      if (!waiting) return;
      waiting = false;
      for (const type of touches) root.removeEventListener(type, startNow, true);
      startEngine(folder);
      if (engine.failed) engineFailed();
    }
    if (waiting) {
      for (const type of touches) root.addEventListener(type, startNow, true);
      window.krIdle(startNow);
    } else {
      startEngine(folder);
    }
    if (engine.ready) engineReady();
    else if (engine.failed) engineFailed();
    return () => {
      waiting = false; // the next page starts it (or has it running)
      for (const type of touches) root.removeEventListener(type, startNow, true);
      clearTimeout(keepTimer);
      charts.live = false;
      chartsNear.disconnect();
      window.removeEventListener("beforeprint", drawChartsNow);
      engine.listeners.delete(onAnswer);
      inView.disconnect();
      root.querySelector(".kr-calc__charts")?.__krResize?.disconnect();
    };
  }
})();
