"""Make Material's site search find inflected words: a French or Russian word in any form.

Material's search worker turns every query term into a prefix wildcard (``term*``), and lunr does
not stem wildcard terms, so "перегруппировку*" never meets the indexed stem "перегруппировк".
The patch keeps the plain term, which goes through the language pipeline (stemmed); adds the
wildcard only to the last word, the one still being typed (a wildcard on a finished short word
such as "на*" would match every "натиск"); and, for words of seven letters or more, a fuzzy
``term~1`` that lunr stems before allowing one typing mistake ("перегрупировка", "regroop").
The worker ships minified, so the patch edits
the built file; when Material changes that code the build stops with an error instead of silently
shipping a search that cannot stem.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError

ORIGINAL = ".map(r=>/(^[+-]|[~^]\\d+$)/.test(r)?r:`${r}*`)"
PATCHED = (
    ".flatMap((r,i,a)=>/(^[+-]|[~^]\\d+$)/.test(r)?[r]:"
    "[r,...(i===a.length-1&&r.length>2?[`${r}*`]:[]),...(r.length>6?[`${r}~1`]:[])])"
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
    if code.count(PATCHED) == 1 and ORIGINAL not in code:
        return worker
    if code.count(ORIGINAL) != 1:
        raise PluginError(
            f"search patch no longer applies to {worker.name}: Material's query transform changed; "
            "update kensei_ref/search_patch.py for the pinned mkdocs-material version"
        )
    worker.write_text(code.replace(ORIGINAL, PATCHED), encoding="utf-8")
    return worker
