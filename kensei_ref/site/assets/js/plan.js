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
    const query = new URLSearchParams(window.location.search);
    let objective = data.objectives.some((o) => o.value === query.get("objective")) ? query.get("objective") : "expected_wounds";
    let table = initial();
    let asked = 0;

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
    const side = (name) => (Array.isArray(table.mine) && table.mine.some((u) => u && u.unit === name) ? "mine"
      : Array.isArray(table.enemy) && table.enemy.some((u) => u && u.unit === name) ? "enemy" : "off");
    const entry = (name) => [...(table.mine || []), ...(table.enemy || [])].find((u) => u && u.unit === name) || {};
    const reach = (mine, enemy) => (table.distances || []).find((d) => d && d.mine === mine && d.enemy === enemy);

    function select(name, options, value, label) {
      const id = `p-${name}`;
      const box = element("select", { id, name }, options.map((o) => element("option", { value: o.value, text: o.text })));
      box.value = value;
      return element("div", { class: "kr-field" }, [element("label", { for: id, text: label }), box]);
    }
    function check(name, checked, label) {
      const box = element("input", { type: "checkbox", id: `p-${name}`, name, checked: checked === true });
      return element("div", { class: "kr-field kr-field--bool" }, [element("label", { class: "kr-field__check" }, [box, ` ${label}`])]);
    }

    /** The form for the table as it is: the general, each saved unit's side and state, the distances. */
    function render() {
      const general = element("fieldset", { class: "kr-calc__group" }, [element("legend", { text: data.ui.general }),
        select("general", data.generals, table.general || "taisho", data.ui.general),
        check("dominance", table.dominance, data.ui.dominance),
        element("div", { class: "kr-field" }, [element("label", { for: "p-ki", text: data.ui.ki }),
          element("input", { id: "p-ki", name: "ki", type: "number", inputmode: "numeric", min: "0", max: "20",
            value: Number.isInteger(table.ki) ? String(table.ki) : "" })]),
        check("taisho_ability", table.taisho_ability, data.ui.taisho_ability),
        select("objective", data.objectives, objective, data.ui.objective)]);
      const sides = [{ value: "off", text: data.ui.off }, { value: "mine", text: data.ui.mine }, { value: "enemy", text: data.ui.enemy }];
      const rows = units.map((unit, index) => {
        const name = kit.nameOf(unit);
        const here = side(name);
        const own = entry(name);
        return element("div", { class: "kr-plan__unit", "data-unit": name }, [
          element("strong", { text: name }),
          select(`side-${index}`, sides, here, data.ui.side),
          ...(here === "off" ? [] : [select(`state-${index}`, data.states, own.state || "ready", data.ui.state)]),
          ...(here === "mine" ? [check(`hero-${index}`, own.bushi_hero, data.ui.bushi_hero)] : [])]);
      });
      const onTable = (name) => (units.find((u) => kit.nameOf(u) === name) ? name : null);
      const ready = (table.mine || []).filter((u) => u && (u.state || "ready") === "ready" && onTable(u.unit));
      const enemies = (table.enemy || []).filter((u) => u && onTable(u.unit));
      const pairs = ready.flatMap((mine) => enemies.map((enemy) => {
        const found = reach(mine.unit, enemy.unit);
        const key = `${ready.indexOf(mine)}-${enemies.indexOf(enemy)}`;
        return element("div", { class: "kr-plan__pair", "data-mine": mine.unit, "data-enemy": enemy.unit }, [
          element("div", { class: "kr-field" }, [
            element("label", { for: `p-cm-${key}`, text: `${mine.unit} → ${enemy.unit}` }),
            element("input", { id: `p-cm-${key}`, name: `cm-${key}`, type: "number", inputmode: "numeric", min: "0",
              max: String(data.max_distance), value: found && Number.isInteger(found.cm) ? String(found.cm) : "" })]),
          check(`sight-${key}`, !found || found.in_sight !== false, data.ui.in_sight)]);
      }));
      form.replaceChildren(general,
        element("fieldset", { class: "kr-calc__group kr-plan__list" }, [element("legend", { text: data.ui.units }), ...rows]),
        element("fieldset", { class: "kr-calc__group kr-plan__list" }, [element("legend", { text: data.ui.distances }), ...pairs]),
        element("button", { type: "button", class: "md-button kr-plan__export", text: data.ui.export }));
      if (window.krSteppers) window.krSteppers(form);
    }

    /** The table as the form now says it. */
    function read() {
      const value = (name) => form.elements.namedItem(name);
      const ki = value("ki").value.trim();
      const next = { format: data.format, version: data.version, game: "kensei", general: value("general").value,
        dominance: value("dominance").checked, taisho_ability: value("taisho_ability").checked, mine: [], enemy: [], distances: [] };
      if (/^\d+$/.test(ki)) next.ki = Number(ki);
      units.forEach((unit, index) => {
        const where = value(`side-${index}`).value;
        if (where === "off") return;
        const state = value(`state-${index}`) ? value(`state-${index}`).value : "ready";
        const item = { unit: kit.nameOf(unit), state };
        if (where === "mine" && value(`hero-${index}`) && value(`hero-${index}`).checked) item.bushi_hero = true;
        next[where].push(item);
      });
      // each side keeps the table's order (the order its units are declared in), units new to it after
      for (const where of ["mine", "enemy"]) {
        const before = (Array.isArray(table[where]) ? table[where] : []).map((unit) => unit && unit.unit);
        const place = (unit) => (before.includes(unit.unit) ? before.indexOf(unit.unit) : before.length);
        next[where].sort((a, b) => place(a) - place(b));
      }
      const ready = new Set(next.mine.filter((unit) => unit.state === "ready").map((unit) => unit.unit));
      const enemies = new Set(next.enemy.map((unit) => unit.unit));
      for (const pair of form.querySelectorAll(".kr-plan__pair")) {
        const cm = pair.querySelector('input[type="number"]').value.trim();
        if (!/^\d+$/.test(cm)) continue; // empty: out of reach
        if (!ready.has(pair.dataset.mine) || !enemies.has(pair.dataset.enemy)) continue; // a unit just moved off
        next.distances.push({ mine: pair.dataset.mine, enemy: pair.dataset.enemy, cm: Number(cm),
          in_sight: pair.querySelector('input[type="checkbox"]').checked });
      }
      objective = value("objective").value;
      return next;
    }

    function keep() {
      const text = JSON.stringify(table);
      window.localStorage.setItem(data.table_storage, text);
      if (window.location.protocol === "file:") return;
      const address = new URLSearchParams({ table: encode(text), objective });
      history.replaceState(history.state, "", `?${address}${window.location.hash}`);
    }

    const compute = kit.latestOnly(async (changed) => {
      const id = ++asked;
      const ready = (table.mine || []).some((u) => (u.state || "ready") === "ready") || (table.mine || []).some((u) => u.state === "fleeing");
      if (!ready || !(table.enemy || []).length) {
        status.textContent = data.ui.empty;
        result.replaceChildren();
        root.dataset.state = "empty";
        return;
      }
      root.dataset.state = "computing";
      status.textContent = data.ui.computing;
      const sent = performance.now();
      const answer = await ask({ plan: { units, table, objective } });
      if (id !== asked || changed()) return; // the table changed since: the latest is computed next
      if (answer.failed) { status.textContent = data.ui.failed; root.dataset.state = "failed"; return; }
      if (answer.error) {
        status.textContent = fill(data.ui.refused, { field: answer.error.field, message: kit.errorText(data, answer.error, []).replace(/^[^:]*:\s*/, "") });
        root.dataset.state = "stale";
        return;
      }
      show(answer.plan);
      status.textContent = data.ui.ready;
      root.dataset.state = "fresh";
      // for the benchmark: the engine's time, from the request to the plan on screen, and since navigation
      const shownAt = performance.now();
      window.__krPlan = { plan: answer.plan, table, objective, computeMs: window.__krEngine?.lastMs,
        shownMs: shownAt - sent, shownAt };
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

    render();
    form.addEventListener("change", (event) => {
      table = read();
      keep();
      if (/^(side|state)-/.test(event.target.name || "")) render(); // the units and pairs shown change
      compute();
    });
    form.addEventListener("input", (event) => {
      if (event.target.type !== "number") return;
      table = read();
      keep();
      compute();
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
