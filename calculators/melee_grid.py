"""Every melee a charge row needs, summed exactly at once (design sections 8 and 11).

A charge after a shot, or into an enemy that withstands and shoots, meets an enemy of one of many
sizes with a unit of one of many sizes: the orders advisor needs the melee for each pair of Wounds
left (the enemy's after your shots, yours after its reaction shot), weighted by the chance of the
pair. Running :mod:`calculators.melee` once per pair costs a whole melee per pair, each with its own
sums of dice; a unit of 200 Wounds against another meets about 30,000 pairs. Here the same figures
come from tables shared by every pair, so that a pair costs a few look-ups, and the exact
probabilities stay integers over known denominators until the row turns them into fractions.

The melee is the calculator's (the same sides, dice, bonuses and caps); three identities carry the
work:

- "B's ``m`` dice deal at least ``x``" is "B's running total reaches ``x`` within ``m`` dice"
  (``τ_x ≤ m``, the first passage of B's dice to ``x``);
- so A's blow ``X`` is answered by at least ``X`` exactly when ``X + τ_X ≤ K`` (``K``: B's dice if
  untouched): the comparison of two strikes becomes the distribution of one sum, ``X + τ_X``,
  whose law for ``n`` dice follows from that for ``n - 1`` with a few small integer operations
  (:class:`Race`);
- the blows beyond the Wounds a side has (the caps) come from the same recursion restricted to the
  totals above the cap (:meth:`Race.overkill`).

The Wounds dealt to the enemy (a distribution, not one figure) come from Horner's rule over the
number of dice your unit rolls, the enemy's size carried as a power of a second variable; when the
enemy strikes first, your unit's Wounds after its blow follow from the reaction and the blow
rolled together, one die of each per enemy Wound (:class:`ReactionAndBlow`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import chain, islice, repeat
from math import lcm
from operator import add, mul, sub
from typing import Any

from . import melee
from .errors import CalculatorInputError
from .kensei_dice import strike_die
from .pmf import Pmf
from .rulebook import RuleValues

Series = list[int]
"""Integer coefficients of a power series, truncated to a fixed length."""

Die = tuple[int, ...]
"""A die's integer weights for 0, 1, 2... Wounds (their sum is the denominator of one roll)."""

Kept = dict[tuple[Any, ...], Any]
"""The races, passages and rolls the :class:`PairTables` of a turn share, by what they are made from."""

# ---- Integer series ---------------------------------------------------------------------------


def combine(terms: Iterable[tuple[int, int, Sequence[int]]], size: int) -> Series:
    """The first ``size`` coefficients of ``Σ weight * z**shift * series`` over ``terms``.

    The terms' products are chained as lazy ``map`` objects and the list is made once: each
    coefficient then costs its multiplications and additions alone, with no list per term (the
    numbers are thousands of bits, but a list per term and face still cost a third of the time)."""
    total: Iterator[int] | None = None
    for weight, shift, series in terms:
        if weight and shift < size:
            stop = min(len(series), size - shift)
            part = chain(repeat(0, shift), map(mul, series[:stop], repeat(weight)), repeat(0))
            total = part if total is None else map(add, total, part)
    return [0] * size if total is None else list(islice(total, size))


def convolve(row: Sequence[int], die: Sequence[int], size: int) -> Series:
    """The first ``size`` coefficients of ``row * die`` (a short ``die``: one pass per face)."""
    return combine(((weight, shift, row) for shift, weight in enumerate(die)), size)


def scale(series: Sequence[int], factor: int) -> Series:
    return list(map(mul, series, repeat(factor))) if factor != 1 else list(series)


def plus(first: Sequence[int], second: Sequence[int]) -> Series:
    return list(map(add, first, second))


def shifted(series: Sequence[int], by: int) -> Series:
    """``z**by * series``, truncated to the same length."""
    return [0] * by + list(series[: len(series) - by]) if by else list(series)


def divided(series: Sequence[int], ratio: int) -> Series:
    """``series / (1 - ratio z)``: a die that may roll nothing and be rolled again, summed over its
    repeats (each coefficient the previous times ``ratio``, plus its own)."""
    if not ratio:
        return list(series)
    running = 0
    return [(running := running * ratio + term) for term in series]


def cumulated(series: Sequence[int], base: int) -> Series:
    """``c[K] = sum of s[v] * base**(K - v)`` for ``v <= K``: the chance of at most ``K`` over the
    denominator ``base**K`` when ``s[v]`` is over ``base**v``."""
    running = 0
    return [(running := running * base + term) for term in series]


def scaled_die(die: Die, base: int) -> Die:
    """The die with the face of ``j`` Wounds weighted ``base**j`` more: a count of Wounds then counts
    as that many rolls of a die of ``base`` faces, which keeps one denominator per total."""
    return tuple(weight * base**face for face, weight in enumerate(die))


def power_row(die: Die, count: int, size: int | None = None) -> Series:
    """The weights of the sum of ``count`` rolls of ``die`` (the first ``size`` of them)."""
    row: Series = [1]
    for _ in range(count):
        row = convolve(row, die, len(row) + len(die) - 1 if size is None else size)
    return row if size is None else row + [0] * (size - len(row))


def passage_table(die: Die, levels: int, size: int, level_factor: int = 1) -> list[Series]:
    """``T[x][t] = P(τ_x = t) * total**t * level_factor**x`` for ``x`` up to ``levels``, where ``τ_x``
    is the number of rolls of ``die`` its running total needs to reach ``x`` (``τ_0 = 0``).

    The first roll either deals nothing (and all is to do again) or ``β`` Wounds (and ``x - β`` is
    left), which gives each row from the rows below it."""
    one = [1] + [0] * (size - 1)
    rows = [one]
    for level in range(1, levels + 1):
        acc = [0] * size
        for face in range(1, len(die)):
            if die[face] and face <= level:
                acc = plus(acc, scale(rows[level - face], die[face] * level_factor**face))
            elif die[face]:
                acc[0] += die[face] * level_factor**level
        rows.append(shifted(divided(acc, die[0]), 1))
    return rows


# ---- Races: one strike against the answer it meets --------------------------------------------


