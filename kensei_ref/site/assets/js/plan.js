// The Command phase plan's page (plan.md): the table's state built from the units saved on this device,
// kept on the device and in the page's address as the table file (kensei-ref/table) that
// `kensei-ref plan --table` reads, and the plan the engine computes for it (calculators/presentation.py's
// plan_answer, calculators/command_plan.py). What is stored or comes in the address is untrusted: the
// engine validates it again, and names are only ever written as text.
(() => {
  "use strict";

  /** The table file in an address: base64url of its UTF-8 JSON (as a shared units link is written). */
  const encode = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  function decode(text) {
    const bytes = Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  }
  const MAX_ADDRESS = 60000; // characters of a table in the address: far more than any table needs

  function planPage(root) {
    const kit = window.krUnitsKit;
    const { element, fill, plural, ask } = kit;
    const data = JSON.parse(root.querySelector(".kr-units__data").dataset.json);
    const numbers = window.krNumbers(data.numbers);
    const form = root.querySelector(".kr-plan__form");
    const status = root.querySelector(".kr-plan__status");
    const result = root.querySelector(".kr-plan__result");
    const units = kit.stored({ storage: data.storage }).filter((unit) => unit.game === "kensei");
    const saved = new Set(units.map((unit) => kit.nameOf(unit))); // the units this device has
    const query = new URLSearchParams(window.location.search);
    let objective = data.objectives.some((o) => o.value === query.get("objective")) ? query.get("objective") : "expected_wounds";
    let table = initial(); // the table as the form last said it validly: kept, exported and planned
    let asked = 0;
    let invalid = false; // a field of the form holds what the table cannot take: the plan shown is for `table`
    let refused = null; // the engine's refusal of `table`, while it holds: {error, sent}
    let shownFor = null; // the table and objective of the plan on screen (JSON)
    const label = (text) => (data.labels && data.labels[text]) || text;

    /** The table from the address, else from the device, else an empty one. */
    function initial() {
      const tries = [() => query.get("table") && query.get("table").length <= MAX_ADDRESS ? decode(query.get("table")) : null,
        () => window.localStorage.getItem(data.table_storage)];
      for (const read of tries) {
        try {
          const found = JSON.parse(read() || "null");
          if (found && typeof found === "object" && found.format === data.format) return found;
        } catch { /* not a table: the next source */ }
      }
      return { format: data.format, version: data.version, game: "kensei", general: "taisho", dominance: false,
        taisho_ability: false, mine: [], enemy: [], distances: [] };
    }
    const side = (shown, name) => (Array.isArray(shown.mine) && shown.mine.some((u) => u && u.unit === name) ? "mine"
      : Array.isArray(shown.enemy) && shown.enemy.some((u) => u && u.unit === name) ? "enemy" : "off");
    const entry = (shown, name) => [...(shown.mine || []), ...(shown.enemy || [])].find((u) => u && u.unit === name) || {};
    const reach = (shown, mine, enemy) => (shown.distances || []).find((d) => d && d.mine === mine && d.enemy === enemy);
    // What each unit and pair last held on the table, so that a unit taken off, or out of its state, by
    // mistake and put back finds its Wounds left, its weapon and its distances again: a pair of units
    // both on the table is forgotten once its distance is emptied (out of reach), no other.
    const memory = { units: new Map(), pairs: new Map() };
    function remember(shown) {
      for (const where of ["mine", "enemy"]) {
        for (const unit of Array.isArray(shown[where]) ? shown[where] : []) {
          if (unit && typeof unit.unit === "string") memory.units.set(unit.unit, { where, entry: unit });
        }
      }
      const names = (list, ready) => (Array.isArray(list) ? list : [])
        .filter((unit) => unit && (!ready || (unit.state || "ready") === "ready")).map((unit) => unit.unit);
      for (const mine of names(shown.mine, true)) {
        for (const enemy of names(shown.enemy, false)) {
          const found = reach(shown, mine, enemy);
          if (found) memory.pairs.set(`${mine}\n${enemy}`, found);
          else memory.pairs.delete(`${mine}\n${enemy}`);
        }
      }
    }
    const remembered = (mine, enemy) => memory.pairs.get(`${mine}\n${enemy}`);

    // Each field has its error under it (empty until there is one), which its control names.
    const errorLine = (id) => element("p", { class: "kr-field__error", id: `${id}-error`, role: "alert" });
    function select(name, options, value, text) {
      const id = `p-${name}`;
      const box = element("select", { id, name, "aria-describedby": `${id}-error` },
        options.map((o) => element("option", { value: o.value, text: o.text })));
      box.value = value;
      return element("div", { class: "kr-field" }, [element("label", { for: id, text }), box, errorLine(id)]);
    }
    function check(name, checked, text) {
      const id = `p-${name}`;
      const box = element("input", { type: "checkbox", id, name, checked: checked === true, "aria-describedby": `${id}-error` });
      return element("div", { class: "kr-field kr-field--bool" }, [element("label", { class: "kr-field__check" }, [box, ` ${text}`]),
        errorLine(id)]);
    }
    /** A whole number from 0 to `maximum`, or empty: `value` as the table gives it, or as it was typed. */
    function number(name, value, maximum, text) {
      const id = `p-${name}`;
      return element("div", { class: "kr-field" }, [element("label", { for: id, text }),
        element("input", { id, name, type: "number", inputmode: "numeric", step: "1", min: "0", max: String(maximum),
          value, "aria-describedby": `${id}-error` }), errorLine(id)]);
    }
    const given = (value) => (Number.isInteger(value) ? String(value) : "");

    /** The form for `shown` (the table, or the form as read): the general, each saved unit's side and state,
     * the distances; `typed` keeps the text of number fields as typed (the Ki's under "ki", a distance's
     * under its pair's names), valid or not, when the form is drawn again for a unit moved. */
    function render(shown = table, typed = null) {
      const general = element("fieldset", { class: "kr-calc__group" }, [element("legend", { text: data.ui.general }),
        select("general", data.generals, shown.general || "taisho", data.ui.general),
        check("dominance", shown.dominance, data.ui.dominance),
        number("ki", typed ? typed.ki : given(shown.ki), data.max_ki, data.ui.ki),
        check("taisho_ability", shown.taisho_ability, data.ui.taisho_ability),
        select("objective", data.objectives, objective, data.ui.objective)]);
      const sides = [{ value: "off", text: data.ui.off }, { value: "mine", text: data.ui.mine }, { value: "enemy", text: data.ui.enemy }];
      const rows = units.map((unit, index) => {
        const name = kit.nameOf(unit);
        const here = side(shown, name);
        const own = entry(shown, name);
        return element("div", { class: "kr-plan__unit", "data-unit": name }, [
          element("strong", { text: name }),
          select(`side-${index}`, sides, here, data.ui.side),
          ...(here === "off" ? [] : [select(`state-${index}`, data.states, own.state || "ready", data.ui.state)]),
          ...(here === "mine" ? [check(`hero-${index}`, own.bushi_hero, data.ui.bushi_hero),
            check(`failed-${index}`, own.failed_charge, data.fields.mine.failed_charge)] : [])]);
      });
      const onTable = (name) => (units.find((u) => kit.nameOf(u) === name) ? name : null);
      const ready = (shown.mine || []).filter((u) => u && (u.state || "ready") === "ready" && onTable(u.unit));
      const enemies = (shown.enemy || []).filter((u) => u && onTable(u.unit));
      const pairs = ready.flatMap((mine) => enemies.map((enemy) => {
        const found = reach(shown, mine.unit, enemy.unit) || remembered(mine.unit, enemy.unit);
        const key = `${ready.indexOf(mine)}-${enemies.indexOf(enemy)}`;
        const text = typed && typed.pairs.has(`${mine.unit}\n${enemy.unit}`) ? typed.pairs.get(`${mine.unit}\n${enemy.unit}`)
          : given(found && found.cm);
        return element("div", { class: "kr-plan__pair", "data-mine": mine.unit, "data-enemy": enemy.unit }, [
          number(`cm-${key}`, text, data.max_distance, `${mine.unit} → ${enemy.unit}`),
          check(`sight-${key}`, !found || found.in_sight !== false, data.ui.in_sight),
          // with a failed charge, what lets two units stand closer than the 5 cm rule keeps them
          check(`terrain-${key}`, Boolean(found && found.terrain_between === true), data.fields.distances.terrain_between)]);
      }));
      form.replaceChildren(general,
        element("fieldset", { class: "kr-calc__group kr-plan__list" }, [element("legend", { text: data.ui.units }), ...rows]),
        element("fieldset", { class: "kr-calc__group kr-plan__list" }, [element("legend", { text: data.ui.distances }), ...pairs]),
        element("button", { type: "button", class: "md-button kr-plan__export", text: data.ui.export }));
      if (window.krSteppers) window.krSteppers(form);
    }

    /** A field's error under it (none: cleared), and its control marked invalid while it has one. */
    function fieldError(control, message) {
      const line = form.querySelector(`#${control.id}-error`);
      if (line) line.textContent = message || "";
      if (message) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    }
    /** A number field's whole number from 0 to its maximum: {value}, {omit} (empty) or {error}, as the
     * calculators' fields read theirs (calculator.js: ASCII digits; a number field's letters are an error). */
    function whole(input) {
      const text = input.value.trim();
      const bounds = () => ({ minimum: numbers.decimal(Number(input.min), 0), maximum: numbers.decimal(Number(input.max), 0) });
      if (input.validity && input.validity.badInput) return { error: fill(data.ui.int, bounds()) };
      if (text === "") return { omit: true };
      const value = /^-?\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isInteger(value) || value < Number(input.min) || value > Number(input.max)) return { error: fill(data.ui.int, bounds()) };
      return { value };
    }
    /** The number fields' texts as typed, to draw the form again with them. */
    function typedTexts() {
      const pairs = new Map([...form.querySelectorAll(".kr-plan__pair")].map((pair) =>
        [`${pair.dataset.mine}\n${pair.dataset.enemy}`, pair.querySelector('input[type="number"]').value]));
      return { ki: form.elements.namedItem("ki").value, pairs };
    }

    /** The table as the form now says it, each field's error shown under it (the engine's earlier ones
     * cleared): {next, valid}; when not valid, `next` leaves out what its number fields hold. */
    function read() {
      const value = (name) => form.elements.namedItem(name);
      for (const control of form.querySelectorAll("[aria-describedby]")) fieldError(control, "");
      let valid = true;
      const checked = (input) => {
        const found = whole(input);
        fieldError(input, found.error);
        if (found.error) valid = false;
        return found.error ? { omit: true } : found;
      };
      const ki = checked(value("ki"));
      const next = { format: data.format, version: data.version, game: "kensei", general: value("general").value,
        dominance: value("dominance").checked, taisho_ability: value("taisho_ability").checked, mine: [], enemy: [], distances: [] };
      if (!ki.omit) next.ki = ki.value;
      units.forEach((unit, index) => {
        const where = value(`side-${index}`).value;
        if (where === "off") return;
        const state = value(`state-${index}`) ? value(`state-${index}`).value : "ready";
        const name = kit.nameOf(unit);
        // what the form has no field for (Wounds left, reactions, a loaded weapon, cover... from an address
        // or a file) is kept while the unit stays on its side; a side's fields are not the other side's
        const before = side(table, name) === where ? entry(table, name)
          : memory.units.get(name)?.where === where ? memory.units.get(name).entry : {};
        const item = { ...before, unit: name, state };
        delete item.bushi_hero;
        delete item.failed_charge;
        if (where === "mine" && value(`hero-${index}`) && value(`hero-${index}`).checked) item.bushi_hero = true;
        if (where === "mine" && value(`failed-${index}`) && value(`failed-${index}`).checked) item.failed_charge = true;
        next[where].push(item);
      });
      // units the device has not saved (a shared address's) have no row in the form: they are kept as
      // they are, and their distances, so that a change here does not lose them
      for (const where of ["mine", "enemy"]) {
        for (const unit of Array.isArray(table[where]) ? table[where] : []) {
          if (unit && !saved.has(unit.unit)) next[where].push(unit);
        }
      }
      // each side keeps the table's order (the order its units are declared in), units new to it after
      for (const where of ["mine", "enemy"]) {
        const before = (Array.isArray(table[where]) ? table[where] : []).map((unit) => unit && unit.unit);
        const place = (unit) => (before.includes(unit.unit) ? before.indexOf(unit.unit) : before.length);
        next[where].sort((a, b) => place(a) - place(b));
      }
      for (const pair of Array.isArray(table.distances) ? table.distances : []) {
        if (pair && (!saved.has(pair.mine) || !saved.has(pair.enemy))) next.distances.push(pair);
      }
      const ready = new Set(next.mine.filter((unit) => unit.state === "ready").map((unit) => unit.unit));
      const enemies = new Set(next.enemy.map((unit) => unit.unit));
      for (const pair of form.querySelectorAll(".kr-plan__pair")) {
        if (!ready.has(pair.dataset.mine) || !enemies.has(pair.dataset.enemy)) continue; // a unit just moved off
        const cm = checked(pair.querySelector('input[type="number"]'));
        if (cm.omit) continue; // empty: out of reach
        const before = reach(table, pair.dataset.mine, pair.dataset.enemy) || remembered(pair.dataset.mine, pair.dataset.enemy);
        const kept = { ...before, mine: pair.dataset.mine,
          enemy: pair.dataset.enemy, cm: cm.value, in_sight: pair.querySelector('input[name^="sight-"]').checked };
        delete kept.terrain_between;
        if (pair.querySelector('input[name^="terrain-"]').checked) kept.terrain_between = true;
        next.distances.push(kept);
      }
      objective = value("objective").value;
      return { next, valid };
    }

    function keep() {
      const text = JSON.stringify(table);
      window.localStorage.setItem(data.table_storage, text);
      if (window.location.protocol === "file:") return;
      const address = new URLSearchParams({ table: encode(text), objective });
      history.replaceState(history.state, "", `?${address}${window.location.hash}`);
    }

    /** The form holds a value the table cannot take: its field says why; the plan shown stays, for the
     * last valid table, marked as such. */
    function markStale() {
      root.dataset.state = "stale";
      status.textContent = result.childElementCount ? data.ui.stale : "";
    }

    /** Where the engine's error `path` (the table file's: "ki", "distances[0].cm", "mine[1].wounds") is on the
     * page, in the table `sent`: {control} when the page has an input for it, and {words} that name it as
     * the page does (a label, the unit's or the pair's names), never the file's key. */
    function place(path, sent) {
      const byName = (name, prefix) => {
        const index = units.findIndex((unit) => kit.nameOf(unit) === name);
        return index >= 0 ? form.elements.namedItem(`${prefix}-${index}`) : null;
      };
      const at = /^(mine|enemy|distances)\[(\d+)\]\.(\w+)$/.exec(path || "");
      if (!at) {
        const controls = { ki: "ki", general: "general", dominance: "dominance", taisho_ability: "taisho_ability" };
        const words = path === "ki" ? data.ui.ki : data.fields.top[path] || { mine: data.ui.mine, enemy: data.ui.enemy,
          distances: data.ui.distances }[path] || data.ui.units;
        return { control: controls[path] ? form.elements.namedItem(controls[path]) : null, words };
      }
      const [, list, index, field] = at;
      const item = (Array.isArray(sent[list]) ? sent[list][Number(index)] : null) || {};
      const fieldWords = data.fields[list][field];
      if (list === "distances") {
        const names = `${item.mine} → ${item.enemy}`;
        const pair = [...form.querySelectorAll(".kr-plan__pair")].find((p) => p.dataset.mine === item.mine && p.dataset.enemy === item.enemy);
        const control = !pair ? null : field === "cm" ? pair.querySelector('input[type="number"]')
          : field === "in_sight" ? pair.querySelector('input[name^="sight-"]')
            : field === "terrain_between" ? pair.querySelector('input[name^="terrain-"]') : null;
        return { control, words: fieldWords && field !== "cm" ? `${names}, ${fieldWords}` : names, label: fieldWords };
      }
      const control = field === "state" ? byName(item.unit, "state") : field === "unit" ? byName(item.unit, "side")
        : field === "bushi_hero" && list === "mine" ? byName(item.unit, "hero")
          : field === "failed_charge" && list === "mine" ? byName(item.unit, "failed") : null;
      const name = typeof item.unit === "string" ? item.unit : list === "mine" ? data.ui.mine : data.ui.enemy;
      return { control, words: fieldWords && field !== "unit" ? `${name}, ${fieldWords}` : name, label: field === "unit" ? name : fieldWords };
    }

    /** The engine's refusal in the page's language: its template translated, the fields it names in the page's words. */
    function refusal(error, sent) {
      const forms = error.count !== undefined && data.plurals && data.plurals[error.message];
      const template = forms ? plural(data, forms, error.values[error.count]) : label(error.message);
      const values = error.values || {};
      return template.replace(/\{(\w+)\}/g, (whole, key) => {
        if (/^\d+$/.test(key)) {
          const other = (error.related || [])[Number(key)];
          if (other === undefined) return whole;
          const named = place(other, sent);
          return `${data.quotes[0]}${named.label || named.words}${data.quotes[1]}`; // as the language quotes
        }
        if (!(key in values)) return whole;
        return typeof values[key] === "number" ? numbers.decimal(values[key], 0) : String(values[key]);
      });
    }

    /** The engine refused `sent`: under the field it names when the page has one (a number's bounds as the
     * page's number fields say them), else in the status line, the field in the page's words. */
    function showRefusal(error, sent) {
      const where = place(error.field, sent);
      if (where.control) {
        const bounds = where.control.type === "number" && data.bounds.includes(error.message); // units_pages.BOUNDS
        fieldError(where.control, bounds
          ? fill(data.ui.int, { minimum: numbers.decimal(Number(where.control.min), 0), maximum: numbers.decimal(Number(where.control.max), 0) })
          : fill(data.ui.rules, { message: refusal(error, sent) }));
        status.textContent = result.childElementCount ? data.ui.stale : "";
      } else status.textContent = fill(data.ui.refused, { field: where.words, message: refusal(error, sent) });
      root.dataset.state = "stale";
    }

    const compute = kit.latestOnly(async (changed) => {
      const id = ++asked;
      const sent = table;
      const unsaved = [...(table.mine || []), ...(table.enemy || [])].filter((u) => u && !saved.has(u.unit)).map((u) => String(u.unit));
      if (unsaved.length) { // a shared table whose units this device has not saved: said in the page's words
        status.textContent = fill(data.ui.unsaved, { names: unsaved.join(", ") });
        result.replaceChildren();
        root.dataset.state = "empty";
        return;
      }
      const ready = (table.mine || []).some((u) => (u.state || "ready") === "ready") || (table.mine || []).some((u) => u.state === "fleeing");
      if (!ready || !(table.enemy || []).length) {
        status.textContent = data.ui.empty;
        result.replaceChildren();
        root.dataset.state = "empty";
        return;
      }
      root.dataset.state = "computing";
      status.textContent = data.ui.computing;
      const sentAt = performance.now();
      const answer = await ask({ plan: { units, table: sent, objective } });
      if (id !== asked || changed()) return; // the table changed since: the latest is computed next
      if (answer.failed) { status.textContent = data.ui.failed; root.dataset.state = "failed"; return; }
      if (answer.error) { // (for the last valid table: a field made invalid since keeps its own message)
        if (invalid) markStale();
        else {
          refused = { error: answer.error, sent };
          showRefusal(answer.error, sent);
        }
        return;
      }
      refused = null;
      show(answer.plan);
      // a field made invalid while the engine worked: the plan is the last valid table's, and says so
      if (invalid) markStale();
      else {
        status.textContent = data.ui.ready;
        root.dataset.state = "fresh";
      }
      // for the benchmark: the engine's time, from the request to the plan on screen, and since navigation
      const shownAt = performance.now();
      shownFor = JSON.stringify([sent, objective]);
      window.__krPlan = { plan: answer.plan, table: sent, objective, computeMs: window.__krEngine?.lastMs,
        shownMs: shownAt - sentAt, shownAt };
    });

    /** One plan: its points, regrouping and strategic orders, each unit's orders, each enemy's outcome. */
    function planBlock(plan, heading, full) {
      const lines = [];
      if (objective !== "regrouped") { // the figure the plans are sorted by (regrouping is in the next line)
        const value = objective === "fewest_taken" ? 0 - plan.score : plan.score; // never -0
        lines.push(element("p", { class: "kr-plan__score", text: fill(data.ui.score, { score: numbers.decimal(value) }) }));
      }
      // no point spent and no unit fleeing: a sentence of its own, not "at most 0" (as plan.py's nothing_spent)
      const nothingSpent = plan.commandment_points_spent === 0 && plan.regroup.length === 0;
      lines.push(element("p", { class: "kr-plan__points", text: nothingSpent ? data.ui.nothing_spent
        : fill(data.ui.points, { points: plan.commandment_points_spent, regrouped: numbers.decimal(plan.expected_regrouped) }) }));
      const notes = [
        ...plan.strategic_orders.map((o) => fill(data.ui.strategic, { unit: o.unit, target: o.target, chance: numbers.percent(o.p_ki) })),
        ...plan.regroup.map((r) => fill(plural(data, data.ui.regroup, r.attempts), { unit: r.unit, attempts: r.attempts,
          chance: numbers.percent(r.p_regroup) })),
        ...(plan.taisho_ability_cost ? [fill(data.ui.ability_cost, { regrouped: numbers.decimal(plan.taisho_ability_cost) })] : [])];
      if (notes.length) lines.push(element("ul", {}, notes.map((text) => element("li", { text }))));
      // each unit's orders, with the advisor's row for the pair (the units by name, the situation from
      // the table) and the calculator runs that give its figures (as the advisor's rows link them)
      const orders = plan.orders.map((o) => element("li", { class: "kr-plan__order", "data-unit": o.unit, "data-target": o.target,
        "data-actions": o.actions.join(",") }, [fill(data.ui.order, { unit: o.unit, target: o.target,
          orders: o.actions.map((a) => data.actions[a]).join(" → ") }),
        // links apart by a space: the comma after each is drawn inside the link's box (kensei.css)
        element("small", { class: "kr-plan__links" }, [
          element("a", { class: "kr-plan__advisor", href: kit.advisorAddress(data.advisor_page, o.advisor.mine, o.advisor.enemy,
            o.advisor.situation), text: data.ui.advisor }),
          ...o.calculators.flatMap((run) => [" ", element("a", { href: kit.calculatorLink(data.calculator_pages, run),
            text: kit.runText(data, run) })])])]));
      lines.push(element("p", { text: orders.length ? data.ui.orders : data.ui.no_orders }));
      if (orders.length) lines.push(element("ol", { class: "kr-plan__orders" }, orders));
      if (full && plan.enemies.length) {
        lines.push(element("p", { text: data.ui.enemies }));
        lines.push(element("ul", { class: "kr-plan__enemies" }, plan.enemies.map((e) => element("li", { "data-unit": e.unit,
          text: fill(data.ui.outcome, { unit: e.unit, wounds: numbers.decimal(e.expected_wounds), destroyed: numbers.percent(e.p_destroyed),
            victory: numbers.percent(e.victory), taken: numbers.decimal(e.expected_taken) })
            + (e.reply ? ` — ${fill(data.ui.reply, { reply: data.replies[e.reply] })}` : "") }))));
      }
      if (full) return element("section", { class: "kr-plan__best" }, [element("h2", { text: heading }), ...lines]);
      return element("details", { class: "kr-plan__other" }, [element("summary", { text: heading }), ...lines]);
    }
    function show(answer) {
      result.replaceChildren(...answer.plans.map((plan, index) =>
        planBlock(plan, index ? fill(data.ui.other, { number: index }) : data.ui.best, index === 0)));
    }

    function exportFile() {
      const blob = new Blob([JSON.stringify(table, null, 1) + "\n"], { type: "application/json" });
      const link = element("a", { href: URL.createObjectURL(blob), download: "kensei-table.json" });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    }

    /** The form changed: a valid table is kept and planned; a field that holds what the table cannot take
     * says so under it, and the plan shown stays the last valid table's, marked stale. */
    function update(redraw) {
      const before = objective;
      let now = read();
      if (!redraw && now.valid && objective === before && JSON.stringify(now.next) === JSON.stringify(table)) {
        // the table planned last (a number field's "change" as it loses focus, or a refused value typed
        // back to it): the engine's refusal still holds, said again before anything is drawn, so that
        // nothing moves under the finger that left the field; else the plan shown is this table's again
        invalid = false;
        if (refused) showRefusal(refused.error, refused.sent);
        else if (shownFor === JSON.stringify([table, objective])) {
          status.textContent = data.ui.ready;
          root.dataset.state = "fresh";
        }
        return;
      }
      if (redraw) { // the units and pairs shown change; what the number fields hold stays, valid or not
        render(now.next, typedTexts());
        now = read();
      }
      invalid = !now.valid;
      if (invalid) {
        markStale();
        return;
      }
      table = now.next;
      remember(table);
      keep();
      compute();
    }

    remember(table);
    render();
    form.addEventListener("change", (event) => update(/^(side|state)-/.test(event.target.name || "")));
    form.addEventListener("input", (event) => {
      if (event.target.type === "number") update(false);
    });
    form.addEventListener("click", (event) => { if (event.target.closest(".kr-plan__export")) exportFile(); });
    form.addEventListener("submit", (event) => event.preventDefault());
    compute();
  }

  function onPage() {
    for (const root of document.querySelectorAll('[data-page="plan"]')) {
      if (root.dataset.mounted) continue;
      root.dataset.mounted = "1";
      if (window.krUnitsKit && window.location.protocol !== "file:") planPage(root);
    }
  }
  if (window.location.protocol !== "file:" && window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(onPage);
  } else onPage();
})();
