"""The rule values the calculators read, written from the rule data into the calculators package.

``calculators`` cannot read YAML or import this project (it also runs alone in the browser), so
the numbers it needs travel as ``calculators/rule_values.json``, regenerated here and checked by
a test to match the data: the number still lives once, in the YAML.
"""

from __future__ import annotations

import json
from pathlib import Path

from kensei_ref.rules.model import RuleBook

RULE_VALUES_PATH = Path(__file__).resolve().parents[2] / "calculators" / "rule_values.json"


def rule_values_json(book: RuleBook) -> str:
    """``{rule_id: {key: int}}`` for every rule that states numbers, sorted, as stable JSON text."""
    values = {rule_id: dict(sorted(keys.items())) for rule_id, keys in sorted(book.rule_values().items())}
    return json.dumps(values, indent=1, sort_keys=True) + "\n"
