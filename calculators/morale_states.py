"""A Ronin warband's morale state over several turns, as a Markov chain (ronin.morale-states).

Each turn's priority phase, the warband tests its Morale when it is wavering or when a trigger
held (its leader or a quarter of its starting strength taken out the turn before). Confident
that fails becomes Wavering; Wavering that passes becomes Confident again and that fails falls
into Panic, which is final.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .choices import MORALE_STATES
from .errors import CalculatorInputError
from .inputs import make_inputs
from .morale import MORALE_FLAGS, MORALE_PARAM, pass_chance, roll_modifier
from .params import N_, Param, choice, count
from .registry import Calculator
from .results import Figure, Result, Step, entry

STATES = MORALE_STATES
MAX_TURNS = 20

PARAMS = (
    MORALE_PARAM,
    choice(
        "start",
        N_("Starting state"),
        N_("The warband's morale state before the first turn."),
        "ronin.morale-states",
        STATES,
        default="confident",
    ),
    count("turns", N_("Turns"), N_("Number of turns to follow."), "ronin.morale-states", MAX_TURNS, minimum=1),
    Param(
        "triggers",
        "int_list",
        N_("Triggers per turn"),
        N_("1 for a turn whose test is due whatever the state (leader or many fighters lost), else 0."),
        "ronin.morale-triggers",
        default=(),
        minimum=0,
        maximum=1,
        min_length=0,
        max_length=MAX_TURNS,
    ),
    *MORALE_FLAGS,
)


def _check(inputs: Any) -> None:
    if inputs.triggers and len(inputs.triggers) != inputs.turns:
        raise CalculatorInputError(
            "triggers",
            N_("must give one 0 or 1 per turn of {0} ({turns}), got {count}"),
            ("turns",),
            {"turns": inputs.turns, "count": len(inputs.triggers)},
        )


MoraleStatesInputs = make_inputs("MoraleStatesInputs", PARAMS, _check, "Inputs of the morale chain.", __name__)


State = tuple[Fraction, Fraction, Fraction]
"""The chances of being confident, wavering and in panic."""


def _by_name(state: State) -> dict[str, float]:
    return {name: float(p) for name, p in zip(STATES, state, strict=True)}


def _history_json(history: tuple[State, ...]) -> list[dict[str, Any]]:
    return [{"turn": turn, **_by_name(state)} for turn, state in enumerate(history)]


@dataclass(frozen=True)
class MoraleStatesResult(Result):
    NAME = "morale-states"
    p_pass_confident: Annotated[Fraction, entry(N_("Chance to pass while confident"), "probability")]
    p_pass_wavering: Annotated[Fraction, entry(N_("Chance to pass while wavering"), "probability")]
    states: Annotated[tuple[State, ...], entry(json=_history_json)]  # turn 0 (the start) to the last turn

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "final": _by_name(self.states[-1])}

    def figures(self) -> tuple[Figure, ...]:
        final = self.states[-1]
        return (
            Figure("confident", N_("Confident at the end"), final[0], "probability"),
            Figure("wavering", N_("Wavering at the end"), final[1], "probability"),
            Figure("panic", N_("Panic at the end"), final[2], "probability"),
        )


def next_turn(state: State, triggered: bool, pass_confident: Fraction, pass_wavering: Fraction) -> State:
    """One turn of the chain: a confident warband tests only when triggered, a wavering one always."""
    confident, wavering, panic = state
    tested_confident = confident if triggered else Fraction(0)
    return (
        confident - tested_confident * (1 - pass_confident) + wavering * pass_wavering,
        tested_confident * (1 - pass_confident),
        panic + wavering * (1 - pass_wavering),
    )


def compute(inputs: Any) -> MoraleStatesResult:
    """The chance of each morale state after each turn.

    Args:
        inputs: a :data:`MoraleStatesInputs`.
    """
    rules = inputs.rules
    flags = {"under_half": inputs.under_half, "commander": inputs.commander}
    confident_steps = roll_modifier(rules, wavering=False, **flags)
    wavering_steps = roll_modifier(rules, wavering=True, **flags)
    pass_confident = pass_chance(inputs.morale, sum(int(s.value) for s in confident_steps), inputs.banner, rules)
    pass_wavering = pass_chance(inputs.morale, sum(int(s.value) for s in wavering_steps), inputs.banner, rules)
    steps = [
        *wavering_steps,
        MoraleStatesResult.step("p_pass_confident", "ronin.morale-test", pass_confident),
        MoraleStatesResult.step("p_pass_wavering", "ronin.morale-test", pass_wavering),
        Step(
            "ronin.morale-triggers",
            "wavering_tests",
            N_("A wavering warband tests every turn"),
            N_("other states only when a trigger holds"),
            "text",
        ),
        Step("ronin.panic", "panic_final", N_("Panic"), N_("final: the warband never leaves it"), "text"),
    ]
    state: State = (
        Fraction(inputs.start == "confident"),
        Fraction(inputs.start == "wavering"),
        Fraction(inputs.start == "panic"),
    )
    history = [state]
    for triggered in inputs.triggers or (0,) * inputs.turns:
        state = next_turn(state, bool(triggered), pass_confident, pass_wavering)
        history.append(state)
    return MoraleStatesResult(pass_confident, pass_wavering, tuple(history), steps=tuple(steps))


CALCULATOR = Calculator(
    N_("Morale over turns"),
    "ronin.morale-states",
    "ronin",
    MoraleStatesInputs,
    MoraleStatesResult,
    compute,
    question=N_("How likely a warband is to be confident, wavering or in panic after several turns."),
)
run = CALCULATOR.run
