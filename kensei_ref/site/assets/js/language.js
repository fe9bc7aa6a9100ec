// Keep the rule being read when switching language: the switcher's links lead to the same page,
// and this adds the current rule anchor (#kensei.regroup) to them.
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element && event.target.closest("a.kr-language");
  if (!link || !window.location.hash) return;
  event.preventDefault();
  window.location.href = link.href.split("#")[0] + window.location.hash;
});
