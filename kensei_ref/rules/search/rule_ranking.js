// The terminal's ranking of the rules (ranking.py and index.py beside this file, SearchIndex), in the site's search
// worker: the same fields and weights, BM25F over them, neighbouring words as phrases, words typed
// without their accents, a typing mistake or only their beginning, question words counting a quarter,
// the bonus of a rule that has every word or is named word for word, a game named in the query, a
// rule named by its number or id. It reads the rules from the page's own search index (no byte more
// to download), and stems words with the worker's lunr stemmers: Snowball's for each other language, and
// for English lunr's Porter stemmer where the terminal has Snowball's English one.
//
// search_patch.py inserts this file into the built worker beside search_ranking.js, and writes the
// terminal's figures into krSettings.ranking; search_ranking.js ranks the rules of a result list with
// it (krRanked).

/** Letters and digits: a word, as the terminal's WORD reads one. */
const KR_WORD = /[\p{L}\p{N}]+/gu;
/** Rule numbers (8.3.2) and ids (kensei.regroup), kept whole. */
const KR_WHOLE = /(?<![\p{L}\p{N}_.])(?:\d+(?:\.\d+)+|(?:kensei|ronin)\.[a-z0-9]+(?:-[a-z0-9]+)*)(?![\p{L}\p{N}_-])/gu;
/** A rule id without its game (five-cm-rule). */
const KR_HYPHENATED = /(?<![\p{L}\p{N}_.-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\p{L}\p{N}_-])/gu;
const KR_NUMBER = /^\d+(?:\.\d+)+$/;
const KR_CYRILLIC = /[\u0400-\u04ff]/;

/** Text as the terminal compares it: lower case, ё written е. */
function krNormalise(text) {
  return text.toLowerCase().replace(/ё/g, "е");
}

/** Latin letters without their accents ("defense" for "défense"). */
function krFoldAccents(word) {
  return word.normalize("NFD").replace(/\p{M}/gu, "");
}

const KR_ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', nbsp: " " };

/** A page's text without its markup, entities read. */
function krPlain(html) {
  return String(html || "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, name) => KR_ENTITIES[name] || "'");
}

/** Optimal string alignment distance (a swap of neighbours is one edit), or limit + 1 beyond it. */
function krEditDistance(a, b, limit) {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j], before[j - 2] + 1);
      }
    }
    if (Math.min(...current) > limit) return limit + 1;
    [before, previous] = [previous, current];
  }
  return previous[b.length];
}

/** Words of each length: the candidates of a typing mistake are those of about the same length. */
function krByLength(words) {
  const buckets = new Map();
  for (const word of words) {
    if (!buckets.has(word.length)) buckets.set(word.length, []);
    buckets.get(word.length).push(word);
  }
  return buckets;
}

