"""``kensei-ref rule``, ``search`` and ``glossary``: the rules reference in a terminal.

``rule`` prints one rule as plain text (references become words, Markdown lists and tables stay
readable), ``search`` ranks the rules for a query, ``glossary`` finds a term from its name in any
of the reference's languages. Everything prints in the language of ``--lang``.

Nothing found is one line on stderr with the nearest names and exit status 1; a bad input (an
empty query, an unknown option or language) is one line and exit status 2. Never a traceback.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
import unicodedata
from collections.abc import Callable, Sequence

from kensei_ref.cli import compiled
from kensei_ref.cli.compiled import PlainText
from kensei_ref.cli.one_line import terminal_columns
from kensei_ref.cli.speech import ID, NAME, NUMBER, WORD
from kensei_ref.language_context import LanguageContext, language_context
from kensei_ref.languages import LANGUAGES

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:
    from kensei_ref.rules.model import Citation, Rule, RuleBook, Term
    from kensei_ref.rules.search import NotFound

MAX_WIDTH = 100
"""Text is wrapped to the terminal, but never wider than this: long lines are hard to read."""
LIST_INDENT = "  "
USED_IN_SHOWN = 6
"""A glossary term without a rule of its own lists at most this many rules that use it."""

_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+")
_GLUE = "\ue000"
"""A private-use character holds two words together while wrapping, then becomes a space again."""
_UNIT_SPACE = re.compile(
    r"(?<=\d) (?=(?:cm|см|mm|%|inch|inches|дюйм\w*|pouces?)\b)|(?<=[−×=+]) (?=\d)|(?<=«) | (?=[;:!?»])"
)
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


Gettext = Callable[[str], str]


def _positive(_: Gettext) -> Callable[[str], int]:
    """The ``--limit`` check, refusing in the language of ``_``."""

    def positive(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = 0
        if number < 1:
            raise argparse.ArgumentTypeError(_("must be a positive whole number, got {text}").format(text=repr(text)))
        return number

    return positive


def add_rule_arguments(rule: argparse.ArgumentParser, _: Gettext, rest: Sequence[str] = ()) -> None:
    """The ``rule`` command's arguments."""
    _command(rule, _("Show a rule: its text, worked examples, notes, source and related rules."), run_rule, _)
    rule.add_argument(
        "rule",
        metavar=f"{_(ID)}|{_(NUMBER)}",
        help=_("a rule id (kensei.regroup), a number (8.3.2) or an id without its game (regroup)"),
    )


def add_search_arguments(search: argparse.ArgumentParser, _: Gettext, rest: Sequence[str] = ()) -> None:
    """The ``search`` command's arguments."""
    _command(
        search,
        _("Search the rules by words in any form, glossary names in any language, numbers or ids."),
        run_search,
        _,
    )
    search.add_argument("query", nargs="+", metavar=_(WORD), help=_("what to look for"))
    search.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    search.add_argument(
        "--limit", type=_positive(_), default=10, metavar="N", help=_("show at most N rules (default 10)")
    )


def add_glossary_arguments(glossary: argparse.ArgumentParser, _: Gettext, rest: Sequence[str] = ()) -> None:
    """The ``glossary`` command's arguments."""
    _command(glossary, _("Find a glossary term from its name in any language of the reference."), run_glossary, _)
    glossary.add_argument("term", nargs="+", metavar=_(NAME), help=_("the term's name in any of the languages"))


def _command(
    parser: argparse.ArgumentParser, description: str, run: Callable[[argparse.Namespace], int], _: Gettext
) -> None:
    """A command that prints in the language of ``--lang`` and runs ``run``."""
    parser.description = description
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        metavar="|".join(LANGUAGES),
        default=argparse.SUPPRESS,
        help=_("language of the output"),
    )
    parser.set_defaults(func=run)


# -- the commands ------------------------------------------------------------------------------


def run_rule(args: argparse.Namespace) -> int:
    """Print the rule named in ``args.rule``; 1 when there is none."""
    book = compiled.bundled().book()
    language = language_context(args.lang)
    rule = _exactly_named(book, args.rule)
    if rule is None:
        from kensei_ref.rules.search import NotFound, find_rule

        try:
            rule = find_rule(book, args.rule)
        except NotFound as missing:
            return _not_found("rule", _rule_message(missing, language), language)
    sys.stdout.write(language.typeset(render_rule(book, rule, language, _width(), compiled.bundled().plain(args.lang))))
    return 0


def _exactly_named(book: RuleBook, wanted: str) -> Rule | None:
    """The rule whose id or number ``wanted`` is, as :func:`~kensei_ref.rules.search.find_rule` reads them
    first (case and a final dot aside), found without importing the search; None for anything else."""
    key = wanted.strip().casefold().rstrip(".")
    if not key.isascii():
        return None
    by_number = {rule.number: rule for rule in book.rules if rule.number}
    return by_number.get(key) or next((rule for rule in book.rules if rule.id == key), None)


