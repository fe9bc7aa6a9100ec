"""Rule lookup and search in the terminal: the search engine's quality on players' queries, its
matching rules (stems, typos, prefixes, numbers, ids), and the ``rule``, ``search`` and
``glossary`` commands with their errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from cli_capture import run_cli
from search_hits import assert_hit_rate, query_set_problems

from kensei_ref.cli.lookup import terminal_lines
from kensei_ref.cli.main import main
from kensei_ref.languages import LANGUAGES as LANGS
from kensei_ref.rules import search

QUERIES = Path(__file__).resolve().parent / "search_queries.yaml"
KINDS = {"inflected", "term", "japanese", "number", "multiword", "typo", "cross-language", "die-face"}


@pytest.fixture(scope="module")
def queries() -> list[dict]:
    return yaml.safe_load(QUERIES.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bundled():
    return search.bundled_book()


# -- the query set -----------------------------------------------------------------------------


def test_query_set_is_well_formed(queries, bundled):
    ids = {rule.id for rule in bundled.rules}
    problems = query_set_problems(queries, ids, KINDS)
    assert not problems, "\n".join(problems)
    assert len(queries) >= 66
    for lang in LANGS:
        mine = [q for q in queries if q["lang"] == lang]
        assert len(mine) >= 22, lang
        assert {q["kind"] for q in mine} == KINDS, f"{lang} lacks {KINDS - {q['kind'] for q in mine}}"
    pairs = [(q["lang"], q["query"].casefold()) for q in queries]
    assert len(pairs) == len(set(pairs)), "a query is repeated"


@pytest.mark.parametrize("lang", LANGS)
def test_hit_rate_per_language(queries, lang):
    assert_hit_rate(queries, lang, "queries answered")


@pytest.mark.parametrize("lang", LANGS)
def test_a_question_about_a_die_result_finds_its_rule_first(queries, lang):
    """ "What happens on a 10 when shooting": the rule of that roll first, not a neighbouring section
    that shares a phrase with the question's words ("when shooting")."""
    for query in (q for q in queries if q["lang"] == lang and q["kind"] == "die-face"):
        assert [hit.id for hit in search.search(query["query"], lang, 1)] == query["expect"], query["query"]


def test_index_is_built_once_per_language():
    assert search.index_for("fr") is search.index_for("fr")
    assert search.index_for("fr") is not search.index_for("ru")


# -- tokenising and stemming -------------------------------------------------------------------


def test_tokenize_keeps_numbers_and_ids_whole():
    tokens = search.tokenize("See 8.3.2 and kensei.five-cm-rule.", "en")
    assert tokens[:2] == ["8.3.2", "kensei.five-cm-rule"]
    assert {"see", "8", "3", "2", "kensei", "five", "cm", "rule"} <= set(tokens)


@pytest.mark.parametrize(
    ("word", "lang", "expected"),
    [
        ("Regrouping", "en", "regroup"),
        ("regroupées", "fr", "regroup"),
        ("Перегруппировки", "ru", "перегруппировк"),
        ("тяжёлое", "ru", search.stem("тяжелое", "ru")),  # ё is read as е
        ("укрытие", "en", search.stem("укрытии", "ru")),  # Cyrillic: Russian stemmer in any index
        ("regrouping", "ru", "regroup"),  # Latin in the Russian index: English
        ("défense", "fr", "defens"),  # accents dropped after stemming
        ("8", "en", "8"),
    ],
)
def test_stem(word, lang, expected):
    assert search.stem(search.normalise(word), lang) == expected


def test_latin_words_take_the_stemmer_of_the_language_searched():
    assert search.stem("charges", "en") == "charg"
    assert search.stem("chargent", "fr") == "chargent"  # Snowball keeps French -ent verbs whole


def test_documents_and_queries_meet_on_the_same_terms():
    index = search.index_for("ru")
    for word in ("перегруппировки", "перегруппировку", "перегруппировкой"):
        assert search.stem(word, "ru") in {c.term for c in index.candidates(word)}


