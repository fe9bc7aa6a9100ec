"""A rule looked up by its id or number, a glossary term by its name, with the nearest names when
nothing matches."""

from __future__ import annotations

import difflib
import re

from kensei_ref.languages import LANGUAGES as LANGS
from kensei_ref.rules.search.text import NUMBER, fold_accents, normalise, stem, words

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:  # the model only names types here: a search of a compiled index builds no rule
    from kensei_ref.rules.model import Rule, RuleBook, Term


# -- looking a rule up by id or number -------------------------------------------------------


GAME_PREFIXES = ("kensei.", "ronin.")
SUGGESTIONS = 5
"""At most this many nearest ids or names are suggested when nothing is found."""


class NotFound(LookupError):
    """Nothing answers to what was asked; ``suggestions`` are the nearest names, best first."""

    def __init__(self, wanted: str, suggestions: list[str], ambiguous: bool = False):
        self.wanted = wanted
        self.suggestions = suggestions
        self.ambiguous = ambiguous
        super().__init__(wanted)


def find_rule(book: RuleBook, wanted: str) -> Rule:
    """The rule named by ``wanted``: an id (``kensei.regroup``), a number (``8.3.2``) or an id
    without its game prefix when only one game has it (``regroup``).

    Raises:
        NotFound: with the nearest ids; ``ambiguous`` when the id exists in both games.
    """
    key = normalise(wanted.strip()).rstrip(".")
    by_key = {rule.id: rule for rule in book.rules}
    by_key.update({rule.number: rule for rule in book.rules if rule.number})
    if key in by_key:
        return by_key[key]
    unprefixed = [rule for rule in book.rules if rule.id.split(".", 1)[1] == key]
    if len(unprefixed) == 1:
        return unprefixed[0]
    if unprefixed:
        raise NotFound(wanted, [rule.id for rule in unprefixed], ambiguous=True)
    by_short: dict[str, list[str]] = {}
    for rule in book.rules:
        by_short.setdefault(rule.id.split(".", 1)[1], []).append(rule.id)
    short_key = key.split(".", 1)[1] if key.startswith(GAME_PREFIXES) else key
    near = [
        rule_id
        for short in difflib.get_close_matches(short_key, list(by_short), n=5, cutoff=0.6)
        for rule_id in by_short[short]
    ]
    if NUMBER.match(key) or key.isdigit():
        numbers = {rule.number: rule.id for rule in book.rules if rule.number}
        near += [numbers[n] for n in difflib.get_close_matches(key, list(numbers), n=3, cutoff=0.6)]
    raise NotFound(wanted, list(dict.fromkeys(near))[:SUGGESTIONS])


# -- looking a glossary term up by name ------------------------------------------------------

NEAREST_NAME_CUTOFF = 0.75
"""How alike a name must be (difflib ratio) to be taken for a misspelt glossary name."""
NAME_LETTERS = 80
"""The longest text looked up as a glossary name (the longest name has 26 letters): a longer one
names no term, and is not compared with every name (a pasted page would take minutes)."""


def _name_stems(name: str, lang: str) -> tuple[str, ...]:
    return tuple(stem(word, lang) for word in words(re.sub(r"\(.*?\)", "", name)))


def find_terms(book: RuleBook, wanted: str) -> list[Term]:
    """The glossary terms named ``wanted`` in any of the reference's languages.

    Tried in turn: the exact name or alias (ignoring case and accents: "AP", "ОД"), the same words
    in another form (Snowball stems: "regroupements", "перегруппировки"), then the nearest name
    when it is close.

    Raises:
        NotFound: with the nearest names, when none is close enough.
    """
    key = fold_accents(normalise(" ".join(wanted.split())))
    if not key or len(key) > NAME_LETTERS:
        raise NotFound(wanted, [])
    exact = [
        t
        for t in book.terms
        if any(fold_accents(normalise(name)) == key for x in LANGS for name in (t.name[x], *book.aliases_of(t.id, x)))
    ]
    if exact:
        return exact
    wanted_stems = {x: _name_stems(wanted, x) for x in LANGS}
    same_stems = [t for t in book.terms if any(wanted_stems[x] == _name_stems(t.name[x], x) != () for x in LANGS)]
    if same_stems:
        return same_stems
    names = {fold_accents(normalise(t.name[x])): (t, t.name[x]) for t in book.terms for x in LANGS}
    near = difflib.get_close_matches(key, list(names), n=SUGGESTIONS, cutoff=0.6)
    if near and difflib.SequenceMatcher(None, key, near[0]).ratio() >= NEAREST_NAME_CUTOFF:
        return [names[near[0]][0]]
    raise NotFound(wanted, [names[n][1] for n in near])