def run_search(args: argparse.Namespace) -> int:
    """Print the rules that match ``args.query``; 1 when none does, 2 for an empty query."""
    from kensei_ref.rules.search import words

    language = language_context(args.lang)
    _ = language.gettext
    query = " ".join(args.query)
    if not words(query):
        return _error("search", _("empty query: give words, a rule number or a rule id to look for"), _)
    hits = compiled.bundled().index(args.lang).search(query, args.limit)
    if args.json:
        import json

        sys.stdout.write(json.dumps([hit.to_json() for hit in hits], ensure_ascii=False) + "\n")
        return 0 if hits else 1
    if not hits:
        return _not_found("search", _("no rule matches {query}").format(query=_echo(query, language)), language)
    width = _width()
    rank_width = len(str(len(hits)))
    for rank, hit in enumerate(hits, 1):
        number = f"{hit.number}  " if hit.number else ""
        sys.stdout.write(language.typeset(f"{rank:>{rank_width}}. {hit.id}  {number}{hit.title}\n"))
        indent = " " * (rank_width + 2)
        sys.stdout.write(language.typeset("\n".join(_fill(hit.snippet, width, indent, indent)) + "\n"))
    return 0


def run_glossary(args: argparse.Namespace) -> int:
    """Print the glossary term named ``args.term`` in any language; 1 when there is none."""
    from kensei_ref.rules.search import NotFound, find_terms, words

    book = compiled.bundled().book()
    language = language_context(args.lang)
    _ = language.gettext
    wanted = " ".join(args.term)
    if not words(wanted):
        return _error("glossary", _("empty name: give a glossary term's name in any language of the reference"), _)
    try:
        terms = find_terms(book, wanted)
    except NotFound as missing:
        quoted = _echo(wanted, language)
        if missing.suggestions:
            message = _("no glossary term is called {name}; nearest: {names}").format(
                name=quoted, names=", ".join(missing.suggestions)
            )
        else:
            message = _("no glossary term is called {name}").format(name=quoted)
        return _not_found("glossary", message, language)
    width, plain = _width(), compiled.bundled().plain(args.lang)
    sys.stdout.write(language.typeset("\n".join(render_term(book, term, language, width, plain) for term in terms)))
    return 0


# -- rendering ---------------------------------------------------------------------------------


def render_rule(
    book: RuleBook, rule: Rule, language: LanguageContext, width: int = 80, plain: PlainText | None = None
) -> str:
    """One rule as readable plain text in ``language``; ``plain`` writes a text's references out (the
    compiled rule book's, or else :func:`~kensei_ref.rules.search.plain_text`)."""
    lang = language.lang
    plain = plain or _plain_text(book, lang)
    _ = language.gettext
    chapter = book.chapter_of(rule.id)
    heading = f"{rule.number} {rule.title[lang]}" if rule.number else rule.title[lang]
    lines = [heading, "=" * len(heading), f"{rule.id} · {chapter.game.capitalize()} · {chapter.title[lang]}"]
    if lang != "en" and _stale(rule, lang):
        lines.append(_("(translation may be out of date)"))
    lines += ["", *terminal_lines(plain(rule.body, rule), width)]
    for example in rule.examples:
        label = f"{_('Worked example')} · {book.example_labels[example.origin][lang]}"
        lines += ["", label, *terminal_lines(plain(example.text, rule), width, "  ")]
        if example.source:
            lines += _wrap(f"{_('Source:')} {_citation(book, example.source, language)}", width, "  ")
    for note in rule.notes:
        lines += ["", _note_kind(note.kind, _), *terminal_lines(plain(note.text, rule), width, "  ")]
        if note.sources:
            passages = _("; ").join(_citation(book, citation, language) for citation in note.sources)
            lines += _wrap(f"{_('Passages involved:')} {passages}", width, "  ")
    lines += ["", *_wrap(f"{_('Source:')} {_citation(book, rule.source, language)}", width)]
    if rule.see_also:
        lines += [_("See also:"), *_rule_list([book.rule(target) for target in rule.see_also], lang)]
    return "\n".join(lines) + "\n"


def _stale(rule: Rule, lang: str) -> bool:
    from kensei_ref.rules import freshness  # here: only a translation can be stale

    return freshness.is_stale(rule, lang)


def render_term(
    book: RuleBook, term: Term, language: LanguageContext, width: int = 80, plain: PlainText | None = None
) -> str:
    """One glossary term: its names in every language, its definition in ``language``, its rule."""
    from kensei_ref.rules.search import referenced_terms

    lang = language.lang
    plain = plain or _plain_text(book, lang)
    _ = language.gettext
    heading = term.name[lang]
    if term.japanese:
        heading += f" ({_('Japanese term')})"
    lines = [heading, "=" * len(heading)]
    lines += ["  " + language.labelled(name_lang, term.name[name_lang]) for name_lang in LANGUAGES]
    lines += ["", *terminal_lines(plain(term.definition, None), width)]
    if term.rule:
        rule = book.rule(term.rule)
        lines += ["", f"{_('Rule:')} {_label(rule, lang)} ({rule.id})"]
    else:
        users = [rule for rule in book.rules if term in referenced_terms(book, rule)][:USED_IN_SHOWN]
        if users:
            lines += ["", _("Used in:"), *_rule_list(users, lang)]
    return "\n".join(lines) + "\n"


