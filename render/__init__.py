"""Pillow renderer: board views to PNG bytes (imports ``solitaire``, never the reverse; never discord)."""

from render.board import render_board
from render.sprites import warm_up

__all__ = ["render_board", "warm_up"]