/** The rules of one language's search index, ranked as the terminal ranks them. */
class KrRuleIndex {
  /**
   * @param docs the page's search index entries; those at a rule's anchor are the rules
   * @param lang the index's language (its stemmer for words in Latin letters: the terminal's LATIN_STEMMER)
   */
  constructor(docs, lang) {
    this.figures = krSettings.ranking;
    this.lang = lang;
    this.stopWords = new Set(this.figures.stopWords);
    this.questionWords = new Set(this.figures.questionWords);
    this.stems = new Map();
    this.surface = new Map();
    this.rules = docs.filter((doc) => /#(kensei|ronin)\.[a-z0-9-]+$/.test(doc.location));
    const fields = this.rules.map((doc) => this.fieldsOf(doc));
    this.postings = this.weigh(fields);
    this.idf = new Map();
    for (const [term, docs] of this.postings) {
      this.idf.set(term, Math.log(1 + (this.rules.length - docs.size + 0.5) / (docs.size + 0.5)));
    }
    this.vocabulary = [...this.postings.keys()].filter((term) => !term.includes(" ")).sort();
    this.stemsByLength = krByLength(this.vocabulary);
    this.surfaceByLength = krByLength(this.surface.keys());
    this.ids = this.rules.map((doc) => doc.location.split("#")[1]);
    this.games = this.ids.map((id) => id.split(".")[0]);
    const title = (doc) => krPlain(doc.title).replace(/^\s*\d+(?:\.\d+)+\s+/, ""); // without its number
    const names = (doc) => [title(doc), ...(doc.aliases || [])];
    this.namesOf = this.rules.map((doc) => new Set(names(doc).map((name) => this.nameKey(name))));
    this.gameStems = new Map();
    for (const [name, game] of Object.entries(krSettings.games)) this.gameStems.set(this.stem(krNormalise(name)), game);
    this.exact = new Map();
    this.ids.forEach((id, doc) => {
      this.exact.set(id, doc);
      const number = /^(\d+(?:\.\d+)+)\s/.exec(krPlain(this.rules[doc].title));
      if (number) this.exact.set(number[1], doc);
    });
  }

  /** Whether an entry of the page's index (its location) is one of the rules. */
  isRule(location) {
    this.locations ??= new Set(this.rules.map((doc) => doc.location));
    return this.locations.has(location);
  }

  /** The stem of a normalised word: digits as they are, Cyrillic by the Cyrillic language's stemmer (CYRILLIC_STEMMER),
   * Latin letters by the index's language's (English in the Russian index; lunr's own stemmer is English's),
   * then without accents; a number word naming a die's face, its digit (number_stems). */
  stem(word) {
    if (/^\d+$/.test(word)) return word;
    const cyrillic = this.figures.cyrillicStemmer;
    const code = KR_CYRILLIC.test(word) ? cyrillic : this.figures.latinStemmer[this.lang];
    const found = code === cyrillic ? String(lunr[code].stemmer(word))
      : krFoldAccents(String(code === "en" ? lunr.stemmer(new lunr.Token(word, {})) : lunr[code].stemmer(word)));
    return (this.figures.numberStems[code] || {})[found] ?? found; // "ten" is "10"
  }

  /** A word's stem, from those the index read when it has the word. */
  stemOf(word) {
    if (!this.stems.has(word)) this.stems.set(word, this.stem(word));
    return this.stems.get(word);
  }

  words(text) {
    return krNormalise(text).match(KR_WORD) || [];
  }

  /** The stems of a name without its stop words, in one order: a query with the same stems names it. */
  nameKey(name) {
    const meaningful = this.words(krPlain(name)).filter((word) => !this.stopWords.has(word));
    const stems = meaningful.map((word) => this.stemOf(word));
    return [...new Set(stems)].sort().join(" ");
  }

  /** The texts of each field of a rule, as the terminal's rule_fields names them: what the page's
   * index holds of them (names and keywords one a line; its examples and notes end its text, from
   * bodyEnd on). */
  fieldsOf(doc) {
    const end = Number.isInteger(doc.bodyEnd) ? doc.bodyEnd : doc.text.length;
    return {
      title: [krPlain(doc.title)],
      aliases: doc.aliases || [],
      names: (doc.names || "").split("\n"),
      keywords: (doc.keywords || "").split("\n"),
      body: [krPlain(doc.text.slice(0, end))],
      extra: [krPlain(doc.text.slice(end))],
    };
  }

  /** Index terms of some texts: numbers and ids whole, word stems, and pairs of neighbouring stems. */
  terms(texts) {
    const terms = [];
    for (const text of texts) {
      const normalised = krNormalise(text);
      terms.push(...(normalised.match(KR_WHOLE) || []));
      const words = this.words(text);
      for (const word of words) {
        if (!this.stems.has(word)) {
          // a word met for the first time: its stem, and the stem of the word as typed without accents
          const folded = krFoldAccents(word);
          if (!this.surface.has(folded)) this.surface.set(folded, new Set());
          this.surface.get(folded).add(this.stemOf(word));
        }
        terms.push(this.stems.get(word));
      }
      terms.push(...this.pairs(words));
    }
    return terms;
  }

  /** Stems of neighbouring words, stop words skipped, as one term ("long rang"). */
  pairs(words) {
    const stems = words.filter((word) => !this.stopWords.has(word)).map((word) => this.stemOf(word));
    return stems.slice(1).map((stem, i) => `${stems[i]} ${stem}`);
  }

  /** The query's pairs of neighbouring words, each with its weight: a quarter with a question word
   * ("when shoot"), as the word counts, unless the query is only question words (_query_pairs). */
  queryPairs(words) {
    const kept = words.filter((word) => !this.stopWords.has(word));
    const asked = kept.some((word) => !this.questionWords.has(word));
    const weights = new Map();
    this.pairs(kept).forEach((pair, i) => {
      const question = asked && (this.questionWords.has(kept[i]) || this.questionWords.has(kept[i + 1]));
      const weight = this.figures.pairWeight * (question ? this.figures.questionWeight : 1);
      weights.set(pair, Math.max(weights.get(pair) || 0, weight));
    });
    return weights;
  }

  /**
   * Per term and rule, BM25F's term frequency: the fields' length-normalised counts, each times its
   * field's weight, summed, then saturated once (as the terminal's _weigh).
   */
  weigh(fields) {
    const { fieldWeights, fieldB, k1 } = this.figures;
    const termsOf = (doc) => Object.entries(doc).map(([name, texts]) => [name, this.terms(texts)]);
    const docs = fields.map((doc) => Object.fromEntries(termsOf(doc)));
    const average = {};
    for (const name of Object.keys(fieldWeights)) {
      const length = docs.reduce((sum, doc) => sum + (doc[name] || []).length, 0);
      average[name] = Math.max(1, length / Math.max(1, docs.length));
    }
    const postings = new Map();
    docs.forEach((doc, i) => {
      for (const [name, terms] of Object.entries(doc)) {
        const norm = 1 - fieldB[name] + (fieldB[name] * terms.length) / average[name];
        const counts = new Map();
        for (const term of terms) counts.set(term, (counts.get(term) || 0) + 1);
        for (const [term, count] of counts) {
          if (!postings.has(term)) postings.set(term, new Map());
          const perDoc = postings.get(term);
          perDoc.set(i, (perDoc.get(i) || 0) + (fieldWeights[name] * count) / norm);
        }
      }
    });
    for (const perDoc of postings.values()) {
      for (const [i, frequency] of perDoc) perDoc.set(i, (frequency * (k1 + 1)) / (frequency + k1));
    }
    return postings;
  }

  /** Known stems that begin with a prefix, itself included. */
  *prefixed(prefix) {
    let low = 0;
    let high = this.vocabulary.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.vocabulary[middle] < prefix) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < this.vocabulary.length && this.vocabulary[i].startsWith(prefix); i++) {
      yield this.vocabulary[i];
    }
  }

  /** Known stems sharing most of their beginning with a long stem, weighted by how much they share. */
  *sharingStem(term) {
    const f = this.figures;
    if (term.length < f.sharedStemLetters) return;
    const shared = Math.max(f.prefixMinLetters, Math.ceil(f.stemShare * term.length));
    for (const known of this.prefixed(term.slice(0, shared))) {
      let common = 0;
      while (common < Math.min(term.length, known.length) && term[common] === known[common]) common++;
      if (common >= shared && known !== term && !known.startsWith(term)) {
        yield [known, f.prefixWeight + (f.stemPrefixWeight * common) / Math.max(term.length, known.length)];
      }
    }
  }

  /** Known words within limit edits of a word, with their distance. */
  *near(word, byLength, limit) {
    for (let length = word.length - limit; length <= word.length + limit; length++) {
      for (const known of byLength.get(length) || []) {
        const distance = krEditDistance(word, known, limit);
        if (distance <= limit) yield [known, distance];
      }
    }
  }

  /** Known stems a typing mistake away from a query word or from its stem. */
  misspelt(word, term) {
    const limit = word.length >= this.figures.longWordLetters ? 2 : 1;
    const weights = this.figures.typoWeights;
    const found = new Map();
    const keep = (known, weight) => found.set(known, Math.max(found.get(known) || 0, weight));
    for (const [known, distance] of this.near(term, this.stemsByLength, limit)) keep(known, weights[distance]);
    for (const [surface, distance] of this.near(krFoldAccents(word), this.surfaceByLength, limit)) {
      for (const known of this.surface.get(surface)) keep(known, weights[distance]);
    }
    return found;
  }

  /** The index terms a query word stands for, each with its weight and the idf it is scored with: its
   * stem; longer known words it begins and stems sharing most of its letters, lower; and, when it is
   * neither a known stem nor the beginning of one, known words a typing mistake away. The idf is never
   * above that of its own stem when known, else of the most common word it begins. */
  candidates(word) {
    const f = this.figures;
    const term = this.stemOf(word);
    const prefixes = word.length >= f.prefixMinLetters ? new Set([term, krFoldAccents(word)]) : new Set();
    const begun = new Set();
    for (const prefix of prefixes) for (const known of this.prefixed(prefix)) if (known !== prefix) begun.add(known);
    let found = new Map([...begun].map((known) => [known, f.prefixWeight]));
    if (this.postings.has(term)) found.set(term, 1);
    else if (!begun.size && word.length >= f.typoMinLetters && !/^\d+$/.test(word)) found = this.misspelt(word, term);
    for (const [known, weight] of this.sharingStem(term)) found.set(known, Math.max(found.get(known) || 0, weight));
    const begunIdf = [...begun].map((known) => this.idf.get(known));
    const cap = this.idf.has(term) ? this.idf.get(term) : Math.min(Infinity, ...begunIdf);
    return [...found].map(([known, weight]) => ({ term: known, weight, idf: Math.min(cap, this.idf.get(known)) }));
  }

  /** Rules a query names by number or id, in the order named (8.3 also names 8.3.1 ...). */
  named(query) {
    const text = krNormalise(query);
    const named = [];
    const name = (doc) => doc !== undefined && !named.includes(doc) && named.push(doc);
    const whole = text.match(KR_WHOLE) || [];
    for (const token of [...whole, ...(text.match(KR_HYPHENATED) || [])]) {
      const keys = token.includes(".") ? [token] : [`kensei.${token}`, `ronin.${token}`];
      for (const key of keys) name(this.exact.get(key));
    }
    for (const token of whole.filter((token) => KR_NUMBER.test(token))) {
      for (const [key, doc] of this.exact) if (key.startsWith(`${token}.`) && KR_NUMBER.test(key)) name(doc);
    }
    return named;
  }

  /** Each rule's score for a query and the query's words it matched: a Map from the rule's index entry
   * (its location) to { score, words }, best first, as the terminal's search() ranks. */
  search(query) {
    const f = this.figures;
    let queryWords = this.words(krNormalise(query).replace(KR_WHOLE, " "));
    const meaningful = queryWords.filter((word) => !this.stopWords.has(word));
    queryWords = [...new Set(meaningful.length ? meaningful : queryWords)].slice(0, f.queryWords);
    const { words, game } = this.gameNamed(queryWords);
    const { scores, matched } = this.scoreWords(words);
    for (const [pair, weight] of this.queryPairs(words)) {
      for (const [doc, tf] of this.postings.get(pair) || []) {
        scores.set(doc, (scores.get(doc) || 0) + weight * this.idf.get(pair) * tf);
      }
    }
    this.favourNames(words, scores);
    for (const [doc, score] of scores) {
      if (game && this.games[doc] !== game) scores.set(doc, score * krSettings.otherGameWeight);
    }
    this.named(query).forEach((doc, rank) => scores.set(doc, (scores.get(doc) || 0) + f.exactScore - rank));
    const ranked = [...scores].sort(([a, x], [b, y]) => y - x || a - b);
    const found = (doc) => matched.get(doc) || new Set();
    return new Map(ranked.map(([doc, score]) => [this.rules[doc].location, { score, words: found(doc) }]));
  }

  /** The query's words without a game's name, and the game named (none unless exactly one, beside
   * other words). */
  gameNamed(queryWords) {
    const games = new Set(queryWords.map((word) => this.gameStems.get(this.stemOf(word))).filter(Boolean));
    const rest = queryWords.filter((word) => !this.gameStems.has(this.stemOf(word)));
    return games.size === 1 && rest.length ? { words: rest, game: [...games][0] } : { words: queryWords, game: null };
  }

  /** Raise the rules whose title or players' word the query is, word for word (with its question
   * words when a name has them, else without). */
  favourNames(queryWords, scores) {
    const stems = [...new Set(queryWords.map((word) => this.stemOf(word)))].sort().join(" ");
    const asked = queryWords.filter((word) => !this.questionWords.has(word));
    const meaning = [...new Set(asked.map((word) => this.stemOf(word)))].sort().join(" ");
    let named = [...scores.keys()].filter((doc) => this.namesOf[doc].has(stems));
    if (!named.length) named = [...scores.keys()].filter((doc) => this.namesOf[doc].has(meaning));
    for (const doc of named) scores.set(doc, scores.get(doc) * krSettings.nameFactor);
  }

  /** Each rule's score for the query words (each word by its best index term), with the bonus of the
   * rules that have every meaningful word, and the query words each rule matched. */
  scoreWords(queryWords) {
    const f = this.figures;
    const scores = new Map();
    const matched = new Map();
    const meaningful = new Set();
    const asked = queryWords.filter((word) => !this.questionWords.has(word));
    for (const word of queryWords) {
      const weight = asked.includes(word) || !asked.length ? 1 : f.questionWeight;
      const best = new Map();
      for (const candidate of this.candidates(word)) {
        for (const [doc, tf] of this.postings.get(candidate.term)) {
          const score = weight * candidate.weight * candidate.idf * tf;
          if (score > (best.get(doc) || 0)) best.set(doc, score);
        }
      }
      if (best.size <= f.commonDocumentShare * this.rules.length && weight === 1) meaningful.add(word);
      for (const [doc, score] of best) {
        scores.set(doc, (scores.get(doc) || 0) + score);
        if (!matched.has(doc)) matched.set(doc, new Set());
        matched.get(doc).add(word);
      }
    }
    if (meaningful.size > 1) {
      for (const [doc, found] of matched) {
        if ([...meaningful].every((word) => found.has(word))) scores.set(doc, scores.get(doc) * (1 + f.allTermsBonus));
      }
    }
    return { scores, matched };
  }
}
