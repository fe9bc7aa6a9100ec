"""The numbers the rules state, as the calculators read them.

Every modifier, cost and threshold a calculator uses is read here, from ``rule_values.json``
(``{rule_id: {value_key: int}}``), which the project regenerates from its YAML rule data: a
number lives once, in the data, and is never typed into a calculator. Tests and the browser can
pass their own mapping instead (:meth:`RuleValues.from_mapping`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from .errors import RuleValueMissing

RESOURCE = "rule_values.json"


class RuleValues:
    """An immutable ``{rule_id: {value_key: int}}`` mapping with one accessor, :meth:`value`.

    A recording copy (:meth:`recording`) notes every ``(rule_id, key)`` read, so that a test can
    prove which rule values a calculation depends on.
    """

    __slots__ = ("_reads", "_values")

    def __init__(self, values: Mapping[str, Mapping[str, int]], *, _reads: set[tuple[str, str]] | None = None) -> None:
        self._values = MappingProxyType({rule: MappingProxyType(dict(keys)) for rule, keys in values.items()})
        self._reads = _reads

    @classmethod
    def from_mapping(cls, values: Mapping[str, Mapping[str, int]]) -> RuleValues:
        """Rule values from a mapping shaped like ``rule_values.json``.

        Raises:
            ValueError: when the mapping is not ``{str: {str: int}}``.
        """
        if not isinstance(values, Mapping):
            raise ValueError("rule values: must be a mapping of rule ids to {key: integer}")
        for rule_id, keys in values.items():
            if not isinstance(rule_id, str) or not isinstance(keys, Mapping):
                raise ValueError(f"rule values: {rule_id!r} must map to {{key: integer}}")
            for key, number in keys.items():
                if not isinstance(key, str) or isinstance(number, bool) or not isinstance(number, int):
                    raise ValueError(f"rule values: {rule_id}#{key} must be an integer, got {number!r}")
        return cls(values)

    @staticmethod
    @cache
    def bundled() -> RuleValues:
        """The values shipped beside this module: read as a file, or through importlib.resources when the
        package is inside a zip (importlib.resources itself takes longer to import than a calculator to run)."""
        try:
            with open(os.path.join(os.path.dirname(__file__), RESOURCE), encoding="utf-8") as file:
                text = file.read()
        except OSError:
            from importlib import resources

            text = resources.files(__package__).joinpath(RESOURCE).read_text(encoding="utf-8")
        return RuleValues.from_mapping(json.loads(text))

    def value(self, rule_id: str, key: str) -> int:
        """The number ``key`` of rule ``rule_id``.

        Raises:
            RuleValueMissing: when the rule data does not state it.
        """
        try:
            number = self._values[rule_id][key]
        except KeyError:
            raise RuleValueMissing(f"rule value {rule_id}#{key} is missing from the rule data") from None
        if self._reads is not None:
            self._reads.add((rule_id, key))
        return number

    def updated(self, overrides: Mapping[str, Mapping[str, int]]) -> RuleValues:
        """A copy with some values replaced or added (``{rule_id: {key: int}}``)."""
        merged = {rule: dict(keys) for rule, keys in self._values.items()}
        for rule, keys in RuleValues.from_mapping(overrides)._values.items():
            merged.setdefault(rule, {}).update(keys)
        return RuleValues(merged, _reads=self._reads)

    def recording(self) -> RuleValues:
        """A copy that records each ``(rule_id, key)`` it is asked for in :attr:`reads`."""
        return RuleValues(self._values, _reads=set())

    @property
    def reads(self) -> frozenset[tuple[str, str]]:
        """The ``(rule_id, key)`` pairs read so far by a recording copy (empty otherwise)."""
        return frozenset(self._reads or ())

    def as_dict(self) -> dict[str, dict[str, int]]:
        """A plain, JSON-ready copy."""
        return {rule: dict(keys) for rule, keys in self._values.items()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleValues) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(sorted((rule, tuple(sorted(keys.items()))) for rule, keys in self._values.items())))

    def __repr__(self) -> str:
        return f"RuleValues({len(self._values)} rules)"


def d10_faces(rules: RuleValues) -> int:
    """Faces of Kensei's d10: the Roll of Ten (kensei.roll-of-ten) is the die's highest face."""
    return rules.value("kensei.roll-of-ten", "critical_roll")


def d6_faces(rules: RuleValues) -> int:
    """Faces of Ronin's d6: a stunned fighter drowns on the die's highest face (ronin.water)."""
    return rules.value("ronin.water", "drown_roll")


LOWEST_FACE = 1
"""Every die here is numbered from 1 to its number of faces."""