class Race:
    """Sums of ``power`` dice against the first passage of ``answer`` dice, for 0, 1, 2... dice.

    For ``n`` dice with total ``X``, the law of ``X + τ_X`` (and of ``X + τ_{X+1}``) gives at once,
    for every ``K``, the chance that ``K - X`` answering dice deal at least ``X`` (at least ``X + 1``).
    Series are indexed by that sum, a coefficient at ``v`` being over ``t_power**n * t_answer**v``:
    the power die is scaled by the answer's total so that one denominator serves each ``v``.

    The state of the recursion is, for each ``i`` below the answer's largest face, the series of
    ``z**X * T_{X-i}`` summed over ``X`` (``T_x``: the law of ``τ_x``): enough to move every ``X``
    one Wound further (:meth:`advance`)."""

    def __init__(self, power: Die, answer: Die, size: int) -> None:
        self.power = power
        self.answer = answer
        self.size = size
        self.depth = max(1, len(answer) - 1)
        self.scaled = scaled_die(power, sum(answer))
        self.base = sum(answer)

    def start(self) -> list[Series]:
        """No die rolled: ``X = 0`` and ``T_{-i} = 1``."""
        return [[1] + [0] * (self.size - 1) for _ in range(self.depth)]

    def advance(self, state: list[Series]) -> list[Series]:
        """Every total one Wound further: ``T_{x+1} = z (Σ_β a_β T_{x+1-β}) / (1 - a_0 z)``."""
        return [self._next(state), *state[:-1]]

    def _next(self, state: Sequence[Series]) -> Series:
        """The series of ``T_{X+1}`` from those of ``T_X``, ``T_{X-1}``... (``state``: :meth:`advance`)."""
        answer, size = self.answer, self.size
        acc = combine(((answer[face], 0, state[face - 1]) for face in range(1, len(answer))), size - 1)
        return [0, *divided(acc, answer[0])]

    def step(self, state: list[Series]) -> tuple[list[Series], list[Series]]:
        """The state with one more power die, and the state advanced once (for ``τ_{X+1}``).

        With ``E_0 = T_X``, ``E_{-i} = T_{X-i}`` (the state) and ``E_j = T_{X+j}`` (advanced ``j``
        times), the state of ``X + f`` is ``E_{f-i}``: ``S'_i = Σ_f p_f z**f E_{f-i}``, one pass each."""
        depth, scaled = self.depth, self.scaled
        series = list(reversed(state))  # E_{1-depth} ... E_0 at index depth - 1 + j
        for _ in range(1, max(2, len(scaled))):
            series.append(self._next(series[: -depth - 1 : -1]))
        at = depth - 1
        total = [
            combine(((weight, face, series[at + face - index]) for face, weight in enumerate(scaled)), self.size)
            for index in range(depth)
        ]
        return total, [series[at + 1 - index] for index in range(depth)]

    def cumulative(self, count: int) -> tuple[list[Series], list[Series]]:
        """For ``n`` from 0 to ``count``, over every ``K``: ``P(X + τ_X ≤ K)`` and
        ``P(X + τ_{X+1} ≤ K)`` (numerators over ``t_power**n * t_answer**K``)."""
        state = self.start()
        own, beyond = [], []
        for _ in range(count + 1):
            following, advanced = self.step(state)
            own.append(cumulated(state[0], self.base))
            beyond.append(cumulated(advanced[0], self.base))
            state = following
        return own, beyond

    def term(self, state: list[Series], weight: int, total: int, passage: list[Series]) -> list[Series]:
        """``state`` plus ``weight`` times the state of the one total ``total`` (from ``passage``, the
        table of the answer's first passages)."""
        if not weight or total >= self.size:
            return state
        return [
            add_at(series, weight, total, passage[total - index] if total >= index else passage[0])
            for index, series in enumerate(state)
        ]

    def overkill(
        self, shift: int, count: int, passage: list[Series], within: bool = False
    ) -> tuple[list[Series], list[Series]]:
        """For ``c`` from 0 to ``count``, with ``n = c + shift`` dice (none below 0), over every ``K``:
        ``P(X ≥ c + 1 and X + τ_X ≤ K)`` and ``P(X ≥ c and X + τ_{X+1} ≤ K)``; ``within``: the
        totals within the cap instead, ``P(X ≤ c and X + τ_X ≤ K)`` and ``P(X ≤ c - 1 and
        X + τ_{X+1} ≤ K)`` (the two add up to :meth:`cumulative`'s).

        These are the blows beyond a side's own ``c`` Wounds, which the caps of the melee treat
        apart. The restricted state moves with ``c``: one die more, and the threshold one higher,
        which only changes the few totals at the threshold (``passage``: the answer's first passages,
        at least ``size + len(power)`` levels)."""
        first, sign = max(0, -shift), -1 if within else 1
        zero = [0] * self.size
        own: list[Series] = [zero] * min(first, count + 1)
        beyond: list[Series] = list(own)
        row = power_row(self.scaled, max(0, shift), self.size)
        state = [list(zero) for _ in range(self.depth)]
        for total in range(0, 1) if within else range(1, self.size):
            state = self.term(state, row[total], total, passage)
        for cap in range(first, count + 1):
            following, advanced = self.step(state)
            own.append(cumulated(state[0], self.base))
            head = advanced[0]
            if cap < self.size:
                head = add_at(head, sign * row[cap], cap, passage[cap + 1])
            beyond.append(cumulated(head, self.base))
            state = self._threshold_moved(following, row, sign, cap, passage)
            row = convolve(row, self.scaled, self.size)
        return own, beyond

    def _threshold_moved(
        self, state: list[Series], row: Series, sign: int, cap: int, passage: list[Series]
    ) -> list[Series]:
        """The state of the totals above ``cap`` advanced by one die, corrected to the totals above
        ``cap + 1``: a die of ``j ≥ 2`` lifts totals from ``cap + 2 - j``...``cap`` over the new
        threshold, and a die of 0 leaves the total ``cap + 1`` under it (``sign`` -1: the totals
        within the cap, which gain and lose the same)."""
        scaled = self.scaled
        for face in range(2, len(scaled)):
            for total in range(max(0, cap + 2 - face), min(cap + 1, self.size)):
                state = self.term(state, sign * scaled[face] * row[total], total + face, passage)
        if cap + 1 < self.size:
            state = self.term(state, -sign * scaled[0] * row[cap + 1], cap + 1, passage)
        return state

    def taken(self, count: int) -> list[Series]:
        """For ``c`` from 0 to ``count``, over every ``K``: ``Σ_{r=1..c} P(X + τ_r ≤ K)`` with ``X``
        the sum of ``c`` power dice: the answer's expected Wounds dealt, up to ``c`` of them, when
        it has ``K - X`` dice (numerators over ``t_power**c * t_answer**K``).

        ``X = X_{c-r} + X_r``, and ``Z_r = X_r + τ_r`` follows from ``Z`` of smaller ``r`` by the
        first answering die; the sum over ``r`` then grows by one power die per step."""
        answer, scaled, size = self.answer, self.scaled, self.size
        short = [[1]]
        for _ in range(len(answer)):
            short.append(convolve(short[-1], scaled, len(short[-1]) + len(scaled) - 1))
        previous: dict[int, Series] = {}
        gamma = [0] * size
        rows = [cumulated(gamma, self.base)]
        for level in range(1, count + 1):
            acc = [0] * size
            for face in range(1, min(level, len(answer))):
                if answer[face]:
                    acc = plus(acc, convolve(previous[level - face], scale(short[face], answer[face]), size))
            lump = sum(answer[level:])
            if lump:
                acc = plus(acc, convolve(short[level], [lump], size))
            previous[level] = shifted(divided(acc, answer[0]), 1)
            previous.pop(level - len(answer), None)
            gamma = plus(convolve(gamma, scaled, size), previous[level])
            rows.append(cumulated(gamma, self.base))
        return rows


def add_at(series: Series, weight: int, at: int, row: Sequence[int]) -> Series:
    """``series + weight * z**at * row``, truncated to the length of ``series``, from ``row``'s first
    weight on (a first passage's law starts with as many zeros as the rolls it needs at least, and
    a sum with zero still copies a number of thousands of bits)."""
    first = next(filter(None, row), 0)
    start = at + (row.index(first) if first else len(row))
    if not weight or start >= len(series):
        return series
    return series[:start] + list(map(add, series[start:], map(mul, row[start - at :], repeat(weight))))


# ---- One pair of dice: the melee of any sizes ---------------------------------------------------