def test_stop_words_do_not_decide_the_ranking():
    assert search.search("capacités de Taisho", "fr", 1)[0].id == "kensei.taisho-abilities"
    assert search.search("capacités du Taisho", "fr", 1)[0].id == "kensei.taisho-abilities"
    assert search.search("the", "en")  # a query of stop words only still searches


# -- typing mistakes and prefixes --------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("regroup", "regroup", 0),
        ("regroop", "regroup", 1),
        ("regruop", "regroup", 1),  # swap
        ("rgroup", "regroup", 1),
        ("comand", "command", 1),
        ("abc", "xyz", 3),
    ],
)
def test_edit_distance(a, b, distance):
    assert search.edit_distance(a, b, 2) == min(distance, 3)


def test_typo_is_replaced_by_known_words_at_a_lower_weight():
    index = search.index_for("en")
    candidates = {c.term: c.weight for c in index.candidates("regroop")}
    assert 0 < candidates["regroup"] < 1
    assert "regroop" not in candidates
    assert search.search("regroop", "en", 1)[0].id == "kensei.regroup"


def test_two_typing_mistakes_only_in_long_words():
    index = search.index_for("en")
    assert "regroup" in {c.term for c in index.candidates("rregroupp")}  # 9 letters, 2 edits
    assert "regroup" not in {c.term for c in index.candidates("rgrup")}  # 5 letters, 2 edits


def test_a_known_word_is_not_corrected():
    index = search.index_for("en")
    weights = {c.term: c.weight for c in index.candidates("cover")}
    assert weights["cover"] == 1.0
    assert all(w <= search.PREFIX_WEIGHT or t == "cover" for t, w in weights.items())


def test_prefix_matches_longer_words_below_an_exact_stem():
    index = search.index_for("en")
    weights = {c.term: c.weight for c in index.candidates("regr")}
    assert weights["regroup"] == search.PREFIX_WEIGHT
    assert search.search("regr", "en", 1)[0].id == "kensei.regroup"
    assert "regroup" not in {c.term for c in index.candidates("reg")}  # 3 letters: no prefix


def test_exact_stem_scores_above_prefix_match():
    """A word half typed ("marc") never scores a rule above the whole word ("march"), and scores below
    it every rule that has the word itself (a rule found only through a longer word, such as a French
    alias "marcher", scores the same for both)."""
    index = search.index_for("en")
    exact = {hit.id: hit.score for hit in index.search("march", 50)}
    prefixed = {hit.id: hit.score for hit in index.search("marc", 50)}
    having = {index.rules[doc].id for doc in index._postings["march"]}
    assert having and having <= set(prefixed)
    assert all(prefixed[rule] < exact[rule] for rule in having)
    assert all(score <= exact[rule] for rule, score in prefixed.items() if rule in exact)


def test_typed_without_accents():
    assert search.search("superiorite numerique", "fr", 1)[0].id == "kensei.outnumbering"


# -- numbers and ids ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_number_or_id_in_the_query_ranks_that_rule_first(lang):
    assert search.search("8.3.2", lang)[0].id == "kensei.regroup"
    assert search.search("light cover kensei.torii", lang)[0].id == "kensei.torii"
    assert search.search("light-cover", lang)[0].id == "kensei.light-cover"


def test_a_number_names_the_rules_below_it_after_itself():
    found = [hit.id for hit in search.search("8.3", "en", 3)]
    assert found == ["kensei.taisho-orders", "kensei.taisho-abilities", "kensei.regroup"]


@pytest.mark.parametrize(
    ("wanted", "rule_id"),
    [
        ("kensei.regroup", "kensei.regroup"),
        ("8.3.2", "kensei.regroup"),
        ("regroup", "kensei.regroup"),
        ("KENSEI.Regroup", "kensei.regroup"),
        ("8.3.5.5", "kensei.reaction-cost"),
        ("morale-test", "ronin.morale-test"),
    ],
)
def test_find_rule(bundled, wanted, rule_id):
    assert search.find_rule(bundled, wanted).id == rule_id


