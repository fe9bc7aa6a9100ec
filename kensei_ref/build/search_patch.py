"""Make Material's site search find inflected words: a French or Russian word in any form.

Material's search worker turns every query term into a prefix wildcard (``term*``), and lunr does
not stem wildcard terms, so "перегруппировку*" never meets the indexed stem "перегруппировк".
The patch keeps the plain term, which goes through the language pipeline (stemmed); adds the
wildcard only to the last word, the one still being typed (a wildcard on a finished short word
such as "на*" would match every "натиск"); and, for words of five letters or more, a fuzzy
``term~1`` that lunr stems before allowing one typing mistake ("перегрупировка", "regroop", "paniqe").
Words lose their accents and ё before they are stemmed, on both sides, so that a word typed without
them finds the page's ("rizieres", "легкое"). The worker ships minified, so the patch edits the
built file; when Material changes that code the build stops with an error instead of silently
shipping a search that cannot stem.

The rules are ranked as the terminal ranks them (kensei_ref/rules/search/): rule_ranking.js, beside it, is the
terminal's ranking in JavaScript, reading the rules' fields from the page's own search index (see RANKED);
lunr's results give the other entries (glossary terms, notes) and the words highlighted. Of the 825
distinct queries of tests/search_*queries.yaml, the site's first rule is the terminal's for 98 to 100 %
per language; the rest differ mostly by the stemmer (lunr's English one is Porter's, the terminal's
Snowball's).

The worker also builds its index only when it is first asked, when the search box gets the focus, or a
few seconds after the page set it up (see LATER_INDEX), not at once: on a calculator page opened from a
shared link, the English index's build (0.6 s of one core, traced in Chromium) ran beside the
calculators' engine start on two cores: a shared link's figures, engine saved on the device, came 0.1 to
0.38 s later than without it (medians of 5 to 9 visits, measured twice on one machine).
"""

from __future__ import annotations

import json
from pathlib import Path

from mkdocs.exceptions import PluginError

from kensei_ref.languages import LANGUAGES
from kensei_ref.rules import search

QUERY_TERMS = (
    ".map(r=>/(^[+-]|[~^]\\d+$)/.test(r)?r:`${r}*`)",
    ".flatMap((r,i,a)=>/(^[+-]|[~^]\\d+$)/.test(r)?[r]:"
    "[`${r}^10`,...(i===a.length-1&&r.length>2?[`${r}*^5`]:[]),...(r.length>4?[`${r}~1`]:[])])",
)
"""Each query word: stemmed (weight 10), a wildcard for the word being typed (5), and, from five
letters, a fuzzy match (1): players misspell short words too ("paniqe"); weak enough that a correctly
spelt word is not outranked by its neighbours ("fighter" is one letter from "light" once stemmed)."""

MATCHED_TERMS = (
    "e[s].startsWith(o.term)&&(n[o.term]=!0,r.delete(o))",
    '((a,b)=>a.startsWith(b)||b.startsWith(a))(...[e[s],o.term].map(w=>w.normalize("NFD")'
    '.replace(/\\p{M}/gu,"")))&&(n[o.term]=!0,r.delete(o))',
)
"""A result is boosted by the share of query words it contains, and a result shows the words it lacks
("Not found: ..."); a word found through its stem counts as found, accents aside ("drowns" found as
"drown", "léger" as "leg"), so results with every word rank first and are not marked."""

FOLDED_LETTERS = (
    'this.ref("location");',
    'this.ref("location"),(f=>{for(let p of[this.pipeline,this.searchPipeline]){let i=p._stack.findIndex('
    "g=>/stemmer/.test(g.label));p._stack.splice(i<0?p._stack.length:i,0,f)}})("
    "lunr.Pipeline.registeredFunctions.krFold||(lunr.Pipeline.registerFunction(f=>f.update(s=>(s.length<4?s:s"
    '.normalize("NFD").replace(/([a-z])\\p{M}+/gu,"$1").normalize("NFC")).replace(/ё/g,"е")),"krFold"),'
    "lunr.Pipeline.registeredFunctions.krFold));",
)
"""Every word, of the pages and of the query, has its ё written е and, from four letters, loses the
accents of its Latin letters, just before the stemmers read it, as players type ("foret",
"rizieres", "легкое"): stems then meet whichever way the word was typed. Shorter words keep their
accents: the query is not filtered for stop words, and "dés" made "des" would match every "de".
Cyrillic й and the rest are kept, for the Russian stemmer."""

INDEX_DELAY_MS = 3000
"""How long after the page's set-up message the worker builds its index if no query came first: longer
than an engine restored from the device takes to show a shared link's figures (0.9 to 1.3 s in make
bench on this project's 2-core machine), so that the two do not share the processor; a query typed
sooner, or the search box's focus, builds it at once."""

GAME_WORD = (
    r"(?<![\p{L}\p{N}.])(" + "|".join(name for names in search.GAME_NAMES.values() for name in names) + r")\p{L}{0,3}"
    r"(?!\.?[\p{L}\p{N}])"
)
"""A game's name in a query, inflected or not ("ronin", "ронине"), but not the start of a rule id
("kensei.regroup"): the names the terminal's search knows (kensei_ref/rules/search/)."""

