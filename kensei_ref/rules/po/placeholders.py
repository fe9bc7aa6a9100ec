"""What a translation must keep of its English: the inline references and the links' addresses.

A reference's label is the translation's own (``{term:charge|натиск}``, ``{value:per_turn|une}``), and its
order and how often it appears follow the language's sentence; what it points to may not change. So a
translation's placeholders are compared with the English's as sets of references without their labels
(``{term:charge}``, ``{value:kensei.regroup#cost_per_attempt}``) and of link addresses (``(../glossary/)``):

>>> sorted(placeholders("A {term:charge|charge} costs {value:cost} ([see](../x/)).", "kensei.charge"))
['(../x/)', '{term:charge}', '{value:kensei.charge#cost}']
>>> placeholders("{value:cost}", "kensei.charge") == placeholders("{value:kensei.charge#cost|un}", "kensei.charge")
True
"""

from __future__ import annotations

import re

from kensei_ref.rules.references import REFERENCE, VALUE_KINDS

LINK_ADDRESS = re.compile(r"\]\(\s*<?(?P<address>[^)\s>]*)")
"""A Markdown link's or image's address (``[text](address)``, ``![alt](address)``)."""
DEFINED_ADDRESS = re.compile(r"^ {0,3}\[[^\]\n]{1,1000}\]:\s*<?(?P<address>[^\s>]*)", re.MULTILINE)
"""A reference link's address (``[name]: address``)."""


def placeholders(text: str, owner: str | None) -> frozenset[str]:
    """The references and link addresses of ``text``; a value named by its key alone (``{value:cost}``)
    is the ``owner`` rule's, written in full so that either way of naming it is the same placeholder."""
    found = set()
    for match in REFERENCE.finditer(text):
        target = match["target"]
        if match["kind"] in VALUE_KINDS and "#" not in target and owner:
            target = f"{owner}#{target}"
        found.add(f"{{{match['kind']}:{target}}}")
    for pattern in (LINK_ADDRESS, DEFINED_ADDRESS):
        found.update(f"({match['address']})" for match in pattern.finditer(text))
    return frozenset(found)
