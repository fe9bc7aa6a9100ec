// The site's search builds its index when it is first asked, not as each page loads (so that a
// calculator page's engine starts alone: kensei_ref/build/search_ranking.js). A reader who puts the
// cursor in the search box asks for it then, so that the first word typed finds the index built.
(() => {
  "use strict";
  if (window.__krSearchFocus || !("BroadcastChannel" in window)) return; // once per tab: Material may run it again
  window.__krSearchFocus = true;
  const channel = new BroadcastChannel("kr-search-index"); // the worker listens on it (search_ranking.js)
  document.addEventListener("focusin", (event) => {
    if (event.target instanceof Element && event.target.matches(".md-search__input")) channel.postMessage("build");
  });
})();