LANGUAGE_KEY = "kr_language"
"""The key of the index's configuration that names its language (search_index.py writes it)."""
RULE_RESULTS = 10
"""Rules listed per query at most, as many as the terminal's ``kensei-ref search`` lists."""
RULE_SHARE = 0.25
"""Rules scoring less than this share of the best one's score are not listed: a reader on a phone sees
the rules that answer the query, not every rule that shares one of its words. (The top-three rates of
the query files are the same without this floor.)"""
PAGE_FIELDS = ("title", "aliases", "names", "keywords", "body", "extra")
"""The terminal's fields that rule_ranking.js reads from a page's index entry: the page's text is the
``body`` and then, from the entry's ``bodyEnd``, the rule's examples and notes (``extra``)."""

SETTINGS = {
    "indexDelayMs": INDEX_DELAY_MS,
    "gameWord": GAME_WORD,
    "games": {name: game for game, names in search.GAME_NAMES.items() for name in names},
    "gameFolders": list(search.GAME_NAMES),
    "otherGameWeight": search.OTHER_GAME_WEIGHT,
    "nameFactor": 1 + search.NAME_BONUS,
    "languages": [code for code in LANGUAGES if code != "en"],
    "indexChannel": "kr-search-index",  # assets/js/search.js posts on it when the search box gets the focus
    "languageKey": LANGUAGE_KEY,
    "ruleResults": RULE_RESULTS,
    "ruleShare": RULE_SHARE,
    "ranking": {
        "fieldWeights": {name: search.FIELD_WEIGHTS[name] for name in PAGE_FIELDS},
        "fieldB": {name: search.FIELD_B[name] for name in PAGE_FIELDS},
        "k1": search.K1,
        "latinStemmer": search.LATIN_STEMMER,
        "prefixWeight": search.PREFIX_WEIGHT,
        "stemPrefixWeight": search.STEM_PREFIX_WEIGHT,
        "pairWeight": search.PAIR_WEIGHT,
        "typoWeights": search.TYPO_WEIGHTS,
        "prefixMinLetters": search.PREFIX_MIN_LETTERS,
        "typoMinLetters": search.TYPO_MIN_LETTERS,
        "sharedStemLetters": search.SHARED_STEM_LETTERS,
        "stemShare": search.STEM_SHARE,
        "longWordLetters": search.LONG_WORD_LETTERS,
        "allTermsBonus": search.ALL_TERMS_BONUS,
        "commonDocumentShare": search.COMMON_DOCUMENT_SHARE,
        "exactScore": search.EXACT_SCORE,
        "queryWords": search.QUERY_WORDS,
        "questionWeight": search.QUESTION_WEIGHT,
        "stopWords": sorted(search.STOP_WORDS),
        "questionWords": sorted(search.QUESTION_WORDS),
        "numberStems": search.number_stems(),
        "cyrillicStemmer": search.CYRILLIC_STEMMER,
    },
}
"""What search_ranking.js reads, from the terminal search's own figures and names: each number lives
once, in Python (the games' folders are their ids: kensei/..., ronin/...)."""

RANKING = Path(__file__).with_name("search_ranking.js")
RULE_RANKING = Path(__file__).parent.parent / "rules" / "search" / "rule_ranking.js"
"""The rules' ranking in the browser, beside the Python it mirrors (kensei_ref/rules/search/ranking.py)."""
SETTINGS_LINE = "const krSettings = null; // the build's settings: see search_patch.SETTINGS"


def _helpers() -> str:
    """search_ranking.js with the build's settings written in."""
    code = RANKING.read_text(encoding="utf-8")
    if code.count(SETTINGS_LINE) != 1:
        raise PluginError(f"search patch: {RANKING.name} has no line {SETTINGS_LINE!r}")
    return code.replace(SETTINGS_LINE, f"const krSettings = {json.dumps(SETTINGS, ensure_ascii=False)};")


HELPERS = (
    "var de;function Ie(t){",
    f"var de;\n{RULE_RANKING.read_text(encoding='utf-8')}\n{_helpers()}\nfunction Ie(t){{",
)
"""rule_ranking.js and search_ranking.js, inside the worker's scope, before Material's own functions."""

LATER_INDEX = (
    "function Fe(t){return W(this,null,function*(){switch(t.type){case 0:return yield Ie(t.data.config),"
    "de=new U(t.data),{type:1};case 2:let e=t.data;try{return{type:3,data:de.search(e)}}",
    "function Fe(t){return W(this,null,function*(){switch(t.type){case 0:return krKeepSetUp(t.data,"
    "d=>Ie(d.config).then(()=>{de=new U(d)})),{type:1};"
    "case 2:let e=t.data;try{if(!/[\\p{L}\\p{N}]/u.test(e))return{type:3,data:{items:[]}};"
    "return yield krIndex(),{type:3,data:de.search(e)}}",
)
"""The set-up message is answered "ready" at once and kept; the index (the language's stemmers loaded,
every page's words stemmed) is built by the first query, which waits for it, by the search box getting
the focus (assets/js/search.js), or INDEX_DELAY_MS later, whichever comes first (krKeepSetUp, krIndex).
Queries answer in the order they came: each waits for the same build. A query with no letter or digit
has no result, as before, and builds nothing: Material's bundle sends the search box's value, usually
empty, as soon as the worker is ready."""

