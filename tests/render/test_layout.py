import doctest

import pytest

from render import layout
from render.layout import BOTTOM, CARD_H, MIN_UP_OFFSET, TABLEAU_Y, fan_offsets, pile_tops


def test_layout_doctests():
    assert doctest.testmod(layout).failed == 0


@pytest.mark.parametrize(
    ("hidden", "up", "expected"),
    [
        (0, 1, (14, 42)),
        (6, 1, (14, 42)),
        (2, 8, (14, 42)),
        (3, 8, (12, 42)),
        (6, 8, (6, 42)),
        (0, 13, (14, 27)),
        (6, 13, (6, 24)),
    ],
)
def test_fan_offsets_shrink_face_down_steps_first(hidden, up, expected):
    assert fan_offsets(hidden, up) == expected


@pytest.mark.parametrize("hidden", range(7))
@pytest.mark.parametrize("up", range(14))
def test_every_pile_fits_and_keeps_its_indices_readable(hidden, up):
    tops = pile_tops(hidden, up)
    assert len(tops) == hidden + up
    if tops:
        assert tops[0] == TABLEAU_Y and tops[-1] + CARD_H <= BOTTOM
    steps = [b - a for a, b in zip(tops[hidden:], tops[hidden + 1 :], strict=False)]
    assert all(step >= MIN_UP_OFFSET for step in steps)
