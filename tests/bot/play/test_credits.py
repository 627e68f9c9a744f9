"""The busy-time ledger: a game's clock credits never add up to more than the bot's busy wall time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.play.credits import MAX_CREDIT, BusyTime

Interval = tuple[float, float]


def union(intervals: list[Interval]) -> float:
    """The wall time covered by ``intervals`` (each cut at MAX_CREDIT after its press), counted once."""
    total, reach = 0.0, float("-inf")
    for start, end in sorted((p, min(a, p + MAX_CREDIT)) for p, a in intervals):
        if end > max(start, reach):
            total += end - max(start, reach)
            reach = end
    return total


def credit_all(steps: list[Interval]) -> list[float]:
    """Credit every ``(pressed, until)`` step in this order on a fresh ledger; return each step's credit."""
    busy, given_back = BusyTime(0.0), []
    for pressed, until in steps:
        amount, busy = busy.credit(pressed, until)
        given_back.append(amount)
    return given_back


presses = st.lists(
    st.tuples(
        st.integers(0, 2_000).map(lambda tenths: tenths / 10),
        st.integers(0, 80).map(lambda tenths: tenths / 10),
    ).map(lambda pair: (pair[0], pair[0] + pair[1])),
    max_size=12,
)


def test_five_presses_in_flight_together_share_three_seconds():
    steps = [(0.1 * index, 3.0) for index in range(5)]
    assert sum(credit_all(steps)) == pytest.approx(3.0)


def test_presses_one_after_another_are_each_credited_in_full_up_to_the_cap():
    assert credit_all([(0.0, 1.0), (2.0, 6.0), (7.0, 7.5)]) == [1.0, 3.0, 0.5]


@settings(max_examples=300)
@given(presses, st.randoms(use_true_random=False))
def test_credits_in_any_order_never_exceed_the_union_of_busy_intervals(intervals, random):
    order = list(intervals)
    random.shuffle(order)
    given_back = credit_all(order)
    assert all(amount >= 0 for amount in given_back)
    assert sum(given_back) <= union(intervals) + 1e-9


@settings(max_examples=300)
@given(presses)
def test_credits_in_press_order_add_up_to_the_union(intervals):
    assert sum(credit_all(sorted(intervals))) == pytest.approx(union(intervals))


@settings(max_examples=300)
@given(presses, st.data())
def test_a_press_credited_in_steps_never_gets_more_than_the_cap(intervals, data):
    steps = []
    for pressed, answered in intervals:  # each press credited at its save, then at its answer
        saved = data.draw(st.floats(pressed, answered))
        steps += [(pressed, saved), (pressed, answered)]
    given_back = credit_all(steps)
    per_press: dict[float, float] = {}
    for (pressed, _), amount in zip(steps, given_back, strict=True):
        per_press[pressed] = per_press.get(pressed, 0.0) + amount
    assert all(total <= MAX_CREDIT + 1e-9 for total in per_press.values())
    assert sum(given_back) <= union(intervals) + 1e-9
