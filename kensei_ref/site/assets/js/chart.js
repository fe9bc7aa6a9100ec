// The "at least N" chart of a calculator's distributions: an inline SVG drawn from the same numbers
// as the result's tables (which keep the exact values), one bar per outcome N and scenario, its
// height the chance of at least N. calculator.js calls window.krChart.draw with each scenario's
// tables; comparing, both scenarios share one chart, bar beside bar.
//
// The drawing is sized to its box in CSS pixels (640 at most) (drawn again when the box changes width), so its
// text stays at the page's size on a phone; colours come from the theme's variables (kensei.css),
// so it follows dark mode. Each bar carries its exact value (data-at-least) and a <title>.
(() => {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const HEIGHT = 190;
  const MAX_WIDTH = 640; // wider, a few bars would be bands
  const MARGIN = { top: 14, right: 6, bottom: 26, left: 44 };
  const NEGLIGIBLE = 0.0005; // below 0.05 %, a bar is invisible: the table still lists the value
  const CERTAIN = 1 - 1e-12;

  function node(tag, attributes = {}, text = null) {
    const element = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
    if (text !== null) element.textContent = text;
    return element;
  }

  /** The outcomes worth a bar: from the first that is not certain in every scenario to the last
   * that is not negligible in some scenario (a chance of at least the lowest outcome is 100 %). */
  function outcomes(series) {
    const all = [...new Set(series.flatMap((s) => s.rows.map((row) => row[0])))].sort((a, b) => a - b);
    const atLeast = (s, k) => { const row = s.rows.find((r) => r[0] === k); return row ? row[2] : 0; };
    let first = all.findIndex((k) => series.some((s) => atLeast(s, k) < CERTAIN));
    if (first < 0) first = all.length - 1;
    let last = all.length - 1;
    while (last > first && series.every((s) => atLeast(s, all[last]) < NEGLIGIBLE)) last -= 1;
    return { ks: all.slice(first, last + 1), atLeast };
  }

  /**
   * Draws one chart into `figure` (emptied first).
   * chart: { title, label, series: [{ name, rows: [[k, exactly, atLeast], ...] }] }
   * format: { percent(value), whole(value), short(value) (a bar's label), outcome(k), pair(label, value) }
   */
  function drawOne(figure, chart, format, boxWidth) {
    const width = Math.max(260, Math.min(MAX_WIDTH, Math.floor(boxWidth || 320)));
    const plotWidth = width - MARGIN.left - MARGIN.right;
    const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
    const { ks, atLeast } = outcomes(chart.series);
    const band = plotWidth / Math.max(ks.length, 1);
    const barWidth = Math.max(2, (band * 0.78) / chart.series.length);
    const y = (value) => MARGIN.top + plotHeight * (1 - value);

    const svg = node("svg", {
      class: "kr-chart__svg", width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`,
      role: "img", "aria-label": chart.label,
    });
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      svg.append(node("line", { class: "kr-chart__grid", x1: MARGIN.left, x2: width - MARGIN.right, y1: y(tick), y2: y(tick) }));
      svg.append(node("text", { class: "kr-chart__tick", x: MARGIN.left - 4, y: y(tick) + 4, "text-anchor": "end" }, format.whole(tick)));
    }
    const labelEvery = Math.ceil(22 / band); // outcome labels at least 22 px apart
    const showValues = barWidth >= 30;
    ks.forEach((k, index) => {
      const left = MARGIN.left + band * index + (band - barWidth * chart.series.length) / 2;
      chart.series.forEach((series, s) => {
        const value = atLeast(series, k);
        const bar = node("rect", {
          class: `kr-chart__bar kr-chart__bar--${s + 1}`, x: left + s * barWidth, width: barWidth - 1,
          y: y(value), height: Math.max(plotHeight * value, value > 0 ? 1 : 0),
          "data-series": s + 1, "data-k": k, "data-at-least": value,
        });
        const name = `${series.name ? `${series.name} · ` : ""}${chart.outcome} ≥ ${format.outcome(k)}`;
        bar.append(node("title", {}, format.pair(name, format.percent(value))));
        svg.append(bar);
        if (showValues) {
          svg.append(node("text", {
            class: "kr-chart__value", x: left + s * barWidth + barWidth / 2, y: y(value) - 3, "text-anchor": "middle",
          }, format.short(value)));
        }
      });
      if (index % labelEvery === 0) {
        svg.append(node("text", {
          class: "kr-chart__outcome", x: MARGIN.left + band * index + band / 2, y: HEIGHT - MARGIN.bottom + 15, "text-anchor": "middle",
        }, `≥\u2009${format.outcome(k)}`));
      }
    });
    svg.append(node("line", { class: "kr-chart__axis", x1: MARGIN.left, x2: width - MARGIN.right, y1: y(0), y2: y(0) }));

    const caption = document.createElement("figcaption");
    caption.className = "kr-chart__caption";
    caption.textContent = chart.title;
    figure.replaceChildren(caption, svg);
    if (chart.series.length > 1) {
      const legend = document.createElement("p");
      legend.className = "kr-chart__legend";
      chart.series.forEach((series, s) => {
        const key = document.createElement("span");
        key.className = `kr-chart__key kr-chart__key--${s + 1}`;
        key.textContent = series.name;
        legend.append(key);
      });
      figure.append(legend);
    }
  }

  /** Draws every chart into `box` and draws them again when the box changes width. */
  function draw(box, charts, format) {
    box.replaceChildren(...charts.map(() => {
      const figure = document.createElement("figure");
      figure.className = "kr-chart";
      return figure;
    }));
    const render = () => charts.forEach((chart, i) => drawOne(box.children[i], chart, format, box.clientWidth));
    render();
    if (box.__krResize) box.__krResize.disconnect();
    let lastWidth = box.clientWidth;
    box.__krResize = new ResizeObserver(() => {
      if (Math.abs(box.clientWidth - lastWidth) < 8) return;
      lastWidth = box.clientWidth;
      render();
    });
    box.__krResize.observe(box);
  }

  window.krChart = { draw, outcomes };
})();
