// What the site's search adds to Material's search worker: an index built when first needed, and a
// ranking closer to the terminal's (kensei_ref/rules/search/). kensei_ref/build/search_patch.py
// inserts this file into the built worker, inside the worker's own scope (nothing here is global), and
// writes the build's settings in place of `null` below; its patches call these functions where
// Material sets up, searches and marks the words a result lacks.

const krSettings = null; // the build's settings: see search_patch.SETTINGS

/**
 * The set-up message kept, the function that builds the index from it, that build once begun, the
 * rules ranked as the terminal ranks them (rule_ranking.js), and the rules the last query found there.
 */
const krIndexState = { setUp: null, build: null, built: null, rules: null, ours: new Map() };

/**
 * Keeps the page's set-up message instead of building the index at once: a calculator page's engine
 * starts at the same moment, on the same two cores. The index is built by the first query (see
 * krIndex), by the search box getting the focus (below), or krSettings.indexDelayMs later, whichever
 * comes first.
 */
function krKeepSetUp(setUp, build) {
  krIndexState.setUp = setUp;
  krIndexState.build = build;
  krIndexState.built = null;
  setTimeout(krIndex, krSettings.indexDelayMs);
}

/** The index's build, begun now if it was not: every query waits for the same one. */
function krIndex() {
  const setUp = krIndexState.setUp;
  if (setUp && !krIndexState.built) {
    krIndexState.built = krIndexState.build(setUp).then(() => {
      try {
        krIndexState.rules = new KrRuleIndex(setUp.docs, setUp.config[krSettings.languageKey]);
      } catch (error) {
        console.warn("The rules' ranking could not be built; lunr's ranking is used.", error); // still a search
      }
    });
  }
  return krIndexState.built;
}

// The page asks for the index as soon as the search box gets the focus (assets/js/search.js).
if (typeof BroadcastChannel === "function") new BroadcastChannel(krSettings.indexChannel).onmessage = krIndex;

/**
 * The game a query names ("ronin movement", "движение в ронине") and the query without its name, as
 * the terminal reads it: exactly one game named and other words beside it; else no game, and the query
 * as typed. A rule id ("kensei.regroup") names no game.
 */
function krGameNamed(query) {
  const names = new RegExp(krSettings.gameWord, "giu");
  const games = new Set([...query.matchAll(names)].map(([, name]) => krSettings.games[name.toLowerCase()]));
  const rest = query.replace(names, " ").trim();
  return games.size === 1 && /[\p{L}\p{N}]/u.test(rest) ? { game: [...games][0], query: rest } : { game: null, query };
}

/** The stems of a text's words through the index's own query pipeline (stop words out, accents folded). */
function krStems(index, text) {
  const words = text.replace(/<[^>]*>/g, " ").match(/[\p{L}\p{N}]+/gu) || [];
  const tokens = index.pipeline.run(words.map((word) => new lunr.Token(word.toLowerCase(), {})));
  return new Set(tokens.map(String).filter(Boolean));
}

/** Whether two sets of stems are the same (and not empty). */
function krSame(a, b) {
  return a.size > 0 && a.size === b.size && [...a].every((stem) => b.has(stem));
}

/**
 * A result's score as the terminal ranks it: the other game's pages and rules keep a share of it when
 * the query names a game (pages of neither game, the glossary, keep theirs); a result whose title or
 * one of its players' words (`aliases`, listed by the build) has the query's stems, no more and no
 * fewer, scores more. `names` keeps each result's stemmed names, read once.
 */
function krScore(search, hit, game, asked, names) {
  let score = hit.score;
  const gameOf = krSettings.gameFolders.find((folder) => hit.ref.startsWith(`${folder}/`));
  if (game && gameOf && gameOf !== game) score *= krSettings.otherGameWeight;
  if (!names.has(hit.ref)) {
    const doc = search.map.get(hit.ref) || {};
    names.set(hit.ref, [doc.title || "", ...(doc.aliases || [])].map((name) => krStems(search.index, name)));
  }
  if (names.get(hit.ref).some((stems) => krSame(asked, stems))) score *= krSettings.nameFactor;
  return score === hit.score ? hit : { ...hit, score };
}

/** The terminal's question and filler words ("how", "comment", "можно"). */
const krQuestionWords = new Set(krSettings.ranking.questionWords);

/**
 * Whether a query word counts for nothing in a result's share of the query's words, and is never
 * marked missing: a stop word of one of the site's languages (lunr's English one, or lunr.fr's...), or
 * a question or filler word of the terminal's, which its ranking counts a quarter.
 */
