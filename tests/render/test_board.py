import dataclasses
import io

import pytest
from PIL import Image

from render import render_board
from render.layout import HEIGHT, WIDTH
from solitaire import Status, new_game, view_of


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


@pytest.mark.parametrize("variant", ["draw1", "draw3", "goldrush", "friday13"])
def test_fresh_board_is_a_wide_palette_png(variant):
    data = render_board(view_of(new_game(variant, seed=3)), time_left=300)
    assert data.startswith(b"\x89PNG")
    image = _image(data)
    assert (image.size, image.mode) == ((WIDTH, HEIGHT), "P")
    assert image.size[0] >= 1000 and image.size[0] > image.size[1]


@pytest.mark.parametrize("status", [Status.WON, Status.ENDED, Status.STUCK, Status.EXPIRED])
@pytest.mark.parametrize("variant", ["draw3", "friday13"])
def test_every_end_state_renders(variant, status):
    view = dataclasses.replace(view_of(new_game(variant, seed=3)), status=status, seconds_used=120)
    assert _image(render_board(view)).size == (WIDTH, HEIGHT)