def _plain_text(book: RuleBook, lang: str) -> PlainText:
    from kensei_ref.rules.search import plain_text

    return lambda text, rule: plain_text(book, text, lang, rule)


def terminal_lines(markdown: str, width: int = 80, indent: str = "") -> list[str]:
    """Plain Markdown (paragraphs, lists, pipe tables, bold) as wrapped terminal lines."""
    lines: list[str] = []
    for block in re.split(r"\n\s*\n", _BOLD.sub(lambda m: m[1] or m[2], markdown).strip()):
        if lines:
            lines.append("")
        rows = block.splitlines()
        if all(row.lstrip().startswith("|") for row in rows):
            lines += _table(rows, indent)
        else:
            lines += _paragraphs(rows, width, indent)
    return lines


def _paragraphs(rows: list[str], width: int, indent: str) -> list[str]:
    """Paragraph text and list items, each item wrapped under its own marker."""
    items: list[tuple[str, list[str]]] = []
    for row in rows:
        item = _LIST_ITEM.match(row)
        if item:
            items.append((f"{item[1]}{item[2]} ", [row[item.end() :]]))
        elif items:
            items[-1][1].append(row)
        else:
            items.append(("", [row]))
    lines: list[str] = []
    for marker, parts in items:
        text = " ".join(" ".join(parts).split())
        lines += _fill(text, width, indent + marker, indent + " " * len(marker))
    return lines


def _table(rows: list[str], indent: str) -> list[str]:
    cells = [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows if not _TABLE_RULE.match(row)]
    columns = max(len(row) for row in cells)
    cells = [row + [""] * (columns - len(row)) for row in cells]
    widths = [max(len(row[i]) for row in cells) for i in range(columns)]
    return [
        indent + "  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]


def _wrap(text: str, width: int, indent: str = "") -> list[str]:
    return _fill(text, width, indent, indent + "  ")


def _fill(text: str, width: int, first: str, rest: str) -> list[str]:
    """``text`` wrapped to ``width``; a number stays on the line of its unit or sign ("15 cm"), French
    punctuation on the line of its word ("combat ;")."""
    glued = _UNIT_SPACE.sub(_GLUE, text)
    lines = textwrap.wrap(glued, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False)
    return [line.replace(_GLUE, " ") for line in lines] or [""]


def _rule_list(rules: list[Rule], lang: str) -> list[str]:
    id_width = max(len(rule.id) for rule in rules)
    return [f"{LIST_INDENT}{rule.id:<{id_width}}  {_label(rule, lang)}" for rule in rules]


def _label(rule: Rule, lang: str) -> str:
    return f"{rule.number} {rule.title[lang]}" if rule.number else rule.title[lang]


ECHOED_LETTERS = 60
"""How much of what a user typed an error line repeats."""


def _echo(typed: str, language: LanguageContext) -> str:
    """What the user typed, as an error line repeats it: quoted, on one line (control characters and
    runs of blanks become one space), and cut after ECHOED_LETTERS letters."""
    line = " ".join("".join(" " if unicodedata.category(c)[0] == "C" else c for c in typed).split())
    if len(line) > ECHOED_LETTERS:
        line = line[:ECHOED_LETTERS].rstrip() + "…"
    return language.quote(line)


def _citation(book: RuleBook, citation: Citation, language: LanguageContext) -> str:
    if citation.ref:
        ref = book.reference(citation.ref)
        return f"{ref.publisher}, {language.quote(ref.title)} ({ref.year})"
    source = book.source(citation.text or "")
    return f"{source.title[language.lang]}, {language.quote(citation.section or '')}"


def _note_kind(kind: str, _: Callable[[str], str]) -> str:
    if kind == "silent":
        return _("The sources are silent")
    if kind == "conflict":
        return _("The sources disagree")
    return _("Reading of the rules")


def _rule_message(missing: NotFound, language: LanguageContext) -> str:
    _ = language.gettext
    wanted = _echo(missing.wanted, language)
    ids = ", ".join(missing.suggestions)
    if missing.ambiguous:
        return _("{wanted} names a rule in both games: {ids}").format(wanted=wanted, ids=ids)
    if ids:
        return _("no rule has the id or number {wanted}; nearest: {ids}").format(wanted=wanted, ids=ids)
    return _("no rule has the id or number {wanted}").format(wanted=wanted)


def _not_found(command: str, message: str, language: LanguageContext) -> int:
    sys.stderr.write(language.labelled(f"kensei-ref {command}", message) + "\n")
    return 1


def _error(command: str, message: str, _: Gettext) -> int:
    sys.stderr.write(_("{prog}: error: {message}").format(prog=f"kensei-ref {command}", message=message) + "\n")
    return 2


def _width() -> int:
    return max(40, min(MAX_WIDTH, terminal_columns() - 1))
