"""The Python ranking key is the ranking rule (``RANK_ORDER``) written out: it sorts every result as the rule does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.ranking import RANK_ORDER, UNKNOWN_SECONDS, Ranked, rank_key

RESULTS = st.lists(
    st.builds(
        Ranked,
        rank=st.just(0),
        user_id=st.integers(1, 6),
        score=st.integers(-200, 200).map(lambda points: points * 5),
        seconds_used=st.none() | st.integers(0, 300),
        finished_at=st.integers(0, 4).map(float),
    ),
    max_size=30,
)


def by_the_rule(entry: Ranked) -> tuple[float, ...]:
    """The key read from the rule's data, column by column (slow, plain)."""
    values = {"seconds_used": UNKNOWN_SECONDS if entry.seconds_used is None else entry.seconds_used}
    return tuple(
        (-1 if higher_first else 1) * values.get(column, getattr(entry, column)) for column, higher_first in RANK_ORDER
    )


@given(RESULTS)
def test_the_key_sorts_every_result_as_the_rule_reads(entries: list[Ranked]):
    assert sorted(entries, key=rank_key) == sorted(entries, key=by_the_rule)
