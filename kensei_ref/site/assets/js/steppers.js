// −/+ steppers beside every count and characteristic of a form (each number input), for a thumb at
// the table: one tap changes the value by one within the field's bounds and tells the form, as
// typing does (an "input" event, then "change"). The keyboard still works: the input stays as it was.
// The buttons' names are the field's label with −1 or +1, which reads the same in every language.
(() => {
  "use strict";

  function step(input, by) {
    const min = input.min === "" ? -Infinity : Number(input.min);
    const max = input.max === "" ? Infinity : Number(input.max);
    const now = input.value.trim() === "" || Number.isNaN(Number(input.value)) ? null : Number(input.value);
    const start = now === null ? (by > 0 ? Math.max(min, 0) : Math.min(max, 0)) : now + by;
    const next = Math.min(max, Math.max(min, Math.round(start)));
    if (String(next) === input.value) return;
    input.value = String(next);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function button(input, by, name) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = `kr-stepper__button kr-stepper__button--${by > 0 ? "more" : "less"}`;
    node.textContent = by > 0 ? "+" : "−";
    node.setAttribute("aria-label", `${name} ${by > 0 ? "+1" : "−1"}`);
    node.setAttribute("aria-controls", input.id);
    node.addEventListener("click", () => step(input, by));
    return node;
  }

  /** Adds steppers to every number input in ``container`` that has none yet. */
  function addSteppers(container) {
    for (const input of container.querySelectorAll('input[type="number"]:not([data-stepper])')) {
      if (!input.id) continue;
      input.dataset.stepper = "1";
      const label = container.querySelector(`label[for="${CSS.escape(input.id)}"]`);
      const name = (label ? label.textContent : input.name).trim();
      const holder = document.createElement("span");
      holder.className = "kr-stepper";
      input.replaceWith(holder);
      holder.append(button(input, -1, name), input, button(input, 1, name));
    }
  }
  window.krSteppers = addSteppers;
})();
