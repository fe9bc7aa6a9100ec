"""Frozen, validated input dataclasses generated from a calculator's parameters.

The tuple of :class:`~calculators.params.Param` is the one declaration of a calculator's inputs:
:func:`make_inputs` turns it into a frozen dataclass whose ``__post_init__`` validates every field
(and the calculator's checks across fields), and whose ``from_dict`` also rejects unknown keys,
missing keys and wrong types. Each input object carries the :class:`RuleValues` it is computed with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field, make_dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import CalculatorInputError, quoted
from .params import Param
from .rulebook import RuleValues

_ANNOTATIONS = {"int": int, "bool": bool, "choice": str, "int_list": tuple[int, ...]}


class InputsBase:
    """Base of every generated input dataclass (see :func:`make_inputs`)."""

    PARAMS: ClassVar[tuple[Param, ...]] = ()
    rules: RuleValues

    if TYPE_CHECKING:  # the generated dataclass's own __init__: one keyword per parameter, and rules

        def __init__(self, **values: Any) -> None: ...

    def __post_init__(self) -> None:
        if not isinstance(self.rules, RuleValues):
            raise CalculatorInputError("rules", f"must be a RuleValues, got {type(self.rules).__name__}")
        for param in self.PARAMS:
            object.__setattr__(self, param.name, param.validate(getattr(self, param.name), self.rules))
        self.check()

    def check(self) -> None:
        """Checks across fields, once each field is valid on its own; overridden per calculator."""

    @classmethod
    def from_dict(cls, mapping: Mapping[str, Any], rules: RuleValues | None = None) -> InputsBase:
        """Inputs from a JSON-like mapping; omitted optional inputs take their defaults.

        Raises:
            CalculatorInputError: for an unknown key, a missing required key or a bad value.
        """
        if not isinstance(mapping, Mapping):
            raise CalculatorInputError("inputs", f"must be a mapping of input names to values, got {quoted(mapping)}")
        rules = RuleValues.bundled() if rules is None else rules
        names = [param.name for param in cls.PARAMS]
        for key in mapping:
            if key not in names:
                raise CalculatorInputError(str(key), "unknown input; allowed: " + ", ".join(names))
        for param in cls.PARAMS:
            if param.required and param.name not in mapping:
                raise param.refusal(rules)
        return cls(**mapping, rules=rules)


def make_inputs(
    name: str,
    params: tuple[Param, ...],
    check: Callable[[Any], None] | None = None,
    doc: str = "",
    module: str = __name__,
) -> type[InputsBase]:
    """A frozen, keyword-only dataclass with one field per parameter and a ``rules`` field.

    Args:
        name: the class name, e.g. ``ShootingInputs``.
        params: the calculator's parameters, in order.
        check: validation across fields; raises :class:`CalculatorInputError`.
        doc: the class docstring.
        module: the module the class is documented in (the calculator's).
    """
    fields: list[tuple[str, Any, Any]] = []
    for param in params:
        annotation = _ANNOTATIONS[param.kind] if param.default is not None else _ANNOTATIONS[param.kind] | None
        fields.append((param.name, annotation, field() if param.required else field(default=param.default)))
    fields.append(("rules", RuleValues, field(default_factory=RuleValues.bundled, compare=False, repr=False)))
    namespace: dict[str, Any] = {
        "PARAMS": params,
        "__doc__": doc or f"Inputs: {', '.join(p.name for p in params)}.",
    }
    if check is not None:
        namespace["check"] = check
    cls = make_dataclass(name, fields, bases=(InputsBase,), namespace=namespace, frozen=True, kw_only=True)
    cls.__module__ = module
    return cls
