// The site's search builds its index when it is first asked, not as each page loads (so that a
// calculator page's engine starts alone: kensei_ref/build/search_ranking.js). A reader who puts the
// cursor in the search box asks for it then, so that the first word typed finds the index built.
//
// Material searches when a key is released in the box. Text that comes without a key (pasted, dictated
// to a phone's keyboard, a word picked from its suggestions, letters of a keyboard layout the browser
// types without key events) would otherwise wait for the next key: each change of the box's text that
// no key release follows is passed on to Material as one.
(() => {
  "use strict";
  if (window.__krSearchFocus) return; // once per tab: Material may run it again
  window.__krSearchFocus = true;
  const channel = "BroadcastChannel" in window ? new BroadcastChannel("kr-search-index") : null;
  let keyDown = false; // a key is down: its release will tell Material
  document.addEventListener("focusin", (event) => {
    if (!(event.target instanceof Element) || !event.target.matches(".md-search__input")) return;
    keyDown = false;
    if (channel) channel.postMessage("build"); // the worker listens on it (search_ranking.js)
  });
  document.addEventListener("keydown", () => (keyDown = true), true);
  document.addEventListener("keyup", () => (keyDown = false), true);
  document.addEventListener("input", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.matches(".md-search__input") || keyDown) return;
    box.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
  });
})();