class PairTables:
    """The tables every melee between a unit rolling ``a`` dice (side A, yours) and one rolling ``b``
    dice (side B) shares, up to ``most_a`` dice of A and ``most_b`` of B, built once per turn.

    A melee of ``c`` Wounds (A) against ``k`` (B) with bonus dice ``bonus_a`` and ``bonus_b`` reads
    them at ``C = c + bonus_a`` and ``K = k + bonus_b``. The tables kept are those of the totals
    within a side's cap (:meth:`Race.overkill` with ``within``), which are the whole race's below
    the cap and the melee's own figures at it, made when a pair first reads them (a grid of few
    pairs sums each pair instead: :meth:`run_sums`); the pairs past them (the bonuses of a side that
    has fewer Wounds but more models, or Defensive Position) are summed one by one, and the whole
    races and the blows beyond other caps are made only when so many pairs need them that the sums
    would cost more (:meth:`_direct`)."""

    def __init__(self, a: Die, b: Die, most_a: int, most_b: int, kept: Kept | None = None) -> None:
        self.a, self.b = a, b
        self.base_a, self.base_b = sum(a), sum(b)
        self.size_a, self.size_b = most_a + 1, most_b + 1
        self.race_a = Race(a, b, self.size_b)
        self.race_b = Race(b, a, self.size_a)
        self.kept: Kept = {} if kept is None else kept
        self.passage_a = self._passage(a, self.size_a + len(b), self.size_a)
        # B's passages serve two reads: its answer to A's blow (levels up to B's size, plus a die of A's)
        # and B's blow back, capped at A's Wounds (levels up to what B's dice can deal, up to A's size)
        levels_b = max(self.size_b + len(a), min(self.size_a, (self.size_b - 1) * (len(b) - 1)) + 1)
        self.passage_b = self._passage(b, levels_b, self.size_b)
        self._rows: dict[tuple[Die, int], Series] = self.kept.setdefault(("rows",), {})
        self._bonus_rows: dict[int, Series] = {}
        self._capped_sums: dict[tuple[int, int], int] = {}
        self._direct_terms: dict[str, int] = {}
        self._capped_answers: dict[int, Series] = {}
        self.direct_budget = self.size_a * self.size_b
        """The products the rare pairs of a side may cost summed directly (:meth:`_direct`)."""

    @cached_property
    def within_a(self) -> tuple[list[Series], list[Series]]:
        """A's blows within its own Wounds (:meth:`Race.overkill` with ``within``), made when first read:
        a grid of few pairs sums them instead (:meth:`run_sums`)."""
        return self._overkill(self.race_a, 0, self.size_a - 1, self.passage_b, within=True)

    @cached_property
    def within_b(self) -> tuple[list[Series], list[Series]]:
        """B's blows within its own Wounds, made when first read."""
        return self._overkill(self.race_b, 0, self.size_b - 1, self.passage_a, within=True)

    @cached_property
    def gamma(self) -> list[Series]:
        """B's answers capped at A's Wounds (:meth:`Race.taken`), made when first read."""
        most_a = self.size_a - 1
        return self._race_table("taken", self.race_a, most_a, lambda: self.race_a.taken(most_a))

    def made(self) -> bool:
        """Whether the tables of the blows within the caps are made (then a pair reads them)."""
        return "within_a" in self.__dict__

    def _passage(self, die: Die, levels: int, size: int) -> list[Series]:
        """:func:`passage_table`, kept for the turn under the die and size (a table of more levels
        serves: rows are the same whatever the levels after them)."""
        kept = self.kept.get(("passage", die, size))
        if kept is None or len(kept) <= levels:
            kept = self.kept["passage", die, size] = passage_table(die, levels, size)
        return kept

    def _race_table(self, kind: str, race: Race, count: int, make: Callable[[], list[Series]]) -> list[Series]:
        """A table of ``race`` for ``c`` from 0 to ``count``, kept for the turn under the race's dice and
        size: the table of two dice the other way round (a counter-charge's) holds the same races
        with the sides swapped, and a table of more counts serves one of fewer (its first rows)."""
        kept = self.kept.get((kind, race.power, race.answer, race.size))
        if kept is None or len(kept) <= count:
            kept = self.kept[kind, race.power, race.answer, race.size] = make()
        return kept[: count + 1]

    def _overkill(
        self, race: Race, shift: int, count: int, passage: list[Series], within: bool = False
    ) -> tuple[list[Series], list[Series]]:
        """:meth:`Race.overkill`, kept for the turn (:meth:`_race_table`)."""
        kind = "within" if within else f"over {shift}"
        pair: list[Any] = []

        def make() -> list[Series]:
            own, beyond = race.overkill(shift, count, passage, within)
            pair.append(beyond)
            self.kept[f"{kind} beyond", race.power, race.answer, race.size] = beyond
            return own

        own = self._race_table(kind, race, count, make)
        beyond = pair[0] if pair else self.kept[f"{kind} beyond", race.power, race.answer, race.size]
        return own, beyond[: count + 1]

    def whole(self, side: str) -> tuple[list[Series], list[Series]]:
        """The whole race of ``side`` (``a`` or ``b``: :meth:`Race.cumulative`), for the rare pairs that
        need it. Kept by the race's dice and size, not by side: the two sides may roll equal dice with
        tables of other sizes, and a counter-charge's table holds the same races the other way round."""
        race, count = (self.race_a, self.size_a - 1) if side == "a" else (self.race_b, self.size_b - 1)
        pair: list[Any] = []

        def make() -> list[Series]:
            own, beyond = race.cumulative(count)
            pair.append(beyond)
            self.kept["whole beyond", race.power, race.answer, race.size] = beyond
            return own

        own = self._race_table("whole", race, count, make)
        beyond = pair[0] if pair else self.kept["whole beyond", race.power, race.answer, race.size]
        return own, beyond[: count + 1]

    def over_a(self, shift: int) -> tuple[list[Series], list[Series]]:
        """A's blows beyond its own Wounds, for A's bonus ``shift`` (:meth:`Race.overkill`)."""
        return self._overkill(self.race_a, shift, self.size_a - 1, self.passage_b)

    def over_b(self, shift: int) -> tuple[list[Series], list[Series]]:
        """B's blows beyond its own Wounds, for B's bonus ``shift``."""
        return self._overkill(self.race_b, shift, self.size_b - 1, self.passage_a)

    def row(self, die: Die, count: int) -> Series:
        """The weights of ``count`` rolls of ``die`` (kept: the rare corrections below reuse them), each
        made from the largest count kept below it: a run of sizes asks for one roll more each time."""
        if (die, count) not in self._rows:
            start = max((kept for face, kept in self._rows if face == die and kept < count), default=0)
            row = self._rows.get((die, start), [1])
            for _ in range(count - start):
                row = convolve(row, die, len(row) + len(die) - 1)
            self._rows[(die, count)] = row
        return self._rows[(die, count)]

    def reach(self, side: str) -> list[Series]:
        """``P(τ_x ≤ t) * total**t``: the chance ``t`` rolls of ``side``'s die reach ``x`` (kept with the
        passages it is made from)."""
        die, passage = (self.a, self.passage_a) if side == "a" else (self.b, self.passage_b)
        key = ("reach", die, len(passage[0]))
        kept = self.kept.get(key)
        if kept is None or len(kept) < len(passage):
            kept = self.kept[key] = [cumulated(row, sum(die)) for row in passage]
        return kept

    def run_sums(
        self,
        k: int,
        bonus_a: int,
        bonus_b: int,
        first_c: int,
        weights: Sequence[int],
        chance: int,
        other: int,
        summed: bool = False,
    ) -> tuple[int, int, int]:
        """The melees of a run of A's sizes ``c = first_c, first_c + 1...`` (equal bonuses) against ``k``,
        each weighted (``weights``), the two strike orders combined ``chance : other``: the sums of the
        victory less ``chance`` times the weight (A striking first wins unless...), of the draw, and
        of the Wounds A loses when it strikes first, over ``t_a**C t_b**m`` with the run's last ``C``
        (Horner's rule along the run: one more die of A per Wound).

        A pair's victory term is ``other * V_b - chance * L_a`` (``V_b``: A wins when B strikes first,
        ``L_a``: A does not win when it strikes first) and its draw term ``other * (D_b + V_b) -
        chance * (L_a - D_a)`` less the victory term, so the draws are summed through the latter
        (:meth:`_pair_figures`). ``summed``: each pair's figures summed over the blow's totals instead
        of read from tables (:meth:`_summed_figures`), for a grid of few pairs."""
        base_a = self.base_a
        victory = beyond = taken = 0
        if summed and k + bonus_b >= 0:
            sizes = range(first_c, first_c + len(weights))
            figures: Iterable[tuple[int, int, int]] = (
                self._summed_figures(c, k, bonus_a, k + bonus_b, chance, other) if weight else (0, 0, 0)
                for c, weight in zip(sizes, weights, strict=True)
            )
        else:
            figures = self._pair_figures(k, bonus_a, bonus_b, first_c, weights, chance, other)
        for weight, (term, term_beyond, taken_a) in zip(weights, figures, strict=True):
            victory = victory * base_a + weight * term
            beyond = beyond * base_a + weight * term_beyond
            taken = taken * base_a + weight * taken_a
        return victory, beyond - victory, taken

    def _pair_figures(
        self, k: int, bonus_a: int, bonus_b: int, first_c: int, weights: Sequence[int], chance: int, other: int
    ) -> Iterable[tuple[int, int, int]]:
        """For each pair of the run, ``other * V_b - chance * L_a``, ``other * (D_b + V_b) - chance *
        (L_a - D_a)`` and A's Wounds taken when it strikes first (:meth:`run_sums`). Without bonus dice
        (most pairs) they are the tables' entries as they stand, read along the run at once; with them,
        a pair of no weight is not read (it may need tables no other pair needs)."""
        count = len(weights)
        sizes = range(first_c, first_c + count)
        if bonus_a or bonus_b:
            return (
                self._bonus_figures(c, k, bonus_a, k + bonus_b, chance, other) if weight else (0, 0, 0)
                for c, weight in zip(sizes, weights, strict=True)
            )
        (own_a, beyond_a), (own_b, beyond_b), gamma = self.within_a, self.within_b, self.gamma
        answer, answer_beyond = own_b[k][first_c : first_c + count], beyond_b[k][first_c : first_c + count]
        return (
            (other * won - chance * own_a[c][k], other * whole - chance * beyond_a[c][k], gamma[c][k])
            for c, whole, won in zip(sizes, answer, answer_beyond, strict=True)
        )

    def _summed_figures(self, c: int, k: int, bonus_a: int, most: int, chance: int, other: int) -> tuple[int, int, int]:
        """:meth:`_pair_figures` of one pair (``K = most ≥ 0``), summed over the strikes' totals as the
        melee defines them, with no table: A striking first does not win when its blow ``X`` is below
        ``min(c + 1, k)`` and B answers with at least ``X``, and B answers with at least ``X + 1``
        when ``X`` is below ``min(c, k)``; B striking first with ``Y`` loses when ``Y`` is below
        ``min(k, c)`` and A answers with at least ``Y + 1``, and does not win when ``Y`` is below
        ``min(k + 1, c)`` and A answers with at least ``Y``; A loses to B's answer, capped at ``c``,
        unless its blow destroyed B (``X ≥ k``)."""
        big = c + bonus_a
        loss = self._race_sum("a", big, min(c + 1, k), most, 0)
        answered = self._race_sum("a", big, min(c, k), most, 1)
        victory_b = self._race_sum("b", most, min(k, c), big, 1)
        answered_b = self._race_sum("b", most, min(k + 1, c), big, 0)
        row, capped = self.row(self.race_a.scaled, big), self._answers_capped(c)
        taken = sum(row[x] * capped[most - x] for x in range(min(k, most + 1, len(row))))
        return other * victory_b - chance * loss, other * answered_b - chance * answered, taken

    def _answers_capped(self, c: int) -> Series:
        """``E[min(Y_m, c)] * t_b**m`` for B's total ``Y_m`` of ``m`` dice: ``Σ_{r=1..c} P(τ_r ≤ m)``
        (kept, each made from the one of ``c - 1`` when kept)."""
        if c not in self._capped_answers:
            reach = self.reach("b")
            below = self._capped_answers.get(c - 1)
            if below is None:
                below = [sum(reach[level][m] for level in range(1, min(c, len(reach)))) for m in range(self.size_b)]
            level = reach[c][: self.size_b] if 0 < c < len(reach) else [0] * self.size_b  # beyond: out of reach
            self._capped_answers[c] = list(map(add, below, level))
        return self._capped_answers[c]

    def _bonus_figures(self, c: int, k: int, bonus_a: int, most: int, chance: int, other: int) -> tuple[int, int, int]:
        """:meth:`_pair_figures` of one pair with bonus dice (or Defensive Position) on a side. The
        side with fewer Wounds having the bonus dice of more models (most such pairs) reads the tables
        as they stand at ``C = c + bonus_a`` and ``K = most``: the other side's blow never reaches
        the totals past the caps that :meth:`a_first` and :meth:`b_first` correct."""
        big = c + bonus_a
        if (not bonus_a and c < k <= most) or most == k < c:
            (own_a, beyond_a), (own_b, beyond_b) = self.within_a, self.within_b
            taken_a = self.gamma[c][most] if most <= k and not bonus_a else self._taken_a(c, k, bonus_a, most)
            return (
                other * beyond_b[most][big] - chance * own_a[big][most],
                other * own_b[most][big] - chance * beyond_a[big][most],
                taken_a,
            )
        if most >= 0:
            loss, draw_a = self.a_first(c, k, bonus_a, most)
            taken_a = self.gamma[c][most] if most <= k and not bonus_a else self._taken_a(c, k, bonus_a, most)
        else:
            loss = draw_a = self.a[0] ** (c + bonus_a)
            taken_a = 0
        victory_b, draw_b = self.b_first(c, k, bonus_a, most)
        return other * victory_b - chance * loss, other * (draw_b + victory_b) - chance * (loss - draw_a), taken_a

    def a_first(self, c: int, k: int, bonus_a: int, most: int) -> tuple[int, int]:
        """A striking first (``K = most ≥ 0``): the chance it does not win and of a draw, over
        ``t_a**C t_b**K``. With ``X`` its blow, it does not win when ``X ≤ min(c, k - 1)`` and B
        answers with at least ``X``, which is ``X + τ_X ≤ K`` (:class:`Race`); the draw is that with
        an answer of exactly ``X`` (or of at least ``c`` when ``X = c``)."""
        big = c + bonus_a
        if not bonus_a and (c < k or (c == k and most <= c + 1)):
            loss = self.within_a[0][c][most] - (self._small_a(big, k, most, 0) if c == k else 0)
            return loss, loss - self.within_a[1][c][most]
        if c > k and most <= big:
            loss = self.within_a[0][big][most] - self._small_a(big, k, most, 0)
            return loss, loss - self.within_a[1][big][most] + self._small_a(big, k, most, 1)
        if self._direct("a", min(c + 1, k) + min(c, k)):
            loss = self._race_sum("a", big, min(c + 1, k), most, 0)
            return loss, loss - self._race_sum("a", big, min(c, k), most, 1)
        whole, whole_plus = self.whole("a")
        if c < k:
            over = self.over_a(bonus_a)
            beyond, beyond_plus = over[0][c][most], over[1][c][most]
        else:
            beyond = self._small_a(big, k, most, 0)
            beyond_plus = self.over_a(bonus_a)[1][c][most] if c == k else self._small_a(big, k, most, 1)
        loss = whole[big][most] - beyond
        return loss, loss - whole_plus[big][most] + beyond_plus

    def b_first(self, c: int, k: int, bonus_a: int, most: int) -> tuple[int, int]:
        """B striking first with ``Y``: the chance A wins and of a draw, over ``t_b**m t_a**C``
        (``m = max(0, K)``). A wins when ``Y ≤ min(c, k) - 1`` and A then deals at least ``Y + 1``,
        which is ``Y + σ_{Y+1} ≤ C``; a draw when A then deals exactly ``Y`` (at least ``k`` when
        ``Y = k``)."""
        big, blows, bonus_b = c + bonus_a, max(0, most), most - k
        if not bonus_b and (k < c or (k == c and big <= k + 1)):
            victory = self.within_b[1][k][big]
            return victory, self.within_b[0][k][big] - (self._small_b(blows, c, big, 0) if k == c else 0) - victory
        if k > c and big <= blows:
            victory = self.within_b[1][blows][big] - self._small_b(blows, c, big, 1)
            return victory, self.within_b[0][blows][big] - self._small_b(blows, c, big, 0) - victory
        if self._direct("b", min(k, c) + min(k + 1, c)):
            victory = self._race_sum("b", blows, min(k, c), big, 1)
            return victory, self._race_sum("b", blows, min(k + 1, c), big, 0) - victory
        whole, whole_plus = self.whole("b")
        if k < c:
            over = self.over_b(bonus_b)
            beyond, within = over[1][k][big], over[0][k][big]
        else:
            beyond = self.over_b(bonus_b)[1][k][big] if k == c else self._small_b(blows, c, big, 1)
            within = self._small_b(blows, c, big, 0)
        victory = whole_plus[blows][big] - beyond
        return victory, whole[blows][big] - within - victory

    def _direct(self, side: str, terms: int) -> bool:
        """Whether the rare pairs of ``side`` striking first (:meth:`a_first` and :meth:`b_first` past
        their tables of totals within the caps) are summed over the blow's totals (:meth:`_race_sum`),
        ``terms`` products for this pair, rather than read from the whole races and the blows beyond
        the caps: a few pairs (the few of a counter-charge's bonus, or of an enemy that charged) cost
        far less than those tables, which are made once the sums would have cost as much (many
        pairs, as when a side with fewer Wounds has more models after a reaction shot)."""
        spent = self._direct_terms.get(side, 0) + terms
        if spent > self.direct_budget:
            self._direct_terms[side] = self.direct_budget + 1  # from now on, the tables
            return False
        self._direct_terms[side] = spent
        return True

    def _race_sum(self, side: str, dice: int, below: int, most: int, plus_one: int) -> int:
        """``P(X < below and X + τ_{X + plus_one} ≤ most)`` for ``side``'s blow ``X`` of ``dice`` dice and
        the other side's first passages ``τ``, over ``t_side**dice t_other**most``: each total's
        weight (the scaled dice's powers, over ``t_side**dice t_other**x``) times the chance the other
        side reaches it in time (over ``t_other**(most - x)``)."""
        race, reach = (self.race_a, self.reach("b")) if side == "a" else (self.race_b, self.reach("a"))
        row = self.row(race.scaled, dice)
        return sum(row[x] * reach[x + plus_one][most - x] for x in range(min(below, most + 1, len(row))))

    def _bonus_row(self, bonus: int) -> Series:
        """A's bonus dice, scaled as :class:`Race` scales them (kept: every pair of a run reads it)."""
        if bonus not in self._bonus_rows:
            self._bonus_rows[bonus] = power_row(self.race_a.scaled, bonus)
        return self._bonus_rows[bonus]

    def _taken_a(self, c: int, k: int, bonus_a: int, most: int) -> int:
        """A striking first: B's expected Wounds dealt back, capped at ``c``."""
        gamma = self.gamma[c]
        if bonus_a:
            row = self._bonus_row(bonus_a)
            taken = sum(weight * gamma[most - face] for face, weight in enumerate(row) if face <= most)
        else:
            taken = gamma[most]
        if most > k:
            powers = self.row(self.race_a.scaled, c + bonus_a)
            for total in range(k, min(most, len(powers))):
                deepest = min(c, (most - total) * (len(self.b) - 1))  # beyond, B's dice cannot reach
                taken -= powers[total] * self._capped(most - total, deepest)
        return taken

    def _capped(self, dice: int, deepest: int) -> int:
        """``Σ_{x=1..deepest} P(τ_x ≤ dice) * t_b**dice``: B's ``dice`` dice deal at least ``x`` (kept:
        the pairs with bonus dice ask for a few of them again and again)."""
        if (dice, deepest) not in self._capped_sums:
            reach = self.reach("b")
            self._capped_sums[dice, deepest] = sum(reach[level][dice] for level in range(1, deepest + 1))
        return self._capped_sums[dice, deepest]

    def _small_a(self, big: int, k: int, most: int, plus_one: int) -> int:
        """``P(X ≥ k and X + τ_{X + plus_one} ≤ K)``: only with B's bonus dice (``K > k``)."""
        if most <= k:
            return 0
        reach, row = self.reach("b"), self.row(self.race_a.scaled, big)
        return sum(row[total] * reach[total + plus_one][most - total] for total in range(k, min(most, len(row))))

    def _small_b(self, blows: int, c: int, big: int, plus_one: int) -> int:
        """``P(Y ≥ c and Y + σ_{Y + plus_one} ≤ C)``: only with A's bonus dice (``C > c``)."""
        if big <= c:
            return 0
        reach, row = self.reach("a"), self.row(self.race_b.scaled, blows)
        return sum(row[total] * reach[total + plus_one][big - total] for total in range(c, min(big, len(row))))


