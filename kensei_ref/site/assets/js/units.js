// A player's units: the "My units" page, the orders advisor's page, and the "Your unit" / "Enemy unit"
// pickers of the calculator pages.
//
// The units live in localStorage under data.storage, as the same JSON as an exported file
// (calculators/profiles.py: {"format", "version", "units"}). What is stored is untrusted: every use
// goes through the engine (calculator.js's window.krAsk, calculators/presentation.py's units_answer),
// which validates the units again with the calculators' own declarations. Names and values are only
// ever written as text, never as markup.
(() => {
  "use strict";

  const element = (tag, attributes = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  };
  const fill = (template, values) => template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  // A message whose words follow a count comes as its forms by CLDR plural category (the catalog's own
  // forms, kensei_ref/languages.py's plural_forms): the browser's plural rules pick one.
  const plural = (data, forms, count) => forms[new Intl.PluralRules(data.lang).select(count)] ?? forms.other;

  // ---- The units saved on this device -------------------------------------------------------------
  function stored(data) {
    try {
      const file = JSON.parse(window.localStorage.getItem(data.storage) || "null");
      return file && Array.isArray(file.units) ? file.units.filter((unit) => unit && typeof unit === "object") : [];
    } catch {
      return [];
    }
  }
  const fileOf = (data, units) => ({ format: data.format, version: data.version, units });
  /** Saves `units` on the device: false when the device refuses them (its storage full, or storage
   * refused to the site), and the units saved before stay as they were. */
  function store(data, units) {
    try {
      window.localStorage.setItem(data.storage, JSON.stringify(fileOf(data, units)));
      return true;
    } catch {
      return false;
    }
  }
  const nameOf = (unit) => (typeof unit.name === "string" ? unit.name : "?");

  /** How deep lists and objects nest in JSON `text`, counted as the engine counts before it parses
   * (calculators/json_nesting.py): brackets in strings do not count. */
  function nestingDepth(text) {
    let depth = 0;
    let deepest = 0;
    let inString = false;
    for (let i = 0; i < text.length; i += 1) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i += 1;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "[" || c === "{") deepest = Math.max(deepest, ++depth);
      else if (c === "]" || c === "}") depth -= 1;
    }
    return deepest;
  }

  /** The engine's answer to `request`, or {error} / {failed} (calculators/presentation.py). */
  async function ask(request) {
    if (typeof window.krAsk !== "function") return { failed: true };
    try {
      return await window.krAsk(request);
    } catch {
      return { failed: true };
    }
  }

  /** `work` run by the function returned, one run at a time: asked again while a run waits for the engine,
   * it runs once more when that run ends, with the inputs as they are then, however often it was asked
   * meanwhile. The advisor or the plan of large units takes seconds on a phone: one computation per
   * keystroke would each wait for the one before. `work(changed)` is given a function that says whether it
   * was asked again since it began: its answer is then not shown (it is for inputs the page no longer has). */
  function latestOnly(work) {
    let running = false;
    let again = false;
    const run = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        await work(() => again);
      } finally {
        running = false;
      }
      if (again) {
        again = false;
        run();
      }
    };
    return run;
  }

  /** An engine error in the page's language: the field's own rule (from its declaration), else the
   * engine's message translated when the catalog has it. */
  function errorText(data, error, params) {
    const match = /^(?:units\[(\d+)\]\.|mine\.|enemy\.)?(\w+)$/.exec(error.field || "");
    const name = match ? match[2] : error.field;
    const param = params.find((p) => p.name === name);
    let message;
    // a field's own bounds, in the page's words; a rule across fields or files (0 cm is contact, the 5 cm
    // rule, more Wounds than the profile) comes translated from its template
    if (param && param.kind && (data.bounds || []).includes(error.message)) message = allowedText(data, param);
    else {
      const names = (error.related || []).map((other) => {
        const found = params.find((p) => p.name === other);
        return found ? `${data.quotes[0]}${found.label}${data.quotes[1]}` : other; // as the language quotes
      });
      const forms = error.count !== undefined && data.plurals && data.plurals[error.message];
      message = forms ? plural(data, forms, error.values[error.count]) : (data.labels && data.labels[error.message]) || error.message;
      message = message.replace(/\{(\w+)\}/g, (whole, key) =>
        /^\d+$/.test(key) ? names[Number(key)] ?? whole : key in (error.values || {}) ? String(error.values[key]) : whole);
      if (param && param.kind) message = fill(data.ui.rules, { message });
    }
    const label = param ? param.label : name;
    const where = match && match[1] !== undefined ? fill(data.ui.unit_field, { number: Number(match[1]) + 1, field: label }) : label;
    return fill(data.ui.labelled, { label: where, text: message }); // French spaces the colon
  }

  function allowedText(data, param) {
    if (param.kind === "int") return fill(data.ui.int, param);
    if (param.kind === "int_list") return fill(data.ui.int_list, param);
    if (param.kind === "choice") return data.ui.choice;
    return data.ui.required;
  }

  // ---- Form fields from the declarations ------------------------------------------------------------
  function fieldControl(param, id, value) {
    if (param.kind === "bool") {
      return element("input", { type: "checkbox", id, name: param.name, checked: value === true });
    }
    if (param.kind === "choice") {
      const select = element("select", { id, name: param.name });
      if (!param.required && param.default === null) select.append(element("option", { value: "", text: "–" }));
      for (const option of param.options) {
        select.append(element("option", { value: option.value, text: option.text, selected: option.value === value }));
      }
      return select;
    }
    const text = value === null || value === undefined ? "" : Array.isArray(value) ? value.join(",") : String(value);
    if (param.kind === "text") return element("input", { type: "text", id, name: param.name, value: text, maxlength: param.max_length });
    if (param.kind === "int") {
      return element("input", { type: "number", inputmode: "numeric", step: "1", id, name: param.name, value: text,
        min: param.minimum, max: param.maximum });
    }
    return element("input", { type: "text", inputmode: "numeric", id, name: param.name, value: text, placeholder: "2,2,1" });
  }

  function fieldBlock(param, prefix, value) {
    const id = `${prefix}-${param.name}`;
    const control = fieldControl(param, id, value);
    control.setAttribute("aria-describedby", `${id}-help ${id}-error`);
    const help = element("small", { class: "kr-field__help", id: `${id}-help`, text: param.help });
    if (param.rule_href) help.append(" ", element("a", { href: param.rule_href, text: "§" }));
    const label = param.kind === "bool"
      ? element("label", { class: "kr-field__check" }, [control, ` ${param.label}`])
      : element("label", { for: id, text: param.label });
    return element("div", { class: `kr-field kr-field--${param.kind}`, "data-param": param.name },
      [label, param.kind === "bool" ? null : control, help, element("p", { class: "kr-field__error", id: `${id}-error`, role: "alert" })]);
  }

  /** One field's value as typed: {value}, {omit} or {error} (the calculators' own grammar: ASCII digits). */
  function readField(data, form, param) {
    const input = form.elements.namedItem(param.name);
    if (!input) return { omit: true };
    if (param.kind === "bool") return { value: input.checked };
    const text = input.value.trim();
    if (input.validity && input.validity.badInput) return { error: allowedText(data, param) };
    if (text === "") return param.required ? { error: data.ui.required } : { omit: true };
    if (param.kind === "choice") return param.choices.includes(text) ? { value: text } : { error: data.ui.choice };
    const numbers = (param.kind === "int" ? [text] : text.split(",")).map((item) => item.trim())
      .map((item) => (/^-?\d+$/.test(item) ? Number(item) : NaN));
    const ok = numbers.every((n) => Number.isInteger(n) && n >= param.minimum && n <= param.maximum)
      && (param.kind === "int" || (numbers.length >= (param.min_length || 0) && numbers.length <= (param.max_length ?? Infinity)));
    if (!ok) return { error: allowedText(data, param) };
    return { value: param.kind === "int" ? numbers[0] : numbers };
  }

  function readFields(data, form, params) {
    const values = {};
    let valid = true;
    for (const param of params) {
      const read = readField(data, form, param);
      showError(form, param.name, read.error);
      if (read.error) valid = false;
      else if (!read.omit) values[param.name] = read.value;
    }
    return valid ? values : null;
  }

  function showError(form, name, message) {
    const block = form.querySelector(`[data-param="${name}"]`);
    if (!block) return false;
    block.querySelector(".kr-field__error").textContent = message || "";
    const input = form.elements.namedItem(name);
    if (input && message) input.setAttribute("aria-invalid", "true");
    else if (input) input.removeAttribute("aria-invalid");
    return true;
  }

  // ---- The "My units" page --------------------------------------------------------------------------
  function unitsPage(root, data) {
    const list = root.querySelector(".kr-units__list");
    const form = root.querySelector(".kr-units__form");
    const status = root.querySelector(".kr-units__status");
    const say = (text) => { status.textContent = text; };
    let editing = null; // the index of the unit in the form, or -1 for a new one

    function render() {
      const units = stored(data);
      list.replaceChildren(...units.map((unit, index) => {
        const game = data.games.find((g) => g.value === unit.game);
        const facts = [game ? game.text : "?", typeLabel(unit)].filter(Boolean).join(" · ");
        return element("li", { class: "kr-units__item" }, [
          element("strong", { class: "kr-units__name", text: nameOf(unit) }),
          element("span", { class: "kr-units__facts", text: facts }),
          button(data.ui.edit, () => openForm(index, unit)),
          button(data.ui.duplicate, () => duplicate(index)),
          button(data.ui.delete, () => remove(index)),
        ]);
      }));
      if (!units.length) list.replaceChildren(element("li", { class: "kr-units__empty", text: data.ui.none }));
    }
    const button = (text, onClick) => {
      const node = element("button", { type: "button", class: "md-button kr-units__button", text });
      node.addEventListener("click", onClick);
      return node;
    };
    function typeLabel(unit) {
      const param = (data.units[unit.game] || []).find((p) => p.name === "unit_type");
      const option = param && param.options.find((o) => o.value === unit.unit_type);
      return option ? option.text : "";
    }

    function openForm(index, unit) {
      editing = index;
      const game = unit.game in data.units ? unit.game : data.games[0].value;
      const gameParam = { name: "game", kind: "choice", label: data.ui.game, help: "", required: true,
        choices: data.games.map((g) => g.value), options: data.games };
      const nameParam = { name: "name", kind: "text", label: data.ui.name, help: "", required: true, max_length: data.max_name };
      const nameBlock = fieldBlock(nameParam, "u", unit.name || "");
      const nameInput = nameBlock.querySelector("input");
      const starting = data.form_defaults[game] || {};
      const valueOf = (param) => unit[param.name] ?? starting[param.name] ?? param.default;
      const fields = data.units[game].flatMap((param) => (param.name === "wounds"
        ? woundsBlocks(param, unit.wounds, starting) : [fieldBlock(param, "u", valueOf(param))]));
      const save = element("button", { type: "submit", class: "md-button md-button--primary", text: data.ui.save });
      const cancel = button(data.ui.cancel, closeForm);
      form.replaceChildren(nameBlock, fieldBlock(gameParam, "u", game), ...fields, element("div", { class: "kr-units__actions" }, [save, cancel]));
      if (window.krSteppers) window.krSteppers(form);
      const mixed = form.elements.namedItem("mixed");
      if (mixed) {
        const follow = () => {
          for (const block of form.querySelectorAll('[data-wounds="count"]')) block.hidden = mixed.checked;
          for (const block of form.querySelectorAll('[data-wounds="list"]')) block.hidden = !mixed.checked;
        };
        mixed.addEventListener("change", follow);
        follow();
      }
      // what is typed survives a change of Game, and a change back (this form's unit holds it all)
      form.elements.namedItem("game").addEventListener("change", (event) => {
        openForm(index, { ...unit, ...readLoosely(), game: event.target.value });
      });
      form.hidden = false;
      nameInput.focus();
    }

    /** A Kensei unit's Wounds as most units are, "models × Wounds each", or model by model for a
     * mixed unit (the profile keeps the list either way). */
    function woundsBlocks(param, wounds, starting) {
      const list = Array.isArray(wounds) ? wounds : typeof wounds === "string" ? wounds.split(",").map(Number) : null;
      const uniform = list && list.length > 0 && list.every((w) => w === list[0]);
      const models = { name: "models", kind: "int", label: data.ui.models, help: data.ui.models_help, required: true,
        minimum: 1, maximum: data.max_models };
      const each = { name: "wounds_each", kind: "int", label: data.ui.wounds_each, help: data.ui.wounds_each_help,
        required: true, minimum: param.minimum, maximum: param.maximum };
      const mixed = { name: "mixed", kind: "bool", label: data.ui.mixed, help: data.ui.mixed_help };
      const blocks = [
        fieldBlock(models, "u", uniform ? list.length : starting.models),
        fieldBlock(each, "u", uniform ? list[0] : starting.wounds_each),
        fieldBlock(mixed, "u", Boolean(list && list.length && !uniform)),
        fieldBlock(param, "u", list && list.length ? list.join(",") : ""),
      ];
      ["count", "count", "mixed", "list"].forEach((kind, i) => { blocks[i].dataset.wounds = kind; });
      return blocks;
    }
    const WOUNDS_PARAMS = () => {
      const wounds = data.units.kensei.find((p) => p.name === "wounds");
      return [
        { name: "models", kind: "int", required: true, minimum: 1, maximum: data.max_models },
        { name: "wounds_each", kind: "int", required: true, minimum: wounds.minimum, maximum: wounds.maximum },
      ];
    };
    /** The Wounds list from "models × Wounds each" when the unit is not mixed (written into the list
     * field, which the profile keeps); false when either count is refused (shown at its field). */
    function writeWounds() {
      const mixed = form.elements.namedItem("mixed");
      if (!mixed || mixed.checked) return true;
      const counts = readFields(data, form, WOUNDS_PARAMS());
      if (!counts) return false;
      form.elements.namedItem("wounds").value = Array(counts.models).fill(counts.wounds_each).join(",");
      return true;
    }
    function closeForm() { form.hidden = true; form.replaceChildren(); editing = null; }
    /** Everything typed so far, as the fields hold it: a change of Game keeps what the other game's
     * form has too (the name, and fields of the same name). */
    function readLoosely() {
      writeWounds();
      const values = {};
      for (const input of form.elements) {
        if (!input.name || input.name === "game") continue;
        values[input.name] = input.type === "checkbox" ? input.checked : input.value;
      }
      if (typeof values.wounds === "string") values.wounds = values.wounds === "" ? undefined : values.wounds;
      return values;
    }

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const game = form.elements.namedItem("game").value;
      const params = data.units[game];
      const name = form.elements.namedItem("name").value.trim();
      showError(form, "name", name ? "" : data.ui.required);
      if (!writeWounds()) return;
      const values = readFields(data, form, params);
      if (!values || !name) return;
      const unit = { name, game, ...values };
      const units = stored(data);
      const others = units.filter((_, i) => i !== editing);
      const next = editing >= 0 ? units.map((u, i) => (i === editing ? unit : u)) : [...others, unit];
      say(data.ui.working);
      const answer = await ask({ units: JSON.stringify(fileOf(data, next)) });
      if (answer.failed) { say(data.ui.failed); return; }
      if (answer.error) {
        let field = answer.error.field.replace(/^units\[\d+\]\./, "");
        const text = errorText(data, answer.error, [...params, { name: "name", label: data.ui.name }]);
        const mixed = form.elements.namedItem("mixed");
        if (field === "wounds" && mixed && !mixed.checked) field = "models"; // the list is hidden: the count made it
        if (!showError(form, field, text)) say(text);
        else say("");
        return;
      }
      if (!store(data, answer.units)) { say(data.ui.full); return; }
      closeForm();
      render();
      say(fill(data.ui.saved, { name }));
    });

    function duplicate(index) {
      const units = stored(data);
      const names = new Set(units.map((u) => nameOf(u).toLowerCase()));
      let name = fill(data.ui.copy_suffix, { name: nameOf(units[index]) });
      for (let n = 2; names.has(name.toLowerCase()); n += 1) name = `${fill(data.ui.copy_suffix, { name: nameOf(units[index]) })} ${n}`;
      openForm(-1, { ...units[index], name: name.slice(0, data.max_name) });
    }
    function remove(index) {
      const units = stored(data);
      const [gone] = units.splice(index, 1);
      if (!store(data, units)) { say(data.ui.full); return; }
      render();
      say(fill(data.ui.deleted, { name: nameOf(gone) }));
    }

    /** Units from a file or a link: validated by the engine, then added (a unit of the same name is
     * replaced); nothing saved changes when the file is refused. Whether they were saved. */
    async function importText(text) {
      const depth = nestingDepth(text);
      if (depth > data.max_nesting) {
        const error = { field: "units", message: data.nesting, values: { most: data.max_nesting, depth } };
        say(fill(data.ui.refused, { message: errorText(data, error, []) }));
        return false;
      }
      say(data.ui.working);
      const answer = await ask({ units: text });
      if (answer.failed) { say(data.ui.failed); return false; }
      if (answer.error) {
        const params = Object.values(data.units).flat();
        say(fill(data.ui.refused, { message: errorText(data, answer.error, [...params, { name: "name", label: data.ui.name }]) }));
        return false;
      }
      const incoming = answer.units;
      const names = new Set(incoming.map((u) => u.name.toLowerCase()));
      const kept = stored(data).filter((u) => !names.has(nameOf(u).toLowerCase()));
      const merged = await ask({ units: JSON.stringify(fileOf(data, [...kept, ...incoming])) });
      if (merged.error || merged.failed) { say(fill(data.ui.refused, { message: merged.error ? errorText(data, merged.error, []) : data.ui.failed })); return false; }
      if (!store(data, merged.units)) { say(data.ui.full); return false; }
      render();
      say(fill(plural(data, data.ui.imported, incoming.length), { count: incoming.length }));
      return true;
    }

    root.querySelector(".kr-units__new").addEventListener("click", () => openForm(-1, { game: data.games[0].value }));
    root.querySelector(".kr-units__export").addEventListener("click", () => {
      const blob = new Blob([JSON.stringify(fileOf(data, stored(data)), null, 1)], { type: "application/json" });
      const link = element("a", { href: URL.createObjectURL(blob), download: "kensei-units.json" });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    });
    const picker = root.querySelector(".kr-units__import input");
    picker.addEventListener("change", async () => {
      const file = picker.files && picker.files[0];
      picker.value = "";
      if (!file) return;
      // more bytes than a units file may have characters: refused unread, naming the file and the bound
      if (file.size > data.max_file) {
        const error = { field: "units", message: data.file_too_long, count: "most", values: { most: data.max_file } };
        // the file's name and the refusal joined as the language joins a label and its text
        say(fill(data.ui.refused, { message: fill(data.ui.labelled, { label: file.name, text: errorText(data, error, []) }) }));
        return;
      }
      await importText(await file.text());
    });
    root.querySelector(".kr-units__share").addEventListener("click", async (event) => {
      const json = JSON.stringify(fileOf(data, stored(data)));
      const bytes = new TextEncoder().encode(json);
      const encoded = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      const url = `${window.location.origin}${window.location.pathname}#units=${encoded}`;
      try { await navigator.clipboard.writeText(url); event.target.textContent = data.ui.copied; }
      catch { window.prompt(data.ui.share, url); }
    });

    // A shared link: #units=<base64url JSON>; the player confirms before anything is saved.
    const shared = /^#units=([A-Za-z0-9_-]{1,1400000})$/.exec(window.location.hash);
    if (shared) {
      let text = "";
      try {
        const binary = atob(shared[1].replace(/-/g, "+").replace(/_/g, "/"));
        text = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
      } catch { text = ""; }
      let count = 0;
      try { count = JSON.parse(text).units.length; } catch { count = 0; }
      // the button stays until the units are saved: a full storage, once freed, can take them
      const keep = button(data.ui.keep, async () => {
        keep.disabled = true;
        if (!(await importText(text))) { keep.disabled = false; return; }
        keep.remove();
        history.replaceState(history.state, "", window.location.pathname);
      });
      say(fill(plural(data, data.ui.shared, count), { count }));
      status.after(keep);
    }
    render();
  }

  // ---- Pickers: your unit and the enemy unit ------------------------------------------------------
  /** Rows of units to tap (radio buttons), one per side ("mine", "enemy"); `onPick(mine, enemy, chosen)`
   * with the units chosen. Only units of `game` are offered, when given. */
  function pickers(box, data, onPick, remembered, { game = null, sides = ["mine", "enemy"] } = {}) {
    const units = stored(data).filter((unit) => game === null || unit.game === game);
    if (!units.length) {
      box.replaceChildren(element("p", { class: "kr-units__hint" }, [
        `${data.ui.no_units} `, element("a", { href: data.units_page, text: data.ui.units_page })]));
      return null;
    }
    const chosen = { mine: remembered.mine ?? 0, enemy: remembered.enemy ?? Math.min(1, units.length - 1) };
    const row = (side) => element("fieldset", { class: "kr-units__pick" }, [
      element("legend", { text: data.ui[side] }),
      ...units.map((unit, index) => {
        const input = element("input", { type: "radio", name: `kr-${side}`, value: String(index), checked: index === chosen[side] });
        input.addEventListener("change", () => { chosen[side] = index; onPick(units[chosen.mine], units[chosen.enemy], chosen); });
        return element("label", { class: "kr-units__chip" }, [input, element("span", { text: nameOf(unit) })]);
      }),
    ]);
    box.replaceChildren(...sides.map(row));
    return { units, chosen };
  }

  // ---- The orders advisor ---------------------------------------------------------------------------
  function advisorPage(root, data) {
    const form = root.querySelector(".kr-advisor__form");
    const status = root.querySelector(".kr-advisor__status");
    const result = root.querySelector(".kr-advisor__result");
    const numbers = window.krNumbers(data.numbers); // as kensei-ref advise writes them (numbers.js)
    let remembered = JSON.parse(window.sessionStorage.getItem("kensei-ref:advisor") || "{}");
    let pair = null;
    let asked = 0;

    // The advisor's inputs live in its address, as a calculator's do: a shared or bookmarked advisor
    // opens with the same situation, and the same two units when this device holds units of those
    // names. An address without them (every one before) opens as it always did.
    const query = new URLSearchParams(window.location.search);
    const fromAddress = (p) => (p.kind === "bool" ? ["1", "true"].includes(query.get(p.name)) : query.get(p.name));
    const kensei = stored(data).filter((unit) => unit.game === "kensei");
    const named = (side) => kensei.findIndex((unit) => nameOf(unit) === query.get(side));
    if (named("mine") >= 0 && named("enemy") >= 0) remembered = { mine: named("mine"), enemy: named("enemy") };

    const main = data.params.filter((p) => ["distance", "enemy_cover", "objective"].includes(p.name));
    const more = data.params.filter((p) => !main.includes(p));
    const value = (p) => (query.has(p.name) ? fromAddress(p) : p.name in data.defaults ? data.defaults[p.name] : p.default);
    form.replaceChildren(
      element("fieldset", { class: "kr-calc__group" }, [element("legend", { text: data.ui.situation }), ...main.map((p) => fieldBlock(p, "a", value(p)))]),
      element("details", { class: "kr-calc__more" }, [element("summary", { text: data.ui.more }), ...more.map((p) => fieldBlock(p, "a", value(p)))]),
    );
    if (window.krSteppers) window.krSteppers(form);

    const picked = pickers(root.querySelector(".kr-advisor__pickers"), data, (mine, enemy, chosen) => {
      pair = [mine, enemy];
      window.sessionStorage.setItem("kensei-ref:advisor", JSON.stringify(chosen));
      compute();
    }, remembered, { game: "kensei" });
    if (picked) pair = [picked.units[picked.chosen.mine], picked.units[picked.chosen.enemy]];

    const compute = latestOnly(async (changed) => {
      const situation = readFields(data, form, data.params);
      if (!pair) return;
      if (!situation) { // the field says what is wrong; the table shown is for the last valid inputs
        root.dataset.state = "stale";
        status.textContent = result.childElementCount ? data.ui.stale : "";
        return;
      }
      const id = ++asked;
      root.dataset.state = "computing";
      status.textContent = data.ui.computing;
      const sent = performance.now();
      const answer = await ask({ advise: { mine: pair[0], enemy: pair[1], situation } });
      const roundTripMs = performance.now() - sent;
      if (id !== asked || changed()) return; // inputs changed since: the latest are computed next
      if (answer.failed) { status.textContent = data.ui.failed; root.dataset.state = "failed"; return; }
      if (answer.error) {
        const text = errorText(data, answer.error, [...data.params, ...Object.values(data.units).flat()]);
        if (!showError(form, answer.error.field, text)) status.textContent = text;
        root.dataset.state = "stale";
        return;
      }
      renderAdvice(answer.advice, situation);
      writeAddress(situation);
      status.textContent = answer.advice.out_of_the_game ? data.ui.out : data.ui.ready;
      root.dataset.state = "fresh";
      // for the benchmark: the engine's time, and from the request to the table on screen
      Object.assign(window.__krAdvice, { computeMs: window.__krEngine?.lastMs, roundTripMs, shownMs: performance.now() - sent });
    });

    function renderAdvice(advice, situation) {
      // the goal's column only when the goal is not one Wound, which the column before already gives
      const goal = advice.goal !== 1;
      const headers = [data.ui.orders, data.ui.ap, data.ui.left, data.ui.expected, fill(data.ui.at_least, { goal: 1 }),
        ...(goal ? [fill(data.ui.at_least, { goal: advice.goal })] : []), data.ui.destroyed, data.ui.reach,
        data.ui.victory, data.ui.defeat, data.ui.taken, data.ui.calculators];
      // one row for each group of sequences with the same odds: the first (which keeps the most), the
      // others named under it, as kensei-ref advise shows them
      const groups = advice.groups || advice.rows.map((_, index) => [index]);
      const sequence = (row) => (row.actions.length ? row.actions.map((a) => data.actions[a]).join(" → ") : data.ui.nothing);
      const rows = groups.map((group, index) => {
        const row = advice.rows[group[0]];
        const same = group.slice(1).map((other) => sequence(advice.rows[other]));
        // as kensei-ref advise shows them: a charge's reach, defeat and Wounds taken where it charges;
        // victory where it charges or may destroy the enemy; "–" where a figure means nothing
        const charges = row.p_charged !== null && row.p_charged !== undefined;
        const decides = charges || row.destroyed > 0;
        const orders = sequence(row);
        const links = row.calculators.map((run) => element("a", { href: linkTo(run), text: runText(data, run) }));
        const ruleLinks = row.rules.filter((id) => data.rules[id]).map((id) => element("a", { href: data.rules[id], text: data.rule_titles[id] }));
        let column = 0;
        const figure = (text) => element("td", { "data-label": labelled(headers[++column]), text });
        const when = (shown, text) => (shown ? figure(text) : (++column, element("td", { class: "kr-advisor__none", text: "–" })));
        const cells = [
          element("th", { scope: "row" }, [element("span", { class: "kr-advisor__rank", text: `${index + 1}. ` }), orders,
            ...(same.length ? [element("small", { class: "kr-advisor__same", text: fill(data.ui.same_odds, { orders: same.join(" · ") }) })] : []),
            ...(row.reply ? [element("small", { class: "kr-advisor__reply", text: fill(data.ui.reply, { reply: data.replies[row.reply] }) })] : [])]),
          figure(String(row.action_points)),
          figure(String(row.points_left)),
          figure(numbers.decimal(row.expected_wounds)),
          figure(numbers.percent(row.p_at_least_one)),
          ...(goal ? [figure(numbers.percent(row.p_at_least_goal))] : []),
          figure(numbers.percent(row.destroyed)),
          when(row.p_reach !== null, numbers.percent(row.p_reach)),
          when(decides, numbers.percent(row.victory)),
          when(charges, numbers.percent(row.defeat)),
          when(charges, numbers.decimal(row.expected_taken)),
          element("td", { class: "kr-advisor__links" }, [
            links.length ? element("span", {}, [labelled(data.ui.calculators), ...join(links)]) : null,
            element("span", { class: "kr-advisor__rules" }, [labelled(data.ui.rules_used), ...join(ruleLinks)]),
            replies(row),
          ]),
        ];
        return element("tr", { "data-actions": row.actions.join(","),
          "data-same": group.slice(1).map((other) => advice.rows[other].actions.join(",")).join(" ") }, cells);
      });
      // the best orders first, with the figures that mean something for them
      const best = rows.length ? element("p", { class: "kr-advisor__best" }, [
        element("strong", { text: fill(data.ui.best, { orders: sequence(advice.rows[0]) }) }),
        ` — ${[...rows[0].querySelectorAll("td[data-label]")].filter((td) => !td.classList.contains("kr-advisor__none"))
          .map((td) => `${td.dataset.label}${td.textContent}`).join(" · ")}`]) : null;
      const table = element("table", { class: "kr-advisor__table" }, [
        element("thead", {}, [element("tr", {}, headers.map((text) => element("th", { scope: "col", text })))]),
        element("tbody", {}, rows),
      ]);
      const costly = (advice.too_costly || []).map(({ actions, action_points: points }) => element("li", {
        text: fill(data.ui.needs, { orders: actions.map((a) => data.actions[a]).join(" → "), points }) }));
      // orders that change no odds, which the points a row leaves could pay for
      const others = advice.rows.some((row) => row.points_left > 0) ? (advice.other_orders || []).map(
        ({ order, rule, action_points: points }) => element("li", {}, [
          data.rules[rule] ? element("a", { href: data.rules[rule], text: data.other_orders[order] }) : data.other_orders[order],
          ` (${fill(data.ui.order_cost, { points })})`])) : [];
      // sequences the rules allow whose odds a calculator cannot give, each with the calculator's refusal
      const leftOut = (advice.left_out || []).map(({ actions, calculator, error }) => element("li", {
        text: fill(data.ui.left_out_row, { orders: actions.map((a) => data.actions[a]).join(" → "),
          calculator: data.calculator_names[calculator], reason: errorText(data, error, []) }) }));
      result.replaceChildren(...(best ? [best] : []), element("div", { class: "kr-advisor__scroll" }, [table]),
        element("p", { class: "kr-advisor__ties", text: data.ui.ties }), ...(leftOut.length ? [
        element("p", { class: "kr-advisor__left-out", text: data.ui.left_out }),
        element("ul", { class: "kr-advisor__left-out-list" }, leftOut)] : []), ...(others.length ? [
        element("p", { class: "kr-advisor__others", text: data.ui.others }),
        element("ul", { class: "kr-advisor__others-list" }, others)] : []), ...(costly.length ? [
        element("p", { class: "kr-advisor__costly", text: fill(plural(data, data.ui.too_costly, advice.action_points), { points: advice.action_points }) }),
        element("ul", { class: "kr-advisor__costly-list" }, costly)] : []));
      result.dataset.rows = String(advice.rows.length);
      window.__krAdvice = { advice, situation };
    }
    /** A charge's figures under each reply the enemy may give (the row shows the worst for you). */
    function replies(row) {
      if (!row.replies || row.replies.length < 2) return null;
      const figures = (each) => [[data.ui.expected, numbers.decimal(each.expected_wounds)], [data.ui.victory, numbers.percent(each.victory)],
        [data.ui.defeat, numbers.percent(each.defeat)], [data.ui.taken, numbers.decimal(each.expected_taken)]]
        .map(([label, value]) => fill(data.ui.pair, { label, value })).join(" · ");
      return element("details", { class: "kr-advisor__replies" }, [element("summary", { text: data.ui.replies }),
        element("ul", {}, row.replies.map((each) => element("li", { "data-reply": each.reply }, [
          element("strong", { text: data.replies[each.reply] }), ` — ${figures(each)}`])))]);
    }
    /** The units and the situation into the page's address (the form's values, for a shared link). */
    function writeAddress(situation) {
      if (window.location.protocol === "file:" || !pair) return;
      history.replaceState(history.state, "", advisorAddress("", nameOf(pair[0]), nameOf(pair[1]), situation) + window.location.hash);
    }
    /** "label: " as the language writes it (a no-break space before the colon in French). */
    const labelled = (text) => fill(data.ui.pair, { label: text, value: "" });
    // links apart by a space: the comma after each is drawn by the stylesheet, inside the link's box (kensei.css)
    const join = (nodes) => nodes.flatMap((node, i) => (i ? [" ", node] : [node]));
    const linkTo = (run) => calculatorLink(data.calculator_pages, run);

    form.addEventListener("input", compute);
    form.addEventListener("change", compute);
    form.addEventListener("submit", (event) => event.preventDefault());
    compute();
  }

  /** The advisor's address (`page` plus its query) for two units of the device, by name, in a
   * situation (the advisor's inputs by name): as the advisor writes its own, so a plan's unit opens it. */
  function advisorAddress(page, mine, enemy, situation) {
    const address = new URLSearchParams({ mine, enemy });
    for (const [name, value] of Object.entries(situation)) {
      if (value === false || value === null || value === undefined) continue;
      address.set(name, value === true ? "1" : String(value)); // a list as 2,2,1
    }
    return `${page}?${address}`;
  }

  // ---- A calculator page's pickers ------------------------------------------------------------------
  function calculatorPickers(root) {
    const calcData = JSON.parse(root.querySelector(".kr-calc__data").dataset.json);
    const data = calcData.units;
    // the page as built holds the box, with the words for a device without units (nothing moves when
    // there are none); the pickers replace them once
    let box = root.querySelector(".kr-calc__units");
    if (!data || (box && box.dataset.filled)) return;
    if (!box) {
      box = element("div", { class: "kr-calc__units" });
      root.querySelector(".kr-calc__scenarios").before(box);
    }
    box.dataset.filled = "1";
    const form = root.querySelector('form[data-scenario="1"]');
    pickers(box, data, async (mine, enemy) => {
      const answer = await ask({ fill: { calculator: calcData.calculator, mine, enemy } });
      if (!answer.inputs) return;
      for (const [name, value] of Object.entries(answer.inputs)) {
        const input = form.elements.namedItem(name);
        if (!input) continue;
        if (input.type === "checkbox") input.checked = value === true;
        else input.value = value === null ? "" : Array.isArray(value) ? value.join(",") : String(value);
        const folded = input.closest("details");
        if (folded && value !== null && value !== false) folded.open = true; // a filled field is never hidden
      }
      form.dispatchEvent(new Event("change", { bubbles: true }));
    }, { mine: -1, enemy: -1 }, { game: data.game, sides: data.sides });
  }

  /** A calculator run (a row's `calculators` entry) as a link to its page with those inputs, in the
   * calculators' own address grammar. */
  function calculatorLink(pages, run) {
    const query = Object.entries(run.inputs)
      .filter(([, v]) => v !== null && v !== false && v !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${v === true ? "1" : Array.isArray(v) ? v.join(",") : encodeURIComponent(v)}`)
      .join("&");
    return `${pages[run.name] || "#"}?${query}`;
  }

  /** A calculator run's link text: the calculator, and whether the run is the enemy's reaction shot or
   * one of several the figures average (its own figures are then not the row's). */
  function runText(data, run) {
    const notes = [run.side === "enemy" ? data.ui.enemy_shot : null, run.averaged ? data.ui.averaged : null].filter(Boolean);
    const name = data.calculator_names[run.name];
    return notes.length ? `${name} (${notes.join(", ")})` : name;
  }

  // what the Command phase plan's page (plan.js) shares with these pages: the same markup, storage and engine
  window.krUnitsKit = { element, fill, plural, stored, nameOf, ask, latestOnly, errorText, calculatorLink, runText, advisorAddress };

  function onPage() {
    for (const root of document.querySelectorAll("[data-page]")) {
      if (root.dataset.page === "plan") continue; // plan.js's
      if (root.dataset.mounted) continue;
      root.dataset.mounted = "1";
      const data = JSON.parse(root.querySelector(".kr-units__data").dataset.json);
      if (root.dataset.page === "units") unitsPage(root, data);
      else advisorPage(root, data);
    }
    const calculator = document.querySelector(".kr-calc");
    if (calculator && window.location.protocol !== "file:") calculatorPickers(calculator);
  }
  if (window.location.protocol !== "file:" && window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(onPage);
  } else onPage();
})();