def test_find_rule_suggests_the_nearest_ids(bundled):
    with pytest.raises(search.NotFound) as missing:
        search.find_rule(bundled, "kensei.regrop")
    assert missing.value.suggestions[0] == "kensei.regroup"
    with pytest.raises(search.NotFound) as ambiguous:
        search.find_rule(bundled, "movement")
    assert ambiguous.value.ambiguous
    assert ambiguous.value.suggestions == ["kensei.movement", "ronin.movement"]


# -- results -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_results_are_in_the_language_searched(bundled, lang):
    hits = search.search("regroup", lang, 5)
    assert [hit.title for hit in hits] == [hit.rule.title[lang] for hit in hits]
    assert hits[0].title == bundled.rule("kensei.regroup").title[lang]


def test_multi_word_query_prefers_rules_with_every_word():
    found = [hit.id for hit in search.search("heavy cover", "en", 3)]
    assert found[0] == "kensei.heavy-cover"
    assert "kensei.heavy-cover" in [hit.id for hit in search.search("cover heavy", "en", 1)]


def test_french_name_finds_the_rule_from_the_english_search():
    assert search.search("supériorité numérique", "en", 1)[0].id == "kensei.outnumbering"
    assert search.search("численный перевес", "fr", 1)[0].id == "kensei.outnumbering"


def test_snippet_shows_the_words_found():
    hit = next(h for h in search.search("regroups at once", "en", 5) if h.id == "kensei.mystical-terrain")
    assert "regroups at once" in hit.snippet
    assert len(hit.snippet) <= search.SENTENCE_LETTERS + 2
    typo = search.search("regroop", "en", 1)[0]
    assert "regrouped" in typo.snippet  # the word the typing mistake stood for


@pytest.mark.parametrize(
    ("query", "lang", "rule", "answer"),
    [
        ("can you shoot at units in combat", "en", "kensei.firing", "Units engaged in melee may not be shot at"),
        ("how many action points to reload", "en", "kensei.loading", "Reloading it after a shot costs 1 action point"),
        ("combien coûte le rechargement", "fr", "kensei.loading", "Recharger une arme après un tir coûte 1"),
        ("можно ли стрелять по отряду в рукопашном бою", "ru", "kensei.firing", "рукопашным боем, стрелять нельзя"),
    ],
)
def test_snippet_is_the_sentence_that_answers(query, lang, rule, answer):
    """The result shows the sentence with the query's words, whole, not the rule's opening words; a
    question word ("can", "how") counts a quarter, as in the ranking."""
    hit = next(h for h in search.search(query, lang, 10) if h.id == rule)
    assert answer in hit.snippet, hit.snippet
    sentence = hit.snippet.lstrip("…")
    assert sentence.endswith((".", "!", "?")) and len(sentence) <= search.SENTENCE_LETTERS


def test_a_sentence_too_long_to_show_whole_shows_the_passage_with_the_words():
    index = search.index_for("en")
    doc, text = next((doc, text) for doc, text in enumerate(index.texts) if max(map(len, text.split(". "))) > 300)
    long = max(text.split(". "), key=len)
    word = long.split()[len(long.split()) // 2]
    snippet = index.snippet(doc, {index._stem(search.normalise(word))})
    assert len(snippet) <= search.SNIPPET_LETTERS + 2 and word in snippet, snippet


# -- glossary lookup ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "term_id"),
    [
        ("Commandment Point", "commandment-point"),
        ("commandment points", "commandment-point"),  # stems
        ("points de commandement", "commandment-point"),
        ("очки командования", "commandment-point"),
        ("Онмёдзи", "onmyouiji"),
        ("Онмедзи", "onmyouiji"),
        ("Onmyouji", "onmyouiji"),
        ("onmyoji", "onmyouiji"),  # nearest name
        ("regroupements", "regroup"),
        ("перегруппировки", "regroup"),
        ("Defense", "defense"),
        ("défense", "defense"),
    ],
)
def test_find_terms(bundled, name, term_id):
    assert [term.id for term in search.find_terms(bundled, name)] == [term_id]


def test_find_terms_suggests_names_or_nothing(bundled):
    with pytest.raises(search.NotFound) as missing:
        search.find_terms(bundled, "zzzzqqq")
    assert missing.value.suggestions == []


