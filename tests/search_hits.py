"""The top-three hit rate of a query set in the terminal's search, per language."""

from __future__ import annotations

from kensei_ref.rules import search

TOP = 3
HIT_RATE = 0.95


def assert_hit_rate(queries: list[dict], lang: str, what: str) -> None:
    """At least :data:`HIT_RATE` of ``lang``'s queries find every expected rule in the top :data:`TOP`;
    the rate and the misses are printed either way."""
    mine = [q for q in queries if q["lang"] == lang]
    failures = []
    for query in mine:
        found = [hit.id for hit in search.search(query["query"], lang, TOP)]
        if not set(query["expect"]) <= set(found):
            failures.append(f"{lang} [{query['kind']}] {query['query']!r}: want {query['expect']}, got {found}")
    rate = 1 - len(failures) / len(mine)
    print(f"\n{lang}: {len(mine) - len(failures)}/{len(mine)} {what} in the top {TOP} ({rate:.1%})")
    print("\n".join(failures))
    assert rate >= HIT_RATE, "\n".join(failures)