GAME_QUERY = (
    'search(e){if(e=e.replace(new RegExp("\\\\p{sc=Han}+","gu")',
    "search(e){let krQuery=e,krGame=krGameNamed(e);e=krGame.query;let krAsked=krStems(this.index,e);"
    "this.krNames??=new Map;"
    'if(e=e.replace(new RegExp("\\\\p{sc=Han}+","gu")',
)
"""The query as typed is kept for the rules' ranking (RANKED); lunr searches it without the game's
name ("ronin" would otherwise count as a word to find), and its stems are kept, to be compared with
the names of each result."""

RANKED = (
    "n=this.index.search(e).reduce(",
    "n=krRanked(krQuery,this.index.search(e).map(h=>krScore(this,h,krGame.game,krAsked,this.krNames))).reduce(",
)
"""The rules in the terminal's order (krRanked, from rule_ranking.js), the best of them level with the
best of lunr's results; the other results as lunr scores them, adjusted as the terminal would (krScore):
the other game's pages keep OTHER_GAME_WEIGHT of their score when the query names a game, and a result
whose title has the query's stems, no more and no fewer, scores 1 + NAME_BONUS times as much."""

RULES_SCORED = (
    "let f=he(r,Object.keys(u.metadata));",
    "let f=krFound(o,he(r,Object.keys(u.metadata)));",
)
"""A rule that the terminal's ranking found lacks none of the query's words (krFound)."""

RULES_SHARE = ("score:a*(1+K(g,2))", "score:krShared(c.location,a,g)")
"""A rule that the terminal's ranking found keeps its order (krShared): lunr's share of the query's
words found does not reorder it."""

GROUPED_IN_ORDER = (
    "s.set(u,[...s.get(u)||[],o])}return s},new Map);for(let[s,o]of n)if(!o.find(a=>a.location===s)){"
    "let a=this.map.get(s);",
    "krGroup(s,u,o)}return s},new Map);for(let[s,o]of n)if(!o.find(a=>a.location===krPage(s))){"
    "let a=this.map.get(krPage(s));",
)
"""The rules are listed in the terminal's order (krGroup): Material groups every result of a page under
it, at the place of the page's best, so that a weak rule of the same chapter as a strong one came
before the next chapter's strong rules. Each group still has its page's own entry, for its title."""

STOP_WORDS_UNMARKED = (
    "function he(t,e){var i;let r=new Set(t),n={};",
    "function he(t,e){var i;let k=t.filter(o=>!krStopWord(o.term)),r=new Set(k.length?k:t),n={};",
)
"""A result lists the query's words it lacks ("Not found: ..."), and ranks by the share it has; the stop
words of every language of the site count for neither, as Material does for English ones only: "в"
was marked missing under "движение в ронине". A query of stop words alone keeps them all."""

TRUSTED_SCRIPTS = (
    "r.length&&(yield importScripts(`${e}/min/lunr.stemmer.support.min.js`,...r))",
    "r.length&&(yield importScripts(...krTrustedScripts([`${e}/min/lunr.stemmer.support.min.js`,...r])))",
)
"""The languages' stemmers are loaded through a Trusted Types policy (krTrustedScripts, in
search_ranking.js), which the server's Content-Security-Policy header requires in the worker too
(kensei_ref/build/csp.py): addresses of the site only."""

PATCHES = (
    TRUSTED_SCRIPTS,
    QUERY_TERMS,
    MATCHED_TERMS,
    FOLDED_LETTERS,
    HELPERS,
    LATER_INDEX,
    GAME_QUERY,
    RANKED,
    RULES_SCORED,
    RULES_SHARE,
    GROUPED_IN_ORDER,
    STOP_WORDS_UNMARKED,
)


def apply(site_dir: Path) -> Path:
    """Patch the search worker of the site built in ``site_dir``; return the patched file.

    Raises:
        PluginError: when the worker or the code to patch is not found exactly once.
    """
    workers = sorted((site_dir / "assets" / "javascripts" / "workers").glob("search.*.min.js"))
    if len(workers) != 1:
        raise PluginError(f"search patch: expected one search worker in {site_dir}, found {len(workers)}")
    worker = workers[0]
    code = worker.read_text(encoding="utf-8")
    for original, patched in PATCHES:
        if code.count(patched) == 1 and original not in code:
            continue  # already patched (mkdocs serve rebuilds into the same folder)
        if code.count(original) != 1:
            raise PluginError(
                f"search patch no longer applies to {worker.name}: Material's search code changed near "
                f"{original[:40]!r}; update kensei_ref/search_patch.py for the pinned mkdocs-material version"
            )
        code = code.replace(original, patched)
    worker.write_text(code, encoding="utf-8")
    return worker
