import doctest

import pytest

from render import layout
from render.layout import (
    BOTTOM_MARGIN,
    CARD_H,
    MAX_HEIGHT,
    MIN_HEIGHT,
    MIN_UP_OFFSET,
    TABLEAU_Y,
    board_height,
    fan_offsets,
    pile_tops,
)


def test_layout_doctests():
    assert doctest.testmod(layout).failed == 0


@pytest.mark.parametrize(
    ("hidden", "up", "space", "expected"),
    [
        (0, 1, 400, (12, 46)),
        (6, 1, 400, (12, 46)),
        (3, 6, 400, (10, 46)),
        (3, 8, 450, (6, 41)),
        (6, 8, 450, (6, 39)),
        (6, 13, 600, (6, 35)),
    ],
)
def test_fan_offsets_shrink_face_down_steps_first(hidden, up, space, expected):
    assert fan_offsets(hidden, up, space) == expected


@pytest.mark.parametrize("hidden", range(7))
@pytest.mark.parametrize("up", range(14))
def test_every_pile_fits_and_keeps_its_indices_readable(hidden, up):
    height = board_height([(hidden, up)])
    assert MIN_HEIGHT <= height <= MAX_HEIGHT
    tops = pile_tops(hidden, up, height)
    assert len(tops) == hidden + up
    if tops:
        assert tops[0] == TABLEAU_Y and tops[-1] + CARD_H <= height - BOTTOM_MARGIN
    steps = [b - a for a, b in zip(tops[hidden:], tops[hidden + 1 :], strict=False)]
    assert all(step >= MIN_UP_OFFSET for step in steps)


def test_heights_come_in_steps():
    heights = {board_height([(hidden, up)]) for hidden in range(7) for up in range(14)}
    assert all((h - MIN_HEIGHT) % layout.HEIGHT_STEP == 0 for h in heights)
    assert board_height([(6, 5)], steady=False) < board_height([(6, 5)])
