// Trusted Types, which the Content-Security-Policy requires for script (kensei_ref/build/csp.py): a
// string reaches an HTML or script sink only through a policy. Loaded first in every page's <head>,
// before Material's bundle.
//
// - "kensei-ref", the site's own (window.krTrustedTypes): the result template, which is the build's
//   markup read from the page's own data (calculator.js), and the engine's worker, a file of the site.
// - "default", for Material's bundle, which writes strings where the site's scripts write none: pages
//   opened in place (parsed with DOMParser, their inline scripts copied), search results, copied
//   headings, tooltips, and its search worker's address. Script addresses must be the site's own. Its
//   HTML and script text pass as they are: a policy cannot tell Material's strings from others, and
//   what decides whether script runs stays the policy's script-src (the site's files, and inline
//   scripts only by their SHA-256), which neither Trusted Types nor this policy widens.
(() => {
  "use strict";
  const types = window.trustedTypes;
  if (!types || !types.createPolicy || types.defaultPolicy) return;
  const ofTheSite = (address) => {
    const url = new URL(address, document.baseURI);
    if (url.origin !== window.location.origin) throw new TypeError(`Not a script of this site: ${url.href}`);
    return url.href;
  };
  window.krTrustedTypes = types.createPolicy("kensei-ref", {
    createHTML: (markup) => markup,
    createScriptURL: ofTheSite,
  });
  types.createPolicy("default", {
    createHTML: (markup) => markup,
    createScript: (code) => code,
    createScriptURL: ofTheSite,
  });
})();
