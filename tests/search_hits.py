"""The top-three hit rate of a query set in the terminal's search, per language."""

from __future__ import annotations

from kensei_ref.languages import LANGUAGES
from kensei_ref.rules import search

TOP = 3
HIT_RATE = 0.95


def assert_hit_rate(queries: list[dict], lang: str, what: str, floor: float = HIT_RATE) -> None:
    """At least ``floor`` (:data:`HIT_RATE` unless said) of ``lang``'s queries find their expected rules
    in the top :data:`TOP` (see :func:`answered`); the rate and the misses are printed either way."""
    mine = [q for q in queries if q["lang"] == lang]
    failures = []
    for query in mine:
        found = [hit.id for hit in search.search(query["query"], lang, TOP)]
        if not answered(query, found):
            failures.append(f"{lang} [{query['kind']}] {query['query']!r}: want {query['expect']}, got {found}")
    rate = 1 - len(failures) / len(mine)
    print(f"\n{lang}: {len(mine) - len(failures)}/{len(mine)} {what} in the top {TOP} ({rate:.1%})")
    print("\n".join(failures))
    assert rate >= floor, "\n".join(failures)


def answered(query: dict, top: list[str]) -> bool:
    """Whether the rules ``top`` answer ``query``: all its expected rules, or one of them when it says
    ``any: true`` (two rules answer it equally)."""
    expected = set(query["expect"])
    return bool(expected & set(top)) if query.get("any") else expected <= set(top)


def query_set_problems(queries: list[dict], ids: set[str], kinds: set[str]) -> list[str]:
    """What is wrong with a query set: keys, language, kind, empty queries, unknown rules, and an
    expectation of more rules than the top :data:`TOP` can hold."""
    problems = []
    for i, query in enumerate(queries):
        if set(query) - {"any"} != {"lang", "query", "expect", "kind"} or query.get("any", True) is not True:
            problems.append(f"#{i}: keys {sorted(query)}")
            continue
        if query.get("any") and len(query["expect"]) != 2:
            problems.append(f"#{i} {query['query']!r}: `any` is for two rules")
        if query["lang"] not in LANGUAGES or query["kind"] not in kinds or not str(query["query"]).strip():
            problems.append(f"#{i}: {query}")
        problems += [f"#{i} {query['query']!r}: unknown rule {e}" for e in query["expect"] if e not in ids]
        if not 1 <= len(query["expect"]) <= TOP:
            problems.append(f"#{i} {query['query']!r}: expect 1 to {TOP} rules")
    return problems