# ---- The enemy's reaction shot and first blow, together ------------------------------------------


class ReactionAndBlow:
    """Your unit's Wounds lost to the reaction shot (``reaction``: the dice of one enemy Wound) and
    then to the enemy's first blow (``blow``: one melee die per enemy Wound), for an enemy of 0, 1,
    2... Wounds in turn (:meth:`advance`), the first ``size`` totals.

    Both are rolled once per enemy Wound, so the whole is a power of one small polynomial. The
    outnumbering bonus depends on your models after the reaction, so the totals are also needed
    for the reactions from a threshold up (:meth:`above`): that power restricted to the reactions
    from the threshold changes by at most a few terms from one Wound to the next, and its totals
    start at the threshold, so that a threshold costs only the totals above it."""

    def __init__(self, reaction: Die, blow: Die, size: int) -> None:
        self.reaction, self.blow, self.size = reaction, blow, size
        self.both = convolve(reaction, blow, len(reaction) + len(blow) - 1)
        self.reactions: Series = [1]
        self.blows: Series = [1] + [0] * (size - 1)
        self.full: Series = list(self.blows)
        self._above: dict[int, Series] = {}

    def advance(self) -> None:
        """One enemy Wound more, for the full power and every threshold kept."""
        blows = convolve(self.blows, self.blow, self.size)
        self._above = {
            threshold: combine(
                (*self._terms(self.both, series), *self._crossing(threshold, blows)), self.size - threshold
            )
            for threshold, series in self._above.items()
        }
        self.reactions = convolve(
            self.reactions, self.reaction, min(self.size, len(self.reactions) + len(self.reaction) - 1)
        )
        self.blows = blows
        self.full = convolve(self.full, self.both, self.size)

    @staticmethod
    def _terms(die: Sequence[int], series: Series) -> Iterator[tuple[int, int, Series]]:
        """``series * die`` as the terms of :func:`combine`."""
        return ((weight, face, series) for face, weight in enumerate(die))

    def _crossing(self, threshold: int, blows: Series) -> Iterator[tuple[int, int, Series]]:
        """The terms that add the reactions crossing ``threshold`` with this Wound's die (from below
        it to ``threshold + offset``), each with the blows of all the enemy's Wounds, as the totals
        from ``threshold`` up."""
        reactions, reaction = self.reactions, self.reaction
        for offset in range(len(reaction) - 1):
            level = threshold + offset
            weight = sum(reaction[face] * reactions[level - face] for face in range(offset + 1, len(reaction))
                         if 0 <= level - face < min(threshold, len(reactions)))  # fmt: skip
            yield weight, offset, blows

    def above(self, threshold: int) -> Series:
        """The totals whose reaction was ``threshold`` or more, from the total ``threshold`` up (none is
        below it), kept from now on: made from the nearest threshold kept and the reactions between,
        or from the reactions above it."""
        if threshold in self._above:
            return self._above[threshold]
        reactions, blows, length = self.reactions, self.blows, max(0, self.size - threshold)
        near = min(self._above, key=lambda kept: abs(kept - threshold), default=None)
        if threshold >= len(reactions):
            series = [0] * length
        elif near is None or abs(near - threshold) > len(reactions) - threshold:
            levels = range(threshold, len(reactions))
            series = combine(((reactions[level], level - threshold, blows) for level in levels), length)
        elif near > threshold:
            levels = range(threshold, min(near, len(reactions)))
            terms = ((reactions[level], level - threshold, blows) for level in levels)
            series = combine(((1, near - threshold, self._above[near]), *terms), length)
        else:
            levels = range(near, threshold)
            terms = ((-reactions[level], 0, blows[threshold - level :]) for level in levels)
            series = combine(((1, 0, self._above[near][threshold - near :]), *terms), length)
        self._above[threshold] = series
        return series

    def between(self, low: int, high: int | None) -> Series:
        """The totals whose reaction was from ``low`` to below ``high`` (``None``: any above ``low``),
        from the total ``low`` up (:meth:`above`, or the full power when ``low`` is 0)."""
        upper = self.full if low == 0 else self.above(low)
        if high is None:
            return upper
        return upper[: high - low] + list(map(sub, upper[high - low :], self.above(high)))

    def keep(self, thresholds: set[int]) -> None:
        """Forget the thresholds not in ``thresholds`` (each costs a few terms per enemy Wound)."""
        self._above = {threshold: series for threshold, series in self._above.items() if threshold in thresholds}


