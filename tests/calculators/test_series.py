"""The integer series primitives of calculators.melee_grid and calculators.pmf against their
definitions, coefficient by coefficient: the calculators' exactness rests on them, and their fast
forms (lazy ``map`` chains, running sums in one pass, Miller's recurrence for powers) are easy to get
subtly wrong at the edges (empty terms, zero weights, a shift past the end, leading zero faces, huge
or negative coefficients)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.melee_grid import combine, convolve, cumulated, divided
from calculators.pmf import multiply, power

HUGE = 1 << 4000
coefficients = st.lists(st.integers(-HUGE, HUGE) | st.integers(-3, 3), max_size=12)
weights = st.integers(-(10**12), 10**12) | st.just(0)
sizes = st.integers(0, 16)


def naive_combine(terms, size):
    out = [0] * size
    for weight, shift, series in terms:
        for index, value in enumerate(series):
            if index + shift < size:
                out[index + shift] += weight * value
    return out


@given(st.lists(st.tuples(weights, st.integers(0, 20), coefficients), max_size=5), sizes)
def test_combine_is_the_sum_of_its_shifted_terms(terms, size):
    assert combine(terms, size) == naive_combine(terms, size)


@given(coefficients, st.lists(weights, min_size=1, max_size=6), sizes)
def test_convolve_is_the_truncated_product(row, die, size):
    terms = [(weight, shift, row) for shift, weight in enumerate(die)]
    assert convolve(row, die, size) == naive_combine(terms, size)


@given(coefficients, weights)
def test_divided_and_cumulated_are_running_sums(series, ratio):
    expected = [sum(series[v] * ratio ** (k - v) for v in range(k + 1)) for k in range(len(series))]
    assert divided(series, ratio) == expected
    assert cumulated(series, ratio) == expected


@settings(deadline=None)
@given(
    st.lists(st.integers(0, 1 << 300) | st.integers(0, 3), min_size=1, max_size=8).filter(any),
    st.integers(1, 30),
)
def test_power_is_the_repeated_product(die, count):
    expected = tuple(die)
    for _ in range(count - 1):
        expected = multiply(expected, die)
    assert power(die, count) == expected


def test_power_of_a_large_volley_is_the_repeated_product():
    """200 dice of a shot's three faces (the largest volley the advisor meets)."""
    die = (741, 222, 37)
    expected = (1,)
    for _ in range(200):
        expected = tuple(convolve(expected, die, len(expected) + 2))
    assert power(die, 200) == expected