# -- the commands ------------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run ``kensei-ref argv``: (exit status, stdout, stderr)."""
    return run_cli(main, capsys, *argv)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            [
                "8.3.2 Regrouping Units Running Away",
                "kensei.regroup",
                "within 15 cm",
                "- Cost. Each attempt costs 1",
                "0.4 × 0.4 = 0.16",
                "8.3.2 Regroup Units Running Away",
                "kensei.run-away",
                "Run away (reaction)",
            ],
        ),
        (
            "fr",
            [
                "8.3.2 Regrouper les unités en fuite",
                "kensei.regroup",
                "15\u00a0cm",
                "Fuir (réaction)",
                "«\u00a08.3.2 Regroup",
            ],
        ),
        (
            "ru",
            ["8.3.2 Перегруппировка бегущих отрядов", "kensei.regroup", "15 см", "Бегство (реакция)", "«8.3.2 Regroup"],
        ),
    ],
)
def test_rule_prints_the_rule_in_each_language(capsys, lang, words):
    status, out, err = run(capsys, "rule", "8.3.2", "--lang", lang)
    assert status == 0 and not err
    for text in words:
        assert text in out, text
    for markup in ("{rule:", "{term:", "{value:", "**"):
        assert markup not in out


@pytest.mark.parametrize("wanted", ["kensei.regroup", "8.3.2", "regroup"])
def test_rule_accepts_id_number_or_short_id(capsys, wanted):
    status, out, _ = run(capsys, "rule", wanted)
    assert status == 0 and out.startswith("8.3.2 Regrouping Units Running Away\n")


def test_rule_shows_tables_lists_and_see_also_readably(capsys):
    _, out, _ = run(capsys, "rule", "kensei.action-points")
    assert "  Infantry                      2" in out
    assert "|" not in out and "---" not in out
    assert "kensei.reaction-cost     8.3.5.5 Action Points Spent on Reactions" in out


def test_terminal_lines_wrap_list_items_under_their_marker():
    lines = terminal_lines("Intro line\ncontinued.\n\n- first item " + "word " * 20 + "\n- second", 40)
    assert lines[0] == "Intro line continued."
    assert lines[2].startswith("- first item") and lines[3].startswith("  word")
    assert lines[-1] == "- second"
    assert all(len(line) <= 40 for line in lines)


def test_search_prints_rank_id_number_title_and_snippet(capsys):
    status, out, err = run(capsys, "search", "regroup", "units", "--limit", "2")
    assert status == 0 and not err
    lines = out.splitlines()
    assert lines[0] == "1. kensei.regroup  8.3.2  Regrouping Units Running Away"
    second = next(i for i, line in enumerate(lines) if line.startswith("2. "))
    snippet = " ".join(line.strip() for line in lines[1:second])
    assert all(line.startswith("   ") for line in lines[1:second])
    assert {"unit", "regrouped,"} <= set(snippet.split())  # the sentence with the query's words
    assert sum(1 for line in lines if line[:1].isdigit()) == 2


def test_search_json(capsys):
    status, out, _ = run(capsys, "search", "тяжёлое", "укрытие", "--lang", "fr", "--json", "--limit", "3")
    assert status == 0
    results = json.loads(out)
    assert len(results) == 3
    assert all(set(result) == {"id", "number", "title", "score"} for result in results)
    assert results[0] == {
        "id": "kensei.heavy-cover",
        "number": None,
        "title": "Couvert lourd",
        "score": results[0]["score"],
    }
    assert results[0]["score"] >= results[1]["score"] >= results[2]["score"]