# ---- The grid: every pair of sizes a charge row meets --------------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class MeleeSetting:
    """What every melee of a charge row shares, read from the melee calculator's own sides.

    ``a_dice[d]`` is your unit's strike die when the enemy holds ``d`` levels of Defensive Position,
    ``b_die`` the enemy's; ``base_a`` and ``base_b[d]`` the bonus dice other than outnumbering (the
    latter depends on the models each side has when the melee starts, ``mine_models[J]`` after
    losing ``J`` Wounds and ``enemy_models[L]`` after losing ``L``); ``defensive[L]`` the enemy's
    Defensive Position, as much as its dice pay for; ``first`` the chance your unit strikes first."""

    a_dice: dict[int, Die]
    b_die: Die
    first: Fraction
    base_a: int
    base_b: dict[int, int]
    mine_models: tuple[int, ...]
    enemy_models: tuple[int, ...]
    defensive: tuple[int, ...]
    outnumbering: dict[tuple[int, int], int]

    def bonuses(self, lost: int, lost_mine: int) -> tuple[int, int]:
        """The bonus dice of each side in the melee after these losses (kensei.combat-dice)."""
        mine, enemy = self.mine_models[lost_mine], self.enemy_models[lost]
        return (
            self.base_a + self.outnumbering[(mine, enemy)],
            self.base_b[self.defensive[lost]] + self.outnumbering[(enemy, mine)],
        )