function krStopWord(word) {
  if (krQuestionWords.has(krNormalise(word))) return true;
  const filters = [lunr.stopWordFilter, ...krSettings.languages.map((code) => lunr[code] && lunr[code].stopWordFilter)];
  return filters.some((filter) => filter && !filter(word));
}

/**
 * The result list with its rules ranked as the terminal ranks them: the rules the terminal's ranking
 * finds (at most krSettings.ruleResults, and none below krSettings.ruleShare of the best one's score),
 * in its order, the best one level with the best of lunr's results; the other entries (glossary terms,
 * notes) as lunr scored them. A chapter's own entry is left out: its text is its rules', and
 * Material shows the chapter's title above its rules all the same (krGroup). A rule keeps lunr's match,
 * for its highlighted words, when lunr found it too.
 */
function krRanked(query, hits) {
  const rules = krIndexState.rules;
  krIndexState.ours = new Map();
  const found = rules ? [...rules.search(query)] : [];
  const floor = found.length ? found[0][1].score * krSettings.ruleShare : 0;
  const ours = found.slice(0, krSettings.ruleResults).filter(([, { score }]) => score >= floor);
  if (!ours.length) return hits;
  const lunrHits = new Map(hits.map((hit) => [hit.ref, hit]));
  const best = Math.max(0, ...hits.map((hit) => hit.score)) || 1;
  const top = ours[0][1].score;
  krIndexState.ours = new Map(ours);
  const ranked = ours.map(([ref, { score }]) => ({
    ref,
    score: (best * score) / top,
    matchData: lunrHits.has(ref) ? lunrHits.get(ref).matchData : { metadata: {} },
  }));
  const chapter = new RegExp(`^(${krSettings.gameFolders.join("|")})/[^#]*$`);
  return [...ranked, ...hits.filter((hit) => !rules.isRule(hit.ref) && !chapter.test(hit.ref))];
}

/**
 * Put a result into its group (Material shows each group under its page's title): the rules the
 * terminal's ranking found are grouped only with the rules of the same page that come right after
 * them, so that the list keeps the terminal's order (a page whose rules another page's rule comes
 * between is shown again); every other result joins its page's group, as Material groups them. A
 * page's second group has the key "<page>\u0000<n>" (krPage reads the page back).
 */
function krGroup(groups, page, result) {
  const last = groups.krLast;
  let key = page;
  if (!krIndexState.ours.has(result.location)) {
    groups.set(page, [...(groups.get(page) || []), result]);
  } else if (last !== undefined && krPage(last) === page) {
    key = last;
    groups.get(key).push(result);
  } else {
    if (groups.has(page)) key = `${page}\u0000${groups.size}`;
    groups.set(key, [result]);
  }
  groups.krLast = key;
}

/** The page of a group's key (krGroup). */
function krPage(key) {
  return key.split("\u0000")[0];
}

/**
 * A result's final score. Material multiplies each by 1 + the square of the share of the query's words
 * lunr found in it; a rule of the terminal's ranking, which already weighs the words it has, counts as
 * having them all (x2, Material's most), so that lunr's share does not reorder the rules.
 */
function krShared(location, score, share) {
  return krIndexState.ours.has(location) ? score * 2 : score * (1 + share ** 2);
}

/**
 * The query's words a result lacks ("Not found: ..."): for a rule the terminal's ranking found, those
 * its ranking did not match in it (in any form: stem, beginning, typing mistake), not only those lunr
 * did not.
 */
function krFound(location, found) {
  const ours = krIndexState.ours.get(location);
  if (!ours) return found;
  const matched = (term) => (krNormalise(term).match(KR_WORD) || []).some((word) => ours.words.has(word));
  return Object.fromEntries(Object.entries(found).map(([term, isFound]) => [term, isFound || matched(term)]));
}

/**
 * The stemmers' addresses for importScripts, through a Trusted Types policy where the worker has them:
 * the server's Content-Security-Policy header requires Trusted Types in this worker too (csp.py), and
 * a worker has no default policy of the page's. Addresses of the site only.
 */
function krTrustedScripts(addresses) {
  const types = self.trustedTypes;
  if (!types || !types.createPolicy) return addresses;
  krTrustedScripts.policy ??= types.createPolicy("kensei-ref", {
    createScriptURL: (address) => {
      const url = new URL(address, self.location.href);
      if (url.origin !== self.location.origin) throw new TypeError(`Not a script of this site: ${url.href}`);
      return url.href;
    },
  });
  return addresses.map((address) => krTrustedScripts.policy.createScriptURL(address));
}
