"""Exact dice probabilities for Kensei (1st edition, d10) and Ronin (d6).

Standard library only, so that it runs unchanged in the browser under Pyodide; it imports
nothing from the rest of the project. Rules of the package:

- Exact: integer weights and :class:`fractions.Fraction` throughout; floats only in ``to_json``.
- No number the rules state is typed here: modifiers, costs and thresholds are read from
  ``rule_values.json`` through :mod:`calculators.rulebook` (or from a mapping passed in).
- Inputs are frozen dataclasses validated on construction; results are frozen dataclasses.
  Every bad input raises :class:`CalculatorInputError`, naming the field and what it allows.
- A dataclass that nothing compares is declared ``eq=False`` (and an internal record of long
  numbers, unreadable printed, ``repr=False``): Python 3.11 compiles each generated method when
  its module is imported, about 0.1 ms each, which every terminal command pays.

Use a calculator by name::

    from calculators import CALCULATORS
    CALCULATORS["shooting"].run({"wounds": [2, 2, 2, 1], "attack": 6, "defense": 5, "armor": 3})

or by module: ``from calculators import shooting; shooting.run({...})``.
"""

from collections.abc import Iterator, Mapping
from importlib import import_module
from types import ModuleType

from .errors import CalculatorInputError, Plural, RuleValueMissing
from .params import N_, Nn_, Param
from .registry import Calculator
from .rulebook import RuleValues

MODULES = (
    "shooting",
    "melee",
    "regroup",
    "planner",
    "charge",
    "movement",
    "action_points",
    "spells",
    "damage_roll",
    "dice_split",
    "morale",
    "morale_states",
    "rank_test",
    "drowning",
    "priority",
    "morale_trigger",
)
"""The calculators' modules, in the order the site lists them; a calculator's name is its module's with
dashes (``action_points`` is ``action-points``)."""


class _Registry(Mapping[str, Calculator]):
    """Every calculator by its name, each module imported when its calculator is first asked for: a
    terminal command that runs one calculator does not wait for the fifteen others."""

    def __init__(self, modules: tuple[str, ...]) -> None:
        self._modules = {module.replace("_", "-"): module for module in modules}

    def __getitem__(self, name: str) -> Calculator:
        module = import_module(f"{__name__}.{self._modules[name]}")
        calculator: Calculator = module.CALCULATOR
        assert calculator.name == name, f"calculators.{self._modules[name]} holds {calculator.name!r}, not {name!r}"
        return calculator

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __contains__(self, name: object) -> bool:
        return name in self._modules


CALCULATORS: Mapping[str, Calculator] = _Registry(MODULES)
"""Every calculator by its name (``shooting``, ``melee``, ...)."""


def __getattr__(name: str) -> ModuleType:
    """``calculators.shooting`` and the other modules, imported on first use like the registry's."""
    if name in MODULES or name in ("advisor",):
        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CALCULATORS",
    "N_",
    "Calculator",
    "CalculatorInputError",
    "Nn_",
    "Param",
    "Plural",
    "RuleValueMissing",
    "RuleValues",
    "action_points",
    "charge",
    "damage_roll",
    "dice_split",
    "drowning",
    "melee",
    "morale",
    "morale_states",
    "morale_trigger",
    "movement",
    "planner",
    "priority",
    "rank_test",
    "regroup",
    "shooting",
    "spells",
]