@dataclass(frozen=True, eq=False, repr=False)
class Slice:
    """Every melee against the enemy once it has lost ``lost`` Wounds to your shots, summed over the
    Wounds your unit has left after the reaction shot (weights ``R^k``, ``k`` the enemy's Wounds).

    ``charged``, ``lump`` (your unit destroyed by the reaction) and ``reaction_taken`` are over
    ``t_R**k``; ``victory``, ``draw`` and ``taken`` (of the melee) over ``b t_R**k t_A**N t_B**m``;
    ``dealt[n]``, the weight of your unit rolling ``n`` dice (scaled by ``t_A**(N - n)``), over
    ``b t_R**k t_B**m`` (``b``: the denominator of the chance to strike first, ``N`` the most dice
    your unit rolls, ``m = k +`` the enemy's largest bonus)."""

    lost: int
    defensive: int
    charged: int
    lump: int
    reaction_taken: int
    victory: int
    draw: int
    taken: int
    dealt: Series


@dataclass(frozen=True, eq=False, repr=False)
class ChargeOdds:
    """A charge's figures once the enemy's losses to the shots are known (see :meth:`MeleeGrid.odds`)."""

    dealt: tuple[Fraction, ...]
    victory: Fraction
    draw: Fraction
    defeat: Fraction
    taken: Fraction
    charged: Fraction


class ReactionRows:
    """The reaction shot's weights for an enemy of ``k`` Wounds, ``k = 0, 1, 2...`` in turn (the first
    ``size`` of them): as they are, and scaled for the dealt Wounds (``t_A**J t_B**k``); with the
    enemy's first blow (:class:`ReactionAndBlow`) unless the reaction is no roll at all."""

    def __init__(self, reaction: Die, a_die: Die, b_die: Die, size: int) -> None:
        base_a, base_b = sum(a_die), sum(b_die)
        self.die = reaction
        self.scaled_die = tuple(weight * base_b for weight in scaled_die(reaction, base_a))
        self.size = size
        self.enemy = 0
        self.plain: Series = [1]
        self.scaled: Series = [base_b**0]
        self.total = 1
        self.blow = (
            None
            if len(reaction) == 1
            else ReactionAndBlow(scaled_die(reaction, base_a), scaled_die(b_die, base_a), size)
        )

    def advance(self) -> None:
        """One enemy Wound more."""
        self.enemy += 1
        self.plain = convolve(self.plain, self.die, min(self.size, len(self.plain) + len(self.die) - 1))
        self.scaled = convolve(self.scaled, self.scaled_die, min(self.size, len(self.scaled) + len(self.die) - 1))
        self.total *= sum(self.die)
        if self.blow is not None:
            self.blow.advance()


TablesKey = tuple[Die, Die, int, int]
"""What a :class:`PairTables` is made from: the two strike dice and the most dice of each side."""

Sizes = dict[tuple[Die, Die], tuple[int, int]]
"""The most dice of each side that the tables of two strike dice are made for (:func:`table_sizes`)."""


