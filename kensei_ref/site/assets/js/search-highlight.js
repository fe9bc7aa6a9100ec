// (Written into every page's head: kensei_ref.site.INLINE_SCRIPTS.)
// A search result's address carries the query ("?h=…") for Material to highlight its words on the page
// it opens. Material builds one regular expression of the whole query, and from an address with a very
// long one (a link of 100,000 letters) the browser refuses it: "Invalid regular expression", an
// uncaught error. This script runs in the page's head, before Material's bundle reads the address: a
// query longer than the search box takes (its maxlength, overrides/partials/search.html) is no search
// the site wrote, and it is dropped from the address, so that the page opens without highlight.
(() => {
  "use strict";
  const LONGEST_QUERY = 200; // characters: the search box's maxlength
  const address = new URL(window.location.href);
  const query = address.searchParams.get("h");
  if (query === null || query.length <= LONGEST_QUERY) return;
  address.searchParams.delete("h");
  window.history.replaceState(window.history.state, "", address.href);
})();