@pytest.mark.parametrize(
    ("name", "lang", "expected"),
    [
        (
            "Commandment Points",
            "en",
            [
                "Commandment Point",
                "  fr: point de commandement",
                "  ru: очко командования",
                "8.2 Commandment Points (kensei.commandment-points)",
            ],
        ),
        (
            "points de commandement",
            "fr",
            [
                "point de commandement",
                "  en\u00a0: Commandment Point",
                "8.2 Points de commandement (kensei.commandment-points)",
            ],
        ),
        (
            "Тайсё",
            "ru",
            ["Тайсё", "  en: Taisho", "  fr: Taisho", "Японское слово", "8.3 Приказы Тайсё (kensei.taisho-orders)"],
        ),
        ("teppo", "fr", ["teppo", "  ru\u00a0: тэппо", "kensei.firing", "kensei.shallow-water"]),
    ],
)
def test_glossary_finds_a_term_from_a_name_in_any_language(capsys, name, lang, expected):
    status, out, err = run(capsys, "glossary", *name.split(), "--lang", lang)
    assert status == 0 and not err
    for text in expected:
        assert text in out, text


# -- errors: one line, the right exit status, never a traceback --------------------------------


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (
            ["rule", "kensei.regrop"],
            1,
            "kensei-ref rule: no rule has the id or number “kensei.regrop”; nearest: kensei.regroup",
        ),
        (["rule", "9.9.9"], 1, "kensei-ref rule: no rule has the id or number “9.9.9”"),
        (
            ["rule", "movement"],
            1,
            "kensei-ref rule: “movement” names a rule in both games: kensei.movement, ronin.movement",
        ),
        (["search", ""], 2, "kensei-ref search: error: empty query"),
        (["search", " ?! "], 2, "kensei-ref search: error: empty query"),
        (["search", "xyzzyqwerty"], 1, "kensei-ref search: no rule matches “xyzzyqwerty”"),
        (["glossary", "zzzzqqq"], 1, "kensei-ref glossary: no glossary term is called “zzzzqqq”"),
        (["glossary", ""], 2, "kensei-ref glossary: error: empty name"),
        (["rule", "8.3.2", "--lang", "de"], 2, "kensei-ref rule: error: argument --lang: invalid choice: 'de'"),
        (["search", "regroup", "--lang", "it"], 2, "kensei-ref search: error: argument --lang: invalid choice"),
        (["glossary", "Ki", "--lang", "jp"], 2, "kensei-ref glossary: error: argument --lang: invalid choice"),
        (["search", "regroup", "--limit", "0"], 2, "kensei-ref search: error: argument --limit: must be a positive"),
        (["search"], 2, "kensei-ref search: error: the following arguments are required"),
        (["rule"], 2, "kensei-ref rule: error: the following arguments are required"),
    ],
)
def test_errors(capsys, argv, status, message):
    code, out, err = run(capsys, *argv)
    assert code == status
    assert err.startswith(message), err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not out


def test_search_json_with_no_result_is_an_empty_list(capsys):
    status, out, err = run(capsys, "search", "xyzzyqwerty", "--json")
    assert (status, out, err) == (1, "[]\n", "")


def test_error_messages_speak_the_language_asked(capsys, bundled):
    _, _, err = run(capsys, "rule", "kensei.regrop", "--lang", "ru")
    assert "«kensei.regrop»" in err and "kensei.regroup" in err


@pytest.fixture
def lookup(capsys):
    """``lookup(*argv) -> (status, stdout, stderr)`` of the ``kensei-ref`` command."""
    return lambda *argv: run_cli(main, capsys, *argv)


PASTED = "naginata " * 22_000
"""A pasted page: about 22,000 words (it used to keep the glossary lookup busy for minutes)."""


@pytest.mark.parametrize(("command", "text"), [("glossary", PASTED), ("rule", PASTED), ("search", "zzqx " * 22_000)])
def test_a_pasted_page_gets_one_short_line(lookup, command, text):
    status, out, err = lookup(command, text)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and len(err) < 200, err[:300]
    assert "…" in err, "what was typed is cut, not repeated whole"


@pytest.mark.parametrize("command", ["glossary", "search", "rule"])
def test_control_characters_are_not_echoed(lookup, command):
    status, _, err = lookup(command, "zz\x1b[31mq\nq\x07")
    assert status == 1
    assert err.count("\n") == 1
    assert not any(ord(c) < 32 and c != "\n" for c in err), repr(err)


def test_the_russian_message_quotes_once(lookup):
    _, _, err = lookup("glossary", "xyzzy", "--lang", "ru")
    assert "«xyzzy»" in err and "««" not in err