class MeleeGrid:
    """Every melee of a charge row at once (see the module's docstring), for one reaction shot.

    ``reaction`` is the reaction shot's die per enemy Wound (all the dice one Wound rolls), ``(1,)``
    when the enemy does not shoot or cannot reach; ``tables`` the :class:`PairTables` by Defensive
    Position, shared by the grids of a turn (they do not depend on the reaction). :meth:`odds` gives
    a row's figures; the work per enemy size (:class:`Slice`) is kept, since rows share the enemy
    sizes they meet."""

    def __init__(
        self,
        setting: MeleeSetting,
        reaction: Die,
        tables: dict[TablesKey, PairTables] | None = None,
        planned: Sizes | None = None,
    ) -> None:
        self.setting = setting
        self.reaction = reaction
        self.mine_total = len(setting.mine_models) - 1
        self.enemy_total = len(setting.enemy_models) - 1
        most_a, most_b = self._most_bonuses()
        self.most_bonus_a = most_a
        self.margin = max(0, most_b)
        self.most_dice = self.mine_total + most_a
        self._tables = {} if tables is None else tables
        self._planned = {} if planned is None else planned
        self._slices: dict[int, Slice] = {}
        self._blows: dict[tuple[Die, int], Series] = {}
        self._summed = False

    def _most_bonuses(self) -> tuple[int, int]:
        """The largest bonus dice of each side over every pair of sizes (sizes of the tables)."""
        setting = self.setting
        mine = {setting.mine_models[lost] for lost in range(self.mine_total)}
        enemy = {
            (setting.enemy_models[lost], setting.defensive[lost])
            for lost in range(self.enemy_total)
            if setting.defensive[lost] >= 0
        }
        most_a = max(setting.base_a + setting.outnumbering[(a, b)] for a in mine for b, _ in enemy)
        most_b = max(setting.base_b[d] + setting.outnumbering[(b, a)] for a in mine for b, d in enemy)
        return most_a, most_b

    def tables(self, defensive: int) -> PairTables:
        """The tables of the melees against an enemy holding ``defensive`` levels of Defensive Position,
        kept under everything they are made from: grids of other replies with the same dice share them,
        and tables made larger serve (their figures are the same for every size they hold). They are
        made as large as ``planned`` asks for their dice, or for the same dice the other way round (the
        melees of the turn's other replies: see :func:`table_sizes`)."""
        a_die, b_die = self.setting.a_dice[defensive], self.setting.b_die
        most_a, most_b = self.most_dice, self.enemy_total + self.margin
        planned_a, planned_b = self._planned.get((a_die, b_die), (0, 0))
        swapped_b, swapped_a = self._planned.get((b_die, a_die), (0, 0))
        key = (a_die, b_die, max(most_a, planned_a, swapped_a), max(most_b, planned_b, swapped_b))
        if key not in self._tables:
            for (kept_a, kept_b, size_a, size_b), made in self._tables.items():
                if (kept_a, kept_b) == (a_die, b_die) and size_a >= most_a and size_b >= most_b:
                    return made
            kept = next((tables.kept for tables in self._tables.values()), None)  # one store for the turn
            self._tables[key] = PairTables(a_die, b_die, key[2], key[3], kept)
        return self._tables[key]

    def table_sizes(self) -> Sizes:
        """The sizes this grid's tables need, under their dice (for the ``planned`` of other grids)."""
        most = (self.most_dice, self.enemy_total + self.margin)
        return {(a_die, self.setting.b_die): most for a_die in self.setting.a_dice.values()}

    def slices(self, wanted: set[int]) -> dict[int, Slice]:
        """The slices of the enemy sizes ``wanted`` (Wounds it lost to the shots), made in one pass
        over the enemy's sizes from the smallest up."""
        missing = {lost for lost in wanted if lost not in self._slices and self.setting.defensive[lost] >= 0}
        if missing:
            self._summed = self._few_pairs(missing)
            defensive = self.setting.defensive[min(missing)]
            rows = ReactionRows(self.reaction, self.setting.a_dice[defensive], self.setting.b_die, self.mine_total)
            for enemy in range(1, self.enemy_total - min(missing) + 1):
                rows.advance()
                lost = self.enemy_total - enemy
                if lost in missing:
                    self._slices[lost] = self._slice(lost, rows)
        return {lost: self._slices[lost] for lost in wanted}

    def _few_pairs(self, missing: set[int]) -> bool:
        """Whether the pairs of these enemy sizes cost less summed one by one (about ``5 min(c, k)``
        products each: :meth:`PairTables._summed_figures`) than the tables of every pair (tens of
        operations per entry of three tables of ``most_a * most_b``), counted at a quarter of them: a
        melee without a reaction shot meets one size of your unit per enemy size, a reaction shot
        every size it may leave. Once the turn has made tables (another reply's), they serve instead:
        their races serve the dice the other way round too."""
        reach = len(self.reaction) - 1
        terms = sum(
            5 * min(self.mine_total, reach * enemy + 1) * min(self.mine_total, enemy)
            for enemy in (self.enemy_total - lost for lost in missing)
        )
        tables = (self.most_dice + 1) * (self.enemy_total + self.margin + 1)
        return terms <= 4 * tables and not any(made.made() for made in self._tables.values())

    def _regions(self, lost: int, length: int) -> list[tuple[int, int, int, int]]:
        """Runs of your unit's losses to the reaction with the same bonus dice on each side."""
        regions: list[tuple[int, int, int, int]] = []
        for lost_mine in range(length):
            bonus_a, bonus_b = self.setting.bonuses(lost, lost_mine)
            if regions and regions[-1][2:] == (bonus_a, bonus_b):
                low, _, _, _ = regions[-1]
                regions[-1] = (low, lost_mine + 1, bonus_a, bonus_b)
            else:
                regions.append((lost_mine, lost_mine + 1, bonus_a, bonus_b))
        return regions

    def _slice(self, lost: int, rows: ReactionRows) -> Slice:
        enemy = rows.enemy
        defensive = self.setting.defensive[lost]
        tables = self.tables(defensive)
        plain = rows.plain
        charged = sum(plain)
        lump = rows.total - charged
        reaction_taken = sum(level * weight for level, weight in enumerate(plain)) + self.mine_total * lump
        regions = self._regions(lost, len(plain))
        victory, draw, taken_first = self._melee_sums(enemy, plain, regions, tables, charged)
        dealt, taken_second = self._dealt(enemy, rows, regions, tables, charged)
        taken = self.setting.first.numerator * taken_first + taken_second
        if rows.blow is not None:
            rows.blow.keep({low for low, _, _, _ in regions[1:]})
        return Slice(lost, defensive, charged, lump, reaction_taken, victory, draw, taken, dealt)

    def _melee_sums(
        self, enemy: int, plain: Series, regions: list[tuple[int, int, int, int]], tables: PairTables, charged: int
    ) -> tuple[int, int, int]:
        """Victory, draw and Wounds taken, summed over the pairs (:attr:`Slice.victory`): a pair's
        figures are over ``t_A**C t_B**m``, brought to one denominator by Horner's rule along each run
        of equal bonuses (one more die of yours per Wound), then run by run."""
        chance, whole = self.setting.first.numerator, self.setting.first.denominator
        base_a, base_b = tables.base_a, tables.base_b
        top = enemy + self.margin
        totals = [0, 0, 0]
        for low, high, bonus_a, bonus_b in regions:
            first_c = self.mine_total - high + 1
            sums = tables.run_sums(enemy, bonus_a, bonus_b, first_c, plain[high - 1 : low - 1 if low else None : -1],
                                   chance, whole - chance, self._summed)  # fmt: skip
            dice = self.mine_total - low + bonus_a
            factor = base_a ** (self.most_dice - dice) * base_b ** (top - max(0, enemy + bonus_b))
            totals = [total + value * factor for total, value in zip(totals, sums, strict=True)]
        totals[0] += chance * charged * base_a**self.most_dice * base_b**top
        return totals[0], totals[1], totals[2]

    def _dealt(
        self, enemy: int, rows: ReactionRows, regions: list[tuple[int, int, int, int]], tables: PairTables, charged: int
    ) -> tuple[Series, int]:
        """The weight of each number of dice your unit rolls (:attr:`Slice.dealt`): striking first
        with all it has left after the reaction, or after the enemy's first blow (none when that
        blow destroys it); and the Wounds the enemy's first blow takes (over ``b t_R**k t_A**N
        t_B**m``), from the same totals: ``E[min(Y, c)] = E[min(J + Y, M)] - J``."""
        chance, whole = self.setting.first.numerator, self.setting.first.denominator
        other = whole - chance
        base_a, base_b = tables.base_a, tables.base_b
        top, most, mine = enemy + self.margin, self.most_dice, self.mine_total
        dealt = [0] * (most + 1)
        lift = chance * base_b**self.margin
        unwiped = short = 0
        for low, high, bonus_a, bonus_b in regions:
            spare = base_a ** (self.most_bonus_a - bonus_a)
            for lost_mine in range(low, high):
                dealt[mine - lost_mine + bonus_a] += lift * spare * rows.scaled[lost_mine]
            blows = max(0, enemy + bonus_b)
            start, after = self._after_blow(rows, low, high, blows, bonus_b, tables)
            scale = base_b ** (top - blows)
            factor = other * spare * scale
            mass = weighted = 0  # Horner's rule: the totals' weights brought to one denominator
            for total, weight in enumerate(after, start):
                mass = mass * base_a + weight
                weighted = weighted * base_a + weight * (mine - total)
                if weight:
                    dealt[mine - total + bonus_a] += factor * weight
            unwiped += scale * mass
            short += scale * weighted
        whole_mass = charged * base_b**top * base_a**most
        dealt[0] += other * (whole_mass - unwiped * base_a ** (most - mine + 1))
        lost_before = sum(level * weight for level, weight in enumerate(rows.plain))
        taken = mine * whole_mass - short * base_a ** (most - mine + 1) - lost_before * base_b**top * base_a**most
        return dealt, other * taken

    def _after_blow(
        self, rows: ReactionRows, low: int, high: int, blows: int, bonus_b: int, tables: PairTables
    ) -> tuple[int, Series]:
        """Your unit's losses to the reaction (from ``low`` to ``high``) and the enemy's first blow of
        ``blows`` dice, below your unit's Wounds (each weight scaled by ``t_A`` per Wound): the first
        total that may have weight, and the weights from it up (none below ``low``, where the
        thresholds' totals are the same)."""
        mine = self.mine_total
        blow = scaled_die(tables.b, tables.base_a)
        if rows.blow is None:
            return 0, self._blow_row(blow, blows)
        if bonus_b < 0:
            raise ValueError("a reaction shot and Defensive Position together are not read here")
        pair = rows.blow
        series = pair.between(low, None if high >= len(pair.reactions) or high >= mine else high)
        return low, convolve(series, power_row(blow, bonus_b), mine - low) if bonus_b else series

    def _blow_row(self, blow: Die, count: int) -> Series:
        """``count`` rolls of ``blow`` below your unit's Wounds, each from the largest count kept below it
        (the enemy sizes come in turn, so each is one roll more)."""
        if (blow, count) not in self._blows:
            start = max((kept for die, kept in self._blows if die == blow and kept < count), default=0)
            row = self._blows.get((blow, start), power_row(blow, 0, self.mine_total))
            for _ in range(count - start):
                row = convolve(row, blow, self.mine_total)
            self._blows[(blow, count)] = row
        return self._blows[(blow, count)]

    def odds(self, shot: Sequence[Fraction], reach: Fraction) -> ChargeOdds:
        """A charge row's figures: ``shot[L]`` the chance the enemy lost ``L`` Wounds to your shots
        (up to all it has), ``reach`` the charge's chance to reach. As the advisor reads them: the
        enemy destroyed by the shots is a victory and is not charged; your unit destroyed by the
        reaction shot is a defeat and does not charge; a charge that falls short deals nothing.

        The sums stay integers over one denominator until each figure is made a fraction once: a
        sum of fractions of a few thousand bits costs a greatest common divisor per term."""
        enemy_total = self.enemy_total
        wanted = {lost for lost in range(min(enemy_total, len(shot))) if shot[lost]}
        slices = self.slices(wanted)
        common = lcm(*(chance.denominator for chance in shot[: enemy_total + 1]))
        top = enemy_total - min(wanted) if wanted else 0
        base_r = sum(self.reaction)
        weights = {
            lost: shot[lost].numerator * (common // shot[lost].denominator) * base_r ** (top - enemy_total + lost)
            for lost in wanted
        }
        below = common * base_r**top
        melee, extra = self._melee_part(slices, weights, top)  # over below * extra

        def reaction_part(figure: Callable[[Slice], int]) -> int:  # over below
            return sum(weights[lost] * figure(slices[lost]) for lost in wanted)

        charged = reaction_part(lambda part: part.charged)
        over = below * extra * reach.denominator  # the denominator of every Wounds total's chance
        numerators = [0] * (enemy_total + 1)
        for total, chance in enumerate(shot[: enemy_total + 1]):
            numerators[total] = chance.numerator * (over // chance.denominator)
        for lost in wanted:
            numerators[lost] -= reach.numerator * weights[lost] * slices[lost].charged * extra
        for total, after in enumerate(melee.dealt):
            numerators[total] += reach.numerator * after
        dealt = [Fraction(numerator, over) for numerator in numerators]
        destroyed = shot[enemy_total] if len(shot) > enemy_total else Fraction(0)
        victory, draw, taken = (reach * Fraction(figure, below * extra) for figure in melee.figures)
        return ChargeOdds(
            tuple(dealt),
            destroyed + victory,
            draw,
            Fraction(reaction_part(lambda part: part.lump), below) + reach * Fraction(charged, below) - victory - draw,
            Fraction(reaction_part(lambda part: part.reaction_taken), below) + taken,
            Fraction(charged, below),
        )

    def _melee_part(self, slices: dict[int, Slice], weights: dict[int, int], top: int) -> tuple[MeleeSums, int]:
        """The melee's victory, draw and Wounds taken, and the distribution of the Wounds the enemy
        loses in all (shots and melee) over the charges made, each enemy size weighted by
        ``weights`` (with ``t_R**(top - k)`` in): integers over the weights' denominator times the
        factor returned (one per Defensive Position held, brought to their least common multiple)."""
        whole = self.setting.first.denominator
        base_b = sum(self.setting.b_die)
        parts: list[tuple[MeleeSums, int]] = []
        for defensive in sorted({part.defensive for part in slices.values()}):
            group = {lost: part for lost, part in slices.items() if part.defensive == defensive}
            tables = self.tables(defensive)
            factor = {lost: weights[lost] * base_b ** (top - self.enemy_total + lost) for lost in group}
            figures = (
                sum(factor[lost] * part.victory for lost, part in group.items()),
                sum(factor[lost] * part.draw for lost, part in group.items()),
                sum(factor[lost] * part.taken for lost, part in group.items()),
            )
            rows = {lost: part.dealt for lost, part in group.items()}
            spread = horner(factor, rows, tables.a, self.most_dice, self.enemy_total + 1)
            over = whole * base_b ** (top + self.margin) * tables.base_a**self.most_dice
            parts.append((MeleeSums(figures, spread), over))
        extra = lcm(*(over for _, over in parts)) if parts else 1
        totals, dealt = [0, 0, 0], [0] * (self.enemy_total + 1)
        for sums, over in parts:
            times = extra // over
            totals = [total + value * times for total, value in zip(totals, sums.figures, strict=True)]
            dealt = [total + value * times for total, value in zip(dealt, sums.dealt, strict=True)]
        return MeleeSums((totals[0], totals[1], totals[2]), dealt), extra


def table_sizes(grids: Iterable[MeleeGrid]) -> Sizes:
    """The largest sizes the tables of each pair of dice need over ``grids`` (the melees of a turn's
    replies: a counter-charge's bonus dice ask for tables a few dice larger than a withstanding
    enemy's), to make each pair's tables once for all of them (:meth:`MeleeGrid.tables`)."""
    sizes: Sizes = {}
    for grid in grids:
        for dice, (most_a, most_b) in grid.table_sizes().items():
            known_a, known_b = sizes.get(dice, (0, 0))
            sizes[dice] = max(known_a, most_a), max(known_b, most_b)
    return sizes


@dataclass(frozen=True, eq=False, repr=False)
class MeleeSums:
    """The melee's victory, draw and Wounds taken, and the enemy's whole losses, as integer numerators
    over a denominator kept beside them (see :meth:`MeleeGrid._melee_part`)."""

    figures: tuple[int, int, int]
    dealt: Series


def horner(factors: dict[int, int], rows: dict[int, Series], die: Die, most: int, size: int) -> Series:
    """``Σ_n P_n * die**n`` with ``P_n[L] = factors[L] * rows[L][n]`` (``L`` the enemy's losses before
    the melee, an index of the result), every total from ``size - 1`` up counted at ``size - 1`` (the
    enemy cannot lose more Wounds than it has). Each coefficient is made as it is added (a table of
    them all would hold tens of megabytes of numbers of thousands of bits), and none for no weight.

    A factor carries the denominators of the enemy sizes below its own, powers of dice totals such as
    1000, whose powers of two are shifted in after each product instead of multiplied: a product of
    fewer bits (a sixth fewer for the denominators of the d10's)."""
    odd = {lost: _odd_and_shift(factor) for lost, factor in factors.items()}
    spread = [0] * size
    for dice in range(most, -1, -1):
        grown = convolve(spread, die, size + len(die) - 1)
        spread = [*grown[: size - 1], sum(grown[size - 1 :])]
        for lost, row in rows.items():
            if row[dice]:
                factor, shift = odd[lost]
                spread[lost] += (factor * row[dice]) << shift
    return spread


def _odd_and_shift(number: int) -> tuple[int, int]:
    """``number`` as ``odd << shift`` (``odd`` odd, or 0)."""
    shift = (number & -number).bit_length() - 1 if number else 0
    return number >> shift, shift


# ---- Reading the melee calculator's sides ----------------------------------------------------------


def melee_setting(
    mapping: Callable[[int, int], dict[str, Any]],
    mine_models: Sequence[int],
    enemy_models: Sequence[int],
    rules: RuleValues,
) -> MeleeSetting:
    """The figures every melee of a row shares, read through the melee calculator's inputs and sides
    (its checks, its modifiers): ``mapping(L, J)`` is the calculator's inputs once the enemy lost
    ``L`` Wounds and your unit ``J``, ``mine_models[J]`` and ``enemy_models[L]`` the models left.

    An enemy size whose inputs the calculator refuses is marked ``-1`` in ``defensive``: the advisor
    never meets it (it leaves out the rows whose melee the calculator refuses)."""
    defensive = tuple(_defensive(mapping(lost, 0), rules) for lost in range(len(enemy_models) - 1))
    levels = sorted({level for level in defensive if level >= 0})
    outnumbering = {
        (own, other): melee.outnumbering(own, other, rules)
        for own in {*mine_models, *enemy_models}
        for other in {*mine_models, *enemy_models}
        if own and other
    }
    a_dice, base_b = {}, {}
    for level in levels:
        lost = defensive.index(level)
        values = dict(mapping(lost, 0), b_defensive=level)
        inputs: Any = melee.MeleeInputs.from_dict(values, rules)
        a, b = melee.side_figures(inputs, "a", []), melee.side_figures(inputs, "b", [])
        reading = ("threshold", rules, inputs.defense_rule)
        a_dice[level] = _weights(strike_die(a.effective_attack, b.effective_defense, b.armor, *reading))
        b_die = _weights(strike_die(b.effective_attack, a.effective_defense, a.armor, *reading))
        models = (values["a_models"], values["b_models"])
        base_a = a.bonus_dice - outnumbering[models]
        base_b[level] = b.bonus_dice - outnumbering[models[::-1]]
        first = melee.a_strikes_first(inputs, a, b)
    return MeleeSetting(
        a_dice, b_die, first, base_a, base_b, tuple(mine_models), tuple(enemy_models), defensive, outnumbering
    )


def _weights(pmf: Pmf) -> Die:
    """A distribution's weights from 0 Wounds up."""
    return (0,) * pmf.offset + pmf.weights


def checked_melee_inputs(values: dict[str, Any], rules: RuleValues) -> dict[str, Any]:
    """The melee calculator's inputs as it accepts them: the enemy takes as much Defensive Position as
    asked, less one level at a time while its dice do not pay for it (the advisor's reading).

    Raises:
        CalculatorInputError: the calculator's refusal of anything else.
    """
    values = dict(values)
    while True:
        try:
            melee.MeleeInputs.from_dict(values, rules)
            return values
        except CalculatorInputError as error:
            if error.field != "b_defensive" or not values["b_defensive"]:
                raise
            values["b_defensive"] -= 1


def _defensive(values: dict[str, Any], rules: RuleValues) -> int:
    """The enemy's Defensive Position in the melee of ``values``; ``-1`` when the calculator refuses it."""
    try:
        return int(checked_melee_inputs(values, rules)["b_defensive"])
    except CalculatorInputError:
        return -1
