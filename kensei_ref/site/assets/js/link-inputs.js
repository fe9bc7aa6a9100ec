// A shared link's inputs, read as soon as the parser meets them: this script sits right after the
// calculator's form and data, written into the page (templates/calculator.md.j2, INLINE_SCRIPTS in
// kensei_ref/site/__init__.py), while the engine and the page's own
// scripts come seconds later on a slow phone. It writes the link's inputs into the form at once and
// marks the figures the build wrote (the page's default scenario) as not yet for them, so that no
// figure is read as the answer to a link it was not computed for. calculator.js reads the link with
// the same function (window.krLinkInputs) and computes the figures: the site's scripts load this file
// too, before calculator.js, since a calculator opened in place is wired before its page's own
// scripts have run.
(() => {
  "use strict";

  /** The inputs a link's query gives for each scenario, or null when it names none of the
   * calculator's parameters (a search result's "h" is no input). A parameter absent from the link
   * takes the calculator's default, or the page's where the calculator has none and the field must
   * not stay empty; of inputs the calculator takes exactly one of, a link giving none takes the
   * page's; an input given with its partner only takes the value it then has (calculator_pages's
   * LINK_COMPANIONS). Values are as typed in the link (strings; "1" or "true" for a checked box), but
   * for a choice the link names that is none of the field's: it takes the value it would take were it
   * left out (a select never shows a blank), and `refused` keeps what the link said, by scenario and
   * name, for calculator.js to show under the field. */
  function linkInputs(search, data) {
    const query = new URLSearchParams(search);
    const names = new Set(data.params.map((param) => param.name));
    if (![...query.keys()].some((key) => names.has(key.replace(/^s2\./, "")))) return null;
    const given = (key) => query.has(key) && query.get(key).trim() !== "";
    const fallback = (param) => {
      const value = param.required && param.name in data.defaults ? data.defaults[param.name] : param.default;
      return value == null ? "" : value;
    };
    const refused = { first: {}, second: {} };
    const read = (prefix, scenario) => {
      const values = {};
      for (const param of data.params) {
        const key = prefix + param.name;
        const text = given(key) ? query.get(key).trim() : null;
        if (param.kind === "bool") values[param.name] = query.get(key) === "1" || query.get(key) === "true";
        else if (param.kind === "choice" && text !== null) {
          if (!param.choices.includes(text)) refused[scenario][param.name] = text;
          values[param.name] = param.choices.includes(text) ? text : fallback(param);
        } else values[param.name] = text !== null ? query.get(key) : fallback(param);
      }
      for (const group of data.one_of) {
        if (group.some((name) => given(prefix + name))) continue;
        for (const name of group) if (name in data.defaults) values[name] = data.defaults[name];
      }
      // an input left out beside its partner: the value it then has (models of one Wound each)
      for (const [name, [partner, value]] of Object.entries(data.companions || {})) {
        if (!given(prefix + name) && given(prefix + partner)) values[name] = value;
      }
      return values;
    };
    return { first: read("", "first"), second: read("s2.", "second"), compare: query.get("compare") === "1", refused };
  }
  window.krLinkInputs = linkInputs;

  /** ``values`` into a scenario's form, as calculator.js writes them. */
  function writeForm(form, params, values) {
    for (const param of params) {
      const input = form.elements.namedItem(param.name);
      if (!input || !(param.name in values)) continue;
      const value = values[param.name];
      if (param.kind === "bool") input.checked = value === true || value === "true" || value === "1";
      else input.value = Array.isArray(value) ? value.join(",") : String(value);
    }
  }

  const root = document.currentScript && document.currentScript.closest(".kr-calc");
  const holder = root && root.querySelector(".kr-calc__data");
  // A page opened in place runs its scripts again, maybe after calculator.js has taken the page over:
  // it has read the link then, and its marks are the ones that hold.
  if (!holder || root.dataset.linkApplied || root.dataset.mounted) return;
  let data;
  try {
    data = JSON.parse(holder.dataset.json);
  } catch {
    return; // calculator.js says what is wrong
  }
  const link = linkInputs(window.location.search, data);
  if (!link) return;
  root.dataset.linkApplied = "1";
  writeForm(root.querySelector('form[data-scenario="1"]'), data.params, link.first);
  window.__krLinkInputsAt = performance.now(); // for the benchmark: the link's inputs on screen
  const result = root.querySelector('.kr-result[data-scenario="1"]');
  result.dataset.state = "computing";
  result.dataset.note = data.ui.computing;
  const status = root.querySelector(".kr-calc__status");
  if (status) status.textContent = data.ui.loading_other;
})();
