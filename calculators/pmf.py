"""Exact distributions of integer outcomes with integer weights.

A :class:`Pmf` gives each outcome ``offset + i`` the weight ``weights[i]``; its probability is
the weight over the sum of all weights. Integers keep every sum and product exact and fast;
:meth:`Pmf.probability` turns them into :class:`fractions.Fraction` at the end. Sums of many
dice use Kronecker substitution: a polynomial packed into one big integer, so that Python's own
big-integer multiplication does the convolution; powers follow Miller's recurrence (:func:`power`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import gcd

_NAIVE_LIMIT = 24
"""Below this many terms in the shorter factor, a plain double loop beats packing."""


@dataclass(frozen=True)
class Pmf:
    """A distribution over ``offset, offset + 1, ...`` with non-negative integer weights.

    Instances are immutable; every operation returns a new one.
    """

    weights: tuple[int, ...]
    offset: int = 0

    def __post_init__(self) -> None:
        if not self.weights or any(w < 0 for w in self.weights) or not any(self.weights):
            raise ValueError("a distribution needs non-negative weights, not all zero")

    @classmethod
    def point(cls, outcome: int = 0) -> Pmf:
        """Certainty of one outcome."""
        return cls((1,), outcome)

    @classmethod
    def from_counts(cls, counts: Mapping[int, int]) -> Pmf:
        """From ``{outcome: number of equally likely ways}``, with the smallest integer weights.

        Dividing the weights by their common factor keeps sums of many dice small and fast.
        """
        low, high = min(counts), max(counts)
        common = gcd(*counts.values())
        return cls(tuple(counts.get(k, 0) // common for k in range(low, high + 1)), low).trimmed()

    @cached_property
    def total(self) -> int:
        """The sum of the weights: the common denominator of the probabilities."""
        return sum(self.weights)

    @property
    def outcomes(self) -> range:
        return range(self.offset, self.offset + len(self.weights))

    def trimmed(self) -> Pmf:
        """Without impossible outcomes at either end."""
        start = next(i for i, w in enumerate(self.weights) if w)
        stop = len(self.weights) - next(i for i, w in enumerate(reversed(self.weights)) if w)
        if start == 0 and stop == len(self.weights):
            return self
        return Pmf(self.weights[start:stop], self.offset + start)

    def __add__(self, other: Pmf) -> Pmf:
        """The distribution of the sum of two independent outcomes."""
        return Pmf(multiply(self.weights, other.weights), self.offset + other.offset)

    def sum_of(self, count: int) -> Pmf:
        """The distribution of the sum of ``count`` independent copies (one ``pow``)."""
        if count == 0:
            return Pmf.point(0)
        return Pmf(power(self.weights, count), self.offset * count)

    def sums_up_to(self, count: int) -> list[Pmf]:
        """``[sum of 0 copies, sum of 1 copy, ..., sum of count copies]``, each from the last."""
        sums = [Pmf.point(0)]
        for _ in range(count):
            sums.append(sums[-1] + self)
        return sums

    def capped(self, limit: int) -> Pmf:
        """The distribution of ``min(outcome, limit)``."""
        if self.offset >= limit:
            return Pmf.point(limit)
        keep = limit - self.offset
        if keep >= len(self.weights) - 1:
            return self
        return Pmf((*self.weights[:keep], sum(self.weights[keep:])), self.offset)

    def probability(self, outcome: int) -> Fraction:
        """P(exactly ``outcome``)."""
        index = outcome - self.offset
        weight = self.weights[index] if 0 <= index < len(self.weights) else 0
        return Fraction(weight, self.total)

    def mean(self) -> Fraction:
        """The expected outcome, exactly."""
        return Fraction(sum(k * w for k, w in zip(self.outcomes, self.weights, strict=True)), self.total)


def multiply(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """The coefficients of the product of two polynomials with non-negative integer coefficients."""
    if min(len(a), len(b)) <= _NAIVE_LIMIT:
        return _multiply_naive(a, b)
    width = _slot_bytes(max(a) * max(b) * min(len(a), len(b)))
    product = _pack(a, width) * _pack(b, width)
    return _unpack(product, width, len(a) + len(b) - 1)


def power(a: Sequence[int], count: int) -> tuple[int, ...]:
    """The coefficients of ``a(x) ** count`` (``count`` at least 1), each from the few before it.

    J. C. P. Miller's recurrence for the power ``f = a**n`` of a polynomial with ``a_0 ≠ 0`` comes
    from ``a f' = n a' f``: ``k a_0 f_k = Σ_j ((n + 1) j - k) a_j f_{k-j}`` (``1 ≤ j ≤ deg a``). The
    division is exact, since ``f_k`` is an integer, so the coefficients stay exact integers; a volley
    of 200 dice costs a few multiplications per Wound instead of squaring a packed integer of a
    million bits (about 40 times faster). Leading zero coefficients are a power of ``x`` set apart."""
    zeros = next(index for index, weight in enumerate(a) if weight)
    a = a[zeros:]
    degree, first = len(a) - 1, a[0]
    coefficients = [first**count]
    for k in range(1, degree * count + 1):
        terms = (((count + 1) * j - k) * a[j] * coefficients[k - j] for j in range(1, min(k, degree) + 1) if a[j])
        coefficients.append(sum(terms) // (k * first))
    return (0,) * (zeros * count) + tuple(coefficients)


def _multiply_naive(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    if len(a) < len(b):
        a, b = b, a
    result = [0] * (len(a) + len(b) - 1)
    for j, y in enumerate(b):
        if y:
            for i, x in enumerate(a):
                result[i + j] += x * y
    return tuple(result)


def _slot_bytes(largest: int) -> int:
    return largest.bit_length() // 8 + 1


def _pack(coefficients: Sequence[int], width: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in coefficients), "little")


def _unpack(packed: int, width: int, terms: int) -> tuple[int, ...]:
    raw = packed.to_bytes(width * terms, "little")
    return tuple(int.from_bytes(raw[i : i + width], "little") for i in range(0, width * terms, width))
