"""Pillow renderer: board views to PNG bytes (imports ``solitaire``, never the reverse; never discord)."""

from render.board import render_board

__all__ = ["render_board"]
